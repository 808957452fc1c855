"""Solo mode: where an ambush's monster goes, and the final rating and title.

The rulebook says: start in the card's corner, move along the edge in the
arrow's direction, never rotate or mirror, and step one row/column inwards when
the shape fits nowhere on the current ring; an ambush that fits nowhere is
ignored (no 1×1 fallback in solo). The exact walk is the reference's
interpretation: the shape's bounding box travels around ring k, flush with the
current side, one space at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board, N
from .data import SCORING_BY_ID, AmbushCard, SoloTitle, solo_title
from .shapes import Cell, Shape, size


def ring_positions(k: int, h: int, w: int) -> list[Cell]:
    """Top-left positions of an h×w box around ring k, clockwise from the top-left corner."""
    rmax, cmax = N - k - h, N - k - w
    if rmax < k or cmax < k:
        return []
    lap: list[Cell] = []
    lap += [(k, c) for c in range(k, cmax + 1)]
    lap += [(r, cmax) for r in range(k + 1, rmax + 1)]
    lap += [(rmax, c) for c in range(cmax - 1, k - 1, -1)]
    lap += [(r, k) for r in range(rmax - 1, k, -1)]
    seen: set[Cell] = set()
    return [p for p in lap if not (p in seen or seen.add(p))]


def walk(k: int, h: int, w: int, corner: str, direction: str) -> list[Cell]:
    """Ring k's positions starting flush in `corner` and travelling in `direction`."""
    lap = ring_positions(k, h, w)
    if not lap:
        return []
    rmax, cmax = N - k - h, N - k - w
    start = {
        "top_left": (k, k),
        "top_right": (k, cmax),
        "bottom_right": (rmax, cmax),
        "bottom_left": (rmax, k),
    }[corner]
    if direction == "counterclockwise":
        lap = [lap[0], *reversed(lap[1:])]
    i = lap.index(start)
    return lap[i:] + lap[:i]


def ambush_placement(board: Board, shape: Shape, corner: str, direction: str) -> tuple[Cell, ...] | None:
    """First legal position of the printed shape by the solo walk, or None when the card is ignored."""
    h, w = size(shape)
    empty = board.empty_cells
    for k in range((N + 1) // 2):
        positions = walk(k, h, w, corner, direction)
        if not positions:
            break
        for r0, c0 in positions:
            cells = tuple((r0 + r, c0 + c) for r, c in shape)
            if all(cell in empty for cell in cells):
                return cells
    return None


def solo_ambush(board: Board, card: AmbushCard) -> tuple[Cell, ...] | None:
    return ambush_placement(board, card.shape, card.solo_corner, card.direction)


def threshold_sum(scoring_ids: Sequence[str]) -> int:
    return sum(SCORING_BY_ID[cid].solo_threshold for cid in scoring_ids)


def solo_rating(total: int, scoring_ids: Sequence[str]) -> tuple[int, SoloTitle]:
    """Rating = final score minus the four scoring cards' solo numbers; the title follows the rating."""
    rating = total - threshold_sum(scoring_ids)
    return rating, solo_title(rating)
