"""Speed pass 7 (branch speed9) on arrays: the cell stage's percentiles taken for all cells at once, and its
ink shape descriptors handed to the marks stage instead of being made twice.

Each batched helper is checked for exact equality (values and dtypes) against the per-item loop it replaces;
`cell_arrays` is checked against a copy of its former one-cell-at-a-time loop (main 970375e).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import features as F
from vision.features import (
    CHROMA_FAINT,
    CHROMA_PIXEL,
    COLOUR_MARGIN,
    EVEN_TEXTURE,
    FAINT_CONTRAST,
    FAINT_INK,
    FAINT_SHARE,
    FAINT_STROKE,
    HUE_BINS,
    INK_T,
    SHAPE_MARGIN,
    TINT_GREY,
    TINT_RAMP,
    CellArrays,
    Planes,
    crop,
    describe_maps,
    faint_strokes,
    hue_histogram,
    median0,
    ruins_mask,
    shape_map,
    tint_hue,
    weighted_mean,
)


def _old_evenness(ink: np.ndarray, blocks: int = F.EVEN_BLOCKS) -> float:
    """`evenness` as it was: two `np.percentile` calls per map."""
    h, w = ink.shape[:2]
    if h < blocks or w < blocks:
        return 0.0
    m = cv2.resize(ink.astype(np.float32), (blocks, blocks), interpolation=cv2.INTER_AREA).ravel()
    m = m - float(m.min())
    hi = float(np.percentile(m, 90))
    if hi <= 1e-3:
        return 0.0
    return float(np.clip(np.percentile(m, 25) / hi, 0, 1))


def _old_stretch(a: np.ndarray, floor: float = F.STRETCH_FLOOR) -> np.ndarray:
    if a.size == 0:
        return a
    lo, hi = np.percentile(a, [50, 99.5])
    return np.clip((a - lo) / max(float(hi - lo), floor), 0, 1).astype(np.float32)


def _old_cell_arrays(p: Planes, boxes, ruins=frozenset(), ruins_glyph: bool = True) -> CellArrays:
    """`cell_arrays` of main 970375e, one cell at a time (the loop the batched version replaces)."""
    cells = list(boxes)
    n = len(cells)
    mass, cov, chromatic, light, stroke_m, contrast, even = (np.zeros(n, np.float32) for _ in range(7))
    colour = np.zeros((n, 2), np.float32)
    tint = np.zeros((n, 2), np.float32)
    hue = np.zeros((n, HUE_BINS + 1), np.float32)
    stroke_maps: list = [None] * n
    ink_maps: list = [None] * n
    for k, cell in enumerate(cells):
        box = boxes[cell]
        masked = ruins_glyph and cell in ruins
        ink_c = crop(p.ink, box, COLOUR_MARGIN, p.origin)
        if ink_c.size == 0:
            continue
        if masked:
            keep = ruins_mask(ink_c.shape, COLOUR_MARGIN)
            vals = ink_c[keep]
            kept = max(int(keep.sum()), 1)
        else:
            keep = None
            vals = ink_c.ravel()
            kept = ink_c.size
        mass[k] = float(vals.mean())
        lo, hi = np.percentile(vals, [50, 98]) if vals.size else (0.0, 0.0)
        contrast[k] = float(hi - lo)
        on = ink_c > INK_T if keep is None else (ink_c > INK_T) & keep
        cov[k] = float(on.mean()) if masked else np.count_nonzero(on) / kept
        coloured_at = CHROMA_PIXEL
        lab_all = crop(p.lab, box, COLOUR_MARGIN, p.origin)
        tint[k] = (lab_all[..., 1:3] if keep is None else lab_all[keep][..., 1:3]).reshape(-1, 2).mean(axis=0)
        even[k] = _old_evenness(ink_c if keep is None else ink_c * keep)
        faint = np.count_nonzero(on) < FAINT_SHARE * kept and contrast[k] + mass[k] > FAINT_INK
        if faint:
            on = ink_c > max(FAINT_INK, 0.6 * float(hi))
            if keep is not None:
                on &= keep
            coloured_at = CHROMA_FAINT
        if on.any():
            lab_c = crop(p.lab, box, COLOUR_MARGIN, p.origin)[on]
            ch = crop(p.chroma, box, COLOUR_MARGIN, p.origin)[on]
            w = ink_c[on]
            hue[k] = hue_histogram(lab_c[:, 1], lab_c[:, 2], ch, w, coloured_at)
            col = ch > coloured_at
            chromatic[k] = float(w[col].sum() / max(w.sum(), 1e-6))
            if col.any():
                colour[k] = weighted_mean(lab_c[col, 1:3], w[col])
            strong = w >= median0(w)
            light[k] = float(median0(lab_c[strong, 0]))
        else:
            light[k] = 100.0
        if faint and even[k] >= EVEN_TEXTURE:
            hue[k], chromatic[k] = tint_hue(tint[k])
            colour[k] = tint[k]
        s_c = crop(p.stroke, box, SHAPE_MARGIN, p.origin)
        i_c = crop(p.ink, box, SHAPE_MARGIN, p.origin)
        if (s_c.size and float(s_c.max()) < FAINT_STROKE and contrast[k] > FAINT_CONTRAST
                and float(np.hypot(*tint[k])) < TINT_GREY + TINT_RAMP):
            s_c = faint_strokes(crop(p.lab, box, SHAPE_MARGIN, p.origin))
        if masked:
            km = ruins_mask(s_c.shape, SHAPE_MARGIN)
            s_c, i_c = s_c * km, i_c * km
        stroke_m[k] = float(s_c.mean()) if s_c.size else 0.0
        stroke_maps[k] = shape_map(_old_stretch(s_c), 0.3)
        ink_maps[k] = shape_map(i_c)
    shape, shape_ink = np.vsplit(describe_maps(stroke_maps + ink_maps), [n])
    return CellArrays(cells, mass, cov, colour, chromatic, light, hue, shape, shape_ink, stroke_m, contrast, tint,
                      even)


def _sheet(seed: int, cell: float = 41.3, size: int = 520) -> tuple[np.ndarray, dict]:
    """A normalised BGR sheet of 11×11 cells of every kind the cell stage tells apart (blank, firm and pale
    colour hatching, graphite strokes, faint dots, solid fills, grey washes), and their boxes (fractional sizes,
    so the crops differ in size by a pixel; one box off the image, so its crop is empty)."""
    rng = np.random.default_rng(seed)
    img = np.clip(0.93 + rng.normal(0, 0.01, (size, size, 3)), 0, 1).astype(np.float32)
    boxes = {}
    for r in range(11):
        for c in range(11):
            x, y = 10 + c * cell + rng.uniform(-1, 1), 10 + r * cell + rng.uniform(-1, 1)
            s = cell * rng.uniform(0.97, 1.03)
            boxes[(r, c)] = (x, y, s)
            kind = (r * 11 + c + seed) % 7
            x0, y0, x1, y1 = int(x + 6), int(y + 6), int(x + s - 6), int(y + s - 6)
            col = tuple(float(v) for v in rng.uniform(0.2, 0.9, 3))
            if kind == 1:  # firm colour hatching
                for t in range(0, 60, 5):
                    cv2.line(img, (x0 + t, y0), (x0, y0 + t), col, 2)
            elif kind == 2:  # pale hatching
                pale = tuple(0.93 - 0.06 * (1 - v) for v in col)
                for t in range(0, 60, 4):
                    cv2.line(img, (x0 + t, y0), (x0, y0 + t), pale, 1)
            elif kind == 3:  # a graphite symbol
                cv2.circle(img, ((x0 + x1) // 2, (y0 + y1) // 2), 9, (0.3, 0.3, 0.3), 2)
            elif kind == 4:  # faint dots
                for _ in range(4):
                    cv2.circle(img, (int(rng.integers(x0, x1)), int(rng.integers(y0, y1))), 1, (0.85, 0.85, 0.85), -1)
            elif kind == 5:  # a solid fill
                cv2.rectangle(img, (x0, y0), (x1, y1), col, -1)
            elif kind == 6:  # a grey wash
                cv2.rectangle(img, (x0, y0), (x1, y1), (0.86, 0.86, 0.87), -1)
    boxes[(11, 0)] = (size + 50.0, size + 50.0, cell)  # off the image: an empty crop
    return img, boxes


def _assert_same(a: CellArrays, b: CellArrays) -> None:
    assert a.cells == b.cells
    for name in ("mass", "coverage", "colour", "chromatic", "light", "hue", "shape", "shape_ink", "stroke",
                 "contrast", "tint", "evenness"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        assert np.array_equal(x, y), name


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("ruins_glyph", [True, False])
def test_cell_arrays_equal_the_one_cell_loop(seed: int, ruins_glyph: bool) -> None:
    img, boxes = _sheet(seed)
    p = F.planes(img)
    ruins = {(1, 2), (5, 5), (9, 3), (4, 8)}
    _assert_same(F.cell_arrays(p, boxes, ruins, ruins_glyph), _old_cell_arrays(p, boxes, ruins, ruins_glyph))


def test_cell_arrays_equal_the_loop_on_a_placed_crop() -> None:
    """Planes computed on a rectangle of the image (`Planes.placed`, as the reader does) give the same cells."""
    img, boxes = _sheet(5)
    del boxes[(11, 0)]
    region = F.box_region(boxes.values(), img.shape)
    p = F.planes(img[region]).placed(region, img.shape)
    _assert_same(F.cell_arrays(p, boxes, {(0, 0)}), _old_cell_arrays(p, boxes, {(0, 0)}))


def test_percentiles_many_equal_one_call_each() -> None:
    rng = np.random.default_rng(7)
    arrays = []
    for k in range(60):
        n = int(rng.integers(1, 6)) * 97 + int(rng.integers(0, 3))  # a few sizes, several arrays of each
        a = rng.random(n).astype(np.float32 if k % 3 else np.float64)
        if k % 4 == 0:
            a = np.round(a * 5) / 5  # ties
        if k % 5 == 0:
            a = a.reshape(1, -1)  # 2-D: taken whole, as np.percentile with axis=None does
        arrays.append(a.astype(np.float32) if k % 3 else a)
    for q in ((50, 98), (50, 99.5), [25, 75], 90, 25.0):
        got = F.percentiles_many(arrays, q)
        for a, g in zip(arrays, got, strict=True):
            want = np.percentile(a, q)
            assert np.asarray(g).dtype == np.asarray(want).dtype
            assert np.array_equal(g, want), (a.size, q)
            if not isinstance(q, tuple | list):
                assert type(g) is type(want)


def test_evenness_many_equal_one_call_each() -> None:
    rng = np.random.default_rng(3)
    maps = [rng.random((int(rng.integers(3, 40)), int(rng.integers(3, 40)))).astype(np.float32) ** 3
            for _ in range(80)]
    maps += [np.zeros((20, 20), np.float32), np.full((30, 25), 0.4, np.float32), np.zeros((4, 30), np.float32)]
    maps[5][:] = 0.0005  # below the blank level after its own minimum is taken off
    got = F.evenness_many(maps)
    assert [float(v) for v in got] == [_old_evenness(m) for m in maps]
    assert F.evenness(maps[0]) == _old_evenness(maps[0])
    assert len(F.evenness_many([])) == 0


def test_stretch_with_its_percentiles_given_is_stretch() -> None:
    rng = np.random.default_rng(11)
    for shape in ((30, 30), (31, 29), (0, 5)):
        a = rng.random(shape).astype(np.float32) ** 2
        lohi = F.percentiles_many([a], F.STRETCH_PERCENTILES)[0] if a.size else None
        assert np.array_equal(F.stretch(a, lohi=lohi), _old_stretch(a))
        assert np.array_equal(F.stretch(a), _old_stretch(a))


@pytest.mark.parametrize("ruins_glyph", [True, False])
def test_plain_ink_shapes_are_the_marks_stage_own_descriptors(ruins_glyph: bool) -> None:
    """The cell stage's ink descriptors handed to the marks stage are the ones it would make itself."""
    from vision import marks as M

    img, boxes = _sheet(4)
    p = F.planes(img)
    ruins = {(1, 2), (5, 5)}
    a = F.cell_arrays(p, boxes, ruins, ruins_glyph)
    plain = F.plain_ink_shapes(a, p, boxes, ruins, ruins_glyph)
    assert (11, 0) not in plain  # its colour crop is empty: not measured
    assert ((1, 2) in plain) is not ruins_glyph  # a masked ruins cell's map is not the plain one
    for cell, row in plain.items():
        own = describe_maps([shape_map(crop(p.ink, boxes[cell], F.SHAPE_MARGIN, p.origin))])[0]
        assert np.array_equal(row, own), cell
    cells = list(boxes)
    inks = [crop(p.ink, boxes[c], F.SHAPE_MARGIN, p.origin) for c in cells]
    strokes = [crop(p.stroke, boxes[c], F.SHAPE_MARGIN, p.origin) for c in cells]
    want = M.hero_features_many(inks, strokes)
    got = M.hero_features_many(inks, strokes, [plain.get(c) for c in cells])
    assert got.dtype == want.dtype and np.array_equal(got, want)
    del boxes[(11, 0)]
    full = M.read_marks(img, boxes, given=p)
    fast = M.read_marks(img, boxes, given=p, ink_shapes=plain)
    assert np.array_equal(full.p_cross, fast.p_cross) and np.array_equal(full.p_hero, fast.p_hero)
    assert full.kind == fast.kind and np.array_equal(full.confidence, fast.confidence)


def test_median_of_is_np_median_to_the_bit() -> None:
    """`vision.lattice.median_of` against `float(np.median(a))`: values, NaN, and the sign of a zero
    (numpy's mean adds from +0, so a lone −0 comes back +0), float32 and float64, ties, tiny and huge."""
    from vision.lattice import median_of

    rng = np.random.default_rng(1)
    for t in range(6000):
        n = int(rng.integers(1, 40))
        a = rng.normal(size=n).astype(np.float32 if t % 2 else np.float64)
        if t % 3 == 0:
            a = np.round(a * 2) / 2
        if t % 7 == 0:
            a[rng.integers(0, n)] = -0.0
        if t % 11 == 0:
            a[:] = 0.0
            a[::2] = -0.0
        if t % 13 == 0:
            a[rng.integers(0, n)] = np.nan
        if t % 17 == 0:
            a = a * np.asarray(1e-40, a.dtype)
        with np.errstate(all="ignore"):
            want, got = float(np.median(a)), median_of(a)
        assert np.array_equal(want, got, equal_nan=True) and np.signbit(want) == np.signbit(got), (a, want, got)
    assert median_of([3, 1, 2]) == float(np.median([3, 1, 2]))  # not float: numpy's own
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        assert np.isnan(median_of(np.zeros(0)))
