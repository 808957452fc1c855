"""Scoring: the 16 scoring cards, coins and the monster penalty.

Every scorer returns the points together with the cells (and groups: clusters,
rows, lines, squares) that earned them, because players only trust a score they
can see on their own map. Rulings follow the reference clarifications: filled =
any terrain incl. mountain, wasteland and monster; a ruins space is empty until
drawn on and stays a ruins space afterwards; the map edge satisfies Treetower and
The Cauldrons.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .board import ALL_CELLS, Board, N, neighbours, on_edge, surrounded_mountains
from .data import SCORING_BY_ID
from .shapes import Cell
from .terrain import Terrain

FOREST, VILLAGE, FARM, WATER, MONSTER, MOUNTAIN, EMPTY = (
    Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER, Terrain.MOUNTAIN,
    Terrain.EMPTY,
)
GREENGOLD_TYPES = frozenset({FOREST, FARM, WATER, MONSTER, MOUNTAIN})

Group = tuple[Cell, ...]


@dataclass(frozen=True)
class CardScore:
    card_id: str
    points: int
    cells: tuple[Cell, ...] = ()
    groups: tuple[Group, ...] = ()

    def to_dict(self) -> dict:
        return {
            "card": self.card_id,
            "points": self.points,
            "cells": [list(c) for c in self.cells],
            "groups": [[list(c) for c in g] for g in self.groups],
        }


def clusters(board: Board, terrain: Terrain) -> list[Group]:
    """Maximal orthogonally connected groups of one terrain, in reading order."""
    grid = board.grid
    seen: set[Cell] = set()
    out: list[Group] = []
    for start in ALL_CELLS:
        if start in seen or grid[start[0]][start[1]] is not terrain:
            continue
        seen.add(start)
        stack, group = [start], [start]
        while stack:
            cell = stack.pop()
            for n in neighbours(*cell):
                if n not in seen and grid[n[0]][n[1]] is terrain:
                    seen.add(n)
                    stack.append(n)
                    group.append(n)
        out.append(tuple(sorted(group)))
    return out


def _adjacent(board: Board, cell: Cell, terrain: Terrain) -> bool:
    grid = board.grid
    return any(grid[r][c] is terrain for r, c in neighbours(*cell))


def _sealed(board: Board, cell: Cell) -> bool:
    """All four sides filled or off the map."""
    grid = board.grid
    return all(grid[r][c] is not EMPTY for r, c in neighbours(*cell))


def _cluster_neighbours(board: Board, group: Group) -> set[Cell]:
    members = set(group)
    return {n for cell in group for n in neighbours(*cell) if n not in members}


def _score(card_id: str, points: int, cells: Iterable[Cell] = (), groups: Iterable[Group] = ()) -> CardScore:
    return CardScore(card_id, points, tuple(sorted(set(cells))), tuple(groups))


# -- forest ------------------------------------------------------------------

def sentinel_wood(board: Board) -> CardScore:
    cells = [c for c in board.cells_of(FOREST) if on_edge(*c)]
    return _score("sentinel_wood", len(cells), cells)


def greenbough(board: Board) -> CardScore:
    forests = board.cells_of(FOREST)
    rows = sorted({r for r, _ in forests})
    cols = sorted({c for _, c in forests})
    groups = [tuple((r, c) for c in range(N)) for r in rows] + [tuple((r, c) for r in range(N)) for c in cols]
    return _score("greenbough", len(rows) + len(cols), forests, groups)


def treetower(board: Board) -> CardScore:
    cells = [c for c in board.cells_of(FOREST) if _sealed(board, c)]
    return _score("treetower", len(cells), cells)


def stoneside_forest(board: Board) -> CardScore:
    mountains: set[Cell] = set()
    linking: list[Group] = []
    for group in clusters(board, FOREST):
        touched = {n for n in _cluster_neighbours(board, group) if board.at(n) is MOUNTAIN}
        if len(touched) >= 2:
            mountains |= touched
            linking.append(group)
    cells = set(mountains).union(*linking) if linking else set()
    return _score("stoneside_forest", 3 * len(mountains), cells, linking)


# -- farm & water --------------------------------------------------------------

def canal_lake(board: Board) -> CardScore:
    water = [c for c in board.cells_of(WATER) if _adjacent(board, c, FARM)]
    farm = [c for c in board.cells_of(FARM) if _adjacent(board, c, WATER)]
    return _score("canal_lake", len(water) + len(farm), water + farm)


def mages_valley(board: Board) -> CardScore:
    water = [c for c in board.cells_of(WATER) if _adjacent(board, c, MOUNTAIN)]
    farm = [c for c in board.cells_of(FARM) if _adjacent(board, c, MOUNTAIN)]
    return _score("mages_valley", 2 * len(water) + len(farm), water + farm)


def golden_granary(board: Board) -> CardScore:
    ruins = board.ruins
    water = [c for c in board.cells_of(WATER) if any(n in ruins for n in neighbours(*c))]
    farm = [c for c in board.cells_of(FARM) if c in ruins]
    return _score("golden_granary", len(water) + 3 * len(farm), water + farm)


def shoreside_expanse(board: Board) -> CardScore:
    scoring: list[Group] = []
    for terrain, other in ((FARM, WATER), (WATER, FARM)):
        for group in clusters(board, terrain):
            if any(on_edge(*c) for c in group):
                continue
            if any(board.at(n) is other for n in _cluster_neighbours(board, group)):
                continue
            scoring.append(group)
    return _score("shoreside_expanse", 3 * len(scoring), (c for g in scoring for c in g), scoring)


# -- village -------------------------------------------------------------------

def wildholds(board: Board) -> CardScore:
    big = [g for g in clusters(board, VILLAGE) if len(g) >= 6]
    return _score("wildholds", 8 * len(big), (c for g in big for c in g), big)


def great_city(board: Board) -> CardScore:
    free = [
        g for g in clusters(board, VILLAGE)
        if not any(board.at(n) is MOUNTAIN for n in _cluster_neighbours(board, g))
    ]
    if not free:
        return _score("great_city", 0)
    best = max(free, key=len)  # first of equal-size clusters: any one of them scores the same
    return _score("great_city", len(best), best, [best])


def greengold_plains(board: Board) -> CardScore:
    scoring = [
        g for g in clusters(board, VILLAGE)
        if len({board.at(n) for n in _cluster_neighbours(board, g)} & GREENGOLD_TYPES) >= 3
    ]
    return _score("greengold_plains", 3 * len(scoring), (c for g in scoring for c in g), scoring)


def shieldgate(board: Board) -> CardScore:
    ranked = sorted(clusters(board, VILLAGE), key=len, reverse=True)
    if len(ranked) < 2:
        return _score("shieldgate", 0)
    second = ranked[1]  # a tie for largest makes the other tied cluster the second largest
    return _score("shieldgate", 2 * len(second), second, [second])


# -- arrangement ---------------------------------------------------------------

def borderlands(board: Board) -> CardScore:
    grid = board.grid
    lines: list[Group] = []
    for r in range(N):
        if all(t is not EMPTY for t in grid[r]):
            lines.append(tuple((r, c) for c in range(N)))
    for c in range(N):
        if all(grid[r][c] is not EMPTY for r in range(N)):
            lines.append(tuple((r, c) for r in range(N)))
    return _score("borderlands", 6 * len(lines), (c for g in lines for c in g), lines)


def lost_barony(board: Board) -> CardScore:
    """Largest all-filled square by the classic dynamic programme over bottom-right corners."""
    grid = board.grid
    best, best_at = 0, (0, 0)
    prev = [0] * (N + 1)
    for r in range(N):
        cur = [0] * (N + 1)
        row = grid[r]
        for c in range(N):
            if row[c] is not EMPTY:
                k = 1 + min(prev[c], prev[c + 1], cur[c])
                cur[c + 1] = k
                if k > best:
                    best, best_at = k, (r, c)
        prev = cur
    if not best:
        return _score("lost_barony", 0)
    r1, c1 = best_at
    square = tuple((r, c) for r in range(r1 - best + 1, r1 + 1) for c in range(c1 - best + 1, c1 + 1))
    return _score("lost_barony", 3 * best, square, [square])


def broken_road(board: Board) -> CardScore:
    grid = board.grid
    lines: list[Group] = []
    for r0 in range(N):
        line = tuple((r0 + i, i) for i in range(N - r0))
        if all(grid[r][c] is not EMPTY for r, c in line):
            lines.append(line)
    return _score("broken_road", 3 * len(lines), (c for g in lines for c in g), lines)


def cauldrons(board: Board) -> CardScore:
    cells = [c for c in sorted(board.empty_cells) if _sealed(board, c)]
    return _score("cauldrons", len(cells), cells)


SCORERS: dict[str, Callable[[Board], CardScore]] = {
    "sentinel_wood": sentinel_wood,
    "greenbough": greenbough,
    "treetower": treetower,
    "stoneside_forest": stoneside_forest,
    "canal_lake": canal_lake,
    "mages_valley": mages_valley,
    "golden_granary": golden_granary,
    "shoreside_expanse": shoreside_expanse,
    "wildholds": wildholds,
    "great_city": great_city,
    "greengold_plains": greengold_plains,
    "shieldgate": shieldgate,
    "borderlands": borderlands,
    "lost_barony": lost_barony,
    "broken_road": broken_road,
    "cauldrons": cauldrons,
}
assert set(SCORERS) == set(SCORING_BY_ID), "every scoring card needs a scorer"


def score_card(card_id: str, board: Board) -> CardScore:
    try:
        scorer = SCORERS[card_id]
    except KeyError:
        raise ValueError(f"unknown scoring card {card_id!r}") from None
    return scorer(board)


# -- coins and monsters ----------------------------------------------------------

def mountain_coins(board: Board) -> CardScore:
    """One coin per surrounded mountain (the map shows which; the coin track may not)."""
    cells = surrounded_mountains(board)
    return _score("mountain_coins", len(cells), cells)


def monster_penalty(board: Board) -> CardScore:
    """Empty spaces next to a monster; points are the stars LOST (a non-negative count)."""
    cells = [c for c in sorted(board.empty_cells) if _adjacent(board, c, MONSTER)]
    return _score("monsters", len(cells), cells)


@dataclass(frozen=True)
class SeasonScore:
    edicts: tuple[CardScore, ...]
    coins: int
    monsters: CardScore
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(e.points for e in self.edicts) + self.coins - self.monsters.points)

    def to_dict(self) -> dict:
        return {
            "edicts": [e.to_dict() for e in self.edicts],
            "coins": self.coins,
            "monsters": self.monsters.to_dict(),
            "total": self.total,
        }


def score_season(board: Board, edict_cards: Sequence[str], coins: int) -> SeasonScore:
    """Season score = the season's two edicts + all coins so far − monster penalty.

    `coins` is the total on the coin track (coin shapes + surrounded mountains):
    the track is what the player has filled in, and a photo reads the track.
    """
    if coins < 0:
        raise ValueError("coins cannot be negative")
    return SeasonScore(tuple(score_card(cid, board) for cid in edict_cards), coins, monster_penalty(board))


def total_coins(board: Board, shape_coins: int) -> int:
    """Coin-track total from coins earned by coin shapes plus the mountains the map shows surrounded."""
    return shape_coins + mountain_coins(board).points
