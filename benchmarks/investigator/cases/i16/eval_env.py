import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> bool:
    flag = re.search(r"([a-z_]+)=(\d+)", expected)
    spans = [(int(a), int(b)) for a, b in re.findall(r"(\d+)-(\d+)", expected[: flag.start()])]
    expected_on = output["frame"].map(lambda f: any(a <= f <= b for a, b in spans))
    return bool((expected_on == (output[flag.group(1)] == int(flag.group(2)))).all())
