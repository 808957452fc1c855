"""Cartographers screens beyond the shared table routes: starting a game and a player's map/score page."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from companion.cartographers.board import RUINS_NORMAL, RUINS_SINGLE_SQUARE
from companion.cartographers.data import AMBUSH_BY_ID, CARD_SETS, EDICTS, HERO_PREFIX, MAPS, SCORING_CARDS
from companion.cartographers.history import GameHistory
from companion.cartographers.session import MAX_PLAYERS, GameError, Setup
from companion.cartographers.sides import SideError, is_custom, normalise_side

from .. import access
from ..db import get_store
from ..errors import UserError
from ..games.cartographers import CartographersAdapter, engine_message
from ..games.referee import referee_view
from ..i18n import loc
from ..mapdata import card_sets, categories, page_data, scoring_cards, side_data
from ..validation import Field, read_fields, request_source
from .scorer import json_body, parse_board
from .tables import load_record

bp = Blueprint("cartographers", __name__)
ADAPTER = CartographersAdapter()
MAX_SEED = 2**31 - 1
MAX_NAME = 30


SETUP_FIELDS = {
    "player": Field("texts", size=MAX_PLAYERS * 2),
    "seed": Field("text", size=20),
    "side": Field("text", size=800, default="A"),  # A-D, or a table's own side code (~name~cells…)
    "scoring_mode": Field("text", size=20),
    **{f"edict_{letter}": Field("text", size=40, default="") for letter in EDICTS},
    "deck": Field("text", size=20, default="base"),
    "skill": Field("texts", size=6),
    "ruins_rule": Field("text", size=20, default=""),
}


def _players(names: list[str]) -> list[str]:
    names = [n[:MAX_NAME] for n in names if n]
    if not names:
        raise UserError(400, "no_players", _("Enter at least one player name (one name plays solo)."))
    if len(names) > MAX_PLAYERS:
        raise UserError(400, "too_many_players", _("Too many players."))
    return names


def _setup_from_form(source: Any) -> Setup:
    form = read_fields(source, SETUP_FIELDS)
    players = _players(form["player"])
    seed_text = form["seed"] or ""
    if seed_text:
        try:
            seed = int(seed_text)
        except ValueError:
            raise UserError(400, "bad_seed", _("The seed must be a whole number.")) from None
        if not 0 <= seed <= MAX_SEED:
            raise UserError(400, "bad_seed", _("The seed must be between 0 and %(max)s.", max=MAX_SEED))
    else:
        seed = secrets.randbelow(MAX_SEED)
    scoring = None
    if form["scoring_mode"] == "chosen":
        scoring = tuple(form[f"edict_{letter}"] for letter in EDICTS)
    skills = tuple(name for name in form["skill"] if name)
    try:
        ruins_rule = RUINS_SINGLE_SQUARE if form["ruins_rule"] == RUINS_SINGLE_SQUARE else RUINS_NORMAL
        return Setup(seed=seed, side=form["side"], players=tuple(players), scoring=scoring,
                     deck=form["deck"], skills=skills, ruins_rule=ruins_rule)
    except GameError as exc:
        raise UserError(400, exc.code, engine_message(exc)) from None


@bp.get("/c/new")
def new() -> str:
    combining = next(d for d in CARD_SETS["heroes"].doubts if d.id == "combining")
    sides = {s: side_data(s) for s in MAPS}
    own = normalise_side(request.args.get("side") or "")
    if is_custom(own):
        try:
            sides[own] = side_data(own)
        except SideError:
            raise UserError(400, "bad_side", _("This map side is not known.")) from None
    return render_template("carto/new.html", cards=scoring_cards(), categories=categories(), edicts=EDICTS,
                           default_cards=[c.id for c in SCORING_CARDS[::4]], card_sets=card_sets(),
                           sides=sides, start_side=own if is_custom(own) else "A", mixing_note=loc(combining, "text"))


@bp.post("/c/new")
def create() -> Response:
    setup = _setup_from_form(request_source())
    record = get_store().create("cartographers", setup.to_dict())
    access.remember(record.code)  # the phone that starts a table is its first member
    # this phone is the host: its invitation stays on top until another phone opens the table
    session["hosted"] = [*session.get("hosted", [])[-9:], record.code]
    return redirect(url_for("tables.table", code=record.code), code=303)


def _seat_history(code: str, seat: int) -> tuple[Any, GameHistory]:
    """A Cartographers table replayed with its history, for one of its seats (404 for anything else)."""
    record = load_record(code)
    if record.kind != "cartographers":
        raise UserError(404, "not_found", _("There is nothing at this address. Check the link or the table code."))
    history = GameHistory.replay(Setup.from_dict(record.setup), record.events)
    if not 0 <= seat < len(history.game.setup.players):
        raise UserError(404, "unknown_player", _("Unknown player."))
    return record, history


@bp.get("/t/<code>/player/<int:seat>")
def player(code: str, seat: int) -> str:
    """One player's page: paint or photograph the map, save it, score the season (or type the points)."""
    record, history = _seat_history(code, seat)
    game = history.game
    view = game.to_dict()
    ended = [s for s in range(4) if s < game.season or (s == game.season and game.phase != "explore")]
    scores = game.season_scores(seat)
    season = request.args.get("season", type=int)
    if season not in ended:
        season = ended[-1] if ended else None
        if season is not None and game.phase == "explore" and scores[season] is not None:
            season = None  # mid-season and the last season is scored: this page is just the player's map
    known = game.known_map(seat)
    entry = scores[season] if season is not None else None
    # Heroes: the hero this player still has to draw this season, and the Gorgon/Troll choices on this map
    placed = set(view["heroes_placed"].get(str(seat), []))
    waiting = [c for t in view["turns"] for c in t["cards"] if c["kind"] == "hero"
               and c["id"].removeprefix(HERO_PREFIX) not in placed]
    # the coin track only grows: default to the latest coins this player entered
    earlier = [s for s in scores[: (season if season is not None else game.season) + 1] if s]
    coins = entry["coins"] if entry else (earlier[-1]["coins"] if earlier else 0)
    referee = referee_view(history, seat, season)
    saved = history.seasons[season].maps.get(seat) if season is not None else None
    # the editor shows the player's latest map: mark its cells only when that is the map the verdict is about
    marks = referee.get("marks", []) if saved is not None and known is not None and saved.grid == known.grid else []
    if not entry and referee.get("coins"):
        coins = referee["coins"]["total"]  # coins without typing: the player only confirms
    return render_template(
        "carto/player.html",
        code=record.code, version=record.version, view=view, seat=seat, name=game.setup.players[seat],
        data=page_data([game.setup.side]), seasons=game.setup.seasons, grid=known.to_words() if known else None,
        season=season, ended=ended,
        edicts=list(game.edicts_for(season)) if season is not None else [],
        entry=entry, coins=coins, hero_waiting=waiting[-1] if waiting and game.phase != "over" else None,
        my_pending=[p for p in view["pending"] if p["player"] == seat], spent=game.spent_coins(seat),
        untracked=[a for a in game.removed_ambushes if AMBUSH_BY_ID[a].effect
                   and a not in view["monsters"].get(str(seat), {})] if game.phase != "over" else [],
        ambush_names={a.id: loc(a) for a in AMBUSH_BY_ID.values()}, referee=referee, referee_marks=marks,
    )


@bp.post("/t/<code>/player/<int:seat>/check")
def check(code: str, seat: int) -> Response:
    """The season referee on the map as it is in the editor (photo or painted), before or after saving."""
    record, history = _seat_history(code, seat)
    game = history.game
    body = json_body()
    season = body.get("season")
    if season is not None and (not isinstance(season, int) or isinstance(season, bool) or not 0 <= season < 4
                               or season > game.season):
        raise UserError(400, "bad_season", _("That season cannot be scored now."))
    board = parse_board(game.setup.side, body.get("grid")) if body.get("grid") is not None else None
    referee = referee_view(history, seat, season, board)
    photo_coins = body.get("photo_coins")
    if not isinstance(photo_coins, int) or isinstance(photo_coins, bool):
        photo_coins = None
    html = render_template("carto/_referee.html", referee=referee, photo_coins=photo_coins, entry=None)
    return jsonify({**referee, "html": html, "photo_coins": photo_coins})


@bp.get("/t/<code>/photo")
def photo(code: str) -> str:
    """Photograph any map at the table; the sheet's QR code (or the player) says whose it is."""
    record = load_record(code)
    if record.kind != "cartographers":
        raise UserError(404, "not_found", _("There is nothing at this address. Check the link or the table code."))
    return render_template("carto/photo.html", code=record.code, side=record.setup["side"],
                           heroes=bool(Setup.from_dict(record.setup).card_set.heroes),
                           players=list(record.setup["players"]))


@bp.post("/t/<code>/photo/sheets")
def photo_sheets(code: str) -> Response:
    """A photo of the table: every sheet in it read; the page files each by its QR seat or asks whose it is."""
    from .. import photo as photo_mod
    from .. import photoqueue

    record = load_record(code)
    if record.kind != "cartographers":
        raise UserError(404, "not_found", _("There is nothing at this address. Check the link or the table code."))
    return jsonify({**photo_mod.read_table_upload(request), **photoqueue.queue_info()})
