"""Realistic random maps: play a seeded deal and draw each revealed card somewhere legal.

Used by benchmarks (and usable by tests) so figures come from maps that look like
finished games, not from uniform noise.
"""

from __future__ import annotations

import random

from companion.cartographers.board import Board, legal_placements
from companion.cartographers.data import AMBUSH_BY_ID, EXPLORE_BY_ID, HERO_BY_ID, HERO_PREFIX
from companion.cartographers.heroes import apply_hits, destroy_candidates, hero_hits
from companion.cartographers.session import AMBUSH_PREFIX, Game, Setup
from companion.cartographers.terrain import DRAWABLE, Terrain


def realistic_map(seed: int, side: str | None = None, deck: str = "base") -> tuple[Board, int]:
    """A finished map and the coins its coin shapes earned.

    With `deck="heroes"` (any side, A-D) the Heroes deck is played: each revealed hero is drawn as a 1×1 on a
    random empty space in a random orientation, its hits destroy the monsters under them now and later, and
    Gorgon/Troll destroy a random allowed space, so the maps hold hero and destroyed spaces as real ones do.
    """
    rng = random.Random(seed)
    side = side or rng.choice("AB")
    game = Game.new(Setup(seed=seed, side=side, deck=deck))
    board = Board.blank(side)
    coins = 0
    hits: set = set()
    while game.phase != "over":
        if game.phase == "season_end":
            game = game.apply({"type": "next_season"})
            continue
        game = game.apply({"type": "reveal"})
        turn = game.turns[-1]
        last = turn["cards"][-1]
        if last.startswith(HERO_PREFIX):
            empty = sorted(board.empty_cells)
            if empty:
                cell = rng.choice(empty)
                hits.update(hero_hits(HERO_BY_ID[last.removeprefix(HERO_PREFIX)], cell, rng.randrange(8)))
                board = apply_hits(board.draw([cell], Terrain.HERO), hits)
            continue
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
            board = apply_hits(board.draw(p.cells, rng.choice(terrains)), hits)
            coins += coin_flags[p.option]
            if last.startswith(AMBUSH_PREFIX):
                card = AMBUSH_BY_ID[last.removeprefix(AMBUSH_PREFIX)]
                targets = destroy_candidates(board, card, p.cells)
                if targets:  # Gorgon now; the Troll's after-scoring bites are folded in here, once
                    board = board.destroy([rng.choice(targets)])
        elif board.empty_cells:
            board = board.draw([rng.choice(sorted(board.empty_cells))], rng.choice(DRAWABLE))
    return board, coins


def heroes_map(seed: int, side: str | None = None) -> tuple[Board, int]:
    """A seeded finished Heroes map on side C or D (or the side given): for cross-checks of the 16 Heroes cards."""
    side = side or random.Random(f"heroes-side/{seed}").choice("CD")
    return realistic_map(seed, side, deck="heroes")


def main(argv: list[str] | None = None) -> int:
    """JSON lines of seeded maps (and optionally our scores), for a cross-check that must not import our code.

    `python -m bench.mapgen --heroes --seeds 0:1000 [--scores]` prints one object per map:
    `{"seed", "side", "grid", "coins"[, "scores": {card id: points}]}`; the map JSON format of `mapsmith score`.
    """
    import argparse
    import json
    import sys

    from companion.cartographers.data import CARD_SETS
    from companion.cartographers.scoring import score_card

    p = argparse.ArgumentParser(prog="python -m bench.mapgen", description=main.__doc__)
    p.add_argument("--heroes", action="store_true", help="Heroes maps on sides C/D (default: base maps, A/B)")
    p.add_argument("--seeds", default="0:1000", help="START:STOP (default 0:1000)")
    p.add_argument("--scores", action="store_true", help="add our points for the set's 16 scoring cards")
    args = p.parse_args(argv)
    start, stop = (int(x) for x in args.seeds.split(":"))
    cards = [c.id for c in CARD_SETS["heroes" if args.heroes else "base"].scoring]
    for seed in range(start, stop):
        board, coins = heroes_map(seed) if args.heroes else realistic_map(seed)
        row = {"seed": seed, "side": board.side, "grid": board.to_words(), "coins": coins}
        if args.scores:
            row["scores"] = {c: score_card(c, board).points for c in cards}
        sys.stdout.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
