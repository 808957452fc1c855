"""vision.ruinsdoubt: ruins cells of a sheet found without markers are shown unless read all but certainly."""

from __future__ import annotations

import numpy as np

from vision.geometry import ruins_cells
from vision.ruinsdoubt import RUINS_CAP, RUINS_SURE, doubt_unmarked_ruins


def test_only_the_ruins_read_with_middling_confidence_are_lowered():
    conf = np.full((11, 11), 0.9)
    ruins = sorted(ruins_cells("A"))
    sure, doubtful = ruins[0], ruins[1]
    conf[sure] = RUINS_SURE
    conf[doubtful] = 0.4
    assert doubt_unmarked_ruins(conf, "A") == len(ruins) - 2
    assert conf[sure] == RUINS_SURE and conf[doubtful] == 0.4  # certain, or shown already: left alone
    for rc in ruins[2:]:
        assert conf[rc] == RUINS_CAP < 0.7
    others = np.ones((11, 11), bool)
    for rc in ruins:
        others[rc] = False
    assert (conf[others] == 0.9).all()


def test_each_side_its_own_ruins():
    for side in ("A", "B"):
        conf = np.full((11, 11), 0.8)
        doubt_unmarked_ruins(conf, side)
        assert {(int(r), int(c)) for r, c in zip(*np.nonzero(conf < 0.8), strict=True)} == ruins_cells(side)
