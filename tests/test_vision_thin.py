"""Thin strokes on found sheets, on arrays: a full map whose player drew every ruins cell keeps its drawn ruins
cells (no print to take off), while another design's printed ruins still are taken off an emptier map."""

from __future__ import annotations

import numpy as np

from vision.cells import fill_probability
from vision.features import CellArrays


def arrays(mass: list[float]) -> CellArrays:
    n = len(mass)
    cells = [(k // 11, k % 11) for k in range(n)]
    z = np.zeros(n, np.float32)
    return CellArrays(cells, np.asarray(mass, np.float32), z + 0.2, np.zeros((n, 2), np.float32), z, z + 50,
                      np.zeros((n, 13), np.float32), np.zeros((n, 4), np.float32), np.zeros((n, 4), np.float32), z,
                      z + 0.3, np.zeros((n, 2), np.float32), z)


def test_drawn_ruins_cells_of_a_full_map_stay_drawn():
    """Ballpoint symbols in every cell (mass 0.13–0.3): the emptiest ruins cell is a drawing like the others."""
    rng = np.random.default_rng(1)
    mass = list(rng.uniform(0.13, 0.3, 40))
    ruins = {(0, k) for k in range(6)}
    mass[:6] = [0.168, 0.138, 0.137, 0.134, 0.153, 0.159]
    p = fill_probability(arrays(mass), ruins, own_glyph=False)
    assert (p > 0.9).all()


def test_printed_ruins_of_another_design_are_still_taken_off():
    """A pad's blank cells carry texture (0.04); its printed ruins icons double that: blank ruins stay blank."""
    rng = np.random.default_rng(2)
    mass = list(rng.uniform(0.038, 0.045, 20)) + list(rng.uniform(0.2, 0.35, 20))
    ruins = {(0, k) for k in range(6)}
    mass[:6] = [0.099, 0.346, 0.094, 0.327, 0.097, 0.323]  # three blank ruins cells, three drawn
    p = fill_probability(arrays(mass), ruins, own_glyph=False)
    assert p[[0, 2, 4]].max() < 0.5 < p[[1, 3, 5]].min()


def dots_cell(darkness: float, rng, size: int = 57) -> np.ndarray:
    """A farm of 3 × 4 graphite dots (BGR 0..1), each `darkness` below paper at its centre, a little blurred."""
    import cv2

    m = np.zeros((size, size), np.float32)
    for i in range(3):
        for j in range(4):
            cv2.circle(m, (14 + 9 * j, 17 + 11 * i), 2, 1.0, -1, cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), 1.0)
    m /= m.max()
    cell = 1.0 - darkness * m[..., None] * np.ones(3, np.float32)
    return np.clip(cell + rng.normal(0, 0.008, cell.shape), 0, 1).astype(np.float32)


def test_faint_dots_keep_their_shape():
    """Lightly drawn dots never reach the sheet-wide stroke map's level: their shape is taken above the cell's own
    paper, and it matches the same dots drawn firmly."""
    from vision.features import cell_arrays, planes

    rng = np.random.default_rng(4)
    cells = [dots_cell(0.12, rng), dots_cell(0.6, rng), np.clip(1 + rng.normal(0, 0.008, (57, 57, 3)), 0, 1)]
    img = np.concatenate(cells, axis=1).astype(np.float32)
    boxes = {(0, k): (57.0 * k, 0.0, 57.0) for k in range(3)}
    a = cell_arrays(planes(img), boxes)
    faint, firm, blank = a.shape
    assert np.linalg.norm(faint) > 0 and np.linalg.norm(blank) == 0
    cos = float(faint @ firm / (np.linalg.norm(faint) * np.linalg.norm(firm)))
    assert cos > 0.8


def test_a_bold_ballpoint_that_also_shades_is_one_pen():
    """Blue ballpoint houses and faces (a third of a cell each), trees and waves shaded over in the same pen, and
    thin dots: one hue on every cell, so the colour names nothing; a colour sheet of shaded cells is not one pen."""
    from vision.groups import Group
    from vision.naming import _one_pen

    def group(k, n):
        return Group(k, list(range(n)), [(0, 0)] * n, (0, 0), np.ones(n))

    def summary(hue, cov):
        return {"hue": hue, "hue_share": 0.9, "neutral": 0.1, "light": 36.0, "coverage": cov, "stroke": 0.0,
                "pale": False}

    sizes_cov = [(19, 0.31), (16, 0.32), (23, 0.47), (19, 0.10), (4, 0.11), (5, 0.38), (3, 0.43), (2, 0.10)]
    groups = [group(k, n) for k, (n, _) in enumerate(sizes_cov)]
    ballpoint = [summary(284.0 + (k % 3), cov) for k, (_, cov) in enumerate(sizes_cov)]
    assert _one_pen(groups, ballpoint, [True] * len(groups))
    shaded = [summary(284.0 + (k % 3), max(cov, 0.35)) for k, (_, cov) in enumerate(sizes_cov)]
    assert not _one_pen(groups, shaded, [True] * len(groups))
    colours = [summary(hue, cov) for hue, (_, cov) in zip((284, 140, 60, 30, 284, 140, 60, 30), sizes_cov,
                                                          strict=True)]
    assert not _one_pen(groups, colours, [True] * len(groups))
