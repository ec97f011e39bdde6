import re

import pandas as pd


def _frames(expected: str) -> tuple[list[int], str, int]:
    m = re.search(r"(?:フレーム|frames)\s*(.*?)\s*(?:で|have)\s*(\w+)=(\d+)", expected)
    body, column, value = m.groups()
    frames: list[int] = []
    for part in re.split(r"と|、|,|and", body):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-")
            frames.extend(range(int(a), int(b) + 1))
        elif part:
            frames.append(int(part))
    return frames, column, int(value)


def eval_func(output: pd.DataFrame, expected: str):
    frames, column, value = _frames(expected)
    target = output["frame"].isin(frames)
    actual = output[column].eq(value)
    mismatch = output["frame"][target != actual].tolist()
    return (len(mismatch) == 0, mismatch)
