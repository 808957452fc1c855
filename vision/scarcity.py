"""Sheet-level sanity: a well-filled map on which one of the four main terrains is (nearly) nowhere, and a
map read nearly blank.

Every season's Explore cards offer forests, villages, farms and water, so a map with half its cells drawn has
all four: on the development photos of both generators (seeds 40–239), of 285 truths with at least 50 drawn
cells, 4 lack one of them and 3 more have it on only two cells. When the reader finds one of them on almost no
cell of such a map, the likelier story is a whole pen named wrongly: a pad in pencil whose 22 villages were
all read as farms (they shared the farms' pale hatching), a generic print whose six forests were read as water.
The cells of such a pen are each sure, so no cell-level confidence shows the doubt; this stage finds the groups
that could be the missing terrain at little cost and doubts their cells, so that the review asks "Which
terrain is this?" about them (one tap names the whole group).

The cost of a group is how much worse, per member, the missing terrain explains its cells than the name the
group has (mean log-probability under the sheet-adapted model). Cheap groups are the plausible pens; groups the
model is certain of (costs of 7 to 14 on the development photos) are not doubted.
"""

from __future__ import annotations

import numpy as np

MAIN_TERRAINS = ("forest", "village", "farm", "water")
MIN_FILLED = 50  # cells read drawn before a missing terrain is suspicious
SCARCE_SHARE = 0.05  # a terrain on at most this share of the drawn cells, or on at most SCARCE_CELLS of them,
SCARCE_CELLS = 2  # counts as missing
MIN_MEMBERS = 3  # smaller groups are single cells the calibration already weighs one by one
MAX_COST = 5.0  # mean log-probability per member the missing terrain may lose to the group's name
# The same test for each cell of a group too small for it (`suspect_cells`), stricter since one cell's evidence is
# noisier than a pen's: on development photos of both generators (seeds 1200-1515, 18 maps lacking a terrain), at
# 3.0 it doubted 24 sure wrong cells of two maps and 5 sure right ones.
CELL_MAX_COST = 3.0
SCARCE_CAP = 0.6  # the confidence a suspect group's cells keep (below the review's 0.7: the group is asked)
# Fewer drawn cells than one season's shapes: a map photographed to be scored is finished, so a reading this
# bare is a faint hand read as paper (a pad in hard graphite: 3 of 50 drawn cells found, 46 sure "empty") far
# more often than a blank sheet. Its empty cells are doubted (a blank sheet's score is 0 either way).
NEARLY_BLANK = 10


def _drawn(labels: list[str]) -> int:
    return sum(1 for t in labels if t != "empty")


def scarce_terrains(labels: list[str]) -> list[str]:
    """The main terrains on (almost) no cell of a well-filled map, `labels` being the read drawable cells."""
    filled = _drawn(labels)
    if filled < MIN_FILLED:
        return []
    limit = max(SCARCE_CELLS, SCARCE_SHARE * filled)
    return [t for t in MAIN_TERRAINS if labels.count(t) <= limit]


def nearly_blank(labels: list[str]) -> bool:
    """Whether fewer than NEARLY_BLANK of the read drawable cells (`labels`) are drawn."""
    return _drawn(labels) < NEARLY_BLANK


def _could_be_missing(logq: np.ndarray, rows: list[int], k: int, classes: tuple[str, ...], missing: list[str],
                      limit: float) -> bool:
    """Could one of the `missing` terrains (other than their name `k`) explain `rows` at most `limit` worse, per
    row, than `k` does (mean log-probability)?"""
    ll = logq[rows].mean(axis=0)
    return any(classes[k] != t and float(ll[k] - ll[classes.index(t)]) <= limit for t in missing)


def suspect_groups(Q: np.ndarray, classes: tuple[str, ...], groups: list[list[int]], names: list[int],
                   missing: list[str]) -> list[int]:
    """Indices of the groups that could be a missing terrain at little cost (see the module's docstring).

    `Q` holds the sheet-adapted probabilities per cell (rows), over `classes`; `groups` are rows of like cells
    and `names` their class indices."""
    out = []
    logq = np.log(Q + 1e-6)
    for i, (rows, k) in enumerate(zip(groups, names, strict=True)):
        if len(rows) < MIN_MEMBERS:
            continue
        if _could_be_missing(logq, rows, k, classes, missing, MAX_COST):
            out.append(i)
    return out


def suspect_cells(Q: np.ndarray, classes: tuple[str, ...], groups: list[list[int]], missing: list[str]) -> list[int]:
    """Rows of `groups` (every group's, whatever its size) that could each be a missing terrain at little cost
    (CELL_MAX_COST), each cell read as its own most likely class.

    Why: a pen the grouping split into single cells is no group the pen test sees. A grey-blue watercolour wash
    over squared paper's green lines (photogen3 development seed 1202: 18 waters, each cell a group of its own,
    every one read as a sure forest) lacks water the way a misnamed pen does, and each of its cells says so: water
    costs them 0.9 to 4 where it costs the true forests 7 or more. A pen the grouping merged with another hides
    the same way inside a large group: a pale lime crayon forest grouped with the yellow farms (photogen3
    development seed 2062: one group of 50, 17 forests read as sure farms, no forest on the map) costs the group
    far more than `MAX_COST`, the true farms' costs drowning the forests'; cell by cell forest cost 11 of the 17
    forests 3.0 or less and none of the 92 other cells under 4.5. On the development photos of both
    generators (seeds 1800-1855 and 2100-2183, 280 photos) testing the cells of large groups too took silent
    errors 213 → 202 and flagged 13 more cells, right after review unchanged.
    """
    logq = np.log(Q + 1e-6)
    return [r for rows in groups for r in rows
            if _could_be_missing(logq, [r], int(np.argmax(Q[r])), classes, missing, CELL_MAX_COST)]
