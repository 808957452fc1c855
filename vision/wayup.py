"""Stage 7b: a cell's confidence while nobody knows which way up the sheet is.

Why: when the reader cannot tell which edge of an unmarked sheet is the top (`orientation_unsure`: the review asks
"Which edge is the top?"), every cell it reads is right only if that way up is right, or if the cell happens to read
the same under the way up that is. The calibrated confidence (`vision.calibrate`) was fitted on readings almost all
of whose way up was sure, so it speaks of a cell *given* the way up; a sheet read a quarter turn wrong then shows
121 confident cells that are wrong together, which no cell's own evidence reveals.

So, after calibration and only while the way up is unsure and unanswered, each cell's confidence becomes

    P(right) = Σ_K P(the true way up is the reading turned K) · P(the cell is right | that way up),

* `turn_probabilities`: P(K) from the orientation decision's own evidence — how far the chosen way up leads each
  rival in the cues' total score (`vision.orient.Orientation.leads`) — as a softmax with one slope, `LEAD_SLOPE`,
  fitted on development readings (`python -m bench.bench_wayup`, figures in bench/README.md);
* `rival_agreement`: under the rival K the truth at (r, c) is what the reader saw in the cell that the turn brings
  there; the cell stays right when that cell was read the same (empty beside empty, forest beside forest: a
  symmetric map loses nothing) with that cell's own confidence; a different reading leaves only the chance that
  both were wrong into the same terrain, taken as the terrain's share of the map. Printed cells (mountains,
  wastelands) are where the side prints them whichever way up the drawing lies: they keep their confidence.
  No cell ends above its confidence as if the way up were right.

Once the player answers (`read_sheet(quarter_turns=K)`, 0 included), the way up is known and this stage is not
applied.
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import GRID_SIZE

# P(K) ∝ exp(-LEAD_SLOPE · lead_K) over the turns the decision scored; fitted by maximum likelihood on readings of
# development photos that asked the way up (photogen2 dev seeds 100-105, our generator 210000-212007: bench_wayup).
LEAD_SLOPE = 2.0
UNSCORED = 1e9  # the lead of a turn that was not scored (it is not a rival; `vision.orient.Orientation.leads`)
NO_RIVALS = (0.0, UNSCORED, UNSCORED, UNSCORED)  # the leads of a way up that nothing disputes


def turn_probabilities(leads, slope: float = LEAD_SLOPE) -> np.ndarray:
    """(4,) P(the true way up is the reading turned K quarter turns clockwise), K = 0..3, from the leads.

    `leads[K]` is how far the chosen way up (K = 0, lead 0) leads the reading turned K in the orientation cues'
    total score; a turn not scored gets 0.
    """
    lead = np.asarray(leads, float)
    scored = lead < UNSCORED
    scored[0] = True
    w = np.where(scored, np.exp(-slope * np.clip(np.where(scored, lead, 0.0), 0.0, None)), 0.0)
    return w / w.sum()


def _turned(a: np.ndarray, k: int) -> np.ndarray:
    """The array as the reading turned k quarter turns clockwise shows it (np.rot90 turns counterclockwise)."""
    return np.rot90(a, -k)


def rival_agreement(grid: list[list[str]], conf: np.ndarray, printed: np.ndarray, k: int) -> np.ndarray:
    """11×11 P(the cell is right | the true way up is the reading turned k clockwise), printed cells excepted.

    `printed` (11×11 bool): the side's printed cells in the reading's frame.
    """
    g = np.asarray(grid, dtype=object)
    c = np.asarray(conf, float)
    drawable = ~printed
    words, counts = np.unique(g[drawable], return_counts=True)
    share = dict(zip(words.tolist(), (counts / max(int(drawable.sum()), 1)).tolist(), strict=True))
    base = np.vectorize(lambda t: share.get(t, 0.0), otypes=[float])(g)
    g_r, c_r, p_r = _turned(g, k), _turned(c, k), _turned(printed, k)
    same = g_r == g
    out = np.where(same, c_r, (1.0 - c_r) * base)
    # the cell the turn brings here was taken for a printed one: what is drawn in it was never read
    return np.where(p_r, base, out)


def unsure_confidence(grid: list[list[str]], conf, printed: np.ndarray, leads, slope: float = LEAD_SLOPE) -> np.ndarray:
    """11×11 confidence including the chance that the way up is wrong (see the module's docstring)."""
    c = np.asarray(conf, float)
    printed = np.asarray(printed, bool)
    p = turn_probabilities(leads, slope)
    out = p[0] * c
    for k in range(1, 4):
        if p[k] > 0:
            out = out + p[k] * rival_agreement(grid, c, printed, k)
    # Doubt about the way up adds doubt, never certainty: a cell the stages doubted is not lifted out of the review
    # because the cell a turn would bring there reads the same (the calibrator's own rule, `calibrate.guard`).
    return np.where(printed, c, np.clip(np.minimum(out, c), 0.0, 1.0))


def printed_mask(printed: dict[tuple[int, int], str]) -> np.ndarray:
    """11×11 bool of the side's printed cells (`vision.geometry.printed_cells`: mountains, wastelands, pre-drawn)."""
    m = np.zeros((GRID_SIZE, GRID_SIZE), bool)
    for r, c in printed:
        m[r, c] = True
    return m
