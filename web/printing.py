"""Glue to `printables/`: how query arguments map onto its PDF functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Response
from flask_babel import gettext as _

from companion.cartographers.data import SCORING_BY_ID
from companion.cartographers.sides import SideError, normalise_side, side_layout
from companion.knarr.data import PLAYER_COUNTS as KNARR_PLAYER_COUNTS
from printables import knarr_pad_pdf, map_sheet_pdf, scores_pdf
from printables.layout import PAPERS
from printables.strings import LANGS

from .errors import UserError

MAX_COPIES = 20

# kind -> (function, its extra argument: a map side or a player count)
KINDS: dict[str, tuple[Callable[..., bytes], str]] = {
    "map": (map_sheet_pdf, "side"),
    "score": (scores_pdf, "players"),
    "knarr": (knarr_pad_pdf, "players"),
}
MAX_PLAYERS_ON_SHEET = 12
# the player counts each printable takes: the Knarr pad is for 2-4 players, like the game
PLAYER_RANGE: dict[str, tuple[int, int]] = {"score": (1, MAX_PLAYERS_ON_SHEET),
                                            "knarr": (min(KNARR_PLAYER_COUNTS), max(KNARR_PLAYER_COUNTS))}


def _field_name(key: str) -> str:
    """The field as the form calls it, in the page language (never the English query key)."""
    return {"players": _("The number of players"), "copies": _("The number of copies")}.get(key, key)


def _int(args: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    raw = args.get(key, default)
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise UserError(400, "bad_number", _("%(field)s must be a whole number.", field=_field_name(key))) from None
    if not low <= value <= high:
        raise UserError(400, "bad_number", _("%(field)s must be between %(low)s and %(high)s.",
                                             field=_field_name(key), low=low, high=high))
    return value


def _edict_names(ids: str, lang: str) -> list[str]:
    """The four scoring cards under edicts A-D (ids, comma-separated) as the sheet's language names them."""
    cards = [SCORING_BY_ID.get(i.strip()) for i in ids.split(",")]
    if len(cards) != 4 or None in cards:
        raise UserError(400, "bad_edicts", _("The four edicts are not known scoring cards."))
    return [c.name_tr if lang == "tr" else c.name_en for c in cards if c is not None]


def _side(args: Mapping[str, str]) -> str:
    """A printed side (A-D) or a table's own side (its code, as the custom-side editor makes it)."""
    side = normalise_side(args.get("side", "A"))
    try:
        side_layout(side)
    except SideError:
        raise UserError(400, "bad_side", _("This map side is not known.")) from None
    return side


def _choice(args: Mapping[str, str], key: str, default: str, allowed: tuple[str, ...], message: str) -> str:
    value = str(args.get(key, default)).strip()
    value = value.upper() if key == "side" else value.lower()
    if value not in allowed:
        raise UserError(400, f"bad_{key}", message)
    return value


def render(kind: str, args: Mapping[str, str], table: str | None = None, seats: list[int] | None = None,
           names: list[str] | None = None) -> bytes:
    if kind not in KINDS:
        raise UserError(404, "unknown_printable", _("There is no such printable sheet."))
    func, extra = KINDS[kind]
    kwargs: dict[str, Any] = {
        "paper": _choice(args, "paper", "a4", tuple(PAPERS), _("The paper must be A4 or Letter.")),
        "lang": _choice(args, "lang", "en", LANGS, _("The language of the sheet must be Turkish or English.")),
        "copies": len(seats) if seats else _int(args, "copies", 1, 1, MAX_COPIES),
    }
    if extra == "side":
        kwargs["side"] = _side(args)
    elif not names:
        kwargs["players"] = _int(args, "players", 4, *PLAYER_RANGE[kind])
    if table is not None:
        kwargs["table"] = table
        kwargs["seats"] = seats
    if names:
        kwargs["names"] = list(names)
    if kind == "score" and args.get("card_set"):
        kwargs["card_set"] = args["card_set"]  # a Heroes table's sheet names the 8/7/7/6 season times
    if kind == "score" and args.get("skills") is not None:
        kwargs["skills"] = [s for s in str(args["skills"]).split("|") if s]
    if kind == "score" and args.get("edicts"):
        kwargs["edicts"] = _edict_names(str(args["edicts"]), kwargs["lang"])
    try:
        return func(**kwargs)
    except (ValueError, TypeError) as exc:
        message = _("These print options are not valid: %(why)s", why=str(exc))
        raise UserError(400, "bad_print_options", message) from None


def pdf_response(pdf: bytes, filename: str) -> Response:
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
