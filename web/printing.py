"""Glue to `printables/`: how query arguments map onto its PDF functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Response
from flask_babel import gettext as _

from printables import knarr_pad_pdf, map_sheet_pdf, scores_pdf

from .errors import UserError

MAX_COPIES = 20

# kind -> (function, its extra argument: a map side or a player count)
KINDS: dict[str, tuple[Callable[..., bytes], str]] = {
    "map": (map_sheet_pdf, "side"),
    "score": (scores_pdf, "players"),
    "knarr": (knarr_pad_pdf, "players"),
}
MAX_PLAYERS_ON_SHEET = 12


def _int(args: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    try:
        value = int(args.get(key, default))
    except (TypeError, ValueError):
        raise UserError(400, "bad_number", _("%(field)s must be a whole number.", field=key)) from None
    if not low <= value <= high:
        raise UserError(400, "bad_number", _("%(field)s must be between %(low)s and %(high)s.",
                                             field=key, low=low, high=high))
    return value


def render(kind: str, args: Mapping[str, str], table: str | None = None, seats: list[int] | None = None,
           names: list[str] | None = None) -> bytes:
    if kind not in KINDS:
        raise UserError(404, "unknown_printable", _("There is no such printable sheet."))
    func, extra = KINDS[kind]
    kwargs: dict[str, Any] = {
        "paper": args.get("paper", "a4"),
        "lang": args.get("lang", "en"),
        "copies": len(seats) if seats else _int(args, "copies", 1, 1, MAX_COPIES),
    }
    if extra == "side":
        kwargs["side"] = args.get("side", "A")
    else:
        kwargs["players"] = _int(args, "players", 4, 1, MAX_PLAYERS_ON_SHEET)
    if table is not None:
        kwargs["table"] = table
        kwargs["seats"] = seats
    if names and extra == "players":
        kwargs["names"] = list(names)
    if kind == "score" and args.get("card_set"):
        kwargs["card_set"] = args["card_set"]  # a Heroes table's sheet names the 8/7/7/6 season times
    if kind == "score" and args.get("skills") is not None:
        kwargs["skills"] = [s for s in str(args["skills"]).split("|") if s]
    try:
        return func(**kwargs)
    except (ValueError, TypeError) as exc:
        message = _("These print options are not valid: %(why)s", why=str(exc))
        raise UserError(400, "bad_print_options", message) from None


def pdf_response(pdf: bytes, filename: str) -> Response:
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
