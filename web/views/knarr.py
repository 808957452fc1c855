"""Knarr screens beyond the shared table routes: starting a game."""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, redirect, render_template, session, url_for
from flask_babel import gettext as _

from companion.knarr import KnarrError, new_setup
from companion.knarr.data import PLAYER_COUNTS, SHIP_COLOUR_NAMES, SHIP_COLOURS, SHIP_SIDE_NAMES

from .. import access
from ..db import get_store
from ..errors import UserError
from ..i18n import lang
from ..validation import Field, read_fields, request_source

bp = Blueprint("knarr", __name__, url_prefix="/k")
MAX_SEED = 2**31 - 1
MAX_NAME = 30
ARTIFACT_VARIANTS = ("off", "random", "random_with_mead_cup")


SETUP_FIELDS = {
    "player": Field("texts", size=max(PLAYER_COUNTS) * 2),
    "colour": Field("texts", size=max(PLAYER_COUNTS) * 2),
    "seed": Field("text", size=20),
    "first_player": Field("text", size=10, default="random"),
    "artifact_variant": Field("text", size=40, default="off"),
    "ship_side": Field("text", size=20, default="normal"),
    "virtual_deck": Field("flag", default=False),
}


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
    form = read_fields(request_source(), SETUP_FIELDS)
    names, colours = form["player"], form["colour"]
    seats = [(n[:MAX_NAME], colours[i] if i < len(colours) else "") for i, n in enumerate(names)]
    seats = [(n, c) for n, c in seats if n]
    if len(seats) not in PLAYER_COUNTS:
        raise UserError(400, "bad_player_count", _("Knarr is played by 2 to 4 players: enter their names."))
    seed_text = form["seed"] or ""
    try:
        seed = int(seed_text) if seed_text else secrets.randbelow(MAX_SEED)
    except ValueError:
        raise UserError(400, "bad_seed", _("The seed must be a whole number.")) from None
    if not 0 <= seed <= MAX_SEED:
        raise UserError(400, "bad_seed", _("The seed must be between 0 and %(max)s.", max=MAX_SEED))
    first = form["first_player"]
    variant = form["artifact_variant"]
    if variant not in ARTIFACT_VARIANTS:
        raise UserError(400, "bad_artifact_variant", _("Unknown Artifact option."))
    try:
        setup = new_setup(
            [n for n, _c in seats],
            seed,
            colours=[c for _n, c in seats] if all(c for _n, c in seats) else None,
            first_player=None if first == "random" else int(first) if first.isdigit() else -1,
            ship_side=form["ship_side"],
            artifact_variant=variant,
            virtual_deck=form["virtual_deck"],
        )
    except KnarrError as exc:
        raise UserError(400, exc.code, exc.text(lang())) from None
    record = get_store().create("knarr", setup.to_dict())
    access.remember(record.code)  # the phone that starts a table is its first member
    # this phone is the host: its invitation stays on top until another phone opens the table
    session["hosted"] = [*session.get("hosted", [])[-9:], record.code]
    return redirect(url_for("tables.table", code=record.code), code=303)
