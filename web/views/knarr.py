"""Knarr screens beyond the shared table routes: starting a game."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from companion.knarr import KnarrError, new_setup
from companion.knarr.data import PLAYER_COUNTS, SHIP_COLOUR_NAMES, SHIP_COLOURS, SHIP_SIDE_NAMES

from ..db import get_store
from ..errors import UserError
from ..i18n import lang

bp = Blueprint("knarr", __name__, url_prefix="/k")
MAX_SEED = 2**31 - 1
MAX_NAME = 30
ARTIFACT_VARIANTS = ("off", "random", "random_with_mead_cup")


def _form() -> Any:
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UserError(400, "bad_json", _("The request must be a JSON object."))
        return body
    return request.form


def _list(form: Any, key: str) -> list[str]:
    raw = form.getlist(key) if hasattr(form, "getlist") else form.get(key, [])
    return [raw] if isinstance(raw, str) else [str(x) for x in raw]


@bp.get("/new")
def new() -> str:
    language = lang()
    return render_template(
        "knarr/new.html",
        colours=[(c, SHIP_COLOUR_NAMES[c][language]) for c in SHIP_COLOURS],
        sides=[(s, SHIP_SIDE_NAMES[s][language]) for s in SHIP_SIDE_NAMES],
        max_players=max(PLAYER_COUNTS),
    )


@bp.post("/new")
def create() -> Response:
    form = _form()
    names = _list(form, "player")
    colours = _list(form, "colour")
    seats = [(n.strip()[:MAX_NAME], colours[i] if i < len(colours) else "") for i, n in enumerate(names)]
    seats = [(n, c) for n, c in seats if n]
    if len(seats) not in PLAYER_COUNTS:
        raise UserError(400, "bad_player_count", _("Knarr is played by 2 to 4 players: enter their names."))
    seed_text = str(form.get("seed") or "").strip()
    try:
        seed = int(seed_text) if seed_text else secrets.randbelow(MAX_SEED)
    except ValueError:
        raise UserError(400, "bad_seed", _("The seed must be a whole number.")) from None
    first = str(form.get("first_player") or "random")
    variant = str(form.get("artifact_variant") or "off")
    if variant not in ARTIFACT_VARIANTS:
        raise UserError(400, "bad_artifact_variant", _("Unknown Artifact option."))
    try:
        setup = new_setup(
            [n for n, _c in seats],
            seed,
            colours=[c for _n, c in seats] if all(c for _n, c in seats) else None,
            first_player=None if first == "random" else int(first) if first.isdigit() else -1,
            ship_side=str(form.get("ship_side") or "normal"),
            artifact_variant=variant,
            virtual_deck=str(form.get("virtual_deck") or "").lower() in ("1", "true", "on", "yes"),
        )
    except KnarrError as exc:
        raise UserError(400, exc.code, exc.text(lang())) from None
    record = get_store().create("knarr", setup.to_dict())
    return redirect(url_for("tables.table", code=record.code), code=303)
