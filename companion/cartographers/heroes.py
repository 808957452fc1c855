"""Cartographers Heroes rules on a map: hero hits, destroyed spaces and the ambushes' lasting effects.

Pure functions over `Board`s, used by the session engine. Where the facts leave a
choice open (may a hit pattern turn with the hero? who picks a destroyed space?),
the choice is the one recorded in `heroes_data.DOUBTS`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import Board, N, neighbours
from .data import AmbushCard, HeroCard
from .shapes import Cell
from .terrain import Terrain

ORIENTATIONS = 8  # 4 turns × mirror: the hit pattern turns with the hero (doubt "hero_rotation")


def orient_offset(offset: Cell, orientation: int) -> Cell:
    """Turn an offset a quarter clockwise `orientation % 4` times, mirrored left-right first when ≥ 4."""
    r, c = offset
    if orientation >= 4:
        c = -c
    for _ in range(orientation % 4):
        r, c = c, -r
    return r, c


def hero_hits(hero: HeroCard, cell: Cell, orientation: int = 0) -> tuple[Cell, ...]:
    """The spaces a hero placed at `cell` hits; hits falling off the map are simply lost."""
    if not 0 <= orientation < ORIENTATIONS:
        raise ValueError(f"orientation must be 0-{ORIENTATIONS - 1}")
    out = []
    for off in hero.hits:
        dr, dc = orient_offset(off, orientation)
        r, c = cell[0] + dr, cell[1] + dc
        if 0 <= r < N and 0 <= c < N:
            out.append((r, c))
    return tuple(sorted(out))


def apply_hits(board: Board, hits: Iterable[Cell]) -> Board:
    """Monsters on hit-marked spaces are destroyed (hit marks last, so this runs on every new map)."""
    doomed = [cell for cell in hits if board.at(cell) is Terrain.MONSTER]
    return board.destroy(doomed) if doomed else board


def alive(board: Board, cells: Iterable[Cell]) -> list[Cell]:
    """The monster's spaces not yet destroyed: its lasting effect stops once this is empty."""
    return [cell for cell in cells if board.at(cell) is Terrain.MONSTER]


def sealed_or_destroyed(board: Board, cells: Iterable[Cell]) -> bool:
    """Dragon Inferno's reward test: every space destroyed, or with all four sides filled or off the map."""
    for cell in cells:
        if board.at(cell) is Terrain.DESTROYED:
            continue
        if any(board.at(n) is Terrain.EMPTY for n in neighbours(*cell)):
            return False
    return True


def destroy_candidates(board: Board, card: AmbushCard, cells: Iterable[Cell]) -> list[Cell]:
    """Spaces the ambush may destroy next to its surviving monster spaces.

    Troll (after scoring): empty spaces. Gorgon (when drawn): any non-mountain space, filled or empty,
    that is not already destroyed (printed wastelands cannot change either).
    """
    living = set(alive(board, cells))
    around = sorted({n for cell in living for n in neighbours(*cell)} - living)
    if card.effect == "destroy_after_scoring":
        return [c for c in around if board.at(c) is Terrain.EMPTY]
    if card.effect == "destroy_when_drawn":
        return [c for c in around if board.at(c) not in (Terrain.MOUNTAIN, Terrain.WASTELAND, Terrain.DESTROYED)]
    return []


def zombie_spread(board: Board, cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """One simultaneous wave: every empty space next to a surviving zombie space."""
    living = alive(board, cells)
    return tuple(sorted({n for cell in living for n in neighbours(*cell) if board.at(n) is Terrain.EMPTY}))
