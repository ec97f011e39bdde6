"""The words the offline analyst understands, in Japanese and English.

Each concept maps to regular expressions matched against the normalised question (English
patterns against its case-folded form). Order within a table matters where noted.
"""

from __future__ import annotations

import re
from typing import Final, Literal

Stat = Literal["sum", "mean", "median", "quantile", "std", "var", "min", "max", "count", "nunique"]

# Statistic words. More specific words come first (標準偏差 before 偏差, 平均 after 中央値).
STATS: Final[tuple[tuple[Stat, str], ...]] = (
    ("median", r"中央値|メディアン|\bmedian\b"),
    ("std", r"標準偏差|ばらつき|\bstandard deviation\b|\bstd\b|\bstdev\b|\bstd dev\b"),
    ("var", r"分散|\bvariance\b"),
    ("mean", r"平均|アベレージ|\baverage\b|\bmean\b|\bavg\b"),
    (
        "sum",
        r"合計|総額|総計|総和|累計|トータル|総(?!数|合|括|称|長|理)(?=[\u4e00-\u9fff])"  # 総走行距離; not 総数, 総合
        r"|\btotals?\b|\bsum\b|\boverall amount\b",
    ),
    (
        "max",
        r"最大|最高|最多|一番多|最も多|もっとも多|一番高|最も高|一番大き|最も大き|いちばん多|いちばん高|いちばん大き|一番暑|最も暑|最も高価|\bmaximum\b|\bmax\b|"
        r"\bhighest\b|\blargest\b|\bbiggest\b|\bmost\b|\bpeak\b|\bbusiest\b|"
        r"\b(?:hottest|warmest|strongest|heaviest|longest|tallest|wettest|rainiest|windiest)\b|"
        r"(?:最も|一番|いちばん|もっとも)[^、。?？\s]{0,8}?(?:多|高|大き|長|暑|強|重|広|深)",
    ),
    (
        "min",
        r"最小|最低|最少|一番少な|最も少な|もっとも少な|一番低|最も低|一番小さ|最も小さ|いちばん少な|いちばん低|いちばん小さ|一番安|最も安|一番寒|最も寒|\bminimum\b|\bmin\b|"
        r"\blowest\b|\bsmallest\b|\bleast\b|\bfewest\b|\bcheapest\b|\bcoldest\b|\bquietest\b|"
        r"\b(?:weakest|lightest|shortest|driest)\b|"
        r"(?:最も|一番|いちばん|もっとも)[^、。?？\s]{0,8}?(?:少な|低|小さ|短|安|寒|弱|軽|狭|浅)",
    ),
    ("nunique", r"何種類|種類数|ユニーク|重複を除いた|異なる.{0,6}数|異なる値|\bunique\b|\bdistinct\b|\bdifferent\b"),
    (
        "count",
        r"件数|(?:取引|注文|購入|来店|予約|契約|申込)件?数|何件|何行|行数|レコード数|データ数|個数|回数|"
        r"者数|(?:会員|顧客|社員|従業員|ユーザー|患者|生徒|学生|店舗|登録)数|"
        r"\bhow many\b|\bcount\b|\bnumber of\b",
    ),
)

# Asking for a percentage, not naming one in a condition (「割引率が10%以上の」 is a filter).
PERCENT_ASKED: Final = (
    r"何\s*[%％]|何パーセント|何割|割合|構成比|シェア|占め|増加率|減少率|成長率|伸び率|変化率|増減率|"
    r"what percent|percentage|\bshare\b|proportion|fraction of|growth rate|rate of change"
)
# Asking for a name rather than a number: the words every reading of "which" shares.
# "who" asks only at the head of a clause: "employees who work remotely" is a condition
WHICH: Final = r"どの|どこ|どれ|誰|何月|\bwhich\b|(?:^|[,.;:?!]\s*|\b(?:and|tell me|show me|find)\s+)who\b"

TASK_WORDS: Final[dict[str, str]] = {
    # "X が多いほど Y は上がる？", "does Y go up as X grows?": how one measure moves with another
    "correlation": r"相関|関係性|関連|ほど.{0,16}(?:上が|下が|増え|減|高く|低く)|\bcorrelat\w*|\brelationship\b|"
    r"\bas (?:the )?[\w ]{1,30}? (?:grows?|increases?|rises?|goes up)\b",
    "missing": (
        r"欠損|欠測|空欄|空白の|未入力|未記入|未記録|記録(?:されて|が)(?:い)?ない|記載(?:されて|が)(?:い)?ない|"
        r"入力(?:されて|が)(?:い)?ない|値がない|\bmissing\b|\bnull\b|\bnan\b|\bempty values?\b|\bblank\b|"
        r"\b(?:not|never) (?:recorded|filled in|given|reported)\b|\bunrecorded\b"
    ),
    "duplicates": r"重複|ダブり|ダブって|\bduplicat\w*|\bdupes?\b",
    "outliers": r"外れ値|異常値|はずれ値|zスコア|z[- ]?score|\boutliers?\b|\banomal\w*",
    "distribution": r"分布|ヒストグラム|\bdistribution\b|\bhistogram\b",
    # 男女比 is a share; 前年比, 前月比 are changes (growth)
    "share": r"割合|比率|構成比|シェア|占める|パーセンテージ|(?<![年月週日期前対])比(?=[はをがでの?？。]|\s|$)|"
    r"\bshare\b|\bratio\b|\bproportion\b|\bpercentage\b|"
    r"\bpercent of\b|\bfraction\b",
    "growth": r"伸び|成長率|増加率|減少率|増減|前年度比|前年比|前月比|前週比|前年同期比|比べて|比較して|変化率|"
    r"\bgrowth\b|\bgrew\b|\bincrease\b|\bdecrease\b|\bchange from\b|\bcompared (?:to|with)\b|"
    r"\byear over year\b|\bmonth over month\b|\byoy\b|\bmom\b",
    "trend": r"推移|トレンド|時系列|変化|動き|傾向|上がって|下がって|増えて(?:い|き)|減って(?:い|き)|"
    r"\bis (?:it |\w+ )?(?:increasing|decreasing|rising|falling|growing|declining)\b|"
    r"\btrend\w*|\bover time\b|\btime series\b|"
    r"\bevolution\b|\brising or falling\b|\bup or down\b|\bupward or downward\b|"
    r"移動平均|\b(?:moving|rolling) average\b",
    "top": r"上位|トップ|ベスト|ワースト|ランキング|順位|\btop\b|\bbottom\b|\branking\b|\brank\b|\bbest\b|\bworst\b",
    "describe": r"概要|要約|サマリー|概観|全体像|基本統計|どんなデータ|\bsummary\b|\bsummari[sz]e\b|\boverview\b|"
    r"\bdescribe\b|\bdescriptive\b",
    "chart": r"グラフ|チャート|図|可視化|プロット|描いて|\bchart\b|\bplot\b|\bgraph\b|\bvisuali[sz]e\b|\bdraw\b",
    # "what store has…", "what day was…" ask for a name; "what is the median by department" does not
    "which": WHICH + r"|何日|何曜|\bwhat (?!is\b|was\b)\w+ (?:has|had|is|was)\b|\bwhere\b|"
    r"\bwhat (?:is|was) the (?:most|least|highest|lowest|largest|smallest|biggest|top|best|worst)\b",
}

# "X別", "X ごと", "by X": group markers after (ja) or before (en) a column mention.
GROUP_AFTER: Final = re.compile(r"^\s*(?:別|ごと|毎|単位|ベース|ごとの|毎の|で分け|に分け|ごとに)")
GROUP_BEFORE: Final = re.compile(
    r"(?:\bby|\bper|\bfor each|\bin each|\beach|\bacross|\bgrouped by|\bbroken down by)\s*$"
)
EACH_BEFORE: Final = re.compile(r"(?:各|それぞれの)\s*$")

# Weekday units first: 曜日別 and "by day of week" contain the daily unit's 日別 and "by day".
TIME_UNITS: Final[tuple[tuple[str, str], ...]] = (
    ("daytype", r"平日|週末|土日|\bweekends?\b|\bweekdays\b"),
    ("weekday", r"曜日|\bday of (?:the )?week\b|\bweekday\b"),
    ("D", r"日別|日ごと|毎日|日次|日単位|\bdaily\b|\bby day\b|\bper day\b|\beach day\b|\bwhich day\b"),
    ("W", r"週別|週ごと|毎週|週次|週単位|\bweekly\b|\bby week\b|\bper week\b|\beach week\b|\bwhich week\b"),
    (
        "M",
        r"月別|月ごと|毎月|月次|月単位|月ベース|何月(?!\s*何日)|どの月|"  # 何月何日 asks for a day
        r"\bmonthly\b|\bby month\b|\bper month\b|\beach month\b|"
        r"\b(?:which|what) month\b",
    ),
    ("Q", r"四半期別|四半期ごと|四半期|\bquarterly\b|\bby quarter\b|\bper quarter\b|\bwhich quarter\b"),
    ("Y", r"年別|年ごと|毎年|年次|年単位|\byearly\b|\bannual\b|\bby year\b|\bper year\b|\beach year\b"),
)

# A trend smoothed over a window (7日移動平均, 3-month moving average) or summed up as it goes (累計).
# A number is read from its first digit only, and possessively: a long run of digits stays linear.
ROLLING: Final = re.compile(
    r"(?:(?<!\d)(?P<n>\d++)\s*+(?:(?P<unit>日|週間|週|か月|ヶ月|カ月|ヵ月|ケ月|期間|期|四半期|年)\s*+)?(?:の\s*+)?)?移動平均|"
    r"(?:(?<!\d)(?P<n_en>\d++)[- ]?(?P<unit_en>day|week|month|quarter|year|period)s?\s++)?(?:moving|rolling) average"
)
CUMULATIVE: Final = re.compile(r"累計|累積|\bcumulative\b|\brunning total\b")  # read in a trend only
WINDOW_UNITS: Final[dict[str, Literal["D", "W", "M", "Q", "Y"]]] = {
    "日": "D",
    "day": "D",
    "週": "W",
    "週間": "W",
    "week": "W",
    "か月": "M",
    "ヶ月": "M",
    "カ月": "M",
    "ヵ月": "M",
    "ケ月": "M",
    "month": "M",
    "四半期": "Q",
    "quarter": "Q",
    "年": "Y",
    "year": "Y",
}

COMPARISONS: Final[tuple[tuple[str, str], ...]] = (
    # Japanese: the comparison word follows the number.
    (">=", r"以上|(?:を)?下回らない"),
    ("<=", r"以下|(?:を)?上回らない"),
    (">", r"を超え|超え|超|より(?:大き|多|高)|を上回"),
    ("<", r"未満|より(?:小さ|少な|低)|を下回|に満たない"),
)
COMPARISONS_EN: Final[tuple[tuple[str, str], ...]] = (
    (">=", r"at least|no less than|greater than or equal to|>=|≥"),
    ("<=", r"at most|no more than|less than or equal to|<=|≤|up to"),
    (">", r"greater than|more than|higher than|larger than|older than|over|above|exceeding|exceeds|>"),
    ("<", r"less than|fewer than|lower than|smaller than|younger than|under|below|<"),
    ("==", r"equal to|equals|exactly|="),
)
NEGATION_AFTER: Final = re.compile(r"^\s*(?:以外|を除(?:く|いた)|を含まない|でない|ではない)")
NEGATION_BEFORE: Final = re.compile(
    r"(?:\bexcept(?: for)?|\bexcluding|\bother than|\bnot|\bwithout|\bbesides)\s*(?:the\s+)?$"
)

TOP_N: Final = (
    r"(?:上位|トップ|ベスト|上から)\s*(?P<n>\d+|[一二三四五六七八九十]+)",
    r"(?:ワースト|下位|下から)\s*(?P<worst>\d+|[一二三四五六七八九十]+)",
    r"\btop\s+(?P<n2>\d+)\b",
    r"\bbottom\s+(?P<worst2>\d+)\b",
    r"\b(?P<n3>\d+)\s+(?:largest|biggest|highest|best|most)\b",
    r"\b(?P<worst3>\d+)\s+(?:smallest|lowest|worst|least|fewest)\b",
)
ASCENDING: Final = (
    r"ワースト|下位|下から|少ない順|低い順|小さい順|昇順|\bbottom\b|\bworst\b|\blowest\b|\bsmallest\b|\bascending\b|"
    r"\bleast\b"
)

# Measures that add up (sum by default); others (prices, rates, ages, scores) average.
ADDITIVE: Final = re.compile(
    r"売上|売り上げ|金額|販売|数量|個数|件数|人数|客数|回数|費用|コスト|利益|支出|収入|在庫|"
    r"距離|走行|sales|revenue|amount|quantity|qty|count|units|volume|cost|profit|spend|income|visits|orders|"
    r"distance|miles|mileage|"
    # a column named by people or things counted holds their number per row, and numbers of them add up
    r"(?<![a-z])(?:people|persons|individuals|residents|patients|victims|deaths|cases|passengers|visitors|"
    r"customers|guests|employees|members|users|students|records)(?![a-z])|"
    r"費|料金|(?<![a-z])(?:bill|tips?|fees?|refunds?|charges?|payments?|fares?)(?![a-z])",
    re.IGNORECASE,
)
NON_ADDITIVE: Final = re.compile(
    r"単価|価格|率|割合|比|平均|年齢|歳|スコア|点数|評価|気温|温度|湿度|体重|身長|"
    r"price|rate|ratio|percent|pct|avg|mean|(?<![a-z])age(?![a-z])|score|rating|temp|humidity|grade|weight|height",
    re.IGNORECASE,
)
