"""What the domain models share: frozen values read from the store's rows by attribute, and the
way a narrower form of a model (a run in a list, a step as the API sends it) leaves fields out.

A form subclasses the model it shows and declares each field it leaves out as ``name: Omitted =
None``: the field keeps its value (so the form is built from the model with ``model_validate``)
but is never dumped and never appears in a JSON schema. Every other field, its type and its
description come from the model, so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema


class Entity(BaseModel):
    """A frozen domain value; the store builds it from a row's attributes."""

    model_config = ConfigDict(frozen=True, from_attributes=True)


Omitted = Annotated[Any, Field(exclude=True, repr=False), SkipJsonSchema()]
"""A field that a form leaves out of its model: kept, but never dumped nor in a JSON schema."""
