import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> list:
    m = re.search(r"frames? (.+?) have (\w+)=(\d+)", expected) or re.search(r"フレーム(.+?)で(\w+)=(\d+)", expected)
    ranges_text, column, value = m.groups()
    expected_flag = pd.Series(0, index=output.index)
    for start, end in re.findall(r"(\d+)-(\d+)", ranges_text):
        expected_flag[output["frame"].between(int(start), int(end))] = 1
    got = (output[column] == int(value)).astype(int)
    wrong = int((got != expected_flag).sum())
    return [wrong == 0, wrong, "ok" if wrong == 0 else f"{wrong} ticks differ"]
