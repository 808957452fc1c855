"""Colour sheets read the right way up: the stages behind confident wrong cells (branch colour5, issue 10)."""

from __future__ import annotations

import numpy as np

from vision.light import grid_paper, whiten

CELL = 20


def _boxes(n: int = 11) -> dict:
    return {(r, c): (float(c * CELL), float(r * CELL), float(CELL)) for r in range(n) for c in range(n)}


def _sheet(colours: dict[tuple[int, int], tuple[float, float, float]], base=(1.0, 1.0, 1.0)) -> np.ndarray:
    img = np.empty((11 * CELL, 11 * CELL, 3), np.float32)
    img[:] = base
    for (r, c), bgr in colours.items():
        img[r * CELL : (r + 1) * CELL, c * CELL : (c + 1) * CELL] = bgr
    return img


YELLOW, GREEN, BLUE, RED = (0.25, 0.9, 0.95), (0.35, 0.5, 0.15), (0.7, 0.4, 0.1), (0.2, 0.3, 0.8)


def test_grid_paper_is_not_taken_from_solid_yellow_on_a_full_map():
    """Every cell solidly coloured (markers, edge to edge): the yellow farms are the brightest cells, yet they
    are ink; dividing by them turned green forests blue. The page's own white stands."""
    cols = [YELLOW, GREEN, BLUE, RED]
    img = _sheet({(r, c): cols[(r * 11 + c) % 4] for r in range(11) for c in range(11)})
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, 1.0)
    green = whiten(img, paper)[CELL + 5, 0 + 5]  # cell (1, 0) is GREEN
    assert green[1] > green[0]  # still green, not blue


def test_grid_paper_still_follows_a_cream_grid_among_solid_colours():
    """A pad prints its grid cream: the empty cells are paper, the coloured ones are not."""
    cream = (0.9, 0.97, 1.0)
    cols = {(r, c): (YELLOW if c % 2 else GREEN) for r in range(11) for c in range(11) if (r + c) % 3}
    img = _sheet(cols, base=cream)
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, cream, atol=0.02)


def test_grid_paper_sees_paper_between_hatching_strokes():
    img = _sheet({})
    for r in range(11):
        for c in range(11):
            y, x = r * CELL, c * CELL
            img[y : y + CELL, x : x + CELL : 3] = YELLOW if (r + c) % 2 else GREEN  # strokes, paper between
    paper = grid_paper(img, _boxes())
    assert np.allclose(paper, 1.0, atol=0.02)


def test_a_channel_brighter_than_paper_keeps_its_hue():
    """A salmon watercolour or an orange felt-tip can be brighter than the paper in red; clipping red alone
    made it yellow (a farm's colour). The whole pixel is scaled instead: its hue stays, paper stays white."""
    from vision.classify import to_lab
    from vision.light import fold_highlights

    salmon = np.array([[[0.78, 0.93, 1.24], [1.0, 1.0, 1.0], [1.3, 1.3, 1.3]]], np.float32)  # BGR
    folded = fold_highlights(salmon.copy())
    assert folded.max() <= 1.0
    lab_clip, lab_fold = to_lab(salmon)[0, 0], to_lab(folded)[0, 0]
    hue = lambda lab: np.degrees(np.arctan2(lab[2], lab[1])) % 360  # noqa: E731
    assert hue(lab_fold) < 55 < hue(lab_clip)  # red-orange, not yellow
    assert np.allclose(folded[0, 1], 1.0) and np.allclose(folded[0, 2], 1.0)  # paper and glare stay white


def test_whiten_folds_too():
    img = np.full((4, 4, 3), (0.6, 0.7, 1.2), np.float32)
    out = whiten(img, np.ones(3, np.float32))
    assert out.max() <= 1.0 and np.allclose(out[0, 0], (0.5, 0.7 / 1.2, 1.0), atol=1e-5)
    near = whiten(np.full((2, 2, 3), (0.9, 1.0, 1.05), np.float32), np.ones(3, np.float32))
    assert np.allclose(near, (0.9, 1.0, 1.05))  # paper noise and a slight tint are not scaled into ink
