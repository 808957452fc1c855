"""Score one map without a game: paint it (or photograph it), pick the scoring cards, see the breakdown.

Also the JSON endpoints the table pages share: `/api/score` turns a grid into
a season breakdown and `/api/photo` turns a photo into a grid to review.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from flask_babel import gettext as _

from companion.cartographers.board import Board, BoardError
from companion.cartographers.data import COIN_TRACK_LENGTH, SCORING_BY_ID
from companion.cartographers.scoring import mountain_coins, score_season
from companion.cartographers.sides import SideError, is_custom, normalise_side, side_layout

from .. import photo, photoqueue, phototurn
from ..errors import UserError
from ..map_errors import map_error_message
from ..mapdata import categories, page_data, scoring_cards

bp = Blueprint("scorer", __name__)

MAX_COINS = COIN_TRACK_LENGTH  # the coin track has 14 circles


def json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise UserError(400, "bad_json", _("The request must be a JSON object."))
    return data


def parse_side(value: Any) -> str:
    side = normalise_side(value or "")
    try:
        side_layout(side)
    except SideError:
        raise UserError(400, "bad_side", _("This map side is not known.")) from None
    return side


def parse_board(side: str, grid: Any) -> Board:
    try:
        return Board.from_words(side, grid)
    except BoardError as exc:
        extra = {"row": exc.row, "col": exc.col} if exc.row is not None else {}
        raise UserError(400, "bad_grid", map_error_message(exc), **extra) from None


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
    own = normalise_side(request.args.get("side") or "")
    extra = [own] if is_custom(own) and _usable(own) else []
    return render_template("score.html", data=page_data(extra), cards=scoring_cards(), categories=categories(),
                           start_side=extra[0] if extra else "A")


def _usable(side: str) -> bool:
    try:
        side_layout(side)
    except SideError:
        return False
    return True


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
    return jsonify({**photo.read_upload(request), **photoqueue.queue_info()})


@bp.post("/api/photo/<token>/names")
def api_photo_names(token: str):
    """One tap on "Which terrain is this?": re-read the kept photo with that group named."""
    return jsonify({**photo.rename_groups(token, json_body()), **photoqueue.queue_info()})


@bp.post("/api/photo/<token>/turn")
def api_photo_turn(token: str):
    """The answer to "Is this the top of your sheet?" ({"turn": true} re-reads the kept photo a half turn round)."""
    return jsonify({**phototurn.answer_top(token, json_body()), **photoqueue.queue_info()})


@bp.post("/api/photo/<token>/keep")
def api_photo_keep(token: str):
    """The player chose to keep this photo and the corrected map to improve reading."""
    return jsonify(photo.keep_photo(token, json_body()))
