"""The table engine: deal, seasons, ruins, ambushes, undo, replay, solo."""

from __future__ import annotations

import pytest

from companion.cartographers.board import Board
from companion.cartographers.data import EXPLORE_BY_ID, EXPLORE_CARDS, SEASONS
from companion.cartographers.session import AMBUSH_PREFIX, Game, GameError, Setup, draw_scoring_cards
from companion.cartographers.solo import ambush_placement, solo_rating
from tests.mapbuilder import board_with


def play_season(game: Game) -> Game:
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
    return game


def play_out(game: Game) -> Game:
    while game.phase != "over":
        game = play_season(game)
        game = game.apply({"type": "next_season"})
    return game


def is_ruins(cid: str) -> bool:
    return not cid.startswith(AMBUSH_PREFIX) and EXPLORE_BY_ID[cid].kind == "ruins"


@pytest.mark.parametrize("seed", range(40))
def test_full_game_reaches_winter_with_the_right_ambushes(seed):
    game = Game.new(Setup(seed=seed, players=("Ada", "Bo", "Cem")))
    seen_ambushes: list[str] = []
    for season in range(4):
        assert game.season == season and game.phase == "explore"
        deck = list(game._state.deck)
        assert sorted(c for c in deck if not c.startswith(AMBUSH_PREFIX)) == sorted(c.id for c in EXPLORE_CARDS)
        ambushes_in_deck = [c for c in deck if c.startswith(AMBUSH_PREFIX)]
        assert len(ambushes_in_deck) == season + 1 - len(seen_ambushes)
        threshold = SEASONS[season].threshold
        while game.phase == "explore":
            before = game.time
            assert before < threshold
            game = game.apply({"type": "reveal"})
            turn = game.turns[-1]
            assert game.time == before + turn["time"]
            assert (game.phase == "season_end") == (game.time >= threshold)
            if turn["time"] == 0:
                assert game.phase == "explore"  # time-0 cards never end a season
            seen_ambushes += [c for c in turn["cards"] if c.startswith(AMBUSH_PREFIX)]
        game = game.apply({"type": "next_season"})
    assert game.phase == "over"
    assert len(seen_ambushes) == len(set(seen_ambushes)) <= 4
    assert sorted(game.removed_ambushes) == sorted(a.removeprefix(AMBUSH_PREFIX) for a in seen_ambushes)


def test_same_seed_same_game_and_seeds_differ():
    a = play_out(Game.new(Setup(seed=11, players=("A", "B"))))
    b = play_out(Game.new(Setup(seed=11, players=("A", "B"))))
    c = play_out(Game.new(Setup(seed=12, players=("A", "B"))))
    assert a.to_dict() == b.to_dict()
    assert a.events == b.events
    assert [t["cards"] for t in a.turns] != [t["cards"] for t in c.turns] or a.scoring != c.scoring


def test_scoring_cards_one_per_category_from_seed_or_chosen():
    for seed in range(30):
        cards = draw_scoring_cards(seed)
        assert len(set(cards)) == 4
    chosen = ("treetower", "canal_lake", "wildholds", "borderlands")
    assert Game.new(Setup(seed=1, scoring=chosen)).scoring == chosen
    with pytest.raises(GameError):
        Setup(seed=1, scoring=("treetower", "sentinel_wood", "wildholds", "borderlands"))
    with pytest.raises(GameError):
        Setup(seed=1, scoring=("nope", "canal_lake", "wildholds", "borderlands"))


def find_turn(predicate, seeds=range(300)):
    for seed in seeds:
        game = Game.new(Setup(seed=seed, players=("A", "B")))
        while game.phase != "over":
            if game.phase == "season_end":
                game = game.apply({"type": "next_season"})
                continue
            previous = game
            game = game.apply({"type": "reveal"})
            if predicate(game.turns[-1], previous):
                return previous, game
    raise AssertionError("no such turn in the seeds tried")


def test_ruins_reveals_the_next_card_too():
    _, game = find_turn(lambda t, _: is_ruins(t["cards"][0]) and not t["cards"][-1].startswith(AMBUSH_PREFIX))
    turn = game.turns[-1]
    assert len(turn["cards"]) >= 2 and not is_ruins(turn["cards"][-1])
    assert turn["ruins_required"] is True
    assert turn["time"] == EXPLORE_BY_ID[turn["cards"][-1]].time


def test_two_ruins_in_a_row_reveal_a_third():
    _, game = find_turn(lambda t, _: len(t["cards"]) >= 2 and is_ruins(t["cards"][0]) and is_ruins(t["cards"][1]))
    assert len(game.turns[-1]["cards"]) == 3
    assert game.turns[-1]["ruins_required"] or game.turns[-1]["cards"][-1].startswith(AMBUSH_PREFIX)


def test_ruins_then_ambush_carries_the_requirement():
    _, game = find_turn(lambda t, _: is_ruins(t["cards"][0]) and t["cards"][-1].startswith(AMBUSH_PREFIX))
    assert game.to_dict()["ruins_pending"] is True
    if game.phase == "explore":
        game = game.apply({"type": "reveal"})
        turn = game.turns[-1]
        if not turn["cards"][-1].startswith(AMBUSH_PREFIX):
            assert turn["ruins_required"] is True


def test_undo_restores_the_exact_prior_state_and_replay_reproduces():
    game = Game.new(Setup(seed=5, players=("A", "B")))
    states = [game.to_dict()]
    for _ in range(25):
        game = game.apply({"type": "reveal"} if game.phase == "explore" else {"type": "next_season"})
        states.append(game.to_dict())
    assert Game.replay(game.setup, game.events).to_dict() == game.to_dict()
    for expected in reversed(states[:-1]):
        game = game.undo()
        assert game.to_dict() == expected
    with pytest.raises(GameError) as err:
        game.undo()
    assert err.value.code == "nothing_to_undo"


def test_illegal_events_change_nothing():
    game = play_season(Game.new(Setup(seed=2, players=("A", "B"))))
    with pytest.raises(GameError) as err:
        game.apply({"type": "reveal"})
    assert err.value.code == "season_over"
    for bad in ({"type": "fly"}, {}, "reveal", {"type": "score", "player": 7, "coins": 0, "edicts": [1, 1],
                                                  "monsters": 0},
                {"type": "score", "player": 0, "coins": -1, "edicts": [1, 1], "monsters": 0},
                {"type": "score", "player": 0, "coins": 0, "edicts": [1, 1], "monsters": 0, "season": 2},
                {"type": "score", "player": 0, "coins": 0, "grid": [["forest"] * 11] * 11}):
        with pytest.raises(GameError):
            game.apply(bad)
    over = play_out(game)
    with pytest.raises(GameError) as err:
        over.apply({"type": "reveal"})
    assert err.value.code == "game_over"
    fresh = Game.new(Setup(seed=2))
    with pytest.raises(GameError) as err:
        fresh.apply({"type": "next_season"})
    assert err.value.code == "season_not_over"


def test_scoring_a_map_and_the_final_result_with_tie_break():
    game = Game.new(Setup(seed=9, players=("Ada", "Bo"), scoring=("sentinel_wood", "canal_lake", "wildholds",
                                                                 "borderlands")))
    board = board_with(forest=[(0, 0), (0, 1)], monster=[(10, 10)])
    for _ in range(4):
        game = play_season(game)
        game = game.apply({"type": "score", "player": 0, "grid": board.to_words(), "coins": 1})
        game = game.apply({"type": "score", "player": 1, "edicts": [5, 0], "coins": 0, "monsters": 0})
        game = game.apply({"type": "next_season"})
    scores = game.season_scores(0)
    # spring edicts A+B: sentinel 2 + canal 0; coins 1; monsters 2 -> 1
    assert scores[0]["edicts"] == [2, 0] and scores[0]["monsters"] == 2 and scores[0]["total"] == 1
    assert scores[0]["detail"]["edicts"][0]["cells"] == [[0, 0], [0, 1]]
    # summer B+C: 0 + 0 + 1 - 2; fall C+D: 0 + 0 + 1 - 2; winter D+A: 0 + 2 + 1 - 2
    assert [s["total"] for s in scores] == [1, -1, -1, 1]
    result = game.result()
    assert result["ranking"][0]["name"] == "Bo" and result["winners"] == [1]

    # a tie on points goes to the player who lost fewer stars to monsters
    tied = Game.new(Setup(seed=9, players=("Ada", "Bo")))
    for _ in range(4):
        tied = play_season(tied)
        tied = tied.apply({"type": "score", "player": 0, "edicts": [5, 5], "coins": 0, "monsters": 2})
        tied = tied.apply({"type": "score", "player": 1, "edicts": [4, 5], "coins": 0, "monsters": 1})
        tied = tied.apply({"type": "next_season"})
    result = tied.result()
    assert result["winners"] == [1] and result["tie_break"] == "monsters"

    shared = Game.new(Setup(seed=9, players=("Ada", "Bo")))
    shared = play_season(shared)
    for p in (0, 1):
        shared = shared.apply({"type": "score", "player": p, "edicts": [3, 3], "coins": 1, "monsters": 1})
    assert shared.result()["winners"] == [0, 1] and shared.result()["tie_break"] == "shared"


def test_score_can_be_corrected_and_earlier_seasons_fixed():
    game = play_season(Game.new(Setup(seed=4, players=("A",))))
    game = game.apply({"type": "score", "player": 0, "edicts": [3, 3], "coins": 0, "monsters": 0})
    game = game.apply({"type": "score", "player": 0, "edicts": [4, 3], "coins": 0, "monsters": 0})
    assert game.season_scores(0)[0]["total"] == 7
    game = play_season(game.apply({"type": "next_season"}))
    game = game.apply({"type": "score", "player": 0, "season": 0, "edicts": [1, 1], "coins": 0, "monsters": 0})
    assert game.season_scores(0)[0]["total"] == 2


class TestSolo:
    def test_walk_examples_from_the_reference(self):
        from companion.cartographers.data import AMBUSH_BY_ID
        from companion.cartographers.shapes import size
        from companion.cartographers.solo import walk

        expected = {"01": [(8, 8), (7, 8), (6, 8)], "02": [(0, 8), (1, 8), (2, 8)],
                    "03": [(8, 0), (7, 0), (6, 0)], "04": [(0, 0), (1, 0), (2, 0)]}
        for aid, first in expected.items():
            card = AMBUSH_BY_ID[aid]
            h, w = size(card.shape)
            assert walk(0, h, w, card.solo_corner, card.direction)[:3] == first

    def test_goblin_moves_up_the_right_edge_then_inwards(self):
        goblin = ((0, 0), (1, 1), (2, 2))
        blank = Board.blank("A")
        assert ambush_placement(blank, goblin, "bottom_right", "counterclockwise") == ((8, 8), (9, 9), (10, 10))
        blocked = blank.draw([(10, 10)], "forest")
        assert ambush_placement(blocked, goblin, "bottom_right", "counterclockwise") == ((7, 8), (8, 9), (9, 10))

    def test_shape_is_never_rotated_and_moves_one_ring_in(self):
        bar = ((0, 0), (0, 1), (0, 2), (0, 3))  # 1x4, printed horizontally
        ring0 = [(r, c) for r in range(11) for c in range(11) if r in (0, 10) or c in (0, 10)]
        board = board_with(forest=ring0)
        cells = ambush_placement(board, bar, "top_left", "clockwise")
        # ring 1 from the top-left: (1,1)..(1,3) are blocked by the mountain at (1,3); the bar stays horizontal
        assert cells == ((1, 4), (1, 5), (1, 6), (1, 7))

    def test_no_room_means_the_card_is_ignored(self):
        full = [(r, c) for r in range(11) for c in range(11) if (r + c) % 2 == 0]
        board = Board.blank("A")
        board = board.draw([c for c in full if board.at(c).value == "empty"], "water")
        assert ambush_placement(board, ((0, 0), (1, 0)), "top_left", "clockwise") is None

    def test_engine_places_the_monster_on_the_known_map(self):
        for seed in range(200):
            game = Game.new(Setup(seed=seed))
            game = game.apply({"type": "map", "player": 0, "grid": Board.blank("A").to_words()})
            while game.phase == "explore":
                game = game.apply({"type": "reveal"})
                last = game.turns[-1]["cards"][-1]
                if last.startswith(AMBUSH_PREFIX):
                    view = game.to_dict()["turns"][-1]
                    cells = view["solo"]["cells"]
                    assert cells and not view["solo"]["ignored"]
                    known = game.known_map(0)
                    assert all(known.at(tuple(c)).value == "monster" for c in cells)
                    assert Game.replay(game.setup, game.events).to_dict() == game.to_dict()
                    return
        raise AssertionError("no spring ambush found")

    def test_map_sent_after_the_ambush_places_it(self):
        for seed in range(200):
            game = Game.new(Setup(seed=seed))
            game = game.apply({"type": "reveal"})
            if game.turns[-1]["cards"][-1].startswith(AMBUSH_PREFIX):
                assert game.to_dict()["turns"][-1]["solo"] is None
                game = game.apply({"type": "map", "player": 0, "grid": Board.blank("A").to_words()})
                assert game.to_dict()["turns"][-1]["solo"]["cells"]
                return
        raise AssertionError("no first-card ambush found")

    def test_rating_and_title(self):
        cards = ("sentinel_wood", "canal_lake", "wildholds", "borderlands")  # 25 + 24 + 16 + 24 = 89
        rating, title = solo_rating(100, cards)
        assert rating == 11 and title.name_en == "Journeyman Topographer"
        game = Game.new(Setup(seed=1, scoring=cards))
        game = play_season(game)
        game = game.apply({"type": "score", "player": 0, "edicts": [20, 10], "coins": 3, "monsters": 1})
        solo = game.result()["solo"]
        assert solo["rating"] == 32 - 89 and solo["title_en"] == "Oblivious Inkdrinker"
