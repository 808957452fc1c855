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
