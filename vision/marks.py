"""Stage 5b: the Cartographers Heroes marks over the cells — a destroyed space's X and the hero's own 1×1.

Runs after the terrain reading (`vision.cells`) and only looks for two things the terrain stage has no word
for, so either stage can change without the other:

* **Destroyed (X)**: the facts say a destroyed space is marked with a large X. Players cross the whole
  space out, corner to corner, in pencil or pen, over whatever is there (an empty space, a drawn terrain, a
  monster under a hero's hit). `cross_strength` looks for two long dark strokes, one in each diagonal
  direction, each continuous over most of the cell's diagonal and darker than the cell's own fill. A
  terrain symbol shaped like an X (a monster drawn as a cross) is much shorter than the cell's diagonal and
  so does not count; hatching runs in one direction only.
* **Hero**: the hero is a 1×1 of its own drawn on an empty space. The facts do not say how it looks on
  paper; players draw a symbol — a star, a shield (with or without a star), a helmet — or write "H", in
  pencil, pen or a teal pencil (the app's hero colour). A small logistic model (`vision/data/marks.npz`,
  trained by `scripts/train_marks.py` on cells of synthetic photos of the development seed range) gives
  P(hero) from the cell's ink shape. A game has one hero a season, so more than `MAX_HEROES` hero-like
  cells are mostly a terrain symbol that looks like one: then only the clearly surer few (if at most
  `MAX_HEROES`) are heroes, and the rest are doubted.

Each mark carries its own confidence; a cell that might carry a mark but is not read as one gets its
confidence lowered, so the review (confidence < 0.7) asks about it like any other doubtful cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.features import SHAPE_MARGIN, Planes, box_region, crop, describe_maps, planes, shape_map
from vision.light import grid_paper, whiten

MODEL_PATH = Path(__file__).with_name("data") / "marks.npz"
N = 48  # cells are resampled to N×N for the cross search
CROSS_MARGIN = 0.04  # skip the grid line itself
CROSS_T, CROSS_S = 0.075, 0.01  # P(cross) = sigmoid((strength − T) / S), set on the development seeds
SHEET_FACTOR, SHEET_MARGIN = 2.2, 0.03  # a sheet's bar: 2.2 × its 75th-percentile cell + 0.03
EXCESS_GAIN = 2.0  # how much the darker-than-the-fill test counts against the stroke test
TOPHAT = 9  # px of N: wider than a bold stroke
CONTINUOUS = 0.15  # a stroke must be dark along all but this share of the cell's diagonal
HERO_DOUBT = 0.25  # a cell with P(hero) or P(cross) above this (but below ½) is doubted
MAX_HEROES = 4  # one hero a season
STRONG_HERO = 0.8  # among more than MAX_HEROES hero-like cells, those at least this sure may still be heroes


@dataclass
class MarkReading:
    """What the marks stage saw: per cell P(destroyed X), P(hero) and the mark read ("" = none)."""

    p_cross: np.ndarray  # 11×11
    p_hero: np.ndarray  # 11×11
    kind: list[list[str]]  # 11×11 "", "destroyed" or "hero"
    confidence: np.ndarray  # 11×11: confidence of the mark (or of "no mark") in each cell


@lru_cache(maxsize=1)
def _lines() -> tuple[np.ndarray, np.ndarray]:
    """Sample points (lines × samples × 2, unit cell x/y) of candidate strokes near each diagonal."""
    u = np.linspace(-0.56, 0.56, 81)  # denser than a pixel: hatching must not alias into a line
    fams = []
    for sign in (1.0, -1.0):  # down-right (top-left → bottom-right) and up-right
        lines = []
        for ang in np.deg2rad(np.arange(24.0, 66.1, 3.0)):  # a quick X is often far from 45°
            d = np.array([np.cos(ang), sign * np.sin(ang)])
            nrm = np.array([-d[1], d[0]])
            for off in np.arange(-0.12, 0.1201, 0.03):
                lines.append(0.5 + off * nrm + u[:, None] * d)
        fams.append(np.clip(np.array(lines), 0.0, 1.0 - 1e-6))
    return fams[0], fams[1]


def cross_strength(dark: np.ndarray) -> float:
    """`cross_strengths(dark)[0]`: the strength that decides."""
    return cross_strengths(dark)[0]


def cross_strengths(dark: np.ndarray) -> tuple[float, float]:
    """How clearly a cell (a 2-D darkness crop, 0 = paper) is crossed out: the weaker of the two diagonals.

    A diagonal's strength is the best candidate line's 15th-percentile darkness above the cell's own fill,
    less the family's typical line: a line must be dark along 85 % of the cell's diagonal to count (a monster
    drawn as a cross reaches about 70 %), and one line, not every line, must stand out (hatching too dense to
    resolve looks like a tone in every direction). The second number leaves out the darker-than-the-fill
    test: when only it sees an X (an X over a dark fill, or a dark tone) the cell is doubted, not changed.
    """
    return cross_strengths_many([dark])[0]


def cross_strengths_many(darks: list[np.ndarray]) -> list[tuple[float, float]]:
    """`cross_strengths` of many cells at once: the line samples of all cells are taken and ranked in one
    batch (a reading has ~110 cells; per-cell numpy calls were most of the marks stage). Same numbers."""
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(darks)
    rows, raws, tops = [], [], []
    for j, dark in enumerate(darks):
        a = np.asarray(dark, np.float32)
        if a.size == 0 or min(a.shape) < 4:
            continue
        raw = cv2.resize(a, (N, N), interpolation=cv2.INTER_AREA)
        # White top-hat: what is darker than the cell's own fill and narrower than a few pixels — strokes, not
        # the fill they cross (a marker fill, or the paper between hatching lines, is the background).
        rows.append(j)
        raws.append(raw)
        tops.append(np.clip(raw - cv2.morphologyEx(raw, cv2.MORPH_OPEN, np.ones((TOPHAT, TOPHAT), np.uint8)), 0, 1))
    if not rows:
        return out
    raw, a = np.stack(raws), np.stack(tops)
    fill = np.percentile(raw.reshape(len(rows), -1), 60, axis=1)
    k = int(CONTINUOUS * _lines()[0].shape[1])
    at = np.arange(len(rows))
    per_fam, strokes = [], []
    for fam in _lines():
        idx = (fam * N).astype(int)
        line = np.partition(a[:, idx[..., 1], idx[..., 0]], k, axis=2)[..., k]
        # A stroke is one line; a texture (dense hatching blurred into a tone) is every line: count what
        # the best line has above the family's typical line …
        best = line.argmax(axis=1)
        # … and only as far as that line is darker than the cell's fill itself (pencil lines are darker
        # than the hatching they cross; a tone is not darker than itself).
        excess = np.partition(raw[at[:, None], idx[best, :, 1], idx[best, :, 0]], k, axis=1)[:, k]
        strokes.append(line[at, best] - np.median(line, axis=1))
        per_fam.append((excess, fill))
    for i, j in enumerate(rows):
        s = [float(st[i]) for st in strokes]
        o = [min(s[f], EXCESS_GAIN * (float(per_fam[f][0][i]) - float(per_fam[f][1][i]))) for f in range(2)]
        out[j] = (min(o), min(s))
    return out


def cross_threshold(strengths) -> float:
    """The sheet's own bar for an X: dense hatching that blurs into a tone lifts every cell of a sheet a little,
    so an X must also stand well above the sheet's typical cell (most cells of any map are not destroyed)."""
    s = np.asarray(list(strengths), np.float64)
    return max(CROSS_T, SHEET_FACTOR * float(np.percentile(s, 75)) + SHEET_MARGIN) if s.size >= 20 else CROSS_T


def cross_probability(strength: np.ndarray | float, threshold: float = CROSS_T) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(np.asarray(strength, np.float64) - threshold) / CROSS_S))


@lru_cache(maxsize=1)
def _model(path: str = str(MODEL_PATH)) -> tuple[np.ndarray, float] | None:
    p = Path(path)
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        return z["coef"].astype(np.float32).ravel(), float(z["intercept"].ravel()[0])


def hero_features(ink: np.ndarray, stroke: np.ndarray | None = None) -> np.ndarray:
    """The hero model's input for one cell: the shapes of all its ink and of its dark strokes (as
    `vision.features` describes symbols), plus how much of the cell is inked."""
    return hero_features_many([ink], [stroke])[0]


def hero_features_many(inks: list[np.ndarray], strokes: list[np.ndarray | None],
                       ink_shapes: list[np.ndarray | None] | None = None) -> np.ndarray:
    """(n, D) `hero_features` of n cells, their shape descriptors in one batch (`describe_maps`; same numbers).

    `ink_shapes`: per cell, the descriptor of its ink's shape map when the cell stage already made it
    (`vision.features.plain_ink_shapes`: the same map of the same crop), or None; those are not made again.
    """
    maps_a, maps_b, extra = [], [], []
    known = [None] * len(inks) if ink_shapes is None else ink_shapes
    for ink, stroke, kn in zip(inks, strokes, known, strict=True):
        a = np.asarray(ink, np.float32)
        b = np.zeros_like(a) if stroke is None else np.asarray(stroke, np.float32)
        h, w = a.shape[0] // 8, a.shape[1] // 8
        inner = a[h : a.shape[0] - h, w : a.shape[1] - w]
        cov = float((inner > 0.22).mean()) if inner.size else 0.0
        dark = float((b > 0.3).mean()) if b.size else 0.0
        maps_a.append(shape_map(a) if kn is None else None)
        maps_b.append(shape_map(b, 0.3))
        extra.append([cov, cov * cov, dark])
    n = len(maps_a)
    desc = describe_maps(maps_a + maps_b)
    for k, kn in enumerate(known):
        if kn is not None:
            desc[k] = kn
    return np.concatenate([desc[:n], desc[n:], np.asarray(extra, np.float64).reshape(n, 3)], axis=1
                          ).astype(np.float32)


def hero_probability(features: np.ndarray) -> np.ndarray | None:
    """(n,) P(hero) for (n, D) `hero_features`; None when no model is shipped."""
    m = _model()
    if m is None or len(features) == 0 or features.shape[1] != m[0].shape[0]:  # no model, or one for other features
        return None
    coef, b = m
    z = features.astype(np.float32) @ coef + b
    return 1.0 / (1.0 + np.exp(-z))


def cell_measures(norm: np.ndarray | None, boxes: dict, origin: tuple[int, int] = (0, 0),
                  given: Planes | None = None, ink_shapes: dict | None = None) -> tuple[dict, dict]:
    """Per cell (of `boxes`): its cross strengths (`cross_strengths`) and its hero features.

    `norm` (the whitened sheet) may be the part of the image from `origin` (row, column) that holds the boxes
    (`box_region`); `given` are its planes when already computed (then `norm` is not needed), and
    `ink_shapes` the cells' ink shape descriptors made from them (`vision.features.plain_ink_shapes`), if any.
    """
    p = planes(norm) if given is None else given
    origin = origin if given is None else p.origin
    dark = np.clip(1.0 - p.lab[..., 0] / 100.0, 0, 1)
    cells = list(boxes)
    cross = cross_strengths_many([crop(dark, boxes[c], CROSS_MARGIN, origin) for c in cells])
    feats = hero_features_many([crop(p.ink, boxes[c], SHAPE_MARGIN, origin) for c in cells],
                               [crop(p.stroke, boxes[c], SHAPE_MARGIN, origin) for c in cells],
                               None if ink_shapes is None else [ink_shapes.get(c) for c in cells])
    return dict(zip(cells, cross, strict=True)), dict(zip(cells, feats, strict=True))


def read_marks(norm: np.ndarray, boxes: dict, predrawn=frozenset(), grid_size: int = 11,
               given: Planes | None = None, ink_shapes: dict | None = None) -> MarkReading:
    """Look for X marks and heroes in the cells of `boxes` (every cell but printed mountains and wastelands,
    on the photographed grid); a side's pre-drawn terrain (`predrawn`) may be destroyed but holds no hero.

    `given`: the planes of `norm` whitened by the paper of these same boxes (`vision.cells` computes them for
    the terrain reading when its cells are these), so they are not computed twice; `ink_shapes` (with
    `given` only): the terrain reading's ink shape descriptors of those cells (`vision.features.plain_ink_shapes`).
    """
    if given is None:
        # As the terrain stage sees it: the grid's paper is white; only the rectangle of the boxes is computed.
        region = box_region(boxes.values(), norm.shape)
        white = whiten(norm[region], grid_paper(norm, boxes))
        strength, feats = cell_measures(white, boxes, (region[0].start, region[1].start))
    else:
        strength, feats = cell_measures(None, boxes, given=given, ink_shapes=ink_shapes)
    cells = list(boxes)
    p_cross = np.zeros((grid_size, grid_size))
    p_hero = np.zeros((grid_size, grid_size))
    bar = cross_threshold(v[0] for v in strength.values())
    p_stroke = np.zeros((grid_size, grid_size))
    for cell in cells:
        p_cross[cell] = float(cross_probability(strength[cell][0], bar))
        p_stroke[cell] = float(cross_probability(strength[cell][1], bar))
    ph = hero_probability(np.stack([feats[c] for c in cells])) if cells else None
    if ph is not None:
        for cell, v in zip(cells, ph, strict=True):
            p_hero[cell] = 0.0 if cell in predrawn else float(v)
    return decide(p_cross, p_hero, cells, grid_size, p_stroke)


def decide(p_cross: np.ndarray, p_hero: np.ndarray, cells, grid_size: int = 11,
           p_stroke: np.ndarray | None = None) -> MarkReading:
    """The mark in each cell and its confidence, from the two probabilities (an X wins over a hero);
    `p_stroke` (P(cross) from the strokes alone) doubts cells where only that sees an X."""
    kind = [[""] * grid_size for _ in range(grid_size)]
    conf = np.ones((grid_size, grid_size))
    heroes = {c for c in cells if p_hero[c] >= 0.5 and p_cross[c] < 0.5}
    crowd = len(heroes) > MAX_HEROES
    if crowd:  # a few clear heroes among look-alikes stay; a crowd of clear ones is a terrain's symbol
        strong = {c for c in heroes if p_hero[c] >= STRONG_HERO}
        heroes = strong if len(strong) <= MAX_HEROES else set()
    for cell in cells:
        pc, ph = float(p_cross[cell]), float(p_hero[cell])
        if pc >= 0.5:
            kind[cell[0]][cell[1]] = "destroyed"
            conf[cell] = pc
        elif cell in heroes:
            kind[cell[0]][cell[1]] = "hero"
            conf[cell] = ph * (1 - pc)
        else:
            doubt = max(pc, 0.5 if crowd and ph >= 0.5 else ph,
                        0.5 if p_stroke is not None and p_stroke[cell] >= 0.5 else 0.0)
            if doubt > HERO_DOUBT:
                conf[cell] = 1 - doubt
    return MarkReading(p_cross, p_hero, kind, conf)


def apply_marks(grid: list[list[str]], confidence: np.ndarray, marks: MarkReading) -> int:
    """Write the marks into the terrain reading (in place); returns how many cells became hero/destroyed.

    A cell without a mark keeps its terrain; its confidence is capped by the chance that it has none.
    """
    n = 0
    for r, row in enumerate(marks.kind):
        for c, k in enumerate(row):
            if k:
                grid[r][c] = k
                confidence[r, c] = marks.confidence[r, c]
                n += 1
            elif marks.confidence[r, c] < 1:
                confidence[r, c] = min(float(confidence[r, c]), float(marks.confidence[r, c]))
    return n
