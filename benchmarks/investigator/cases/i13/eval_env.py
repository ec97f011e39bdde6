import re

import pandas as pd

EN = re.compile(r"frames\s+(?P<spans>.+?)\s+have\s+(?P<col>\w+)\s*=\s*(?P<val>\d+)")
JA = re.compile(r"フレーム(?P<spans>.+?)で(?P<col>\w+)\s*=\s*(?P<val>\d+)")


def eval_func(output: pd.DataFrame, expected: str) -> list:
    m = EN.search(expected) or JA.search(expected)
    spans = [tuple(map(int, s)) for s in re.findall(r"(\d+)-(\d+)", m["spans"])]
    inside = output["frame"].apply(lambda f: any(a <= f <= b for a, b in spans))
    on = output[m["col"]] == int(m["val"])
    wrong = output.loc[on != inside, "frame"].tolist()
    return [not wrong, wrong]
