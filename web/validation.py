"""The one input layer every JSON and form endpoint goes through: sizes, nesting depth, then field types.

Why here and not in each route: the same bad bodies (a 100,000-level nested array, `"player": 5`
where a list of names belongs, a float `Infinity`, a 60 kB name) would otherwise have to be caught
by every route and every game adapter, and the one that forgets answers 500. Three layers:

1. `SafeJSONProvider` is the app's JSON module, so `request.get_json()` everywhere refuses bodies that
   are too big, nested too deep (checked by a linear scan *before* the recursive parser sees them),
   carry NaN/Infinity, or hold too many values. A refused body parses as "not JSON" → a 400.
2. `check_body` (before every request) answers a JSON or form body that breaks those limits with one
   translated 400/413, so no route ever sees it.
3. `read_fields(source, spec)` turns a JSON object or a form into plain typed fields for a route
   (`text`, `texts`, `int`, `flag`), with a 400 naming the field when a value has the wrong type.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _

from .errors import UserError

MAX_JSON_BYTES = 256 * 1024  # a full map with every field is ~2 kB
MAX_DEPTH = 8  # the deepest real body is {"grid": [[...]]}: 3 levels
MAX_OUTPUT_DEPTH = 64  # the app's own JSON (a history export nests games → seasons → maps → rows) when read back
MAX_VALUES = 5_000  # every number, string, list and object counted once
MAX_TEXT = 4_000  # longest string value anywhere in a body
MAX_FORM_BYTES = 512 * 1024  # form fields outside file parts
MAX_FORM_PARTS = 200

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_OPENERS = re.compile(rb"[\[{]|[\]}]")


class BodyError(ValueError):
    """A body that breaks a limit; a ValueError so Flask's `get_json(silent=True)` treats it as bad JSON."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def json_depth(data: bytes) -> int:
    """The deepest nesting of [ and { outside strings, without recursion (so it is safe on any input)."""
    depth = deepest = 0
    for match in _OPENERS.finditer(_STRINGS.sub(b'""', data)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyError("bad_number")
    return value


def _no_constant(_name: str) -> Any:
    raise BodyError("bad_number")  # NaN, Infinity, -Infinity


def _count(value: Any, budget: list[int]) -> None:
    """Counts values (depth is bounded already, so the recursion is shallow); stops at the budget."""
    budget[0] -= 1
    if budget[0] < 0:
        raise BodyError("too_many_values")
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BodyError("text_too_long")
    elif isinstance(value, dict):
        for key, item in value.items():
            _count(key, budget)
            _count(item, budget)
    elif isinstance(value, list):
        for item in value:
            _count(item, budget)


def loads(data: str | bytes, sizes: bool = True, depth: int = MAX_DEPTH) -> Any:
    """`json.loads` within the limits above (depth and numbers always, sizes unless told); raises BodyError."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if sizes and len(raw) > MAX_JSON_BYTES:
        raise BodyError("too_large")
    if json_depth(raw) > depth:
        raise BodyError("too_deep")
    try:
        value = json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    except RecursionError:  # cannot happen after the depth check; kept so no input can ever reach a 500
        raise BodyError("too_deep") from None
    except (UnicodeDecodeError, TypeError):
        raise BodyError("bad_json") from None
    if sizes:
        _count(value, [MAX_VALUES])
    return value


class SafeJSONProvider(DefaultJSONProvider):
    """The app's JSON: never recursion-deep, never NaN. Request bodies get the tight limits in `check_body`."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s, sizes=False, depth=MAX_OUTPUT_DEPTH)


def body_message(code: str) -> str:
    messages = {
        "too_large": _("The request is too large."),
        "too_deep": _("The request is nested too deeply."),
        "too_many_values": _("The request holds too many values."),
        "text_too_long": _("A text in the request is too long."),
        "bad_number": _("The request holds a number that is not valid."),
    }
    return messages.get(code, _("The request must be a JSON object."))


def check_body() -> None:
    """Before every request: refuse a JSON body that breaks the limits, with the reason, before any route runs."""
    if request.method in ("GET", "HEAD", "OPTIONS") or not request.is_json:
        return
    length = request.content_length
    if length is not None and length > MAX_JSON_BYTES:
        raise UserError(413, "too_large", body_message("too_large"))
    try:
        loads(request.get_data(cache=True))
    except BodyError as exc:
        raise UserError(413 if exc.code == "too_large" else 400, "bad_json", body_message(exc.code)) from None
    except ValueError:  # not JSON at all: routes answer that themselves ("must be a JSON object")
        return


# -- typed fields ------------------------------------------------------------------------------------------

SCALARS = (str, int, float)


@dataclass(frozen=True)
class Field:
    """One expected input: `kind` is text | texts | int | flag; `size` caps a text's length or a list's items."""

    kind: str
    size: int = 100
    default: Any = None


def _wrong(name: str) -> UserError:
    return UserError(400, "bad_field", _("%(field)s is not valid.", field=name), field=name)


def _text(name: str, value: Any, size: int) -> str:
    if isinstance(value, bool) or not isinstance(value, SCALARS):
        raise _wrong(name)
    text = str(value).strip()
    if len(text) > size:
        raise UserError(400, "too_long", _("%(field)s is too long (at most %(max)s characters).", field=name,
                                           max=size), field=name)
    return text


def request_source() -> Mapping[str, Any]:
    """The posted JSON object or form; a JSON body that is not an object is a 400."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UserError(400, "bad_json", _("The request must be a JSON object."))
        return body
    return request.form


def _values(source: Mapping[str, Any], name: str) -> list[Any]:
    if hasattr(source, "getlist"):
        return source.getlist(name)
    value = source.get(name)
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def read_fields(source: Mapping[str, Any], spec: Mapping[str, Field]) -> dict[str, Any]:
    """Typed fields from a JSON object or a form: `texts` → list[str], `text` → str, `int` → int|None, `flag` → bool.

    Names longer than `size` are refused rather than cut, numbers in JSON are accepted where a
    text is expected (`"seed": 5`), and a list where one value belongs is a 400 naming the field.
    """
    out: dict[str, Any] = {}
    for name, field in spec.items():
        values = _values(source, name)
        if field.kind == "texts":
            if len(values) > field.size:
                raise UserError(400, "too_many", _("Too many values for %(field)s.", field=name), field=name)
            out[name] = [_text(name, v, MAX_TEXT) for v in values]
            continue
        if len(values) > 1:
            raise _wrong(name)
        value = values[0] if values else None
        if value is None or value == "":
            out[name] = field.default
        elif field.kind == "text":
            out[name] = _text(name, value, field.size)
        elif field.kind == "flag":
            if isinstance(value, bool):
                out[name] = value
            else:
                out[name] = _text(name, value, 10).lower() in ("1", "true", "on", "yes")
        elif field.kind == "int":
            if isinstance(value, bool) or not isinstance(value, SCALARS):
                raise _wrong(name)
            if isinstance(value, float):
                if not value.is_integer():
                    raise _wrong(name)
                value = int(value)
            try:
                out[name] = int(str(value).strip())
            except ValueError:
                raise _wrong(name) from None
        else:  # pragma: no cover - a programming error in a spec
            raise ValueError(f"unknown field kind {field.kind!r}")
    return out


def init_app(app: Flask) -> None:
    app.json = SafeJSONProvider(app)
    app.config.setdefault("MAX_FORM_MEMORY_SIZE", MAX_FORM_BYTES)
    app.config.setdefault("MAX_FORM_PARTS", MAX_FORM_PARTS)
    app.before_request(check_body)
