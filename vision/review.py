"""Which cells the review asks the player to check.

The doubtful cells are those whose confidence (the calibrated probability that the reading is right) is under
the review's threshold. On a sheet where every cell is above it, a few wrong cells can still hide among the least
sure ones: a reading 0.85 sure is wrong one time in seven. The confidences say how many wrong cells the reader
expects among the cells it does not show (the sum of 1 − confidence), so the review also shows the least sure of
the rest, one by one, until it expects fewer than `EXPECTED_LEFT` wrong cells among those left, never more than
`MOST` cells in all: a glance at a handful of squares costs the player seconds, a silent error costs the score.

The confidences themselves are left as they are (they stay the calibrated probabilities, and a silent error is
still a wrong cell at 0.7 or more); only the list of cells the review highlights grows. The figures that chose
`EXPECTED_LEFT` (development photos only) are in `bench/README.md`.
"""

from __future__ import annotations

import numpy as np

THRESHOLD = 0.7  # a cell under this confidence is doubtful: the review always shows it
EXPECTED_LEFT = 0.2  # the least sure cells are shown until fewer wrong cells than this are expected in the rest
MOST = 10  # … but never past this many cells in all (a review of more is a sheet to check whole)


def cells_to_check(confidence, threshold: float = THRESHOLD, expected_left: float = EXPECTED_LEFT,
                   most: int = MOST) -> list[tuple[int, int]]:
    """The (row, column) cells the review highlights, in reading order: every cell under `threshold`, then the
    least sure others while the expected wrong cells among those not shown exceed `expected_left` and fewer
    than `most` cells are shown. Cells at confidence 1 (printed, or named by the player) are never added."""
    conf = np.asarray(confidence, dtype=np.float64)
    flat = conf.ravel()
    shown = flat < threshold
    rest = np.flatnonzero(~shown)
    rest = rest[np.argsort(flat[rest], kind="stable")]
    left = float((1.0 - flat[rest]).sum())
    for i in rest:
        if left <= expected_left or int(shown.sum()) >= most:
            break
        shown[i] = True
        left -= 1.0 - float(flat[i])
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(shown.reshape(conf.shape)), strict=True)]
