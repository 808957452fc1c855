"""Speed pass 5 (branch speed7): each faster helper gives the answer of the code it replaces, bit for bit.

The references below are the replaced code itself (one item at a time), kept here so that the batched versions
are checked against it rather than against themselves.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE
from vision import coins, pagecues
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
