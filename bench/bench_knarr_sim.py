"""Knarr simulator: whole virtual-deck games of random legal moves, every invariant checked after
every event (`companion.knarr.sim`), over every table shape: 2-4 players x both ship sides x no
Artifact or each of the 7 (48 shapes, round-robin by game index; game i uses seed i).

Prints games per second and the number of invariant failures (the target is 0).

Run: python -m bench.bench_knarr_sim [--games 10000] [--first-seed 0] [--no-check]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter

from companion.knarr.data import ARTIFACTS
from companion.knarr.sim import play

SHAPES = [(players, side, art) for players in (2, 3, 4) for side in ("normal", "advanced")
          for art in (None, *(a.id for a in ARTIFACTS))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--no-check", action="store_true", help="play only (speed of the engine alone)")
    args = parser.parse_args()
    failures: list[str] = []
    events, rounds = [], []
    unfinished = 0
    by_winner_seat: Counter[int] = Counter()
    t0 = time.perf_counter()
    for i in range(args.games):
        seed = args.first_seed + i
        players, side, art = SHAPES[seed % len(SHAPES)]
        game, problems = play(seed, players, ship_side=side, artifacts=[art] if art else [], check=not args.no_check)
        if problems:
            failures.append(f"seed {seed} ({players}p {side} {art}): {problems[0]}")
        if not game.finished:
            unfinished += 1
        events.append(game.event_count)
        rounds.append(game.state.round)
        top = game.ranking()[0]
        by_winner_seat[(top["player"] - game.setup.first_player) % players] += 1
        if (i + 1) % 500 == 0:
            print(f"{i + 1} games, {len(failures)} failures, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                  flush=True)
    elapsed = time.perf_counter() - t0
    print(json.dumps({
        "games": args.games,
        "checked": not args.no_check,
        "seconds": round(elapsed, 1),
        "games_per_second": round(args.games / elapsed, 1),
        "invariant_failures": len(failures),
        "unfinished": unfinished,
        "events_per_game_median": statistics.median(events),
        "rounds_median": statistics.median(rounds),
        "rounds_max": max(rounds),
        "winner_turn_position": {str(k + 1): v for k, v in sorted(by_winner_seat.items())},
        "first_failures": failures[:5],
    }, indent=2))


if __name__ == "__main__":
    main()
