"""Speed pass 4 (branch speed6): each faster helper gives the answer of the code it replaces, on arrays.

The references below are the replaced code itself (one item at a time), kept here so that the batched versions
are checked against it rather than against themselves.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import lattice, paperlines, upright


def _chains_reference(found, centres, tol=paperlines.LINK_TOL, max_gap=paperlines.MAX_GAP):
    active, done = [], []
    for j, pk in enumerate(found):
        still = []
        for ch in active:
            (still if j - ch[-1][0] <= max_gap + 1 else done).append(ch)
        active = still
        taken = set()
        for pos, h in sorted(pk, key=lambda v: -v[1]):
            best, best_d = None, None
            for n, ch in enumerate(active):
                if n in taken:
                    continue
                jl, yl, _ = ch[-1]
                slope = 0.0
                if len(ch) >= 2:
                    j0, y0, _ = ch[max(0, len(ch) - 4)]
                    if jl != j0:
                        slope = (yl - y0) / (centres[jl] - centres[j0])
                pred = yl + slope * (centres[j] - centres[jl])
                d = abs(pos - pred)
                if d <= tol * (1 + 0.5 * (j - jl - 1)) and (best_d is None or d < best_d):
                    best, best_d = n, d
            if best is None:
                active.append([(j, pos, h)])
                taken.add(len(active) - 1)
            else:
                active[best].append((j, pos, h))
                taken.add(best)
    return done + active


def _random_strip_peaks(rng, strips=33, lines=25, width=600):
    """Peaks of a few slanted lines with jitter, gaps and clutter (some exactly equidistant ties)."""
    base = np.sort(rng.uniform(0, width, lines))
    slope = rng.uniform(-0.05, 0.05, lines)
    found = []
    for j in range(strips):
        pk = [(float(b + s * j * 10 + rng.normal(0, 0.6)), float(rng.uniform(0.02, 0.2)))
              for b, s in zip(base, slope, strict=True) if rng.random() > 0.15]
        pk += [(float(rng.uniform(0, width)), float(rng.uniform(0.02, 0.2))) for _ in range(rng.integers(0, 8))]
        pk += [(float(round(p)), 0.05) for p, _ in pk[:2]]  # near-duplicates: ties between chains
        found.append(pk)
    return found, np.arange(strips) * 10.0 + 5.0


@pytest.mark.parametrize("seed", range(6))
def test_chains_link_the_same_peaks_as_one_chain_at_a_time(seed):
    rng = np.random.default_rng(seed)
    found, centres = _random_strip_peaks(rng)
    assert paperlines.chains(found, centres) == _chains_reference(found, centres)
    assert paperlines.chains(found, centres, max_gap=1) == _chains_reference(found, centres, max_gap=1)


def test_support_of_all_slopes_equals_one_slope_at_a_time():
    rng = np.random.default_rng(1)
    on = rng.random((33, 700)) < 0.1
    centres = np.sort(rng.random(33)) * 600
    got = paperlines.support_all(on, centres, paperlines.SLOPES)
    assert np.array_equal(got, np.stack([paperlines.support(on, centres, s) for s in paperlines.SLOPES]))
    assert np.array_equal(paperlines.support_all(on[:, :5], centres, paperlines.SLOPES),
                          np.stack([paperlines.support(on[:, :5], centres, s) for s in paperlines.SLOPES]))


@pytest.mark.parametrize("n", [1, 2, 39, 40, 41])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_last_is_numpys_median(n, dtype):
    a = np.random.default_rng(n).random((4, 13, 3, n)).astype(dtype)
    got = paperlines.median_last(a)
    assert got.dtype == np.median(a, axis=-1).dtype
    assert np.array_equal(got, np.median(a, axis=-1))


def _block_median_reference(q, block):
    n = q.shape[1]
    nb = max(1, int(round(n / block)))
    edges = np.linspace(0, n, nb + 1).round().astype(int)
    q = np.asarray(q, np.result_type(q.dtype, np.float32))
    meds = np.stack([np.median(q[:, edges[k]: edges[k + 1]], axis=1) for k in range(nb)], axis=1)
    if nb == 1:
        return np.repeat(meds, n, axis=1)
    mids = (edges[:-1] + edges[1:] - 1) / 2
    x = np.arange(n)
    i = np.clip(np.searchsorted(mids, x) - 1, 0, nb - 2)
    f = np.clip((x - mids[i]) / (mids[i + 1] - mids[i]), 0, 1)[None, :, None]
    return meds[:, i] * (1 - f) + meds[:, i + 1] * f


@pytest.mark.parametrize("n", [25, 40, 90, 517, 1203])
def test_block_median_equals_block_by_block(n):
    q = np.random.default_rng(n).random((13, n, 3)).astype(np.float32)
    assert np.array_equal(paperlines.block_median(q, 40), _block_median_reference(q, 40))


def _peaks_reference(profile, floor=paperlines.PEAK_FLOOR, over=paperlines.PEAK_OVER):
    import cv2

    p = cv2.GaussianBlur(profile.astype(np.float32).reshape(-1, 1), (1, 0), 0.7).ravel()
    thr = max(floor, over * float(np.median(p)))
    i = np.nonzero((p[1:-1] > thr) & (p[1:-1] >= p[:-2]) & (p[1:-1] > p[2:]))[0] + 1
    out = []
    for k in i:
        a, b, c = float(p[k - 1]), float(p[k]), float(p[k + 1])
        den = a - 2 * b + c
        off = 0.5 * (a - c) / den if den < 0 else 0.0
        out.append((k + float(np.clip(off, -0.5, 0.5)), b))
    return out


def test_peak_vertices_all_at_once_equal_one_at_a_time():
    rng = np.random.default_rng(3)
    for t in range(60):
        prof = np.abs(rng.normal(0, 0.05, 300))
        if t % 3 == 0:
            prof = np.round(prof, 2)  # plateaus: flat tops (den = 0)
        assert paperlines.peaks(prof) == _peaks_reference(prof)


def test_checkerboard_of_many_windows_equals_one_window_at_a_time():
    rng = np.random.default_rng(4)
    stack = rng.random((30, 11, 11)).astype(np.float32)
    stack[0] = np.indices((11, 11)).sum(axis=0) % 2  # a chequered cloth
    got = lattice.checkerboard_many(stack)
    ref = np.array([lattice.checkerboard(w) for w in stack])
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-9)
    assert got[0] > lattice.CHECKER_MAX


def _segment_evidence_reference(segs, dx, dy):
    """The replaced per-shift loop (`checkerboard` and the unseen strips one shift at a time)."""
    v, h, (dark, seen) = segs
    o = (v.shape[1] - lattice.N_LINES) // 2
    G, N = lattice.GRID_SIZE, lattice.N_LINES
    x0, y0 = o + dx, o + dy
    inner = np.concatenate([v[y0: y0 + G, x0: x0 + N].ravel(), h[x0: x0 + G, y0: y0 + N].ravel()])
    m = float(np.median(inner))
    if lattice.checkerboard(dark[y0: y0 + G, x0: x0 + G]) > lattice.CHECKER_MAX or m <= 1e-4:
        return -1.0
    cov = min(float(np.minimum(v[y0: y0 + G, x0: x0 + N] / m, 1).clip(0).mean()),
              float(np.minimum(h[x0: x0 + G, y0: y0 + N] / m, 1).clip(0).mean()))
    outer = [v[y0 - 1, x0: x0 + N], v[y0 + G, x0: x0 + N], h[x0 - 1, y0: y0 + N], h[x0 + G, y0: y0 + N]]
    unseen = [1 - seen[y0 - 1, x0: x0 + G].mean(), 1 - seen[y0 + G, x0: x0 + G].mean(),
              1 - seen[y0: y0 + G, x0 - 1].mean(), 1 - seen[y0: y0 + G, x0 + G].mean()]
    c = [max(float(np.median(np.clip(a / m, 0, 1))), lattice.UNSEEN_CONTINUES * float(u))
         for a, u in zip(outer, unseen, strict=True)]
    return cov - max(c)


def test_segment_evidence_of_all_shifts_matches_the_per_shift_loop():
    rng = np.random.default_rng(5)
    n_lines, n_cells = lattice.N_LINES + 10, lattice.GRID_SIZE + 10  # pad 5.5 cells: shifts of up to 4
    v = rng.random((n_cells, n_lines)).astype(np.float32)
    h = rng.random((n_cells, n_lines)).astype(np.float32)
    seen = (rng.random((n_cells, n_cells)) > 0.2).astype(np.float32)
    dark = rng.random((n_cells, n_cells)).astype(np.float32)
    dark[:11, :11] = np.indices((11, 11)).sum(axis=0) % 2  # one window over a chequered cloth
    segs = (v, h, np.stack([dark, seen]))
    shifts = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5)]
    got = lattice.segment_evidence_shifts(segs, shifts)
    ref = [_segment_evidence_reference(segs, dx, dy) for dx, dy in shifts]
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-7)
    assert -1.0 in got  # the chequered window is refused by both


@pytest.mark.parametrize("n", [8, 11, 12, 15, 3, 20])
def test_mean_of_columns_is_the_mean_over_the_stacked_axis(n):
    rng = np.random.default_rng(n)
    a = (rng.normal(size=(56, 398, n)) * 3.7).astype(np.float32)
    got = lattice.mean_of([a[..., k] for k in range(n)])
    assert got.dtype == a.dtype
    # numpy's own summation order makes it bit-identical (numpy 2.4); only closeness is asserted, so that a
    # numpy that sums in another order does not fail a test about speed
    np.testing.assert_allclose(got, a.mean(axis=-1), rtol=1e-6, atol=1e-7)


def test_second_smallest_of_columns_equals_second_smallest():
    a = np.random.default_rng(7).integers(0, 5, (40, 30, 12)).astype(np.float32)  # many ties
    assert np.array_equal(lattice.second_smallest_of([a[..., k] for k in range(12)]), lattice.second_smallest(a))


def _comb_fit_reference(f, cont, pitch_lo, pitch_hi, n_pitch=56):
    """The replaced comb fit: pitches × starts × teeth gathers."""
    L = len(f)
    fmax, cmax = lattice._dilate1(f), lattice._dilate1(cont)
    s, d, i_teeth, i_mids, i_before, i_after, span_ok = lattice.comb_positions(L, float(pitch_lo), float(pitch_hi),
                                                                               n_pitch)
    if not span_ok.any():
        return (0.0, 0.0, -np.inf)
    teeth = fmax[i_teeth]
    mids = f[i_mids].mean(axis=2)
    out_b = np.where(i_before >= 0, cmax[i_before], 0.0)
    out_a = np.where(i_after >= 0, cmax[i_after], 0.0)
    second = lattice.second_smallest(teeth)
    floor = np.maximum(mids, 0.5 * cmax[i_teeth].mean(axis=2))
    hi_o, lo_o = np.maximum(out_b, out_a), np.minimum(out_b, out_a)
    score = (0.5 * teeth.mean(axis=2) + 0.5 * second - mids - 0.5 * np.maximum(0, hi_o - floor)
             - 0.3 * np.maximum(0, lo_o - floor))
    score = np.where(span_ok, score, -np.inf)
    kd, ks = np.unravel_index(int(np.argmax(score)), score.shape)
    return (float(s[0, ks, 0]), float(d[kd, 0, 0]), float(score[kd, ks]))


@pytest.mark.parametrize("seed", range(8))
def test_comb_fit_by_columns_equals_the_gathered_comb_fit(seed):
    rng = np.random.default_rng(seed)
    L = int(rng.integers(200, 420))
    f = rng.normal(size=L).astype(np.float32)
    f[40: 40 + 12 * 20: 20] += 4  # a lattice of 12 lines, pitch 20
    c = rng.normal(size=L).astype(np.float32)
    for dtype in (np.float32, np.float64):
        ff, cc = f.astype(dtype), c.astype(dtype)
        got = lattice.comb_fit(ff, cc, 0.3 * L / 11, 1.12 * L / 11)
        ref = _comb_fit_reference(ff, cc, 0.3 * L / 11, 1.12 * L / 11)
        assert got[:2] == ref[:2]
        assert got[2] == pytest.approx(ref[2], rel=1e-6)


def test_band_means_equal_the_mean_of_each_band():
    r = (np.random.default_rng(8).random((384, 384)) * 1.3).astype(np.float32)
    for cell, pad, cells in ((24, 2.5, np.arange(-2, 13)), (32, 0.5, np.arange(11))):
        starts = [int((k + pad + 0.15) * cell) for k in cells]
        ends = [int((k + pad + 0.85) * cell) for k in cells]
        for a in (r, r.T):
            ref = np.stack([a[s:e].mean(axis=0) for s, e in zip(starts, ends, strict=True)])
            # bit-identical on numpy 2.4 (each band's rows added in turn either way); closeness is what is asserted
            np.testing.assert_allclose(lattice.band_means(a, starts, ends), ref, rtol=1e-6, atol=1e-7)
    uneven = ([3, 10, 30], [8, 15, 34])  # not evenly spaced, not one length: band by band, the same
    ref = np.stack([r[s:e].mean(axis=0) for s, e in zip(*uneven, strict=True)])
    assert np.array_equal(lattice.band_means(r, *uneven), ref)


def test_text_votes_with_the_frames_maps_given_equal_worked_out_here():
    rng = np.random.default_rng(9)
    size = (upright.GRID_SIZE + 2 * upright.TEXT_PAD) * upright.TEXT_CELL
    frame = np.full((size, size), 235, np.uint8)
    for _ in range(40):  # letter-sized dark blobs round the grid
        y, x = rng.integers(2, size - 20, 2)
        frame[y: y + int(rng.integers(6, 14)), x: x + int(rng.integers(2, 8))] = 40
    dark, paper = upright.darkness(frame), upright.frame_paper(frame)
    before = paper.copy()
    given, own = upright.text_votes(frame, dark=dark, paper=paper), upright.text_votes(frame)
    assert np.array_equal(given.log_odds, own.log_odds) and given.glyphs == own.glyphs
    assert np.array_equal(paper, before)  # the caller's mask is not changed (the paper cues read it next)
