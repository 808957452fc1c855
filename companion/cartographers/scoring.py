"""Scoring: the 16 base and 16 Heroes scoring cards, coins and the monster penalty.

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
from functools import cache

from .board import ALL_CELLS, EDGE_INDICES, NEIGHBOUR_INDICES, Board, N, surrounded_mountains
from .data import MAPS, SCORING_BY_ID, SCORING_CARDS, card_set_of_side
from .shapes import Cell
from .sides import side_layout
from .terrain import Terrain, shorten

FOREST, VILLAGE, FARM, WATER, MONSTER, MOUNTAIN, EMPTY = (
    Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER, Terrain.MOUNTAIN,
    Terrain.EMPTY,
)
GREENGOLD_TYPES = frozenset({FOREST, FARM, WATER, MONSTER, MOUNTAIN})

Group = tuple[Cell, ...]


@dataclass(frozen=True)
class CardScore:
    """Points plus where they came from; cells are kept as flat indices until someone asks."""

    card_id: str
    points: int
    indices: tuple[int, ...] = ()
    group_indices: tuple[tuple[int, ...], ...] = ()

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(ALL_CELLS[i] for i in sorted(set(self.indices)))

    @property
    def groups(self) -> tuple[Group, ...]:
        return tuple(tuple(ALL_CELLS[i] for i in sorted(g)) for g in self.group_indices)

    def to_dict(self) -> dict:
        return {
            "card": self.card_id,
            "points": self.points,
            "cells": [list(c) for c in self.cells],
            "groups": [[list(c) for c in g] for g in self.groups],
        }


NB = NEIGHBOUR_INDICES


def _cluster_indices(board: Board, terrain: Terrain) -> list[list[int]]:
    """Clusters as index lists, computed once per board and terrain (several cards share them)."""
    cache = board.__dict__.setdefault("_clusters", {})
    found = cache.get(terrain)
    if found is None:
        flat = board.flat
        seen = bytearray(N * N)
        found = []
        for start in board.indices_by_terrain[terrain]:
            if seen[start]:
                continue
            seen[start] = 1
            stack, group = [start], [start]
            while stack:
                for n in NB[stack.pop()]:
                    if not seen[n] and flat[n] is terrain:
                        seen[n] = 1
                        stack.append(n)
                        group.append(n)
            group.sort()
            found.append(group)
        cache[terrain] = found
    return found


def clusters(board: Board, terrain: Terrain) -> list[Group]:
    """Maximal orthogonally connected groups of one terrain, in reading order."""
    return [tuple(ALL_CELLS[i] for i in g) for g in _cluster_indices(board, terrain)]


def _near(board: Board, terrain: Terrain) -> set[int]:
    """Cells orthogonally next to at least one cell of a terrain (cached per board)."""
    cache = board.__dict__.setdefault("_near", {})
    near = cache.get(terrain)
    if near is None:
        near = cache[terrain] = {n for i in board.indices_by_terrain[terrain] for n in NB[i]}
    return near


def _adjacent_to(board: Board, terrain: Terrain, target: Terrain) -> list[int]:
    near = _near(board, target)
    return [i for i in board.indices_by_terrain[terrain] if i in near]


def _sealed(board: Board, terrain: Terrain) -> list[int]:
    """Cells of a terrain whose four sides are filled or off the map (i.e. not next to an empty cell)."""
    near_empty = _near(board, EMPTY)
    return [i for i in board.indices_by_terrain[terrain] if i not in near_empty]


def _score(card_id: str, points: int, indices: Iterable[int] = (), groups: Iterable[Iterable[int]] = ()) -> CardScore:
    return CardScore(card_id, points, tuple(indices), tuple(tuple(g) for g in groups))


# -- forest ------------------------------------------------------------------

def sentinel_wood(board: Board) -> CardScore:
    cells = [i for i in board.indices_by_terrain[FOREST] if i in EDGE_INDICES]
    return _score("sentinel_wood", len(cells), cells)


def greenbough(board: Board) -> CardScore:
    forests = board.indices_by_terrain[FOREST]
    rows = sorted({i // N for i in forests})
    cols = sorted({i % N for i in forests})
    lines = [ROWS[r] for r in rows] + [COLUMNS[c] for c in cols]
    return _score("greenbough", len(rows) + len(cols), forests, lines)


def treetower(board: Board) -> CardScore:
    cells = _sealed(board, FOREST)
    return _score("treetower", len(cells), cells)


def stoneside_forest(board: Board) -> CardScore:
    flat = board.flat
    mountains: set[int] = set()
    linking: list[list[int]] = []
    for group in _cluster_indices(board, FOREST):
        touched = {n for i in group for n in NB[i] if flat[n] is MOUNTAIN}
        if len(touched) >= 2:
            mountains |= touched
            linking.append(group)
    cells = mountains.union(*linking) if linking else set()
    return _score("stoneside_forest", 3 * len(mountains), cells, linking)


# -- farm & water --------------------------------------------------------------

def canal_lake(board: Board) -> CardScore:
    water = _adjacent_to(board, WATER, FARM)
    farm = _adjacent_to(board, FARM, WATER)
    return _score("canal_lake", len(water) + len(farm), water + farm)


def mages_valley(board: Board) -> CardScore:
    water = _adjacent_to(board, WATER, MOUNTAIN)
    farm = _adjacent_to(board, FARM, MOUNTAIN)
    return _score("mages_valley", 2 * len(water) + len(farm), water + farm)


RUINS: dict[str, frozenset[int]] = {side: frozenset(r * N + c for r, c in m.ruins) for side, m in MAPS.items()}
NEXT_TO_RUINS: dict[str, frozenset[int]] = {
    side: frozenset(n for i in ruins for n in NB[i]) for side, ruins in RUINS.items()
}


@cache
def _ruins_of(side: str) -> tuple[frozenset[int], frozenset[int]]:
    """Ruins and their neighbours of any side (a table's own side is decoded from its id)."""
    if side in RUINS:
        return RUINS[side], NEXT_TO_RUINS[side]
    ruins = frozenset(r * N + c for r, c in side_layout(side).ruins)
    return ruins, frozenset(n for i in ruins for n in NB[i])


def golden_granary(board: Board) -> CardScore:
    ruins, next_to_ruins = _ruins_of(board.side)
    water = [i for i in board.indices_by_terrain[WATER] if i in next_to_ruins]
    farm = [i for i in board.indices_by_terrain[FARM] if i in ruins]
    return _score("golden_granary", len(water) + 3 * len(farm), water + farm)


def shoreside_expanse(board: Board) -> CardScore:
    scoring: list[list[int]] = []
    for terrain, other in ((FARM, WATER), (WATER, FARM)):
        near_other = _near(board, other)
        for group in _cluster_indices(board, terrain):
            if not any(i in EDGE_INDICES or i in near_other for i in group):
                scoring.append(group)
    return _score("shoreside_expanse", 3 * len(scoring), (i for g in scoring for i in g), scoring)


# -- village -------------------------------------------------------------------

def wildholds(board: Board) -> CardScore:
    big = [g for g in _cluster_indices(board, VILLAGE) if len(g) >= 6]
    return _score("wildholds", 8 * len(big), (i for g in big for i in g), big)


def great_city(board: Board) -> CardScore:
    near_mountain = _near(board, MOUNTAIN)
    free = [g for g in _cluster_indices(board, VILLAGE) if not any(i in near_mountain for i in g)]
    if not free:
        return _score("great_city", 0)
    best = max(free, key=len)  # first of equal-size clusters: any one of them scores the same
    return _score("great_city", len(best), best, [best])


def greengold_plains(board: Board) -> CardScore:
    near = [_near(board, t) for t in GREENGOLD_TYPES]
    scoring = [
        g for g in _cluster_indices(board, VILLAGE)
        if sum(1 for n in near if any(i in n for i in g)) >= 3
    ]
    return _score("greengold_plains", 3 * len(scoring), (i for g in scoring for i in g), scoring)


def shieldgate(board: Board) -> CardScore:
    ranked = sorted(_cluster_indices(board, VILLAGE), key=len, reverse=True)
    if len(ranked) < 2:
        return _score("shieldgate", 0)
    second = ranked[1]  # a tie for largest makes the other tied cluster the second largest
    return _score("shieldgate", 2 * len(second), second, [second])


# -- arrangement ---------------------------------------------------------------

ROWS: tuple[range, ...] = tuple(range(r * N, r * N + N) for r in range(N))
COLUMNS: tuple[range, ...] = tuple(range(c, N * N, N) for c in range(N))


def borderlands(board: Board) -> CardScore:
    empty = board.indices_by_terrain[EMPTY]
    open_rows = {i // N for i in empty}
    open_cols = {i % N for i in empty}
    full = [ROWS[r] for r in range(N) if r not in open_rows] + [COLUMNS[c] for c in range(N) if c not in open_cols]
    return _score("borderlands", 6 * len(full), (i for g in full for i in g), full)


def lost_barony(board: Board) -> CardScore:
    """Largest all-filled square, grown one size at a time on row bitmasks.

    Bit c of `squares[r]` says the k×k square with top-left (r, c) is all filled;
    a (k+1)-square is four overlapping k-squares, i.e. two rows and a one-bit shift.
    """
    full_row = (1 << N) - 1
    squares = [full_row for _ in range(N)]
    for i in board.indices_by_terrain[EMPTY]:
        squares[i // N] &= ~(1 << (i % N))
    if not any(squares):
        return _score("lost_barony", 0)
    k = 1
    while True:
        grown = [a & b & (a >> 1) & (b >> 1) for a, b in zip(squares, squares[1:], strict=False)]
        if not any(grown):
            break
        squares, k = grown, k + 1
    r0 = next(r for r, bits in enumerate(squares) if bits)
    c0 = (squares[r0] & -squares[r0]).bit_length() - 1
    square = [r * N + c for r in range(r0, r0 + k) for c in range(c0, c0 + k)]
    return _score("lost_barony", 3 * k, square, [square])


BROKEN_ROAD_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple((r0 + i) * N + i for i in range(N - r0)) for r0 in range(N)
)


def broken_road(board: Board) -> CardScore:
    flat = board.flat
    lines = [line for line in BROKEN_ROAD_LINES if all(flat[i] is not EMPTY for i in line)]
    return _score("broken_road", 3 * len(lines), (i for g in lines for i in g), lines)


def cauldrons(board: Board) -> CardScore:
    cells = _sealed(board, EMPTY)
    return _score("cauldrons", len(cells), cells)


# -- Cartographers Heroes ---------------------------------------------------------
# Rulings (reference clarifications): runs and clusters are orthogonal; "empty" includes unfilled ruins and
# excludes destroyed spaces (filled, no terrain); counts are of distinct spaces; each mountain scores once.

HERO = Terrain.HERO


def faunlost_thicket(board: Board) -> CardScore:
    """Longest vertical run of forest anywhere (any non-forest breaks it); the first longest one is shown."""
    flat = board.flat
    best: list[int] = []
    for col in COLUMNS:
        run: list[int] = []
        for i in col:
            if flat[i] is FOREST:
                run.append(i)
                if len(run) > len(best):
                    best = list(run)
            else:
                run = []
    return _score("faunlost_thicket", 2 * len(best), best, [best] if best else [])


def deepwood(board: Board) -> CardScore:
    near_village = _near(board, VILLAGE)
    big = [g for g in _cluster_indices(board, FOREST) if len(g) >= 5 and not any(i in near_village for i in g)]
    return _score("deepwood", 6 * len(big), (i for g in big for i in g), big)


def heart_of_the_forest(board: Board) -> CardScore:
    flat = board.flat
    cells = [i for i in board.indices_by_terrain[FOREST] if all(flat[n] is FOREST for n in NB[i])]
    return _score("heart_of_the_forest", 2 * len(cells), cells)


def sleepy_valley(board: Board) -> CardScore:
    flat = board.flat
    rows = [row for row in ROWS if sum(1 for i in row if flat[i] is FOREST) >= 3]
    cells = [i for row in rows for i in row if flat[i] is FOREST]
    return _score("sleepy_valley", 4 * len(rows), cells, rows)


def craylund(board: Board) -> CardScore:
    flat = board.flat
    scoring = [g for g in _cluster_indices(board, FARM)
               if len({n for i in g for n in NB[i] if flat[n] is WATER}) >= 3]
    return _score("craylund", 7 * len(scoring), (i for g in scoring for i in g), scoring)


def ulems_wallow(board: Board) -> CardScore:
    flat = board.flat
    cells = [i for i in board.indices_by_terrain[WATER] if sum(1 for n in NB[i] if flat[n] is FARM) >= 2]
    return _score("ulems_wallow", 4 * len(cells), cells)


def clawsgrave_peaks(board: Board) -> CardScore:
    """Mountains touching a water cluster that also touches a farm; a mountain counts once however linked."""
    flat = board.flat
    mountains: set[int] = set()
    linking: list[list[int]] = []
    for group in _cluster_indices(board, WATER):
        around = {n for i in group for n in NB[i]}
        touched = {n for n in around if flat[n] is MOUNTAIN}
        if touched and any(flat[n] is FARM for n in around):
            mountains |= touched
            linking.append(group)
    cells = mountains.union(*linking) if linking else set()
    return _score("clawsgrave_peaks", 5 * len(mountains), cells, linking)


def jorekburg(board: Board) -> CardScore:
    flat = board.flat
    cols = []
    for col in COLUMNS:
        farm = sum(1 for i in col if flat[i] is FARM)
        if farm >= 1 and farm == sum(1 for i in col if flat[i] is WATER):
            cols.append(col)
    cells = [i for col in cols for i in col if flat[i] in (FARM, WATER)]
    return _score("jorekburg", 4 * len(cols), cells, cols)


def _has_line_of_four(group: list[int]) -> bool:
    cells = set(group)
    for i in group:
        r, c = divmod(i, N)
        if c + 3 < N and all(i + k in cells for k in (1, 2, 3)):
            return True
        if r + 3 < N and all(i + k * N in cells for k in (1, 2, 3)):
            return True
    return False


def traylo_monastery(board: Board) -> CardScore:
    scoring = [g for g in _cluster_indices(board, VILLAGE) if _has_line_of_four(g)]
    return _score("traylo_monastery", 7 * len(scoring), (i for g in scoring for i in g), scoring)


def outer_enclave(board: Board) -> CardScore:
    """The village cluster with most distinct empty neighbours (ties: the first in reading order)."""
    flat = board.flat
    best: tuple[int, list[int], list[int]] = (0, [], [])
    for group in _cluster_indices(board, VILLAGE):
        empty = sorted({n for i in group for n in NB[i] if flat[n] is EMPTY})
        if len(empty) > best[0]:
            best = (len(empty), group, empty)
    points, group, empty = best
    return _score("outer_enclave", points, empty, [group] if group else [])


def _has_square(group: list[int]) -> bool:
    cells = set(group)
    return any(i % N + 1 < N and {i + 1, i + N, i + N + 1} <= cells for i in group)


def gnomish_colony(board: Board) -> CardScore:
    scoring = [g for g in _cluster_indices(board, VILLAGE) if _has_square(g)]
    return _score("gnomish_colony", 6 * len(scoring), (i for g in scoring for i in g), scoring)


def caravansary(board: Board) -> CardScore:
    best: tuple[int, list[int]] = (0, [])
    for group in _cluster_indices(board, VILLAGE):
        points = len({i // N for i in group}) + len({i % N for i in group})
        if points > best[0]:
            best = (points, group)
    points, group = best
    return _score("caravansary", points, group, [group] if group else [])


def _full_lines(board: Board) -> list[range]:
    empty = board.indices_by_terrain[EMPTY]
    open_rows = {i // N for i in empty}
    open_cols = {i % N for i in empty}
    return [ROWS[r] for r in range(N) if r not in open_rows] + [COLUMNS[c] for c in range(N) if c not in open_cols]


def dwarvenholds(board: Board) -> CardScore:
    flat = board.flat
    lines = [line for line in _full_lines(board) if any(flat[i] is MOUNTAIN for i in line)]
    return _score("dwarvenholds", 7 * len(lines), (i for g in lines for i in g), lines)


SILO_COLUMNS = frozenset(COLUMNS[c] for c in range(0, N, 2))  # 1st, 3rd, ... 11th column from the left


def silos(board: Board) -> CardScore:
    lines = [line for line in _full_lines(board) if line in SILO_COLUMNS]
    return _score("silos", 10 * len(lines), (i for g in lines for i in g), lines)


# Banded Hills counts terrain types; the hero is counted as one (see the "banded_hills_hero" doubt).
BANDED_TYPES = frozenset({FOREST, VILLAGE, FARM, WATER, MONSTER, MOUNTAIN, HERO})


def banded_hills(board: Board) -> CardScore:
    flat = board.flat
    rows = [row for row in ROWS if len({flat[i] for i in row} & BANDED_TYPES) >= 5]
    return _score("banded_hills", 4 * len(rows), (i for g in rows for i in g), rows)


def starlit_sigil(board: Board) -> CardScore:
    groups = [g for g in _cluster_indices(board, EMPTY) if len(g) == 3]
    return _score("starlit_sigil", 4 * len(groups), (i for g in groups for i in g), groups)


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
    "faunlost_thicket": faunlost_thicket,
    "deepwood": deepwood,
    "heart_of_the_forest": heart_of_the_forest,
    "sleepy_valley": sleepy_valley,
    "craylund": craylund,
    "ulems_wallow": ulems_wallow,
    "clawsgrave_peaks": clawsgrave_peaks,
    "jorekburg": jorekburg,
    "traylo_monastery": traylo_monastery,
    "outer_enclave": outer_enclave,
    "gnomish_colony": gnomish_colony,
    "caravansary": caravansary,
    "dwarvenholds": dwarvenholds,
    "silos": silos,
    "banded_hills": banded_hills,
    "starlit_sigil": starlit_sigil,
}
assert set(SCORERS) == set(SCORING_BY_ID), "every scoring card needs a scorer"


def score_card(card_id: str, board: Board) -> CardScore:
    try:
        scorer = SCORERS[card_id]
    except KeyError:
        raise ValueError(f"unknown scoring card {shorten(card_id)!r}") from None
    return scorer(board)


# -- coins and monsters ----------------------------------------------------------

def mountain_coins(board: Board) -> CardScore:
    """One coin per surrounded mountain (the map shows which; the coin track may not)."""
    cells = surrounded_mountains(board)
    return CardScore("mountain_coins", len(cells), tuple(r * N + c for r, c in cells))


def monster_penalty(board: Board) -> CardScore:
    """Empty spaces next to a monster; points are the stars LOST (a non-negative count)."""
    cells = _adjacent_to(board, EMPTY, MONSTER)
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


@dataclass(frozen=True)
class MapScore:
    """A whole map scored on chosen cards, as `mapsmith score` and `score-photo` report it."""

    cards: tuple[CardScore, ...]
    mountain_coins: CardScore
    monsters: CardScore

    def to_dict(self) -> dict:
        return {
            "cards": {c.card_id: c.to_dict() for c in self.cards},
            "mountain_coins": self.mountain_coins.points,
            "monsters": self.monsters.points,
            "monster_cells": [list(c) for c in self.monsters.cells],
        }


def parse_card_ids(text: str | None, side: str | None = None) -> list[str]:
    """Comma-separated scoring card ids; empty means the 16 of the side's set (base without a side).

    ValueError names the first unknown id.
    """
    if not text or not text.strip():
        cards = card_set_of_side(side).scoring if side in MAPS else SCORING_CARDS
        return [c.id for c in cards]
    ids = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in ids if c not in SCORING_BY_ID]
    if unknown or not ids:
        bad = shorten((unknown or [text])[0])
        raise ValueError(f"unknown scoring card {bad!r} (known: {', '.join(SCORING_BY_ID)})")
    return ids


def score_map(board: Board, cards: Sequence[str]) -> MapScore:
    return MapScore(tuple(score_card(c, board) for c in cards), mountain_coins(board), monster_penalty(board))
