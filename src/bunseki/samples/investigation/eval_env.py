"""The sample case's evaluation: the flag must equal the value exactly on the expected frames."""

from typing import Any

import pandas as pd


def eval_func(output: pd.DataFrame, expected: dict[str, Any]) -> dict[str, Any]:
    frames = output["frame"]
    inside = pd.Series(False, index=output.index)
    for start, end in expected["ranges"]:
        inside |= (frames >= start) & (frames <= end)
    flagged = output[expected["column"]] == expected["value"]
    wrong = int((flagged != inside).sum())
    return {"passed": wrong == 0, "wrong_frames": wrong}
