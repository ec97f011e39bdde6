import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> dict:
    column, value = re.search(r"([A-Za-z_]\w*)=(\d+)", expected).groups()
    want = pd.Series(False, index=output.index)
    for a, b in re.findall(r"(\d+)-(\d+)", expected):
        want |= output["frame"].between(int(a), int(b))
    wrong = (output[column] == int(value)) != want
    if not wrong.any():
        return {"passed": True, "summary": "all minutes agree"}
    level = output.loc[wrong, "pm2_5"].mean()
    return {"passed": False, "summary": f"{int(wrong.sum())} minutes differ (mean PM2.5 {level:.1f})"}
