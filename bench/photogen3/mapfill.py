"""What the player has drawn: an 11x11 map filled by placing the game's shapes, as in a real game.

Shapes come from the explore cards' options and the ambush (monster) cards, in every rotation and
mirror image; each placement prefers to touch cells of the same terrain (players build clusters)
and cells already drawn, with a per-player strength, so maps have the clumpy look of real play.
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import AMBUSH_CARDS, EXPLORE_CARDS, MAPS
from companion.cartographers.shapes import normalise, orientations

from .rand import chance, uni

N = 11
DRAWN = ("forest", "village", "farm", "water", "monster")
LAND = DRAWN[:4]


def _explore_pool() -> list[tuple[tuple, tuple[str, ...]]]:
    pool = []
    for card in EXPLORE_CARDS:
        if card.kind != "explore":
            continue
        terrains = tuple(t.value for t in card.terrains)
        for option in card.options:
            pool.append((normalise(option.cells), terrains))
    return pool


EXPLORE = _explore_pool()
AMBUSH = [normalise(card.shape) for card in AMBUSH_CARDS]
SMALL = [((0, 0),), ((0, 0), (0, 1)), ((0, 0), (1, 0))]


def printed_cells(side: str) -> dict[tuple[int, int], str]:
    m = MAPS[side]
    out = {tuple(rc): "mountain" for rc in m.mountains}
    out.update({tuple(rc): "wasteland" for rc in m.wastelands})
    return out


def ruins_cells(side: str) -> list[tuple[int, int]]:
    return [tuple(rc) for rc in MAPS[side].ruins]


def _placements(shape, occupied: np.ndarray):
    """All (orientation, r0, c0) where the shape fits on free cells: arrays of top-left offsets per orientation."""
    out = []
    for o in orientations(shape):
        h = max(r for r, _ in o) + 1
        w = max(c for _, c in o) + 1
        ok = np.ones((N - h + 1, N - w + 1), dtype=bool)
        for r, c in o:
            ok &= ~occupied[r:r + N - h + 1, c:c + N - w + 1]
        rs, cs = np.nonzero(ok)
        if len(rs):
            out.append((o, rs, cs))
    return out


def _neighbour_counts(mask: np.ndarray) -> np.ndarray:
    m = mask.astype(np.int16)
    n = np.zeros_like(m)
    n[1:] += m[:-1]
    n[:-1] += m[1:]
    n[:, 1:] += m[:, :-1]
    n[:, :-1] += m[:, 1:]
    return n


def make_map(side: str, rng: np.random.Generator) -> tuple[list[list[str]], dict]:
    """The truth grid (row 0 = top printed row) and the sampled parameters."""
    printed = printed_cells(side)
    grid = np.full((N, N), "empty", dtype=object)
    occupied = np.zeros((N, N), dtype=bool)
    for (r, c), t in printed.items():
        grid[r, c] = t
        occupied[r, c] = True
    free = N * N - len(printed)

    stage_roll = rng.random()
    if stage_roll < 0.48:
        stage, fill = "early", uni(rng, 0.15, 0.65)
    elif stage_roll < 0.60:
        stage, fill = "late", uni(rng, 0.65, 0.88)
    else:
        stage, fill = "finished", uni(rng, 0.9, 1.0)
    target = max(4, int(round(fill * free)))
    monster_frac = uni(rng, 0.05, 0.15)
    monster_target = int(round(monster_frac * target))
    if monster_target == 0 and chance(rng, 0.6):
        monster_target = 1
    weights = rng.dirichlet(np.full(4, 4.0))
    cluster = uni(rng, 0.6, 3.0)
    contact = uni(rng, 0.0, 1.5)
    temperature = uni(rng, 0.6, 1.6)

    drawn = 0
    monsters = 0
    placements = 0
    while drawn < target:
        remaining = target - drawn
        want_monster = monsters < monster_target and rng.random() < max(0.15, (monster_target - monsters) / max(
            1, remaining) * 1.5)
        if want_monster:
            budget = monster_target - monsters
            shapes = [s for s in AMBUSH if len(s) <= budget + 1] or SMALL[: 1 + (budget > 1)]
            shape = shapes[int(rng.integers(len(shapes)))]
            terrain = "monster"
        else:
            shape, terrains = EXPLORE[int(rng.integers(len(EXPLORE)))]
            tw = np.array([weights[LAND.index(t)] for t in terrains])
            terrain = terrains[int(rng.choice(len(terrains), p=tw / tw.sum()))]
            if chance(rng, 0.06):  # a rift / ruins single
                shape = SMALL[0]
        candidates = []
        tries = [shape] + [s for s in (SMALL[1], SMALL[0]) if len(s) < len(shape)]
        if len(shape) > remaining + 1:
            tries = [s for s in tries if len(s) <= remaining + 1] or [SMALL[0]]
        for s in tries:
            candidates = _placements(s, occupied)
            if candidates:
                break
        if not candidates:
            break
        same = _neighbour_counts(grid == terrain)
        anyf = _neighbour_counts(occupied & (grid != "mountain") & (grid != "wasteland"))
        best, best_score = None, -1e9
        for o, rs, cs in candidates:
            score = np.zeros(len(rs))
            for r, c in o:
                score += cluster * same[rs + r, cs + c] + contact * anyf[rs + r, cs + c]
            score += rng.gumbel(size=len(rs)) * temperature
            i = int(np.argmax(score))
            if score[i] > best_score:
                best, best_score = (o, int(rs[i]), int(cs[i])), float(score[i])
        o, r0, c0 = best
        for r, c in o:
            grid[r0 + r, c0 + c] = terrain
            occupied[r0 + r, c0 + c] = True
        drawn += len(o)
        placements += 1
        if terrain == "monster":
            monsters += len(o)

    rows = [[str(grid[r, c]) for c in range(N)] for r in range(N)]
    counts = {t: int((grid == t).sum()) for t in DRAWN}
    info = {"stage": stage, "fill_target": fill, "drawn": drawn, "free": free, "placements": placements,
            "monster_frac_target": monster_frac, "terrain_weights": weights, "cluster_pref": cluster,
            "contact_pref": contact, "placement_temperature": temperature, "counts": counts}
    return rows, info
