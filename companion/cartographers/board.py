"""The map: an 11×11 grid of terrains plus the side's printed ruins.

A Board is immutable; drawing returns a new Board, which keeps undo and replay
trivial and lets the session engine share boards between states safely.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

from .data import GRID_SIZE
from .shapes import Cell, Shape, orientations
from .sides import SideError, normalise_side, side_label, side_layout
from .terrain import PENCIL, Terrain, parse_terrain, shorten

N = GRID_SIZE
TERRAINS: tuple[Terrain, ...] = tuple(Terrain)  # iterating the enum class itself is slow on the scoring path
ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(N) for c in range(N))


ROW_LETTERS = "ABCDEFGHIJK"


def cell_name(row: int, col: int) -> str:
    """A space as the printed sheet and the grid editor name it: row letter A-K, column 1-11 (B4)."""
    return f"{ROW_LETTERS[row]}{col + 1}"


class BoardError(ValueError):
    """Bad map input; carries the offending cell so the CLI and UI can point at it by its sheet name (B4).

    `code` and `params` say what is wrong in a stable form, so the web app can say it in the page's language
    (the message itself is English, for the command line and logs).
    """

    def __init__(self, message: str, row: int | None = None, col: int | None = None, *, code: str = "bad_map",
                 **params: str):
        self.row, self.col = row, col
        self.code, self.params = code, params
        where = f"{cell_name(row, col)}: " if row is not None and col is not None else ""
        super().__init__(where + message)


def _neighbours(r: int, c: int) -> tuple[Cell, ...]:
    candidates = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return tuple((rr, cc) for rr, cc in candidates if 0 <= rr < N and 0 <= cc < N)


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {(r, c): _neighbours(r, c) for r in range(N) for c in range(N)}
NEIGHBOUR_INDICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(rr * N + cc for rr, cc in _neighbours(r, c)) for r in range(N) for c in range(N)
)
EDGE_INDICES: frozenset[int] = frozenset(
    r * N + c for r in range(N) for c in range(N) if r in (0, N - 1) or c in (0, N - 1)
)


def neighbours(r: int, c: int) -> tuple[Cell, ...]:
    """Orthogonal neighbours on the map (diagonals never count in Cartographers)."""
    return _NEIGHBOURS[(r, c)]


def on_edge(r: int, c: int) -> bool:
    return r in (0, N - 1) or c in (0, N - 1)


@dataclass(frozen=True)
class Board:
    side: str
    grid: tuple[tuple[Terrain, ...], ...]

    # -- construction -----------------------------------------------------
    @classmethod
    def blank(cls, side: str = "A") -> Board:
        side = _check_side(side)
        m = side_layout(side)
        rows = [[Terrain.EMPTY] * N for _ in range(N)]
        for r, c in m.mountains:
            rows[r][c] = Terrain.MOUNTAIN
        for r, c in m.wastelands:
            rows[r][c] = Terrain.WASTELAND
        for (r, c), t in m.predrawn:
            rows[r][c] = t
        return cls(side, tuple(tuple(row) for row in rows))

    @classmethod
    def from_words(cls, side: str, rows: Sequence[Sequence[str]]) -> Board:
        """Parse and check a grid of terrain words against the side's printed features.

        Mountains and wastelands are printed, so the grid must agree with the side
        exactly: a player's terrain on a mountain cell is a reading or typing error.
        """
        side = _check_side(side)
        if not isinstance(rows, Sequence) or isinstance(rows, str) or len(rows) != N:
            raise BoardError(f"the grid must have {N} rows", code="grid_rows")
        blank = cls.blank(side)
        predrawn = {cell for cell, _ in side_layout(side).predrawn}
        out: list[tuple[Terrain, ...]] = []
        for r, row in enumerate(rows):
            if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != N:
                raise BoardError(f"row {ROW_LETTERS[r]} must have {N} cells", code="row_cells", row=ROW_LETTERS[r])
            parsed = []
            for c, word in enumerate(row):
                try:
                    t = parse_terrain(word) if isinstance(word, str) else parse_terrain(repr(word))
                except ValueError as exc:
                    raise BoardError(str(exc), r, c, code="unknown_terrain") from None
                printed = blank.grid[r][c]
                if printed in (Terrain.MOUNTAIN, Terrain.WASTELAND) and t != printed:
                    raise BoardError(f"side {side_label(side)} has a printed {printed.value} here, not {t.value}", r, c,
                                     code="printed_here", side=side_label(side), printed=printed.value,
                                     terrain=t.value)
                if t in (Terrain.MOUNTAIN, Terrain.WASTELAND) and t != printed:
                    raise BoardError(f"side {side_label(side)} has no printed {t.value} here", r, c, code="not_printed",
                                     side=side_label(side), terrain=t.value)
                if (r, c) in predrawn and t not in (printed, Terrain.DESTROYED):
                    raise BoardError(f"this side has a pre-drawn {printed.value} here, not {t.value}", r, c,
                                     code="printed_here", side=side_label(side), printed=printed.value,
                                     terrain=t.value)
                parsed.append(t)
            out.append(tuple(parsed))
        return cls(side, tuple(out))

    def to_words(self) -> list[list[str]]:
        return [[t.value for t in row] for row in self.grid]

    # -- queries ----------------------------------------------------------
    @cached_property
    def flat(self) -> tuple[Terrain, ...]:
        """Row-major terrains, index r * 11 + c: the fast path for scoring."""
        return tuple(chain.from_iterable(self.grid))

    @cached_property
    def indices_by_terrain(self) -> dict[Terrain, list[int]]:
        out: dict[Terrain, list[int]] = {t: [] for t in TERRAINS}
        for i, t in enumerate(self.flat):
            out[t].append(i)
        return out

    def at(self, cell: Cell) -> Terrain:
        return self.grid[cell[0]][cell[1]]

    @cached_property
    def ruins(self) -> frozenset[Cell]:
        return frozenset(side_layout(self.side).ruins)

    def is_filled(self, cell: Cell) -> bool:
        return self.grid[cell[0]][cell[1]] is not Terrain.EMPTY

    def cells_of(self, terrain: Terrain) -> list[Cell]:
        return [ALL_CELLS[i] for i in self.indices_by_terrain[terrain]]

    @cached_property
    def empty_cells(self) -> frozenset[Cell]:
        return frozenset(self.cells_of(Terrain.EMPTY))

    @property
    def unfilled_ruins(self) -> frozenset[Cell]:
        return self.ruins & self.empty_cells

    # -- drawing ----------------------------------------------------------
    def draw(self, cells: Iterable[Cell], terrain: Terrain) -> Board:
        """Fill empty cells with a drawable terrain (hero included); refuses overlaps and off-map cells."""
        terrain = Terrain(terrain)
        if terrain not in PENCIL:
            raise BoardError(f"{terrain.value} cannot be drawn")
        cells = list(cells)
        rows = [list(row) for row in self.grid]
        for r, c in cells:
            if not (0 <= r < N and 0 <= c < N):
                raise BoardError("outside the map", r, c)
            if rows[r][c] is not Terrain.EMPTY:
                raise BoardError(f"already filled with {rows[r][c].value}", r, c)
            rows[r][c] = terrain
        return Board(self.side, tuple(tuple(row) for row in rows))

    def destroy(self, cells: Iterable[Cell]) -> Board:
        """Mark spaces destroyed (Heroes): filled, no terrain; printed mountains and wastelands stay as they are.

        Off-map cells are ignored because a hero's hits may fall outside the map and are simply lost.
        """
        rows = [list(row) for row in self.grid]
        for r, c in cells:
            if 0 <= r < N and 0 <= c < N and rows[r][c] not in (Terrain.MOUNTAIN, Terrain.WASTELAND):
                rows[r][c] = Terrain.DESTROYED
        return Board(self.side, tuple(tuple(row) for row in rows))

    def fits(self, cells: Iterable[Cell]) -> bool:
        empty = self.empty_cells
        return all(cell in empty for cell in cells)


def _check_side(side: str) -> str:
    side = normalise_side(side)
    try:
        side_layout(side)
    except SideError as exc:
        raise BoardError(str(exc)) from None
    return side


# -- placement ---------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    cells: tuple[Cell, ...]
    option: int  # index of the card's shape option; -1 for the 1×1 fallback
    covers_ruins: bool


def translations(shape: Shape) -> Iterator[tuple[Cell, ...]]:
    """Every in-map position of one fixed orientation."""
    h = max(r for r, _ in shape) + 1
    w = max(c for _, c in shape) + 1
    for r0 in range(N - h + 1):
        for c0 in range(N - w + 1):
            yield tuple((r0 + r, c0 + c) for r, c in shape)


def placements(board: Board, shape: Shape, *, rotate: bool = True) -> Iterator[tuple[Cell, ...]]:
    """Legal positions of a shape: inside the map, on empty cells only (ruins included)."""
    shapes = orientations(shape) if rotate else (shape,)
    empty = board.empty_cells
    seen: set[frozenset[Cell]] = set()
    for s in shapes:
        for cells in translations(s):
            if all(cell in empty for cell in cells):
                key = frozenset(cells)
                if key not in seen:
                    seen.add(key)
                    yield cells


RUINS_NORMAL = "normal"  # the rules we were given: no shape can cover ruins -> normal placement rules apply
RUINS_SINGLE_SQUARE = "single_square"  # the printed rulebook: no shape can cover ruins -> draw one 1x1 square
RUINS_RULES: tuple[str, ...] = (RUINS_NORMAL, RUINS_SINGLE_SQUARE)


def legal_placements(
    board: Board, options: Sequence[Shape], *, ruins_required: bool = False, ruins_rule: str = RUINS_NORMAL
) -> list[Placement]:
    """All legal placements for a card's options under the current rules.

    With a Ruins card pending, only placements covering an unfilled ruins space
    are legal. When none exists, the table's `ruins_rule` decides: the rules we
    were given (`normal`) let the shape be drawn anywhere it fits; the printed
    rulebook (`single_square`) replaces it with a 1×1 anywhere, so this returns []
    and the caller falls back (see `fallback_needed`).
    """
    if ruins_rule not in RUINS_RULES:
        raise ValueError(f"unknown ruins rule {shorten(ruins_rule)!r} (expected one of: {', '.join(RUINS_RULES)})")
    result: list[Placement] = []
    anywhere: list[Placement] = []
    ruins = board.unfilled_ruins
    for i, shape in enumerate(options):
        for cells in placements(board, shape):
            covers = any(cell in ruins for cell in cells)
            if ruins_required and not covers:
                anywhere.append(Placement(cells, i, covers))
                continue
            result.append(Placement(cells, i, covers))
    if ruins_required and not result and ruins_rule == RUINS_NORMAL:
        return anywhere
    return result


def fallback_needed(
    board: Board, options: Sequence[Shape], *, ruins_required: bool = False, ruins_rule: str = RUINS_NORMAL
) -> bool:
    """True when no option can be drawn, so the player draws a single 1×1 square instead."""
    ruins = board.unfilled_ruins
    fits_somewhere = False
    for shape in options:
        for cells in placements(board, shape):
            if not ruins_required or any(cell in ruins for cell in cells):
                return False
            fits_somewhere = True
    return not (fits_somewhere and ruins_rule == RUINS_NORMAL)


def surrounded_mountains(board: Board) -> list[Cell]:
    """Mountains whose four orthogonal neighbours are filled: each is worth one coin, once."""
    flat = board.flat
    return [
        ALL_CELLS[m] for m in board.indices_by_terrain[Terrain.MOUNTAIN]
        if all(flat[n] is not Terrain.EMPTY for n in NEIGHBOUR_INDICES[m])
    ]


def new_mountain_coins(before: Board, after: Board) -> int:
    """Coins earned by a drawing: mountains surrounded after it that were not before."""
    return len(set(surrounded_mountains(after)) - set(surrounded_mountains(before)))
