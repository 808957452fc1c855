"""The drawn symbols' way-up cue (vision.symbolup) on drawn arrays: trees, houses and initials drawn upright in a
hand-ruled grid vote for the way they stand; lines running in from a cell's edge, fills, dots and blank cells
vote nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import GRID_SIZE
from vision import symbols
from vision.symbolup import inner_strokes, symbol_strokes, symbol_votes, turn_votes_of

pytestmark = pytest.mark.skipif(not symbols.available(), reason="no symbol model shipped")

N = 26  # a stroke crop, as `symbol_strokes` leaves it of a 32-px cell


def tree(n: int = N) -> np.ndarray:
    a = np.zeros((n, n), np.float32)
    cv2.polylines(a, [np.array([[n // 2, 3], [n - 6, n - 9], [5, n - 9]], np.int32)], True, 1.0, 2)
    cv2.line(a, (n // 2, n - 9), (n // 2, n - 3), 1.0, 2)
    return a


def house(n: int = N) -> np.ndarray:
    a = np.zeros((n, n), np.float32)
    cv2.rectangle(a, (6, 12), (n - 7, n - 4), 1.0, 2)
    cv2.line(a, (4, 13), (n // 2, 3), 1.0, 2)
    cv2.line(a, (n - 5, 13), (n // 2, 3), 1.0, 2)
    return a


def initial(ch: str, n: int = N) -> np.ndarray:
    a = np.zeros((n, n), np.float32)
    cv2.putText(a, ch, (5, n - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 1.0, 2)
    return a


@pytest.mark.parametrize("draw", [tree, house, lambda: initial("F"), lambda: initial("K")])
def test_a_symbol_reads_best_the_way_it_was_drawn(draw):
    s = draw()
    for k in range(4):
        votes = turn_votes_of([np.rot90(s, -k)]).log_odds  # drawn on a sheet lying k quarter turns round
        assert int(np.argmax(votes)) == k % 4


def test_one_cell_never_decides_alone():
    votes = turn_votes_of([tree()]).log_odds
    assert votes.max() == 0.0 and votes.min() >= -2.5  # floored: a map of many cells outweighs one


def test_a_line_running_in_from_the_edge_is_taken_out_and_the_symbol_kept():
    s = tree()
    s[:, 0:2] = 1.0  # a piece of the hand-drawn grid line along the left edge
    s[2 : N - 4, N - 2 :] = 1.0  # and one running into the right edge
    out = inner_strokes(s)
    assert out[:, :2].max() == 0.0 and out[:, N - 2 :].max() == 0.0
    assert np.array_equal(out[4 : N - 4, 4 : N - 4], tree()[4 : N - 4, 4 : N - 4])


def _crop_of(stroke: np.ndarray, cell: int = 32) -> np.ndarray:
    """A normalised BGR cell crop (paper 1.0) carrying `stroke` (1 = black ink) in its inner part."""
    crop = np.ones((cell, cell, 3), np.float32)
    m = (cell - stroke.shape[0]) // 2
    crop[m : m + stroke.shape[0], m : m + stroke.shape[1]] -= 0.85 * stroke[..., None]
    return crop


def test_blank_cells_fills_and_dots_carry_no_symbol():
    assert symbol_strokes(_crop_of(np.zeros((N, N), np.float32))) is None
    assert symbol_strokes(_crop_of(np.ones((N, N), np.float32))) is None  # a fill, or dense hatching
    dot = np.zeros((N, N), np.float32)
    cv2.circle(dot, (N // 2, N // 2), 2, 1.0, -1)
    assert symbol_strokes(_crop_of(dot)) is None  # no direction
    assert symbol_strokes(_crop_of(tree())) is not None


def _hand_sheet(k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A photo of a hand-ruled grid (wavy lines) with trees, houses and initials drawn upright, lying k quarter
    turns round, and its measured intersections in lattice order (row lines down the photo, columns across)."""
    rng = np.random.default_rng(seed)
    cell, g0 = 44, 40
    n = GRID_SIZE * cell + 2 * g0
    img = np.full((n, n, 3), 235, np.uint8)
    draws = [tree, house, lambda: initial("F"), lambda: initial("A"), lambda: initial("K")]
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if rng.random() < 0.4:
                s = np.rot90(cv2.resize(draws[int(rng.integers(len(draws)))](), (30, 30)), -k)
                y, x = g0 + r * cell + 7, g0 + c * cell + 7
                img[y : y + 30, x : x + 30] = np.minimum(img[y : y + 30, x : x + 30],
                                                         (235 - 200 * s[..., None]).astype(np.uint8))
    uv = np.stack(np.meshgrid(np.arange(GRID_SIZE + 1.0), np.arange(GRID_SIZE + 1.0)), axis=-1)
    pts = g0 + uv * cell + rng.normal(0, 1.5, uv.shape)  # a grid ruled by hand: its corners off by a pixel or two
    for i in range(GRID_SIZE + 1):
        cv2.polylines(img, [pts[i].astype(np.int32)], False, (60, 40, 30), 2)
        cv2.polylines(img, [pts[:, i].astype(np.int32)], False, (60, 40, 30), 2)
    return img, pts


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_a_hand_ruled_sheet_of_symbols_says_which_way_up_it_lies(k):
    img, pts = _hand_sheet(k)
    votes = symbol_votes(img, pts)
    assert votes.glyphs > 20
    best = int(np.argmax(votes.log_odds))
    assert best == k % 4
    assert sorted(votes.log_odds)[-2] < -5.0  # by a margin that counts (x 0.03 in vision.orient: > 0.15)


def test_a_sheet_of_colour_fills_votes_nothing():
    img, pts = _hand_sheet(0)
    img[:] = 235
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if (r + c) % 3 == 0:
                y, x = int(pts[r, c, 1]) + 4, int(pts[r, c, 0]) + 4
                img[y : y + 36, x : x + 36] = (60, 160, 60)  # green fills: forests in felt-tip
    votes = symbol_votes(img, pts)
    assert votes.glyphs == 0 and np.allclose(votes.log_odds, 0.0)
