"""The quantile a question asks for: 90パーセンタイル, 第1四分位数, 上位10%の境目, the top 10% cutoff.

A quantile is a statistic like the mean, with a parameter: the share of values at or below it.
"The boundary of the top 10%" is the 0.9 quantile; "the bottom 25% line" the 0.25 quantile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_SHARE: Final = r"(?P<p>\d{1,2}(?:\.\d+)?)"
_PERCENTILE: Final = re.compile(
    rf"{_SHARE}\s*(?:th|st|nd|rd)?\s*(?:パーセンタイル|百分位(?:数|点)?|[%％]\s*(?:点|タイル)|percentile)"
    r"|(?:percentile|パーセンタイル)\s*(?:of\s+)?(?P<p2>\d{1,2}(?:\.\d+)?)(?!\d)",
    re.IGNORECASE,
)
_QUARTILE: Final = re.compile(
    r"第\s*(?P<k>[13１３一三])\s*四分位(?:数|点)?|(?P<w>first|lower|1st|third|upper|3rd)\s+quartile|\b(?P<q>q[13])\b",
    re.IGNORECASE,
)
# The boundary of a top or bottom share: 上位10%に入るには最低いくら, 下位25%の境界, top 10% cutoff.
_BOUNDARY_AFTER: Final = re.compile(
    rf"(?P<side>上位|下位|\btop|\bbottom|\bhighest|\blowest)\s*{_SHARE}\s*[%％]"
    r"[^。?？!！]{0,14}?(?:境目|境界|ライン|ボーダー|下限|上限|基準|最低|最高|入る|"
    r"cut-?off|threshold|boundary|line|minimum|maximum|at least|to get in|to be in|to make)",
    re.IGNORECASE,
)
_BOUNDARY_BEFORE: Final = re.compile(
    rf"(?:cut-?off|threshold|boundary|line|minimum|maximum)\s+(?:value\s+)?(?:for|of|to (?:get|be) in(?:to)?)\s+"
    rf"(?:the\s+)?(?P<side>top|bottom|highest|lowest|oldest|youngest|largest|smallest)\s+{_SHARE}\s*%",
    re.IGNORECASE,
)
_TOP_SIDE: Final = frozenset({"上位", "top", "highest", "oldest", "largest"})
_NOT_A_QUANTILE: Final = re.compile(r"四分位範囲|四分位偏差|interquartile", re.IGNORECASE)


@dataclass(frozen=True)
class Quantile:
    """The quantile asked for (0.9 for the 90th percentile) and where the question asks it."""

    q: float
    start: int
    end: int

    def span(self) -> tuple[int, int]:
        return self.start, self.end


def read_quantile(lowered: str) -> Quantile | None:
    """The quantile ``lowered`` (the normalised, lower-cased question) asks for, if any."""
    if _NOT_A_QUANTILE.search(lowered):
        return None
    for pattern in (_BOUNDARY_AFTER, _BOUNDARY_BEFORE):
        found = pattern.search(lowered)
        if found:
            share = float(found.group("p")) / 100
            if 0 < share < 1:
                side = found.group("side").strip().lower()
                return Quantile(1 - share if side in _TOP_SIDE else share, *found.span())
    found = _PERCENTILE.search(lowered)
    if found:
        share = float(next(p for p in found.groups() if p)) / 100
        if 0 < share < 1:
            return Quantile(share, *found.span())
    found = _QUARTILE.search(lowered)
    if found:
        named = (found.group("k") or found.group("w") or found.group("q") or "").lower()
        lower = named in ("1", "１", "一", "first", "lower", "1st", "q1")
        return Quantile(0.25 if lower else 0.75, *found.span())
    return None


def quantile_name(q: float, language: str) -> str:
    """90パーセンタイル, the 90th percentile; quartiles by their names."""
    percent = round(q * 100, 1)
    shown = f"{percent:g}"
    if language == "ja":
        named = {25.0: "第1四分位数（25パーセンタイル）", 75.0: "第3四分位数（75パーセンタイル）"}
        return named.get(percent, f"{shown}パーセンタイル")
    suffix = "th" if not shown.endswith(("1", "2", "3")) or shown.endswith(("11", "12", "13")) else ""
    suffix = suffix or {"1": "st", "2": "nd", "3": "rd"}[shown[-1]]
    named_en = {25.0: "first quartile (25th percentile)", 75.0: "third quartile (75th percentile)"}
    return named_en.get(percent, f"{shown}{suffix} percentile")
