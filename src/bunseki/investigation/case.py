"""The investigation case: a YAML manifest naming specs, code, the evaluation environment and datasets.

Every path is relative to the manifest. ``load_case`` checks everything (files, CSVs, keys, the
expected text) before any work starts and raises `CaseError` naming the problem.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml  # type: ignore[import-untyped]  # PyYAML ships no stubs; it comes with langchain-core

from bunseki.errors import InputError

CASE_KEYS = {"name", "specs", "codes", "env_specs", "env_codes", "datasets", "entry", "frame_column"}
DATASET_KEYS = {"name", "output_csv", "core_csv", "expected"}
DATASET_REQUIRED = {"output_csv", "core_csv", "expected"}  # the seed's datasets have no name
REQUIRED_KEYS = {"codes", "datasets"}  # a case without a name is named after its folder


class CaseError(InputError):
    """An investigation case (its manifest or a file it names) cannot be used as given."""


@dataclass(frozen=True)
class Expectation:
    """What a dataset should show: ``column`` equals ``value`` on these frame ranges (inclusive)."""

    ranges: tuple[tuple[int, int], ...]
    column: str
    value: float
    text: str

    def frames(self) -> list[int]:
        return [frame for start, end in self.ranges for frame in range(start, end + 1)]

    def as_dict(self) -> dict[str, Any]:
        return {"ranges": [list(r) for r in self.ranges], "column": self.column, "value": self.value}


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    output_csv: Path
    core_csv: Path
    expected: Expectation


@dataclass(frozen=True)
class Case:
    name: str
    manifest: Path
    specs: tuple[Path, ...]
    codes: tuple[Path, ...]
    env_specs: tuple[Path, ...]
    env_codes: tuple[Path, ...]
    datasets: tuple[DatasetSpec, ...]
    entry_file: Path
    entry_function: str
    frame_column: str = "frame"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.manifest.parent


_RANGE = re.compile(
    r"\[\s*(\d+)\s*,\s*(\d+)\s*\]"  # [40, 59]
    r"|(\d+)\s*(?:-|–|—|〜|~|～|to|through|thru|until|から|\.\.)\s*(\d+)"
    r"|(\d+)"
)
_FLAG = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:==|=|＝|is|が|は|should be|must be|equals?(?: to)?|becomes?)\s*(-?\d+(?:\.\d+)?)"
)
# "…, otherwise 0", 「それ以外は0」: the rest of the frames, not more frames.
_OTHERWISE = re.compile(
    r"(?:otherwise|elsewhere|else|everywhere else|other frames|それ以外|以外|その他|他のフレーム)[^。.;；\n]*", re.I
)


def parse_expected(text: str) -> Expectation:
    """「フレーム40-59でz=1」, "frames 10-20 and 50-60 have z=1" → ranges and a flag column/value."""
    flag = _FLAG.search(text)
    if flag is None:
        raise CaseError(f"expected text {text!r} names no flag: write it like 'frames 40-59 have z=1'")
    head = _OTHERWISE.sub(" ", text[: flag.start()] + " " + text[flag.end() :])
    ranges: list[tuple[int, int]] = []
    for match in _RANGE.finditer(head):
        if match.group(5) is not None:
            start = end = int(match.group(5))
        else:
            first, last = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
            start, end = int(first), int(last)
        if end < start:
            raise CaseError(f"expected text {text!r}: the range {start}-{end} ends before it starts")
        ranges.append((start, end))
    if not ranges:
        raise CaseError(f"expected text {text!r} names no frames: write it like 'frames 40-59 have z=1'")
    value = float(flag.group(2))
    return Expectation(ranges=tuple(ranges), column=flag.group(1), value=value, text=text)


def load_case(manifest: Path) -> Case:
    """Read and check a case manifest; every problem raises `CaseError` before any work."""
    manifest = Path(manifest).resolve()
    if not manifest.is_file():
        raise CaseError(f"{manifest} is not a file; give the path of a case manifest (YAML)")
    try:
        raw = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CaseError(f"{manifest.name} is not readable YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise CaseError(f"{manifest.name} must be a mapping with keys {sorted(REQUIRED_KEYS)}")
    unknown = set(raw) - CASE_KEYS
    if unknown:
        raise CaseError(f"{manifest.name}: unknown key(s) {sorted(unknown)}; allowed: {sorted(CASE_KEYS)}")
    missing = REQUIRED_KEYS - set(raw)
    if missing:
        raise CaseError(f"{manifest.name}: missing key(s) {sorted(missing)}")
    root = manifest.parent
    codes = _files(raw, "codes", root, required=True)
    specs, env_specs, env_codes = (_files(raw, key, root) for key in ("specs", "env_specs", "env_codes"))
    for code in (*codes, *env_codes):
        if code.suffix != ".py":
            raise CaseError(f"{code.name}: code files must be Python (.py)")
    names = [path.name for path in dict.fromkeys((*specs, *codes, *env_specs, *env_codes))]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:  # the workspace keeps one flat copy of the case, and retrieval names passages by file
        raise CaseError(f"{manifest.name}: two different files are named {clashes[0]!r}; rename one of them")
    entry_file, entry_function = _entry(raw.get("entry"), codes, root, specs)
    datasets = raw["datasets"]
    if not isinstance(datasets, list) or not datasets:
        raise CaseError(f"{manifest.name}: datasets must be a non-empty list")
    frame_column = str(raw.get("frame_column") or _frame_column(datasets, root))
    parsed = tuple(_dataset(item, index, root, frame_column) for index, item in enumerate(datasets))
    names = [ds.name for ds in parsed]
    if len(set(names)) != len(names):
        raise CaseError(f"{manifest.name}: dataset names must be unique, got {names}")
    return Case(
        name=str(raw.get("name") or root.name),
        manifest=manifest,
        specs=specs,
        codes=codes,
        env_specs=env_specs,
        env_codes=env_codes,
        datasets=parsed,
        entry_file=entry_file,
        entry_function=entry_function,
        frame_column=frame_column,
    )


def _files(raw: dict[str, Any], key: str, root: Path, *, required: bool = False) -> tuple[Path, ...]:
    value = raw.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or (required and not value):
        raise CaseError(f"{key} must be a list of file paths" + (" with at least one" if required else ""))
    paths = []
    for item in value:
        path = (root / str(item)).resolve()
        if not path.is_file():
            raise CaseError(f"{key}: {item} does not exist (paths are relative to the manifest)")
        paths.append(path)
    return tuple(paths)


def _entry(value: Any, codes: tuple[Path, ...], root: Path, specs: tuple[Path, ...]) -> tuple[Path, str]:
    """The file and function to run: ``entry`` as written (checked), or else the one public function of
    the codes that takes a table (among several, the one the specifications name)."""
    if value is None:
        return _inferred_entry(codes, specs)
    text = str(value)
    file_part, _, function = text.rpartition(":")
    if not file_part or not function.isidentifier():
        raise CaseError(f"entry {text!r} must look like 'detector.py:detect'")
    path = (root / file_part).resolve()
    if path not in codes:
        raise CaseError(f"entry {text!r}: {file_part} is not one of the codes")
    names = _module_names(path)
    if names is not None and function not in names:
        defined = ", ".join(name for name in names if not name.startswith("_")) or "no public function"
        raise CaseError(f"entry {text!r}: {path.name} defines no {function!r} (it defines: {defined})")
    return path, function


def _module_names(path: Path) -> list[str] | None:
    """The names a code file binds at its top level (functions, assignments, imports); None when it does not parse."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), filename=path.name)
    except SyntaxError:
        return None
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [target.id for target in targets if isinstance(target, ast.Name)]
    return names


def _table_functions(path: Path) -> list[str]:
    """The public top-level functions of a code file that take an argument (a table)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), filename=path.name)
    except SyntaxError as exc:
        raise CaseError(
            f"{path.name} is not valid Python (line {exc.lineno}: {exc.msg}), so its function cannot be found; "
            f"fix it or name the function with `entry: {path.name}:FUNCTION`"
        ) from exc
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and not node.name.startswith("_")
        and (node.args.posonlyargs or node.args.args or node.args.vararg)
    ]


def _names_function(text: str, name: str) -> bool:
    """Whether a document names ``name`` as code: ``name(…)`` or `` `name` `` (a plain word is not enough)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}\s*\(|`{re.escape(name)}`", text) is not None


def _inferred_entry(codes: tuple[Path, ...], specs: tuple[Path, ...]) -> tuple[Path, str]:
    candidates = [(path, name) for path in codes for name in _table_functions(path)]
    if len(candidates) > 1:  # the one the specifications name, if only one is named
        documents = " ".join(spec.read_text(encoding="utf-8", errors="replace") for spec in specs)
        named = [(path, name) for path, name in candidates if _names_function(documents, name)]
        candidates = named if len(named) == 1 else candidates
    if len(candidates) == 1:
        return candidates[0]
    example = f"{candidates[0][0].name}:{candidates[0][1]}" if candidates else f"{codes[0].name}:FUNCTION"
    if not candidates:
        found = "the codes define no public function that takes a table"
    else:
        listed = ", ".join(f"{name} ({path.name})" for path, name in candidates)
        found = f"the codes define several public functions that take a table: {listed}"
    raise CaseError(f"the manifest has no entry and {found}; name the one to run, e.g. `entry: {example}`")


_FRAME_NAMES = re.compile(
    r"^(?:frames?|frame_?(?:no|id|index|number)|フレーム(?:番号)?|sample_?(?:no|index)?|idx|index)$", re.I
)


def _frame_column(datasets: Any, root: Path) -> str:
    """The column that numbers the frames, when the manifest does not say: ``frame``, else the one
    integer column named like a frame number (フレーム, frame_no, index…) in the first output CSV."""
    try:
        first = (root / str(datasets[0]["output_csv"])).resolve()
        header = pd.read_csv(first, nrows=50)
    except (LookupError, TypeError, ValueError, UnicodeDecodeError, OSError):
        return "frame"  # the dataset's own check says what is wrong with it
    if "frame" in header.columns:
        return "frame"
    named = [
        str(c)
        for c in header.columns
        if _FRAME_NAMES.match(str(c).strip()) and pd.api.types.is_integer_dtype(header[c])
    ]
    return named[0] if len(named) == 1 else "frame"


def _dataset(item: Any, index: int, root: Path, frame_column: str) -> DatasetSpec:
    if not isinstance(item, dict):
        raise CaseError(f"datasets[{index}] must be a mapping with keys {sorted(DATASET_KEYS)}")
    unknown = set(item) - DATASET_KEYS
    if unknown:
        raise CaseError(f"datasets[{index}]: unknown key(s) {sorted(unknown)}; allowed: {sorted(DATASET_KEYS)}")
    missing = DATASET_REQUIRED - set(item)
    if missing:
        raise CaseError(f"datasets[{index}]: missing key(s) {sorted(missing)}")
    name = str(item.get("name") or f"{index + 1}_{Path(str(item['output_csv'])).stem}")
    expected = parse_expected(str(item["expected"]))
    paths = {}
    for key in ("output_csv", "core_csv"):
        path = (root / str(item[key])).resolve()
        if not path.is_file():
            raise CaseError(f"dataset {name}: {key} {item[key]} does not exist")
        try:
            frame = pd.read_csv(path)
        except (ValueError, UnicodeDecodeError, OSError) as exc:
            raise CaseError(f"dataset {name}: {key} {item[key]} is not a readable CSV: {exc}") from exc
        for column in (frame_column, expected.column):
            if column not in frame.columns:
                hint = (
                    "; name the column that numbers the frames with `frame_column:` in the manifest"
                    if column == frame_column
                    else ""
                )
                columns = ", ".join(map(str, frame.columns[:12]))
                raise CaseError(f"dataset {name}: {key} {item[key]} has no column {column!r} (it has: {columns}){hint}")
        paths[key] = path
    return DatasetSpec(name=name, output_csv=paths["output_csv"], core_csv=paths["core_csv"], expected=expected)
