"""Stage 2d on arrays: which way up an unmarked sheet is, from the text around its grid (and the other cues).

A side A sheet is symmetric under a half turn in its printed cells, so a sheet turned round must come out either
right or `unsure` (the review then asks) — never silently turned.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import MAPS
from vision import upright
from vision.lattice import Lattice
from vision.orient import orient_lattice

CELL, X0 = 48, 300  # pixels per cell, grid origin
SIZE = X0 * 2 + 11 * CELL

needs_model = pytest.mark.skipif(not upright.available(), reason="vision/data/glyphs.npz is not shipped")


def _sheet(side: str = "A", labels: bool = True, header: bool = True) -> np.ndarray:
    """An upright, straightened sheet: grid lines, the side's mountains (filled triangles), row letters on the left,
    column numbers below, a title above and score labels below."""
    img = np.full((SIZE, SIZE, 3), 236, np.uint8)
    for i in range(12):
        cv2.line(img, (X0 + i * CELL, X0), (X0 + i * CELL, X0 + 11 * CELL), (60, 60, 60), 2)
        cv2.line(img, (X0, X0 + i * CELL), (X0 + 11 * CELL, X0 + i * CELL), (60, 60, 60), 2)
    for r, c in MAPS[side].mountains:
        x, y = X0 + c * CELL, X0 + r * CELL
        cv2.fillPoly(img, [np.array([[x + 8, y + 40], [x + 24, y + 8], [x + 40, y + 40]])], (70, 70, 90))
    font = cv2.FONT_HERSHEY_SIMPLEX
    if labels:
        for r in range(11):
            cv2.putText(img, "ABCDEFGHIJK"[r], (X0 - 36, X0 + r * CELL + 34), font, 0.8, (40, 40, 40), 2, cv2.LINE_AA)
        for c in range(11):
            cv2.putText(img, str(c + 1), (X0 + c * CELL + 12, X0 + 11 * CELL + 34), font, 0.7, (40, 40, 40), 2,
                        cv2.LINE_AA)
    if header:
        cv2.putText(img, "Cartographers", (X0, X0 - 120), font, 1.6, (30, 30, 30), 3, cv2.LINE_AA)
        cv2.putText(img, "Name: ______", (X0, X0 - 50), font, 0.9, (30, 30, 30), 2, cv2.LINE_AA)
        for i, word in enumerate(("Spring", "Summer", "Autumn", "Winter")):
            cv2.putText(img, word, (X0 + i * 130, X0 + 11 * CELL + 110), font, 0.8, (30, 30, 30), 2, cv2.LINE_AA)
    return img


def _lattice() -> Lattice:
    """The grid in image order (x = column line, y = row line), as the lattice finder reports it."""
    H = np.array([[CELL, 0, X0], [0, CELL, X0], [0, 0, 1]], float)
    u = np.arange(12.0)
    pts = np.stack(np.meshgrid(X0 + CELL * u, X0 + CELL * u), axis=-1)
    return Lattice(H, pts, 5.0)


@needs_model
def test_glyph_model_tells_upright_letters_from_turned_ones():
    img = cv2.cvtColor(_sheet(), cv2.COLOR_BGR2GRAY)
    dark = upright.darkness(img)
    keep = np.ones(dark.shape, bool)
    keep[X0 - 5 : X0 + 11 * CELL + 5, X0 - 5 : X0 + 11 * CELL + 5] = False
    crops = upright.glyph_crops(dark, 8, 120, keep)
    assert len(crops) >= 20  # letters, digits and words around the grid
    v = upright.votes_from_crops(crops)
    assert int(np.argmax(v.log_odds)) == 0 and v.lead(0, 2) > 3.0
    turned = upright.votes_from_crops([np.ascontiguousarray(np.rot90(c, 2)) for c in crops])
    assert int(np.argmax(turned.log_odds)) == 2


@needs_model
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_side_a_sheet_with_row_letters_comes_out_right_or_unsure(turn):
    img = np.ascontiguousarray(np.rot90(_sheet("A"), turn))
    o = orient_lattice(img, _lattice())
    # np.rot90(img, turn) turned the sheet; turning the lattice back by -turn puts it upright
    assert o.side == "A"
    assert o.k == (-turn) % 4 or o.unsure
    if turn in (0, 2):
        assert o.k == (-turn) % 4, "row letters, column numbers and a title are plenty to tell a half turn"


def _bare_sheet() -> np.ndarray:
    """Side A's grid with no text and its mountains as squares: symmetric blobs instead of upright triangles."""
    img = _sheet("A", labels=False, header=False)
    for r, c in MAPS["A"].mountains:
        x, y = X0 + c * CELL, X0 + r * CELL
        cv2.rectangle(img, (x + 8, y + 8), (x + 40, y + 40), (70, 70, 90), -1)
    return img


@pytest.mark.parametrize("turn", [0, 2])
def test_bare_side_a_grid_is_unsure_not_guessed(turn):
    """No text, no margins, symmetric printed cells: nothing tells a half turn, so the review must ask."""
    img = np.ascontiguousarray(np.rot90(_bare_sheet(), turn))
    o = orient_lattice(img, _lattice())
    assert o.unsure


def test_no_glyphs_no_votes():
    v = upright.votes_from_crops([])
    assert v.glyphs == 0 and np.all(v.log_odds == 0)


def test_glyph_descriptor_has_a_fixed_length_for_any_crop():
    rng = np.random.default_rng(0)
    for h, w in ((5, 40), (40, 5), (17, 23), (1, 1)):
        d = upright.glyph_descriptor(rng.random((h, w)).astype(np.float32))
        assert d.shape == (upright.GLYPH_DIM,) and np.isfinite(d).all()


def test_batched_descriptor_hog_equals_the_single_one():
    from vision.features import hog_cells

    rng = np.random.default_rng(1)
    crops = [rng.random((int(rng.integers(5, 40)), int(rng.integers(5, 40)))).astype(np.float32) for _ in range(12)]
    batch = upright.glyph_descriptors(crops)
    for c, b in zip(crops, batch, strict=True):
        h = hog_cells(upright._square(c))
        h = h / max(float(np.linalg.norm(h)), 1e-6)
        assert np.allclose(b[: len(h)], h, atol=1e-5)


def test_peak_direction_sees_which_way_a_mountain_points():
    patch = np.full((48, 48), 230, np.uint8)
    cv2.fillPoly(patch, [np.array([[8, 40], [24, 8], [40, 40]])], 60)
    assert upright.peak_direction(patch) > 0.3
    assert upright.peak_direction(np.ascontiguousarray(patch[::-1])) < -0.3


def _squared(img: np.ndarray, level: float = 0.14, noise: float = 0.05, step: int = 24, seed: int = 1,
             start: int = 11) -> np.ndarray:
    """The sheet on squared paper: faint rulings every `step` px (from `start`: 11 lays them on the grid's lines
    and makes them symmetric under a half turn) whose ink wavers along them about `level` (darkness), so that an
    ink threshold breaks them into crosses, Ts and Ls between the crossings."""
    rng = np.random.default_rng(seed)
    f = img.astype(np.float32) / 255
    for axis in (0, 1):
        m = np.zeros(img.shape[:2], np.float32)
        m[start::step] = m[start + 1 :: step] = 1  # rulings two pixels thick across ...
        m = m if axis == 0 else np.ascontiguousarray(m.T)  # ... then down
        wave = cv2.GaussianBlur(rng.normal(0, 1, m.shape).astype(np.float32), (0, 0), 3)
        f *= (1 - m * np.clip(level + noise * wave / wave.std(), 0, 1))[..., None]
    return (f * 255).astype(np.uint8)


def _text_frame(img: np.ndarray) -> np.ndarray:
    return upright.text_frame(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), _lattice().homography)


def test_without_rulings_takes_out_long_lines_and_keeps_short_strokes():
    dark = np.zeros((120, 120), np.float32)
    dark[30:32, :] = 0.3  # a ruling across
    dark[:, 70:72] = 0.2  # a ruling down
    dark[50:70, 20:23] = 0.8  # a letter's stroke, 20 px
    out = upright.without_rulings(dark, 36)
    assert out[30:32, :60].max() < 1e-6 and out[:25, 70:72].max() < 1e-6
    assert np.allclose(out[50:70, 20:23], 0.8)


@needs_model
def test_squared_papers_rulings_cast_no_votes_once_taken_out():
    frame = _text_frame(_squared(_sheet("A", labels=False, header=False)))
    raw = upright.text_votes(frame)
    assert raw.glyphs >= 40  # the rulings' pieces, taken for letters
    v = upright.text_votes(frame, squared=True)
    assert v.glyphs < upright.MIN_SQUARED_GLYPHS and np.all(v.log_odds == 0)  # a few strays: no vote


@needs_model
@pytest.mark.parametrize("level", [0.14, 0.2])
def test_text_on_squared_paper_still_votes_once_the_rulings_are_out(level):
    frame = _text_frame(_squared(_sheet("A"), level=level))
    v = upright.text_votes(frame, squared=True)
    assert v.glyphs >= 30 and int(np.argmax(v.log_odds)) == 0 and v.lead(0, 2) > 20.0


@pytest.mark.parametrize("turn", [0, 2])
def test_bare_grid_on_squared_paper_is_unsure_not_guessed(turn):
    """Squared paper's broken rulings are no text: a bare side A grid drawn on it is still asked."""
    o = orient_lattice(np.ascontiguousarray(np.rot90(_squared(_bare_sheet()), turn)), _lattice())
    assert o.unsure
