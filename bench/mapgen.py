"""Realistic random maps: play a seeded deal and draw each revealed card somewhere legal.

Used by benchmarks (and usable by tests) so figures come from maps that look like
finished games, not from uniform noise.
"""

from __future__ import annotations

import random

from companion.cartographers.board import Board, legal_placements
from companion.cartographers.data import AMBUSH_BY_ID, EXPLORE_BY_ID
from companion.cartographers.session import AMBUSH_PREFIX, Game, Setup
from companion.cartographers.terrain import DRAWABLE, Terrain


def realistic_map(seed: int, side: str | None = None) -> tuple[Board, int]:
    """A finished map and the coins its coin shapes earned."""
    rng = random.Random(seed)
    side = side or rng.choice("AB")
    game = Game.new(Setup(seed=seed, side=side))
    board = Board.blank(side)
    coins = 0
    while game.phase != "over":
        if game.phase == "season_end":
            game = game.apply({"type": "next_season"})
            continue
        game = game.apply({"type": "reveal"})
        turn = game.turns[-1]
        last = turn["cards"][-1]
        if last.startswith(AMBUSH_PREFIX):
            options, terrains, coin_flags = [AMBUSH_BY_ID[last.removeprefix(AMBUSH_PREFIX)].shape], [
                Terrain.MONSTER], [False]
        else:
            card = EXPLORE_BY_ID[last]
            options = [o.cells for o in card.options]
            terrains = list(card.terrains)
            coin_flags = [o.coin for o in card.options]
        found = legal_placements(board, options, ruins_required=turn["ruins_required"])
        if not found and turn["ruins_required"]:
            found = legal_placements(board, options)
        if found:
            p = rng.choice(found)
            board = board.draw(p.cells, rng.choice(terrains))
            coins += coin_flags[p.option]
        elif board.empty_cells:
            board = board.draw([rng.choice(sorted(board.empty_cells))], rng.choice(DRAWABLE))
    return board, coins
