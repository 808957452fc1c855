"""Glue to `printables/`: which PDFs exist and how query arguments map onto their functions.

The PDF functions are written by another package and land progressively, so each
is looked up when asked for; a missing one answers 503 with a clear message
instead of breaking the home page.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response
from flask_babel import gettext as _

from .errors import UserError

MAX_COPIES = 20

# kind -> (module, function, its extra argument: a map side or a player count)
KINDS: dict[str, tuple[str, str, str]] = {
    "map": ("printables.mapsheet", "map_sheet_pdf", "side"),
    "score": ("printables.scoresheet", "scores_pdf", "players"),
    "knarr": ("printables.knarrpad", "knarr_pad_pdf", "players"),
}
MAX_PLAYERS_ON_SHEET = 12


def _function(kind: str) -> Callable[..., bytes] | None:
    module_name, func_name, _side = KINDS[kind]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return None
    return getattr(module, func_name, None)


def available() -> dict[str, bool]:
    return {kind: _function(kind) is not None for kind in KINDS}


def _int(args: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    try:
        value = int(args.get(key, default))
    except (TypeError, ValueError):
        raise UserError(400, "bad_number", _("%(field)s must be a whole number.", field=key)) from None
    if not low <= value <= high:
        raise UserError(400, "bad_number", _("%(field)s must be between %(low)s and %(high)s.",
                                             field=key, low=low, high=high))
    return value


def accepts(func: Callable[..., bytes], name: str) -> bool:
    """Whether a printable takes this keyword (names on score sheets arrive when `printables` adds them)."""
    try:
        return name in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def render(kind: str, args: Mapping[str, str], table: str | None = None, seats: list[int] | None = None,
           names: list[str] | None = None) -> bytes:
    if kind not in KINDS:
        raise UserError(404, "unknown_printable", _("There is no such printable sheet."))
    func = _function(kind)
    if func is None:
        raise UserError(503, "printable_missing", _("This sheet cannot be printed yet in this version."))
    kwargs: dict[str, Any] = {
        "paper": args.get("paper", "a4"),
        "lang": args.get("lang", "en"),
        "copies": len(seats) if seats else _int(args, "copies", 1, 1, MAX_COPIES),
    }
    if KINDS[kind][2] == "side":
        kwargs["side"] = args.get("side", "A")
    else:
        kwargs["players"] = _int(args, "players", 4, 1, MAX_PLAYERS_ON_SHEET)
    if table is not None:
        kwargs["table"] = table
        kwargs["seats"] = seats
    if names and accepts(func, "names"):
        kwargs["names"] = list(names)
    try:
        return func(**kwargs)
    except (ValueError, TypeError) as exc:
        message = _("These print options are not valid: %(why)s", why=str(exc))
        raise UserError(400, "bad_print_options", message) from None


def pdf_response(pdf: bytes, filename: str) -> Response:
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
