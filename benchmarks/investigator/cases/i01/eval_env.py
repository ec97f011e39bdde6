"""Drive-recorder evaluation: the brake flag must match the expected frames exactly."""

import re

import pandas as pd

_JA = re.compile(r"フレーム(?P<ranges>[0-9\-、と ]+)で(?P<col>\w+)=(?P<val>\d+)")
_EN = re.compile(r"frames (?P<ranges>[0-9\-, and]+?) have (?P<col>\w+)=(?P<val>\d+)")


def _parse(text: str) -> tuple[list[tuple[int, int]], str, int]:
    match = _JA.search(text) or _EN.search(text)
    if match is None:
        raise ValueError(f"cannot read expectation: {text}")
    ranges = [(int(a), int(b)) for a, b in re.findall(r"(\d+)-(\d+)", match["ranges"])]
    return ranges, match["col"], int(match["val"])


def eval_func(output: pd.DataFrame, expected: str) -> bool:
    ranges, column, value = _parse(expected)
    inside = pd.Series(False, index=output.index)
    for start, end in ranges:
        inside |= output["frame"].between(start, end)
    hit = output[column] == value
    return bool((hit == inside).all())
