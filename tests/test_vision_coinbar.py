"""The coin track placed in its printed bar (`vision.coins.bar_first`), on arrays.

The game's pad prints its 14 coins on a bar that runs about half a cell past both end coins, with a coin icon
left of the bar: when the circle finder sees only some of the coins, the bar's two ends say which 14 positions
hold the track; a row of rings on bare paper has no bar and is left to the ring edges.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.coins import bar_ends, bar_first

CELL, PITCH = 40.0, 0.716 * 40.0


def _track(bar: bool) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A band in Lab: parchment, 14 coins from x = 80 (true positions 0..13), the bar (when `bar`) from half a
    cell before the first coin to 0.37 cell past the last, the pad's coin icon 1.3 cells left of the first coin.
    The line is given from the coin at true position 3 (the first one a circle finder saw)."""
    h, w = 200, 80 + int(14 * PITCH) + 80
    img = np.zeros((h, w, 3), np.float32)
    img[:] = (0.80, 0.88, 0.93)  # parchment (BGR)
    cy = 120
    if bar:
        cv2.rectangle(img, (int(80 - 0.5 * CELL), int(cy - 0.36 * CELL)),
                      (int(80 + 13 * PITCH + 0.37 * CELL), int(cy + 0.36 * CELL)), (0.25, 0.65, 0.85), -1)
    icon = (int(80 - 1.3 * CELL), cy)
    cv2.rectangle(img, (icon[0] - 6, cy - 16), (icon[0] + 6, cy + 16), (0.25, 0.65, 0.85), -1)
    cv2.rectangle(img, (icon[0] - 16, cy - 6), (icon[0] + 16, cy + 6), (0.25, 0.65, 0.85), -1)
    for k in range(14):
        x = int(round(80 + k * PITCH))
        cv2.circle(img, (x, cy), int(0.22 * CELL), (0.2, 0.55, 0.75), -1, cv2.LINE_AA)
        cv2.circle(img, (x, cy), int(0.22 * CELL), (0.1, 0.3, 0.45), 2, cv2.LINE_AA)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    return lab, (80 + 3 * PITCH, PITCH, float(cy), 0.0)


def test_the_bar_puts_the_fourteen_where_the_pad_prints_them():
    lab, line = _track(bar=True)
    firsts = list(range(-4, 1))  # circles found at true positions 3..12: the 14 may start 4 to 0 places before
    assert bar_first(lab, line, firsts, 9, CELL) == -3
    lo, hi = bar_ends(lab, line, (0, 9), 4, CELL)
    assert abs(lo - (-3 - 0.5 / 0.716)) < 0.2 and abs(hi - (10 + 0.37 / 0.716)) < 0.2  # the icon is not bar


def test_rings_on_bare_paper_have_no_bar():
    lab, line = _track(bar=False)
    assert bar_ends(lab, line, (0, 9), 4, CELL) is None
    assert bar_first(lab, line, list(range(-4, 1)), 9, CELL) is None


def _rings(pitch_px: float, start: tuple[float, float], r: float, marked: int, shape=(300, 900)) -> np.ndarray:
    gray = np.full(shape, 215, np.uint8)
    for k in range(14):
        c = (int(round(start[0] + k * pitch_px)), int(round(start[1])))
        if k < marked:
            cv2.circle(gray, c, int(r), 120, -1, cv2.LINE_AA)
        cv2.circle(gray, c, int(r), 90, 2, cv2.LINE_AA)
    return gray


def test_circles_placed_a_little_off_are_moved_onto_their_rings():
    """A pitch fitted 2 % long puts the far end's circles a third of a radius off: snapped back within a pixel."""
    from vision.coins import CoinTrack, snapped, track_edges

    pitch, r = 50.0, 16.0
    gray = _rings(pitch, (60.0, 150.0), r, marked=0)
    want = np.array([[60.0 + k * pitch, 150.0] for k in range(14)])
    off = CoinTrack(np.array([[60.0 + k * pitch * 1.0075, 151.5] for k in range(14)]), r)
    assert np.abs(off.centres - want).max() > 4
    assert np.abs(snapped(track_edges(gray), off).centres - want).max() < 1.0


def test_a_pad_track_is_counted_from_its_rings():
    """The whole coin stage on a straightened sheet that is not ours: 14 printed rings 0.716 cell apart 1.42 cells
    below the grid, the first five marked: read 5, surely."""
    from vision.coins import read_coin_track
    from vision.geometry import canon_for

    canon = canon_for("A")
    w, h = canon.size
    x0, _, _, y1 = canon.grid_box()
    cell = canon.cell_px
    gray = _rings(0.716 * cell, (x0 + 1.41 * cell, y1 + 1.42 * cell), 0.227 * cell, marked=5, shape=(h, w))
    norm = np.repeat(gray[..., None], 3, axis=2).astype(np.float32) / 215.0
    got = read_coin_track(norm, canon, np.zeros((h, w), np.float32))
    assert got.count == 5 and got.filled[:5] == (True,) * 5
    assert got.confidence >= 0.3
