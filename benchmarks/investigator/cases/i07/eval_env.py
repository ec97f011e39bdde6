import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> bool:
    column, value = re.search(r"([A-Za-z_]\w*)=(\d+)", expected).groups()
    ranges = [range(int(a), int(b) + 1) for a, b in re.findall(r"(\d+)-(\d+)", expected)]
    want = output["frame"].map(lambda f: any(f in r for r in ranges))
    return bool(((output[column] == int(value)) == want).all())
