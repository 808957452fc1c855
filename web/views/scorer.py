"""Score one map without a game: paint it (or photograph it), pick the scoring cards, see the breakdown.

Also the JSON endpoints the table pages share: `/api/score` turns a grid into
a season breakdown and `/api/photo` turns a photo into a grid to review.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from flask_babel import gettext as _

from companion.cartographers.board import Board, BoardError
from companion.cartographers.data import COIN_TRACK_LENGTH, MAPS, SCORING_BY_ID
from companion.cartographers.scoring import mountain_coins, score_season

from .. import photo
from ..errors import UserError
from ..mapdata import categories, page_data, scoring_cards

bp = Blueprint("scorer", __name__)

MAX_COINS = COIN_TRACK_LENGTH  # the coin track has 14 circles


def json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise UserError(400, "bad_json", _("The request must be a JSON object."))
    return data


def parse_side(value: Any) -> str:
    side = str(value or "").upper()
    if side not in MAPS:
        raise UserError(400, "bad_side", _("The map side must be A or B."))
    return side


def parse_board(side: str, grid: Any) -> Board:
    try:
        return Board.from_words(side, grid)
    except BoardError as exc:
        extra = {"row": exc.row, "col": exc.col} if exc.row is not None else {}
        raise UserError(400, "bad_grid", _("The map is not valid: %(why)s", why=str(exc)), **extra) from None


def parse_coins(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise UserError(400, "bad_coins", _("Coins must be a whole number from 0 to %(max)s.", max=MAX_COINS))
    try:
        coins = int(value)
    except ValueError:
        raise UserError(400, "bad_coins", _("Coins must be a whole number from 0 to %(max)s.", max=MAX_COINS)) from None
    if not 0 <= coins <= MAX_COINS:
        raise UserError(400, "bad_coins", _("Coins must be a whole number from 0 to %(max)s.", max=MAX_COINS))
    return coins


def parse_cards(value: Any) -> list[str]:
    if not isinstance(value, list) or not 1 <= len(value) <= 4 or not all(v in SCORING_BY_ID for v in value):
        raise UserError(400, "bad_cards", _("Choose one to four scoring cards."))
    if len(set(value)) != len(value):
        raise UserError(400, "bad_cards", _("Each scoring card can be chosen only once."))
    return list(value)


@bp.get("/score")
def score_page() -> str:
    return render_template("score.html", data=page_data(), cards=scoring_cards(), categories=categories())


@bp.post("/api/score")
def api_score():
    body = json_body()
    side = parse_side(body.get("side"))
    board = parse_board(side, body.get("grid"))
    cards = parse_cards(body.get("cards"))
    coins = parse_coins(body.get("coins", 0))
    result = score_season(board, cards, coins).to_dict()
    result["mountain_coins"] = mountain_coins(board).to_dict()
    return jsonify(result)


@bp.post("/api/photo")
def api_photo():
    return jsonify(photo.read_upload(request))


@bp.post("/api/photo/<token>/names")
def api_photo_names(token: str):
    """One tap on "Which terrain is this?": re-read the kept photo with that group named."""
    return jsonify(photo.rename_groups(token, json_body()))


@bp.post("/api/photo/<token>/keep")
def api_photo_keep(token: str):
    """The player chose to keep this photo and the corrected map to improve reading."""
    return jsonify(photo.keep_photo(token, json_body()))
