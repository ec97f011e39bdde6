"""What each requested answer slot measures, and the code that computes it.

A slot's measure comes from the words of its name (``mean``, ``std``, ``correlation``,
``outliers``, ``missing``, ``normal``…) and of its description (quoted choices such as
"yes"/"no"); its column from the rest of the name, or from the columns the question names.
Method details (Spearman, Kolmogorov-Smirnov, a z threshold, population deviation, outlier
removal before a statistic, new features) are read once from the question and constraints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bunseki.brain.analyst.offline.columns import ColumnMatcher
from bunseki.brain.analyst.offline.filters import rows, value_filters
from bunseki.brain.analyst.offline.plan import Derived, Filter, Method, Plan, Slot
from bunseki.brain.analyst.offline.registry import writes
from bunseki.data.summary import ColumnInfo, DataFrameInfo

STAT_TOKENS = {
    "mean": "mean",
    "average": "mean",
    "avg": "mean",
    "median": "median",
    "std": "std",
    "sd": "std",
    "stdev": "std",
    "stddev": "std",
    "deviation": "std",
    "variance": "var",
    "var": "var",
    "min": "min",
    "minimum": "min",
    "lowest": "min",
    "max": "max",
    "maximum": "max",
    "highest": "max",
    "sum": "sum",
    "total": "sum",
    "skewness": "skew",
    "skew": "skew",
    "skewed": "skew",
    "kurtosis": "kurt",
    "kurt": "kurt",
    "range": "range",
    "mode": "mode",
    "count": "count",
    "number": "count",
    "num": "count",
    "iqr": "iqr",
}
MEASURE_WORDS = set(STAT_TOKENS) | {
    "correlation",
    "corr",
    "coefficient",
    "coef",
    "pearson",
    "spearman",
    "kendall",
    "r",
    "rho",
    "p",
    "value",
    "pvalue",
    "normal",
    "normality",
    "is",
    "outlier",
    "outliers",
    "missing",
    "null",
    "nan",
    "values",
    "percentage",
    "percent",
    "pct",
    "proportion",
    "ratio",
    "relationship",
    "type",
    "status",
    "result",
    "test",
    "distribution",
    "of",
    "the",
    "and",
    "in",
    "for",
    "by",
    "with",
    "new",
    "after",
    "before",
    "removal",
    "removed",
    "without",
    "dev",
    "standard",
    "score",
    "significance",
    "significant",
}
Z_THRESHOLD = (
    r"z[- ]?scores?[^.]{0,80}?(?:greater than|above|exceed\w*|more than|>|threshold of|beyond|of)"
    r"\s*[+-]?(\d+(?:\.\d+)?)"
)
REMOVE_OUTLIERS = (
    r"(?:remov|exclud|prun|filter\w{0,20} out|drop|eliminat|without)\w{0,20}\s+(?:the\s+|any\s+|all\s+)?outliers|"
    r"outliers\s+(?:are|should be|were)\s+(?:to be\s+)?(?:removed|excluded|pruned|dropped)"
)
# A correlation threshold however it is written: |r| >= 0.6, "the absolute value of r is at least 0.4",
# "a correlation coefficient greater than 0.3".
_R_THRESHOLD = (
    r"(?:\|\s*r\s*\||absolute value of (?:the )?(?:correlation(?: coefficient)?|r)|correlation coefficient"
    r"|\br\b)[^0-9.]{0,40}?(0?\.\d+)"
)
# Conventions, used when the question gives no threshold of its own: Cohen's "large" effect for a
# linear relationship, |skewness| below one half for a roughly symmetric distribution, and one scale
# of correlation strength for every answer (the conversation's words and a format's labels agree).
LARGE_R = 0.5
SYMMETRIC_SKEW = 0.5
STRENGTH_SCALE = (("strong", 0.7), ("moderate", 0.3), ("weak", 0.1))


def strength(r: float) -> str:
    """'strong', 'moderate', 'weak' or 'none' for a correlation coefficient, on the one scale above."""
    return next((name for name, bound in STRENGTH_SCALE if abs(r) >= bound), "none")


NEGATIVE = re.compile(r"\bnot?\b|\bnon\b|non[-_ ]|\bfalse\b|\bun\w*|abnormal|not_", re.IGNORECASE)


@dataclass
class Context:
    """What the question and its constraints say, shared by all slots."""

    text: str
    question: str
    info: DataFrameInfo
    matcher: ColumnMatcher
    numeric: list[str]
    categorical: list[str]
    filters: list[Filter]
    derived: list[Derived]
    options: Method
    pair: list[str] = field(default_factory=list)  # "between A and B"
    assumptions: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, text: str, info: DataFrameInfo, matcher: ColumnMatcher) -> Context:
        question = re.split(r"\n\s*(?:Constraints?|Format)\s*:", text, maxsplit=1)[0]
        body = re.split(r"\n\s*Format\s*:", text, maxsplit=1)[0]
        derived = _new_features(body, matcher)
        if derived:
            info = _with_columns(info, [d.name for d in derived])
            matcher = ColumnMatcher(info)
        mentions = _quoted_columns(body, info) + [m.column for m in matcher.columns(body)]
        ordered = list(dict.fromkeys(mentions))
        numeric = [c for c in ordered if (i := info.column(c)) is not None and i.kind == "number"]
        categorical = [c for c in ordered if (i := info.column(c)) is not None and i.kind in ("category", "text")]
        values = matcher.values(question, exclude=matcher.columns(question))
        pair = _pair(body, info, matcher)
        return cls(
            pair=pair,
            text=text,
            question=question,
            info=info,
            matcher=matcher,
            numeric=numeric,
            categorical=categorical,
            filters=value_filters(question, values),
            derived=derived,
            options=_options(body),
        )


def resolve(slot: Slot, context: Context) -> Slot:
    """The slot with its measure, column(s) and filters decided."""
    tokens = [t for t in re.split(r"[_\W]+", slot.name.lower()) if t]
    words = set(tokens)
    description = slot.description.lower()
    columns = _columns_in(tokens, context)
    measure = _measure(words, description, slot.choices, context, columns)
    if measure is None:  # the slot says nothing of what to compute: the question may (「@answer」 for "the median …")
        asked = set(re.findall(r"[a-z]+", context.question.lower()))
        measure = _measure(asked & _QUESTION_WORDS, "", slot.choices, context, columns) or _named_stat(
            context.question.lower()
        )
    if slot.choices and measure in ("corr", "pvalue"):
        measure = "corr_label"  # "positive"/"negative", "strong"/"weak", "significant"/"not significant"
    elif slot.choices and measure == "skew":
        measure = "skew_label"
    slot_filters = _slot_filters(tokens, context)
    columns = _not_filtered(columns, slot_filters, context)
    if measure in ("corr", "pvalue", "relationship", "corr_label"):
        named = columns if len(columns) >= 2 else context.pair or columns
        pair = (named + [c for c in context.numeric if c not in named])[:2]
        column, second = [*pair, None, None][:2]
    elif measure in ("argmax", "argmin"):
        column, second = _entity_and_measure(context, columns)
    else:
        candidates = columns or context.numeric or context.categorical
        column, second = (candidates[0] if candidates else None), None
        if measure == "max_missing_column":
            column = None
    return slot.model_copy(
        update={
            "measure": measure,
            "column": column,
            "second": second,
            "filters": [*context.filters, *slot_filters],
        }
    )


@writes("answers")
def code(plan: Plan, info: DataFrameInfo) -> list[str]:
    """Code computing each slot in its own try block, printing ``@name[value]`` lines and setting ``result``."""
    options = plan.method
    lines = ["from scipy import stats", "", "data = data.copy()"]
    for derived in plan.derived_columns:
        lines.append(
            f"data[{derived.name!r}] = pd.to_numeric(data[{derived.left!r}], errors='coerce') "
            f"{derived.op} pd.to_numeric(data[{derived.right!r}], errors='coerce')"
        )
    lines += [
        "answers, problems = {}, {}",
        "",
        "def shown(value, decimals):",
        "    if isinstance(value, str):",
        "        return value",
        "    if isinstance(value, (bool, np.bool_)):",
        "        return str(bool(value))",
        "    return format_number(float(value), decimals, grouping=False)",
        "",
        "def numbers(frame, column):",
        "    return pd.to_numeric(frame[column], errors='coerce').dropna()",
        "",
    ]
    for slot in plan.slots:
        lines += _slot_code(slot, options, info)
    return [
        *lines,
        "for name, value in answers.items():",
        "    print(f'@{name}[{value}]')",
        "for name, problem in problems.items():",
        "    print(f'could not compute {name}: {problem}')",
        "result = {'task': 'answers', 'answers': answers, 'problems': problems}",
    ]


def explain(slot: Slot) -> str:
    """A few words on what was computed for a slot."""
    parts = [slot.measure or "?"]
    if slot.column:
        parts.append(slot.column)
    if slot.second:
        parts.append(slot.second)
    if slot.filters:
        parts.append("; ".join(f"{f.column} {f.op} {f.value}" for f in slot.filters))
    return " · ".join(parts)


# --- reading the context -------------------------------------------------------------------


def _options(text: str) -> Method:
    """The methods the question names: the correlation, the normality test, thresholds, outlier removal."""
    lowered = text.lower()
    chosen: dict[str, Any] = {"r_threshold": LARGE_R}
    if "spearman" in lowered:
        chosen["corr"] = "spearman"
    elif "kendall" in lowered:
        chosen["corr"] = "kendall"
    if re.search(r"kolmogorov|\bks\b|k-s test|ks test|kstest", lowered):
        chosen["normality"] = "ks"
    elif re.search(r"anderson", lowered):
        chosen["normality"] = "anderson"
    elif re.search(r"skew", lowered) and re.search(r"normal", lowered) and not re.search(r"shapiro", lowered):
        chosen["normality"] = "skew"
        bound = re.search(r"(?:between\s*-?\s*(\d*\.?\d+)\s*and|less than|within|below)\s*(\d*\.?\d+)", lowered)
        chosen["skew_bound"] = float(bound.group(2)) if bound else SYMMETRIC_SKEW
    alpha = re.search(r"(?:alpha|significance level)[^0-9]{0,20}(0?\.\d+)", lowered)
    if alpha:
        chosen["alpha"] = float(alpha.group(1))
    z = re.search(Z_THRESHOLD, lowered)
    if z:
        chosen["z"] = float(z.group(1))
    iqr = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:\*|x|×|times)?\s*(?:the\s+)?iqr", lowered)
    if iqr:
        chosen["iqr"] = float(iqr.group(1))
    chosen["averaged"] = bool(re.search(r"\baverage\b|\bmean\b", lowered))
    if re.search(r"population standard deviation|population std|ddof\s*=\s*0", lowered):
        chosen["ddof"] = 0
    if re.search(REMOVE_OUTLIERS, lowered):
        chosen["remove"] = "iqr" if re.search(r"iqr|interquartile|quartile", lowered) else "zscore"
    threshold = re.search(_R_THRESHOLD, lowered)
    if threshold:
        chosen["r_threshold"] = float(threshold.group(1))
    return Method(**chosen)


_BETWEEN = re.compile(
    r"between\s+(?:the\s+)?(?P<a>.{1,80}?)\s+(?:and|&)\s+(?:the\s+)?(?P<b>.{1,80}?)"
    r"(?=\s+columns?\b|\s+variables?\b|\s+in\s|\s+for\s|\s+among\s|[.,;?\n]|$)",
    re.IGNORECASE,
)


def _pair(text: str, info: DataFrameInfo, matcher: ColumnMatcher) -> list[str]:
    """The two columns of 'the correlation between A and B', when the question says so."""
    for match in _BETWEEN.finditer(text):
        found = []
        for part in (match.group("a"), match.group("b")):
            part = part.strip().strip("\"'“”‘’")
            column = (info.column(part) and part) or matcher.resolve(part)
            if column:
                found.append(column)
        if len(found) == 2 and found[0] != found[1]:
            return found
    return []


def _quoted_columns(text: str, info: DataFrameInfo) -> list[str]:
    names = {c.name.lower(): c.name for c in info.column_info}
    found = []
    for quoted in re.findall(r"[\"'“‘]([^\"'”’\n]{1,60})[\"'”’]", text):
        column = names.get(quoted.strip().lower())
        if column:
            found.append(column)
    return found


_FEATURE = re.compile(
    r"(?:new\s+(?:feature|column|variable)|feature|column)\s+(?:called|named|as)?\s*[\"'“‘](?P<name>[^\"'”’]{1,60})[\"'”’]"
    r"(?P<rest>[^.\n]{0,240})",
    re.IGNORECASE,
)
_OPERATIONS = (
    ("+", r"sum|summing|adding|add\b|plus|combin|total of"),
    ("-", r"difference|subtract|minus"),
    ("*", r"multipl|product"),
    ("/", r"divid|ratio|per\b|divided"),
)


def _new_features(text: str, matcher: ColumnMatcher) -> list[Derived]:
    """New columns the question defines: 'a new feature "Total" by summing "A" and "B"'."""
    found = []
    for match in _FEATURE.finditer(text):
        name = match.group("name").strip()
        if matcher.info.column(name) is not None:
            continue
        rest = match.group("rest")
        op = next((symbol for symbol, pattern in _OPERATIONS if re.search(pattern, rest, re.IGNORECASE)), None)
        columns = _quoted_columns(rest, matcher.info) or [m.column for m in matcher.columns(rest)]
        columns = list(dict.fromkeys(columns))
        if op and len(columns) >= 2:
            left, right = columns[:2]
            if (
                op == "/"
                and re.search(r"ratio of|divid\w* (?:the )?\S+ by", rest, re.IGNORECASE) is None
                and "by" in rest
            ):
                left, right = columns[:2]
            found.append(Derived(name=name, left=left, op=op, right=right))  # type: ignore[arg-type]
    return found


def _with_columns(info: DataFrameInfo, names: list[str]) -> DataFrameInfo:
    extra = [ColumnInfo(name=name, dtype="float64", kind="number", missing=0, unique=0) for name in names]
    return info.model_copy(update={"column_info": [*info.column_info, *extra], "columns": [*info.columns, *names]})


# --- resolving a slot ----------------------------------------------------------------------


def _measure(words: set[str], description: str, choices: list[str], context: Context, columns: list[str]) -> str | None:
    """What a slot computes, from its name's words (and the columns they name), its description and its choices."""
    return (
        _test_measure(words, description, choices, context, columns)
        or _entity_measure(words, description, context, columns)
        or _stat_measure(words, description)
    )


def _test_measure(
    words: set[str], description: str, choices: list[str], context: Context, columns: list[str]
) -> str | None:
    """Outliers, missing values, relationships, p-values, normality and correlations."""
    lowered_choices = " ".join(choices).lower()
    if words & {"outlier", "outliers"}:
        summarised = words & set(STAT_TOKENS) - {"count", "number", "num"}
        if summarised and words & {"with", "including"} and not words & {"without", "after", "removal"}:
            return STAT_TOKENS[min(summarised, key=list(STAT_TOKENS).index)]  # the statistic, outliers kept
        if (
            words & {"values", "list"}
            or re.search(r"\blist\b", description)
            or any(_is_label(c, context) for c in columns)
        ):
            return "outlier_values"  # the slot asks for the outliers themselves, or names what they belong to
        cleaned = words & {"after", "without", "removal", "new", "clean", "cleaned"}
        summarised = words & {"mean", "average", "median", "std", "sd"}
        return "stat_after_removal" if summarised and cleaned else "outlier_count"
    if words & {"missing", "null", "nan"}:
        if words & {"percentage", "percent", "pct", "proportion", "ratio", "rate"}:
            return "missing_pct"
        return "max_missing_column" if words & {"column", "columns"} or "column" in description else "missing_count"
    typed = "type" in words and re.search(r"linear|correlat", lowered_choices + description)
    if words & {"relationship", "relation"} or typed:
        return "relationship"
    if words & {"p", "pvalue"} and ("value" in words or "pvalue" in words):
        about_normality = re.search(r"normal|shapiro|kolmogorov", description + context.text.lower()[:400])
        return "normality_p" if about_normality else "pvalue"
    if words & {"normal", "normality"} or re.search(r"normal", lowered_choices):
        return "normality"
    if words & {"correlation", "corr", "coefficient", "coef", "pearson", "spearman", "rho", "r"}:
        return "corr"
    return None


def _entity_measure(words: set[str], description: str, context: Context, columns: list[str]) -> str | None:
    """'country_with_highest_score': the slot names a non-numeric column and an extreme: the entity at the top."""
    if not any(_is_label(c, context) for c in columns):
        return None
    around = f"{' '.join(sorted(words))} {description} {context.question.lower()}"
    if re.search(r"highest|max|most|largest|top|greatest|best", around):
        return "argmax"
    if re.search(r"lowest|min|least|smallest|fewest|worst", around):
        return "argmin"
    return None


def _is_label(column: str, context: Context) -> bool:
    info = context.info.column(column)
    return info is not None and info.kind in ("category", "text")


def _stat_measure(words: set[str], description: str) -> str | None:
    """A summary statistic named in the slot (mean_price → mean), else in its description; else None."""
    order = list(STAT_TOKENS)
    first = min(words & set(STAT_TOKENS), key=order.index, default=None)
    if first is not None:
        return STAT_TOKENS[first]
    return _named_stat(description)


_STAT_PHRASES = (("std", r"standard deviation"), ("count", r"\bnumber of\b|\bhow many\b"))


def _named_stat(text: str) -> str | None:
    """The statistic written first in ``text``: a word of STAT_TOKENS or a phrase (standard deviation)."""
    found: list[tuple[int, str]] = []
    for stat, pattern in _STAT_PHRASES:
        match = re.search(pattern, text)
        if match:
            found.append((match.start(), stat))
    for match in re.finditer(r"[a-z]+", text):
        word = match.group()
        if word in STAT_TOKENS and word not in _AMBIGUOUS_STAT_WORDS:
            found.append((match.start(), STAT_TOKENS[word]))
    return min(found)[1] if found else None


# Words of a question that name a test or a count when its slot does not (outliers, missing, correlation…);
# statistics are read from the question by _named_stat, in the order they are written.
_QUESTION_WORDS = frozenset(
    {"outlier", "outliers", "missing", "null", "correlation", "corr", "pearson", "spearman", "kendall", "normal"}
    | {"normality", "relationship", "skewness", "skewed", "percentage", "percent", "proportion"}
)


# Words that name a statistic in a slot's name (num_rows, var_x) but are ordinary words in a sentence.
_AMBIGUOUS_STAT_WORDS = frozenset({"number", "num", "var", "sd", "range", "mode"})


def _not_filtered(columns: list[str], filters: list[Filter], context: Context) -> list[str]:
    """The slot's columns without those its own name filters on ('p_value_class_1': Class picks rows,
    so what is measured is the question's other column)."""
    filtered = {f.column for f in filters}
    if not filtered & set(columns):
        return columns
    kept = [c for c in columns if c not in filtered]
    return kept or [c for c in context.numeric if c not in filtered][:1]


def _columns_in(tokens: list[str], context: Context) -> list[str]:
    """Columns the slot name spells out ('mean_unit_price' → Unit Price), longest spans first."""
    rest = [t for t in tokens if t not in MEASURE_WORDS and not t.isdigit()]
    found: list[str] = []
    used: set[int] = set()
    for size in range(min(4, len(rest)), 0, -1):
        for start in range(len(rest) - size + 1):
            if used & set(range(start, start + size)):
                continue
            column = context.matcher.resolve(" ".join(rest[start : start + size]))
            if column and column not in found:
                found.append(column)
                used |= set(range(start, start + size))
    return found


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2, "3rd": 3}
_ORDINAL_BEFORE = re.compile(r"(?<![a-z0-9])(?P<nth>" + "|".join(_ORDINALS) + r")_(?P<word>[a-z]+)")
_NOT = {"not", "non", "no", "without", "never", "didnt", "didn", "dont"}


def _slot_filters(tokens: list[str], context: Context) -> list[Filter]:
    """Slot names that single out rows: 'mean_price_grade2' → Grade == 2; 'average_age_east' → Region == East;
    'first_class_age' → Class == 1; 'mean_fare_survived' / 'did_not_survive' → Survived == 1 / 0."""
    filters: list[Filter] = []
    phrase = " ".join(tokens)
    for value in context.matcher.values(phrase, exclude=context.matcher.columns(phrase)):
        filters.append(Filter(column=value.column, op="==", value=value.value, text=value.value))
    joined = _ORDINAL_BEFORE.sub(lambda m: f"{m.group('word')}_{_ORDINALS[m.group('nth')]}", "_".join(tokens))
    for match in re.finditer(r"(?<![a-z])(?P<word>[a-z]+?)_?(?P<number>\d+)(?![a-z0-9])", joined):
        column = _column_for_word(match.group("word"), context)
        info = context.info.column(column) if column else None
        if column and info and info.values and match.group("number") in info.values:
            filters.append(
                Filter(column=column, op="==", value=_typed(match.group("number"), info), text=match.group())
            )
    named = {f.column for f in filters}
    filters += [f for f in _flag_filters(tokens, context) if f.column not in named]
    return filters


def _flag_filters(tokens: list[str], context: Context) -> list[Filter]:
    """A yes/no column (0/1, True/False) the slot name spells, with another column to measure: its rows
    where the flag holds, or where it does not when the name negates it (did_not_survive)."""
    filters = []
    for info in context.info.column_info:
        sides = _flag_sides(info)
        folded = info.name.lower().replace("_", "").replace(" ", "")
        if sides is None or len(folded) < 4:
            continue
        for index, token in enumerate(tokens):
            shared = next((i for i, (a, b) in enumerate(zip(token, folded, strict=False)) if a != b), None)
            stem = min(len(token), len(folded)) if shared is None else shared  # survive ~ survived: 7
            if stem < 4 or stem < min(len(token), len(folded)) - 2:
                continue
            others = [t for t in tokens if t not in MEASURE_WORDS and t != token and t not in _NOT]
            if not others:  # the flag is what the slot measures (survival_rate), not a condition
                break
            negated = any(t in _NOT or t.startswith("un") for t in tokens[max(0, index - 2) : index])
            filters.append(Filter(column=info.name, op="==", value=sides[0 if negated else 1], text=token))
            break
    return filters


def _flag_sides(info: ColumnInfo) -> tuple[Any, Any] | None:
    """The (no, yes) values of a two-valued flag column, typed as the column holds them."""
    values = {str(v).lower() for v in info.values or []}
    if values == {"0", "1"} and info.kind == "number":
        return 0, 1
    if values == {"false", "true"}:
        return False, True
    return None


def _column_for_word(word: str, context: Context) -> str | None:
    if len(word) < 3:
        return None
    for info in context.info.column_info:
        folded = info.name.lower().replace("_", "").replace(" ", "")
        if folded == word or folded.endswith(word) or folded.startswith(word):
            return info.name
    return None


def _typed(value: str, info: ColumnInfo) -> Any:
    return int(value) if info.kind == "number" and value.isdigit() else value


def _entity_and_measure(context: Context, columns: list[str]) -> tuple[str | None, str | None]:
    entity = next((c for c in columns if c in context.categorical), None) or (
        context.categorical[0] if context.categorical else None
    )
    if entity is None:
        entity = next((c.name for c in context.info.column_info if c.kind in ("category", "text")), None)
    measure = next((c for c in columns if c in context.numeric), None) or (
        context.numeric[0] if context.numeric else None
    )
    return entity, measure


# --- code for one slot ---------------------------------------------------------------------


def _slot_code(slot: Slot, options: Method, info: DataFrameInfo) -> list[str]:
    body = _MEASURES.get(slot.measure or "", _unknown)(slot, options)
    lines = [f"# @{slot.name}: {explain(slot)}", "try:", f"    rows = {rows(slot.filters, info)}"]
    lines += ["    " + line for line in body]
    decimals = None if slot.measure in COUNTS else slot.decimals
    lines += [
        f"    answers[{slot.name!r}] = shown(value, {decimals!r})",
        "except Exception as exc:",
        f"    problems[{slot.name!r}] = f'{{type(exc).__name__}}: {{exc}}'",
        "",
    ]
    return lines


def _removal(options: Method) -> list[str]:
    if options.remove == "iqr":
        factor = options.iqr
        return [
            "q1, q3 = values.quantile(0.25), values.quantile(0.75)",
            f"values = values[(values >= q1 - {factor} * (q3 - q1)) & (values <= q3 + {factor} * (q3 - q1))]",
        ]
    if options.remove == "zscore":
        return [f"values = values[abs(stats.zscore(values)) <= {options.z}]"]
    return []


def _stat(name: str) -> Any:
    def code(slot: Slot, options: Method) -> list[str]:
        if slot.column is None:
            raise_line = "raise ValueError('no column to compute on')"
            return [raise_line]
        lines = [f"values = numbers(rows, {slot.column!r})", *_removal(options)]
        expression = {
            "mean": "values.mean()",
            "median": "values.median()",
            "std": f"values.std(ddof={options.ddof})",
            "var": f"values.var(ddof={options.ddof})",
            "min": "values.min()",
            "max": "values.max()",
            "sum": "values.sum()",
            "skew": "values.skew()",
            "kurt": "values.kurt()",
            "range": "values.max() - values.min()",
            "mode": "values.mode().iloc[0]",
            "count": "len(values)",
            "iqr": "values.quantile(0.75) - values.quantile(0.25)",
        }[name]
        return [*lines, f"value = {expression}"]

    return code


def _stat_after_removal(slot: Slot, options: Method) -> list[str]:
    method = options.remove or "zscore"
    stat = (
        "std"
        if re.search(r"std|sd|deviation", slot.name.lower())
        else "median"
        if "median" in slot.name.lower()
        else "mean"
    )
    lines: list[str] = _stat(stat)(slot, options.model_copy(update={"remove": method}))
    return lines


def _corr(slot: Slot, options: Method) -> list[str]:
    return [
        f"pair = rows[[{slot.column!r}, {slot.second!r}]].apply(pd.to_numeric, errors='coerce').dropna()",
        f"value = pair[{slot.column!r}].corr(pair[{slot.second!r}], method={options.corr!r})",
    ]


# The scipy.stats test of each correlation coefficient: its p-value comes with the coefficient.
CORRELATION_TESTS = {"pearson": "pearsonr", "spearman": "spearmanr", "kendall": "kendalltau"}


def _pvalue(slot: Slot, options: Method) -> list[str]:
    test = CORRELATION_TESTS[options.corr]
    return [
        f"pair = rows[[{slot.column!r}, {slot.second!r}]].apply(pd.to_numeric, errors='coerce').dropna()",
        f"value = stats.{test}(pair[{slot.column!r}], pair[{slot.second!r}])[1]",
    ]


def _relationship(slot: Slot, options: Method) -> list[str]:
    linear, nonlinear, none = _relationship_choices(slot.choices)
    return [
        *_pvalue(slot, options)[:1],
        f"r, p = stats.{CORRELATION_TESTS[options.corr]}(pair[{slot.column!r}], pair[{slot.second!r}])[:2]",
        f"strong = abs(r) >= {options.r_threshold}",
        f"value = {none!r} if p >= {options.alpha} else ({linear!r} if strong else {nonlinear!r})",
    ]


def _relationship_choices(choices: list[str]) -> tuple[str, str, str]:
    lowered = {choice.lower(): choice for choice in choices}
    nonlinear = next((c for low, c in lowered.items() if re.search(r"non[- ]?linear", low)), "nonlinear")
    linear = next((c for low, c in lowered.items() if "linear" in low and not re.search(r"non", low)), "linear")
    none = next((c for low, c in lowered.items() if re.search(r"\bnone\b|\bno\b|not", low)), "none")
    return linear, nonlinear, none


COUNTS = {"count", "outlier_count", "missing_count"}
STRENGTH = re.compile(r"strong|moderate|weak|medium")


def _corr_label(slot: Slot, options: Method) -> list[str]:
    """A correlation described by the format's own words: sign, strength or significance."""
    test = CORRELATION_TESTS[options.corr]
    lines = [
        f"pair = rows[[{slot.column!r}, {slot.second!r}]].apply(pd.to_numeric, errors='coerce').dropna()",
        f"r, p = stats.{test}(pair[{slot.column!r}], pair[{slot.second!r}])[:2]",
    ]
    return [*lines, f"value = {_choose(slot.choices, 'r', 'p', options)}"]


def _skew_label(slot: Slot, options: Method) -> list[str]:
    """Skewness described by the format's words: its sign, or whether D'Agostino's test finds it."""
    lines = [f"values = numbers(rows, {slot.column!r})", "r, p = values.skew(), float(stats.skewtest(values).pvalue)"]
    skewed = [c for c in slot.choices if "skew" in c.lower() and not NEGATIVE.search(c)]
    others = [c for c in slot.choices if c not in skewed]
    signed = any(re.search(r"positive|negative|right|left", c.lower()) for c in slot.choices)
    if len(skewed) == 1 and others and not signed:  # "skewed" / "symmetric": skewed when the test finds it
        return [*lines, f"value = {skewed[0]!r} if p < {options.alpha} else {others[0]!r}"]
    return [*lines, f"value = {_choose(slot.choices, 'r', 'p', options)}"]


def _choose(choices: list[str], number: str, p: str, options: Method) -> str:
    """A Python expression picking the choice that describes ``number`` (and ``p``)."""
    lowered = [choice.lower() for choice in choices]

    def find(pattern: str, default: str) -> str:
        return next((c for c, low in zip(choices, lowered, strict=True) if re.search(pattern, low)), default)

    if any(STRENGTH.search(choice) for choice in lowered):
        strong, moderate, weak = find("strong", "strong"), find("moderate|medium", "moderate"), find("weak", "weak")
        (_, high), (_, middle) = STRENGTH_SCALE[:2]
        return f"{strong!r} if abs({number}) >= {high} else ({moderate!r} if abs({number}) >= {middle} else {weak!r})"
    positive, negative = find("positive", ""), find("negative", "")
    if positive and negative:
        neutral = next((c for c in choices if c not in (positive, negative)), negative)
        return f"{positive!r} if {number} > 0 else ({negative!r} if {number} < 0 else {neutral!r})"
    yes = next((c for c in choices if not NEGATIVE.search(c)), choices[0])
    no = next((c for c in choices if NEGATIVE.search(c)), choices[-1])
    return f"{yes!r} if {p} < {options.alpha} else {no!r}"


# Anderson-Darling with mean and deviation estimated: the p-value of D'Agostino & Stephens (1986,
# table 4.9), written out so the code needs no p-value table (scipy's anderson gives none by default).
ANDERSON_P = [
    "def anderson_p(values):",
    "    z = np.sort(((values - values.mean()) / values.std(ddof=1)).to_numpy(float))",
    "    n = len(z)",
    "    i = np.arange(1, n + 1)",
    "    a2 = -n - np.sum((2 * i - 1) * (stats.norm.logcdf(z) + stats.norm.logsf(z[::-1]))) / n",
    "    a2 *= 1 + 0.75 / n + 2.25 / n**2",
    "    if a2 >= 0.6:",
    "        return float(np.exp(1.2937 - 5.709 * a2 + 0.0186 * a2**2))",
    "    if a2 >= 0.34:",
    "        return float(np.exp(0.9177 - 4.279 * a2 - 1.38 * a2**2))",
    "    if a2 >= 0.2:",
    "        return float(1 - np.exp(-8.318 + 42.796 * a2 - 59.938 * a2**2))",
    "    return float(1 - np.exp(-13.436 + 101.14 * a2 - 223.73 * a2**2))",
]


def _normality_test(slot: Slot, options: Method) -> list[str]:
    """Code setting ``p`` (the test's real p-value) and ``normal`` (the verdict the question asks for)."""
    lines = [f"values = numbers(rows, {slot.column!r})"]
    method = options.normality
    alpha = options.alpha
    if method == "ks":
        lines.append("statistic, p = stats.kstest((values - values.mean()) / values.std(), 'norm')")
    elif method == "anderson":
        lines += [*ANDERSON_P, "p = anderson_p(values)"]
    elif method == "skew":  # judged by a bound on the skewness; its p-value is D'Agostino's skewness test
        lines.append("p = float(stats.skewtest(values).pvalue)")
        lines.append(f"normal = bool(abs(values.skew()) < {options.skew_bound})")
        return lines
    else:
        lines.append("statistic, p = stats.shapiro(values)")
    return [*lines, f"normal = bool(p > {alpha})"]


def _normality(slot: Slot, options: Method) -> list[str]:
    positive, negative = _normal_choices(slot.choices)
    return [*_normality_test(slot, options), f"value = {positive!r} if normal else {negative!r}"]


def _normal_choices(choices: list[str]) -> tuple[str, str]:
    positives = [c for c in choices if not NEGATIVE.search(c)]
    negatives = [c for c in choices if NEGATIVE.search(c)]
    return (positives[0] if positives else "normal"), (negatives[0] if negatives else "not normal")


def _normality_p(slot: Slot, options: Method) -> list[str]:
    return [*_normality_test(slot, options), "value = p"]


def _outliers(slot: Slot, options: Method) -> list[str]:
    method = (
        "iqr"
        if options.remove == "iqr" or re.search(r"iqr|interquartile|quartile", slot.description.lower())
        else "zscore"
    )
    if method == "iqr":
        factor = options.iqr
        return [
            f"values = numbers(rows, {slot.column!r})",
            "q1, q3 = values.quantile(0.25), values.quantile(0.75)",
            f"outliers = values[(values < q1 - {factor} * (q3 - q1)) | (values > q3 + {factor} * (q3 - q1))]",
        ]
    return [
        f"values = numbers(rows, {slot.column!r})",
        f"outliers = values[abs(stats.zscore(values)) > {options.z}]",
    ]


def _outlier_count(slot: Slot, options: Method) -> list[str]:
    return [*_outliers(slot, options), "value = len(outliers)"]


def _outlier_values(slot: Slot, options: Method) -> list[str]:
    return [*_outliers(slot, options), "value = ', '.join(str(v) for v in sorted(outliers.tolist()))"]


def _missing_count(slot: Slot, options: Method) -> list[str]:
    return [f"value = int(rows[{slot.column!r}].isna().sum())"]


def _missing_pct(slot: Slot, options: Method) -> list[str]:
    return [f"value = rows[{slot.column!r}].isna().mean() * 100"]


def _max_missing_column(slot: Slot, options: Method) -> list[str]:
    return ["value = str(rows.isna().sum().idxmax())"]


def _arg(extreme: str) -> Any:
    """The entity at the top (or bottom): of group means when the question averages, else of rows."""

    def code(slot: Slot, options: Method) -> list[str]:
        lines = [
            f"values = rows[[{slot.column!r}, {slot.second!r}]].copy()",
            f"values[{slot.second!r}] = pd.to_numeric(values[{slot.second!r}], errors='coerce')",
            f"values = values.dropna(subset=[{slot.second!r}])",
        ]
        if options.averaged:
            return [*lines, f"value = str(values.groupby({slot.column!r})[{slot.second!r}].mean().idx{extreme}())"]
        return [*lines, f"value = str(values.loc[values[{slot.second!r}].idx{extreme}(), {slot.column!r}])"]

    return code


def _unknown(slot: Slot, options: Method) -> list[str]:
    return [f"raise ValueError('no method for {slot.measure}')"]


_MEASURES: dict[str, Any] = {
    **{
        name: _stat(name)
        for name in (
            "mean",
            "median",
            "std",
            "var",
            "min",
            "max",
            "sum",
            "skew",
            "kurt",
            "range",
            "mode",
            "count",
            "iqr",
        )
    },
    "stat_after_removal": _stat_after_removal,
    "corr": _corr,
    "pvalue": _pvalue,
    "relationship": _relationship,
    "corr_label": _corr_label,
    "skew_label": _skew_label,
    "normality": _normality,
    "normality_p": _normality_p,
    "outlier_count": _outlier_count,
    "outlier_values": _outlier_values,
    "missing_count": _missing_count,
    "missing_pct": _missing_pct,
    "max_missing_column": _max_missing_column,
    "argmax": _arg("max"),
    "argmin": _arg("min"),
}
