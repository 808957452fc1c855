"""Speed pass 5 (branch speed7): each faster helper gives the answer of the code it replaces, bit for bit.

The references below are the replaced code itself (one item at a time), kept here so that the batched versions
are checked against it rather than against themselves.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE, MAPS
from vision import coins, lattice, orient, pagecues
from vision.geometry import canon_for
from vision.upright import TEXT_CELL, TEXT_PAD


def _pad_search_reference(grad, canon):
    """The placement search of `pad_coin_track` as it was: one `ring_score` per placement, the first best."""
    x0, _, _, y1 = canon.grid_box()
    cell = canon.cell_px
    pitch, down, rad = (v * cell for v in coins.PAD_TRACK)
    k = np.arange(COIN_TRACK_LENGTH)
    best = (0.0, None)
    for dy in np.arange(-0.2, 0.21, 0.05) * cell:
        for start in np.arange(0.3, 2.0, 0.04) * cell:
            c = np.c_[x0 + start + pitch * k, np.full(COIN_TRACK_LENGTH, y1 + down + dy)]
            sc = coins.ring_score(grad, c, rad)
            if sc > best[0]:
                best = (sc, c)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_ring_scores_is_ring_score_of_each_placement(seed):
    rng = np.random.default_rng(seed)
    grad = rng.random((300, 400)).astype(np.float32) * 50
    centres = rng.uniform(-40, 440, (30, 14, 2))
    got = coins.ring_scores(grad, centres, 7.3)
    want = np.array([coins.ring_score(grad, c, 7.3) for c in centres])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(3))
def test_pad_coin_track_places_the_track_as_the_loop_did(seed):
    canon = canon_for("A")
    w, h = canon.size
    rng = np.random.default_rng(seed)
    gray = np.clip(rng.normal(210, 12, (h, w)), 0, 255).astype(np.uint8)
    x0, _, _, y1 = canon.grid_box()
    cell = canon.cell_px
    pitch, down, rad = (v * cell for v in coins.PAD_TRACK)
    start = (0.6 + 0.3 * seed) * cell
    for i in range(14):
        cv2.circle(gray, (int(x0 + start + i * pitch), int(y1 + down)), int(rad), 120, 2, cv2.LINE_AA)
    gray = cv2.GaussianBlur(gray, (0, 0), 2.0)
    grad = coins.ring_edges(cv2.GaussianBlur(gray, (0, 0), 1.0))
    sc, c = _pad_search_reference(grad, canon)
    track = coins.pad_coin_track(gray, canon)
    off = coins.ring_score(grad, c + [0.5 * pitch, 0.0], rad)
    if sc < 1.5 * max(off, 1e-6):
        assert track is None
    else:
        assert track is not None and np.array_equal(track.centres, c)


def _notebook_frame(seed: int, ruled: bool):
    """A text frame's darkness (TEXT_CELL px a cell, TEXT_PAD cells round the grid) with rulings or without,
    a margin line on the left, and noise; the paper mask all True."""
    size = (GRID_SIZE + 2 * TEXT_PAD) * TEXT_CELL
    rng = np.random.default_rng(seed)
    dark = (rng.random((size, size)) * 0.05).astype(np.float32)
    if ruled:
        dark[:: TEXT_CELL // 2, :] += 0.3
    dark[:, int(1.5 * TEXT_CELL)] += 0.4 * (seed % 2)
    return dark, np.ones((size, size), bool)


@pytest.mark.parametrize("seed,ruled", [(0, True), (1, True), (2, False), (3, False)])
def test_turn_scores_total_is_that_of_all_four_margin_cues(seed, ruled):
    dark, keep = _notebook_frame(seed, ruled)
    cues = pagecues.turn_scores(dark, keep, TEXT_CELL, TEXT_PAD, None)
    # the reference: the margin line looked for on all four turns and weighed by the rulings (the replaced code)
    kept = keep & pagecues.outside_grid(dark.shape, TEXT_CELL, TEXT_PAD)
    ref_margin = np.array([pagecues.margin_line_cue(np.rot90(dark, k), np.rot90(kept, k), TEXT_CELL, TEXT_PAD)
                           * float(np.clip(cues.rulings[k] / 0.3, 0.0, 1.0)) for k in range(4)])
    ref = pagecues.PaperCues(cues.rulings, ref_margin, cues.page, cues.squared)
    assert np.array_equal(cues.margin, ref_margin)  # equal as numbers (a skipped cue is 0.0, its product ±0.0)
    for w in ((1.0, 1.0, 1.0), (0.7, 0.4, 0.0), (0.0, 0.3, 0.5)):
        assert np.array_equal(cues.total(*w), ref.total(*w))


def _colour_distances_reference(frame, cell=orient.FRAME_CELL, pad=orient.FRAME_PAD):
    m = 3
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab).astype(np.float32)
    cols = np.zeros((GRID_SIZE * GRID_SIZE, 3), np.float32)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            y, x = (r + pad) * cell + m, (c + pad) * cell + m
            cols[r * GRID_SIZE + c] = lab[y : y + cell - 2 * m, x : x + cell - 2 * m].reshape(-1, 3).mean(axis=0)
    cols[:, 0] *= 0.5
    d = np.linalg.norm(cols[:, None, :] - cols[None, :, :], axis=2)
    return d / max(float(np.median(d)), 1.0)


def _cell_patches_reference(frame_gray, cell=orient.FRAME_CELL, pad=orient.FRAME_PAD):
    m = 3
    p = cell - 2 * m
    out = np.zeros((GRID_SIZE, GRID_SIZE, p, p), np.float32)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            y, x = (r + pad) * cell + m, (c + pad) * cell + m
            out[r, c] = frame_gray[y : y + p, x : x + p]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_grid_frame_cells_batched_as_one_at_a_time(seed):
    rng = np.random.default_rng(seed)
    size = (GRID_SIZE + 2 * orient.FRAME_PAD) * orient.FRAME_CELL
    frame = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
    if seed % 2:
        frame = cv2.GaussianBlur(frame, (0, 0), 2.5)  # smooth, like a photo's cells
    assert np.array_equal(orient.colour_distances(frame), _colour_distances_reference(frame))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    got = orient.cell_patches(gray)
    assert got.dtype == np.float32 and got.flags.c_contiguous and np.array_equal(got, _cell_patches_reference(gray))


@pytest.mark.parametrize("seed", range(3))
def test_set_similarity_many_is_set_similarity_of_each(seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(121, 40))
    sim = orient.similarity_matrix(a.reshape(121, 1, 40, 1))
    sets5, waste = orient.random_cell_sets()
    for sets in (sets5, waste, np.stack([rng.choice(121, 7, replace=False) for _ in range(20)])):
        want = np.array([orient.set_similarity(sim, s) for s in sets])
        assert np.array_equal(orient.set_similarity_many(sim, sets), want)
        assert float(np.mean(orient.set_similarity_many(sim, sets))) == float(np.mean(want.tolist()))


def test_random_cell_sets_are_the_draws_of_a_fresh_generator():
    rng = np.random.default_rng(0)
    sets5 = np.stack([rng.choice(121, 5, replace=False) for _ in range(150)])
    n_waste = max(len(m.wastelands) for m in MAPS.values())
    waste = [rng.choice(121, n_waste, replace=False) for _ in range(60)]
    got5, got_waste = orient.random_cell_sets()
    assert np.array_equal(got5, sets5) and np.array_equal(got_waste, np.stack(waste))
    assert not got5.flags.writeable and not got_waste.flags.writeable


@pytest.mark.parametrize("shape", [(120, 90), (3, 40), (40, 3), (504, 504)])
def test_line_magnitude_is_line_responses_magnitude(shape):
    ink = np.random.default_rng(shape[0]).random(shape).astype(np.float32)
    for axis in (0, 1):
        want = lattice.line_response(ink, axis)[0]
        got = lattice.line_magnitude(ink, axis)
        assert got.flags.c_contiguous == want.flags.c_contiguous and np.array_equal(got, want)
