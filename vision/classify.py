"""Stage 5: classify every grid cell as empty or one of the five drawable terrains, with a confidence.

Input is the light-normalised canonical image (paper = 1.0 in every channel).

* **Ink** is anything darker than paper in any channel: `1 - min(B, G, R)`.
* **Colour**: each ink pixel's colour is a direction away from white in Lab
  (pale pencil and dense marker of the same colour point the same way), so a
  pixel votes for the nearest example colour by cosine similarity, weighted by
  how much ink it carries. Bleed from a neighbour's strokes is outvoted.
* **Examples** come from the legend row the player filled in (one cell per
  terrain) — so red-or-brown villages and purple-or-black monsters need no
  configuration. A missing legend cell falls back to a default palette.
* **Shape**: example colours that cannot be told apart (graphite symbols, or a
  black monster next to a grey forest) form a group; inside a group the cell's
  ink pattern is matched to the legend examples by a HOG + density descriptor,
  then re-matched against class means of the confident cells (the sheet
  teaches itself the player's hand).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE
from vision.features import (
    box_region,
    crop,
    describe_maps,
    ink_and_chroma,
    ink_strength,  # noqa: F401  (the tests import it from here)
    median0,
    ruins_mask,
    shape_map,
    to_lab,
    weighted_mean,
)
from vision.geometry import Canon, printed_cells, ruins_cells
from vision.glare import CELL_FADED, glare_confidence_cap, glare_legend, outline_ratios
from vision.messages import Note

DRAWABLE: tuple[str, ...] = tuple(t.value for t in TERRAIN_DRAWABLE)
INK_T = 0.22  # ink strength above which a pixel counts as drawn on
COLOUR_MARGIN = 0.15  # fraction of a cell ignored at each edge for colour/coverage (grid lines, bleed)
SHAPE_MARGIN = 0.10  # symbols reach closer to the border; still skips the ruins' dashed inset
L_WEIGHT = 0.35  # how much lightness counts against chroma in a colour direction
SAME_COLOUR_COS = 0.96  # example colours closer than this need shapes to be told apart
# Players never draw a symbol twice at the same angle: the legend example is also matched turned by these.
VARIANT_ANGLES = (-24.0, -16.0, -8.0, 0.0, 8.0, 16.0, 24.0)
TOP_K = 3  # a class's similarity is the mean of its best TOP_K matches (examples and confident cells)

# Default palette (BGR 0..1) when the legend is not filled in: several typical pencils per terrain.
DEFAULT_PALETTE: dict[str, tuple[tuple[float, float, float], ...]] = {
    "forest": ((0.2, 0.55, 0.15), (0.15, 0.62, 0.30), (0.25, 0.42, 0.08)),
    "village": ((0.15, 0.15, 0.82), (0.14, 0.30, 0.55), (0.25, 0.10, 0.70)),
    "farm": ((0.15, 0.86, 0.97), (0.10, 0.58, 0.96), (0.30, 0.78, 0.90)),
    "water": ((0.85, 0.40, 0.15), (0.92, 0.62, 0.25), (0.65, 0.30, 0.10)),
    "monster": ((0.62, 0.20, 0.50), (0.45, 0.15, 0.35), (0.13, 0.13, 0.13)),
}


@dataclass
class Example:
    """One terrain's example appearance (from the legend or the default palette)."""

    terrain: str
    direction: np.ndarray  # unit colour direction (ΔL·w, a, b)
    chroma: float
    coverage: float | None  # None for palette examples
    patch: np.ndarray | None = None  # the legend cell's ink (for shape descriptors, computed on demand)
    shape: np.ndarray | None = None  # descriptor of the full cell
    shape_ruins: np.ndarray | None = None  # descriptor with the ruins glyph corner masked
    variants: tuple[np.ndarray, ...] = ()  # descriptors of the example turned by a few degrees
    variants_ruins: tuple[np.ndarray, ...] = ()
    from_legend: bool = True


@dataclass
class CellFeatures:
    coverage: float
    votes: np.ndarray  # ink-weighted votes per example index
    mean_cos: float  # how well the ink matches its best example colour (0..1)
    shape: np.ndarray | None
    ink: float  # mean ink strength of inked pixels
    colour: np.ndarray | None = None  # unit median colour direction of the cell's strong ink
    chroma: float = 0.0  # Lab chroma of that median colour


@dataclass
class Classification:
    grid: list[list[str]]
    confidence: np.ndarray  # 11×11 float 0..1
    examples: list[Example]
    style: str  # "colour", "symbols" or "mixed"
    warnings: list[Note]


def colour_vectors(lab: np.ndarray) -> np.ndarray:
    """(…, 3) colour-away-from-white vectors (ΔL·w, a, b), not normalised."""
    v = lab.astype(np.float32).copy()
    v[..., 0] = (v[..., 0] - 100.0) * L_WEIGHT
    return v


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.maximum(n, 1e-6)



def _shape_map(ink: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """The ink pattern cropped to its own extent (scale and position invariant), as `describe_maps` takes it:
    players draw the same symbol bigger or smaller, left or right in the cell."""
    a = ink.astype(np.float32)
    if keep is not None:
        a = a * keep
    return shape_map(a, INK_T, blank_is_none=False)


def shape_descriptor(ink: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """HOG of the cell's ink pattern + a coarse density map, L2-normalised (see `_shape_map`)."""
    return describe_maps([_shape_map(ink, keep)])[0]


def _example_from_cell(terrain: str, norm: np.ndarray, lab: np.ndarray, ink: np.ndarray,
                       box: tuple[float, float, float], origin: tuple[int, int] = (0, 0)) -> Example | None:
    ink_c = crop(ink, box, COLOUR_MARGIN, origin)
    on = ink_c > INK_T
    coverage = float(on.mean()) if on.size else 0.0
    if coverage < 0.02:
        return None
    strong = ink_c >= np.percentile(ink_c[on], 50)
    vec = colour_vectors(crop(lab, box, COLOUR_MARGIN, origin))[on & strong]
    mean = np.median(vec, axis=0)
    chroma = float(np.hypot(mean[1], mean[2]))
    patch = crop(ink, box, SHAPE_MARGIN, origin).astype(np.float32)
    return Example(terrain, _unit(mean), chroma, coverage, patch=patch)


def with_shapes(e: Example) -> Example:
    """Fill in an example's shape descriptors (only needed when colours cannot tell terrains apart)."""
    if e.patch is None or e.shape is not None:
        return e
    ink_s = e.patch
    keep = ruins_mask(ink_s.shape, SHAPE_MARGIN)
    h, w = ink_s.shape
    turned = [cv2.warpAffine(ink_s, cv2.getRotationMatrix2D((w / 2, h / 2), a, 1.0), (w, h)) for a in VARIANT_ANGLES]
    d = describe_maps([_shape_map(ink_s), _shape_map(ink_s, keep), *(_shape_map(t) for t in turned),
                       *(_shape_map(t, keep) for t in turned)])
    k = len(turned)
    e.shape, e.shape_ruins = d[0], d[1]
    e.variants = tuple(d[2 : 2 + k])
    e.variants_ruins = tuple(d[2 + k :])
    return e


def palette_examples() -> list[Example]:
    out = []
    for t, colours in DEFAULT_PALETTE.items():
        for bgr in colours:
            lab = to_lab(np.array([[bgr]], np.float32))[0, 0]
            v = colour_vectors(lab)
            out.append(Example(t, _unit(v), float(np.hypot(v[1], v[2])), None, from_legend=False))
    return out


def legend_examples(norm: np.ndarray, lab: np.ndarray, ink: np.ndarray, canon: Canon,
                    move_box=None, origin: tuple[int, int] = (0, 0)) -> dict[str, Example]:
    out = {}
    for terrain, box in canon.legend_boxes().items():
        if move_box is not None:
            box = move_box(box)
        ex = _example_from_cell(terrain, norm, lab, ink, box, origin)
        if ex is not None:
            out[terrain] = ex
    return out


def colour_groups(examples: list[Example]) -> list[int]:
    """Group index per example: examples whose colours cannot be told apart share a group."""
    n = len(examples)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            a, b = examples[i], examples[j]
            if a.terrain == b.terrain:
                continue
            cos = float(a.direction @ b.direction)
            if cos > SAME_COLOUR_COS or (a.chroma < 8 and b.chroma < 8 and cos > 0.85):
                parent[find(i)] = find(j)
    for i in range(n):  # same-terrain palette variants belong with their siblings' group
        for j in range(n):
            if examples[i].terrain == examples[j].terrain and find(i) != find(j):
                parent[find(i)] = find(j)
    roots = {r: k for k, r in enumerate(sorted({find(i) for i in range(n)}))}
    return [roots[find(i)] for i in range(n)]


def cell_features(lab: np.ndarray, ink: np.ndarray, box: tuple[float, float, float], examples: list[Example],
                  is_ruins: bool, want_shape: bool, origin: tuple[int, int] = (0, 0),
                  dirs: np.ndarray | None = None) -> CellFeatures:
    """`dirs`: the examples' directions stacked (computed here when not given; a pass over all cells gives it)."""
    ink_c = crop(ink, box, COLOUR_MARGIN, origin)
    if is_ruins:
        keep = ruins_mask(ink_c.shape, COLOUR_MARGIN)
        on = (ink_c > INK_T) & keep
        coverage = float(on.sum() / max(keep.sum(), 1))
    else:
        on = ink_c > INK_T
        coverage = np.count_nonzero(on) / max(ink_c.size, 1)
    votes = np.zeros(len(examples), np.float32)
    mean_cos = 0.0
    ink_mean = 0.0
    colour, chroma = None, 0.0
    if on.any():
        raw = crop(lab, box, COLOUR_MARGIN, origin)[on]  # once: the votes and the median both use it
        raw[:, 0] = (raw[:, 0] - 100.0) * L_WEIGHT  # `colour_vectors` of the inked pixels
        vec = _unit(raw)
        if dirs is None:
            dirs = np.stack([e.direction for e in examples])
        cos = vec @ dirs.T
        best = cos.argmax(axis=1)
        w = ink_c[on]
        votes = np.bincount(best, weights=w, minlength=len(examples)).astype(np.float32)
        mean_cos = float(weighted_mean(cos[np.arange(len(best)), best], w))
        ink_mean = float(w.mean())
        strong = w >= median0(w)
        median = median0(raw[strong])
        colour, chroma = _unit(median), float(np.hypot(median[1], median[2]))
    shape = None
    if want_shape:  # the map only: `_classify_pass` describes all cells' maps in one batch
        ink_s = crop(ink, box, SHAPE_MARGIN, origin)
        shape = _shape_map(ink_s, ruins_mask(ink_s.shape, SHAPE_MARGIN) if is_ruins else None)
    return CellFeatures(coverage, votes, mean_cos, shape, ink_mean, colour, chroma)


def _sigmoid(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-x)))


def classify_cells(norm: np.ndarray, canon: Canon, side: str, offsets: np.ndarray | None = None,
                   move_box=None, use_legend: bool = True, outline_norm: np.ndarray | None = None) -> Classification:
    """Classify all 121 cells; printed mountains/wastelands come from the side with confidence 1.

    `offsets` (11×11×2 canonical pixels, from `vision.gridfit`) move each cell onto the grid as photographed;
    `move_box` does the same for the legend squares below the grid. `use_legend=False` ignores the legend row
    (sheets that have none, or a blank one): the typical palette, then the sheet's own colours, are the examples.
    `outline_norm`, when `norm` has had its paper lines taken out (`vision.paperlines`), is the sheet before: the
    glare test measures the printed outlines there.
    """
    boxes = {(r, c): _shifted(canon.cell_box(r, c), offsets, r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)}
    legend_boxes = {t: (move_box(b) if move_box else b) for t, b in canon.legend_boxes().items()}
    # Only the cells, the legend squares and their outlines are read: Lab and ink of that rectangle alone.
    region = box_region([*boxes.values(), *(legend_boxes.values() if use_legend else ())], norm.shape)
    sub = norm[region]
    lab_r = to_lab(sub)
    ink_r = ink_and_chroma(sub, lab_r)
    lab, ink, org, full = lab_r, ink_r, (region[0].start, region[1].start), norm.shape[:2]
    o_sub = None if outline_norm is None else outline_norm[region]
    outline_ink = ink if o_sub is None else ink_and_chroma(o_sub, to_lab(o_sub))
    warnings: list[Note] = []
    legend = legend_examples(norm, lab, ink, canon, move_box, org) if use_legend else {}
    glared = sorted(glare_legend(outline_ink, legend_boxes, org, full), key=DRAWABLE.index) if use_legend else []
    if glared:  # a washed-out legend square would teach the wrong colour or shape
        warnings.append(Note.of("glare_legend", terrains=tuple(glared)))
        legend = {t: e for t, e in legend.items() if t not in glared}
    missing = [t for t in DRAWABLE if t not in legend and t not in glared]
    examples: list[Example] = [legend[t] for t in DRAWABLE if t in legend]
    if missing:
        if len(missing) < len(DRAWABLE):
            warnings.append(Note.of("legend_incomplete", terrains=tuple(missing)))
        elif use_legend:
            warnings.append(Note.of("legend_empty"))
    if missing or glared:
        examples += [e for e in palette_examples() if e.terrain in missing or e.terrain in glared]
    cov_ref = [e.coverage for e in examples if e.coverage is not None]
    thr = float(np.clip(0.35 * min(cov_ref), 0.025, 0.15)) if cov_ref else 0.08
    grid, conf, style, feats = _classify_pass(lab, ink, boxes, side, examples, thr, org)
    if missing:
        # Colour clustering, seeded by the typical palette: the cells it is sure about define this
        # sheet's own colour for each terrain, then every cell is classified again against those.
        learned = _learn_colours(grid, conf, feats, missing)
        if learned:
            examples = [e for e in examples if e.terrain not in learned] + list(learned.values())
            grid, conf, style, feats = _classify_pass(lab, ink, boxes, side, examples, thr, org)
    if glared and style != "colour":  # a symbol class lost its example: no drawn cell can be trusted
        for r in range(GRID_SIZE):
            for c in range(GRID_SIZE):
                if grid[r][c] in DRAWABLE:
                    conf[r, c] = min(conf[r, c], 0.5)
    printed = printed_cells(side)
    empty = {(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if grid[r][c] == "empty"}
    ratio = outline_ratios(outline_ink, boxes, empty, org, full)
    cap = glare_confidence_cap(ratio)
    washed = {(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)
              if ratio[r, c] < CELL_FADED and (r, c) not in printed}
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if (r, c) not in printed:
                conf[r, c] = min(conf[r, c], cap[r, c])
    # A highlight's halo upsets the light estimate around it (tinted paper, faded ink): doubt its neighbours too.
    halo = {(r + dr, c + dc) for r, c in washed for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - washed
    for r, c in halo:
        if 0 <= r < GRID_SIZE and 0 <= c < GRID_SIZE and (r, c) not in printed:
            conf[r, c] = min(conf[r, c], 0.5)
    if washed:
        warnings.append(Note.of("glare", n=len(washed)))
    return Classification(grid, conf, examples, style, warnings)


def _learn_colours(grid, conf, feats, terrains) -> dict[str, Example]:
    """This sheet's own colour for each terrain: the mean of the cells the palette pass was sure about."""
    out = {}
    for t in terrains:
        sure = [f for (r, c), f in feats.items() if grid[r][c] == t and conf[r, c] > 0.6 and f.colour is not None]
        if len(sure) >= 2:
            direction = _unit(np.mean([f.colour for f in sure], axis=0))
            out[t] = Example(t, direction, float(np.median([f.chroma for f in sure])), None, from_legend=False)
    return out


def _shifted(box, offsets, r, c):
    if offsets is None:
        return box
    x, y, s = box
    return (x + float(offsets[r, c, 0]), y + float(offsets[r, c, 1]), s)


def _classify_pass(lab, ink, boxes, side, examples, thr, origin=(0, 0)):
    """One classification of all cells against `examples`: (grid, confidence, style, features)."""
    groups = colour_groups(examples)
    n_groups = max(groups) + 1
    group_terrains = [sorted({examples[i].terrain for i in range(len(examples)) if groups[i] == g})
                      for g in range(n_groups)]
    shape_needed = any(len(t) > 1 for t in group_terrains)
    style = "colour" if not shape_needed else ("symbols" if n_groups == 1 else "mixed")
    if shape_needed:
        for e in examples:
            with_shapes(e)

    printed = printed_cells(side)
    ruins = ruins_cells(side)
    dirs = np.stack([e.direction for e in examples])
    grid = [["empty"] * GRID_SIZE for _ in range(GRID_SIZE)]
    conf = np.ones((GRID_SIZE, GRID_SIZE), np.float32)
    feats: dict[tuple[int, int], CellFeatures] = {}
    pending: list[tuple[tuple[int, int], int, float]] = []  # cells needing shape: (cell, group, fill conf)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if (r, c) in printed:
                grid[r][c] = printed[(r, c)]
                continue
            f = cell_features(lab, ink, boxes[(r, c)], examples, (r, c) in ruins, shape_needed, origin, dirs)
            feats[(r, c)] = f
            p_fill = _sigmoid((f.coverage - thr) / (0.25 * thr))
            if p_fill < 0.5:
                grid[r][c] = "empty"
                conf[r, c] = 1 - p_fill
                continue
            gvotes = np.bincount(groups, weights=f.votes, minlength=n_groups)
            g = int(gvotes.argmax())
            share = float(gvotes[g] / max(gvotes.sum(), 1e-6))
            colour_conf = float(np.clip((share - 0.5) / 0.35, 0, 1)) * float(np.clip((f.mean_cos - 0.5) / 0.35, 0, 1))
            if len(group_terrains[g]) == 1:
                grid[r][c] = group_terrains[g][0]
                conf[r, c] = p_fill * colour_conf
            else:
                pending.append(((r, c), g, p_fill * colour_conf))

    if shape_needed and feats:
        keys = list(feats)
        for key, d in zip(keys, describe_maps([feats[k].shape for k in keys]), strict=True):
            feats[key].shape = d
    if pending:
        _classify_shapes(pending, feats, examples, groups, ruins, grid, conf)
    return grid, conf, style, feats


def _classify_shapes(pending, feats, examples, groups, ruins, grid, conf) -> None:
    """Nearest-neighbour shape matching inside colour groups: first against the legend examples (turned a
    little either way), then also against the cells it was sure about (the sheet teaches itself the hand)."""

    def unit(v: np.ndarray) -> np.ndarray:
        return v / max(float(np.linalg.norm(v)), 1e-6)

    cache: dict[tuple[int, bool, bool], list] = {}

    def pools(g: int, is_ruins: bool, extra: dict[str, list[np.ndarray]]):
        key = (g, is_ruins, bool(extra))  # pass 1 has no extra, pass 2 one fixed set: stack once per group
        if key not in cache:
            cache[key] = _pools(g, is_ruins, extra)
        return cache[key]

    def _pools(g: int, is_ruins: bool, extra: dict[str, list[np.ndarray]]):
        out = []
        for i, e in enumerate(examples):
            if groups[i] != g or e.shape is None:
                continue
            base = list(e.variants_ruins if is_ruins else e.variants) or [e.shape_ruins if is_ruins else e.shape]
            learned = [] if is_ruins else extra.get(e.terrain, [])  # learned cells are unmasked
            out.append((e.terrain, np.stack([unit(v) for v in base + learned])))
        return out

    def match(cell, g, extra):
        f = feats[cell]
        classes = pools(g, cell in ruins, extra)
        if not classes or f.shape is None:
            return None, 0.0
        q = unit(f.shape)
        scores = []
        for name, P in classes:
            sims = np.sort(P @ q)[::-1]
            scores.append((float(sims[: min(TOP_K, len(sims))].mean()), name))
        scores.sort(reverse=True)
        best = scores[0][0]
        second = scores[1][0] if len(scores) > 1 else 0.0
        margin = (best - second) / max(1 - second, 1e-3)
        return scores[0][1], float(np.clip(margin / 0.25, 0, 1))

    first = {cell: match(cell, g, {}) for cell, g, _ in pending}
    # Self-training: confident cells (not ruins, whose glyph is masked) join their class's examples.
    extra: dict[str, list[np.ndarray]] = {}
    for cell, _, fill_conf in pending:
        name, c = first[cell]
        if name is not None and c * fill_conf > 0.5 and cell not in ruins:
            extra.setdefault(name, []).append(feats[cell].shape)
    for cell, g, fill_conf in pending:
        name, c = match(cell, g, extra) if extra else first[cell]
        if name is None:
            name, c = "empty", 0.0
        grid[cell[0]][cell[1]] = name
        conf[cell] = fill_conf * c if fill_conf > 0 else c
