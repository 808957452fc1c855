"""The virtual-deck rules through the simulator: whole games of random legal moves over every table
shape, with every invariant checked after every event; at sampled moments every legal move is
accepted and random probes are accepted exactly when the rules allow them (no legal move refused,
no illegal move accepted); a saved game replays to the same final table; undo restores the exact
previous state. The 10,000-game run is `python -m bench.bench_knarr_sim` (see bench/README.md).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.knarr import KnarrGame
from companion.knarr.data import ARTIFACTS
from companion.knarr.game import apply_event
from companion.knarr.sim import accepted, choose, expected_legal, move_key, play, probe_moves, summary

SHAPES = [(n, side, art) for n in (2, 3, 4) for side in ("normal", "advanced")
          for art in (None, *(a.id for a in ARTIFACTS))]


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_whole_games_keep_every_invariant(shape: int) -> None:
    players, side, art = SHAPES[shape]
    for seed in (shape, shape + 1000):
        game, problems = play(seed, players, ship_side=side, artifacts=[art] if art else [], check=True)
        assert problems == [] and game.finished
        assert KnarrGame.load(json.loads(json.dumps(game.save()))).to_dict() == game.to_dict()


@pytest.mark.parametrize("other", [a.id for a in ARTIFACTS if a.id != "mead_cup"])
def test_two_player_games_with_the_mead_cup_and_another_artifact(other: str) -> None:
    """The rulebook's 2-player advice: the Mead Cup in addition to the random Artifact."""
    for seed in range(3):
        game, problems = play(seed, 2, ship_side=("normal", "advanced")[seed % 2], artifacts=["mead_cup", other],
                              check=True)
        assert problems == [] and game.finished


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(SHAPES), st.integers(0, 2**31))
def test_engine_accepts_exactly_the_legal_moves(seed: int, shape: tuple, probe_seed: int) -> None:
    players, side, art = shape
    game, _ = play(seed, players, ship_side=side, artifacts=[art] if art else [])
    rng = random.Random(probe_seed)
    # walk the game again; at some moments test every legal move and a batch of random probes
    replay = KnarrGame(game.setup)
    for event in game.events:
        if rng.random() < 0.08:
            state = replay.state
            legal = replay.legal_moves()
            keys = {move_key(m) for m in legal}
            for move in legal:
                assert accepted(game.setup, state, move), move
            for probe in probe_moves(state, rng):
                assert accepted(game.setup, state, probe) == expected_legal(state, keys, probe), probe
        replay.apply(event)
    assert replay.legal_moves() == []  # the game is over


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(SHAPES))
def test_undo_of_any_move_restores_the_exact_previous_state(seed: int, shape: tuple) -> None:
    players, side, art = shape
    game, _ = play(seed, players, ship_side=side, artifacts=[art] if art else [])
    events = game.events
    rng = random.Random(seed)
    replay = KnarrGame(game.setup)
    for event in events[: rng.randrange(len(events))]:
        before, view = replay.state, replay.to_dict()
        replay.apply(event)
        replay.undo()
        assert replay.state == before and replay.to_dict() == view
        replay.apply(event)


def test_the_simulator_is_deterministic_and_its_summary_matches_the_table() -> None:
    a, _ = play(7, 3, artifacts=["helmet"])
    b, _ = play(7, 3, artifacts=["helmet"])
    assert a.events == b.events
    table = summary(a)
    assert set(table) == {"players", "winner", "rounds", "events"}
    assert [set(p) for p in table["players"]] == [{"name", "score", "reputation", "recruit", "bracelet", "turns"}] * 3
    assert table["winner"] == a.ranking()[0]["name"] and table["events"] == len(a.events)
    assert any(p["score"] >= 40 for p in table["players"])


def test_choose_picks_a_kind_first() -> None:
    moves = [{"type": "explore", "n": i} for i in range(50)] + [{"type": "end_turn"}]
    picks = [choose(moves, random.Random(i))["type"] for i in range(200)]
    assert 60 < picks.count("end_turn") < 140


def test_apply_event_is_pure() -> None:
    game, _ = play(3, 2)
    replay = KnarrGame(game.setup)
    state = replay.state
    move = replay.legal_moves()[0]
    apply_event(game.setup, state, move)
    assert replay.state is state and replay.event_count == 0
