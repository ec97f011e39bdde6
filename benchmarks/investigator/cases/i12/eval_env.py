import re

import pandas as pd


def eval_func(output: pd.DataFrame, expected: str) -> bool:
    text = expected.replace("、", "と").replace(" and ", "と").replace(",", "と")
    m = re.search(r"([A-Za-z_]\w*)=(\d+)", text)
    frames: set[int] = set()
    for piece in re.findall(r"(\d+)-(\d+)", text[: m.start()]):
        frames |= set(range(int(piece[0]), int(piece[1]) + 1))
    expected_flag = output["frame"].isin(frames)
    return bool((expected_flag == (output[m.group(1)] == int(m.group(2)))).all())
