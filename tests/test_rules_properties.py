"""Invariants over random maps and random event sequences (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cartographers.board import (
    ALL_CELLS,
    RUINS_NORMAL,
    RUINS_RULES,
    RUINS_SINGLE_SQUARE,
    Board,
    fallback_needed,
    legal_placements,
    neighbours,
)
from companion.cartographers.data import EXPLORE_CARDS
from companion.cartographers.scoring import SCORERS, monster_penalty, score_card
from companion.cartographers.session import Game, GameError, Setup
from companion.cartographers.terrain import DRAWABLE, Terrain

drawable = st.sampled_from([Terrain.EMPTY, *DRAWABLE])


@st.composite
def boards(draw) -> Board:
    side = draw(st.sampled_from("AB"))
    board = Board.blank(side)
    fill = draw(st.lists(drawable, min_size=121, max_size=121))
    rows = [list(r) for r in board.grid]
    for (r, c), t in zip(ALL_CELLS, fill, strict=True):
        if rows[r][c] is Terrain.EMPTY:
            rows[r][c] = t
    return Board(side, tuple(tuple(r) for r in rows))


@settings(max_examples=150, deadline=None)
@given(boards())
def test_scores_are_never_negative_and_cells_are_on_the_map(board):
    for card in SCORERS:
        result = score_card(card, board)
        assert result.points >= 0
        assert all(0 <= r < 11 and 0 <= c < 11 for r, c in result.cells)
    assert score_card("greenbough", board).points <= 22


@settings(max_examples=150, deadline=None)
@given(boards())
def test_monster_penalty_counts_each_empty_cell_once(board):
    expected = {
        cell for cell in ALL_CELLS
        if board.at(cell) is Terrain.EMPTY and any(board.at(n) is Terrain.MONSTER for n in neighbours(*cell))
    }
    result = monster_penalty(board)
    assert result.points == len(expected) == len(result.cells)
    assert set(result.cells) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from([c for c in EXPLORE_CARDS if c.options]), st.booleans(),
       st.sampled_from(RUINS_RULES))
def test_placements_never_overlap_or_leave_the_map(board, card, ruins_required, ruins_rule):
    options = [o.cells for o in card.options]
    found = legal_placements(board, options, ruins_required=ruins_required, ruins_rule=ruins_rule)
    strict = legal_placements(board, options, ruins_required=ruins_required, ruins_rule=RUINS_SINGLE_SQUARE)
    for p in found[:50]:
        assert all(board.at(cell) is Terrain.EMPTY for cell in p.cells)
        after = board.draw(p.cells, card.terrains[0])
        changed = {cell for cell in ALL_CELLS if after.at(cell) is not board.at(cell)}
        assert changed == set(p.cells)
        if ruins_required and strict:
            assert p.covers_ruins
    if ruins_required and not strict and ruins_rule == RUINS_NORMAL:  # normal placement rules apply
        assert found == legal_placements(board, options)
    assert fallback_needed(board, options, ruins_required=ruins_required, ruins_rule=ruins_rule) == (not found)


events = st.lists(
    st.sampled_from([
        {"type": "reveal"}, {"type": "reveal"}, {"type": "reveal"}, {"type": "next_season"},
        {"type": "score", "player": 0, "edicts": [3, 4], "coins": 1, "monsters": 2},
        {"type": "map", "player": 0, "grid": Board.blank("A").to_words()},
        {"type": "undo"},
    ]),
    max_size=60,
)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3), events)
def test_replay_equals_incremental_and_undo_goes_back(seed, players, script):
    game = Game.new(Setup(seed=seed, players=tuple(f"P{i}" for i in range(players))))
    history = [game]
    for event in script:
        if event["type"] == "undo":
            if len(history) > 1:
                history.pop()
                game = game.undo()
                assert game.to_dict() == history[-1].to_dict()
            continue
        try:
            game = game.apply(event)
        except GameError:
            continue  # illegal now: nothing changed
        history.append(game)
    assert Game.replay(game.setup, list(game.events)).to_dict() == game.to_dict()
    assert game.time >= 0 and game.deck_size >= 0
