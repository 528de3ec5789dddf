"""Building pydantic models from values the engine itself produced, without validating them again.

Validation is for what comes from outside (JSON, content files, players). The hot path of a simulation builds
several models per action (prompts and their options, answers, events) from values that are already of the
right types; validating them again is a large part of a random playout's time. `trusted(cls, values)` makes
the same model `cls(**values)` would make when every field is given and valid: the same field values, the
same `model_dump`, JSON and equality. What it skips is checking, so callers pass exactly the model's fields;
`defaults(cls, given)` lists what to fill in for the fields a caller does not give, so a field added to a
model later is filled in too (or, with no default, refused at import).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__
# BaseModel's slots, set through their descriptors (the cheapest way around BaseModel.__setattr__)
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

_IMMUTABLE = (type(None), str, int, float, bool, tuple, frozenset, bytes, Enum)

Factories = tuple[tuple[str, Callable[[], Any]], ...]


def trusted(cls: type[M], values: dict[str, Any], fields_set: set[str] | None = None) -> M:
    """`cls(**values)` without validation. `values` must hold every field of `cls` with a valid value (it
    becomes the instance's `__dict__`); `fields_set` is what `model_fields_set` reports (default: every
    field). A model with private attributes or extra fields is not supported."""
    obj = _new(cls)
    _set(obj, "__dict__", values)
    _set_fields_set(obj, set(values) if fields_set is None else fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def defaults(cls: type[BaseModel], given: set[str]) -> tuple[dict[str, Any], Factories]:
    """For a fast constructor that always passes the fields `given`: (a template of every field in the
    model's order, holding the immutable default of each field not given, to copy and update per instance;
    (name, factory) for the other fields not given, to call per instance). A field without a default that is
    not given is a TypeError, at import time of the constructor."""
    template: dict[str, Any] = {}
    factories: list[tuple[str, Callable[[], Any]]] = []
    for name, field in cls.model_fields.items():
        template[name] = None
        if name in given:
            continue
        if field.default_factory is not None:
            factories.append((name, field.default_factory))  # type: ignore[arg-type]
        elif field.is_required():
            raise TypeError(f"{cls.__name__}.{name} has no default: a fast constructor must pass it")
        elif isinstance(field.default, _IMMUTABLE):
            template[name] = field.default
        else:
            factories.append((name, _copier(field.default)))
    return template, tuple(factories)


def _copier(value: Any) -> Callable[[], Any]:
    return lambda: copy.deepcopy(value)
