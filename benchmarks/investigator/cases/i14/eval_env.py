import re

import pandas as pd

PATTERN = re.compile(
    r"(?:フレーム|frames)\s*(?P<spans>[\d\s\-、と,and]+?)\s*(?:で|have)\s*(?P<col>[a-z_]+)=(?P<val>\d)"
)


def eval_func(output: pd.DataFrame, expected: str):
    m = PATTERN.search(expected)
    frames = set()
    for a, b in re.findall(r"(\d+)-(\d+)", m["spans"]):
        frames.update(range(int(a), int(b) + 1))
    should = output["frame"].isin(frames)
    is_on = output[m["col"]] == int(m["val"])
    off = sorted(int(f) for f in output.loc[should != is_on, "frame"])
    return (not off, off)
