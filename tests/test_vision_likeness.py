"""The learned likeness of cells (`vision.cellsim`) and its part in grouping (`vision.groups`), on arrays."""

from __future__ import annotations

import numpy as np

from tests.test_vision_learning import patch_sheet
from vision import cellsim
from vision.features import cell_arrays, planes
from vision.groups import make_groups


def _one_green_row() -> tuple:
    green = (0.3, 0.6, 0.2)  # BGR: six cells drawn with one pen, as alike as measured features can say
    img, boxes = patch_sheet([green] * 6)
    return cell_arrays(planes(img), boxes)


def test_without_likeness_one_pen_is_one_group():
    a = _one_green_row()
    assert [g.cells for g in make_groups(a, range(6))] == [[(0, k) for k in range(6)]]


def test_learned_likeness_splits_what_the_measured_features_cannot_tell_apart():
    """Two hands' greens that measure alike are two classes when the likeness model says they were drawn apart."""
    a = _one_green_row()
    like = np.array([[1.0, 0.0]] * 3 + [[0.0, 1.0]] * 3, np.float32)
    groups = make_groups(a, range(6), like=like)
    assert [g.cells for g in groups] == [[(0, 0), (0, 1), (0, 2)], [(0, 3), (0, 4), (0, 5)]]
    alike = np.array([[0.6, 0.8]] * 6, np.float32)
    assert len(make_groups(a, range(6), like=alike)) == 1


def test_likeness_rows_follow_the_rows_grouped():
    """`like` holds a row per cell of the arrays, and only the grouped rows' vectors are used."""
    a = _one_green_row()
    like = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]], np.float32)
    groups = make_groups(a, [1, 2, 4], like=like)
    assert [g.cells for g in groups] == [[(0, 1), (0, 2), (0, 4)]]


def test_likeness_distances_are_one_minus_cosine():
    v = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], np.float32)
    d = cellsim.distances(v)
    assert np.allclose(np.diag(d), 0) and np.isclose(d[0, 1], 1) and np.isclose(d[0, 2], 2)


def test_the_shipped_likeness_tells_symbols_apart_it_was_never_shown():
    """Fresh unseen symbols (new seeds of the training's own design generator), one hand: the shipped weights
    put each design's renders together and the designs apart, so grouping at LIKE_MERGE_AT keeps them apart."""
    from scripts.cellnet_data import SCALE
    from scripts.train_cellsim import design_sheet
    from vision.groups import LIKE_MERGE_AT, cluster

    assert cellsim.available()
    pure = total = 0
    for seed in range(4):
        x = design_sheet(np.random.default_rng(90_000 + seed), designs=5, each=5).astype(np.float32) / SCALE
        y = np.repeat(np.arange(5), 5)
        d = cellsim.distances(cellsim.vectors(x))
        within = d[(y[:, None] == y[None, :]) & ~np.eye(25, dtype=bool)].mean()
        between = d[y[:, None] != y[None, :]].mean()
        assert within * 3 < between
        parts = cluster(d, LIKE_MERGE_AT)
        pure += sum(int(np.bincount(y[p]).max()) for p in parts)
        total += 25
        assert len(parts) <= 10  # over-split a little at most: each group is one tap
    assert pure / total >= 0.95
