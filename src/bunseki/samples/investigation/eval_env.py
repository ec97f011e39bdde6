"""The sample case's evaluation: the flag must equal the value exactly on the expected frames.

``expected`` is the text of the case manifest, for example 「フレーム22-29と62-69でz=1」 or
"frames 42-49 have z=1".
"""

import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> tuple[bool, list[int]]:
    flag = re.search(r"([A-Za-z_]\w*)\s*=\s*(-?\d+)", expected)
    if flag is None:
        raise ValueError(f"no flag such as z=1 in the expectation {expected!r}")
    column, value = flag.groups()
    ranges = re.findall(r"(\d+)\s*-\s*(\d+)", expected)
    frames = output["frame"]
    inside = pd.Series(False, index=output.index)
    for start, end in ranges:
        inside |= (frames >= int(start)) & (frames <= int(end))
    flagged = output[column] == int(value)
    wrong = output.loc[flagged != inside, "frame"].astype(int).tolist()
    return not wrong, wrong
