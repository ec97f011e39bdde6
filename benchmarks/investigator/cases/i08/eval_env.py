import re

import numpy as np
import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> list:
    flag = re.search(r"([A-Za-z_]+)\s*=\s*(\d+)", expected)
    column, value = flag.group(1), int(flag.group(2))
    mask = np.zeros(len(output), dtype=bool)
    for a, b in re.findall(r"(\d+)\s*-\s*(\d+)", expected[: flag.start()]):
        mask |= output["frame"].between(int(a), int(b)).to_numpy()
    wrong = int(((output[column].to_numpy() == value) != mask).sum())
    return [wrong == 0, wrong]
