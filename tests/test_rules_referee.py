"""The season referee on hand-checked seasons: shapes, coins, fallbacks, ruins, order, ambushes, problems."""

from __future__ import annotations

import pytest

from companion.cartographers.board import RUINS_NORMAL, RUINS_RULES, RUINS_SINGLE_SQUARE, Board
from companion.cartographers.referee import RefereeError, check_season, season_steps
from companion.cartographers.terrain import Terrain
from tests.mapbuilder import board_with


def board_except(side: str, empty: list[tuple[int, int]], terrain: str = "forest") -> Board:
    """Every drawable cell filled with `terrain` except `empty`: a nearly full map for fallback cases."""
    blank = Board.blank(side)
    fill = [cell for cell in sorted(blank.empty_cells) if cell not in set(empty)]
    return blank.draw(fill, Terrain(terrain))


def draw(board: Board, **cells: list[tuple[int, int]]) -> Board:
    for terrain, where in cells.items():
        board = board.draw(where, Terrain(terrain))
    return board


def codes(verdict) -> list[str]:
    return [p.code for p in verdict.problems]


def test_a_coin_shape_earns_its_coin():
    before = Board.blank("A")
    after = draw(before, water=[(0, 0), (1, 0), (2, 0)])
    v = check_season(before, after, ["07"])
    assert v.legal and v.coins_from_shapes == 1
    (p,) = v.placements
    assert (p.card, p.terrain, set(p.cells), p.coin, p.fallback) == ("07", Terrain.WATER, {(0, 0), (1, 0), (2, 0)},
                                                                     True, False)


def test_the_other_option_rotated_and_mirrored_earns_no_coin():
    before = Board.blank("A")
    # Great River's big shape, mirrored: a staircase going down to the right
    after = draw(before, water=[(4, 0), (5, 0), (5, 1), (6, 1), (6, 2)])
    v = check_season(before, after, ["07"])
    assert v.legal and v.coins_from_shapes == 0


def test_forgotten_forest_coin_is_the_diagonal_pair():
    before = Board.blank("A")
    v = check_season(before, draw(before, forest=[(0, 1), (1, 0)]), ["10"])
    assert v.legal and v.coins_from_shapes == 1


def test_two_terrain_card_in_either_terrain():
    before = Board.blank("B")
    cells = [(0, 0), (1, 0), (1, 1), (2, 0)]
    assert check_season(before, draw(before, village=cells), ["12"]).legal
    assert check_season(before, draw(before, farm=cells), ["12"]).legal
    v = check_season(before, draw(before, water=cells), ["12"])
    assert not v.legal and "wrong_terrain" in codes(v)


def test_a_1x1_where_a_shape_fitted_is_not_allowed():
    before = Board.blank("A")
    v = check_season(before, draw(before, water=[(0, 0)]), ["07"])
    assert not v.legal
    assert "fallback_not_allowed" in codes(v)
    assert (0, 0) in v.problem_cells


def test_a_1x1_fallback_when_nothing_fits_earns_no_coin():
    holes = [(0, 0), (0, 2), (0, 4)]
    before = board_except("A", holes)
    v = check_season(before, draw(before, water=[(0, 2)]), ["07"])
    assert v.legal and v.coins_from_shapes == 0
    assert v.placements[0].fallback
    # the fallback is drawn in one of the card's terrains
    v = check_season(before, draw(before, village=[(0, 2)]), ["07"])
    assert not v.legal and (0, 2) in v.problem_cells


def test_order_matters_for_the_fallback():
    # one empty 1×3 line: Farmland's domino first leaves no room for Great River, which falls back to a 1×1
    before = board_except("A", [(0, 0), (0, 1), (0, 2), (4, 0)])
    after = draw(before, farm=[(0, 0), (0, 1)], water=[(0, 2)])
    assert check_season(before, after, ["08", "07"]).legal
    # revealed the other way round, Great River's line still fitted when it was drawn
    v = check_season(before, after, ["07", "08"])
    assert not v.legal


def test_ruins_requirement_applies_when_it_can_be_met():
    before = Board.blank("A")  # side A ruins include (2, 1)
    on_ruins = draw(before, farm=[(2, 1), (3, 1)])
    off_ruins = draw(before, farm=[(5, 0), (6, 0)])
    assert check_season(before, on_ruins, ["05", "08"]).legal
    assert check_season(before, off_ruins, ["08"]).legal
    v = check_season(before, off_ruins, ["05", "08"])
    assert not v.legal and "ruins_not_covered" in codes(v)


# every ruins space of side A filled but (2, 1) in some cases, plenty of room elsewhere
RUINS_A_BUT_2_1 = [(1, 5), (2, 9), (8, 1), (8, 9), (9, 5)]


@pytest.mark.parametrize("rule", RUINS_RULES)
def test_ruins_requirement_applies_when_it_can_be_met_under_either_rule(rule):
    before = board_with("A", village=RUINS_A_BUT_2_1)
    v = check_season(before, draw(before, farm=[(2, 1), (3, 1)]), ["05", "08"], ruins_rule=rule)
    assert v.legal
    v = check_season(before, draw(before, farm=[(5, 0), (6, 0)]), ["05", "08"], ruins_rule=rule)
    assert codes(v) == ["ruins_not_covered"] and v.problems[0].cells == ((5, 0), (6, 0))
    assert "and it could" in v.problems[0].message and not v.problems[0].single_square
    # a 1×1 on the ruins is not the shape either
    v = check_season(before, draw(before, monster=[(2, 1)]), ["05", "08"], ruins_rule=rule)
    assert "fallback_not_allowed" in codes(v)


def test_no_shape_can_cover_ruins_normal_placement_rules_apply():
    # the rules we were given (the default): the card's shape anywhere it fits, in its terrain
    before = board_with("A", village=[*RUINS_A_BUT_2_1, (2, 1)])
    v = check_season(before, draw(before, farm=[(5, 0), (6, 0)]), ["06", "08"])
    assert v.legal and not v.placements[0].fallback and v.coins_from_shapes == 1  # the coin shape, as usual
    assert check_season(before, draw(before, farm=[(5, 0), (6, 0)]), ["06", "08"], ruins_rule=RUINS_NORMAL).legal
    v = check_season(before, draw(before, farm=[(4, 1), (5, 0), (5, 1), (5, 2), (6, 1)]), ["06", "08"])
    assert v.legal and v.coins_from_shapes == 0
    # a 1×1 while a shape fitted is not allowed, in any terrain (for farm, "a square missing" explains it as well)
    for terrain in ("farm", "monster"):
        v = check_season(before, draw(before, **{terrain: [(5, 0)]}), ["06", "08"])
        assert not v.legal and (5, 0) in v.problem_cells, terrain
        assert set(codes(v)) & {"fallback_not_allowed", "missing_cell"}, terrain


def test_no_shape_can_cover_ruins_printed_rule_draws_one_square_of_any_terrain():
    before = board_with("A", village=[*RUINS_A_BUT_2_1, (2, 1)])
    for terrain in ("farm", "monster", "water"):
        v = check_season(before, draw(before, **{terrain: [(5, 0)]}), ["06", "08"], ruins_rule=RUINS_SINGLE_SQUARE)
        assert v.legal and v.placements[0].fallback and v.coins_from_shapes == 0, terrain
    # the whole shape drawn off the ruins instead is not this rule
    v = check_season(before, draw(before, farm=[(5, 0), (6, 0)]), ["06", "08"], ruins_rule=RUINS_SINGLE_SQUARE)
    assert codes(v) == ["ruins_not_covered"] and v.problems[0].single_square
    assert "single 1×1 square of any terrain" in v.problems[0].message


def test_ruins_could_be_covered_at_the_moment_of_drawing_not_at_the_end():
    # Farmland had to cover (2, 1), then free; Hamlet drew there later: judged by the moment, under either rule
    before = board_with("A", village=RUINS_A_BUT_2_1)
    after = draw(before, farm=[(5, 0), (6, 0)], village=[(2, 1), (3, 1), (3, 2)])
    for rule in RUINS_RULES:
        assert "ruins_not_covered" in codes(check_season(before, after, ["05", "08", "09"], ruins_rule=rule))
        assert check_season(before, after, ["05", "09", "08"], ruins_rule=rule).legal


def test_no_shape_fits_at_all_after_ruins_the_1x1_follows_the_rule():
    # two single empty squares apart, no ruins space free: no option of Hamlet fits anywhere
    before = board_except("A", [(5, 0), (7, 7)])
    # normal placement rules: the usual 1×1 fallback, in the card's terrain
    v = check_season(before, draw(before, village=[(5, 0)]), ["05", "09"])
    assert v.legal and v.placements[0].fallback
    v = check_season(before, draw(before, water=[(5, 0)]), ["05", "09"])
    assert "wrong_terrain" in codes(v)
    # the printed rulebook: a single square of any terrain
    v = check_season(before, draw(before, water=[(5, 0)]), ["05", "09"], ruins_rule=RUINS_SINGLE_SQUARE)
    assert v.legal and v.placements[0].fallback


def test_an_unknown_ruins_rule_is_refused():
    with pytest.raises(RefereeError, match="ruins rule"):
        check_season(Board.blank("A"), Board.blank("A"), [], ruins_rule="house")


def test_ruins_requirement_waits_over_an_ambush():
    steps = season_steps(["05", "ambush-01", "09"])
    assert [(s.card, s.ruins_required) for s in steps] == [("ambush-01", False), ("09", True)]
    before = Board.blank("A")
    after = draw(before, monster=[(4, 6), (5, 7), (6, 8)], village=[(8, 1), (9, 1), (9, 2)])
    v = check_season(before, after, ["05", "ambush-01", "09"])
    assert v.legal and v.coins_from_shapes == 1


def test_rift_lands_is_a_1x1_of_any_terrain_on_ruins_when_required():
    before = Board.blank("A")
    assert check_season(before, draw(before, monster=[(0, 0)]), ["17"]).legal
    assert check_season(before, draw(before, water=[(1, 5)]), ["05", "17"]).legal
    v = check_season(before, draw(before, water=[(0, 0)]), ["05", "17"])
    assert not v.legal and "ruins_not_covered" in codes(v)


def test_ambush_monster_anywhere_rotated_or_1x1_when_it_cannot_fit():
    before = Board.blank("A")
    # Kobold Onslaught's T, rotated
    assert check_season(before, draw(before, monster=[(0, 0), (0, 1), (0, 2), (1, 1)]), ["ambush-03"]).legal
    holes = [(0, 0), (0, 2)]
    full = board_except("A", holes)
    assert check_season(full, draw(full, monster=[(0, 2)]), ["ambush-03"]).legal
    assert not check_season(before, draw(before, monster=[(0, 0)]), ["ambush-03"]).legal


def test_solo_ambush_goes_exactly_where_the_corner_walk_puts_it():
    before = Board.blank("A")
    # Gnoll Raid starts top left, counterclockwise: the printed shape flush in the corner
    gnoll = [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)]
    assert check_season(before, draw(before, monster=gnoll), ["ambush-04"], solo=True).legal
    shifted = [(r + 5, c) for r, c in gnoll]
    assert check_season(before, draw(before, monster=shifted), ["ambush-04"]).legal
    assert not check_season(before, draw(before, monster=shifted), ["ambush-04"], solo=True).legal


def test_several_cards_coins_counted_per_card():
    before = Board.blank("B")
    after = draw(before, farm=[(0, 0), (0, 1)], village=[(3, 0), (4, 0), (4, 1)],
                 forest=[(6, 0), (6, 1), (6, 2), (7, 2)], water=[(0, 10), (1, 10), (2, 10)])
    v = check_season(before, after, ["08", "09", "13", "07"])
    assert v.legal and v.coins_from_shapes == 3
    assert {p.card for p in v.placements} == {"08", "09", "13", "07"}


def test_an_extra_cell_is_named_with_the_likely_card():
    before = Board.blank("A")
    after = draw(before, water=[(0, 0), (1, 0), (2, 0), (6, 6)])
    v = check_season(before, after, ["07"])
    assert not v.legal
    assert (6, 6) in v.problem_cells
    extra = next(p for p in v.problems if p.code == "extra_cell")
    assert extra.card == "07" and "Great River (07)" in extra.message


def test_a_missing_cell_is_pointed_at():
    before = Board.blank("A")
    after = draw(before, forest=[(0, 5), (0, 6), (0, 7)])  # Orchard's L without its foot
    v = check_season(before, after, ["13"])
    assert not v.legal
    missing = [p for p in v.problems if p.code == "missing_cell"]
    assert missing and missing[0].card == "13" and len(missing[0].cells) == 1


def test_a_card_with_no_drawing():
    before = Board.blank("A")
    after = draw(before, water=[(0, 0), (1, 0), (2, 0)])
    v = check_season(before, after, ["07", "16"])
    assert not v.legal and "missing_drawing" in codes(v)
    assert next(p for p in v.problems if p.code == "missing_drawing").card == "16"


def test_cells_drawn_before_the_season_must_stay():
    before = draw(Board.blank("A"), forest=[(0, 0)])
    after = Board.blank("A")
    v = check_season(before, after, [])
    assert codes(v) == ["changed_cell"] and v.problem_cells == {(0, 0)}


def test_nothing_new_and_no_cards_is_legal():
    board = draw(Board.blank("A"), forest=[(0, 0)])
    assert check_season(board, board, []).legal


@pytest.mark.parametrize("cards, fragment", [
    (["99"], "unknown card"),
    (["ambush-07"], "unknown ambush"),
    (["07", "07"], "twice"),
])
def test_bad_cards_are_refused(cards, fragment):
    with pytest.raises(RefereeError, match=fragment):
        check_season(Board.blank("A"), Board.blank("A"), cards)


def test_maps_of_different_sides_are_refused():
    with pytest.raises(RefereeError, match="different sides"):
        check_season(Board.blank("A"), Board.blank("B"), ["07"])


def test_json_shape_is_the_cli_contract():
    before = Board.blank("A")
    v = check_season(before, draw(before, water=[(0, 0), (1, 0), (2, 0), (6, 7)]), ["07"]).to_dict()
    assert set(v) == {"legal", "placements", "coins_from_shapes", "problems"}
    assert set(v["placements"][0]) == {"card", "terrain", "cells", "coin", "fallback"}
    assert all(set(p) == {"code", "cells", "message"} for p in v["problems"])


def test_solo_ambush_ignored_when_only_a_turned_shape_would_fit():
    # found by the held-out benchmark: the solo monster is never turned, so a board where only a turned Gnoll
    # fits ignores the card (no 1×1 in solo)
    from companion.cartographers.data import AMBUSH_BY_ID
    from companion.cartographers.shapes import rotate

    turned = rotate(AMBUSH_BY_ID["04"].shape)
    assert turned != AMBUSH_BY_ID["04"].shape
    holes = [(r + 3, c) for r, c in turned]
    before = board_except("A", holes)
    assert check_season(before, before, ["ambush-04"], solo=True).legal
    # with a neighbour drawing it (not solo) the turned monster is drawn
    assert not check_season(before, before, ["ambush-04"]).legal
    assert check_season(before, draw(before, monster=holes), ["ambush-04"]).legal


def test_two_readings_with_different_coins_give_a_coin_range():
    # Farmland's domino (coin) + Homestead's T, or Farmland's 5-square shape + Homestead's 1×1 when it no
    # longer fits: the same six farm squares, one coin apart
    farm = [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)]
    before = board_except("A", farm + [(6, 0)])
    after = draw(before, farm=farm)
    v = check_season(before, after, ["08", "12"])
    assert v.legal and v.coin_range == (0, 1)
    assert v.coins_from_shapes in (0, 1)
    one = check_season(Board.blank("A"), draw(Board.blank("A"), farm=[(0, 0), (0, 1)]), ["08"])
    assert one.coin_range == (1, 1)


def test_a_map_far_from_the_cards_says_so_without_pointing():
    before = Board.blank("A")
    scribbles = [(r, c) for r in range(0, 11, 2) for c in range(0, 11, 3) if before.at((r, c)) is Terrain.EMPTY]
    v = check_season(before, draw(before, village=scribbles), ["07"])
    assert not v.legal and not v.complete
    assert [p.code for p in v.problems] == ["too_many"] and v.problems[0].cells == ()
