"""Stage 7e: the ruins cells of a sheet found without markers, doubted unless the reader is all but certain.

Why: the game's pad prints each ruin as a drawing that fills much of its cell, and generic prints have a ruins
symbol of their own; a letter, a faint symbol or a wash drawn over it is read through the print. The calibrated
confidence does not see how much worse those cells are read than the rest of the same sheet: on development
photos (seeds 1000.., both generators, first readings) the ruins cells of sheets without markers that it put
between 0.7 and `RUINS_SURE` were right 50 times of 68 (the pad look-alikes and scans 37 of 52), against 248 of
261 for the same sheets' other cells in that band; at `RUINS_SURE` and above they were right 392 times of 393.
On our own sheet (found by its markers, a small printed ruin) the band was right 12 times of 13, so it is left
alone. Such a cell keeps at most `RUINS_CAP` and the review shows it.
"""

from __future__ import annotations

import numpy as np

from vision.geometry import ruins_cells

RUINS_SURE = 0.97  # a ruins cell read at least this surely keeps its confidence
RUINS_CAP = 0.65  # … any other, on a sheet found without markers, keeps at most this (under the review's 0.7)


def doubt_unmarked_ruins(conf: np.ndarray, side: str) -> int:
    """Cap the confidence (11×11, in place) of `side`'s ruins cells read less surely than RUINS_SURE at RUINS_CAP;
    for sheets found without markers. Returns the cells lowered."""
    n = 0
    for r, c in ruins_cells(side):
        if RUINS_CAP < conf[r, c] < RUINS_SURE:
            conf[r, c] = RUINS_CAP
            n += 1
    return n
