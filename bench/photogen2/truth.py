"""What is on the sheet (the map a player drew) and the truth JSON written beside each photo.

The map content is made the way a game makes it: printed mountains (and side B's wastelands) at companion's
positions, then shapes from the real Explore and Ambush cards, turned and mirrored, dropped onto free cells in
one terrain each, so terrain comes in polyomino-like clusters as it does at the table. Early-season maps stop
part way; finished maps have every cell drawn.
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import AMBUSH_CARDS, EXPLORE_CARDS, GRID_SIZE, MAPS
from companion.cartographers.shapes import orientations
from companion.cartographers.terrain import Terrain

N = GRID_SIZE
DRAWN = ("forest", "village", "farm", "water")
PRINTED_WORDS = ("mountain", "wasteland")


def _shape_pool() -> list[tuple[tuple[int, int], ...]]:
    pool = []
    for card in EXPLORE_CARDS:
        for opt in card.options:
            pool.extend(orientations(opt.cells))
    for amb in AMBUSH_CARDS:
        pool.extend(orientations(amb.shape))
    return pool


_POOL = _shape_pool()


def printed_cells(side: str) -> dict[tuple[int, int], str]:
    """Cells printed on the sheet for `side`: mountains and (side B) wastelands."""
    m = MAPS[side]
    cells = {tuple(c): Terrain.MOUNTAIN.value for c in m.mountains}
    cells.update({tuple(c): Terrain.WASTELAND.value for c in m.wastelands})
    return cells


def ruins_cells(side: str) -> list[tuple[int, int]]:
    return [tuple(c) for c in MAPS[side].ruins]


def make_map(rng: np.random.Generator, side: str, full: bool) -> list[list[str]]:
    """An 11x11 grid of terrain words: printed cells, card-shaped clusters, some monsters; `full` = no empty cell."""
    grid = [["empty"] * N for _ in range(N)]
    for (r, c), word in printed_cells(side).items():
        grid[r][c] = word
    free = sum(row.count("empty") for row in grid)
    target = free if full else int(free * rng.uniform(0.15, 0.65))
    weights = np.array([0.3, 0.22, 0.24, 0.24])
    filled, tries = 0, 0
    monster_share = rng.uniform(0.04, 0.14)
    while filled < target and tries < 4000:
        tries += 1
        shape = _POOL[rng.integers(len(_POOL))]
        r0, c0 = int(rng.integers(-1, N)), int(rng.integers(-1, N))
        cells = [(r0 + r, c0 + c) for r, c in shape]
        if not all(0 <= r < N and 0 <= c < N and grid[r][c] == "empty" for r, c in cells):
            continue
        word = "monster" if rng.random() < monster_share else DRAWN[rng.choice(4, p=weights)]
        for r, c in cells:
            grid[r][c] = word
        filled += len(cells)
    if full:  # the last gaps of a finished map: single cells of a neighbour's terrain (or any)
        for r in range(N):
            for c in range(N):
                if grid[r][c] == "empty":
                    near = [grid[rr][cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                            if 0 <= rr < N and 0 <= cc < N and grid[rr][cc] not in ("empty", *PRINTED_WORDS)]
                    grid[r][c] = near[rng.integers(len(near))] if near and rng.random() < 0.7 else \
                        DRAWN[rng.integers(4)]
    return grid


def rotation_of(grid_corners: np.ndarray) -> int:
    """The sheet's rotation in the photo, clockwise in degrees, snapped to 0/90/180/270.

    Measured from the direction of the grid's printed top edge (top-left -> top-right corner) in image
    coordinates (y down): 0 = upright, 90 = the sheet's top points to the photo's right side, 180 = upside down.
    """
    d = grid_corners[1] - grid_corners[0]
    ang = float(np.degrees(np.arctan2(d[1], d[0]))) % 360
    return int(round(ang / 90) % 4) * 90


def truth_record(*, kind: str, style: str, difficulty: str, seed: int, side: str, template: str, grid,
                 legend_filled: bool, coins: int | None, markers_clipped: list[str], geometry: dict,
                 photo: dict, sheet: dict) -> dict:
    """The JSON written beside a photo, in the vision-devset format plus this generator's own keys."""
    return {
        "grid": grid,
        "side": side,
        "style": style,
        "template": template,
        "legend_filled": legend_filled,
        "kind": kind,
        "difficulty": difficulty,
        "coins": coins,
        "rotation_deg": rotation_of(np.asarray(geometry["grid_corners_px"], dtype=float)),
        "markers_clipped": markers_clipped,
        "seed": seed,
        "generator": "photogen2",
        "params": {"geometry": geometry, "photo": photo, "sheet": sheet},
    }
