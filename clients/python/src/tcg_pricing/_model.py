"""Turning decoded JSON into the frozen dataclasses of ``models``, driven by their type hints.

Unknown fields are kept in ``raw`` and otherwise ignored (the API may add fields); a field whose
type is ``X | None`` may be absent or null; any other field must be present with its type, or the
answer is not the documented shape and a ``TcgProtocolError`` names the field.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Callable, Dict, Mapping, Tuple, Type, TypeVar, Union

from .errors import TcgProtocolError

T = TypeVar("T", bound="Model")

Converter = Callable[[Any, str], Any]


def wire(name: str, **kwargs: Any) -> Any:
    """A dataclass field whose JSON key is ``name`` (the attribute is its snake_case form)."""
    return dataclasses.field(metadata={"wire": name}, **kwargs)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Model:
    """Base of every response model. ``raw`` is the JSON object as received, unknown fields included."""

    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls: Type[T], data: Any, where: str = "") -> T:
        return typing.cast(T, _converter(cls)(data, where or cls.__name__))


_CACHE: Dict[Any, Converter] = {}


def _fail(where: str, expected: str, value: Any) -> TcgProtocolError:
    got = "missing" if value is _ABSENT else type(value).__name__
    return TcgProtocolError(f"unexpected response shape at {where}: expected {expected}, got {got}")


_ABSENT = object()


def _converter(tp: Any) -> Converter:
    cached = _CACHE.get(tp)
    if cached is None:
        cached = _build(tp)
        _CACHE[tp] = cached
    return cached


def _build(tp: Any) -> Converter:
    origin = typing.get_origin(tp)
    if tp is Any:
        return lambda v, where: v
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        inner = _converter(args[0]) if len(args) == 1 else _converter(Any)
        return lambda v, where: None if v is None or v is _ABSENT else inner(v, where)
    if origin is list:
        (item_tp,) = typing.get_args(tp)
        item = _converter(item_tp)

        def convert_list(v: Any, where: str) -> Any:
            if not isinstance(v, list):
                raise _fail(where, "an array", v)
            return [item(x, f"{where}[{i}]") for i, x in enumerate(v)]

        return convert_list
    if origin is dict:
        _, value_tp = typing.get_args(tp)
        value = _converter(value_tp)

        def convert_dict(v: Any, where: str) -> Any:
            if not isinstance(v, dict):
                raise _fail(where, "an object", v)
            return {str(k): value(x, f"{where}.{k}") for k, x in v.items()}

        return convert_dict
    if tp is bool:
        return _scalar(lambda v: isinstance(v, bool), "a boolean", lambda v: v)
    if tp is int:
        return _scalar(lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer", lambda v: v)
    if tp is float:
        return _scalar(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number", float)
    if tp is str:
        return _scalar(lambda v: isinstance(v, str), "a string", lambda v: v)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_converter(tp)
    raise TypeError(f"no converter for {tp!r}")  # a bug in models.py, not in an answer


def _scalar(ok: Callable[[Any], bool], expected: str, make: Callable[[Any], Any]) -> Converter:
    def convert(v: Any, where: str) -> Any:
        if not ok(v):
            raise _fail(where, expected, v)
        return make(v)

    return convert


def _dataclass_converter(cls: type) -> Converter:
    hints = typing.get_type_hints(cls)
    plan: list[Tuple[str, str, Converter, bool]] = []
    for f in dataclasses.fields(cls):
        if f.name == "raw" or f.metadata.get("header"):
            continue  # not in the JSON body
        tp = hints[f.name]
        optional = typing.get_origin(tp) in (Union, types.UnionType) and type(None) in typing.get_args(tp)
        plan.append((f.name, f.metadata.get("wire", f.name), _converter(tp), optional))

    def convert(v: Any, where: str) -> Any:
        if not isinstance(v, dict):
            raise _fail(where, "an object", v)
        kwargs: Dict[str, Any] = {"raw": v}
        for name, key, conv, optional in plan:
            value = v.get(key, _ABSENT)
            if value is _ABSENT and not optional:
                raise _fail(f"{where}.{key}", "a value", value)
            kwargs[name] = conv(value, f"{where}.{key}")
        return cls(**kwargs)

    return convert
