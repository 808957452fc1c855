"""A game's history: cards per season, each player's saved maps, the referee per season, coins without typing."""

from __future__ import annotations

from dataclasses import replace

from companion.cartographers.board import RUINS_NORMAL, RUINS_SINGLE_SQUARE, Board
from companion.cartographers.history import GameHistory
from companion.cartographers.session import Game, Setup
from companion.cartographers.simulate import play_table
from companion.cartographers.terrain import Terrain


def test_every_season_of_a_played_table_checks_legal_with_its_coins():
    table = play_table(7, players=2)
    history = GameHistory.replay(table.setup, table.events)
    assert history.game.phase == "over"
    assert len(history.seasons) == 4
    for p in range(2):
        shapes = 0
        for s in range(4):
            assert history.seasons[s].complete[p]
            result = history.check(p, s)
            assert result.verdict.legal, [x.message for x in result.verdict.problems]
            assert result.verdict.coins_from_shapes == table.shape_coins[p][s]
            shapes += table.shape_coins[p][s]
            track = history.coin_track(p, s)
            assert track.shapes == shapes
            stored = history.game.season_scores(p)[s]["coins"]
            assert track.total == stored  # the simulated players filled their coin track right


def test_cards_per_season_are_the_revealed_cards_in_order():
    game = Game.new(Setup(seed=11, players=("A", "B")))
    events = []
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
        events.append({"type": "reveal"})
    history = GameHistory.replay(game.setup, events)
    assert history.seasons[0].cards == [c for t in game.turns for c in t["cards"]]


def test_a_mid_season_save_is_not_complete_and_a_skipped_season_spans_both():
    setup = Setup(seed=3, players=("A", "B"))
    game = Game.new(setup)
    game = game.apply({"type": "reveal"})
    first = Board.blank(setup.side)
    game = game.apply({"type": "map", "player": 0, "grid": first.to_words()})
    history = GameHistory.replay(setup, game.events)
    assert history.seasons[0].complete == {0: False}
    assert history.check(1, 0) is None  # player B saved nothing
    # B's map of season 1 is checked against the blank sheet with the cards of both seasons
    table = play_table(5, players=2, seasons=2)
    events = [e for e in table.events if not (e["type"] == "score" and e["player"] == 1 and e.get("season", 0) == 0
                                              and _season_of(table, e) == 0)]
    history = GameHistory.replay(table.setup, events)
    result = history.check(1, 1)
    assert result.since == -1
    assert result.verdict.legal, [x.message for x in result.verdict.problems]


def _season_of(table, event) -> int:
    """The season a stored score event was made in (events carry no season when it is the current one)."""
    index = table.events.index(event)
    return sum(1 for e in table.events[:index] if e["type"] == "next_season")


def test_a_drawing_that_breaks_the_rules_is_reported_for_that_season():
    table = play_table(9, players=1, seasons=1)
    history = GameHistory.replay(table.setup, table.events)
    board = table.boards[0][0]
    empty = sorted(board.empty_cells)[0]
    wrong = board.draw([empty], Terrain.VILLAGE)
    result = history.check(0, 0, wrong)
    assert not result.verdict.legal and empty in result.verdict.problem_cells


def test_a_card_the_referee_does_not_know_gives_no_verdict_not_an_error(monkeypatch):
    import companion.cartographers.history as history_module
    from companion.cartographers.referee import RefereeError

    table = play_table(9, players=1, seasons=1)
    history = GameHistory.replay(table.setup, table.events)

    def unknown(*args, **kwargs):
        raise RefereeError("unknown card 'H1'")

    monkeypatch.setattr(history_module, "check_season", unknown)
    assert history.check(0, 0) is None and history.coin_track(0, 0) is None


def test_a_mid_season_map_is_not_the_start_of_the_next_season():
    table = play_table(5, players=2, seasons=2)
    # player 0's season-1 score replaced by a map saved mid-season (after the first turn): season 2 is then
    # checked from the blank sheet with both seasons' cards
    events = list(table.events)
    first_score = next(i for i, e in enumerate(events) if e["type"] == "score" and e["player"] == 0)
    first_reveal = next(i for i, e in enumerate(events) if e["type"] == "reveal")
    mid = {"type": "map", "player": 0, "grid": Board.blank(table.setup.side).to_words()}
    events = events[:first_reveal + 1] + [mid] + [e for e in events[first_reveal + 1:first_score]] + \
        events[first_score + 1:]
    history = GameHistory.replay(table.setup, events)
    assert history.seasons[0].complete[0] is False
    result = history.check(0, 1)
    assert result.since == -1 and result.verdict.legal


def test_the_referee_judges_by_the_tables_ruins_rule():
    # seed 0: in season 4 a Ruins card's shape could cover no ruins space; the players drew by their table's rule
    for played, other in ((RUINS_NORMAL, RUINS_SINGLE_SQUARE), (RUINS_SINGLE_SQUARE, RUINS_NORMAL)):
        table = play_table(0, players=2, side="A", ruins_rule=played)
        assert table.setup.ruins_rule == played
        history = GameHistory.replay(table.setup, table.events)
        for p in range(2):
            for s in range(4):
                verdict = history.check(p, s).verdict
                assert verdict.legal, (played, p, s, [x.message for x in verdict.problems])
                assert verdict.coins_from_shapes == table.shape_coins[p][s]
        # the same drawings at a table that plays the other rule break it
        history = GameHistory.replay(replace(table.setup, ruins_rule=other), table.events)
        codes = {x.code for x in history.check(0, 3).verdict.problems}
        assert codes & {"ruins_not_covered", "fallback_not_allowed"}, (played, codes)
