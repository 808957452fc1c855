"""Seeded random play by the rules: seasons dealt by the session engine, each revealed card drawn at a random
legal place (ruins requirement under either ruins rule, 1×1 fallbacks, ambushes by a neighbour or by the solo
walk).

The referee's property tests and benchmark judge these seasons: every one must be judged legal with the coins
counted here. Pure and deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .board import RUINS_NORMAL, RUINS_SINGLE_SQUARE, Board, legal_placements, surrounded_mountains
from .data import AMBUSH_BY_ID, EXPLORE_BY_ID
from .session import AMBUSH_PREFIX, Game, Setup
from .solo import solo_ambush
from .terrain import DRAWABLE, Terrain


@dataclass(frozen=True)
class PlayedSeason:
    season: int
    before: Board
    after: Board
    cards: tuple[str, ...]  # the season's revealed cards in order
    coins_from_shapes: int
    solo: bool
    ruins_rule: str = RUINS_NORMAL


def draw_turn(rng: random.Random, board: Board, cards: list[str], ruins_required: bool,
              solo: bool = False, ruins_rule: str = RUINS_NORMAL) -> tuple[Board, int]:
    """Draw one turn's revealed card somewhere legal under the table's ruins rule; returns the new board and the
    coins its shape earned."""
    last = cards[-1]
    if last.startswith(AMBUSH_PREFIX):
        ambush = AMBUSH_BY_ID[last.removeprefix(AMBUSH_PREFIX)]
        if solo:
            cells = solo_ambush(board, ambush)
            return (board.draw(cells, Terrain.MONSTER) if cells else board), 0
        found = legal_placements(board, [ambush.shape])
        if found:
            return board.draw(rng.choice(found).cells, Terrain.MONSTER), 0
        return _single(rng, board, (Terrain.MONSTER,)), 0
    card = EXPLORE_BY_ID[last]
    if card.kind == "rift":
        ruins = sorted(board.unfilled_ruins)
        cells = ruins if ruins_required and ruins else sorted(board.empty_cells)
        if not cells:
            return board, 0
        return board.draw([rng.choice(cells)], rng.choice(DRAWABLE)), 0
    options = [o.cells for o in card.options]
    # the card's options together decide whether ruins can be covered (one option's failing does not free it)
    legal = legal_placements(board, options, ruins_required=ruins_required, ruins_rule=ruins_rule)
    # choose the option first, then a place: coin shapes come up as often as a player would pick them
    order = list(range(len(options)))
    rng.shuffle(order)
    for i in order:
        found = [p for p in legal if p.option == i]
        if found:
            cells = rng.choice(found).cells
            return board.draw(cells, rng.choice(card.terrains)), int(card.options[i].coin)
    single_square = ruins_required and ruins_rule == RUINS_SINGLE_SQUARE
    return _single(rng, board, DRAWABLE if single_square else card.terrains), 0


def _single(rng: random.Random, board: Board, terrains: tuple[Terrain, ...]) -> Board:
    empty = sorted(board.empty_cells)
    if not empty:
        return board
    return board.draw([rng.choice(empty)], rng.choice(terrains))


def play_game(seed: int, side: str | None = None, solo: bool = False,
              ruins_rule: str = RUINS_NORMAL) -> Iterator[PlayedSeason]:
    """The four seasons of one seeded game on one player's map, played by the table's ruins rule."""
    rng = random.Random(f"simulate/{seed}")
    side = side or rng.choice("AB")
    players = ("P1",) if solo else ("P1", "P2")
    game = Game.new(Setup(seed=seed, side=side, players=players, ruins_rule=ruins_rule))
    board = Board.blank(side)
    while game.phase != "over":
        before, coins, cards = board, 0, []
        while game.phase == "explore":
            game = game.apply({"type": "reveal"})
            turn = game.turns[-1]
            cards += turn["cards"]
            # an ambush after a ruins card leaves the requirement waiting: the turn records it as not required
            required = turn["ruins_required"]
            board, earned = draw_turn(rng, board, turn["cards"], required, solo, ruins_rule)
            coins += earned
        yield PlayedSeason(game.season, before, board, tuple(cards), coins, solo, ruins_rule)
        game = game.apply({"type": "next_season"})


def change_one_cell(rng: random.Random, board: Board) -> tuple[Board, tuple[int, int]]:
    """The map with one drawable cell changed (erased, filled, or another terrain): a player's slip."""
    cells = sorted(board.empty_cells | _drawn(board))
    r, c = rng.choice(cells)
    old = board.grid[r][c]
    new = rng.choice([t for t in (Terrain.EMPTY, *DRAWABLE) if t is not old])
    rows = [list(row) for row in board.grid]
    rows[r][c] = new
    return Board(board.side, tuple(tuple(row) for row in rows)), (r, c)


def _drawn(board: Board) -> set[tuple[int, int]]:
    return {cell for t in DRAWABLE for cell in board.cells_of(t)}


@dataclass(frozen=True)
class PlayedTable:
    """A table's stored game: setup and events, as the web app keeps them, with what the players really drew."""

    setup: Setup
    events: tuple[dict, ...]
    shape_coins: tuple[tuple[int, ...], ...]  # [player][season] coins from coin shapes in that season
    boards: tuple[tuple[Board, ...], ...]  # [player][season] the map at the season's end


def play_table(seed: int, players: int = 2, seasons: int = 4, side: str | None = None,
               ruins_rule: str = RUINS_NORMAL) -> PlayedTable:
    """Every player draws every card at a random legal place (by the table's ruins rule); each map is scored
    (grid + coin track) at each season's end. Stops after `seasons` seasons (the game is over after the fourth)."""
    rng = random.Random(f"table/{seed}")
    side = side or rng.choice("AB")
    setup = Setup(seed=seed, side=side, players=tuple(f"Player {i + 1}" for i in range(players)),
                  ruins_rule=ruins_rule)
    game = Game.new(setup)
    boards = [Board.blank(side) for _ in range(players)]
    coins = [[0] * 4 for _ in range(players)]
    ends: list[list[Board]] = [[] for _ in range(players)]
    track = [0] * players
    solo = players == 1
    while game.phase != "over" and game.season < seasons:
        while game.phase == "explore":
            game = game.apply({"type": "reveal"})
            turn = game.turns[-1]
            for p in range(players):
                boards[p], earned = draw_turn(rng, boards[p], turn["cards"], turn["ruins_required"], solo,
                                              ruins_rule)
                coins[p][game.season] += earned
        for p in range(players):
            track[p] = min(14, sum(coins[p]) + len(surrounded_mountains(boards[p])))
            game = game.apply({"type": "score", "player": p, "grid": boards[p].to_words(), "coins": track[p]})
            ends[p].append(boards[p])
        if game.season == seasons - 1 and seasons < 4:
            break
        game = game.apply({"type": "next_season"})
    return PlayedTable(setup, game.events, tuple(tuple(c) for c in coins), tuple(tuple(e) for e in ends))
