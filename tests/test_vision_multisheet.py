"""Several sheets in one photo (`vision.multisheet`): the stages on arrays, then a round trip — sheets printed
for a table, drawn on, laid on a table and photographed together (`bench.synthtable`) → read → filed by seat."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from printables.layout import MARKER_IDS, sheet_layout
from vision.locate import marker_page_corners
from vision.multisheet import (
    cut_out,
    find_sheets,
    group_markers,
    grown,
    page_outline,
    paint_over,
    paper_regions,
    read_all,
    read_sheets,
    table_colour,
)

ROOT = Path(__file__).resolve().parents[1]


def _similarity(angle: float, scale: float, tx: float, ty: float) -> np.ndarray:
    a = np.radians(angle)
    return np.array([[scale * np.cos(a), -scale * np.sin(a), tx], [scale * np.sin(a), scale * np.cos(a), ty],
                     [0, 0, 1.0]])


def _markers_of(H: np.ndarray, side: str) -> list[tuple[int, np.ndarray]]:
    lay = sheet_layout(side)
    return [(mid, cv2.perspectiveTransform(marker_page_corners(lay, mid)[None], H)[0]) for mid in MARKER_IDS[side]]


def test_markers_of_two_sheets_are_grouped_by_sheet():
    # the same ids twice (every sheet carries them); one sheet turned a half round, the other a little skewed
    H1, H2 = _similarity(8, 1.2, 40, 30), _similarity(185, 1.1, 1500, 1100)
    instances = _markers_of(H1, "A") + _markers_of(H2, "A")
    instances = instances[::2] + instances[1::2]  # detection order says nothing about the sheet
    groups = group_markers(instances)
    assert len(groups) == 2
    for g in groups:
        assert sorted(g.markers) == [0, 1, 2, 3]
        truth = H1 if np.allclose(g.markers[0], _markers_of(H1, "A")[0][1]) else H2
        np.testing.assert_allclose(page_outline(g.homography, "A"), page_outline(truth, "A"), atol=1e-3)


def test_a_lone_marker_is_no_sheet_and_three_markers_still_are():
    H1, H2 = _similarity(0, 1.0, 0, 0), _similarity(90, 1.0, 2000, 0)
    instances = _markers_of(H1, "B")[:3] + _markers_of(H2, "B")[:1]
    groups = group_markers(instances)
    assert len(groups) == 1 and sorted(groups[0].markers) == [4, 5, 6]


def test_painting_over_and_cutting_out_keep_only_the_sheet():
    img = np.full((400, 600, 3), (40, 80, 140), np.uint8)  # a brown table
    a = np.array([[50, 50], [250, 50], [250, 350], [50, 350]], np.float64)
    b = np.array([[300, 60], [560, 60], [560, 340], [300, 340]], np.float64)
    for q in (a, b):
        cv2.fillConvexPoly(img, q.astype(np.int32), (250, 250, 250))
    colour = table_colour(img, [a, b])
    np.testing.assert_array_equal(colour, (40, 80, 140))
    painted = paint_over(img, [a], colour)
    assert (painted[200, 150] == colour).all() and (painted[200, 400] == 250).all()
    crop, (x0, y0) = cut_out(img, a, [b], colour, margin=0.3)  # the margin reaches into b: b is painted over
    assert (x0, y0) == (0, 0)
    assert (crop[200, 150] == 250).all()
    assert (crop[200, min(crop.shape[1] - 1, 310)] == colour).all()
    np.testing.assert_allclose(grown(a, 0.5).mean(axis=0), a.mean(axis=0))


def test_paper_regions_are_the_sheets_on_a_coloured_table():
    img = np.full((900, 1200, 3), (40, 90, 150), np.uint8)  # wood
    boxes = [((300, 450), (300, 420), 10), ((850, 430), (320, 440), -80)]
    for b in boxes:
        cv2.fillConvexPoly(img, cv2.boxPoints(b).astype(np.int32), (235, 240, 240))
    regions = paper_regions(img)
    assert len(regions) == 2
    centres = sorted(tuple(np.round(r.mean(axis=0) / 50)) for r in regions)
    assert centres == sorted(tuple(np.round(np.array(b[0]) / 50)) for b in boxes)


@pytest.fixture(scope="module")
def table_photo():
    from bench.synthtable import make_table_photo

    return make_table_photo(11, n=3, kinds=("table", "ours", "table"), megapixels=6, table="ABCDEFG",
                            players=["Ann", "Bob", "Cem"], side="B")


def _matches(reading, truth) -> bool:
    cell = float(np.median(np.linalg.norm(np.diff(truth.cell_centers, axis=1), axis=2)))
    return float(np.linalg.norm(np.asarray(reading.cell_centers_px) - truth.cell_centers, axis=2).mean()) < cell / 2


def test_round_trip_table_photo_is_read_and_filed_by_seat(table_photo):
    readings = read_sheets(table_photo.data, overlay=False)
    assert len(readings) == 3
    for truth in table_photo.sheets:
        r = next(r for r in readings if _matches(r, truth))  # each sheet found where it lies, the right way up
        assert r.side == "B"
        right = sum(r.grid[i][j] == truth.grid[i][j] for i in range(11) for j in range(11))
        assert right >= 115, (truth.kind, right)
        if truth.kind == "table":  # its QR code files it to its seat
            assert (r.table, r.seat) == ("ABCDEFG", truth.seat)
        else:  # printed without a table: the player is asked
            assert r.table is None and r.seat is None


def test_found_sheets_carry_their_cut_out_which_reads_the_same(table_photo):
    from vision.reading import read_sheet

    found = read_all(table_photo.data, overlay=False)
    assert [f.found_by for f in found] == ["markers"] * 3
    again = read_sheet(found[0].crop_png, overlay=False)  # what the web app re-reads for a tap
    assert again.grid == found[0].reading.grid and again.seat == found[0].reading.seat


def test_find_sheets_on_arrays(table_photo):
    from vision.load import load_photo

    photo = load_photo(table_photo.data, min_side=2200)
    outlines = find_sheets(photo.image)
    assert len(outlines) == 3
    truth = [t.outline * photo.scale for t in table_photo.sheets]
    for q, how in outlines:
        assert how == "markers"
        d = min(np.abs(q - t).max() for t in truth)
        assert d < 0.05 * max(photo.image.shape[:2])


def test_a_photo_of_one_sheet_gives_that_one_reading():
    from bench.synthphoto import make_photo
    from vision.reading import read_sheet

    photo = make_photo(5)
    readings = read_sheets(photo.data, overlay=False)
    assert len(readings) == 1
    assert readings[0].grid == read_sheet(photo.data, overlay=False).grid


def test_a_photo_without_a_sheet_is_refused_as_before():
    from vision.errors import PhotoError

    img = np.full((900, 1200, 3), (40, 90, 150), np.uint8)
    ok, buf = cv2.imencode(".png", img)
    with pytest.raises(PhotoError) as exc:
        read_sheets(buf.tobytes())
    assert exc.value.code in ("no_sheet", "too_dark", "not_a_sheet")


def test_cli_all_sheets_json(table_photo, tmp_path):
    path = tmp_path / "table.jpg"
    path.write_bytes(table_photo.data)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(path), "--all-sheets", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert len(body["sheets"]) == 3 and body["refused"] == []
    one = body["sheets"][0]
    for key in ("side", "grid", "coins", "confidence", "warnings", "sheet_id", "table", "seat", "doubtful",
                "cell_centers_px", "orientation_unsure", "groups"):
        assert key in one
    assert sorted(s["seat"] for s in body["sheets"] if s["seat"]) == [1, 3]


def test_web_table_photo_route_keeps_each_sheet_for_its_review(app, client, table_photo):
    from tests.conftest import csrf_token

    token = csrf_token(client)
    code = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob", "Cem"], "side": "B",
                                       "seed": "4"}).location.rsplit("/", 1)[1]
    r = client.post(f"/t/{code}/photo/sheets", data={"photo": (io.BytesIO(table_photo.data), "t.jpg", "image/jpeg"),
                                                     "side": "B"},
                    headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 200, r.get_json()
    sheets = r.get_json()["sheets"]
    assert len(sheets) == 3
    assert all(s["thumb"].startswith("data:image/jpeg;base64,") and s["photo_token"] for s in sheets)
    assert len({s["photo_token"] for s in sheets}) == 3
    # a tap on one sheet re-reads that sheet's own cut-out
    s = sheets[0]
    g = s["groups"][0]
    again = client.post(f"/api/photo/{s['photo_token']}/names", json={"names": {str(g["id"]): g["name"]}},
                        headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert again.status_code == 200 and again.get_json()["grid"] == s["grid"]
    none = client.post(f"/t/{code}/photo/sheets", data={}, headers={"X-CSRF-Token": token,
                                                                    "Accept": "application/json"})
    assert none.status_code == 400


def test_a_sheet_filling_the_photo_leaves_no_room_for_another():
    from vision.multisheet import _room_for_another

    big = np.array([[100, 50], [900, 80], [880, 1150], [120, 1180]], np.float64)
    assert not _room_for_another([(big, "markers")], (1200, 1000))
    small = grown(big, -0.3)
    assert _room_for_another([(small, "markers")], (1200, 1000))
