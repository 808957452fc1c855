"""Season referee figures: legal seasons judged legal with their coins, one-cell slips caught, check latency.

Seasons come from `companion.cartographers.simulate.play_game` (the session engine deals; each revealed card is
drawn at a random legal place, ruins requirements, fallbacks and ambushes included; every sixth game solo), played
and judged by one ruins rule (`--ruins-rule`, default `normal`: the rules we were given).
Seeds start at 100,000: the referee's search was developed on seeds below 1,000, so these are held out.

    python -m bench.bench_referee --games 2500        # 10,000 seasons
    python -m bench.bench_referee --games 500 --first-seed 300000 --ruins-rule single_square
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from companion.cartographers.board import RUINS_NORMAL, RUINS_RULES
from companion.cartographers.referee import check_season
from companion.cartographers.simulate import change_one_cell, play_game

HELD_OUT = 100_000


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--first-seed", type=int, default=HELD_OUT)
    ap.add_argument("--ruins-rule", choices=RUINS_RULES, default=RUINS_NORMAL)
    args = ap.parse_args()
    rule = args.ruins_rule
    for warm in play_game(1):  # build the shape tables outside the timings
        check_season(warm.before, warm.after, warm.cards)
    legal_times: list[float] = []
    slip_times: list[float] = []
    legal_cpu: list[float] = []  # CPU time of this process: the fairer figure on a shared, loaded machine
    slip_cpu: list[float] = []
    seasons = judged_legal = coins_right = fallbacks = ruins = caught = pointed = incomplete = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        solo = seed % 6 == 0
        rng = random.Random(f"slip/{seed}")
        for s in play_game(seed, solo=solo, ruins_rule=rule):
            seasons += 1
            t, c = time.perf_counter(), time.process_time()
            v = check_season(s.before, s.after, s.cards, solo=solo, ruins_rule=rule)
            legal_times.append(time.perf_counter() - t)
            legal_cpu.append(time.process_time() - c)
            judged_legal += v.legal
            coins_right += v.legal and v.coins_from_shapes == s.coins_from_shapes
            fallbacks += sum(p.fallback for p in v.placements)
            ruins += sum(1 for c in s.cards if c in ("05", "06"))
            after, cell = change_one_cell(rng, s.after)
            t, c = time.perf_counter(), time.process_time()
            w = check_season(s.before, after, s.cards, solo=solo, ruins_rule=rule)
            slip_times.append(time.perf_counter() - t)
            slip_cpu.append(time.process_time() - c)
            caught += not w.legal
            pointed += (not w.legal) and cell in w.problem_cells
            incomplete += not w.complete
    try:
        load = f"{os.getloadavg()[0]:.1f}"
    except OSError:
        load = "?"
    print(f"seasons: {seasons} ({args.games} games, seeds {args.first_seed}…{args.first_seed + args.games - 1}, "
          f"ruins rule {rule})")
    print(f"  with ruins cards: {ruins}, 1x1 fallbacks explained: {fallbacks}")
    print(f"legal seasons judged legal: {judged_legal}/{seasons} ({100 * judged_legal / seasons:.2f} %), "
          f"coins counted right: {coins_right}/{seasons}")
    print(f"one cell changed: judged not legal {caught}/{seasons} ({100 * caught / seasons:.2f} %), "
          f"with that cell among the problems {pointed}/{seasons} ({100 * pointed / seasons:.2f} %), "
          f"search stopped at its limit {incomplete}")
    print(f"load average at the end: {load}")
    for clock, legal, slip in (("wall", legal_times, slip_times), ("cpu", legal_cpu, slip_cpu)):
        for name, ts in (("legal season", legal), ("one cell changed", slip), ("all checks", legal + slip)):
            ts = sorted(ts)
            print(f"{clock} time, {name}: p50 {1e3 * percentile(ts, 0.5):.2f} ms, "
                  f"p99 {1e3 * percentile(ts, 0.99):.1f} ms, max {1e3 * ts[-1]:.0f} ms, "
                  f"mean {1e3 * statistics.fmean(ts):.2f} ms")


if __name__ == "__main__":
    main()
