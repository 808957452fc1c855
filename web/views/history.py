"""Finished games and per-player statistics across the games on this server, with JSON and CSV exports.

Every game is kept as its events anyway; the history replays each finished Cartographers game once and caches
its summary (by game version) in the `game_summaries` table, so listing stays cheap as games pile up.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, jsonify, render_template
from flask_babel import gettext as _

from companion.cartographers.data import EDICTS, SCORING_BY_ID, SEASONS
from companion.cartographers.history import GameHistory, game_summary, player_statistics
from companion.cartographers.session import GameError, Setup

from ..db import get_store
from ..errors import UserError
from ..storage import cached_summaries, game_versions, save_summary
from .tables import load_record

bp = Blueprint("history", __name__, url_prefix="/history")
KIND = "cartographers"


def finished_games() -> list[dict[str, Any]]:
    """Summaries of every finished game, newest first (stale or missing cache entries are rebuilt)."""
    store = get_store()
    cache = cached_summaries(store)
    out = []
    for code, version, created, updated in game_versions(store, KIND):
        hit = cache.get(code)
        if hit is not None and hit[0] == version:
            summary = hit[1]
        else:
            record = store.get(code)
            try:
                summary = game_summary(GameHistory.replay(Setup.from_dict(record.setup), record.events))
            except (GameError, ValueError, KeyError):
                continue  # a game this version cannot replay is left out, never an error page
            summary["code"] = code
            save_summary(store, code, version, summary)
        if summary.get("over"):
            out.append({**summary, "code": code, "created": created, "finished": updated,
                        "date": datetime.fromtimestamp(updated, UTC).strftime("%Y-%m-%d")})
    return out


@bp.get("")
def index() -> str:
    games = finished_games()
    return render_template("history/index.html", games=games, stats=player_statistics(games),
                           cards=SCORING_BY_ID, edict_letters=EDICTS)


@bp.get("/<code>")
def game(code: str) -> str:
    record = load_record(code)
    if record.kind != KIND:
        raise UserError(404, "not_found", _("There is nothing at this address. Check the link or the table code."))
    history = GameHistory.replay(Setup.from_dict(record.setup), record.events)
    summary = game_summary(history)
    checks = [[history.check(p, s.season) for p in range(len(summary["players"]))] for s in history.seasons]
    return render_template("history/game.html", code=record.code, summary=summary, seasons=SEASONS,
                           cards=SCORING_BY_ID, edict_letters=EDICTS, checks=checks,
                           date=datetime.fromtimestamp(record.updated, UTC).strftime("%Y-%m-%d"))


@bp.get("/export.json")
def export_json() -> Response:
    games = finished_games()
    response = jsonify({"games": games, "players": player_statistics(games)})
    response.headers["Content-Disposition"] = "attachment; filename=mapsmith-history.json"
    return response


def _csv(rows: list[list[Any]], name: str) -> Response:
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


@bp.get("/games.csv")
def export_games_csv() -> Response:
    """One row per player per finished game: table code, date, edicts, the player's seasons and total."""
    rows: list[list[Any]] = [["code", "date", "side", "edict_a", "edict_b", "edict_c", "edict_d", "player", "rank",
                              "winner", "spring", "summer", "fall", "winter", "total", "monsters"]]
    for g in finished_games():
        ranks = {r["name"]: r for r in g["ranking"]}
        for i, name in enumerate(g["players"]):
            seasons = [s["players"][i]["score"]["total"] if s["players"][i]["score"] else "" for s in g["seasons"]]
            seasons += [""] * (4 - len(seasons))
            r = ranks[name]
            rows.append([g["code"], g["date"], g["side"], *g["edicts"], name, r["rank"], int(name in g["winners"]),
                         *seasons, r["total"], r["monsters"]])
    return _csv(rows, "mapsmith-games.csv")


@bp.get("/players.csv")
def export_players_csv() -> Response:
    """One row per player: games, wins, average and best score, best season score per scoring card."""
    card_ids = sorted(SCORING_BY_ID)
    rows: list[list[Any]] = [["player", "games", "wins", "average", "best", *(f"best_{c}" for c in card_ids)]]
    for s in player_statistics(finished_games()):
        rows.append([s["name"], s["games"], s["wins"], s["average"], s["best"],
                     *(s["best_by_card"].get(c, "") for c in card_ids)])
    return _csv(rows, "mapsmith-players.csv")
