"""Every scoring card on hand-checked maps, including the reference's edge cases.

Side A: mountains (1,3) (2,8) (5,5) (8,2) (9,7); ruins (1,5) (2,1) (2,9) (8,1) (8,9) (9,5).
Side B: mountains (1,8) (2,3) (7,5) (8,9) (9,2); ruins (1,6) (2,2) (4,6) (6,1) (7,8) (9,3);
wastelands (3,5) (4,4) (4,5) (5,4) (5,5) (5,6) (6,5).
"""

from __future__ import annotations

import pytest

from companion.cartographers.board import Board
from companion.cartographers.scoring import (
    monster_penalty,
    mountain_coins,
    score_card,
    score_season,
    total_coins,
)
from tests.mapbuilder import ascii_board, board_with

EDGE_RING = [(r, c) for r in range(11) for c in range(11) if r in (0, 10) or c in (0, 10)]


def pts(card: str, board: Board) -> int:
    return score_card(card, board).points


# -- forest ---------------------------------------------------------------------

class TestSentinelWood:
    def test_edge_forests_count_corner_once(self):
        b = board_with(forest=[(0, 0), (0, 5), (5, 0), (5, 3), (10, 10)])
        result = score_card("sentinel_wood", b)
        assert result.points == 4
        assert set(result.cells) == {(0, 0), (0, 5), (5, 0), (10, 10)}

    def test_blank_map(self):
        assert pts("sentinel_wood", Board.blank("A")) == 0

    def test_whole_edge_ring_is_40_not_44(self):
        assert pts("sentinel_wood", board_with(forest=EDGE_RING)) == 40

    def test_only_forest_counts(self):
        assert pts("sentinel_wood", board_with(village=[(0, 0)], water=[(0, 1)], forest=[(1, 1)])) == 0


class TestGreenbough:
    def test_one_forest_counts_for_its_row_and_column(self):
        assert pts("greenbough", board_with(forest=[(3, 4)])) == 2

    def test_rows_and_columns_counted_once(self):
        # rows {0, 7}, columns {0, 5}
        assert pts("greenbough", board_with(forest=[(0, 0), (0, 5), (7, 5)])) == 4

    def test_maximum_is_22(self):
        diagonal = [(i, (i + 1) % 11) for i in range(11)]
        assert pts("greenbough", board_with(forest=diagonal)) == 22

    def test_blank(self):
        assert pts("greenbough", Board.blank("B")) == 0


class TestTreetower:
    def test_corner_needs_only_two_neighbours(self):
        assert pts("treetower", board_with(forest=[(0, 0)], village=[(0, 1), (1, 0)])) == 1

    def test_mountain_counts_as_filled_and_open_side_does_not_score(self):
        b = board_with(forest=[(5, 4), (3, 3)], village=[(4, 4), (6, 4), (5, 3), (2, 3), (4, 3)])
        # (5,4): village x3 + mountain (5,5). (3,3): (3,2) and (3,4) empty.
        assert score_card("treetower", b).cells == ((5, 4),)

    def test_unfilled_ruins_is_not_filled(self):
        b = board_with(forest=[(2, 2)], water=[(1, 2), (3, 2), (2, 3)])
        assert pts("treetower", b) == 0  # (2,1) is an unfilled ruins space
        assert pts("treetower", b.draw([(2, 1)], "farm")) == 1

    def test_wasteland_counts_as_filled(self):
        # side B: (3,4) touches wastelands (4,4) and (3,5)
        assert pts("treetower", board_with("B", forest=[(3, 4)], farm=[(2, 4), (3, 3)])) == 1

    def test_forest_neighbour_is_filled(self):
        b = board_with(forest=[(4, 0), (4, 1)], water=[(3, 0), (5, 0), (3, 1), (5, 1)])
        assert score_card("treetower", b).cells == ((4, 0),)


class TestStonesideForest:
    def test_one_cluster_links_two_mountains(self):
        b = board_with(forest=[(1, 4), (1, 5), (1, 6), (1, 7), (1, 8)])  # (1,3) .. (2,8)
        result = score_card("stoneside_forest", b)
        assert result.points == 6
        assert {(1, 3), (2, 8)} <= set(result.cells)

    def test_cluster_touching_one_mountain(self):
        assert pts("stoneside_forest", board_with(forest=[(0, 3), (0, 4)])) == 0

    def test_each_mountain_scores_once(self):
        first = [(6, 5), (7, 5), (8, 5), (8, 4), (8, 3), (8, 6), (8, 7)]  # (5,5) (8,2) (9,7)
        second = [(5, 4), (5, 3), (5, 2), (6, 2), (7, 2)]  # (5,5) (8,2) again
        assert pts("stoneside_forest", board_with(forest=first)) == 9
        assert pts("stoneside_forest", board_with(forest=first + second)) == 9

    def test_two_clusters_do_not_link_through_other_terrain(self):
        b = board_with(forest=[(1, 4), (1, 6), (1, 7), (1, 8)], village=[(1, 5)])
        assert pts("stoneside_forest", b) == 0


# -- farm & water -----------------------------------------------------------------

class TestCanalLake:
    def test_pair(self):
        assert pts("canal_lake", board_with(water=[(4, 4)], farm=[(4, 5)])) == 2

    def test_each_space_once(self):
        assert pts("canal_lake", board_with(water=[(4, 4)], farm=[(3, 4), (5, 4), (4, 3)])) == 4

    def test_diagonal_does_not_count(self):
        assert pts("canal_lake", board_with(water=[(3, 3)], farm=[(4, 4)])) == 0

    def test_blank(self):
        assert pts("canal_lake", Board.blank("A")) == 0


class TestMagesValley:
    def test_water_next_to_mountain_scores_two(self):
        assert pts("mages_valley", board_with(water=[(0, 3)])) == 2

    def test_farm_one_water_two(self):
        assert pts("mages_valley", board_with(farm=[(1, 2)], water=[(2, 7)])) == 3

    def test_diagonal_and_second_row_do_not_count(self):
        assert pts("mages_valley", board_with(water=[(0, 2), (0, 4)], farm=[(1, 4), (1, 5)])) == 1

    def test_side_b(self):
        assert pts("mages_valley", board_with("B", water=[(8, 5), (7, 6)], farm=[(7, 4)])) == 5


class TestGoldenGranary:
    def test_farm_on_ruins(self):
        assert pts("golden_granary", board_with(farm=[(2, 1)])) == 3

    def test_card_example_water_next_to_farmed_ruins(self):
        assert pts("golden_granary", board_with(water=[(1, 4)])) == 1
        assert pts("golden_granary", board_with(water=[(1, 4)], farm=[(1, 5)])) == 4

    def test_water_on_ruins_is_not_next_to_itself(self):
        assert pts("golden_granary", board_with(water=[(9, 5)])) == 0
        assert pts("golden_granary", board_with(water=[(9, 5), (9, 4)])) == 1

    def test_farm_off_ruins(self):
        assert pts("golden_granary", board_with(farm=[(0, 0), (1, 4)])) == 0


class TestShoresideExpanse:
    def test_lone_inland_farm(self):
        assert pts("shoreside_expanse", board_with(farm=[(4, 2)])) == 3

    def test_edge_and_touching_clusters_score_nothing(self):
        b = board_with(farm=[(0, 4), (4, 3)], water=[(3, 3), (3, 4)])
        assert pts("shoreside_expanse", b) == 0

    def test_diagonal_is_not_touching(self):
        b = board_with(farm=[(4, 2), (5, 8)], water=[(6, 6), (6, 7), (7, 7)])
        result = score_card("shoreside_expanse", b)
        assert result.points == 9
        assert len(result.groups) == 3

    def test_water_on_edge(self):
        assert pts("shoreside_expanse", board_with(water=[(10, 3), (9, 3)])) == 0


# -- village --------------------------------------------------------------------------

class TestWildholds:
    six = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]

    def test_six(self):
        assert pts("wildholds", board_with(village=self.six)) == 8

    def test_five(self):
        assert pts("wildholds", board_with(village=self.six[:5])) == 0

    def test_several_clusters(self):
        seven = [(6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 6)]
        five = [(10, 0), (10, 1), (10, 2), (10, 3), (10, 4)]
        assert pts("wildholds", board_with(village=self.six + seven + five)) == 16

    def test_a_big_cluster_counts_once(self):
        twelve = self.six + [(2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)]
        assert pts("wildholds", board_with(village=twelve)) == 8


class TestGreatCity:
    def test_single_cluster(self):
        assert pts("great_city", board_with(village=[(4, 0), (4, 1), (5, 0), (5, 1)])) == 4

    def test_largest_touching_a_mountain_is_ignored(self):
        big = [(1, 4), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8)]  # touches (1,3)
        small = [(10, 0), (10, 1), (10, 2)]
        result = score_card("great_city", board_with(village=big + small))
        assert result.points == 3
        assert result.cells == tuple(small)

    def test_no_qualifying_cluster(self):
        assert pts("great_city", board_with(village=[(1, 2), (2, 7)])) == 0

    def test_blank(self):
        assert pts("great_city", Board.blank("A")) == 0


class TestGreengoldPlains:
    def test_three_types(self):
        b = board_with(village=[(3, 5)], forest=[(2, 5)], farm=[(4, 5)], water=[(3, 4)])
        assert pts("greengold_plains", b) == 3

    def test_two_types(self):
        b = board_with(village=[(3, 5)], forest=[(2, 5), (4, 5)], farm=[(3, 4)])
        assert pts("greengold_plains", b) == 0

    def test_mountain_and_monster_are_types(self):
        b = board_with(village=[(1, 2)], monster=[(0, 2)], water=[(2, 2)])  # (1,3) mountain
        assert pts("greengold_plains", b) == 3

    def test_wasteland_and_unfilled_ruins_are_not_types(self):
        b = board_with("B", village=[(3, 6)], forest=[(2, 6)], farm=[(3, 7)])  # (3,5) wasteland, (4,6) ruins
        assert pts("greengold_plains", b) == 0
        assert pts("greengold_plains", b.draw([(4, 6)], "water")) == 3

    def test_scored_per_cluster(self):
        b = board_with(village=[(6, 0), (6, 1)], forest=[(5, 0)], farm=[(7, 0)], water=[(6, 2)])
        assert pts("greengold_plains", b) == 3


class TestShieldgate:
    def test_second_largest(self):
        b = board_with(village=[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (4, 0), (4, 1), (4, 2)])
        assert pts("shieldgate", b) == 6

    def test_tie_for_largest(self):
        b = board_with(village=[(0, 0), (0, 1), (0, 2), (0, 3), (4, 0), (4, 1), (4, 2), (4, 3)])
        assert pts("shieldgate", b) == 8

    def test_one_cluster(self):
        assert pts("shieldgate", board_with(village=[(0, 0), (0, 1)])) == 0

    def test_six_four_four(self):
        six = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]
        four_a = [(4, 0), (4, 1), (4, 2), (4, 3)]
        four_b = [(10, 0), (10, 1), (10, 2), (10, 3)]
        assert pts("shieldgate", board_with(village=six + four_a + four_b)) == 8


# -- arrangement ------------------------------------------------------------------------

class TestBorderlands:
    def test_full_row(self):
        assert pts("borderlands", board_with(forest=[(0, c) for c in range(11)])) == 6

    def test_almost_full_row(self):
        assert pts("borderlands", board_with(forest=[(0, c) for c in range(10)])) == 0

    def test_mountain_completes_row_and_column(self):
        row1 = [(1, c) for c in range(11) if c != 3]
        col0 = [(r, 0) for r in range(11) if r != 1]
        assert pts("borderlands", board_with(village=row1, water=col0)) == 12

    def test_wasteland_is_filled(self):
        row5 = [(5, c) for c in range(11) if c not in (4, 5, 6)]
        assert pts("borderlands", board_with("B", farm=row5)) == 6


class TestLostBarony:
    def test_mountains_alone_make_a_1x1(self):
        assert pts("lost_barony", Board.blank("A")) == 3

    def test_2x2(self):
        assert pts("lost_barony", board_with(forest=[(0, 0), (0, 1), (1, 0), (1, 1)])) == 6

    def test_mixed_square_with_mountain(self):
        b = board_with(forest=[(4, 4), (4, 5), (4, 6)], village=[(5, 4), (5, 6)], monster=[(6, 4), (6, 5), (6, 6)])
        result = score_card("lost_barony", b)
        assert result.points == 9
        assert (5, 5) in result.cells

    def test_rectangle_counts_its_largest_square(self):
        rect = [(r, c) for r in range(3, 6) for c in range(4)]
        assert pts("lost_barony", board_with(farm=rect)) == 9

    def test_side_b_wasteland_block(self):
        assert pts("lost_barony", Board.blank("B")) == 6


class TestBrokenRoad:
    def test_corner_cell_alone(self):
        assert pts("broken_road", board_with(forest=[(10, 0)])) == 3

    def test_short_diagonals(self):
        assert pts("broken_road", board_with(forest=[(8, 0), (9, 1), (10, 2), (10, 0)])) == 6

    def test_main_diagonal_through_a_mountain(self):
        diag = [(i, i) for i in range(11) if i != 5]
        assert pts("broken_road", board_with(water=diag)) == 3

    def test_other_direction_does_not_count(self):
        # (10,0) (9,1) run up-right: only the corner cell is a line
        assert pts("broken_road", board_with(forest=[(10, 0), (9, 1), (7, 3)])) == 3
        assert pts("broken_road", board_with(forest=[(9, 1), (7, 3)])) == 0


class TestCauldrons:
    def test_corner(self):
        assert pts("cauldrons", board_with(forest=[(0, 1), (1, 0)])) == 1

    def test_inland_needs_four(self):
        b = board_with(forest=[(3, 4), (5, 4), (4, 3), (4, 5), (2, 3)])
        result = score_card("cauldrons", b)
        assert result.cells == ((4, 4),)  # (3,3) has three filled sides; (3,2) is open

    def test_unfilled_ruins_is_empty(self):
        assert pts("cauldrons", board_with(farm=[(1, 1), (3, 1), (2, 0), (2, 2)])) == 1

    def test_blank_maps(self):
        assert pts("cauldrons", Board.blank("A")) == 0
        assert pts("cauldrons", Board.blank("B")) == 0


# -- coins, monsters, seasons ---------------------------------------------------------------

class TestMonsters:
    def test_corner_monster(self):
        assert monster_penalty(board_with(monster=[(0, 0)])).points == 2

    def test_shared_empty_neighbour_counts_once(self):
        assert monster_penalty(board_with(monster=[(3, 3), (3, 5)])).points == 7

    def test_filled_neighbours_do_not_count_but_ruins_do(self):
        b = board_with(monster=[(2, 2)], forest=[(1, 2), (3, 2)])
        result = monster_penalty(b)
        assert set(result.cells) == {(2, 1), (2, 3)}  # (2,1) is unfilled ruins


class TestCoins:
    def test_surrounded_mountain(self):
        b = board_with(forest=[(0, 3), (2, 3), (1, 2)])
        assert mountain_coins(b).points == 0
        assert mountain_coins(b.draw([(1, 4)], "monster")).points == 1

    def test_wasteland_side_b(self):
        b = board_with("B", farm=[(8, 5), (7, 4), (7, 6)])  # (6,5) is wasteland
        assert mountain_coins(b).cells == ((7, 5),)

    def test_total_coins(self):
        b = board_with(forest=[(0, 3), (2, 3), (1, 2), (1, 4)])
        assert total_coins(b, 3) == 4


def test_season_score_adds_edicts_coins_and_subtracts_monsters():
    art = """
    |F F F . . . . . . . .
    |. . r M r . . . . . .
    |. r . . . . . . M r .
    |. . . . . . . . . . .
    |. . . . . . . . . . .
    |. . . . . M . . . . .
    |. . . . . . . . . . .
    |. . . . . . . . . . .
    |. r M . . . . . . r .
    |. . . . . r . M . . .
    |X . . . . . . . . . .
    """
    b = ascii_board("A", art.replace("r", "."))
    season = score_season(b, ("sentinel_wood", "greenbough"), coins=2)
    # sentinel 3, greenbough 1 row + 3 columns = 4, coins 2, monster (10,0) -> (9,0) and (10,1) empty = 2
    assert [e.points for e in season.edicts] == [3, 4]
    assert season.monsters.points == 2
    assert season.total == 3 + 4 + 2 - 2


def test_unknown_card():
    with pytest.raises(ValueError, match="unknown scoring card"):
        score_card("nope", Board.blank("A"))
