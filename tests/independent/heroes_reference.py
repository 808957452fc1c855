"""An independent scorer for the 16 Cartographers Heroes scoring cards.

Written by the coordinator straight from the reference facts' `scoring_algorithm` texts
(`../shared/reference/cartographers/expansions.json`), without reading the product's implementation, so that a
cross-check against `companion.cartographers.scoring` means something. Deliberately plain: nested loops, a grid of
terrain words, no imports from the product.

Conventions: `grid` is 11 rows of 11 words from empty, forest, village, farm, water, monster, mountain, wasteland,
hero, destroyed (unfilled ruins are "empty"). A space is *filled* unless it is "empty".
"""
from __future__ import annotations

N = 11
BASE_TYPES = ("forest", "village", "farm", "water", "monster", "mountain")


def _nbrs(r: int, c: int):
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < N and 0 <= cc < N:
            yield rr, cc


def _clusters(grid, word):
    seen, out = set(), []
    for r in range(N):
        for c in range(N):
            if grid[r][c] != word or (r, c) in seen:
                continue
            stack, comp = [(r, c)], []
            seen.add((r, c))
            while stack:
                cell = stack.pop()
                comp.append(cell)
                for nb in _nbrs(*cell):
                    if nb not in seen and grid[nb[0]][nb[1]] == word:
                        seen.add(nb)
                        stack.append(nb)
            out.append(comp)
    return out


def _adjacent(comp):
    own = set(comp)
    return {nb for cell in comp for nb in _nbrs(*cell) if nb not in own}


def faunlost_thicket(g):
    best = 0
    for c in range(N):
        run = 0
        for r in range(N):
            run = run + 1 if g[r][c] == "forest" else 0
            best = max(best, run)
    return 2 * best


def deepwood(g):
    return 6 * sum(1 for k in _clusters(g, "forest")
                   if len(k) >= 5 and not any(g[r][c] == "village" for r, c in _adjacent(k)))


def heart_of_the_forest(g):
    n = 0
    for r in range(N):
        for c in range(N):
            if g[r][c] != "forest":
                continue
            ok = True
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < N and 0 <= cc < N and g[rr][cc] != "forest":
                    ok = False
            n += ok
    return 2 * n


def sleepy_valley(g):
    return 4 * sum(1 for row in g if row.count("forest") >= 3)


def craylund(g):
    return 7 * sum(1 for k in _clusters(g, "farm")
                   if sum(1 for r, c in _adjacent(k) if g[r][c] == "water") >= 3)


def ulems_wallow(g):
    return 4 * sum(1 for r in range(N) for c in range(N)
                   if g[r][c] == "water" and sum(1 for rr, cc in _nbrs(r, c) if g[rr][cc] == "farm") >= 2)


def clawsgrave_peaks(g):
    linked = set()
    for k in _clusters(g, "water"):
        adj = _adjacent(k)
        if any(g[r][c] == "farm" for r, c in adj):
            linked |= {(r, c) for r, c in adj if g[r][c] == "mountain"}
    return 5 * len(linked)


def jorekburg(g):
    n = 0
    for c in range(N):
        col = [g[r][c] for r in range(N)]
        if col.count("farm") == col.count("water") >= 1:
            n += 1
    return 4 * n


def traylo_monastery(g):
    n = 0
    for k in _clusters(g, "village"):
        s = set(k)
        if any(all((r, c + i) in s for i in range(4)) or all((r + i, c) in s for i in range(4)) for r, c in s):
            n += 1
    return 7 * n


def outer_enclave(g):
    return max((sum(1 for r, c in _adjacent(k) if g[r][c] == "empty") for k in _clusters(g, "village")), default=0)


def gnomish_colony(g):
    n = 0
    for k in _clusters(g, "village"):
        s = set(k)
        if any({(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= s for r, c in s):
            n += 1
    return 6 * n


def caravansary(g):
    return max((len({r for r, _ in k}) + len({c for _, c in k}) for k in _clusters(g, "village")), default=0)


def dwarvenholds(g):
    rows = sum(1 for r in range(N) if "empty" not in g[r] and "mountain" in g[r])
    cols = 0
    for c in range(N):
        col = [g[r][c] for r in range(N)]
        cols += "empty" not in col and "mountain" in col
    return 7 * (rows + cols)


def silos(g):
    return 10 * sum(1 for c in range(0, N, 2) if all(g[r][c] != "empty" for r in range(N)))


def banded_hills(g, hero_counts: bool):
    kinds = BASE_TYPES + (("hero",) if hero_counts else ())
    return 4 * sum(1 for row in g if len({w for w in row if w in kinds}) >= 5)


def starlit_sigil(g):
    return 4 * sum(1 for k in _clusters(g, "empty") if len(k) == 3)


CARDS = {
    "faunlost_thicket": faunlost_thicket, "deepwood": deepwood, "heart_of_the_forest": heart_of_the_forest,
    "sleepy_valley": sleepy_valley, "craylund": craylund, "ulems_wallow": ulems_wallow,
    "clawsgrave_peaks": clawsgrave_peaks, "jorekburg": jorekburg, "traylo_monastery": traylo_monastery,
    "outer_enclave": outer_enclave, "gnomish_colony": gnomish_colony, "caravansary": caravansary,
    "dwarvenholds": dwarvenholds, "silos": silos, "banded_hills": banded_hills, "starlit_sigil": starlit_sigil,
}


def score(card: str, grid, *, hero_counts_for_banded_hills: bool = True) -> int:
    if card == "banded_hills":
        return banded_hills(grid, hero_counts_for_banded_hills)
    return CARDS[card](grid)
