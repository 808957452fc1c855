"""Classification stage 2: which filled cells were drawn alike — the sheet's own classes.

A player draws every forest the same way (one pencil, one symbol), so cells that
look alike share a terrain even when we cannot yet say which. Cells are grouped
by average-linkage agglomerative clustering on an appearance distance that mixes
colour (hue histograms), lightness and, for neutral ink, the symbol's shape — and,
where its weights are installed, the learned likeness of `vision.cellsim`, which
tells apart symbols no generator we trained on drew (half of the distance).
Over-splitting is cheap (a group is one tap); merging two terrains is not, so
the threshold is strict. Groups are numbered by their first cell in reading
order, so the same photo always gives the same group ids (the review screen and
`mapsmith read --name` rely on that).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cellsim import distances as learned
from vision.features import EVEN_TEXTURE, HUE_BINS, CellArrays

MERGE_AT = 0.34  # average distance below which two clusters are one class
SHAPE_WEIGHT = 1.8  # how much symbol shape counts for neutral ink
LIGHT_SCALE = 60.0  # lightness difference that counts as much as a full colour change
THIN_COVERAGE = 0.3  # cells whose ink covers less than this are strokes (symbols), not fills
TEXTURE_LIGHT = 65.0  # coloured ink lighter than this and spread evenly is hatching (pencil), not a pen's symbol
SYMBOL_MAX_COVERAGE = 0.5  # concentrated strokes covering less than this are a symbol, however bold the pen
EMBED_MIX = 0.6  # share of the symbol model's opinion in the shape distance of two drawn symbols
LIKE_MIX = 0.5  # share of the learned likeness (`vision.cellsim`) in the distance, where that model is installed
LIKE_MERGE_AT = 0.12  # the learned distance (1 − cos) that counts as much as MERGE_AT of the measured one


@dataclass
class Group:
    id: int
    rows: list[int]  # indices into the CellArrays the groups were built from
    cells: list[tuple[int, int]]
    example: tuple[int, int]  # the most typical member (smallest mean distance to the others)
    cohesion: np.ndarray  # per member: 1 − mean distance to its group (0..1), how surely it belongs


def _hue_part(a: CellArrays) -> np.ndarray:
    """Hue histograms with the neutral bin kept apart (so black ink and blue ink are far apart)."""
    return a.hue.astype(np.float32)


def _cos_dist(x: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(x, axis=1, keepdims=True)
    u = x / np.maximum(n, 1e-6)
    d = 1.0 - u @ u.T
    blank = n[:, 0] < 1e-6
    d[blank, :] = 1.0
    d[:, blank] = 1.0
    d[np.ix_(blank, blank)] = 0.0
    return np.clip(d, 0, 2)


def symbol_embedding(a: CellArrays) -> tuple[np.ndarray, np.ndarray] | None:
    """(class probabilities of the symbol model, has-a-symbol mask) per cell, or None without a model.

    The model's classes (five terrains' symbols, scribbles, and each terrain's initials) say what a symbol
    *is* regardless of the hand's slant and size, which raw HOG distances cannot: two "F"s written at
    different angles are far apart in HOG but both "letter-forest" to the model.
    """
    from vision import symbols

    src = np.where((np.abs(a.shape).sum(axis=1) > 0)[:, None], a.shape, a.shape_ink)
    has = np.abs(src).sum(axis=1) > 0
    if not has.any() or not symbols.available():
        return None
    out = symbols.class_probs(src)
    return (out[0], has) if out is not None else None


def distances(a: CellArrays, like: np.ndarray | None = None) -> np.ndarray:
    """(n, n) appearance distance between cells, about 0 (same hand) .. 1+ (different terrains).

    `like`: the cells' learned likeness vectors (`vision.cellsim`, rows as `a`); the distance is then a mix of
    the measured one and the learned one, scaled so that both say "one class" at MERGE_AT."""
    h = _hue_part(a)
    # Hue: half the L1 distance of the histograms (0 = same colours, 1 = nothing in common), smoothed
    # over neighbouring bins so that two greens a bin apart are close.
    sm = h.copy()
    sm[:, :HUE_BINS] = (h[:, :HUE_BINS] + 0.5 * np.roll(h[:, :HUE_BINS], 1, axis=1)
                        + 0.5 * np.roll(h[:, :HUE_BINS], -1, axis=1)) / 2
    d_hue = 0.5 * np.abs(sm[:, None, :] - sm[None, :, :]).sum(axis=2)
    d_light = np.abs(a.light[:, None] - a.light[None, :]) / LIGHT_SCALE
    neutral = h[:, HUE_BINS]
    both_neutral = np.minimum(neutral[:, None], neutral[None, :])
    d_shape = _cos_dist(a.shape)
    d_shape_ink = _cos_dist(a.shape_ink)
    emb = symbol_embedding(a)
    if emb is not None:  # what the symbol model makes of both symbols counts as much as their raw shapes
        probs, has_sym = emb
        d_emb = 0.5 * np.abs(probs[:, None, :] - probs[None, :, :]).sum(axis=2)
        both = has_sym[:, None] & has_sym[None, :]
        d_shape_ink = np.where(both, (1 - EMBED_MIX) * d_shape_ink + EMBED_MIX * d_emb, d_shape_ink)
    # Symbols drawn over colour: compare the dark strokes where both have them.
    has = a.stroke > 0.02
    sym_both = (has[:, None] & has[None, :]).astype(np.float32)
    sym_one = (has[:, None] ^ has[None, :]).astype(np.float32)
    d_sym = sym_both * d_shape + sym_one * 0.6
    # Thin strokes in any colour (a blue ballpoint symbol, a green tree outline) are told apart by their shape.
    # Colour hatching and fills are texture: their strokes' directions are the hand's, not the terrain's, so two
    # textured cells are told apart by colour alone (pale pencil hatching covers little of a cell yet is no
    # symbol). Grey ink is left to its shape (graphite furrows spread over a cell too), and so is dark coloured
    # ink (ballpoint waves do).
    texture = (a.evenness >= EVEN_TEXTURE) & (h[:, HUE_BINS] < 0.5) & (a.light >= TEXTURE_LIGHT)
    # A symbol's strokes stay in a few places of the cell even when a bold pen covers a third of it.
    concentrated = (a.evenness < EVEN_TEXTURE) & (a.coverage < SYMBOL_MAX_COVERAGE)
    thin = (((a.coverage < THIN_COVERAGE) | concentrated) & ~texture).astype(np.float32)
    thin_both = np.minimum(thin[:, None], thin[None, :])
    shape_w = np.maximum(both_neutral, thin_both) * (1.0 - (texture[:, None] & texture[None, :]))
    d = (d_hue + 0.5 * d_light + SHAPE_WEIGHT * shape_w * d_shape_ink
         + 0.5 * (1 - both_neutral) * d_sym)
    if like is not None:
        d = (1 - LIKE_MIX) * d + LIKE_MIX * (MERGE_AT / LIKE_MERGE_AT) * learned(like)
    np.fill_diagonal(d, 0.0)
    return d.astype(np.float32)


def cluster(d: np.ndarray, merge_at: float = MERGE_AT) -> list[list[int]]:
    """Average-linkage agglomerative clustering (n ≤ 121, so the plain O(n³) loop is instant)."""
    n = d.shape[0]
    clusters: list[list[int]] = [[i] for i in range(n)]
    if n < 2:
        return clusters
    D = d.astype(np.float64).copy()
    sizes = np.ones(n)
    alive = np.ones(n, bool)
    np.fill_diagonal(D, np.inf)
    members = {i: [i] for i in range(n)}
    while alive.sum() > 1:
        Dm = np.where(alive[:, None] & alive[None, :], D, np.inf)
        k = int(np.argmin(Dm))
        i, j = divmod(k, n)
        if Dm[i, j] > merge_at:
            break
        # merge j into i (Lance–Williams update for average linkage)
        D[i, :] = (sizes[i] * D[i, :] + sizes[j] * D[j, :]) / (sizes[i] + sizes[j])
        D[:, i] = D[i, :]
        D[i, i] = np.inf
        sizes[i] += sizes[j]
        alive[j] = False
        D[j, :] = np.inf
        D[:, j] = np.inf
        members[i] += members.pop(j)
    return [sorted(m) for m in members.values()]


def make_groups(a: CellArrays, rows: list[int] | np.ndarray, merge_at: float = MERGE_AT,
                like: np.ndarray | None = None) -> list[Group]:
    """Groups of the cells `rows` (the filled ones) of `a`, numbered 1.. in reading order of their first cell
    (`like`: learned likeness vectors of all of `a`'s rows, see `distances`)."""
    rows = [int(r) for r in rows]
    if not rows:
        return []
    sub = a.take(rows)
    d = distances(sub, None if like is None else like[rows])
    parts = cluster(d, merge_at)
    parts.sort(key=lambda p: min(sub.cells[i] for i in p))
    out = []
    for gid, p in enumerate(parts, start=1):
        dd = d[np.ix_(p, p)]
        mean = dd.sum(axis=1) / max(len(p) - 1, 1)
        ex = p[int(np.argmin(mean))] if len(p) > 1 else p[0]
        cohesion = np.clip(1.0 - mean / (2 * merge_at), 0, 1) if len(p) > 1 else np.array([0.5])
        out.append(Group(gid, [rows[i] for i in p], [sub.cells[i] for i in p], sub.cells[ex], cohesion))
    return out
