"""Stage 7c: the printed cells of a sheet whose side is the reader's guess.

Why: a sheet without markers (the game's pad, a generic print, a grid ruled by hand) tells its side only by where
its mountains (and side B's wastelands) lie, and `vision.orient` weighs that against the other side. When it
picks the wrong side, every printed cell of the side it picked lies on a drawn cell: 5 to 12 cells that the
reading marks as mountains or wastelands with full confidence, all wrong together (198 of the 786 silent cells
on the development photos, on 20 of 389 sheets without markers). No cell's own evidence shows it: the cells
under those places are not read for their terrain.

So each printed cell's confidence becomes P(the side is right), from how far the chosen side led the other in
the orientation cues' total score (`vision.orient.Orientation.side_lead`) and, when the cell model read every
cell (`vision.sidelook`), how much more alike the chosen side's mountains look than the other side's: a logistic
fitted on development sheets (`python -m bench.bench_side [--look] --fit`, figures in bench/README.md). A side the
player gave (`read --side`, a table's own side), or that markers or a QR code say, is sure: its lead is infinite.
"""

from __future__ import annotations

import math

import numpy as np

# P(side right) = 1 / (1 + exp(-(SIDE_BIAS + SIDE_SLOPE * lead))), fitted by maximum likelihood on the
# development photos' sheets without markers whose side the cues decided (photogen2 and photogen3 dev seeds
# 50,000-50,251: 325 sheets, 21 on the wrong side; bench_side --fit). 0.7 at a lead of about 0.15.
SIDE_BIAS = -0.88
SIDE_SLOPE = 11.9


# With the mountains' look (vision.sidelook.look_margin, known when the cell model read the whole sheet):
# P(side right) = 1 / (1 + exp(-(LOOK_BIAS + LOOK_LEAD * lead + LOOK_WEIGHT * look))), fitted the same way on the
# same seeds (`bench_side --look --fit`: 328 sheets whose side the cues decided, 20 of them wrong; the look turned
# 14 over, all to the right side; fitted on the other 314, 6 wrong). On those 314 the lead alone left 15 sheets on
# the right side with their printed cells under 0.7 and one wrong sheet at 0.96; with the look 3, and that one at
# 0.84 (log-likelihood -22.3 → -7.3). A side whose mountains look alike by 0.35 or more is all but certain.
LOOK_BIAS = -2.064
LOOK_LEAD = 10.114
LOOK_WEIGHT = 17.171


def side_probability(lead: float, look: float | None = None) -> float:
    """P(the chosen side is right) from its lead over the other side in the orientation cues and, when known,
    how much more alike its mountains look than the other side's (1 for a side given or marked)."""
    if not math.isfinite(lead):
        return 1.0
    z = SIDE_BIAS + SIDE_SLOPE * lead if look is None else LOOK_BIAS + LOOK_LEAD * lead + LOOK_WEIGHT * look
    return 1.0 / (1.0 + math.exp(-z))


def doubt_printed(conf: np.ndarray, printed: np.ndarray, p_side: float) -> int:
    """Printed cells (bool 11×11 `printed`) keep at most the chance that the side is right (in place); returns
    the cells lowered."""
    m = printed & (conf > p_side)
    conf[m] = p_side
    return int(m.sum())
