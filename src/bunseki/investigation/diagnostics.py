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
    return {
        "mismatched_frames": mismatch,
        "mismatched_runs": [list(r) for r in runs(mismatch)],
        "output_runs": [list(r) for r in out_runs],
        "reference_runs": [list(r) for r in ref_runs],
        "lag": lag,
        "start_shifts": start_shifts,
        "end_shifts": end_shifts,
        "at_threshold": at_threshold,
        "close_to_threshold": close_to_threshold,
        "missing_near_mismatch": missing,
        "edge_mismatch": bool(mismatch and (mismatch[0] == int(frames[0]) or mismatch[-1] == int(frames[-1]))),
    }
