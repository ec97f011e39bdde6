"""Revising a plan from a person's feedback, in Japanese or English, without guessing.

Understood requests: drop steps ("drop step 3", "ステップ3を削除", "3番目は不要", "外れ値は不要"),
add a breakdown ("add sales by region", "売上を地域別に分析して", "地域別の売上を追加して"),
focus on a column ("focus on 売上", "売上に絞って", "売上を中心に") and add a kind of step
("add correlations", "外れ値も見て"). Feedback is read clause by clause; if any clause cannot
be applied, the plan comes back unchanged with a note saying what was not understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bunseki.brain.eda.contract import EdaView, PlanRevision
from bunseki.brain.eda.offline.columns import MAX_LISTED, Kinds, key_measure, mentioned, resolve
from bunseki.brain.eda.offline.plan import first_plan, numbered, step, target_step
from bunseki.data.profile import TableProfile
from bunseki.domain import Language, PlanStep, StepKind

KIND_WORDS: dict[StepKind, str] = {
    "missing": r"欠損|missing|\bnulls?\b|\bgaps?\b",
    "distribution": r"分布|ヒストグラム|distributions?|histograms?",
    "categorical": r"カテゴリ|度数|内訳|頻度|categor(?:y|ies|ical)|frequenc(?:y|ies)|breakdowns?",
    "correlation": r"相関|correlations?",
    "outliers": r"外れ値|異常値|outliers?|anomal(?:y|ies)",
    "trend": r"推移|トレンド|時系列|trends?|over time|time series",
}
_NUMBERS = r"(\d+(?:\s*(?:,|、|と|・|&|and)\s*(?:step\s*)?#?\d+)*)"
_REMOVE_JA = r"(?:を|は|も)?\s*(?:削除|消して|消す|外して|外す|除外|不要|いらない|要らない|なくして|やめ)"
DROP_NUMBERS = (
    re.compile(rf"(?:ステップ|手順|step)\s*#?{_NUMBERS}\s*(?:番目)?(?:の(?:ステップ|分析))?\s*{_REMOVE_JA}", re.I),
    re.compile(rf"{_NUMBERS}\s*番目(?:の(?:ステップ|分析|手順))?\s*{_REMOVE_JA}"),
    re.compile(rf"\b(?:drop|remove|delete|skip|cut)\s+(?:the\s+)?(?:steps?\s*)?#?{_NUMBERS}\b", re.I),
    re.compile(rf"\bsteps?\s*#?{_NUMBERS}\s+(?:is|are)\s+(?:not needed|unnecessary|not useful)", re.I),
)
DROP_VERB_EN = re.compile(r"\b(?:drop|remove|delete|skip|cut)\b|\bno more\b|\bnot needed\b|\bdon't need\b", re.I)
DROP_VERB_JA = re.compile(r"削除|消して|消す|外して|外す|除外|不要|いらない|要らない|なくして|やめ")
BY_JA = (
    # Names are bounded (40 characters): an unbounded lazy run is retried from every position of
    # a long clause without punctuation, which is quadratic.
    re.compile(r"(?P<x>[^、。,]{1,40}?)を\s*(?P<y>[^、。,を]{1,40}?)(?:別|ごと|毎)に"),
    re.compile(r"(?P<y>[^、。,を]{1,40}?)(?:別|ごと|毎)の\s*(?P<x>[^、。,を]{1,40}?)(?:を|も|の|について|$)"),
)
BY_EN = re.compile(r"^(?P<x>.+?)\s+(?:by|per|across|for each)\s+(?P<y>.+?)$", re.I)
_LEAD_EN = re.compile(
    r"^(?:please\s+|also\s+|can you\s+|could you\s+)*(?:add|show|analy[sz]e|compare|look at|break down|include|"
    r"see|check|plot)\s+(?:(?:an?|the)\s+)?(?:(?:analysis|breakdown|comparison|look|chart|plot)\s+(?:of|at)\s+)?"
    r"(?:the\s+)?",
    re.I,
)
FOCUS = (
    re.compile(
        r"(?P<c>[^、。,]+?)\s*(?:に絞って|に絞る|に絞り|に絞ろう|を中心に|に集中|にフォーカス|を重点的に|だけを?(?:見|分析))"
    ),
    re.compile(r"\b(?:focus|concentrate)\s+(?:only\s+|more\s+)?on\s+(?:the\s+)?(?P<c>.+?)(?:\s+column)?$", re.I),
    re.compile(r"\bonly\s+(?:look at|analy[sz]e)\s+(?:the\s+)?(?P<c>.+?)(?:\s+column)?$", re.I),
)
ADD_JA = re.compile(r"も|追加|加えて|入れて|見て|みて|確認|調べ|分析|チェック|ほしい|欲しい|見たい")
ADD_EN = re.compile(r"\b(?:add|include|also|show|check|look at|analy[sz]e|see|want|too)\b", re.I)
_CLAUSES = re.compile(r"[。;；\n]+|\.\s+|\.$")
_TRAILING = re.compile(r"(?:を|も)?\s*(?:追加して|追加|分析して|見て|みて|調べて|ください|下さい|ほしい|欲しい)+$")


@dataclass(frozen=True)
class Applied:
    steps: list[PlanStep]
    note: str
    added: bool = False


@dataclass(frozen=True)
class Rejected:
    note: str


def revise(view: EdaView) -> PlanRevision:
    """``view.plan`` (or a first plan) changed by ``view.feedback``; unchanged with a note if unclear."""
    current = numbered(list(view.plan)) if view.plan else first_plan(view)
    feedback = (view.feedback or "").strip()
    if not feedback:
        return PlanRevision(plan=current)
    steps, notes, added = current, [], False
    for clause in (part.strip(" 、,") for part in _CLAUSES.split(feedback)):
        if not clause:
            continue
        outcome = _apply(clause, steps, view)
        if isinstance(outcome, Rejected):
            return PlanRevision(plan=current, understood=False, note=outcome.note)
        steps, added = numbered(outcome.steps), added or outcome.added
        notes.append(outcome.note)
    return PlanRevision(
        plan=steps,
        note=" ".join(notes) or None,
        new_analyses=added and view.review == "results",
    )


def _apply(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected:
    for rule in (_drop_numbers, _by, _focus, _drop_kind, _add_kind):
        outcome = rule(clause, steps, view)
        if outcome is not None:
            return outcome
    return Rejected(_unclear(clause, view, None))


def _drop_numbers(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected | None:
    for pattern in DROP_NUMBERS:
        hit = pattern.search(clause)
        if hit is None:
            continue
        wanted = sorted({int(n) for n in re.findall(r"\d+", hit.group(1))})
        unknown = [n for n in wanted if not 1 <= n <= len(steps)]
        if unknown:
            detail = (
                f"ステップ {', '.join(map(str, unknown))} はありません（計画は {len(steps)} ステップです）。"
                if view.language == "ja"
                else f"There is no step {', '.join(map(str, unknown))} (the plan has {len(steps)} steps)."
            )
            return Rejected(_unclear(clause, view, detail))
        dropped = [s for s in steps if s.id in wanted]
        kept = [s for s in steps if s.id not in wanted]
        return Applied(kept, _removed_note(dropped, view.language))
    return None


def _drop_kind(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected | None:
    verb = DROP_VERB_JA if view.language == "ja" or _has_japanese(clause) else DROP_VERB_EN
    if not verb.search(clause):
        return None
    kinds = [kind for kind, words in KIND_WORDS.items() if re.search(words, clause, re.I)]
    if not kinds:
        return None
    dropped = [s for s in steps if s.kind in kinds]
    if not dropped:
        detail = (
            "計画にその種類のステップはありません。" if view.language == "ja" else "The plan has no step of that kind."
        )
        return Rejected(_unclear(clause, view, detail))
    return Applied([s for s in steps if s.kind not in kinds], _removed_note(dropped, view.language))


def _by(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected | None:
    pairs: list[tuple[str, str]] = []
    for pattern in BY_JA:
        hit = pattern.search(clause)
        if hit:
            pairs.append((_TRAILING.sub("", hit.group("x")).strip(), hit.group("y").strip()))
    english = BY_EN.search(_LEAD_EN.sub("", clause.strip()))
    if english:
        pairs.append((english.group("x").strip(), re.sub(r"^the\s+", "", english.group("y").strip(), flags=re.I)))
    if not pairs:
        return None
    x_phrase, y_phrase = pairs[0]
    x, y = resolve(x_phrase, view.profile), resolve(y_phrase, view.profile)
    missing = [phrase for phrase, column in ((x_phrase, x), (y_phrase, y)) if column is None]
    if x is None or y is None:
        return Rejected(_unclear(clause, view, _no_column(missing, view)))
    new = _breakdown_step(x, y, view.profile, view.language)
    if any(s.kind == new.kind and s.columns == new.columns for s in steps):
        note = (
            f"「{new.title}」はすでに計画にあります。"
            if view.language == "ja"
            else f"{new.title!r} is already planned."
        )
        return Applied(steps, note)
    return Applied([*steps, new], _added_note([new], view.language), added=True)


def _breakdown_step(x: str, y: str, profile: TableProfile, language: Language) -> PlanStep:
    """A step for "x by y": a breakdown, a trend, or a custom pairing, by the columns' kinds."""
    kinds = Kinds.of(profile)
    if y in kinds.datetime:
        return step("trend", [y, *([x] if x in kinds.numeric else [])], language, profile)
    if x in kinds.numeric and y in kinds.categorical:
        return step("categorical", [y, x], language, profile)
    return step("custom", [x, y], language, profile)


def _focus(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected | None:
    for pattern in FOCUS:
        hit = pattern.search(clause)
        if hit is None:
            continue
        phrase = re.sub(r"^(?:もっと|より|主に)", "", hit.group("c").strip())
        column = resolve(phrase, view.profile)
        if column is None:
            return Rejected(_unclear(clause, view, _no_column([phrase], view)))
        involved = [s for s in steps if column in s.columns]
        rest = [s for s in steps if column not in s.columns]
        added: list[PlanStep] = []
        if not any(s.kind == "target" and s.columns[:1] == [column] for s in involved):
            added = [target_step(column, view.language, view.profile)]
        ja = view.language == "ja"
        note = (
            f"{column} を中心に、関係するステップを先頭に並べ替えました。"
            if ja
            else f"Focused on {column}: the steps involving it come first."
        )
        if added:
            note += f"「{added[0].title}」を追加しました。" if ja else f" Added {added[0].title!r}."
        return Applied([*added, *involved, *rest], note, added=bool(added))
    return None


def _add_kind(clause: str, steps: list[PlanStep], view: EdaView) -> Applied | Rejected | None:
    japanese = _has_japanese(clause)
    if not (ADD_JA if japanese else ADD_EN).search(clause):
        return None
    kinds = [kind for kind, words in KIND_WORDS.items() if re.search(words, clause, re.I)]
    if not kinds:
        return None
    named = mentioned(clause, view.profile)
    new_steps: list[PlanStep] = []
    for kind in kinds:
        made = _kind_step(kind, named, view)
        if isinstance(made, Rejected):
            return made
        planned = [s for s in steps if s.kind == made.kind]
        if not any(s.columns == made.columns for s in planned) and (named or not planned):
            new_steps.append(made)
    if not new_steps:
        note = "その分析はすでに計画にあります。" if view.language == "ja" else "That analysis is already planned."
        return Applied(steps, note)
    return Applied([*steps, *new_steps], _added_note(new_steps, view.language), added=True)


def _kind_step(kind: StepKind, named: list[str], view: EdaView) -> PlanStep | Rejected:
    profile, language, ja = view.profile, view.language, view.language == "ja"
    kinds = Kinds.of(profile)
    numeric = [c for c in named if c in kinds.numeric] or kinds.numeric
    reason: str | None = None
    columns: list[str] = []
    if kind == "missing":
        columns = [c.name for c in profile.columns if c.missing > 0 and (not named or c.name in named)]
        reason = None if columns else ("欠損値のある列はありません。" if ja else "No column has missing values.")
    elif kind in ("distribution", "outliers"):
        columns = numeric[:MAX_LISTED]
        reason = None if columns else ("数値列がありません。" if ja else "The table has no numeric column.")
    elif kind == "correlation":
        columns = (numeric if len(numeric) >= 2 else kinds.numeric)[:MAX_LISTED]
        enough = len(columns) >= 2
        reason = (
            None
            if enough
            else ("相関には数値列が2つ以上必要です。" if ja else "Correlations need two numeric columns.")
        )
    elif kind == "categorical":
        columns = ([c for c in named if c in kinds.categorical] or kinds.categorical)[:4]
        reason = None if columns else ("カテゴリ列がありません。" if ja else "The table has no categorical column.")
    elif kind == "trend":
        measure = next((c for c in named if c in kinds.numeric), None) or key_measure(profile)
        columns = [kinds.datetime[0], *([measure] if measure else [])] if kinds.datetime else []
        reason = (
            None
            if columns
            else ("日付列がないため推移は見られません。" if ja else "There is no date column for a trend.")
        )
    if reason is not None:
        return Rejected(_unclear(view.feedback or "", view, reason))
    return step(kind, columns, language, profile)


def _has_japanese(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) is not None


def _no_column(phrases: list[str], view: EdaView) -> str:
    quoted = "、".join(f"「{p}」" for p in phrases) if view.language == "ja" else ", ".join(repr(p) for p in phrases)
    return (
        f"{quoted} に当たる列が見つかりません（または複数あります）。"
        if view.language == "ja"
        else f"No single column matches {quoted}."
    )


def _unclear(feedback: str, view: EdaView, detail: str | None) -> str:
    columns = [c.name for c in view.profile.columns if c.kind != "id"]
    if view.language == "ja":
        return (
            f"「{feedback}」を計画にどう反映すればよいか分かりませんでした。{detail or ''}"
            "計画は変えていません。できる指示の例: 「地域別の売上を追加して」「ステップ3を削除」「売上に絞って」"
            f"「外れ値も見て」。使える列: {'、'.join(columns)}。"
        )
    return (
        f"Could not apply {feedback!r} to the plan. {detail or ''} The plan is unchanged. "
        "I can apply requests such as 'add sales by region', 'drop step 3', 'focus on sales' or 'add correlations'. "
        f"Columns: {', '.join(columns)}."
    ).replace("  ", " ")


def _removed_note(dropped: list[PlanStep], language: Language) -> str:
    if language == "ja":
        return "削除しました: " + "、".join(f"ステップ{s.id}（{s.title}）" for s in dropped) + "。"
    return "Removed " + ", ".join(f"step {s.id} ({s.title})" for s in dropped) + "."


def _added_note(added: list[PlanStep], language: Language) -> str:
    if language == "ja":
        return "追加しました: " + "、".join(f"「{s.title}」" for s in added) + "。"
    return "Added " + ", ".join(repr(s.title) for s in added) + "."
