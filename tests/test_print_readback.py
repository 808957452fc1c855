"""A printed blank sheet, rasterised like a perfect scan, reads back through `vision/` as an empty map."""

from __future__ import annotations

import cv2
import pytest

from companion.cartographers.data import MAPS
from printables import map_sheet_pdf
from printables.layout import PAPERS, SIDES
from printables.raster import rasterize

read_sheet = pytest.importorskip("vision.reading").read_sheet


@pytest.mark.parametrize(("side", "paper"), [(s, p) for s in SIDES for p in PAPERS])
def test_blank_sheet_reads_back_empty_with_its_identity(side: str, paper: str) -> None:
    pdf = map_sheet_pdf(side, paper, "tr", sheet_ids=["READBACK2345"], table="T9", seats=[3])
    ok, png = cv2.imencode(".png", cv2.cvtColor(rasterize(pdf, 0, 150), cv2.COLOR_RGB2BGR))
    assert ok
    reading = read_sheet(png.tobytes(), overlay=False)
    assert reading.side == side
    assert (reading.sheet_id, reading.table, reading.seat) == ("READBACK2345", "T9", 3)
    assert reading.coins == 0
    m = MAPS[side]
    expected = [["empty"] * 11 for _ in range(11)]
    for r, c in m.mountains:
        expected[r][c] = "mountain"
    for r, c in m.wastelands:
        expected[r][c] = "wasteland"
    assert reading.grid == expected
