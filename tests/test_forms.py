"""Every narrower form of a domain model (the API's schemas, a run in a list, a citation) derives from
the model: it shows exactly the model's fields minus those it names as left out, plus its own, each
shared field with the model's type. A field added to a model, or a form that re-declares a field with
another type, fails here until someone decides what the form shows."""

from __future__ import annotations

import json
import types
from typing import Any, Union, get_args, get_origin

import pytest
from pydantic import BaseModel, Field

from bunseki import domain
from bunseki.api import schemas
from bunseki.api.routes.eda import EdaRun as ApiEdaRun
from bunseki.api.routes.investigations import Investigation
from bunseki.cli.sessions import TURN_FIELDS
from bunseki.domain import Omitted

# form: (the model it derives from, the fields it leaves out, the fields it adds)
FORMS: dict[type[BaseModel], tuple[type[BaseModel], set[str], set[str]]] = {
    schemas.Usage: (domain.TurnUsage, set(), set()),
    schemas.Turn: (
        domain.Turn,
        {"session_id", "question", "owner", "started_at", "finished_at", "error", "model", "trace"},
        set(),
    ),
    schemas.Session: (
        domain.Session,
        {
            "user_id",
            "dataset_name",
            "dataset_path",
            "dataset_format",
            "dataset_encoding",
            "dataset_rows",
            "dataset_columns",
            "workspace",
        },
        {"dataset", "turns"},
    ),
    schemas.SessionSummary: (
        domain.Session,
        {"user_id", "dataset_path", "dataset_format", "dataset_encoding", "workspace"},
        set(),
    ),
    schemas.Message: (domain.Message, {"id", "session_id"}, {"usage"}),
    schemas.Step: (domain.Step, {"id", "session_id"}, set()),
    schemas.Snapshot: (domain.Snapshot, {"session_id", "path"}, set()),
    ApiEdaRun: (domain.EdaRunDetails, {"workspace"}, set()),
    Investigation: (domain.InvestigationRun, set(), {"report_files"}),
    domain.EdaRunSummary: (domain.EdaRun, {"user_id", "workspace", "error", "trace"}, set()),
    domain.EdaRunDetails: (
        domain.EdaRun,
        {"user_id", "trace"},
        {
            "review",
            "problems",
            "plan",
            "findings",
            "profile",
            "report_path",
            "report_markdown",
            "report_files",
            "artifacts",
            "executions",
        },
    ),
    domain.Citation: (domain.SearchHit, {"collection"}, set()),
    domain.Conversation: (domain.KnowledgeConversation, {"user_id", "updated_at"}, {"turns"}),
    domain.UnansweredQuestion: (domain.Unanswered, {"id", "session_id", "source"}, set()),
    domain.Collection: (domain.CollectionInfo, {"location"}, set()),
    domain.SourceDocument: (domain.DocumentInfo, set(), {"collection"}),
    domain.IngestResult: (domain.IngestReport, {"removed", "embedded"}, set()),
}


def shown(form: type[BaseModel]) -> set[str]:
    """The fields ``form`` dumps."""
    return {name for name, field in form.model_fields.items() if not field.exclude}


def as_domain(annotation: Any) -> Any:
    """``annotation`` with every form of a domain model replaced by that model (the API's Usage
    stands for TurnUsage), so a form's field and its model's compare equal when they hold the same."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return next((kind for kind in annotation.__mro__ if kind.__module__.startswith("bunseki.domain")), annotation)
    arguments = get_args(annotation)
    if not arguments:
        return annotation
    origin = get_origin(annotation)
    mapped = tuple(as_domain(argument) for argument in arguments)
    if origin in (Union, types.UnionType):
        return Union[mapped]  # noqa: UP007 - rebuilt from its parts
    return origin[mapped]


def drift(form: type[BaseModel], model: type[BaseModel], left_out: set[str], added: set[str]) -> list[str]:
    """How ``form`` departs from ``model`` with ``left_out`` and ``added`` declared: [] when it does not."""
    found = []
    if not issubclass(form, model):
        found.append(f"{form.__name__} does not derive from {model.__name__}")
    expected = (shown(model) - left_out) | added
    if shown(form) != expected:
        found.append(f"{form.__name__} shows {sorted(shown(form) ^ expected)} against what is declared")
    in_schema = set(form.model_json_schema(mode="serialization")["properties"])
    if in_schema != shown(form):
        found.append(f"{form.__name__}'s JSON schema has {sorted(in_schema ^ shown(form))} against what it dumps")
    for name in shown(form) & shown(model):
        theirs, ours = model.model_fields[name].annotation, form.model_fields[name].annotation
        if as_domain(ours) != as_domain(theirs):
            found.append(f"{form.__name__}.{name} is {ours}, {model.__name__}.{name} is {theirs}")
    return found


@pytest.mark.parametrize("form", list(FORMS), ids=lambda form: f"{form.__module__}.{form.__name__}")
def test_a_form_shows_its_model_minus_what_it_names_plus_its_own(form: type[BaseModel]) -> None:
    assert drift(form, *FORMS[form]) == []


class _Retyped(domain.Step):
    id: Omitted = None
    session_id: Omitted = None
    position: str  # type: ignore[assignment]  # another type than the model's


class _Leaking(domain.Step):
    id: Omitted = None  # session_id is shown though the API leaves it out


class _Copied(BaseModel):
    position: int = Field(description="declared again rather than derived")


def test_drift_is_seen() -> None:
    assert any("position" in line for line in drift(_Retyped, domain.Step, {"id", "session_id"}, set()))
    assert any("session_id" in line for line in drift(_Leaking, domain.Step, {"id", "session_id"}, set()))
    assert any("does not derive" in line for line in drift(_Copied, domain.Step, set(domain.Step.model_fields), set()))
    assert drift(_Copied, domain.Step, set(domain.Step.model_fields) - {"position"}, set()) == [
        "_Copied does not derive from Step"
    ]
    assert drift(schemas.Step, domain.Step, {"id"}, set())  # a left-out field the form does show


def test_a_left_out_field_is_kept_but_never_sent() -> None:
    step = domain.Step.model_validate(
        {
            "id": "s1",
            "session_id": "x",
            "turn_id": None,
            "position": 1,
            "step_type": "reset",
            "parameters": {},
            "result": None,
            "rows_before": 10,
            "rows_after": 10,
            "changes_data": True,
            "duration_s": 0.0,
            "created_at": "2025-01-01T00:00:00+00:00",
        }
    )
    sent = schemas.Step.model_validate(step)
    assert sent.id == "s1" and "id" not in sent.model_dump() and "id" not in json.loads(sent.model_dump_json())
    assert sent.model_dump() == step.model_dump(exclude={"id", "session_id"})


def test_the_cli_shows_of_each_turn_what_the_api_does() -> None:
    assert shown(schemas.Turn) == TURN_FIELDS
