"""Build test maps from ASCII art or cell lists, checked against the side's printed features."""

from __future__ import annotations

from companion.cartographers.board import Board
from companion.cartographers.terrain import Terrain

SYMBOLS = {
    ".": Terrain.EMPTY,
    "r": Terrain.EMPTY,  # an unfilled ruins space, written 'r' only for readability
    "F": Terrain.FOREST,
    "V": Terrain.VILLAGE,
    "P": Terrain.FARM,
    "W": Terrain.WATER,
    "X": Terrain.MONSTER,
    "M": Terrain.MOUNTAIN,
    "#": Terrain.WASTELAND,
    "H": Terrain.HERO,  # Cartographers Heroes: the hero's own space
    "D": Terrain.DESTROYED,  # Heroes: a destroyed (X-marked) space
}


def ascii_board(side: str, art: str) -> Board:
    rows = [line.split("|")[-1].strip().replace(" ", "") for line in art.strip().splitlines()]
    grid = [[SYMBOLS[ch].value for ch in row] for row in rows]
    return Board.from_words(side, grid)


def board_with(side: str = "A", **cells: list[tuple[int, int]]) -> Board:
    """`board_with("A", forest=[(0, 0)], village=[...])` on a blank side."""
    board = Board.blank(side)
    for terrain, where in cells.items():
        board = board.draw(where, Terrain(terrain))
    return board
