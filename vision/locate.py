"""Stage 2: find the sheet in the photo — a homography from page points to photo pixels.

Marked sheets (Mapsmith prints): the four ArUco markers give side (ids 0–3 = A,
4–7 = B), orientation (each marker's own corner order) and 16 point
correspondences. Unmarked sheets: see `vision.border`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from printables.layout import MARKER_IDS, SheetLayout, sheet_layout
from vision.errors import PhotoError
from vision.messages import Note
from vision.wayup import NO_RIVALS

ID_SIDE = {mid: side for side, ids in MARKER_IDS.items() for mid in ids}


@dataclass
class SheetLocation:
    """Where the sheet is: `homography` maps page points to working-image pixels."""

    side: str | None
    homography: np.ndarray
    method: str  # "markers" or "border"
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    warnings: list[Note] = field(default_factory=list)
    residual_px: float = 0.0
    # Unmarked sheets: the measured cell centres (11×11×2 working pixels, upright row/column order) and
    # whether the half turn could not be told (the review then asks "Is this the top of your sheet?").
    cell_centres: np.ndarray | None = None
    orientation_unsure: bool = False
    # the cues alone left the way up undecided (the player was asked), whether or not the player has answered
    orientation_asked: bool = False
    # quarter turns clockwise of the reading, most likely first (0 = as placed): what the ask offers
    orientation_choices: list[int] = field(default_factory=lambda: [0])
    # the way-up decision's evidence: for K = 0..3 quarter turns clockwise, how far the chosen way up leads the
    # reading turned K (vision.orient.Orientation.leads; 0 for K = 0); what vision.wayup weighs while unsure
    orientation_leads: tuple[float, ...] = NO_RIVALS
    # an unmarked sheet's side decision: how far the chosen side leads the other (vision.orient.Orientation;
    # inf when the side was given or markers say it)
    side_lead: float = float("inf")


def make_detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 45
    params.adaptiveThreshWinSizeStep = 10
    params.minMarkerPerimeterRate = 0.015
    params.polygonalApproxAccuracyRate = 0.05
    # Sample only the centre of each bit cell: blurred edges between black and white bits no longer flip bits.
    params.perspectiveRemoveIgnoredMarginPerCell = 0.35
    params.perspectiveRemovePixelPerCell = 8
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, params)


# A marker is 6 × 6 bit cells with its border. Below 4 px a side nothing is decoded, but a marker of 5–8 px in
# the half-size search must still be seen: it sends the search to full size, and a sheet too small to read is
# then told `too_small` rather than `no_sheet` (cells of 14 px: markers of 12 px, 6 px at half size).
MIN_MARKER_PERIMETER_PX = 16
# ArUco merges the candidates of its five thresholds pairwise: its time grows with the square of their number
# (a fine lattice of ~10 px squares, 22,000 candidates: 4–5 minutes; 1,600: 2 s; 870: 0.5 s). A sheet on a
# chequered cloth shows 300–700; above this many the photo is searched at a smaller scale.
MAX_MARKER_CANDIDATES = 1000
MIN_SEARCH_SIDE = 160  # below this the search stops: no marker of a readable sheet is left to find


@dataclass(frozen=True)
class MarkerSearch:
    """Where ArUco is run: `scale` (1, 2, 4 … : the image is shrunk by it) and the candidates counted there (over
    the perimeter floor, in pixels of the shrunk image). `scale == 0` means nowhere: too many at every scale."""

    scale: int
    candidates: int


def min_perimeter_px(shape: tuple[int, ...], rate: float) -> float:
    """The detector's perimeter floor in an image of `shape`: its own rate of the longer side, at least
    `MIN_MARKER_PERIMETER_PX`."""
    return max(rate * max(shape[:2]), MIN_MARKER_PERIMETER_PX)


def marker_candidates(gray: np.ndarray, min_perimeter_px: float = MIN_MARKER_PERIMETER_PX,
                      enough: int | None = None) -> int:
    """How many dark-bordered quadrilaterals of at least `min_perimeter_px` (contour pixels) ArUco would try.

    The same test as the detector's own first step (an adaptive threshold, contours, a 4-gon that is convex),
    at one of its threshold windows: cheap (one threshold, no decoding) and close to its count. With `enough`,
    a count of long contours that is not above it is returned as it is (an upper bound, the 4-gon test skipped).
    """
    thr = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 15, 7)
    contours, _ = cv2.findContours(thr, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    lengths = np.fromiter((len(c) for c in contours), np.int64, len(contours))
    long = np.flatnonzero((lengths >= min_perimeter_px) & (lengths <= 4 * max(gray.shape[:2])))
    if enough is not None and len(long) <= enough:
        return len(long)
    n = 0
    for i in long:
        approx = cv2.approxPolyDP(contours[i], 0.05 * float(lengths[i]), True)
        n += len(approx) == 4 and cv2.isContourConvex(approx)
    return n


def plan_marker_search(gray: np.ndarray, rate: float = 0.015) -> MarkerSearch:
    """The largest scale (full size first, then halves) at which the candidates are few enough to search.

    A periodic texture (a fine lattice, squared paper seen close, a chequered cloth) makes thousands of
    marker-sized squares; halving the photo merges squares below the perimeter floor into grey, while markers
    large enough to hold a readable sheet at that scale remain.
    """
    img, scale = gray, 1
    while True:
        n = marker_candidates(img, min_perimeter_px(img.shape, rate), MAX_MARKER_CANDIDATES)
        if n <= MAX_MARKER_CANDIDATES:
            return MarkerSearch(scale, n)
        if min(img.shape[:2]) // 2 < MIN_SEARCH_SIDE:
            return MarkerSearch(0, n)
        img = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
        scale *= 2


def detect_raw(detector: cv2.aruco.ArucoDetector, gray: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every marker ArUco finds (id, 4×2 corners in `gray`'s pixels), searched where `plan_marker_search` says.

    Candidates under `MIN_MARKER_PERIMETER_PX` are never tried (they could not be decoded, nor hold a readable
    sheet); corners found on a shrunk copy are refined on `gray` itself.
    """
    plan = plan_marker_search(gray, detector.getDetectorParameters().minMarkerPerimeterRate)
    if plan.scale == 0:
        return []
    s = plan.scale
    img = gray if s == 1 else cv2.resize(gray, (gray.shape[1] // s, gray.shape[0] // s), interpolation=cv2.INTER_AREA)
    corners, ids = _run_detector(detector, img)
    if ids is None:
        return []
    out = []
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    for c, i in zip(corners, ids.ravel(), strict=True):
        pts = c.reshape(4, 2).astype(np.float32)
        if s > 1:
            pts = (pts * s + (s - 1) / 2).reshape(-1, 1, 2)
            cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
        out.append((int(i), pts.reshape(4, 2).astype(np.float64)))
    return out


def _run_detector(detector: cv2.aruco.ArucoDetector, img: np.ndarray):
    """ArUco on `img` with its perimeter floor raised to `min_perimeter_px` (a copy when raised): (corners, ids)."""
    params = detector.getDetectorParameters()
    floor = min_perimeter_px(img.shape, params.minMarkerPerimeterRate) / max(img.shape[:2])
    if params.minMarkerPerimeterRate < floor:
        params.minMarkerPerimeterRate = floor
        detector = cv2.aruco.ArucoDetector(detector.getDictionary(), params)
    corners, ids, _ = detector.detectMarkers(img)
    return corners, ids


def _detect(detector: cv2.aruco.ArucoDetector, gray: np.ndarray) -> dict[int, np.ndarray]:
    found: dict[int, np.ndarray] = {}
    for i, c in detect_raw(detector, gray):
        if i in ID_SIDE and i not in found:
            found[i] = c
    return found


FAST_SIDE = 1300  # larger images are searched at half size first; the corners are refined at full size


def _detect_fast(detector: cv2.aruco.ArucoDetector, gray: np.ndarray) -> dict[int, np.ndarray]:
    """Markers found at half size (4× fewer pixels for the adaptive thresholds), corners refined at full size.

    Only when no marker shows at half size is the photo taken for unmarked; one to three send the caller
    back to the full-size search.
    """
    if max(gray.shape[:2]) <= FAST_SIDE:
        return _detect(detector, gray)
    half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    found = _detect(detector, half)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    out = {}
    for k, c in found.items():
        pts = (c * 2 + 0.5).astype(np.float32).reshape(-1, 1, 2)
        cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
        out[k] = pts.reshape(4, 2).astype(np.float64)
    return out


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Our markers (ids 0–7) found in a grayscale image: id → 4×2 corners (marker TL, TR, BR, BL).

    When one to three are found, a second pass on an unsharp-masked copy
    rescues markers softened by slight defocus; corners from the first pass win.
    """
    detector = make_detector()
    found = _detect_fast(detector, gray)
    if len(found) < 4:
        found = {**_detect(detector, gray), **found} if found else found
    if 0 < len(found) < 4:  # none at all: not our sheet (or the lattice will place it); skip the second pass
        sharp = cv2.addWeighted(gray, 2.0, cv2.GaussianBlur(gray, (0, 0), 3), -1.0, 0)
        for k, v in _detect(detector, sharp).items():
            found.setdefault(k, v)
    return found


def marker_page_corners(layout: SheetLayout, marker_id: int) -> np.ndarray:
    mk = next(m for m in layout.markers if m.id == marker_id)
    x, y, s = mk.x_pt, mk.y_pt, mk.size_pt
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


def side_from_markers(found: dict[int, np.ndarray]) -> str | None:
    votes = {side: 0 for side in MARKER_IDS}
    for mid in found:
        if mid in ID_SIDE:
            votes[ID_SIDE[mid]] += 1
    ranked = sorted(votes.values(), reverse=True)
    if ranked[0] == ranked[1]:
        return None
    return max(votes, key=votes.get)


def _inside(pts: np.ndarray, shape: tuple[int, ...], margin: float = 0.0) -> bool:
    h, w = shape[:2]
    return bool(np.all(pts[:, 0] >= -margin) and np.all(pts[:, 0] <= w - 1 + margin)
                and np.all(pts[:, 1] >= -margin) and np.all(pts[:, 1] <= h - 1 + margin))


def locate_by_markers(gray: np.ndarray, side_hint: str | None = None, paper: str = "a4",
                      found: dict[int, np.ndarray] | None = None) -> SheetLocation | None:
    """Homography from the corner markers; None when no marker of ours is visible.

    Three markers still fix the sheet exactly (12 correspondences) when the fourth
    is hidden under a pencil or glare; a marker that would lie outside the frame
    means the sheet itself is cut, which is reported as `markers_cut`. `found`: the markers already
    detected in `gray` (`detect_markers`), so that a caller can use them again when this refuses.
    """
    found = detect_markers(gray) if found is None else found
    if not found:
        return None
    side = side_from_markers(found)
    warnings: list[Note] = []
    if side is None:
        if side_hint is None:
            raise PhotoError("unknown_side", f"markers {sorted(found)} disagree")
        side = side_hint
    if side_hint is not None and side_hint != side:
        warnings.append(Note.of("side_from_markers", side=side, hint=side_hint))
    seen = sorted(found)
    found = {k: v for k, v in found.items() if ID_SIDE[k] == side}
    if not found:  # every marker read belongs to the other side than the one chosen (fuzz case 5509)
        raise PhotoError("unknown_side", f"markers {seen} do not belong to side {side}")
    layout = sheet_layout(side, paper)
    if len(found) < 3:
        raise _diagnose_partial(found, layout, gray.shape)
    H, residual = _fit(layout, found)
    marker_size = float(np.mean([np.linalg.norm(c[1] - c[0]) for c in found.values()]))
    if (H is None or residual > 0.08 * marker_size) and len(found) == 4:
        # One bad detection (a look-alike decoded on a drawing) must not sink the other three.
        best = min((_fit(layout, {k: v for k, v in found.items() if k != drop}) + (drop,) for drop in found),
                   key=lambda t: t[1])
        if best[0] is not None and best[1] <= 0.08 * marker_size:
            H, residual = best[0], best[1]
            found = {k: v for k, v in found.items() if k != best[2]}
    if H is None:
        raise PhotoError("no_sheet", "degenerate marker geometry")
    if residual > 0.08 * marker_size:
        raise PhotoError("no_sheet", f"markers do not fit one flat sheet (residual {residual:.1f} px)")
    for mk in layout.markers:
        if mk.id not in found:
            where = cv2.perspectiveTransform(marker_page_corners(layout, mk.id)[None], H)[0]
            if not _inside(where, gray.shape):
                # Three markers fix the sheet exactly: only a grid out of the frame is a reason to refuse.
                edge = grid_cut_edge(H, layout, gray.shape)
                if edge is not None:
                    raise PhotoError("grid_cut", f"the {edge} edge of the grid is outside the photo", edge=edge)
                warnings.append(Note.of("marker_outside", corner=mk.corner))
            else:
                warnings.append(Note.of("marker_hidden", corner=mk.corner))
    return SheetLocation(side, H, "markers", found, warnings, residual)


def markers_way_up(found: dict[int, np.ndarray], side_hint: str | None = None) -> tuple[str | None, np.ndarray | None]:
    """The side and the way down the page (image x, y) that the markers seen say, even one or two of them.

    Each marker is printed upright on the page, so its own corner order (top-left, top-right, bottom-right,
    bottom-left) points down the page whatever corner of the sheet it sits in; its id names the side. Markers of
    another side than the chosen one, or pointing different ways (a look-alike decoded on a drawing), say nothing.
    """
    side = side_from_markers(found) if found else None
    side = side or side_hint
    mine = [c for k, c in found.items() if ID_SIDE.get(k) == side]
    if not mine:
        return None, None
    downs = []
    for c in mine:
        v = (c[3] - c[0]) + (c[2] - c[1])
        n = float(np.linalg.norm(v))
        if n < 1e-6:
            return side, None
        downs.append(v / n)
    mean = np.mean(downs, axis=0)
    if any(float(d @ mean) / max(float(np.linalg.norm(mean)), 1e-9) < 0.9 for d in downs):
        return side, None
    return side, mean


def markers_inside_grid(found: dict[int, np.ndarray], cell_centres: np.ndarray) -> set[int]:
    """The ids of the markers seen whose centre lies inside the map's grid (within the outline of its outer cell
    centres, so half a cell in from its edge at least), given the grid's measured cell centres (11×11×2).

    Why: our corner markers are printed outside the grid, two thirds of a cell off its corners. A "marker"
    inside the grid is a look-alike the detector decoded on a drawing (a crayon-textured cell of the game's
    pad was read as side B's marker 7: the whole pad read as side B, turned a quarter, 88 silent cells), and
    its side and way down say nothing about the sheet.
    """
    c = np.asarray(cell_centres, np.float64)
    quad = np.array([c[0, 0], c[0, -1], c[-1, -1], c[-1, 0]], np.float32).reshape(-1, 1, 2)
    out = set()
    for k, corners in found.items():
        x, y = np.asarray(corners, np.float64).mean(axis=0)
        if cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0:
            out.add(k)
    return out


def grid_cut_edge(page_to_image: np.ndarray, layout: SheetLayout, shape: tuple[int, ...],
                  margin_cells: float = 0.1) -> str | None:
    """Which edge of the grid (the sheet's own top/right/bottom/left) lies outside the image, if any.

    The grid counts as cut when more than a sixth of an edge's outermost cells (`margin_cells` inside the
    edge) fall outside; the edge with the most outside wins.
    """
    h, w = shape[:2]
    g = layout.grid
    s = g.cell_pt * layout.cols
    m = margin_cells * g.cell_pt
    t = np.linspace(0, s, 23)
    edges = {
        "top": np.c_[g.x_pt + t, np.full_like(t, g.y_pt + m)],
        "bottom": np.c_[g.x_pt + t, np.full_like(t, g.y_pt + s - m)],
        "left": np.c_[np.full_like(t, g.x_pt + m), g.y_pt + t],
        "right": np.c_[np.full_like(t, g.x_pt + s - m), g.y_pt + t],
    }
    worst, name = 0.0, None
    for edge, pts in edges.items():
        q = cv2.perspectiveTransform(pts[None], page_to_image)[0]
        out = float(np.mean((q[:, 0] < 0) | (q[:, 0] > w - 1) | (q[:, 1] < 0) | (q[:, 1] > h - 1)))
        if out > worst:
            worst, name = out, edge
    return name if worst > 1 / 6 else None


def _fit(layout: SheetLayout, found: dict[int, np.ndarray]) -> tuple[np.ndarray | None, float]:
    """Least-squares homography page points → image from the markers' corners, and its RMS residual (px)."""
    src = np.concatenate([marker_page_corners(layout, k) for k in sorted(found)])
    dst = np.concatenate([found[k] for k in sorted(found)])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None, float("inf")
    proj = cv2.perspectiveTransform(src[None], H)[0]
    return H, float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))


def _diagnose_partial(found: dict[int, np.ndarray], layout: SheetLayout, shape: tuple[int, ...]) -> PhotoError:
    """Why only one or two markers were read: cut off by the frame, too small, or too blurry.

    Even one marker fixes a (rough) homography, enough to predict where the
    others should be: outside the photo means the player must step back.
    """
    src = np.concatenate([marker_page_corners(layout, k) for k in sorted(found)])
    dst = np.concatenate([found[k] for k in sorted(found)])
    H, _ = cv2.findHomography(src, dst, 0)
    n = len(found)
    if H is not None:
        edge = grid_cut_edge(H, layout, shape)
        if edge is not None:
            return PhotoError("grid_cut", f"only {n} of 4 corner markers visible; the {edge} of the grid is "
                              "outside the photo", edge=edge)
        for mk in layout.markers:
            if mk.id in found:
                continue
            where = cv2.perspectiveTransform(marker_page_corners(layout, mk.id)[None], H)[0]
            if not _inside(where, shape, margin=-2):
                return PhotoError("markers_cut", f"only {n} of 4 corner markers visible; "
                                  f"the {mk.corner.replace('_', ' ')} one is outside the photo")
    size = float(np.mean([np.linalg.norm(c[1] - c[0]) for c in found.values()]))
    if size < 24:
        return PhotoError("too_small", f"corner markers are only {size:.0f} px wide")
    return PhotoError("too_blurry", f"only {n} of 4 corner markers could be read")
