"""When the sheet's lines and its printed features disagree about where the grid is (`lattice.settle_dispute`).

On the game's pad the decorated frame, its ruler ticks and strong symbols can make a lattice a cell or more off
the grid start and stop like one; the side's printed mountains then lie off its mountain cells. The arrays here
are a printed sheet drawn in code: a grid of thin lines on parchment, side A's mountains printed in their
cells, the other cells drawn on or left empty.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from vision.lattice import (
    DISPUTE_GAP,
    RIVAL_EVIDENCE,
    Lattice,
    outline_of,
    overlaps,
    settle_dispute,
)
from vision.orient import MIN_CONFIRM, orient_lattice

CELL = 40
ORIGIN = 120  # pixels from the image's corner to the grid's


def _lattice(x0: float, y0: float, cell: float, evidence: float = 0.5, from_layout: bool = False) -> Lattice:
    """An axis-aligned lattice: grid units → pixels, its 12 × 12 crossings measured where they are."""
    H = np.array([[cell, 0, x0], [0, cell, y0], [0, 0, 1.0]])
    g = np.arange(GRID_SIZE + 1, dtype=np.float64)
    X, Y = np.meshgrid(x0 + cell * g, y0 + cell * g)
    return Lattice(H, np.stack([X, Y], axis=-1), 1.0, evidence, from_layout)


def _printed_sheet(rng: np.random.Generator) -> np.ndarray:
    """Side A drawn in code: parchment, a thin brown grid, the five printed mountains (a dark triangle on a
    brown square), a third of the other cells coloured in by a player."""
    size = 2 * ORIGIN + GRID_SIZE * CELL
    img = np.empty((size, size, 3), np.uint8)
    img[:] = (190, 215, 232)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    colours = [(60, 140, 60), (200, 130, 50), (60, 60, 190), (40, 190, 220)]
    mountains = set(MAPS["A"].mountains)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            x, y = ORIGIN + c * CELL, ORIGIN + r * CELL
            if (r, c) in mountains:
                cv2.rectangle(img, (x + 3, y + 3), (x + CELL - 3, y + CELL - 3), (40, 60, 110), -1)
                tri = np.array([[x + 8, y + CELL - 8], [x + CELL // 2, y + 8], [x + CELL - 8, y + CELL - 8]])
                cv2.fillPoly(img, [tri], (235, 240, 245))
            elif rng.random() < 0.35:
                col = colours[rng.integers(len(colours))]
                cv2.rectangle(img, (x + 5, y + 5), (x + CELL - 5, y + CELL - 5), col, -1)
    for i in range(GRID_SIZE + 1):
        p = ORIGIN + i * CELL
        cv2.line(img, (p, ORIGIN), (p, ORIGIN + GRID_SIZE * CELL), (60, 100, 150), 1)
        cv2.line(img, (ORIGIN, p), (ORIGIN + GRID_SIZE * CELL, p), (60, 100, 150), 1)
    return img


def test_overlaps_is_about_the_same_part_of_the_photo():
    grid = _lattice(100, 100, 40)
    assert overlaps(grid, _lattice(140, 100, 40))  # a cell off: the same sheet
    assert overlaps(grid, _lattice(60, 60, 48))  # a wider pitch over the same grid
    assert not overlaps(grid, _lattice(1000, 100, 40))  # a lattice beside the sheet
    assert outline_of(grid).tolist() == [[100, 100], [540, 100], [540, 540], [100, 540]]
    lost = _lattice(140, 100, 40)
    lost.points[3, 4] = np.nan
    assert not overlaps(grid, lost)


def test_printed_mountains_tell_the_grid_from_a_lattice_a_cell_off():
    """The stage's premise, on arrays: the side's mountains confirm the lattice on the grid and not one a cell
    off it (which is what the lines alone may prefer: a frame read as one more line)."""
    img = _printed_sheet(np.random.default_rng(3))
    true = orient_lattice(img, _lattice(ORIGIN, ORIGIN, CELL), "A", text=False).confirm
    off = orient_lattice(img, _lattice(ORIGIN + CELL, ORIGIN, CELL), "A", text=False).confirm
    assert true >= MIN_CONFIRM
    assert true - off >= DISPUTE_GAP


def test_the_printed_mountains_overrule_the_lines_over_the_same_sheet():
    img = _printed_sheet(np.random.default_rng(5))
    true = _lattice(ORIGIN, ORIGIN, CELL, evidence=0.1, from_layout=True)  # faint dashes, the layout's guess
    off = _lattice(ORIGIN, ORIGIN - CELL, CELL, evidence=0.6)  # the lines' choice: one row up, into the frame
    c_true = orient_lattice(img, true, None, text=False).confirm
    c_off = orient_lattice(img, off, None, text=False).confirm
    lat, conf = settle_dispute((off, c_off), [(off, c_off), (true, c_true)], MIN_CONFIRM)
    assert lat is true and conf == c_true


def test_a_dispute_needs_a_clearly_confirmed_rival_over_the_same_sheet():
    chosen = _lattice(100, 100, 40, evidence=0.6)
    near = _lattice(140, 100, 40, evidence=0.1)
    # No rival confirmed by the printed mountains: the lines' lattice stays (hand-ruled, squared, plain prints).
    assert settle_dispute((chosen, 0.5), [(chosen, 0.5), (near, MIN_CONFIRM - 0.1)], MIN_CONFIRM)[0] is chosen
    # Confirmed, but not clearly better confirmed than the chosen one.
    c = MIN_CONFIRM + 1
    assert settle_dispute((chosen, c - DISPUTE_GAP + 0.1), [(near, c)], MIN_CONFIRM)[0] is chosen
    # Confirmed, but beside the sheet: not a rival for this grid.
    far = _lattice(2000, 100, 40, evidence=0.1)
    assert settle_dispute((chosen, 0.5), [(far, 9.0)], MIN_CONFIRM)[0] is chosen
    # Confirmed over the same sheet, but with no segments of its own at all: no grid there.
    bare = _lattice(140, 100, 40, evidence=RIVAL_EVIDENCE - 0.1)
    assert settle_dispute((chosen, 0.5), [(bare, 9.0)], MIN_CONFIRM)[0] is chosen
    # Confirmed clearly better, over the same sheet, with faint segments: it wins; the best confirmed of several.
    better = _lattice(100, 140, 40, evidence=0.0)
    got = settle_dispute((chosen, 0.5), [(chosen, 0.5), (near, 5.0), (better, 7.0)], MIN_CONFIRM)
    assert got == (better, 7.0)


def test_a_lattice_must_be_a_square_seen_by_a_phone():
    """A comb spanning the grid one way and a few of its cells the other (eleven columns over four rows of a curled,
    glared sheet) starts and stops like a grid along both; it is no 11 × 11 grid of square cells, whatever its
    segments or mountains say. Foreshortened by a tilted phone, a grid stays well inside the bound."""
    from vision.lattice import EVIDENCE_ALONE, LATTICE_SQUARISH, lattice_accepted

    assert lattice_accepted(_lattice(100, 100, 40, evidence=EVIDENCE_ALONE + 0.2), 0.0, MIN_CONFIRM)
    g = np.arange(GRID_SIZE + 1, dtype=np.float64)
    X, Y = np.meshgrid(100 + 100 * g, 100 + 25 * g)  # 4 : 1
    flat = Lattice(np.array([[100, 0, 100], [0, 25, 100], [0, 0, 1.0]]), np.stack([X, Y], axis=-1), 1.0,
                   EVIDENCE_ALONE + 0.2)
    assert not lattice_accepted(flat, 9.0, MIN_CONFIRM)
    # A square seen 35° off straight above: one way foreshortened by cos 35° ≈ 0.82.
    X, Y = np.meshgrid(100 + 40 * g, 100 + 40 * 0.82 * g)
    tilted = Lattice(np.diag([40, 40 * 0.82, 1.0]), np.stack([X, Y], axis=-1), 1.0, EVIDENCE_ALONE + 0.2)
    assert lattice_accepted(tilted, 0.0, MIN_CONFIRM)
    assert LATTICE_SQUARISH > 1 / 0.82


def test_corner_markers_that_agree_with_the_chosen_lattice_are_not_overruled():
    from vision.orient import lattice_to_read

    chosen = _lattice(100, 100, 30, evidence=0.6)
    rival = _lattice(130, 100, 30, evidence=0.1)
    seen = [(chosen, 1.0), (rival, 9.0)]
    assert lattice_to_read(chosen, 1.0, False, seen) is rival  # the mountains' word wins over the lines'
    assert lattice_to_read(chosen, 1.0, True, seen) is chosen  # the markers' word wins over the mountains'


def test_strongly_confirmed_faint_lattice_is_the_grid():
    """The pad's first comb can lie up to half a cell off its faint dashes, so its segments barely cover it
    (evidence a little below zero). Mountains at exactly the printed cells, as strong as a rival needs to
    overrule a confirmed grid, make it the grid all the same; one cell off they do not, nor do mountains
    that only just confirm it, nor a lattice whose segments are absent rather than faint."""
    from vision.lattice import EVIDENCE_CONFIRMED, MIN_LATTICE_SCORE, lattice_accepted

    img = _printed_sheet(np.random.default_rng(7))
    faint = EVIDENCE_CONFIRMED - 0.1  # and a weak comb (`_lattice` scores 1.0): neither stands on its own
    assert _lattice(0, 0, CELL).score < MIN_LATTICE_SCORE
    true = _lattice(ORIGIN, ORIGIN, CELL, evidence=faint)
    z = orient_lattice(img, true, None, text=False).confirm
    assert z >= MIN_CONFIRM + DISPUTE_GAP
    assert lattice_accepted(true, z, MIN_CONFIRM)
    off = _lattice(ORIGIN + CELL, ORIGIN, CELL, evidence=faint)
    assert not lattice_accepted(off, orient_lattice(img, off, None, text=False).confirm, MIN_CONFIRM)
    assert not lattice_accepted(true, MIN_CONFIRM + DISPUTE_GAP - 0.1, MIN_CONFIRM)
    bare = _lattice(ORIGIN, ORIGIN, CELL, evidence=RIVAL_EVIDENCE - 0.1)
    assert not lattice_accepted(bare, z, MIN_CONFIRM)
