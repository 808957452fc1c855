"""Pale strokes and written initials on arrays: the cell's mean tint, how evenly its ink spreads, pale hatching
grouped by colour whatever its strokes' direction, initials as evidence for their terrain, and the side chosen
without a bonus for having no wastelands."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import symbols
from vision.features import EVEN_TEXTURE, HUE_BINS, cell_arrays, evenness, planes, tint_hue
from vision.groups import make_groups
from vision.naming import name_groups

SIZE = 57


def hatched(colour_bgr, angle: float, step: float, rng, strength: float = 0.25) -> np.ndarray:
    """One cell (BGR 0..1) of pale pencil hatching: thin lines at `angle`, mixed into white by `strength`."""
    mask = np.zeros((SIZE, SIZE), np.float32)
    d = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    n = np.array([-d[1], d[0]])
    c = np.array([SIZE / 2, SIZE / 2])
    for k in np.arange(-SIZE, SIZE, step):
        a = c + n * (k + rng.normal(0, 0.5)) - d * SIZE
        b = c + n * (k + rng.normal(0, 0.5)) + d * SIZE
        cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 1.0, 2, cv2.LINE_AA)
    mask[:6], mask[-6:], mask[:, :6], mask[:, -6:] = 0, 0, 0, 0
    col = np.array(colour_bgr, np.float32)
    cell = 1.0 - strength * mask[..., None] * (1.0 - col)
    return cell + rng.normal(0, 0.01, cell.shape).astype(np.float32)


def row_of(cells: list[np.ndarray]) -> tuple[np.ndarray, dict]:
    img = np.concatenate(cells, axis=1).astype(np.float32)
    return np.clip(img, 0, 1), {(0, k): (float(k * SIZE), 0.0, float(SIZE)) for k in range(len(cells))}


def test_evenness_tells_hatching_from_a_symbol():
    rng = np.random.default_rng(1)
    hatch = 1.0 - hatched((0.2, 0.6, 0.2), 30, 5, rng).min(axis=2)
    symbol = np.zeros((SIZE, SIZE), np.float32)
    cv2.line(symbol, (20, 40), (28, 15), 0.6, 2)
    cv2.line(symbol, (28, 15), (36, 40), 0.6, 2)
    assert evenness(hatch[6:-6, 6:-6]) >= EVEN_TEXTURE > evenness(symbol[6:-6, 6:-6])
    assert evenness(np.zeros((SIZE, SIZE), np.float32)) == 0.0


def test_tint_hue_is_grey_near_zero_and_one_hue_when_tinted():
    grey, share = tint_hue(np.array([0.3, -0.2]))
    assert share == 0.0 and grey[HUE_BINS] == pytest.approx(1.0)
    h, share = tint_hue(np.array([-3.0, 1.0]))  # a faint green: Lab hue ≈ 162°
    assert share == pytest.approx(1.0) and h.sum() == pytest.approx(1.0)
    assert int(np.argmax(h[:HUE_BINS])) in (5, 6)


def test_pale_hatching_groups_by_colour_not_by_stroke_direction():
    """Faint green and faint blue hatching, each drawn at different angles and spacings (one hand varies): the
    per-pixel colour of such strokes is lost in noise, the cell's mean tint is not."""
    rng = np.random.default_rng(7)
    green, blue = (0.45, 0.65, 0.4), (0.8, 0.6, 0.4)  # BGR pencils
    spec = [(green, 25, 5), (blue, -35, 6), (green, 60, 4), (blue, 10, 5), (green, -20, 6), (blue, 70, 4),
            (green, 40, 5), (blue, -60, 5)]
    img, boxes = row_of([hatched(c, a, s, rng) for c, a, s in spec])
    a = cell_arrays(planes(img), boxes)
    assert (a.coverage < 0.05).all(), "the hatching must be pale: its strokes seldom cross the ink threshold"
    groups = make_groups(a, list(range(len(spec))))
    truth = ["g" if c == green else "b" for c, _, _ in spec]
    assert len(groups) == 2
    for g in groups:
        assert len({truth[r] for r in g.rows}) == 1
    naming = name_groups(a, groups)
    names = {truth[g.rows[0]]: naming.name(k) for k, g in enumerate(groups)}
    assert names == {"g": "forest", "b": "water"}


def test_an_initial_is_evidence_for_its_terrain():
    if not symbols.available():
        pytest.skip("no symbol model")
    m = symbols._model()
    classes = list(m["classes"])
    j = classes.index("letter-water")
    # a descriptor the model is sure is the initial W/S: push the logits by a made-up input through predict's
    # class mapping (the mapping is what is tested, not the network)
    p = np.zeros((1, len(classes)), np.float32)
    p[0, j] = 1.0
    out = symbols.terrain_probs(p, tuple(classes))
    assert out.shape == (1, 5) and out.sum() == pytest.approx(1.0)
    assert symbols.DRAWABLE[int(np.argmax(out[0]))] == "water"
    assert out[0].max() == pytest.approx(symbols.LETTER_TRUST + (1 - symbols.LETTER_TRUST) / 5)
    other = np.zeros((1, len(classes)), np.float32)
    other[0, classes.index("other")] = 1.0
    assert symbols.terrain_probs(other, tuple(classes))[0] == pytest.approx(np.full(5, 0.2))


def test_drawn_mountains_are_alike_in_colour():
    """Five cells hatched in one brown among cells of many colours: their colour likeness stands out, so the
    side whose mountains they are wins even where grey cross-correlation of the strokes says nothing."""
    from companion.cartographers.data import GRID_SIZE
    from vision.orient import FRAME_CELL, FRAME_PAD, colour_distances, colour_likeness

    rng = np.random.default_rng(3)
    size = (GRID_SIZE + 2 * FRAME_PAD) * FRAME_CELL
    frame = np.full((size, size, 3), 235, np.uint8)
    mountains = [(1, 3), (2, 8), (5, 5), (8, 2), (9, 7)]
    palette = [(60, 160, 60), (200, 120, 40), (40, 40, 200), (40, 200, 230), (150, 40, 130)]
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            col = (70, 90, 120) if (r, c) in mountains else palette[int(rng.integers(len(palette)))]
            y, x = (r + FRAME_PAD) * FRAME_CELL, (c + FRAME_PAD) * FRAME_CELL
            frame[y + 3 : y + FRAME_CELL - 3, x + 3 : x + FRAME_CELL - 3] = col
    tone = colour_distances(frame)
    idx = np.array([r * GRID_SIZE + c for r, c in mountains])
    rand = [colour_likeness(tone, rng.choice(GRID_SIZE * GRID_SIZE, 5, replace=False)) for _ in range(50)]
    assert colour_likeness(tone, idx) > 0.9 > max(rand)


def test_pale_brown_hatching_is_a_village_not_a_farm():
    """Lightly pressed brown pencil is as light as yellow: its lightness is paper, only its hue is the pencil's."""
    from vision.naming import DRAWABLE, colour_logits

    assert DRAWABLE[int(np.argmax(colour_logits(54.0, 92.0)))] == "farm"  # as if it were a dense colour
    assert DRAWABLE[int(np.argmax(colour_logits(54.0, None)))] == "village"
    assert DRAWABLE[int(np.argmax(colour_logits(150.0, None)))] == "forest"


def test_pale_even_hatching_counts_as_drawn_on_by_its_tint():
    """Hatching so light and even that no pixel is dark and none stands out is still drawn on: it is tinted."""
    from vision.cells import fill_probability

    rng = np.random.default_rng(11)
    cells = [hatched((0.45, 0.65, 0.4), 30 + 10 * k, 4, rng, 0.2) for k in range(4)]
    cells += [np.clip(1.0 + rng.normal(0, 0.01, (SIZE, SIZE, 3)), 0, 1).astype(np.float32) for _ in range(4)]
    img, boxes = row_of(cells)
    a = cell_arrays(planes(img), boxes)
    assert (a.coverage[:4] < 0.01).all()
    p = fill_probability(a, set(), True)
    assert (p[:4] > 0.5).all() and (p[4:] < 0.5).all()
