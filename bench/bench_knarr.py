"""Knarr table speed: recording events, loading (replaying) a stored game, the JSON view, undo.

The web app loads a stored game (setup + events) on every request, so replay time per event and
the cost of `to_dict()` are what a phone waits for.

Run: python -m bench.bench_knarr [--games 200] [--repeats 5]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from typing import Any

from companion.knarr import KnarrError, KnarrGame, new_setup
from companion.knarr.sim import play


def scripted_game(seed: int, players: int, virtual_deck: bool) -> KnarrGame:
    """A plausible game. Manual: each turn 1-3 typed gains, then "end turn". Virtual deck: random legal
    rules moves (the simulator's policy) until the end."""
    if virtual_deck:
        return play(seed, players, artifacts=["mead_cup"])[0]
    rng = random.Random(seed)
    game = KnarrGame(new_setup(["Ayşe", "Bora", "Cem", "Deniz"][:players], seed, artifacts=["mead_cup"]))
    while not game.finished:
        seat = game.state.active
        for _ in range(rng.randint(1, 3)):
            event: dict[str, Any] = {"type": "gain", "player": seat, "vp": rng.randint(0, 4),
                                     "reputation": rng.randint(0, 1), "recruit": rng.randint(-1, 1),
                                     "bracelet": rng.randint(-1, 1)}
            with contextlib.suppress(KnarrError):  # e.g. spending a token the player lacks
                game.apply(event)
        game.apply({"type": "end_turn", "seq": game.event_count})
    return game


def timed(fn, repeats: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return min(runs), statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    games = [scripted_game(seed, 2 + seed % 3, seed % 2 == 0) for seed in range(args.games)]
    stored = [json.loads(json.dumps(g.save())) for g in games]
    events = sum(len(s["events"]) for s in stored)
    print(f"games: {len(games)} (2-4 players, half with the virtual deck), events: {events} "
          f"(mean {events / len(games):.0f} per game)")

    best, median = timed(lambda: [KnarrGame.load(s) for s in stored], args.repeats)
    print(f"load (replay) a stored game: {best / len(stored) * 1e3:.2f} ms best, "
          f"{median / len(stored) * 1e3:.2f} ms median per game; {best / events * 1e6:.1f} µs per event")

    best, median = timed(lambda: [g.to_dict() for g in games], args.repeats)
    print(f"to_dict() view: {best / len(games) * 1e3:.3f} ms best, {median / len(games) * 1e3:.3f} ms median")

    best, median = timed(lambda: [json.dumps(g.to_dict()) for g in games], args.repeats)
    print(f"to_dict() + json.dumps: {best / len(games) * 1e3:.3f} ms best per game")

    undo_runs = []
    for _ in range(args.repeats):
        loaded = [KnarrGame.load(s) for s in stored[:50]]  # undo consumes the games: fresh ones, untimed
        undone = sum(g.event_count for g in loaded)
        t0 = time.perf_counter()
        for g in loaded:
            while g.event_count:
                g.undo()
        undo_runs.append(time.perf_counter() - t0)
    print(f"undo: {min(undo_runs) / undone * 1e6:.2f} µs per event best")


if __name__ == "__main__":
    main()
