"""The finished map a player drew: which terrain is in each of the 121 cells (the truth grid).

Shapes are game-like polyominoes of 1-5 cells, placed touching what is already on
the map (players build outwards from earlier shapes), never on printed mountain or
wasteland cells; ruins cells may be drawn over, as in the game.
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import MAPS

TERRAINS = ("forest", "village", "farm", "water", "monster")

# Explore-card-like shapes, as (r, c) offsets.
SHAPES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0),),
    ((0, 0), (0, 1)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (0, 2), (0, 3)),
    ((0, 0), (0, 1), (1, 0), (1, 1)),
    ((0, 0), (1, 0), (2, 0), (2, 1)),
    ((0, 0), (0, 1), (0, 2), (1, 1)),
    ((0, 0), (0, 1), (1, 1), (1, 2)),
    ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    ((0, 0), (0, 1), (0, 2), (1, 0), (2, 0)),
    ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3)),
    ((0, 0), (1, 0), (1, 1), (1, 2), (0, 2)),
)


def _orient(shape, k: int, flip: bool):
    cells = [(r, -c) if flip else (r, c) for r, c in shape]
    for _ in range(k):
        cells = [(c, -r) for r, c in cells]
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return [(r - r0, c - c0) for r, c in cells]


def printed_grid(side: str) -> list[list[str]]:
    g = [["empty"] * 11 for _ in range(11)]
    for r, c in MAPS[side].mountains:
        g[r][c] = "mountain"
    for r, c in MAPS[side].wastelands:
        g[r][c] = "wasteland"
    return g


def fill_map(side: str, rng: np.random.Generator) -> tuple[list[list[str]], dict]:
    """Truth grid and the draw parameters (target fill, monster share)."""
    grid = printed_grid(side)
    free = [(r, c) for r in range(11) for c in range(11) if grid[r][c] == "empty"]
    target = int(round(rng.uniform(0.40, 0.95) * len(free)))
    monster_share = rng.uniform(0.05, 0.15)
    weights = rng.dirichlet(np.ones(4) * 3)
    filled: set[tuple[int, int]] = set()
    n_monster = 0
    tries = 0
    while len(filled) < target and tries < 4000:
        tries += 1
        shape = _orient(SHAPES[rng.integers(len(SHAPES))], int(rng.integers(4)), bool(rng.integers(2)))
        if len(filled) + len(shape) > target + 2:
            shape = shape[:1]
        r0, c0 = int(rng.integers(-1, 11)), int(rng.integers(-1, 11))
        cells = [(r0 + r, c0 + c) for r, c in shape]
        if any(not (0 <= r < 11 and 0 <= c < 11) or grid[r][c] != "empty" for r, c in cells):
            continue
        touches = any((r + dr, c + dc) in filled for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if filled and not touches and rng.random() < 0.8:
            continue
        want_monster = n_monster + len(cells) <= monster_share * max(target, 1) + 1 and rng.random() < 0.35
        terrain = "monster" if want_monster else str(rng.choice(TERRAINS[:4], p=weights))
        for r, c in cells:
            grid[r][c] = terrain
            filled.add((r, c))
        n_monster += len(cells) if terrain == "monster" else 0
    return grid, {"fill_target": target / len(free), "fill": len(filled) / len(free), "monster_share": monster_share}
