"""The vectorised feature helpers give the same numbers as the library calls they replace."""

import numpy as np
import pytest
from skimage.feature import hog

from vision.features import hog_cells, stroke_extent


@pytest.mark.parametrize("shape", [(36, 36), (40, 37), (12, 18)])
def test_hog_cells_matches_skimage(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        a = (rng.random(shape) * (rng.random(shape) > 0.7)).astype(np.float32)
        ref = hog(a, orientations=9, pixels_per_cell=(6, 6), cells_per_block=(1, 1), feature_vector=True)
        assert hog_cells(a).shape == ref.shape
        assert np.abs(hog_cells(a) - ref).max() < 1e-6


def test_hog_cells_of_blank_map_is_zero():
    assert not hog_cells(np.zeros((36, 36), np.float32)).any()


def test_stroke_extent_matches_percentile_of_pixel_coordinates():
    rng = np.random.default_rng(3)
    for _ in range(300):
        h, w = rng.integers(5, 60, 2)
        on = rng.random((h, w)) < rng.random() * 0.3
        ys, xs = np.nonzero(on)
        got = stroke_extent(on)
        if len(ys) < 12:
            assert got is None
            continue
        want = (*np.percentile(ys, [1, 99]), *np.percentile(xs, [1, 99]))
        assert np.allclose(got, want, atol=1e-9)
