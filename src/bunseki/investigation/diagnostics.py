"""Deterministic diagnostics of a flag column against its reference and expectation (no case knowledge)."""

from __future__ import annotations

from typing import Any

import numpy as np


def runs(frames: list[int]) -> list[tuple[int, int]]:
    """Consecutive frame numbers as inclusive (start, end) runs."""
    out: list[tuple[int, int]] = []
    for frame in sorted(frames):
        if out and frame == out[-1][1] + 1:
            out[-1] = (out[-1][0], frame)
        else:
            out.append((frame, frame))
    return out


def best_lag(output: np.ndarray, reference: np.ndarray, max_lag: int = 20) -> int:
    """The shift of ``output`` (frames; positive = output late) that best matches ``reference``."""
    n = len(output)
    best, best_rate = 0, float(np.mean(output == reference)) if n else 1.0
    for size in range(1, min(max_lag, n - 1) + 1):
        for lag in (size, -size):
            if lag > 0:
                rate = float(np.mean(output[lag:] == reference[:-lag]))
            else:
                rate = float(np.mean(output[:lag] == reference[-lag:]))
            if rate > best_rate + 1e-12:
                best, best_rate = lag, rate
    return best


def diagnose(
    frames: np.ndarray,
    output: np.ndarray,
    reference: np.ndarray,
    inputs: dict[str, np.ndarray],
    constants: list[float],
) -> dict[str, Any]:
    """Facts about how output and reference differ, each as plain numbers and lists."""
    differ = output != reference
    mismatch = [int(f) for f in frames[differ]]
    out_runs = runs([int(f) for f in frames[output == 1]])
    ref_runs = runs([int(f) for f in frames[reference == 1]])
    start_shifts: list[int] = []
    end_shifts: list[int] = []
    for start, end in ref_runs:
        overlapping = [(s, e) for s, e in out_runs if s <= end and e >= start]
        if overlapping:
            start_shifts.append(overlapping[0][0] - start)
            end_shifts.append(overlapping[-1][1] - end)
    near: set[int] = set()
    for frame in mismatch:
        near.update(range(frame - 10, frame + 11))
    near_mask = np.isin(frames, sorted(near))
    at_threshold: list[dict[str, Any]] = []
    close_to_threshold: list[dict[str, Any]] = []
    missing: dict[str, int] = {}
    for name, values in inputs.items():
        numeric = values.astype(float)
        nan_near = int(np.isnan(numeric[near_mask]).sum())
        if nan_near:
            missing[name] = nan_near
        for constant in sorted(set(constants)):
            if constant == 0:
                continue
            exact = near_mask & (numeric == constant)
            close = near_mask & ~exact & (np.abs(numeric - constant) < 1e-6 * max(1.0, abs(constant)))
            if exact.any():
                at_threshold.append({"column": name, "value": constant, "frames": [int(f) for f in frames[exact]]})
            if close.any():
                close_to_threshold.append(
                    {"column": name, "value": constant, "frames": [int(f) for f in frames[close]]}
                )
    lag = best_lag(output, reference) if differ.any() else 0
    mismatch_runs = runs(mismatch)
    first, last = (int(frames[0]), int(frames[-1])) if len(frames) else (0, 0)
    edge_runs = [e - s + 1 for s, e in mismatch_runs if s == first or e == last]
    thresholds = {
        name: found
        for name, values in inputs.items()
        if (found := threshold_shift(values.astype(float), output, reference)) is not None
    }
    return {
        "mismatched_frames": mismatch,
        "mismatched_runs": [list(r) for r in mismatch_runs],
        "output_runs": [list(r) for r in out_runs],
        "reference_runs": [list(r) for r in ref_runs],
        "lag": lag,
        "start_shifts": start_shifts,
        "end_shifts": end_shifts,
        "at_threshold": at_threshold,
        "close_to_threshold": close_to_threshold,
        "missing_near_mismatch": missing,
        "edge_mismatch": bool(edge_runs),
        "edge_run_lengths": edge_runs,
        "threshold_shift": thresholds,
        "rounding": {name: hits for name, shift in thresholds.items() if (hits := rounding_explains(shift, constants))},
    }


# Scale factors that unit and scale errors are made of (powers of ten, halves, minutes, hours, inches).
NICE_FACTORS = sorted(
    {m * 10.0**k for m in (1.0, 2.0, 2.5, 5.0) for k in range(-4, 5)} | {60.0, 3600.0, 1.8, 2.54, 1024.0}
)


def threshold_edges(values: np.ndarray, flags: np.ndarray) -> tuple[str, float, float] | None:
    """If ``flags`` is exactly "value at or above some level" (or below), that level's bounds.

    Returns (direction, low, high): the level lies in (low, high]. None when no single threshold
    on this signal separates the flagged frames from the others.
    """
    finite = np.isfinite(values)
    on, off = values[finite & (flags == 1)], values[finite & (flags == 0)]
    if not len(on) or not len(off):
        return None
    if off.max() < on.min():
        return "above", float(off.max()), float(on.min())
    if on.max() < off.min():
        return "below", float(on.max()), float(off.min())
    return None


def threshold_shift(values: np.ndarray, output: np.ndarray, reference: np.ndarray) -> dict[str, Any] | None:
    """Output and reference both behave as thresholds on ``values`` but at different levels.

    The ratio of the levels suggests a scale or unit error: ``factors`` are the round factors
    (see NICE_FACTORS) consistent with both levels' bounds, closest to the midpoints' ratio first.
    """
    out, ref = threshold_edges(values, output), threshold_edges(values, reference)
    if out is None or ref is None or out[0] != ref[0] or (out[1], out[2]) == (ref[1], ref[2]):
        return None
    factors: list[float] = []
    if min(out[1], out[2], ref[1], ref[2]) > 0:
        low, high = ref[1] / out[2], ref[2] / out[1]  # level_ref / level_out lies in (low, high)
        middle = ((ref[1] + ref[2]) / 2) / ((out[1] + out[2]) / 2)
        candidates = [f for f in NICE_FACTORS if low < f < high and abs(f - 1) > 1e-9]
        factors = sorted(candidates, key=lambda f: abs(np.log(f / middle)))[:4]
    return {
        "direction": out[0],
        "output_level": [out[1], out[2]],
        "reference_level": [ref[1], ref[2]],
        "factors": factors,
    }


ROUNDING_DECIMALS = range(4)


def rounding_explains(shift: dict[str, Any], constants: list[float]) -> list[dict[str, Any]]:
    """Code constants that the output compares with after rounding or an integer cast.

    When the reference flags at a constant ``c`` of the code but the output at another level, and
    that level is where ``c`` lands for rounded values (``round(x, k) >= c`` flags from
    ``c - 0.5·10⁻ᵏ``) or integer values (``int(x) >= c`` from ``ceil(c)``), the signal was rounded
    or cast before the comparison. Each finding: the constant, the transform and the level.
    """
    out_low, out_high = shift["output_level"]
    ref_low, ref_high = shift["reference_level"]
    found: list[dict[str, Any]] = []
    for c in sorted(set(constants)):
        if not ref_low < c <= ref_high:
            continue
        levels: list[tuple[str, int | None, float]] = [
            (_rounded(k), k, c + sign * 0.5 * 10.0**-k) for k in ROUNDING_DECIMALS for sign in (-1, 1)
        ]
        levels += [("cast to integer", None, float(level)) for level in (np.floor(c), np.ceil(c), np.floor(c) + 1)]
        for transform, decimals, level in levels:
            if out_low < level <= out_high and not ref_low < level <= ref_high:
                found.append({"constant": c, "transform": transform, "decimals": decimals, "level": _tidy(level)})
                break
    return found


def _rounded(decimals: int) -> str:
    return "rounded or cast to integers" if decimals == 0 else f"rounded to {decimals} decimal(s)"


def signal_shift(output: np.ndarray, reference: np.ndarray, max_lag: int = 20) -> dict[str, Any] | None:
    """How a numeric column the algorithm wrote differs from the reference's: lag, scale, offset.

    For each shift (positive = output late; the smallest shift first) ``output ≈ scale ·
    reference + offset`` is fitted by least squares; the shift whose line leaves the smallest
    residual wins. ``exact`` says the line explains every frame (within rounding), so the difference
    is only a scale, an offset or a lag. None when the columns already agree.
    """
    out, ref = output.astype(float), reference.astype(float)
    both = np.isfinite(out) & np.isfinite(ref)
    if both.sum() < 3 or np.allclose(out[both], ref[both], rtol=1e-9, atol=1e-12):
        return None
    best: tuple[float, int, float, float] | None = None  # residual, lag, scale, offset
    for lag in sorted(range(-max_lag, max_lag + 1), key=abs):
        y, x = (out[lag:], ref[: len(ref) - lag]) if lag >= 0 else (out[:lag], ref[-lag:])
        keep = np.isfinite(x) & np.isfinite(y)
        if keep.sum() < max(3, len(out) // 2):
            continue
        x, y = x[keep], y[keep]
        scale, offset = (1.0, float(np.mean(y - x))) if np.ptp(x) == 0 else np.polyfit(x, y, 1)
        residual = float(np.max(np.abs(y - (scale * x + offset))))
        if best is None or residual < best[0] - 1e-9 * max(1.0, float(np.max(np.abs(y)))):
            best = (residual, lag, float(scale), float(offset))
    if best is None:
        return None
    residual, lag, scale, offset = best
    size = max(1.0, float(np.nanmax(np.abs(out))))
    exact = residual <= 1e-6 * size
    offset = 0.0 if abs(offset) <= 1e-9 * size else offset  # least-squares noise, not an offset
    return {"lag": lag, "scale": _tidy(scale), "offset": _tidy(offset), "exact": bool(exact)}


def _tidy(value: float) -> float:
    """Least-squares noise off a coefficient (0.9999999997 → 1.0), to eight significant digits."""
    return float(f"{value:.8g}")
