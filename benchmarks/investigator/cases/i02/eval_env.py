import re

import pandas as pd


def _expected_frames(text: str) -> tuple[set[int], str, int]:
    column, value = re.search(r"([A-Za-z_]\w*)\s*=\s*(\d+)", text).groups()
    head = text.split(column)[0]
    frames: set[int] = set()
    for start, end in re.findall(r"(\d+)\s*-\s*(\d+)", head):
        frames.update(range(int(start), int(end) + 1))
    return frames, column, int(value)


def eval_func(output: pd.DataFrame, expected: str) -> dict:
    frames, column, value = _expected_frames(expected)
    want = output["frame"].isin(frames)
    got = output[column] == value
    wrong = output.loc[want != got, "frame"].astype(int).tolist()
    return {"passed": not wrong, "wrong_frames": wrong}
