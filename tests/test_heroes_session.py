"""Cartographers Heroes in the session engine: deck flow, heroes and hit marks, destroyed spaces, the four
ambushes' lasting effects, skills' spent coins, and mixing base and Heroes components."""

from __future__ import annotations

import pytest

from companion.cartographers.board import Board
from companion.cartographers.data import HERO_PREFIX, heroes_data
from companion.cartographers.heroes import hero_hits, orient_offset
from companion.cartographers.session import AMBUSH_PREFIX, Game, GameError, Setup
from companion.cartographers.terrain import Terrain
from tests.mapbuilder import board_with

HEROES_EXPLORE = sorted(c.id for c in heroes_data.EXPLORE_CARDS)


def _play_season(game: Game) -> tuple[Game, list[str]]:
    seen = []
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
        seen += game.turns[-1]["cards"]
    return game, seen


@pytest.mark.parametrize("seed", range(6))
def test_heroes_deck_flow_one_hero_and_one_ambush_each_season(seed):
    game = Game.new(Setup(seed=seed, side="C", players=("Ada", "Bo", "Cem"), deck="heroes"))
    seen_heroes, seen_ambushes = [], []
    for season, threshold in enumerate((8, 7, 7, 6)):
        deck = list(game._state.deck)
        assert sorted(c for c in deck if not c.startswith((AMBUSH_PREFIX, HERO_PREFIX))) == HEROES_EXPLORE
        assert sum(c.startswith(HERO_PREFIX) for c in deck) == season + 1 - len(seen_heroes)
        assert sum(c.startswith(AMBUSH_PREFIX) for c in deck) == season + 1 - len(seen_ambushes)
        assert game.to_dict()["season"]["threshold"] == threshold
        game, seen = _play_season(game)
        assert game.time >= threshold
        assert not any(t["ruins_required"] for t in game.turns)  # Heroes has no ruins cards
        seen_heroes += [c for c in seen if c.startswith(HERO_PREFIX)]
        seen_ambushes += [c for c in seen if c.startswith(AMBUSH_PREFIX)]
        game = game.apply({"type": "next_season"})
    assert game.phase == "over"
    assert sorted(game.removed_heroes) == sorted(c.removeprefix(HERO_PREFIX) for c in seen_heroes)


def test_heroes_scoring_cards_are_drawn_from_the_heroes_set():
    game = Game.new(Setup(seed=3, side="D", deck="heroes"))
    heroes_ids = {c.id for c in heroes_data.SCORING_CARDS}
    assert set(game.scoring) <= heroes_ids
    assert game.to_dict()["deck_set"]["names_tr_ours"] is True


def _reveal_until(game: Game, prefix: str) -> Game:
    while not game.turns or not game.turns[-1]["cards"][-1].startswith(prefix):
        if game.phase == "season_end":
            game = game.apply({"type": "next_season"})
        game = game.apply({"type": "reveal"})
    return game


def test_hero_hits_destroy_monsters_now_and_later():
    game = Game.new(Setup(seed=1, side="C", players=("Ada", "Bo"), deck="heroes"))
    game = game.apply({"type": "map", "player": 0, "grid": board_with("C", monster=[(4, 4)]).to_words()})
    game = _reveal_until(game, HERO_PREFIX)
    hero = heroes_data.HERO_CARDS[[h.id for h in heroes_data.HERO_CARDS].index(
        game.turns[-1]["cards"][-1].removeprefix(HERO_PREFIX))]
    target = (4, 4)
    off = hero.hits[0]
    cell = (target[0] - off[0], target[1] - off[1])
    game = game.apply({"type": "hero", "player": 0, "cell": list(cell)})
    board = game.known_map(0)
    assert board.at(cell) is Terrain.HERO
    assert board.at(target) is Terrain.DESTROYED  # the monster under the hit is destroyed
    hits = game.hits(0)
    assert target in hits and len(hits) == len(hero_hits(hero, cell))
    # hit marks last: a monster drawn later on a hit-marked space is destroyed too
    other = next(h for h in sorted(hits) if board.at(h) is Terrain.EMPTY)
    grid = board.to_words()
    grid[other[0]][other[1]] = "monster"
    game = game.apply({"type": "map", "player": 0, "grid": grid})
    assert game.known_map(0).at(other) is Terrain.DESTROYED
    # a player draws each revealed hero once; the other player's hero is still to draw
    with pytest.raises(GameError) as err:
        game.apply({"type": "hero", "player": 0, "cell": [0, 0]})
    assert err.value.code == "no_hero"
    game = game.apply({"type": "hero", "player": 1, "cell": [5, 5], "orientation": 5})
    assert game.known_map(1) is None and game.hits(1)


def test_orientations_turn_and_mirror_the_pattern():
    freyla = heroes_data.HERO_CARDS[2]  # [0,1] [0,2] [0,3]: a line to the right
    assert hero_hits(freyla, (5, 5), 0) == ((5, 6), (5, 7), (5, 8))
    assert hero_hits(freyla, (5, 5), 1) == ((6, 5), (7, 5), (8, 5))  # a quarter turn clockwise: downwards
    assert hero_hits(freyla, (5, 5), 4) == ((5, 2), (5, 3), (5, 4))  # mirrored: to the left
    assert hero_hits(freyla, (0, 9), 0) == ((0, 10),)  # hits off the map are lost
    assert {orient_offset((0, 1), k) for k in range(8)} == {(0, 1), (1, 0), (0, -1), (-1, 0)}


def test_heroes_needs_a_revealed_hero():
    game = Game.new(Setup(seed=1, side="C", deck="heroes"))
    with pytest.raises(GameError) as err:
        game.apply({"type": "hero", "player": 0, "cell": [0, 0]})
    assert err.value.code == "no_hero"


def _until_ambush(ambush_name: str, setup_for, before_winter: bool = False, prepare=None) -> Game:
    """The first seed's game in which the named ambush is revealed (before winter if asked), stopped right there."""
    target = _ambush_id(ambush_name)
    for seed in range(400):
        game = Game.new(setup_for(seed))
        if prepare:
            game = prepare(game)
        while game.phase != "over" and target not in game.removed_ambushes:
            game = game.apply({"type": "next_season" if game.phase == "season_end" else "reveal"})
        if target in game.removed_ambushes and not (before_winter and game.season == 3):
            return game
    raise AssertionError("no seed found")


def _solo_until_ambush(seed: int, ambush_name: str) -> Game:
    """A solo Heroes game on a known map until the named ambush has been placed by the corner rule."""
    return _until_ambush(ambush_name, lambda s: Setup(seed=seed + s, side="C", deck="heroes"), before_winter=True,
                         prepare=lambda g: g.apply({"type": "map", "player": 0, "grid": Board.blank("C").to_words()}))


def _ambush_id(name: str) -> str:
    return next(a.id for a in heroes_data.AMBUSH_CARDS if a.name_en == name)


def test_solo_gorgon_destroys_an_adjacent_space_chosen_by_the_player():
    game = _solo_until_ambush(0, "Gorgon Gaze")
    turn = next(t for t in game.turns if t["cards"][-1] == AMBUSH_PREFIX + _ambush_id("Gorgon Gaze"))
    cells = [tuple(c) for c in turn["solo"]["cells"]]
    assert len(cells) == 3 and all(game.known_map(0).at(c) is Terrain.MONSTER for c in cells)
    (pending,) = game.pending
    assert pending["chooser"] == "drawer" and pending["candidates"]
    with pytest.raises(GameError):
        game.apply({"type": "destroy", "player": 0, "cell": [5, 5]})  # not next to the Gorgon
    choice = pending["candidates"][0]
    game = game.apply({"type": "destroy", "player": 0, "cell": choice})
    assert game.known_map(0).at(tuple(choice)) is Terrain.DESTROYED and not game.pending


def test_zombies_spread_after_scoring_and_stop_when_destroyed():
    game = _solo_until_ambush(0, "Zombie Plague")
    zombie = AMBUSH_PREFIX + _ambush_id("Zombie Plague")
    (cell,) = next(t for t in game.turns if t["cards"][-1] == zombie)["solo"]["cells"]
    assert tuple(cell) == (0, 0)  # top-left corner, the card's solo start
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
    board = game.known_map(0)
    game = game.apply({"type": "next_season"})
    spread = game.notices[-1]
    assert spread["effect"] == "spread_after_scoring"
    expected = sorted([list(n) for n in ((0, 1), (1, 0)) if board.at(n) is Terrain.EMPTY])
    assert spread["cells"] == expected
    assert all(game.known_map(0).at(tuple(c)) is Terrain.MONSTER for c in expected)


def test_dragon_pays_three_coins_once_when_sealed():
    game = _solo_until_ambush(0, "Dragon Inferno")
    dragon = AMBUSH_PREFIX + _ambush_id("Dragon Inferno")
    cells = [tuple(c) for c in next(t for t in game.turns if t["cards"][-1] == dragon)["solo"]["cells"]]
    board = game.known_map(0)
    around = {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
              if 0 <= r + dr < 11 and 0 <= c + dc < 11} - set(cells)
    empty = [x for x in around if board.at(x) is Terrain.EMPTY]
    game = game.apply({"type": "map", "player": 0, "grid": board.draw(empty, Terrain.FOREST).to_words()})
    notes = [n for n in game.notices if n["effect"] == "coins_when_sealed"]
    assert notes == [{"player": 0, "ambush": _ambush_id("Dragon Inferno"), "effect": "coins_when_sealed",
                      "coins": 3, "season": game.season}]
    game = game.apply({"type": "map", "player": 0, "grid": game.known_map(0).to_words()})
    assert len([n for n in game.notices if n["effect"] == "coins_when_sealed"]) == 1  # once


def test_troll_asks_its_owner_after_scoring_in_multiplayer():
    troll = _ambush_id("Giant Troll Ravage")
    bo_map = board_with("A", monster=[(0, 0), (0, 1), (0, 2), (1, 1)]).to_words()
    game = _until_ambush("Giant Troll Ravage", lambda s: Setup(seed=s, side="A", players=("Ada", "Bo"), deck="heroes"),
                         before_winter=True, prepare=lambda g: g.apply({"type": "map", "player": 1, "grid": bo_map}))
    game = game.apply({"type": "monster", "player": 1, "ambush": troll, "cells": [[0, 0], [0, 1], [0, 2], [1, 1]]})
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
    game = game.apply({"type": "next_season"})
    mine = [p for p in game.pending if p["ambush"] == troll]
    assert {p["player"] for p in mine} == {0, 1}  # every map got a troll; Ada's map is not known
    bo = next(p for p in mine if p["player"] == 1)
    assert bo["chooser"] == "owner" and [0, 3] in bo["candidates"] and [1, 0] in bo["candidates"]
    game = game.apply({"type": "destroy", "player": 1, "cell": [0, 3]})
    assert game.known_map(1).at((0, 3)) is Terrain.DESTROYED
    game = game.apply({"type": "destroy", "player": 0, "cell": [4, 4]})  # Ada's unknown map: recorded only
    assert not [p for p in game.pending if p["ambush"] == troll]


def test_skills_spent_coins_no_longer_score():
    setup = Setup(seed=2, side="A", players=("Ada",), skills=("Fast Legs", "Sharp Eye", "Coin Purse"))
    game = Game.new(setup)
    game = game.apply({"type": "spend", "player": 0, "coins": 2, "skill": "Sharp Eye"})
    with pytest.raises(GameError) as err:
        game.apply({"type": "spend", "player": 0, "coins": 1, "skill": "Made Up"})
    assert err.value.code == "bad_skill"
    while game.phase == "explore":
        game = game.apply({"type": "reveal"})
    game = game.apply({"type": "score", "player": 0, "edicts": [3, 4], "coins": 5, "monsters": 1})
    row = game.season_scores(0)[0]
    assert row["coins"] == 3 and row["spent"] == 2 and row["coins_track"] == 5 and row["total"] == 9
    assert game.spent_coins(0) == 2
    with pytest.raises(GameError):
        Setup(seed=1, skills=("a", "b", "c", "d"))


def test_mixing_components_and_round_trip():
    setup = Setup(seed=5, side="C", players=("Ada", "Bo"), scoring=("sentinel_wood", "craylund", "wildholds",
                                                                    "starlit_sigil"))
    game = Game.new(setup)  # base deck on a Heroes side with cards from both sets
    assert game.to_dict()["season"]["threshold"] == 8
    assert Setup.from_dict(setup.to_dict()) == setup
    h = Setup(seed=5, side="A", deck="heroes", skills=("X",))
    assert Setup.from_dict(h.to_dict()) == h
    assert Setup(seed=1).to_dict() == {"seed": 1, "side": "A", "players": ["Player 1"], "scoring": None}
    with pytest.raises(GameError):
        Setup(seed=1, deck="nebblis")


def test_undo_and_replay_of_heroes_events():
    game = Game.new(Setup(seed=1, side="C", deck="heroes"))
    game = game.apply({"type": "map", "player": 0, "grid": Board.blank("C").to_words()})
    game = _reveal_until(game, HERO_PREFIX)
    after = game.apply({"type": "hero", "player": 0, "cell": [5, 5], "orientation": 2})
    again = Game.replay(after.setup, list(after.events))
    assert again.to_dict() == after.to_dict()
    assert after.undo().to_dict() == game.to_dict()


def test_seeded_heroes_maps_for_cross_checks():
    """bench.mapgen.heroes_map: the seeded C/D map generator an independent implementation is checked on."""
    from bench.mapgen import heroes_map
    from companion.cartographers.scoring import parse_card_ids, score_map

    seen = set()
    for seed in range(6):
        board, coins = heroes_map(seed)
        assert board.side in "CD" and 0 <= coins <= 14
        assert heroes_map(seed)[0] == board  # seeded: the same map every time
        seen |= set(board.flat)
        result = score_map(board, parse_card_ids(None, board.side))
        assert len(result.cards) == 16 and all(c.points >= 0 for c in result.cards)
    assert {Terrain.HERO, Terrain.DESTROYED} <= seen


def test_solo_ambush_that_fits_nowhere_has_no_lasting_effect():
    full = Board.blank("C")
    full = full.draw(sorted(full.empty_cells), Terrain.FOREST)

    def prepare(g):
        return g.apply({"type": "map", "player": 0, "grid": full.to_words()})

    for name in ("Gorgon Gaze", "Dragon Inferno"):
        game = _until_ambush(name, lambda s: Setup(seed=s, side="C", deck="heroes"), prepare=prepare)
        turn = next(t for t in game.turns if t["cards"][-1] == AMBUSH_PREFIX + _ambush_id(name))
        assert turn["solo"] == {"cells": [], "ignored": True}
        assert not game.pending and not [n for n in game.notices if n["effect"] == "coins_when_sealed"]
