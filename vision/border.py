"""Stage 2 fallback: sheets without markers, found by the grid's thick outer border."""

from __future__ import annotations

import numpy as np

from vision.locate import SheetLocation


def locate_by_border(image: np.ndarray, gray: np.ndarray, side_hint: str | None) -> SheetLocation | None:
    return None
