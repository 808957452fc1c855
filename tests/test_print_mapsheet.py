"""The printed map sheet reads back: geometry in the rendered PDF matches `printables.layout` to 1 px at 150 dpi."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cartographers.data import MAPS
from printables import map_sheet_pdf
from printables.layout import MARKER_IDS, PAPERS, SIDES, parse_qr_payload, qr_payload, sheet_layout
from printables.mapsheet import SHEET_ID_ALPHABET, SHEET_ID_LEN, new_sheet_id, qr_matrix
from printables.raster import page_count, page_sizes_pt, rasterize

DPI = 150
S = DPI / 72  # pixels per point
COMBOS = [(side, paper) for side in SIDES for paper in PAPERS]
FIXED_ID = "TESTSHEET234"


@cache
def _pdf(side: str, paper: str, lang: str = "en") -> bytes:
    return map_sheet_pdf(side, paper, lang, sheet_ids=[FIXED_ID])


@cache
def _gray(side: str, paper: str) -> np.ndarray:
    return cv2.cvtColor(rasterize(_pdf(side, paper), 0, DPI), cv2.COLOR_RGB2GRAY)


def _px(pt: float) -> float:
    """Point coordinate -> OpenCV sub-pixel coordinate (pixel centres at integers)."""
    return pt * S - 0.5


def _detector(permissive: bool = False) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if permissive:  # what a photo reader might use: small markers, heavy error correction
        params.minMarkerPerimeterRate = 0.01
        params.errorCorrectionRate = 1.0
        params.adaptiveThreshWinSizeMax = 53
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _decode_qr(img: np.ndarray) -> str:
    """OpenCV's plain detector first (as the brief asks), its ArUco-based one as the fallback."""
    text = cv2.QRCodeDetector().detectAndDecode(img)[0]
    return text or cv2.QRCodeDetectorAruco().detectAndDecode(img)[0]


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_pdf_parses_with_paper_sized_pages(side: str, paper: str) -> None:
    pdf = _pdf(side, paper)
    assert pdf.startswith(b"%PDF-")
    assert page_count(pdf) == 1
    (w, h), = page_sizes_pt(pdf)
    assert w == pytest.approx(PAPERS[paper][0], abs=0.01)
    assert h == pytest.approx(PAPERS[paper][1], abs=0.01)
    img = rasterize(pdf, 0, DPI)
    assert img.dtype == np.uint8 and img.shape[2] == 3
    assert img.shape[1] == pytest.approx(PAPERS[paper][0] * S, abs=1)
    assert img.shape[0] == pytest.approx(PAPERS[paper][1] * S, abs=1)


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_aruco_markers_have_layout_ids_and_corners(side: str, paper: str) -> None:
    layout = sheet_layout(side, paper)
    corners, ids, _ = _detector().detectMarkers(_gray(side, paper))
    assert ids is not None
    assert sorted(ids.ravel().tolist()) == sorted(MARKER_IDS[side])
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        m = next(m for m in layout.markers if m.id == marker_id)
        x0, y0, x1, y1 = m.x_pt, m.y_pt, m.x_pt + m.size_pt, m.y_pt + m.size_pt
        expected = np.array([[_px(x0), _px(y0)], [_px(x1), _px(y0)], [_px(x1), _px(y1)], [_px(x0), _px(y1)]])
        assert np.abs(quad[0] - expected).max() < 1.0, (marker_id, quad[0], expected)


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_no_stray_markers_even_for_a_permissive_detector(side: str, paper: str) -> None:
    """Mountains, ruins glyphs, boxes and the QR code must never be mistaken for markers."""
    gray = _gray(side, paper)
    for img in (gray, cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)):
        _, ids, _ = _detector(permissive=True).detectMarkers(img)
        assert sorted(ids.ravel().tolist()) == sorted(MARKER_IDS[side])


def _line_centre(profile: np.ndarray, start: int) -> float:
    """Darkness-weighted centre (pixel coordinates) of a dark line in a 1-D intensity profile."""
    dark = 255.0 - profile.astype(float)
    return start + float((dark * np.arange(len(profile))).sum() / dark.sum())


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_grid_outer_border_is_where_the_layout_says(side: str, paper: str) -> None:
    layout = sheet_layout(side, paper)
    gray = _gray(side, paper)
    g = layout.grid
    size = g.cell_pt * layout.cols
    half = 3.0  # points either side of the expected line: the border is 2 pt wide, nothing else is near
    found: dict[str, float] = {}
    for name, edge_pt, vertical in (
        ("left", g.x_pt, True), ("right", g.x_pt + size, True),
        ("top", g.y_pt, False), ("bottom", g.y_pt + size, False),
    ):
        lo, hi = int(np.floor((edge_pt - half) * S)), int(np.ceil((edge_pt + half) * S))
        centres = []
        for k in range(layout.rows):
            # a hatched wasteland on the edge (side D) darkens the line's neighbourhood: measure elsewhere
            edge_cell = {"left": (k, 0), "right": (k, layout.cols - 1), "top": (0, k),
                         "bottom": (layout.rows - 1, k)}[name]
            if edge_cell in MAPS[side].wastelands:
                continue
            across = int((g.y_pt if vertical else g.x_pt) * S + (k + 0.5) * g.cell_pt * S)
            profile = gray[across, lo:hi] if vertical else gray[lo:hi, across]
            centres.append(_line_centre(profile, lo))
        assert max(centres) - min(centres) < 0.5, (name, centres)  # straight
        found[name] = float(np.mean(centres))
    corners = {
        "top_left": (found["left"], found["top"]),
        "top_right": (found["right"], found["top"]),
        "bottom_right": (found["right"], found["bottom"]),
        "bottom_left": (found["left"], found["bottom"]),
    }
    expected = {
        "top_left": (_px(g.x_pt), _px(g.y_pt)),
        "top_right": (_px(g.x_pt + size), _px(g.y_pt)),
        "bottom_right": (_px(g.x_pt + size), _px(g.y_pt + size)),
        "bottom_left": (_px(g.x_pt), _px(g.y_pt + size)),
    }
    for corner, (x, y) in corners.items():
        ex, ey = expected[corner]
        assert abs(x - ex) < 1.0 and abs(y - ey) < 1.0, (corner, (x, y), (ex, ey))


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_cells_stay_white_for_the_reader(side: str, paper: str) -> None:
    """Empty cells are blank paper; ruins cells (drawn over by players) are almost blank; printed cells are not."""
    layout = sheet_layout(side, paper)
    gray = _gray(side, paper)
    m = MAPS[side]
    printed = set(m.mountains) | set(m.wastelands)
    inset = 1.5  # points: clear of the 0.5 pt grid lines and their anti-aliasing
    for r in range(layout.rows):
        for c in range(layout.cols):
            rect = layout.cell_rect(r, c)
            y0, y1 = int((rect.y_pt + inset) * S), int((rect.y_pt + rect.h_pt - inset) * S)
            x0, x1 = int((rect.x_pt + inset) * S), int((rect.x_pt + rect.w_pt - inset) * S)
            inside = gray[y0:y1, x0:x1]
            ink = float((inside < 200).mean())
            if (r, c) in printed:
                assert ink > 0.2, ((r, c), ink)
            elif (r, c) in m.ruins:
                assert ink < 0.08, ((r, c), ink)
            else:
                assert inside.min() >= 250, ((r, c), int(inside.min()))
    for cell in layout.legend:
        x0, x1 = int((cell.x_pt + inset) * S), int((cell.x_pt + cell.cell_pt - inset) * S)
        y0, y1 = int((cell.y_pt + inset) * S), int((cell.y_pt + cell.cell_pt - inset) * S)
        assert gray[y0:y1, x0:x1].min() >= 250, cell.terrain


@pytest.mark.parametrize(("side", "paper"), COMBOS)
def test_qr_decodes_to_the_payload(side: str, paper: str) -> None:
    assert _decode_qr(_gray(side, paper)) == qr_payload(side, FIXED_ID)


def test_table_and_seats_are_in_each_qr() -> None:
    pdf = map_sheet_pdf("B", "letter", "tr", sheet_ids=["SEATONE23456", "SEATTWO23456"], table="T7K", seats=[2, 4])
    layout = sheet_layout("B", "letter")
    q = layout.qr
    clip = (q.x_pt - 12, q.y_pt - 12, q.w_pt + 24, q.h_pt + 24)
    infos = [parse_qr_payload(_decode_qr(rasterize(pdf, i, DPI, clip_pt=clip))) for i in range(2)]
    assert [(i.side, i.sheet_id, i.table, i.seat) for i in infos] == [
        ("B", "SEATONE23456", "T7K", 2),
        ("B", "SEATTWO23456", "T7K", 4),
    ]


def test_hundred_copies_have_distinct_qr_ids() -> None:
    pdf = map_sheet_pdf("A", "a4", "en", copies=100)
    assert page_count(pdf) == 100
    q = sheet_layout("A", "a4").qr
    clip = (q.x_pt - 12, q.y_pt - 12, q.w_pt + 24, q.h_pt + 24)
    ids = []
    for i in range(100):
        info = parse_qr_payload(_decode_qr(rasterize(pdf, i, DPI, clip_pt=clip)))
        assert info is not None and info.side == "A" and info.table is None
        ids.append(info.sheet_id)
    assert len(set(ids)) == 100
    assert all(len(s) == SHEET_ID_LEN and set(s) <= set(SHEET_ID_ALPHABET) for s in ids)


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].get_textpage().get_text_range()
    finally:
        doc.close()


@pytest.mark.parametrize(
    ("lang", "side", "words"),
    [
        ("tr", "A", ["Haritacı", "İlkbahar", "Kış", "Toplam şöhret", "orman", "köy", "canavar", "Altın", "Yabani"]),
        ("tr", "B", ["Çorak Topraklar", "Sonbahar", "tarla"]),
        ("en", "A", ["Cartographer", "Spring", "Winter", "Final score", "forest", "village", "monster", "Coins"]),
        ("en", "B", ["Wastelands", "Fall", "farm", "water"]),
    ],
)
def test_labels_in_both_languages(lang: str, side: str, words: list[str]) -> None:
    text = _text(map_sheet_pdf(side, "a4", lang, sheet_ids=[FIXED_ID]))
    for word in words:
        assert word in text
    assert FIXED_ID in text  # the footer prints the id, so a sheet can be identified by eye too


@pytest.mark.parametrize(
    "kwargs",
    [
        {"side": "E"},
        {"paper": "a3"},
        {"lang": "de"},
        {"copies": 0},
        {"copies": 5000},
        {"sheet_ids": ["has:colon"]},
        {"sheet_ids": []},
        {"sheet_ids": ["ONE", "TWO"], "copies": 3},
        {"seats": [1]},
        {"table": "T1", "seats": [1, 2], "copies": 3},
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        map_sheet_pdf(**kwargs)


def test_new_sheet_ids_are_random_and_typeable() -> None:
    ids = {new_sheet_id() for _ in range(500)}
    assert len(ids) == 500
    assert all(len(s) == SHEET_ID_LEN and set(s) <= set(SHEET_ID_ALPHABET) for s in ids)


@settings(max_examples=40, deadline=None)
@given(
    side=st.sampled_from(SIDES),
    sheet_id=st.text(alphabet=SHEET_ID_ALPHABET + "abcxyz-_", min_size=4, max_size=20),
    table=st.none() | st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=1, max_size=8),
    seat=st.integers(min_value=1, max_value=8),
)
def test_qr_matrix_round_trips_any_payload(side: str, sheet_id: str, table: str | None, seat: int) -> None:
    payload = qr_payload(side, sheet_id, table, seat if table else None)
    matrix = np.asarray(qr_matrix(payload), dtype=bool)
    assert matrix.shape[0] == matrix.shape[1]
    assert not matrix[:2].any() and not matrix[:, :2].any()  # the quiet zone is part of the matrix
    img = cv2.resize(np.where(matrix, 0, 255).astype(np.uint8), None, fx=5, fy=5, interpolation=cv2.INTER_NEAREST)
    info = parse_qr_payload(_decode_qr(img))
    assert info is not None
    assert (info.side, info.sheet_id, info.table) == (side, sheet_id, table)
    assert info.seat == (seat if table else None)


@settings(max_examples=15, deadline=None)
@given(
    ids=st.lists(st.text(alphabet=SHEET_ID_ALPHABET, min_size=1, max_size=16), min_size=1, max_size=4, unique=True),
    side=st.sampled_from(SIDES),
)
def test_one_page_per_given_id_in_order(ids: list[str], side: str) -> None:
    pdf = map_sheet_pdf(side, "a4", "en", sheet_ids=ids)
    assert page_count(pdf) == len(ids)
    doc = pdfium.PdfDocument(pdf)
    try:
        footers = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()
    for sheet_id, text in zip(ids, footers, strict=True):
        assert f"{side}-{sheet_id}" in text


def test_many_copies_stay_small() -> None:
    """Shared drawing is a form XObject: each extra copy adds only its QR code and footer (~2 KB)."""
    one = len(map_sheet_pdf("B", "letter", "tr", copies=1))
    fifty = len(map_sheet_pdf("B", "letter", "tr", copies=50))
    assert (fifty - one) / 49 < 4096


@pytest.mark.parametrize(
    ("side", "paper", "seed", "out_h"),
    [("A", "a4", 1, 1800), ("B", "letter", 2, 1800), ("B", "a4", 3, 1800), ("A", "letter", 4, 1100),
     ("B", "a4", 5, 1100)],
)
def test_markers_and_qr_survive_a_phone_like_view(side: str, paper: str, seed: int, out_h: int) -> None:
    """Perspective, rotation, a smaller image, blur and noise: the printed markers and QR still read.

    This checks the printed design (marker size, quiet zones, QR module size), not the vision code.
    1100 px is the short side `vision` decodes a reduced photo at; the sheet then spans ~1000 px.
    """
    rng = np.random.default_rng(seed)
    page = _gray(side, paper)
    h, w = page.shape
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    out_w = int(out_h * 0.78)  # the sheet fills most of the photo
    jitter = rng.uniform(-0.04, 0.04, size=(4, 2)) * [out_w, out_h]
    frame = np.float32([[0.07, 0.045], [0.91, 0.065], [0.94, 0.95], [0.1, 0.967]]) * [out_w, out_h]
    dst = frame + jitter
    if seed % 2:
        dst = dst[[1, 2, 3, 0]]  # the sheet photographed turned by 90 degrees
    warped = cv2.warpPerspective(page, cv2.getPerspectiveTransform(src, dst.astype(np.float32)), (out_w, out_h),
                                 flags=cv2.INTER_AREA, borderValue=90)
    shade = np.linspace(0.75, 1.0, out_w)[None, :]  # uneven light across the sheet
    noisy = cv2.GaussianBlur(warped.astype(float) * shade, (0, 0), 1.0) + rng.normal(0, 4, warped.shape)
    photo = np.clip(noisy, 0, 255).astype(np.uint8)
    corners, ids, _ = _detector().detectMarkers(photo)
    assert ids is not None and sorted(ids.ravel().tolist()) == sorted(MARKER_IDS[side])
    # Straighten the QR area from the 16 marker corners (as a reader would), then decode it.
    layout = sheet_layout(side, paper)
    by_id = {m.id: m for m in layout.markers}
    photo_pts, page_pts = [], []
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        m = by_id[int(marker_id)]
        photo_pts += quad[0].tolist()
        page_pts += [[m.x_pt, m.y_pt], [m.x_pt + m.size_pt, m.y_pt], [m.x_pt + m.size_pt, m.y_pt + m.size_pt],
                     [m.x_pt, m.y_pt + m.size_pt]]
    homography, _ = cv2.findHomography(np.float32(page_pts), np.float32(photo_pts))
    q, pad, k = layout.qr, 10.0, 4.0  # 4 px per point in the straightened patch
    to_patch = np.array([[k, 0, -k * (q.x_pt - pad)], [0, k, -k * (q.y_pt - pad)], [0, 0, 1]])
    size = (int((q.w_pt + 2 * pad) * k), int((q.h_pt + 2 * pad) * k))
    patch = cv2.warpPerspective(photo, to_patch @ np.linalg.inv(homography), size, flags=cv2.INTER_LINEAR)
    assert _decode_qr(patch) == qr_payload(side, FIXED_ID)


def test_season_score_boxes_have_room_for_minus_twelve_and_a_dark_skull():
    """A −12 monster penalty needs ~9 mm; the ☠ label is printed dark and large, with the minus sign."""
    import pypdfium2 as pdfium

    from printables import map_sheet_pdf
    from printables.layout import PAPERS, sheet_layout

    mm = 72 / 25.4
    for paper in PAPERS:
        lay = sheet_layout("A", paper)
        monsters = [b for b in lay.score_boxes if b.field == "monsters"]
        assert len(monsters) == 4 and all(b.w_pt >= 9 * mm and b.h_pt >= 10 * mm for b in monsters)
        assert all(b.w_pt >= 7 * mm for b in lay.score_boxes)
    pdf = map_sheet_pdf("A", "a4", "en")
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage().get_text_range()
    assert text.count("☠") >= 4 and text.count("−") >= 4
