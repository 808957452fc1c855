"""Cartographers on the web: form/JSON fields → engine events, engine view → HTML.

All rules live in `companion.cartographers.session`; this module only parses
what a phone sent, asks the engine, and translates its error codes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import render_template, url_for
from flask_babel import gettext as _

from companion.cartographers.board import ROW_LETTERS, BoardError
from companion.cartographers.data import AMBUSH_BY_ID
from companion.cartographers.session import Game, GameError, Setup

from ..i18n import loc
from ..map_errors import map_error_message
from ..storage import GameRecord
from ..validation import loads
from .base import Adapter, GameRuleError, PrintJob, form_int

INPUT_ERRORS = frozenset({"bad_grid", "bad_event", "unknown_player", "bad_setup", "bad_cell", "bad_skill"})


def engine_message(exc: GameError) -> str:
    """The engine's stable error codes in the page language (its own messages are English)."""
    if exc.code == "bad_grid" and isinstance(exc.__cause__, BoardError):
        return map_error_message(exc.__cause__)
    messages = {
        "game_over": _("The game is over."),
        "season_over": _("The season has ended: score the maps, then start the next season."),
        "season_not_over": _("The season has not ended yet."),
        "nothing_to_undo": _("There is nothing to undo."),
        "deck_empty": _("The explore deck is empty."),
        "unknown_player": _("Unknown player."),
        "bad_season": _("That season cannot be scored now."),
        "bad_grid": _("The map is not valid: %(why)s", why=exc.message),
        "bad_event": _("That action is not valid: %(why)s", why=exc.message),
        "bad_setup": _("The game setup is not valid: %(why)s", why=exc.message),
        "no_hero": _("No hero is waiting to be drawn on this map."),
        "bad_cell": _("That space cannot be used: %(why)s", why=exc.message),
        "nothing_pending": _("Nothing is waiting to be destroyed on this map."),
        "bad_skill": _("That skill is not in play at this table."),
    }
    return messages.get(exc.code, exc.message)


def rule_error(exc: GameError) -> GameRuleError:
    return GameRuleError(exc.code, engine_message(exc), 400 if exc.code in INPUT_ERRORS else 409)


def _int(fields: Mapping[str, Any], key: str, required: bool = True) -> int | None:
    return form_int(fields, key, required=required)


def _grid(fields: Mapping[str, Any]) -> Any:
    grid = fields.get("grid")
    if isinstance(grid, str):
        try:
            grid = loads(grid)
        except ValueError:
            raise GameRuleError("bad_grid", _("The map could not be read. Please try again."), 400) from None
    if grid is None:
        raise GameRuleError("bad_grid", _("The map is missing."), 400)
    return grid


def _cell(fields: Mapping[str, Any]) -> list[int]:
    """A space typed as the sheet names it (C7) or sent as row/col numbers."""
    label = str(fields.get("cell") or "").strip().upper()
    if label:
        if len(label) >= 2 and label[0] in ROW_LETTERS and label[1:].isdigit() and 1 <= int(label[1:]) <= 11:
            return [ROW_LETTERS.index(label[0]), int(label[1:]) - 1]
        raise GameRuleError("bad_cell", _("Name the space as on the sheet: a row letter A-K and a column 1-11, "
                                          "e.g. C7."), 400)
    return [_int(fields, "row"), _int(fields, "col")]


def _cells(fields: Mapping[str, Any]) -> list[list[int]]:
    """Several spaces typed as on the sheet, e.g. "C3 C4 D4" (commas or spaces between them)."""
    words = str(fields.get("cells") or "").replace(",", " ").split()
    if not words:
        raise GameRuleError("bad_cell", _("Name the space as on the sheet: a row letter A-K and a column 1-11, "
                                          "e.g. C7."), 400)
    return [_cell({"cell": w}) for w in words]


def score_event(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A score from the grid editor / photo (grid + coins) or added up on paper (edict points, coins, monsters)."""
    event: dict[str, Any] = {"type": "score", "player": _int(fields, "player"), "coins": _int(fields, "coins")}
    season = _int(fields, "season", required=False)
    if season is not None:
        event["season"] = season
    if fields.get("grid") not in (None, ""):
        event["grid"] = _grid(fields)
    else:
        if "edicts" in fields and isinstance(fields["edicts"], list):
            event["edicts"] = fields["edicts"]
        else:
            event["edicts"] = [_int(fields, "edict1"), _int(fields, "edict2")]
        event["monsters"] = _int(fields, "monsters")
    return event


NOTES = frozenset({"drawn", "joined"})  # events that note something for the page but are no move of the game


def undo_move(game: Game) -> Game:
    """Take back the last move; "done drawing" taps after it go with it, "a phone joined" stays."""
    events = list(game.events)
    moves = [i for i, e in enumerate(events) if e.get("type") not in NOTES]
    if not moves:
        raise GameError("nothing_to_undo", "there is nothing to undo")
    last = moves[-1]
    kept = events[:last] + [e for e in events[last + 1:] if e.get("type") == "joined"]
    return Game.replay(game.setup, kept)


def describe_last(game: Game) -> str | None:
    """What Undo would take back, in words, so nobody undoes the wrong thing."""
    events = [e for e in game.events if e.get("type") not in NOTES]
    if not events:
        return None
    last = events[-1]
    players = game.setup.players
    kind = last.get("type")
    if kind == "reveal":
        return _("the last card revealed")
    if kind == "score":
        return _("the score of %(name)s", name=players[last["player"]])
    if kind == "map":
        return _("the map of %(name)s", name=players[last["player"]])
    if kind == "next_season":
        return _("starting the next season")
    if kind == "hero":
        return _("the hero of %(name)s", name=players[last["player"]])
    if kind == "destroy":
        return _("the destroyed space on the map of %(name)s", name=players[last["player"]])
    if kind == "spend":
        return _("the coins %(name)s spent", name=players[last["player"]])
    if kind == "monster":
        return _("where the monster is on the map of %(name)s", name=players[last["player"]])
    return None


class CartographersAdapter(Adapter):
    kind = "cartographers"
    strict_actions = frozenset({"reveal", "next_season", "undo"})

    def load(self, record: GameRecord) -> Game:
        return Game.replay(Setup.from_dict(record.setup), record.events)

    def phase(self, game: Game) -> str:
        return game.phase

    def perform(self, game: Game, action: str, fields: Mapping[str, Any]) -> list[dict[str, Any]]:
        try:
            if action == "reveal":
                game = game.apply({"type": "reveal"})
            elif action == "next_season":
                game = game.apply({"type": "next_season"})
            elif action == "undo":
                game = undo_move(game)
            elif action == "drawn":
                game = game.apply({"type": "drawn", "player": _int(fields, "player")})
            elif action == "score":
                game = game.apply(score_event(fields))
            elif action == "map":
                game = game.apply({"type": "map", "player": _int(fields, "player"), "grid": _grid(fields)})
            elif action == "hero":
                game = game.apply({"type": "hero", "player": _int(fields, "player"), "cell": _cell(fields),
                                   "orientation": _int(fields, "orientation", required=False) or 0})
            elif action == "destroy":
                game = game.apply({"type": "destroy", "player": _int(fields, "player"), "cell": _cell(fields)})
            elif action == "monster":
                game = game.apply({"type": "monster", "player": _int(fields, "player"),
                                   "ambush": str(fields.get("ambush") or ""), "cells": _cells(fields)})
            elif action == "spend":
                game = game.apply({"type": "spend", "player": _int(fields, "player"), "coins": _int(fields, "coins"),
                                   "skill": str(fields.get("skill") or "")})
            else:
                raise GameRuleError("bad_action", _("Unknown action."), 400)
        except GameError as exc:
            raise rule_error(exc) from None
        return list(game.events)

    def moves_digest(self, game: Game) -> str:
        moves = [e for e in game.events if e.get("type") not in NOTES]
        return hashlib.sha256(json.dumps(moves, sort_keys=True).encode()).hexdigest()[:16]

    def visit_events(self, game: Game, host: bool) -> list[dict[str, Any]] | None:
        """A phone other than the host's opening the table is noted once, so the invitation folds away."""
        if host or any(e.get("type") == "joined" for e in game.events):
            return None
        return list(game.apply({"type": "joined"}).events)

    def action_result(self, game: Game, action: str, fields: Mapping[str, Any]) -> Any:
        if action == "score":
            player = int(fields["player"])
            season = fields.get("season")
            season = int(season) if season not in (None, "") else game.season
            return game.season_scores(player)[season]
        return None

    def context(self, record: GameRecord, game: Game) -> dict[str, Any]:
        view = game.to_dict()
        players = view["players"]
        season = view["season"]["index"]
        return {
            "code": record.code,
            "version": record.version,
            "view": view,
            "ambush_names": {a.id: loc(a) for a in AMBUSH_BY_ID.values()},
            "undo_label": describe_last(game),
            "moves": self.moves_digest(game),
            "winner_names": ", ".join(players[w] for w in view["result"]["winners"]),
            "missing": [players[i] for i, row in enumerate(view["scores"]) if row[season] is None],
        }

    def fragment(self, record: GameRecord, game: Game) -> str:
        return render_template("carto/_table.html", **self.context(record, game))

    def page(self, record: GameRecord, game: Game) -> str:
        return render_template("carto/table.html", **self.context(record, game))

    def after_action_url(self, record: GameRecord, action: str, fields: Mapping[str, Any]) -> str:
        if action in ("score", "map", "hero", "destroy", "spend", "monster") and str(
                fields.get("player", "")).isdigit():
            return url_for("cartographers.player", code=record.code, seat=int(fields["player"]))
        return url_for("tables.table", code=record.code)

    def print_job(self, record: GameRecord, args: Mapping[str, str]) -> PrintJob:
        """Map sheets (table code + seat in each QR, the table's side) or the table's score sheet."""
        players = list(record.setup["players"])
        options = {"paper": args.get("paper", "a4"), "lang": args.get("lang", "en")}
        kind = args.get("kind", "map")
        if kind == "map":  # each player's own sheet: their seat in the QR, their name on the Cartographer line
            return PrintJob("map", {**options, "side": record.setup["side"]}, list(range(1, len(players) + 1)),
                            names=players)
        if kind == "score":  # the table's sheet: its players, the four edicts it plays with, its set and skills
            skills = record.setup.get("skills") or []
            extra = {"skills": "|".join(skills)} if skills else {}
            edicts = ",".join(self.load(record).scoring)
            return PrintJob("score", {**options, "players": str(len(players)), "copies": "1", "edicts": edicts,
                                      "card_set": record.setup.get("deck", "base"), **extra}, names=players)
        raise GameRuleError("unknown_printable", _("There is no such printable sheet."), 404)
