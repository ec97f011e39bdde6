import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> dict:
    col, val = re.search(r"([a-z_]+)\s*=\s*(\d+)", expected).groups()
    want: set[int] = set()
    for a, b in re.findall(r"(\d+)\s*-\s*(\d+)", expected):
        want |= set(range(int(a), int(b) + 1))
    got = {int(f) for f in output.loc[output[col] == int(val), "frame"]}
    missing = sorted(want - got)
    extra = sorted(got - want)
    return {"passed": not missing and not extra, "missing": missing, "extra": extra}
