"""Polyomino-like shapes as frozen sets of (row, col) cells.

Shapes are not required to be connected: Forgotten Forest's coin option and
two ambush monsters are diagonal patterns, so connectivity is checked per card
against the reference's `orthogonally_connected` flag instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def normalise(cells: Iterable[Cell]) -> Shape:
    """Shift to a (0, 0) minimum and sort: the canonical form used for comparison."""
    cells = list(cells)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted({(r - r0, c - c0) for r, c in cells}))


def rotate(shape: Shape) -> Shape:
    """Quarter turn clockwise."""
    return normalise((c, -r) for r, c in shape)


def mirror(shape: Shape) -> Shape:
    """Left-right mirror image."""
    return normalise((r, -c) for r, c in shape)


@cache
def orientations(shape: Shape) -> tuple[Shape, ...]:
    """All distinct rotations and mirror images, in a stable order (printed one first)."""
    seen: list[Shape] = []
    current = normalise(shape)
    for flipped in (current, mirror(current)):
        s = flipped
        for _ in range(4):
            if s not in seen:
                seen.append(s)
            s = rotate(s)
    return tuple(seen)


def size(shape: Shape) -> tuple[int, int]:
    """Bounding box (height, width)."""
    return (max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1)


ORTHOGONAL_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
KING_STEPS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def _connected(shape: Shape, steps: tuple[tuple[int, int], ...]) -> bool:
    cells = set(shape)
    start = next(iter(cells))
    stack, seen = [start], {start}
    while stack:
        r, c = stack.pop()
        for dr, dc in steps:
            n = (r + dr, c + dc)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == cells


def is_orthogonally_connected(shape: Shape) -> bool:
    return _connected(shape, ORTHOGONAL_STEPS)


def is_king_connected(shape: Shape) -> bool:
    """Connected when diagonal touching counts: every printed shape satisfies this."""
    return _connected(shape, KING_STEPS)


def render(shape: Shape, mark: str = "X", blank: str = ".") -> str:
    """ASCII art for terminals and error messages."""
    h, w = size(shape)
    cells = set(shape)
    return "\n".join("".join(mark if (r, c) in cells else blank for c in range(w)) for r in range(h))
