"""Scoring speed: all 16 cards of a set + coins + monster penalty on realistic random maps.

Run: python -m bench.bench_scoring [--maps 10000] [--set heroes]
(`--set heroes`: the 16 Cartographers Heroes cards on seeded Heroes maps of sides C and D.)
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.mapgen import heroes_map, realistic_map
from companion.cartographers.data import CARD_SETS
from companion.cartographers.scoring import monster_penalty, mountain_coins, score_card

BASE_CARDS = tuple(c.id for c in CARD_SETS["base"].scoring)


def score_everything(board, cards=BASE_CARDS) -> int:
    total = sum(score_card(card, board).points for card in cards)
    return total + mountain_coins(board).points - monster_penalty(board).points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--maps", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=500, help="distinct generated maps, cycled")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--set", dest="card_set", choices=tuple(CARD_SETS), default="base")
    args = parser.parse_args()
    cards = tuple(c.id for c in CARD_SETS[args.card_set].scoring)
    make = heroes_map if args.card_set == "heroes" else realistic_map
    t0 = time.perf_counter()
    boards = [make(seed)[0] for seed in range(min(args.distinct, args.maps))]
    gen = time.perf_counter() - t0
    filled = sum(121 - len(b.empty_cells) for b in boards) / len(boards)
    runs = []
    for _ in range(args.repeats):
        # fresh Board objects each run, so no per-board cache is reused across runs
        work = [type(b)(b.side, b.grid) for i in range(args.maps) for b in [boards[i % len(boards)]]]
        t0 = time.perf_counter()
        for board in work:
            score_everything(board, cards)
        runs.append(time.perf_counter() - t0)
    best, median = min(runs), statistics.median(runs)
    print(f"maps scored: {args.maps} x {args.repeats} runs ({len(boards)} distinct realistic maps, "
          f"{filled:.0f}/121 cells filled on average; generated in {gen:.1f} s)")
    print(f"maps/s: {args.maps / best:,.0f} (best run), {args.maps / median:,.0f} (median run)")
    print(f"µs per map (16 cards + coins + monsters): {best / args.maps * 1e6:.0f} best, "
          f"{median / args.maps * 1e6:.0f} median")

if __name__ == "__main__":
    main()
