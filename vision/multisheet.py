"""Stage 8: several sheets in one photo of the table — find each one, then read each with the one-sheet reader.

Why a stage in front of `read_sheet` rather than a change inside it: the one-sheet pipeline is tuned for a
sheet that fills most of the frame, and every later tap of the review ("Which terrain is this?", "Is this the
top of your sheet?") re-reads one sheet. So this stage only answers "where are the sheets?", cuts each one
out (everything around it painted over in the table's own colour, so a neighbour's markers or grid cannot
be picked up) and hands the cut-out, encoded losslessly, to `read_sheet` — the very bytes the web app keeps
for those re-reads, so a re-read gives the same groups.

1. **Our printed sheets** (the fast path): every instance of our corner markers is detected (the ids repeat
   from sheet to sheet). One marker alone fixes a rough page homography, which predicts where its page lies;
   markers of one side with distinct ids whose predicted pages coincide are one sheet, and the group's
   markers together fix the page outline.
2. **Sheets without markers** (the game's own pad, any print, a ruled grid): the lattice finder
   (`vision.orient.locate_by_lattice`) is asked on the photo with every sheet found so far painted over,
   again and again, until it finds no further grid.
3. One sheet found (or none) → the whole photo is read by `read_sheet`, exactly as `mapsmith read` would, so
   a photo of one sheet gives the same one reading (and the same refusals) as before.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import cv2
import numpy as np

from printables.layout import sheet_layout
from vision.errors import PhotoError
from vision.load import load_photo
from vision.locate import ID_SIDE, detect_raw, make_detector, marker_page_corners
from vision.reading import SheetReading, read_sheet

MAX_SHEETS = 6  # the game's most players; the search stops there
MULTI_MIN_SIDE = 2200  # a table photo is decoded larger than one sheet's: each sheet is a part of it
MARKER_GROUP_TOL = 0.35  # predicted page centres this close (in page short sides) are one sheet
MARGIN = 0.04  # the cut-out keeps this fraction of the page around its outline
UNMARKED_MARGIN = 0.08  # pages placed from their grid alone are less sure at their edges


@dataclass
class MarkerGroup:
    """The markers of one printed sheet: side, id → 4×2 corners (working pixels), page → image homography."""

    side: str
    markers: dict[int, np.ndarray]
    homography: np.ndarray


@dataclass
class FoundSheet:
    """One sheet of a table photo: where it lies, the cut-out it was read from, and the reading or the refusal.

    `outline_px` are the page's four corners (TL, TR, BR, BL of the page as printed) in the original photo's
    pixels; `crop_png` is the cut-out (None when the whole photo was read); `offset_px` and `scale` map the
    cut-out's pixels back into the photo (`photo = crop / scale + offset`, original pixels).
    """

    outline_px: np.ndarray
    found_by: str  # "markers" or "lattice" (or "whole" for a photo read as one sheet)
    reading: SheetReading | None = None
    error: PhotoError | None = None
    crop_png: bytes | None = field(default=None, repr=False)
    offset_px: tuple[float, float] = (0.0, 0.0)
    crop: np.ndarray | None = field(default=None, repr=False)  # the cut-out, BGR (for thumbnails)


# --------------------------------------------------------------------------- markers


def detect_all_markers(gray: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every instance of our markers: (id, 4×2 corners), duplicates kept — each sheet carries the same ids.

    Large photos are searched at half size (the markers of six sheets still span 30+ px there) and the
    corners refined at full size, as `vision.locate` does for one sheet.
    """
    detector = make_detector()
    half = max(gray.shape[:2]) > 2600
    img = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA) if half else gray
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    out = []
    for i, c in detect_raw(detector, img):  # a lattice-like table is searched at a smaller scale (vision.locate)
        if i not in ID_SIDE:
            continue
        pts = c.astype(np.float32)
        if half:
            pts = (pts * 2 + 0.5).reshape(-1, 1, 2)
            cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
        out.append((int(i), pts.reshape(4, 2).astype(np.float64)))
    return out


def page_outline(H: np.ndarray, side: str, paper: str = "a4") -> np.ndarray:
    """The page's corners (TL, TR, BR, BL) in the image, from a page-points → image homography."""
    lay = sheet_layout(side, paper)
    pts = np.array([[0, 0], [lay.page_w_pt, 0], [lay.page_w_pt, lay.page_h_pt], [0, lay.page_h_pt]], np.float64)
    return cv2.perspectiveTransform(pts[None], H)[0]


def _short_side(quad: np.ndarray) -> float:
    return float(min(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)))


def group_markers(instances: list[tuple[int, np.ndarray]], paper: str = "a4") -> list[MarkerGroup]:
    """Markers grouped by the sheet they belong to (largest markers first, so near sheets seed the groups)."""
    preds = []
    for mid, corners in instances:
        side = ID_SIDE[mid]
        # An affine fit: a homography from one small marker's four corners extrapolates wildly to the page.
        A, _ = cv2.estimateAffine2D(marker_page_corners(sheet_layout(side, paper), mid).astype(np.float32),
                                    corners.astype(np.float32), method=cv2.LMEDS)
        if A is None:
            continue
        outline = page_outline(np.vstack([A, [0, 0, 1]]).astype(np.float64), side, paper)
        preds.append((mid, corners, side, outline.mean(axis=0), _short_side(outline)))
    preds.sort(key=lambda p: -float(np.linalg.norm(p[1][1] - p[1][0])))
    groups: list[dict] = []
    for mid, corners, side, centre, short in preds:
        best, best_d = None, np.inf
        for g in groups:
            if g["side"] != side or mid in g["markers"]:
                continue
            d = float(np.linalg.norm(np.mean(g["centres"], axis=0) - centre))
            if d < MARKER_GROUP_TOL * max(short, g["short"]) and d < best_d:
                best, best_d = g, d
        if best is None:
            groups.append({"side": side, "markers": {mid: corners}, "centres": [centre], "short": short})
        else:
            best["markers"][mid] = corners
            best["centres"].append(centre)
    out = []
    for g in groups:
        lay = sheet_layout(g["side"], paper)
        src = np.concatenate([marker_page_corners(lay, k) for k in sorted(g["markers"])])
        dst = np.concatenate([g["markers"][k] for k in sorted(g["markers"])])
        if len(g["markers"]) < 2:
            continue  # one lone marker may be a look-alike in a drawing; the lattice search still sees its sheet
        if len(g["markers"]) >= 3:
            H, _ = cv2.findHomography(src, dst, 0)
        else:
            A, _ = cv2.estimateAffine2D(src.astype(np.float32), dst.astype(np.float32))
            H = None if A is None else np.vstack([A, [0, 0, 1]]).astype(np.float64)
        if H is not None:
            out.append(MarkerGroup(g["side"], g["markers"], H))
    return out


# --------------------------------------------------------------------------- painting over, cutting out


def grown(quad: np.ndarray, margin: float) -> np.ndarray:
    """The quadrilateral enlarged about its centre by `margin` of its size."""
    c = quad.mean(axis=0)
    return c + (quad - c) * (1 + 2 * margin)


def table_colour(image: np.ndarray, outlines: list[np.ndarray]) -> np.ndarray:
    """The median colour of the photo outside every sheet (the table), BGR."""
    mask = np.full(image.shape[:2], 255, np.uint8)
    for q in outlines:
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 0)
    step = max(1, int(np.sqrt(image.shape[0] * image.shape[1] / 250_000)))
    sel = image[::step, ::step][mask[::step, ::step] > 0]
    if len(sel) < 100:
        sel = image[::step, ::step].reshape(-1, 3)
    return np.median(sel, axis=0).astype(np.uint8)


def ring_colour(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The median colour just around a sheet (BGR): the table where it lies, not the far background."""
    h, w = image.shape[:2]
    outer = grown(quad, 0.08)
    x0, y0 = np.clip(np.floor(outer.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(outer.max(axis=0)).astype(int), 0, [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return table_colour(image, [quad])
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(outer - [x0, y0]).astype(np.int32), 255)
    cv2.fillConvexPoly(mask, np.round(grown(quad, 0.03) - [x0, y0]).astype(np.int32), 0)
    sel = image[y0:y1, x0:x1][mask > 0]
    return np.median(sel, axis=0).astype(np.uint8) if len(sel) >= 50 else table_colour(image, [quad])


def paint_over(image: np.ndarray, outlines: list[np.ndarray], colour: np.ndarray | None = None) -> np.ndarray:
    """A copy of the image with every outline filled with `colour` — by default the table's colour just
    around that sheet — so sheets already found vanish."""
    out = image.copy()
    for q in outlines:
        c = colour if colour is not None else ring_colour(image, q)
        cv2.fillConvexPoly(out, np.round(q).astype(np.int32), tuple(int(v) for v in c))
    return out


def cut_out(image: np.ndarray, outline: np.ndarray, others: list[np.ndarray], colour: np.ndarray,
            margin: float = MARGIN) -> tuple[np.ndarray, tuple[int, int]]:
    """The sheet's bounding box (with a margin), everything outside its grown outline — and every other
    sheet — painted in the table colour; and the box's top-left corner in the image."""
    big = grown(outline, margin)
    h, w = image.shape[:2]
    x0, y0 = np.floor(big.min(axis=0)).astype(int)
    x1, y1 = np.ceil(big.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    crop = image[y0:y1, x0:x1].copy()
    keep = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(keep, np.round(big - [x0, y0]).astype(np.int32), 255)
    for q in others:
        cv2.fillConvexPoly(keep, np.round(q - [x0, y0]).astype(np.int32), 0)
    crop[keep == 0] = colour
    return crop, (int(x0), int(y0))


# --------------------------------------------------------------------------- finding

PAPER_MAX_SAT = 80  # paper (white, cream, parchment) is unsaturated; wood and coloured cloth are not
PAPER_AREA = (0.012, 0.5)  # a page covers this share of a photo of 2–6 sheets


def paper_regions(image: np.ndarray) -> list[np.ndarray]:
    """Rotated boxes (4×2, working pixels) of bright unsaturated blobs of a page's size: where sheets may lie.

    Only a hint for the lattice search (a white table cloth gives no blob and the whole photo is searched);
    the lattice finder, which looks for its grid in a region about one sheet large, decides.
    """
    h, w = image.shape[:2]
    f = min(1.0, 800 / max(h, w))
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 2), cv2.COLOR_BGR2HSV)
    v = hsv[..., 2]
    thr, _ = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # cream and parchment under warm light reach a saturation of ~80; on a strongly coloured table (wood,
    # red cloth) the bound follows the table's own saturation up
    sat = float(np.clip(0.6 * np.median(hsv[..., 1]), PAPER_MAX_SAT, 1.5 * PAPER_MAX_SAT))
    mask = ((hsv[..., 1] < sat) & (v > max(thr, 90))).astype(np.uint8) * 255
    k = max(3, int(0.012 * max(small.shape[:2])) | 1)
    # no closing: a thin dark gap between a sheet and a bright surround must stay open (ink holes do not
    # matter, each blob is taken by its outer contour); opening cuts the bridges where they touch
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    area = small.shape[0] * small.shape[1]
    out = []
    for i in range(1, n):  # each blob alone: a sheet may lie in a hole of a bright surround
        x, y, bw, bh, _ = stats[i]
        if bw * bh < PAPER_AREA[0] * area:
            continue
        blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cnt = max(contours, key=cv2.contourArea)
        if not PAPER_AREA[0] * area <= cv2.contourArea(cnt) <= PAPER_AREA[1] * area:
            continue
        box = (cv2.boxPoints(cv2.minAreaRect(cnt)) + [x, y]) / f
        out.append(box.astype(np.float64))
    out.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return out


def _lattice_sheet(image: np.ndarray, region: np.ndarray | None, found: list[np.ndarray], side: str | None
                   ) -> np.ndarray | None:
    """The page outline (working pixels) of one more unmarked sheet, searched in `region` (or the whole
    photo), with the sheets in `found` painted over; None when no further grid is there."""
    from vision.orient import locate_by_lattice

    outlines = [grown(q, MARGIN) for q in found]
    painted = paint_over(image, outlines) if found else image
    if region is None:
        crop, (x0, y0) = painted, (0, 0)
    else:
        crop, (x0, y0) = cut_out(painted, region, [], ring_colour(image, region), UNMARKED_MARGIN)
        if min(crop.shape[:2]) < 200:
            return None
    loc = locate_by_lattice(crop, side)
    if loc is None and region is not None:  # one sheet's region: the one-sheet reader's border finder too
        from vision.border import locate_by_border

        loc = locate_by_border(crop, cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), side)
    if loc is None:
        return None
    quad = page_outline(loc.homography, loc.side) + [x0, y0]
    h, w = image.shape[:2]
    centre = quad.mean(axis=0)
    if not (0 <= centre[0] < w and 0 <= centre[1] < h) or cv2.contourArea(quad.astype(np.float32)) < 0.01 * h * w:
        return None
    if any(cv2.pointPolygonTest(q.astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0
           for q in found):
        return None  # a sheet already found: nothing new here
    return quad


def find_sheets(image: np.ndarray, side: str | None = None, max_sheets: int = MAX_SHEETS
                ) -> list[tuple[np.ndarray, str]]:
    """Page outlines (working pixels) of the sheets in a table photo, each with how it was found.

    Marker groups first; then the lattice finder on the photo with the found sheets painted over, until it
    finds nothing more. Outlines are ordered top to bottom, then left to right, by their centres.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found: list[tuple[np.ndarray, str]] = []
    for g in group_markers(detect_all_markers(gray)):
        found.append((page_outline(g.homography, g.side), "markers"))
    found = found[:max_sheets]
    h, w = image.shape[:2]
    if found and not _room_for_another(found, (h, w)):
        return found  # one sheet fills the photo (the common photo of one sheet): nothing else to look for
    painted = paint_over(image, [grown(q, MARGIN) for q, _ in found]) if found else image
    regions = [r for r in paper_regions(painted)
               if not any(cv2.pointPolygonTest(q.astype(np.float32), tuple(float(v) for v in r.mean(axis=0)), False)
                          >= 0 for q, _ in found)]
    # The whole photo is searched only when no paper blob shows at all (a white cloth, a pale table): where
    # blobs show, every sheet is one of them, and a search of the whole photo costs seconds.
    blind = not regions and not paper_regions(image)
    for region in [*regions, *([None] if blind else [])]:
        tries = max_sheets if region is None else 2  # a blob twice: two sheets may touch
        for _ in range(tries):
            if len(found) >= max_sheets:
                break
            quad = _lattice_sheet(image, region, [q for q, _ in found], side)
            if quad is None:
                break
            found.append((quad, "lattice"))
            if not _room_for_another(found, (h, w)):
                return _ordered(found, (h, w))
            if region is not None and cv2.contourArea(region.astype(np.float32)) < 1.6 * cv2.contourArea(
                    quad.astype(np.float32)):
                break  # the blob is one page large: no second sheet in it

    return _ordered(found, (h, w))


def _ordered(found: list[tuple[np.ndarray, str]], shape: tuple[int, int]) -> list[tuple[np.ndarray, str]]:
    """Top to bottom in bands of an eighth of the photo, then left to right."""
    band = max(1.0, min(shape) / 8)
    return sorted(found, key=lambda f: (round(float(f[0].mean(axis=0)[1]) / band), float(f[0].mean(axis=0)[0])))


def _room_for_another(found: list[tuple[np.ndarray, str]], shape: tuple[int, int]) -> bool:
    """Whether the photo outside the sheets found has room for one more page of their size."""
    h, w = shape
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inside = []
    for q, _ in found:
        area, _ = cv2.intersectConvexConvex(frame, q.astype(np.float32))
        inside.append(float(area))
    page = max(cv2.contourArea(q.astype(np.float32)) for q, _ in found)
    return h * w - sum(inside) > 0.8 * page


# --------------------------------------------------------------------------- reading


def _shift(reading: SheetReading, offset: tuple[float, float], scale: float) -> SheetReading:
    """The reading's cell centres moved from the cut-out's pixels into the whole photo's original pixels."""
    if reading.cell_centers_px is not None:
        c = (np.asarray(reading.cell_centers_px, np.float64) + np.array(offset)) / scale
        reading.cell_centers_px = np.round(c, 1).tolist()
    return reading


def read_all(source: bytes | str | os.PathLike, side: str | None = None, *, overlay: bool = True,
             heroes: bool | None = None) -> list[FoundSheet]:
    """Every sheet in a photo of the table, each read by `read_sheet` from its own cut-out.

    A sheet that cannot be read keeps its `error` (the others are still read). A photo in which at most one
    sheet is found is read whole, as `read_sheet` reads it (its PhotoError raised when it fails). `side` and
    `heroes` are the table's, handed to `read_sheet` for every sheet.
    """
    data = source if isinstance(source, bytes | bytearray | memoryview) else None
    photo = load_photo(source, min_side=MULTI_MIN_SIDE)
    image = photo.image
    sheets = find_sheets(image, side)
    if len(sheets) <= 1:
        reading = read_sheet(bytes(data) if data is not None else source, side=side, overlay=overlay,
                             heroes=heroes)
        h, w = image.shape[:2]
        outline = sheets[0][0] / photo.scale if sheets else np.array([[0, 0], [w, 0], [w, h], [0, h]]) / photo.scale
        return [FoundSheet(outline, "whole", reading)]
    outlines = [q for q, _ in sheets]
    out = []
    for i, (quad, how) in enumerate(sheets):
        others = [grown(q, 0.0) for j, q in enumerate(outlines) if j != i]
        crop, (x0, y0) = cut_out(image, quad, others, ring_colour(image, quad),
                                 MARGIN if how == "markers" else UNMARKED_MARGIN)
        ok, buf = cv2.imencode(".png", crop, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        png = buf.tobytes() if ok else b""
        fs = FoundSheet(quad / photo.scale, how, crop_png=png, offset_px=(x0 / photo.scale, y0 / photo.scale),
                        crop=crop)
        try:
            fs.reading = _shift(read_sheet(png, side=side, overlay=overlay, heroes=heroes), (x0, y0), photo.scale)
        except PhotoError as exc:
            fs.error = exc
        out.append(fs)
    return out


def read_sheets(source: bytes | str | os.PathLike, side: str | None = None, *, overlay: bool = True,
                heroes: bool | None = None) -> list[SheetReading]:
    """The readings of every readable sheet in a photo of the table (one for a photo of one sheet).

    Raises the first sheet's PhotoError when no sheet at all can be read.
    """
    found = read_all(source, side, overlay=overlay, heroes=heroes)
    readings = [f.reading for f in found if f.reading is not None]
    if not readings:
        raise next(f.error for f in found if f.error is not None)
    return readings
