"""The season referee on the player page: the verdict in the page language, cells to mark, the coin track.

Rules live in `companion.cartographers.referee` / `history`; this module only words the verdict (TR/EN, with the
rules' own Turkish card names) and shapes it for the template and the JSON the page script fetches.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from companion.cartographers.board import Board
from companion.cartographers.data import AMBUSH_BY_ID, EXPLORE_BY_ID
from companion.cartographers.history import CoinTrack, GameHistory, SeasonCheck
from companion.cartographers.referee import AMBUSH_PREFIX, Problem

from ..i18n import loc
from ..ui import cell_label


def card_label(card_id: str | None) -> str:
    if not card_id:
        return ""
    if card_id.startswith(AMBUSH_PREFIX):
        return loc(AMBUSH_BY_ID[card_id.removeprefix(AMBUSH_PREFIX)])
    return loc(EXPLORE_BY_ID[card_id])


def problem_message(p: Problem) -> str:
    cells = ", ".join(cell_label(c) for c in p.cells)
    card = card_label(p.card)
    if p.code == "extra_cell":
        if card:
            return _("%(cells)s: no revealed card drew this (most likely %(card)s).", cells=cells, card=card)
        return _("%(cells)s: no revealed card drew this.", cells=cells)
    if p.code == "missing_cell":
        return _("%(card)s: its shape would also cover %(cells)s, which is empty.", card=card, cells=cells)
    if p.code == "wrong_terrain":
        return _("%(card)s: %(cells)s is drawn in a terrain this card does not offer.", card=card, cells=cells)
    if p.code == "missing_drawing":
        return _("%(card)s: no drawing found for this card.", card=card)
    if p.code == "fallback_not_allowed":
        return _("%(card)s: a single square (%(cells)s) is drawn only when no shape fits, and a shape still "
                 "fitted.", card=card, cells=cells)
    if p.code == "ruins_not_covered" and p.single_square:
        return _("%(card)s: no shape could cover a ruins space, so this table's ruins rule (the printed rulebook) "
                 "calls for a single square of any terrain instead.", card=card)
    if p.code == "ruins_not_covered":
        return _("%(card)s: after a Ruins card the shape had to cover a ruins space, and it could.", card=card)
    if p.code == "changed_cell":
        return _("%(cells)s: drawn in an earlier season and changed since.", cells=cells)
    if p.code == "too_many":
        return _("Too many squares differ from what this season's cards allow to point at them. Check that the map "
                 "(or the photo's reading) is this season's and read right.")
    if p.code == "alternative":
        return _("Or the slip is at %(cells)s instead: the cards explain the map just as well that way.",
                 cells=cells)
    return p.message


def referee_view(history: GameHistory, seat: int, season: int | None, after: Board | None = None) -> dict[str, Any]:
    """Everything the referee panel shows for one player's season (or `{"state": "none"}`)."""
    if season is None:
        return {"state": "none"}
    result: SeasonCheck | None = history.check(seat, season, after)
    if result is None:
        return {"state": "none"}
    track: CoinTrack | None = history.coin_track(seat, season, after)
    verdict = result.verdict
    problems = [{"code": p.code, "message": problem_message(p), "card": card_label(p.card),
                 "cells": [list(c) for c in p.cells]} for p in verdict.problems]
    marks = {}
    for p, shown in zip(verdict.problems, problems, strict=True):
        for c in p.cells:
            marks.setdefault(f"{c[0]},{c[1]}", shown["card"] or shown["message"])
    return {
        "state": "legal" if verdict.legal else "problems",
        "season": season,
        "spans": season - result.since,  # > 1: no map was saved at the end of the season before
        "complete": verdict.complete,
        "problems": problems,
        "marks": [[int(k.split(",")[0]), int(k.split(",")[1]), v] for k, v in marks.items()],
        "placements": [{"card": card_label(d.card), "cells": [list(c) for c in d.cells], "coin": d.coin,
                        "fallback": d.fallback} for d in verdict.placements],
        "coins": track.to_dict() if track else None,
        # when the drawings can be read several ways that earn different coins, say so instead of pretending
        "coin_range": list(verdict.coin_range) if verdict.coin_range and verdict.coin_range[0] != verdict.coin_range[1]
        else None,
        "saved_complete": history.seasons[season].complete.get(seat, False) if after is None else True,
    }
