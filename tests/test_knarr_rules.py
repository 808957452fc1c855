"""Pure rule functions: income per reputation position, caps, seat order, ranking and ties."""

from __future__ import annotations

import pytest

from companion.knarr.rules import (
    add_reputation,
    add_tokens,
    income_for,
    last_seat_of_round,
    next_income_threshold,
    next_seat,
    ranking,
    triggers_end,
    winners,
)

# Printed on the board: 1 VP from space 3, 2 from 6, 3 from 10, 5 on 14 (there is no 4).
EXPECTED_INCOME = {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 2, 10: 3, 11: 3, 12: 3, 13: 3, 14: 5}


@pytest.mark.parametrize(("position", "income"), sorted(EXPECTED_INCOME.items()))
def test_income_at_every_position(position: int, income: int) -> None:
    assert income_for(position) == income


@pytest.mark.parametrize("position", [2, 5, 9, 13])
def test_income_steps_up_exactly_at_the_next_space(position: int) -> None:
    assert income_for(position + 1) > income_for(position)


def test_there_is_no_four_point_income() -> None:
    assert 4 not in {income_for(p) for p in range(15)}
    assert income_for(13) == 3 and income_for(14) == 5


@pytest.mark.parametrize("position", [-1, 15, 40])
def test_income_refuses_positions_off_the_track(position: int) -> None:
    with pytest.raises(ValueError):
        income_for(position)


@pytest.mark.parametrize(
    ("position", "expected"),
    [(0, (3, 1)), (2, (3, 1)), (3, (6, 2)), (9, (10, 3)), (10, (14, 5)), (13, (14, 5)), (14, None)],
)
def test_next_income_threshold(position: int, expected: tuple[int, int] | None) -> None:
    assert next_income_threshold(position) == expected


def test_reputation_is_capped_at_14_and_the_excess_reported() -> None:
    assert add_reputation(12, 2) == (14, 0)
    assert add_reputation(12, 5) == (14, 3)
    assert add_reputation(14, 1) == (14, 1)
    with pytest.raises(ValueError):
        add_reputation(5, -1)


def test_tokens_are_capped_at_3_and_cannot_go_negative() -> None:
    assert add_tokens(1, 2) == (3, 0)
    assert add_tokens(2, 3) == (3, 2)
    assert add_tokens(3, -3) == (0, 0)
    with pytest.raises(ValueError):
        add_tokens(1, -2)


def test_end_trigger_is_at_forty_or_more() -> None:
    assert not triggers_end(39)
    assert triggers_end(40) and triggers_end(57)


@pytest.mark.parametrize(("first", "count", "last"), [(0, 2, 1), (1, 2, 0), (0, 4, 3), (2, 4, 1), (1, 3, 0)])
def test_last_seat_of_round_is_right_of_the_first_player(first: int, count: int, last: int) -> None:
    assert last_seat_of_round(first, count) == last
    assert next_seat(last, count) == first


def test_ranking_by_score() -> None:
    table = ranking([(30, 0), (45, 1), (41, 6)])
    assert [(e.player, e.rank) for e in table] == [(1, 1), (2, 2), (0, 3)]
    assert not any(e.tied_on_score for e in table)


def test_tie_on_score_is_broken_by_recruits_plus_bracelets() -> None:
    table = ranking([(42, 2), (42, 5), (38, 6)])
    assert [(e.player, e.rank) for e in table] == [(1, 1), (0, 2), (2, 3)]
    assert table[0].tied_on_score and table[1].tied_on_score and not table[0].shared
    assert winners([(42, 2), (42, 5), (38, 6)]) == [1]


def test_tie_on_both_is_shared_and_the_next_rank_is_skipped() -> None:
    results = [(40, 3), (44, 1), (40, 3), (12, 0)]
    table = ranking(results)
    assert [(e.player, e.rank, e.shared) for e in table] == [
        (1, 1, False), (0, 2, True), (2, 2, True), (3, 4, False)]
    assert winners([(40, 3), (40, 3)]) == [0, 1]
