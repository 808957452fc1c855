"""Fills a map like a game: polyominoes of 1-5 cells of one terrain, mostly next to earlier shapes."""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import MAPS

N = 11
TERRAINS = ("forest", "village", "farm", "water", "monster")


def printed_grid(side: str) -> list[list[str]]:
    m = MAPS[side]
    g = [["empty"] * N for _ in range(N)]
    for r, c in m.mountains:
        g[r][c] = "mountain"
    for r, c in m.wastelands:
        g[r][c] = "wasteland"
    return g


def _random_polyomino(size: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = list(cells)[rng.integers(len(cells))]
        dr, dc = ((0, 1), (1, 0), (0, -1), (-1, 0))[rng.integers(4)]
        cells.add((r + dr, c + dc))
    return sorted(cells)


def _orient(cells, k: int, flip: bool):
    out = []
    for r, c in cells:
        if flip:
            c = -c
        for _ in range(k):
            r, c = c, -r
        out.append((r, c))
    r0 = min(r for r, _ in out)
    c0 = min(c for _, c in out)
    return [(r - r0, c - c0) for r, c in out]


def fill_map(side: str, rng: np.random.Generator) -> tuple[list[list[str]], list[tuple[str, list]], dict]:
    """Returns (grid, shapes [(terrain, [(r, c), ...]) in drawing order], params)."""
    grid = printed_grid(side)
    free = [(r, c) for r in range(N) for c in range(N) if grid[r][c] == "empty"]
    u = rng.random()
    if u < 0.5:
        target_frac = float(rng.uniform(0.15, 0.65))
    elif u < 0.75:
        target_frac = float(rng.uniform(0.65, 0.97))
    else:
        target_frac = 1.0
    target = max(1, int(round(target_frac * len(free))))
    monster_frac = float(rng.uniform(0.05, 0.15))
    weights = rng.dirichlet([3, 3, 3, 3])  # per-player taste among the four normal terrains
    shapes: list[tuple[str, list]] = []
    drawn = 0
    monsters = 0
    tries = 0
    while drawn < target and tries < 4000:
        tries += 1
        remaining = target - drawn
        size = int(rng.choice([1, 2, 3, 4, 5], p=[0.08, 0.17, 0.25, 0.27, 0.23]))
        if tries > 800:
            size = 1 if tries > 1500 else min(size, 2)
        size = min(size, remaining)
        if monsters < monster_frac * (drawn + size) - 0.5 and rng.random() < 0.8:
            terrain = "monster"
        else:
            terrain = TERRAINS[int(rng.choice(4, p=weights))]
        base = _random_polyomino(size, rng)
        shape = _orient(base, int(rng.integers(4)), bool(rng.integers(2)))
        empties = [(r, c) for r, c in free if grid[r][c] == "empty"]
        if not empties:
            break
        adjacent = [(r, c) for r, c in empties if any(
            0 <= r + dr < N and 0 <= c + dc < N and grid[r + dr][c + dc] in TERRAINS
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))]
        pool = adjacent if adjacent and (shapes and rng.random() < 0.85) else empties
        ar, ac = pool[rng.integers(len(pool))]
        pr, pc = shape[rng.integers(len(shape))]
        cells = [(ar + r - pr, ac + c - pc) for r, c in shape]
        if all(0 <= r < N and 0 <= c < N and grid[r][c] == "empty" for r, c in cells):
            for r, c in cells:
                grid[r][c] = terrain
            shapes.append((terrain, cells))
            drawn += len(cells)
            monsters += len(cells) if terrain == "monster" else 0
    return grid, shapes, {"fill_target": round(target_frac, 3), "drawn_cells": drawn, "free_cells": len(free),
                          "monster_target": round(monster_frac, 3), "monster_cells": monsters,
                          "shapes": len(shapes)}
