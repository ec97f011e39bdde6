"""The hypotheses of one dataset, each from one kind of finding of the checks, with the edits to test it."""

from __future__ import annotations

from collections.abc import Sequence

from bunseki.brain.investigator.contract import DatasetView, Hypothesis, HypothesisKind
from bunseki.investigation.edits import UNIT_FACTORS, Edit, change_id


class Findings:
    """The hypotheses of one dataset as they are built, in the order they will be tested."""

    def __init__(self, view: DatasetView) -> None:
        self.d = view.diagnostics
        self.edits = [Edit(**e) for e in view.edits]
        self.numbers = [e for e in self.edits if e.kind in ("constant", "default")]
        self.documented = {float(n) for n in view.documented}
        self.facts = view.facts
        self.out: list[Hypothesis] = []

    def add(self, kind: HypothesisKind, statement: str, test: str, chosen: Sequence[Edit | list[Edit]]) -> None:
        taken = {i for h in self.out for i in h.edit_ids}
        ranked = sorted(chosen, key=lambda c: _rank(c, self.documented))
        ids = list(dict.fromkeys(i for c in ranked if (i := _id(c)) not in taken))
        self.out.append(Hypothesis(id=f"H{len(self.out) + 1}", kind=kind, statement=statement, test=test, edit_ids=ids))

    def thresholds(self) -> None:
        for hit in self.d.get("at_threshold", []):
            self.add(
                "inconsistency",
                f"Values of {hit['column']} exactly at {hit['value']:g} (frames {_short(hit['frames'])}) are "
                "classified differently from the reference: a comparison at the threshold uses the wrong operator.",
                "Flip each comparison operator (> ↔ >=, < ↔ <=), re-run, compare with the reference.",
                [e for e in self.edits if e.kind == "operator"],
            )

    def rounding(self) -> None:
        for column, findings in self.d.get("rounding", {}).items():
            for hit in findings:
                decimals = hit["decimals"]
                self.add(
                    "inconsistency",
                    f"The output flags {column} from {hit['level']:g}, which is where the constant "
                    f"{hit['constant']:g} lands for values {hit['transform']}, while the reference compares "
                    f"unrounded values with it: {column} is rounded or cast (its dtype) before the comparison.",
                    "Keep the values' precision (an integer cast made float, a rounding call removed, more "
                    "decimals), re-run, compare with the reference.",
                    [
                        *(e for e in self.edits if e.kind == "dtype"),
                        *(e for e in self.numbers if decimals is not None and e.old == str(decimals) and _delta(e) > 0),
                    ],
                )

    def scales(self) -> None:
        for column, shift in self.d.get("threshold_shift", {}).items():
            factors = shift.get("factors", [])
            if not factors:
                continue
            out, ref = shift["output_level"], shift["reference_level"]
            self.add(
                "inconsistency",
                f"Output and reference both flag {column} {shift['direction']} a level, but at different levels "
                f"(output between {out[0]:g} and {out[1]:g}, reference between {ref[0]:g} and {ref[1]:g}): a unit "
                f"or scale constant is off by a factor of about {factors[0]:g}.",
                f"Multiply or divide each number by {', '.join(f'{f:g}' for f in factors)}, re-run, compare.",
                [e for e in self.numbers if _scaled_by(e, factors)],
            )

    def signals(self) -> None:
        for column, shift in self.d.get("signal_shift", {}).items():
            scale, offset, lag = shift["scale"], shift["offset"], shift["lag"]
            if not shift.get("exact") or (scale == 1 and not offset):
                continue
            relation = "the reference's" if scale == 1 else f"{scale:g} × the reference's"
            if offset:
                relation += f" {'+' if offset > 0 else '-'} {abs(offset):g}"
            moved = f" (shifted by {lag} frame(s))" if lag else ""
            self.add(
                "inconsistency",
                f"The {column} the algorithm wrote equals {relation} on every frame{moved}: a scale, unit or "
                "offset constant in its computation is wrong.",
                "Multiply each number by the scale (or its inverse) or shift it by the offset, re-run, compare "
                f"both {column} and the flag with the reference.",
                [e for e in self.numbers if _scaled_by(e, [scale]) or (offset and abs(_delta(e)) == abs(offset))],
            )

    def edges_only(self) -> bool:
        """Whether every difference lies at the first or last frames."""
        runs = self.d.get("edge_run_lengths", [])
        return bool(runs) and len(runs) == len(self.d.get("mismatched_runs", []))

    def edges(self) -> None:
        lengths = sorted(set(self.d.get("edge_run_lengths", [])))
        if lengths:
            self.add(
                "inconsistency",
                f"The frames that differ lie at the start or end of the data (runs of {lengths} frame(s)): "
                "the algorithm's start-up, warm-up or last-frame handling differs from the reference.",
                f"Change each integer constant and default by ±{', ±'.join(str(n) for n in lengths)}, re-run.",
                [e for e in self.numbers if abs(_delta(e)) in lengths],
            )

    def sizes(self) -> list[int]:
        """Displacements in frames: run starts and ends, the flags' lag, a written signal's lag."""
        d = self.d
        shifts = {abs(s) for s in (*d.get("start_shifts", []), *d.get("end_shifts", [])) if s}
        lags = {abs(int(d.get("lag", 0)))} | {
            abs(s["lag"]) for s in d.get("signal_shift", {}).values() if s.get("exact")
        }
        return sorted((shifts | lags) - {0})[:3]

    def displacements(self) -> None:
        where = f"starts {self.d.get('start_shifts')}, ends {self.d.get('end_shifts')}, best lag {self.d.get('lag', 0)}"
        for size in self.sizes():
            self.add(
                "inconsistency",
                f"Runs of the flag are displaced by {size} frame(s) against the reference ({where}): "
                "a window length, alignment or run-length constant is off by that much.",
                f"Change each integer constant and default by ±{size}, re-run, compare with the reference.",
                [e for e in self.numbers if _delta(e) in (size, -size)],
            )

    def pairs(self) -> None:
        sizes = self.sizes()
        if sizes:
            self.add(
                "inconsistency",
                f"No single constant explains runs displaced by {sizes}: two constants together do (both ends "
                "of a window, say: a centred window where a trailing one is meant, or its length and alignment).",
                "Change two integer constants together, each by the displacement, re-run, compare.",
                _pairs([e for e in self.numbers if abs(_delta(e)) in sizes]),
            )

    def specified(self) -> None:
        """What the specifications state, held against the code: a window's alignment, values (rates,
        durations, frames), magnitudes, ranges and how missing values are filled."""
        facts = {kind: [f for f in self.facts if f["kind"] == kind] for kind in {f["kind"] for f in self.facts}}

        def where(kind: str) -> str:
            fact = facts[kind][0]
            return f"{fact['source']}: 「{fact['text'][:120]}」"

        window = [e for e in self.edits if e.kind == "window"]
        if facts.get("centred"):
            self.add(
                "inconsistency",
                f"The specification asks for a centred window ({where('centred')}); the code's rolling window "
                "is trailing.",
                "Centre the rolling window (center=True), re-run, compare with the reference.",
                [e for e in window if e.new.endswith("center=True") or e.new == "True"],
            )
        if facts.get("trailing"):
            self.add(
                "inconsistency",
                f"The specification asks for a trailing window ({where('trailing')}); the code centres it.",
                "Make the rolling window trailing, re-run, compare with the reference.",
                [e for e in window if e.new == "False"],
            )
        stated = {float(v) for f in self.facts for v in (f["value"], f["upper"]) if v is not None}
        kinds = [k for k in ("rate", "duration", "frames") if facts.get(k)]
        if kinds:
            self.add(
                "inconsistency",
                "A constant differs from what the specifications state ("
                + "; ".join(where(k) for k in kinds)
                + "), or from a value derived from it (a duration × the rate).",
                "Set each constant and default to a value the specifications state or derive, re-run, compare.",
                [e for e in self.numbers if _number(e.new) in stated | self.documented],
            )
        if facts.get("magnitude"):
            self.add(
                "inconsistency",
                f"The specification takes the magnitude of the signal ({where('magnitude')}); the code uses it signed.",
                "Take the absolute value of the signal read, re-run, compare.",
                [e for e in self.edits if e.kind == "wrap" and e.new.startswith("abs(")],
            )
        if facts.get("range"):
            self.add(
                "inconsistency",
                f"The specification bounds the signal to a range ({where('range')}); the code does not clip it.",
                "Clip the signal read to the stated range, re-run, compare.",
                [e for e in self.edits if e.kind == "wrap" and ".clip(" in e.new],
            )
        if facts.get("fill"):
            self.add(
                "inconsistency",
                f"The specification says how missing values are filled ({where('fill')}); the code fills them "
                "another way.",
                "Fill missing values as stated (forward fill, interpolation…), re-run, compare.",
                [e for e in self.edits if e.kind == "fill"],
            )

    def structure(self) -> None:
        """How the signal is computed, without a stated fact: missing values, statistic, sign, window, column."""
        fills = [e for e in self.edits if e.kind == "fill"]
        if fills and self.d.get("missing_near_mismatch"):
            self.add(
                "inconsistency",
                f"Missing values near the mismatches ({self.d['missing_near_mismatch']}) are filled another way "
                "than the reference fills them.",
                "Fill them another way (forward, backward, interpolated, zero), re-run, compare.",
                fills,
            )
        for kind, statement, test in (
            (
                "reducer",
                "The window or group is summarised by another statistic.",
                "Swap the statistic (mean, median, sum, max, min)",
            ),
            (
                "wrap",
                "The signal is used signed or unbounded where its magnitude or a range is meant.",
                "Take abs() of or clip each value read",
            ),
            (
                "window",
                "The rolling window's alignment or warm-up differs from the reference's.",
                "Centre the window or drop min_periods",
            ),
            (
                "column",
                "The algorithm reads another column than the one meant.",
                "Read each other column of the data instead",
            ),
            ("fill", "Missing values are filled another way than the reference fills them.", "Fill them another way"),
        ):
            self.add(
                "unexpected",
                statement,
                f"{test}, re-run, compare with the reference.",
                [e for e in self.edits if e.kind == kind],
            )

    def units(self) -> None:
        self.add(
            "inconsistency",
            "A unit conversion is missing or wrong (ms and s, km/h and m/s, g and m/s², minutes and s, %).",
            "Multiply or divide each number by a unit factor (10, 100, 1000, 3.6, 9.80665, 60, 3600), re-run.",
            [e for e in self.numbers if _scaled_by(e, list(UNIT_FACTORS))],
        )

    def untestable(self) -> None:
        """What no simple edit tests, said plainly so that a person knows where to look."""
        d = self.d
        if d.get("missing_near_mismatch") and not any(e.kind == "fill" for e in self.edits):
            self.add(
                "unexpected",
                f"Missing values near the mismatches ({d['missing_near_mismatch']}) are handled differently.",
                "No simple edit tests this; inspect how the algorithm treats NaN.",
                [],
            )
        if d.get("edge_mismatch") and not any(h.edit_ids and "start or end" in h.statement for h in self.out):
            self.add(
                "unexpected",
                "The first or last frames differ: start-up or padding at the edges is handled differently.",
                "No simple edit beyond the constants above tests this; compare how the edges are filled.",
                [],
            )
        if d.get("close_to_threshold"):
            self.add(
                "unexpected",
                "Values within rounding of a threshold may be compared after rounding in the reference.",
                "No simple edit tests this; compare with rounded inputs.",
                [],
            )


MAX_PAIRS = 240  # four verifier iterations' worth


def _pairs(edits: list[Edit]) -> list[Edit | list[Edit]]:
    """Pairs of edits of different numbers; pairs on one line (a window's two bounds) first."""
    pairs = [[a, b] for i, a in enumerate(edits) for b in edits[i + 1 :] if (a.line, a.col) != (b.line, b.col)]
    pairs.sort(key=lambda pair: (pair[0].line != pair[1].line, abs(pair[0].line - pair[1].line)))
    return list(pairs[:MAX_PAIRS])


def _id(change: Edit | list[Edit]) -> str:
    return change_id(change) if isinstance(change, list) else change.id


def _rank(change: Edit | list[Edit], documented: set[float]) -> int:
    """0 when an edit sets a documented value, 2 when it changes one away, else 1 (stable sort)."""
    edits = change if isinstance(change, list) else [change]
    if any(_number(e.new) in documented for e in edits):
        return 0
    if any(_number(e.old) in documented for e in edits):
        return 2
    return 1


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _scaled_by(edit: Edit, factors: list[float]) -> bool:
    old, new = _number(edit.old), _number(edit.new)
    if not old or new is None:
        return False
    ratio = new / old
    return any(abs(ratio - f) <= 1e-9 * f or abs(ratio * f - 1) <= 1e-9 for f in factors)


def _delta(edit: Edit) -> float:
    try:
        return float(edit.new) - float(edit.old)
    except ValueError:
        return 0.0


def _short(frames: list[int]) -> str:
    return ", ".join(str(f) for f in frames[:8]) + ("…" if len(frames) > 8 else "")
