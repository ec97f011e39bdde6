"""録音品質チェックの評価関数。"""

import re

import pandas as pd

RANGE = re.compile(r"(\d+)\s*-\s*(\d+)")
FLAG = re.compile(r"([A-Za-z_]\w*)\s*=\s*(\d+)")


def eval_func(output: pd.DataFrame, expected: str) -> tuple[bool, list[int]]:
    column, value = FLAG.search(expected).groups()
    spans = [(int(a), int(b)) for a, b in RANGE.findall(expected)]
    bad = []
    for frame, flag in zip(output["frame"], output[column], strict=True):
        inside = any(a <= frame <= b for a, b in spans)
        if (flag == int(value)) != inside:
            bad.append(int(frame))
    return len(bad) == 0, bad
