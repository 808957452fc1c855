"""Stage 7d: the side of a sheet without markers, checked by how its mountain cells look to the cell model.

Why: `vision.orient` chooses the side from grey patches (the printed mountains alike and darker than the rest).
Washes, heavy fills and glare fool that, and then every printed cell of the chosen side lies on a drawn cell:
5 to 12 cells read as mountains or wastelands with full confidence, all wrong together. The cell model's features
(its last layer, `NetCells.emb`) see a printed mountain as one and the same thing whatever the pen or the light
around it, so the five cells where the true side prints its mountains are far more alike to the model than the
five where the other side does. On development photos without markers (seeds 800.. and 1000.., both generators,
171 found sheets) this likeness named the true side on 168 sheets where the orientation cues did on 160; no sheet
on its true side had the other side ahead by more than 0.07, and 8 of the 11 on the wrong side had the true side
ahead by more than 0.28 (`bench/README.md`). So when the other side's mountains look more alike than the chosen
side's by `LOOK_SWITCH`, the sheet is read again as the other side; otherwise the margin enters the chance that
the chosen side is right (`vision.sideprob`).

The same likeness says when the grid is not on the map at all: on a lattice found on something else (the frame,
a drawn wash, a page's curl, a scale a few cells off), the cells where the read side prints its mountains are no
more alike than any five cells (`grid_off_map`).
"""

from __future__ import annotations

import numpy as np

from companion.cartographers.data import MAPS
from vision.orient import set_similarity

LOOK_SWITCH = 0.15  # the other side's mountains this much more alike (mean cosine, less the rest) → the other side
# The read side's mountains less alike than this: the grid is not where the map is. Development photos without
# markers (seeds 2100.., 2300.., 2500.., both generators, 385 found sheets): 16 sheets below it, 12 of them with
# the lattice more than a cell off (of 15 such sheets) and the other 4 with 25-77 cells wrong; the least alike
# sheet read right after review stood at 0.18 (bench/README.md, session 28).
MOUNTAINS_ALIKE = 0.1
SIDES = ("A", "B")  # the base game's sides, told apart by where their mountains are


def other_side(side: str) -> str:
    """The base side that is not `side` (one of SIDES)."""
    return SIDES[1 - SIDES.index(side)]


def likeness(sim: np.ndarray, rows: list[int]) -> float:
    """How alike the cells `rows` look to each other (mean of `sim`, the cells' cosine similarities) less how alike
    they look to every other cell: printed mountains are like each other and unlike the map around them."""
    n = len(rows)
    if n < 2 or n >= len(sim):
        return 0.0
    rest = np.ones(len(sim), bool)
    rest[rows] = False
    return set_similarity(sim, np.asarray(rows)) - float(sim[rows][:, rest].mean())


def side_likeness(cells: list[tuple[int, int]], emb: np.ndarray, side: str) -> tuple[float, float]:
    """The `likeness` of `side`'s mountain cells and of the other side's. `cells` are the rows of `emb`, which
    must hold every mountain cell of both sides."""
    row = {c: k for k, c in enumerate(cells)}
    unit = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-6)
    sim = unit @ unit.T
    return (likeness(sim, [row[c] for c in MAPS[side].mountains]),
            likeness(sim, [row[c] for c in MAPS[other_side(side)].mountains]))


def look_margin(cells: list[tuple[int, int]], emb: np.ndarray, side: str) -> float:
    """How much more alike `side`'s mountain cells look than the other side's (positive: `side` is the likelier)."""
    own, other = side_likeness(cells, emb, side)
    return own - other


def grid_off_map(alike: float | None) -> bool:
    """Whether the read side's mountains (their `likeness`, None when not measured) look so little alike that the
    grid cannot be on the map: then every cell read is in doubt, whatever the cell model says of it."""
    return alike is not None and alike < MOUNTAINS_ALIKE


def other_side_by_look(side: str, margin: float) -> str | None:
    """The other base side when its mountains look more alike than `side`'s by LOOK_SWITCH (`margin` is
    `look_margin` for `side`), else None."""
    if side not in SIDES:
        return None
    return other_side(side) if margin < -LOOK_SWITCH else None
