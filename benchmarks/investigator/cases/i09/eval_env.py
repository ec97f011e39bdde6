import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> tuple[bool, list[int]]:
    m = re.match(r"\s*(?:フレーム|frames)\s*(.+?)\s*(?:で|have)\s*(\w+)=(\d+)", expected)
    if m is None:
        return False, []
    spans, column, value = m.group(1), m.group(2), int(m.group(3))
    expected_on = pd.Series(False, index=output.index)
    for a, b in re.findall(r"(\d+)-(\d+)", spans):
        expected_on |= (output["frame"] >= int(a)) & (output["frame"] <= int(b))
    diff = output.loc[(output[column] == value) != expected_on, "frame"]
    return diff.empty, [int(f) for f in diff]
