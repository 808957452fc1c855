"""The season referee: explain a season's new cells as the drawings of the cards revealed that season.

Input: the map before the season, the map after it, and the season's revealed cards in order. Output: one
placement per explore card (an option of the card, rotated or mirrored, in one of its terrains; a 1×1 fallback
only when no option fitted at that moment), the ambush monsters, the coins the coin shapes earned, and — when
no explanation exists — the smallest set of cells that breaks it, each with the card it most likely belonged to.

Why a search: the rules that depend on the moment of drawing (the 1×1 fallback is allowed only when no option
fitted *then*; a ruins requirement can be skipped only when no option could cover an unfilled ruins space
*then*) make the order of placements matter, so the referee replays the cards in order. Each card's drawing is
one terrain, so candidates come from the new cells of one terrain only; every cell must be used exactly once
(exact cover), and a memo over (card index, cells placed so far) makes the search a dynamic programme over the
reachable states.

Diagnosis uses the same search with a budget: a placement may also include cells that are empty on the map
(missing cells) or drawn in another terrain (wrong terrain), a card may have no drawing at all, a rule may be
broken (a 1×1 where a shape fitted, ruins not covered), and cells may be left unexplained (extra cells); each
costs one. Iterative deepening finds the cheapest repair, so the problems name the fewest cells that would have
to change for the map to be explained.

The table's ruins rule (`Setup.ruins_rule`, board.py) decides what a skipped ruins requirement allows: under
`normal` (the rules we were given, the default) the card's shapes in its terrains anywhere they fit, with the 1×1
fallback in its terrains only when no shape fits at all; under `single_square` (the printed rulebook) only a
single 1×1 square of any terrain.

Everything works on 121-bit masks (bit r * 11 + c), which keeps a legal season's check to a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from .board import ALL_CELLS, RUINS_NORMAL, RUINS_RULES, RUINS_SINGLE_SQUARE, Board, N, translations
from .data import AMBUSH_BY_ID, EXPLORE_BY_ID, MAPS
from .shapes import Cell, Shape, is_king_connected, is_orthogonally_connected, orientations
from .solo import solo_ambush
from .terrain import DRAWABLE, Terrain

AMBUSH_PREFIX = "ambush-"
ALL_MASK = (1 << (N * N)) - 1
MAX_REPAIR = 12  # cells/rules a repair may change before the referee gives up looking for the cheapest one
NODE_LIMIT = 60_000  # search nodes per check (~1 s at worst), so a hopeless map still answers quickly
COIN_RANGE_LIMIT = 5_000  # nodes spent finding whether other explanations earn other coins
ALTERNATIVES_LIMIT = 20_000  # further nodes spent listing the equally cheap alternatives of a repair
SINGLE: Shape = ((0, 0),)


class RefereeError(ValueError):
    """Bad input to the referee (unknown card, maps of different sides): the CLI's exit 2."""


# -- the season's steps ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One drawing the season's cards call for, in the order they were revealed."""

    card: str  # the id as given: "07" or "ambush-02"
    kind: str  # "explore", "rift" or "ambush"
    ruins_required: bool


def season_steps(cards: Sequence[str], *, unique: bool = True) -> tuple[Step, ...]:
    """The drawings a season's revealed cards call for.

    A ruins card draws nothing itself: it makes the next explore card's drawing cover a ruins space (an ambush in
    between keeps the requirement waiting, as the session engine does). `unique=False` accepts the cards of
    several seasons in a row, where each card comes up once per season.
    """
    steps: list[Step] = []
    pending = False
    seen: set[str] = set()
    for raw in cards:
        cid = str(raw).strip().lower()
        if cid.isdigit() and len(cid) == 1:
            cid = "0" + cid
        if cid in seen and unique:
            raise RefereeError(f"card {cid} is listed twice: each card is revealed at most once a season")
        seen.add(cid)
        if cid.startswith(AMBUSH_PREFIX):
            if cid.removeprefix(AMBUSH_PREFIX) not in AMBUSH_BY_ID:
                raise RefereeError(f"unknown ambush card {cid!r} (expected ambush-01 … ambush-04)")
            steps.append(Step(cid, "ambush", False))
            continue
        card = EXPLORE_BY_ID.get(cid)
        if card is None:
            raise RefereeError(f"unknown card {raw!r} (explore cards are 05 … 17, ambushes ambush-01 … ambush-04)")
        if card.kind == "ruins":
            pending = True
            continue
        steps.append(Step(cid, card.kind, pending))
        pending = False
    return tuple(steps)


# -- results -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Drawing:
    """One card's drawing as the referee explains it."""

    card: str
    terrain: Terrain
    cells: tuple[Cell, ...]
    coin: bool
    fallback: bool

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "terrain": self.terrain.value, "cells": [list(c) for c in self.cells],
                "coin": self.coin, "fallback": self.fallback}


PROBLEM_CODES = ("changed_cell", "extra_cell", "missing_cell", "wrong_terrain", "missing_drawing",
                 "fallback_not_allowed", "ruins_not_covered", "alternative", "too_many")


@dataclass(frozen=True)
class Problem:
    """Something the cards cannot explain. `card` is the card the cells most likely belonged to."""

    code: str
    cells: tuple[Cell, ...]
    card: str | None
    message: str
    # ruins_not_covered under the printed rulebook when no shape could cover ruins: the card called for a single
    # 1×1 square of any terrain instead (the page words it so); not part of the JSON contract
    single_square: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract: code, cells, message (the likely card is named in the message)."""
        return {"code": self.code, "cells": [list(c) for c in self.cells], "message": self.message}


@dataclass(frozen=True)
class Verdict:
    placements: tuple[Drawing, ...]
    problems: tuple[Problem, ...]
    complete: bool = True  # False when the search stopped at its node limit (the problems are then coarse)
    coin_range: tuple[int, int] | None = None  # fewest and most coins over all explanations, when legal and known

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def coins_from_shapes(self) -> int:
        return sum(1 for p in self.placements if p.coin)

    @property
    def problem_cells(self) -> frozenset[Cell]:
        return frozenset(c for p in self.problems for c in p.cells)

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "placements": [p.to_dict() for p in self.placements],
                "coins_from_shapes": self.coins_from_shapes, "problems": [p.to_dict() for p in self.problems]}


# -- masks -------------------------------------------------------------------------------------------------------

def _mask(cells: Sequence[Cell]) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << (r * N + c)
    return m


def _cells(mask: int) -> tuple[Cell, ...]:
    return tuple(ALL_CELLS[i] for i in _bits(mask))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class _ShapeIndex:
    masks: tuple[int, ...]  # every in-map placement, all rotations and mirror images
    by_low: tuple[tuple[int, ...], ...]  # placements whose lowest cell is i
    by_cell: tuple[tuple[int, ...], ...]  # placements containing cell i
    size: int
    reach: int  # 1: orthogonally connected, 2: diagonal steps needed, 3: has gaps


@cache
def _shape_index(shape: Shape) -> _ShapeIndex:
    masks: list[int] = []
    seen: set[int] = set()
    for orientation in orientations(shape):
        for cells in translations(orientation):
            m = _mask(cells)
            if m not in seen:
                seen.add(m)
                masks.append(m)
    by_low: list[list[int]] = [[] for _ in range(N * N)]
    by_cell: list[list[int]] = [[] for _ in range(N * N)]
    for m in masks:
        by_low[(m & -m).bit_length() - 1].append(m)
        for i in _bits(m):
            by_cell[i].append(m)
    reach = 1 if is_orthogonally_connected(shape) else 2 if is_king_connected(shape) else 3
    return _ShapeIndex(tuple(masks), tuple(map(tuple, by_low)), tuple(map(tuple, by_cell)), len(shape), reach)


_NOT_LEFT = ALL_MASK & ~sum(1 << (r * N) for r in range(N))  # cells not in column 0
_NOT_RIGHT = ALL_MASK & ~sum(1 << (r * N + N - 1) for r in range(N))  # cells not in column 10


def _grow(mask: int, reach: int) -> int:
    """The mask with its orthogonal (reach 1) or orthogonal and diagonal (reach 2) neighbours."""
    out = mask | (mask << N) | (mask >> N)
    if reach >= 2:
        out |= (out << 1) & _NOT_LEFT | (out >> 1) & _NOT_RIGHT
    else:
        out |= (mask << 1) & _NOT_LEFT | (mask >> 1) & _NOT_RIGHT
    return out & ALL_MASK


def _fragments_fit(rest: int, smallest: int, reach: int) -> bool:
    """Could the cells left in one terrain still be cut into pieces? No piece spans two separate fragments, so
    each fragment needs at least the smallest piece's cells. (`reach` 3: some shape has gaps, nothing to check.)"""
    if smallest <= 1 or reach >= 3:
        return True
    while rest:
        part = rest & -rest
        while True:
            grown = _grow(part, reach) & rest
            if grown == part:
                break
            part = grown
        if part.bit_count() < smallest:
            return False
        rest &= ~part
    return True


@cache
def _ruins_mask(side: str) -> int:
    return _mask(MAPS[side].ruins)


@dataclass(frozen=True)
class _Option:
    index: _ShapeIndex
    coin: bool


@dataclass(frozen=True)
class _Offer:
    """What one step may draw: shapes in terrains, and what a 1×1 fallback may be."""

    step: Step
    terrains: tuple[Terrain, ...]
    options: tuple[_Option, ...]
    fallback_terrains: tuple[Terrain, ...]  # () = no 1×1 fallback (Rift Lands is a 1×1 already)
    min_size: int
    max_size: int


def _offer(step: Step, ruins_rule: str) -> _Offer:
    if step.kind == "ambush":
        shape = AMBUSH_BY_ID[step.card.removeprefix(AMBUSH_PREFIX)].shape
        return _Offer(step, (Terrain.MONSTER,), (_Option(_shape_index(shape), False),), (Terrain.MONSTER,), 1,
                      len(shape))
    card = EXPLORE_BY_ID[step.card]
    options = tuple(_Option(_shape_index(o.cells), o.coin) for o in card.options)
    if step.kind == "rift":
        return _Offer(step, tuple(DRAWABLE), options, (), 1, 1)
    # the printed rulebook's single square after a Ruins card is of any terrain; otherwise the card's terrains
    fallback = tuple(DRAWABLE) if step.ruins_required and ruins_rule == RUINS_SINGLE_SQUARE else card.terrains
    return _Offer(step, card.terrains, options, fallback, 1, max(o.index.size for o in options))


# -- the search --------------------------------------------------------------------------------------------------

class _Piece(NamedTuple):
    """A candidate drawing for one step, with what it would cost as a repair (a tuple: made by the thousand)."""

    mask: int
    terrain: Terrain | None  # None: the card has no drawing
    coin: bool
    fallback: bool
    cost: int
    rule: str | None = None  # a broken rule (costs one), or None


class _NodeLimit(Exception):
    pass


class _Search:
    def __init__(self, side: str, before_filled: int, new: dict[Terrain, int], steps: Sequence[Step], solo: bool,
                 grid: tuple[tuple[Terrain, ...], ...], ruins_rule: str = RUINS_NORMAL):
        self.side = side
        self.ruins_rule = ruins_rule
        self.before_filled = before_filled
        self.new = new
        self.new_all = 0
        for m in new.values():
            self.new_all |= m
        self.offers = [_offer(s, ruins_rule) for s in steps]
        self.solo = solo
        self.grid = grid
        self.ruins = _ruins_mask(side)
        self.memo: dict[tuple[int, int], tuple[int, bool]] = {}
        self.choice: dict[tuple[int, int], _Piece] = {}
        self.fits_cache: dict[tuple[int, int, bool], bool] = {}
        self.solo_cache: dict[tuple[int, int], int | None] = {}
        self.near_cache: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.nodes = 0
        self.limit = NODE_LIMIT
        k = len(self.offers)
        # the most cells the steps from i on can draw, per terrain and in all: the exact search's pruning bound
        self.cap_total = [0] * (k + 1)
        self.cap_terrain = [{t: 0 for t in DRAWABLE} for _ in range(k + 1)]
        for i in range(k - 1, -1, -1):
            o = self.offers[i]
            self.cap_total[i] = self.cap_total[i + 1] + o.max_size
            for t in DRAWABLE:
                extra = o.max_size if t in o.terrains else (1 if t in o.fallback_terrains else 0)
                self.cap_terrain[i][t] = self.cap_terrain[i + 1][t] + extra
        # the fewest cells they must draw when nothing is repaired: a step whose option still fits on the final
        # map fitted at its own moment too (the map only fills up), so it drew a whole shape, not a 1×1
        final = before_filled | self.new_all
        self.smallest: list[dict[Terrain, int]] = [{} for _ in range(k + 1)]
        self.tile_shapes: list[dict[Terrain, tuple[_ShapeIndex, ...]]] = [{} for _ in range(k)]
        self.offering = {t: 0 for t in DRAWABLE}  # steps that could draw each terrain
        self.must = {t: 0 for t in DRAWABLE}  # steps that must draw it
        self.later = [((1 << k) - 1) & ~((1 << i) - 1) for i in range(k + 1)]
        self.tile_memo: dict[tuple[int, Terrain, int], bool] = {}
        self.reach: list[dict[Terrain, int]] = [{} for _ in range(k + 1)]
        self.floor_total = [0] * (k + 1)
        self.floor_terrain = [{t: 0 for t in DRAWABLE} for _ in range(k + 1)]
        for i in range(k - 1, -1, -1):
            o = self.offers[i]
            if final == ALL_MASK:
                floor = 0
            elif o.step.kind == "ambush" and solo:
                # the solo monster is never turned: it is drawn only if the printed shape fits somewhere
                printed = AMBUSH_BY_ID[o.step.card.removeprefix(AMBUSH_PREFIX)].shape
                fits = any(not _mask(cells) & final for cells in translations(printed))
                floor = len(printed) if fits else 0
            elif self.option_fits(i, final):
                floor = min(opt.index.size for opt in o.options)
            else:
                floor = 0 if o.step.kind == "ambush" and solo else 1
            self.floor_total[i] = self.floor_total[i + 1] + floor
            for t in DRAWABLE:
                shapes = [opt.index for opt in o.options] if t in o.terrains and o.step.kind != "rift" else []
                if o.step.kind == "rift" or (floor == 1 and t in o.fallback_terrains):
                    shapes.append(_shape_index(SINGLE))
                self.tile_shapes[i][t] = tuple(shapes)
                if shapes:
                    self.offering[t] |= 1 << i
                if floor and set(o.terrains) | set(o.fallback_terrains) == {t}:
                    self.must[t] |= 1 << i
            only = set(o.terrains) | set(o.fallback_terrains)
            for t in DRAWABLE:
                self.floor_terrain[i][t] = self.floor_terrain[i + 1][t] + (floor if only == {t} else 0)
            # the smallest piece of each terrain the steps from i on could draw, and how its cells hang together
            for t in DRAWABLE:
                smallest = self.smallest[i + 1].get(t, 99)
                if o.step.kind == "rift" or (floor == 1 and t in o.fallback_terrains):
                    smallest = 1
                elif t in o.terrains:
                    smallest = min(smallest, *(opt.index.size for opt in o.options))
                self.smallest[i][t] = smallest
                if t in o.terrains and o.step.kind != "rift":
                    reach = max(opt.index.reach for opt in o.options)
                    self.reach[i][t] = max(self.reach[i + 1].get(t, 0), reach)
                else:
                    self.reach[i][t] = self.reach[i + 1].get(t, 0)

    def tileable(self, avail: int, t: Terrain, rest: int) -> bool:
        """Could the steps in `avail` cut one terrain's remaining cells into their pieces (ignoring the order and
        the other terrains)? A relaxation that fails early: memoised by terrain, so the many repairs tried in
        other terrains never search this one again."""
        if not rest:
            return not avail & self.must[t]
        key = (avail, t, rest)
        hit = self.tile_memo.get(key)
        if hit is not None:
            return hit
        low = (rest & -rest).bit_length() - 1
        ok = False
        for j in _bits(avail):
            for index in self.tile_shapes[j][t]:
                for m in index.by_low[low]:
                    if not m & ~rest and self.tileable(avail & ~(1 << j), t, rest & ~m):
                        ok = True
                        break
                if ok:
                    break
            if ok:
                break
        self.tile_memo[key] = ok
        return ok

    # -- what fitted at a moment ----------------------------------------------------------------------------
    def option_fits(self, i: int, filled: int) -> bool:
        """Could one of step i's options be drawn on this map, so that a 1×1 fallback is not allowed? After a
        Ruins card the printed rulebook asks for one covering an unfilled ruins space; the rules we were given
        fall back to normal placement, so any place counts."""
        need_ruins = self.offers[i].step.ruins_required and self.ruins_rule == RUINS_SINGLE_SQUARE
        return self._fits(i, filled, need_ruins)

    def ruins_coverable(self, i: int, filled: int) -> bool:
        """Could one of step i's options cover an unfilled ruins space on this map (the ruins requirement holds)?"""
        return self._fits(i, filled, True)

    def _fits(self, i: int, filled: int, need_ruins: bool) -> bool:
        key = (i, filled, need_ruins)
        hit = self.fits_cache.get(key)
        if hit is None:
            offer = self.offers[i]
            hit = False
            if offer.step.kind == "rift":
                hit = bool(self.ruins & ~filled) if need_ruins else bool(ALL_MASK & ~filled)
            else:
                for option in offer.options:
                    if any(not m & filled and (not need_ruins or m & self.ruins) for m in option.index.masks):
                        hit = True
                        break
            self.fits_cache[key] = hit
        return hit

    def solo_position(self, i: int, filled: int) -> int | None:
        key = (i, filled)
        if key not in self.solo_cache:
            rows = [[Terrain.EMPTY if not filled >> (r * N + c) & 1 else
                     (self.grid[r][c] if self.grid[r][c] is not Terrain.EMPTY else Terrain.MONSTER)
                     for c in range(N)] for r in range(N)]
            board = Board(self.side, tuple(tuple(row) for row in rows))
            cells = solo_ambush(board, AMBUSH_BY_ID[self.offers[i].step.card.removeprefix(AMBUSH_PREFIX)])
            self.solo_cache[key] = _mask(cells) if cells is not None else None
        return self.solo_cache[key]

    # -- candidates -----------------------------------------------------------------------------------------
    def candidates(self, i: int, placed: int, budget: int) -> Iterator[_Piece]:
        offer = self.offers[i]
        step = offer.step
        filled = self.before_filled | placed
        unplaced = self.new_all & ~placed
        rem = {t: m & ~placed for t, m in self.new.items()}
        ruins_free = self.ruins & ~filled

        if filled == ALL_MASK:  # nowhere left to draw: the card draws nothing, rightly
            yield _Piece(0, None, False, False, 0)
            return

        if step.kind == "ambush" and self.solo:
            where = self.solo_position(i, filled)
            if where is None:
                yield _Piece(0, None, False, False, 0)
                return
            yield from self._shaped(where, Terrain.MONSTER, False, False, rem, unplaced, budget, None)
            if budget:
                yield _Piece(0, None, False, False, offer.options[0].index.size, "missing_drawing")
            return

        if step.kind == "rift":
            for t in DRAWABLE:
                for x in _bits(rem[t]):
                    bit = 1 << x
                    rule = "ruins_not_covered" if step.ruins_required and ruins_free and not bit & self.ruins else None
                    cost = 1 if rule else 0
                    if cost <= budget:
                        yield _Piece(bit, t, False, False, cost, rule)
            if budget:
                yield _Piece(0, None, False, False, 1, "missing_drawing")
            return

        # a shape must cover ruins after a Ruins card; when none could, the rules we were given allow it anywhere
        need_ruins = step.ruins_required and (self.ruins_rule == RUINS_SINGLE_SQUARE or self.ruins_coverable(i, filled))
        for option in offer.options:
            for t in (offer.terrains if not budget else DRAWABLE):
                wrong = 0 if t in offer.terrains else 1
                # another terrain is a repair only for an exactly drawn piece: no near placements for it
                for m in self._masks_near(option.index, rem[t], unplaced, filled, 0 if wrong else budget):
                    rule = "ruins_not_covered" if need_ruins and not m & self.ruins else None
                    yield from self._shaped(m, t, option.coin, False, rem, unplaced, budget, rule, wrong)
        fits = self.option_fits(i, filled)
        for t in DRAWABLE:
            allowed = t in offer.fallback_terrains
            if not allowed and not budget:
                continue
            for x in _bits(rem[t]):
                rule = "fallback_not_allowed" if fits else None
                cost = (1 if rule else 0) + (0 if allowed else 1)
                if cost <= budget:
                    yield _Piece(1 << x, t, False, True, cost, rule or (None if allowed else "wrong_terrain"))
        if budget:
            yield _Piece(0, None, False, False, offer.min_size, "missing_drawing")

    def _masks_near(self, index: _ShapeIndex, rem: int, unplaced: int, filled: int, budget: int) -> Iterator[int]:
        """Placements inside `rem` (budget 0), or touching it and free at this moment (repairs).

        The placements depend on one terrain's remaining cells only, so they are cached by those: the many states
        that differ in other terrains share them."""
        # cells the placement must share with this terrain's new cells (none at all: "no drawing" is cheaper)
        need = index.size if not budget else max(index.size - budget, 1)
        key = (index.size, index.masks[0] if index.masks else 0, rem, need)
        found = self.near_cache.get(key)
        if found is None:
            out: list[int] = []
            if need == index.size:
                for x in _bits(rem):
                    out.extend(m for m in index.by_low[x] if not m & ~rem)
            else:
                for x in _bits(rem):
                    bit = 1 << x
                    for m in index.by_cell[x]:
                        inside = m & rem
                        # each placement once: from the lowest of its cells in this terrain
                        if inside & -inside == bit and inside.bit_count() >= need:
                            out.append(m)
            found = self.near_cache[key] = tuple(out)
        if need == index.size:
            return iter(found)  # inside `rem`, so free at this moment
        return (m for m in found if not m & filled)

    def _shaped(self, m: int, t: Terrain, coin: bool, fallback: bool, rem: dict[Terrain, int], unplaced: int,
                budget: int, rule: str | None, wrong: int = 0) -> Iterator[_Piece]:
        if m & self.before_filled:
            return
        outside = m & ~rem[t]
        if not outside:
            cost = (1 if rule else 0) + wrong
            if cost <= budget:
                yield _Piece(m, t, coin, fallback, cost, rule or ("wrong_terrain" if wrong else None))
            return
        if not budget:
            return
        if wrong:
            return  # another terrain is one repair for a whole, exactly drawn piece only
        cost = outside.bit_count() + (1 if rule else 0)
        if cost <= budget:
            yield _Piece(m, t, coin, fallback, cost, rule)

    # -- branch and bound over (step, placed) ---------------------------------------------------------------
    def lower_bound(self, i: int, placed: int, budget: int) -> int:
        """Cells no later step can draw are left over, each a repair; per terrain, that proves only cost > 0."""
        unplaced = self.new_all & ~placed
        bound = max(unplaced.bit_count() - self.cap_total[i], 0)
        if not bound and not budget:
            # only that some repair is needed is known: a wrong-terrain or missing-cell repair could cover the rest
            if unplaced.bit_count() < self.floor_total[i]:
                return 1
            caps, floors = self.cap_terrain[i], self.floor_terrain[i]
            for t, m in self.new.items():
                rest = m & ~placed
                left = rest.bit_count()
                if left > caps[t] or left < floors[t]:
                    return 1
                if rest and not _fragments_fit(rest, self.smallest[i][t], self.reach[i][t]):
                    return 1
                if not self.tileable(self.later[i] & self.offering[t], t, rest):
                    return 1
        return bound

    def solve(self, i: int, placed: int, budget: int) -> int:
        """The cheapest repair from step i on, when it costs at most `budget`; else a lower bound above it."""
        key = (i, placed)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] > budget):
            return hit[0]
        self.nodes += 1
        if self.nodes > self.limit:
            raise _NodeLimit
        if i == len(self.offers):
            value = (self.new_all & ~placed).bit_count()
            self.memo[key] = (value, True)
            return value
        lb = self.lower_bound(i, placed, budget)
        if lb > budget:
            self.memo[key] = (lb, False)
            return lb
        bound = budget
        best: tuple[int, _Piece] | None = None
        for piece in self.candidates(i, placed, bound):
            if piece.cost > bound:
                continue
            sub = self.solve(i + 1, placed | piece.mask, bound - piece.cost)
            total = piece.cost + sub
            if total <= bound:
                best = (total, piece)
                bound = total - 1
                if bound < 0:
                    break
        if best is not None:
            self.memo[key] = (best[0], True)
            self.choice[key] = best[1]
            return best[0]
        self.memo[key] = (budget + 1, False)
        return budget + 1

    def problem_cells(self, piece: _Piece, placed: int) -> int:
        """The cells a repair changes: missing and wrong-terrain cells, or the whole piece for a broken rule."""
        if piece.terrain is None:
            return 0
        cells = piece.mask & ~(self.new[piece.terrain] & ~placed)
        if piece.rule in ("fallback_not_allowed", "ruins_not_covered"):
            cells |= piece.mask
        return cells

    def coin_range(self, i: int, placed: int, seen: dict[tuple[int, int], tuple[int, int]]) -> tuple[int, int]:
        """The fewest and most coin shapes over every explanation from (i, placed) on (a legal state)."""
        key = (i, placed)
        if key in seen:
            return seen[key]
        if i == len(self.offers):
            return (0, 0)
        low, high = 99, -1
        for piece in self.candidates(i, placed, 0):
            if self.solve(i + 1, placed | piece.mask, 0) != 0:
                continue
            a, b = self.coin_range(i + 1, placed | piece.mask, seen)
            coin = int(piece.coin and not piece.fallback)
            low, high = min(low, a + coin), max(high, b + coin)
        seen[key] = (low, high)
        return low, high

    def optimal_cells(self, i: int, placed: int, value: int, seen: dict[tuple[int, int], int]) -> int:
        """Every cell that some cheapest repair from (i, placed) changes: the places one can't tell apart."""
        key = (i, placed)
        if key in seen:
            return seen[key]
        if i == len(self.offers):
            out = self.new_all & ~placed
        else:
            out = 0
            for piece in self.candidates(i, placed, value):
                rest = value - piece.cost
                if rest < 0 or self.solve(i + 1, placed | piece.mask, rest) != rest:
                    continue
                out |= self.problem_cells(piece, placed) | self.optimal_cells(i + 1, placed | piece.mask, rest, seen)
        seen[key] = out
        return out

    def path(self) -> list[tuple[Step, _Piece]]:
        out: list[tuple[Step, _Piece]] = []
        placed = 0
        for i, offer in enumerate(self.offers):
            piece = self.choice[(i, placed)]
            out.append((offer.step, piece))
            placed |= piece.mask
        return out


# -- the referee -------------------------------------------------------------------------------------------------

def check_season(before: Board, after: Board, cards: Sequence[str], *, solo: bool = False,
                 unique_cards: bool = True, ruins_rule: str = RUINS_NORMAL) -> Verdict:
    """Explain the season's new cells as the drawings of `cards` (revealed in this order).

    `solo` places ambush monsters by the solo corner walk (exactly there, or no monster when it fits nowhere);
    otherwise a neighbour draws them anywhere legal, with the 1×1 fallback. `ruins_rule` is the table's
    (`Setup.ruins_rule`): what a Ruins card allows when no shape can cover a ruins space.
    """
    if ruins_rule not in RUINS_RULES:
        raise RefereeError(f"unknown ruins rule {str(ruins_rule)[:20]!r} (expected one of: {', '.join(RUINS_RULES)})")
    if before.side != after.side:
        raise RefereeError(f"the maps are of different sides ({before.side} before, {after.side} after)")
    steps = season_steps(cards, unique=unique_cards)
    problems: list[Problem] = []
    before_filled = 0
    new: dict[Terrain, int] = {t: 0 for t in DRAWABLE}
    changed: list[Cell] = []
    for idx, (b, a) in enumerate(zip(before.flat, after.flat, strict=True)):
        if b is not Terrain.EMPTY:
            before_filled |= 1 << idx
            if a is not b:
                changed.append(ALL_CELLS[idx])
        elif a is not Terrain.EMPTY:
            new[a] |= 1 << idx
    for cell in changed:
        was, now = before.at(cell), after.at(cell)
        what = "erased" if now is Terrain.EMPTY else f"changed to {now.value}"
        problems.append(Problem("changed_cell", (cell,), None,
                                f"{_where(cell)}: {was.value} drawn before this season was {what}"))
    search = _Search(after.side, before_filled, new, steps, solo, after.grid, ruins_rule)
    try:
        cost = -1
        for budget in range(MAX_REPAIR + 1):
            value = search.solve(0, 0, budget)
            if value <= budget:
                cost = value
                break
        if cost < 0:
            raise _NodeLimit
    except _NodeLimit:
        # too far from anything the cards allow to say which squares: often a misread photo or the wrong season
        return Verdict((), (*problems, Problem("too_many", (), None,
                                                f"more than {MAX_REPAIR} squares (or too many possibilities) differ "
                                                "from what the cards allow")), False)
    return _report(search, after, problems, cost)


def _report(search: _Search, after: Board, problems: list[Problem], cost: int) -> Verdict:
    drawings: list[Drawing] = []
    placed = 0
    for i, (step, piece) in enumerate(search.path()):
        filled = search.before_filled | placed  # the map at the moment of this drawing
        placed |= piece.mask
        name = card_name(step.card)
        if piece.terrain is None:
            if piece.rule == "missing_drawing":
                problems.append(Problem("missing_drawing", (), step.card, f"no drawing found for {name}"))
            continue
        drawings.append(Drawing(step.card, piece.terrain, _cells(piece.mask), piece.coin and not piece.fallback,
                                piece.fallback))
        rem = search.new[piece.terrain]
        missing = piece.mask & ~search.new_all
        wrong = piece.mask & search.new_all & ~rem
        if piece.rule == "wrong_terrain":
            wrong = piece.mask
        if missing:
            problems.append(Problem("missing_cell", _cells(missing), step.card,
                                    f"{name} ({piece.terrain.value}) would also cover {_where_many(missing)}, "
                                    "which is empty"))
        if wrong:
            problems.append(Problem("wrong_terrain", _cells(wrong), step.card,
                                    f"{name} offers {_terrain_list(step)}: {_where_many(wrong)} "
                                    f"would be {piece.terrain.value}"))
        if piece.rule == "fallback_not_allowed":
            problems.append(Problem("fallback_not_allowed", _cells(piece.mask), step.card,
                                    f"{name}: a 1×1 square is drawn only when no shape fits, and one still fitted"))
        elif piece.rule == "ruins_not_covered" and not search.ruins_coverable(i, filled):
            # only under the printed rulebook: no shape could cover ruins, so the card called for one square
            problems.append(Problem("ruins_not_covered", _cells(piece.mask), step.card,
                                    f"{name}: no shape could cover a ruins space, so the ruins rule in play (the "
                                    "printed rulebook's) calls for a single 1×1 square of any terrain instead",
                                    single_square=True))
        elif piece.rule == "ruins_not_covered":
            problems.append(Problem("ruins_not_covered", _cells(piece.mask), step.card,
                                    f"{name} had to cover a ruins space, and it could"))
    extra = search.new_all & ~placed
    if extra:
        likely = _likely_card(extra, drawings, after)
        hint = f" (the nearest drawing of that terrain is {card_name(likely)})" if likely else ""
        problems.append(Problem("extra_cell", _cells(extra), likely,
                                f"{_where_many(extra)}: no revealed card drew this{hint}"))
    if cost:
        search.limit = search.nodes + ALTERNATIVES_LIMIT
        try:
            others = search.optimal_cells(0, 0, cost, {}) & ~_mask([c for p in problems for c in p.cells])
        except _NodeLimit:
            others = 0
        if others:
            problems.append(Problem("alternative", _cells(others), None,
                                    f"or the slip is at {_where_many(others)} instead: the cards explain the map "
                                    "just as well that way"))
    coins = None
    if not cost and not problems:
        search.limit = search.nodes + COIN_RANGE_LIMIT
        try:
            coins = search.coin_range(0, 0, {})
        except _NodeLimit:
            coins = None  # too many readings to go through: the one found stands alone
    return Verdict(tuple(drawings), tuple(problems), coin_range=coins)


def _likely_card(extra: int, drawings: list[Drawing], after: Board) -> str | None:
    """The card whose drawing of the same terrain lies nearest to the unexplained cells."""
    best: tuple[int, str] | None = None
    for cell in _cells(extra):
        terrain = after.at(cell)
        for d in drawings:
            if d.terrain is not terrain:
                continue
            dist = min(abs(cell[0] - r) + abs(cell[1] - c) for r, c in d.cells)
            if best is None or dist < best[0]:
                best = (dist, d.card)
    return best[1] if best else None


def card_name(card_id: str) -> str:
    if card_id.startswith(AMBUSH_PREFIX):
        return f"{AMBUSH_BY_ID[card_id.removeprefix(AMBUSH_PREFIX)].name_en} ({card_id})"
    return f"{EXPLORE_BY_ID[card_id].name_en} ({card_id})"


def _terrain_list(step: Step) -> str:
    if step.kind == "ambush":
        return "monster"
    return "/".join(t.value for t in EXPLORE_BY_ID[step.card].terrains)


def _where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _where_many(mask: int) -> str:
    return "; ".join(_where(c) for c in _cells(mask))
