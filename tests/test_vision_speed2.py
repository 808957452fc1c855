"""The batched and vectorised fast paths of the vision stages give the same numbers as the one-at-a-time ones."""

from __future__ import annotations

import cv2
import numpy as np

from vision import lattice, marks


def test_second_smallest_equals_partition_with_ties():
    rng = np.random.default_rng(0)
    a = np.round(rng.normal(size=(30, 20, 12)), 1).astype(np.float32)  # rounded: many ties
    assert np.array_equal(lattice.second_smallest(a), np.partition(a, 1, axis=-1)[..., 1])
    assert lattice.second_smallest(a).dtype == a.dtype
    assert lattice.second_smallest(np.float32([[3, 1, 1, 5]]))[0] == 1  # a tie at the minimum counts twice


def test_comb_positions_are_read_only_and_what_the_comb_reads():
    s, d, teeth, mids, before, after, span_ok = lattice.comb_positions(100, 5.0, 8.0, 4)
    assert not teeth.flags.writeable and not span_ok.flags.writeable
    k, j = 2, 10  # pitch 7, start 11
    assert d[k, 0, 0] == 7.0 and s[0, j, 0] == 11.0
    assert teeth[k, j].tolist() == [11 + 7 * i for i in range(12)]
    assert mids[k, j].tolist() == [int(np.round(11 + 7 * (i + 0.5))) for i in range(11)]
    assert before[k, j] == 4 and after[k, j] == 95 and span_ok[k, j]
    assert before[k, 0] == -1 and after[3, 97] == -1  # outside the profile
    assert lattice.comb_positions(100, 5.0, 8.0, 4) is lattice.comb_positions(100, 5.0, 8.0, 4)


def test_comb_fit_finds_a_comb_in_noise():
    rng = np.random.default_rng(1)
    f = rng.normal(0, 0.3, 400).astype(np.float32)
    f[(40 + 25 * np.arange(12)).astype(int)] += 5
    s, d, score = lattice.comb_fit(f, f * 0.5, 10, 40)
    teeth = s + d * np.arange(12)
    assert np.abs(teeth - (40 + 25 * np.arange(12))).max() <= 2.5 and score > 2


def _segs(seed: int):
    rng = np.random.default_rng(seed)
    n_lines, n_cells = 22, 21
    v = rng.random((n_cells, n_lines)).astype(np.float32)
    h = rng.random((n_cells, n_lines)).astype(np.float32)
    dark = rng.random((n_cells, n_cells)).astype(np.float32)
    seen = (rng.random((n_cells, n_cells)) > 0.2).astype(np.float32)
    return v, h, np.stack([dark, seen])


def test_segment_evidence_of_many_shifts_equals_one_shift_at_a_time():
    segs = _segs(2)
    shifts = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5)]
    batch = lattice.segment_evidence_shifts(segs, shifts)
    assert batch == [lattice.segment_evidence_shifts(segs, [s])[0] for s in shifts]
    assert batch[shifts.index((1, -2))] == lattice.segment_evidence(segs, 1, -2)
    v, h, dh = segs
    zero = (np.zeros_like(v), np.zeros_like(h), dh)  # no segment at all: no evidence
    assert lattice.segment_evidence_shifts(zero, shifts[:3]) == [-1.0, -1.0, -1.0]


def _line(seed: int, bend: bool) -> lattice.LineFit:
    rng = np.random.default_rng(seed)
    t = np.linspace(16, 336, 11)
    resid = rng.normal(0, 1.5, 11) if bend else t[:0]
    return lattice.LineFit(np.array([rng.normal(0, 0.03), rng.uniform(20, 300)]), t if bend else t[:0], resid, 9)


def test_crossings_of_all_lines_at_once_equal_each_intersection():
    cell = 32.0
    cols = [_line(j, True) for j in range(12)]
    rows = [_line(100 + i, True) for i in range(12)]
    cols[3] = None  # a line that could not be measured
    prior = np.stack(np.meshgrid(np.array([c.coef[1] if c else 100.0 for c in cols]),
                                 np.array([r.coef[1] for r in rows])), axis=-1)
    for bend in (False, True):
        pts, ok = lattice._crossings([cols, rows], prior, cell, bend)
        for i in range(12):
            for j in range(12):
                if cols[j] is None:
                    assert not ok[i, j] and np.array_equal(pts[i, j], prior[i, j])
                    continue
                cx, cy = cols[j], rows[i]
                if not bend:
                    cx = lattice.LineFit(cx.coef, cx.t[:0], cx.resid[:0])
                    cy = lattice.LineFit(cy.coef, cy.t[:0], cy.resid[:0])
                x, y = lattice.intersect(cx, cy, *prior[i, j])
                near = abs(x - prior[i, j, 0]) < 0.45 * cell and abs(y - prior[i, j, 1]) < 0.45 * cell
                assert ok[i, j] == near
                assert np.array_equal(pts[i, j], [x, y] if near else prior[i, j])


def test_fit_line_running_median_of_three():
    rng = np.random.default_rng(5)
    t = np.linspace(16, 336, 11)
    v = 0.01 * t + 50 + rng.normal(0, 0.5, 11)
    v[4] += 3  # one stroke taken for the line in one cell
    fit = lattice._fit_line(t, v, np.ones(11), 2.5)
    r = v - np.polyval(fit.coef, t)
    local = np.abs(r) < 2.5 * 2.5
    rr = np.interp(t, t[local], r[local])
    want = np.median(np.stack([np.r_[rr[:1], rr[:-1]], rr, np.r_[rr[1:], rr[-1:]]]), axis=0)
    assert np.array_equal(fit.resid, want)


def _cells(seed: int, n: int = 25) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        hh, ww = rng.integers(30, 70, 2)
        a = np.zeros((hh, ww), np.float32)
        if rng.random() < 0.5:
            cv2.line(a, (2, 2), (ww - 3, hh - 3), float(rng.uniform(0.3, 0.9)), int(rng.integers(1, 6)))
            cv2.line(a, (ww - 3, 2), (2, hh - 3), float(rng.uniform(0.3, 0.9)), int(rng.integers(1, 6)))
        a += rng.random((hh, ww)).astype(np.float32) * float(rng.uniform(0, 0.3))
        out.append(a)
    return out


def test_cross_strengths_of_many_cells_equal_one_cell_at_a_time():
    cells = [*_cells(6), np.zeros((0, 5), np.float32), np.zeros((3, 40), np.float32)]
    batch = marks.cross_strengths_many(cells)
    assert batch == [marks.cross_strengths_many([c])[0] for c in cells]
    assert batch[-2] == (0.0, 0.0) and batch[-1] == (0.0, 0.0)
    assert batch[0] == marks.cross_strengths(cells[0])


def test_hero_features_of_many_cells_equal_one_cell_at_a_time():
    inks = _cells(7, 12)
    strokes = [c * 0.8 for c in inks[:-1]] + [None]
    batch = marks.hero_features_many(inks, strokes)
    assert batch.dtype == np.float32 and batch.shape[0] == len(inks)
    for k, (a, b) in enumerate(zip(inks, strokes, strict=True)):
        assert np.array_equal(batch[k], marks.hero_features(a, b))


def test_printed_like_many_equals_one_set_at_a_time():
    from vision import orient

    rng = np.random.default_rng(8)
    flat = rng.random((121, 40))
    sim = orient.similarity_matrix(flat.reshape(11, 11, 5, 8).astype(np.float32))
    dark = rng.random(121).astype(np.float32)
    med = float(np.median(dark))
    sets = np.stack([rng.choice(121, 5, replace=False) for _ in range(30)])
    got = orient.printed_like_many(sim, dark, med, sets)
    want = [orient.set_similarity(sim, s) + float(dark[s].mean() - med) for s in sets]
    assert got.tolist() == want


def test_margin_darkness_is_the_darkest_channel_against_bright_paper():
    from vision import orient

    rng = np.random.default_rng(9)
    frame = rng.integers(0, 256, (60, 50, 3), dtype=np.uint8)
    want = 1.0 - frame.min(axis=2).astype(np.float32) / max(float(np.percentile(frame, 95)), 1.0)
    assert np.array_equal(orient.margin_darkness(frame), want)


def test_second_difference_equals_the_rolled_formula():
    rng = np.random.default_rng(10)
    for shape in ((40, 37), (5, 60), (3, 4)):
        s = rng.random(shape).astype(np.float32)
        for axis in (0, 1):
            for w in (1, 2, 3):
                want = s - 0.5 * (np.roll(s, w, axis) + np.roll(s, -w, axis))
                got = lattice.second_difference(s, w, axis)
                assert got.dtype == want.dtype and np.array_equal(got, want), (shape, axis, w)


def test_ink_map_equals_the_float_formula():
    rng = np.random.default_rng(11)
    for img in (rng.integers(0, 256, (90, 120, 3), dtype=np.uint8), rng.integers(0, 256, (70, 64), dtype=np.uint8),
                rng.random((50, 60)).astype(np.float32) * 255):
        f = lattice.darkest_channel(img).astype(np.float32)
        k = max(9, (min(f.shape) // 40) | 1)
        bg = cv2.blur(cv2.dilate(f, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))), (k, k))
        want = np.clip(1.0 - f / np.maximum(bg, 8.0), 0.0, 1.0)
        got = lattice.ink_map(img)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_profiles_continuity_equals_the_column_partition():
    rng = np.random.default_rng(12)
    resp = (rng.random((120, 90)).astype(np.float32), rng.random((120, 90)).astype(np.float32))
    for axis in (0, 1):
        r, ridge = (resp[0], resp[1]) if axis == 1 else (resp[0].T, resp[1].T)
        bridged = cv2.blur(ridge, (1, max(3, r.shape[0] // 60) | 1))
        k = int(0.4 * (bridged.shape[0] - 1))
        mean = lattice._smooth(r.mean(axis=0))
        med, sc = lattice._scale(mean)
        want = (lattice._smooth(np.partition(bridged, k, axis=0)[k]) - med) / sc
        assert np.array_equal(lattice.profiles(resp, axis)[1], want)
