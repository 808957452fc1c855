"""Stage 7: the whole pipeline behind one call, `read_sheet(photo) -> SheetReading`."""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.cartographers.board import ALL_CELLS
from companion.cartographers.data import CARD_SETS, GRID_SIZE, HEROES, MAPS
from companion.cartographers.sides import CUSTOM_PREFIX, is_custom
from printables.layout import parse_qr_payload
from vision import quality
from vision.border import locate_by_border
from vision.calibrate import doubt_grouped_heroes
from vision.cellread import doubt_sheet, read_cells_net, read_net
from vision.cells import GroupInfo, read_cells
from vision.coins import read_coin_track, read_coins
from vision.errors import PhotoError
from vision.features import ink_strength
from vision.geometry import Canon, canon_for, printed_cells
from vision.gridfit import cell_offsets, centres_in_photo, fit_grid, warp_from_centres
from vision.light import normalise_light, paper_level
from vision.load import load_photo
from vision.locate import (
    ID_SIDE,
    SheetLocation,
    detect_markers,
    locate_by_markers,
    markers_inside_grid,
    markers_way_up,
)
from vision.marks import apply_marks, read_marks
from vision.messages import Note
from vision.orient import locate_by_lattice, reorient
from vision.paperlines import remove_paper_lines
from vision.rectify import canon_to_image, rectify, rectify_patch
from vision.review import THRESHOLD, cells_to_check
from vision.ruinsdoubt import doubt_unmarked_ruins
from vision.sidelook import SIDES, grid_off_map, other_side_by_look, side_likeness
from vision.sideprob import doubt_printed, side_probability
from vision.wayup import NO_RIVALS, printed_mask, unsure_confidence

CONFIDENCE_THRESHOLD = THRESHOLD  # cells below this are shown as doubtful and should be confirmed by the player
CROSSED_MONSTER_DOUBT = 0.6  # a "destroyed" cross over a monster's colour on a base-game side (see below)
HEROES_SIDES = frozenset(CARD_SETS[HEROES].sides)

OVERLAY_COLOURS = {  # BGR
    "empty": (255, 255, 255),
    "forest": (60, 160, 40),
    "village": (40, 40, 200),
    "farm": (30, 200, 240),
    "water": (220, 120, 30),
    "monster": (150, 40, 130),
    "mountain": (60, 60, 90),
    "wasteland": (150, 150, 150),
    "hero": (120, 122, 22),
    "destroyed": (59, 59, 59),
}
LETTERS = {"empty": "", "forest": "F", "village": "V", "farm": "A", "water": "W", "monster": "M",
           "mountain": "", "wasteland": "", "hero": "H", "destroyed": "X"}


@dataclass
class SheetReading:
    """What the photo says. `grid[r][c]` is a terrain word; `confidence[r][c]` is the probability (0..1) that
    the cell is read right (vision.calibrate); for printed cells, that the sheet was found as the right side and
    the right way up.

    `overlay` is a BGR uint8 debug image of the rectified sheet with the reading
    drawn on it (doubtful cells outlined in red); `overlay_png()` encodes it.
    """

    side: str
    grid: list[list[str]]
    coins: int
    confidence: list[list[float]]
    sheet_id: str | None = None
    table: str | None = None
    seat: int | None = None
    warnings: list[str] = field(default_factory=list)  # English texts of `notes`
    notes: list[Note] = field(default_factory=list)  # the same warnings with stable codes (see vision.messages)
    overlay: np.ndarray | None = field(default=None, repr=False)
    method: str = "markers"
    style: str = "colour"
    # 11×11 [x, y] cell centres in the photo's pixels (upright, after EXIF), as the reader placed them.
    cell_centers_px: list[list[list[float]]] | None = None
    # True when the sheet could be either way up (side A without markers): the review should ask
    # "Is this the top of your sheet?" and, if not, turn the grid by a half turn (`turned_half`).
    orientation_unsure: bool = False
    # Quarter turns clockwise the ask offers (`read --turn K`), most likely first; [0] when the way up is sure.
    orientation_choices: list[int] = field(default_factory=lambda: [0])
    groups: list[GroupInfo] = field(default_factory=list)  # the sheet's own classes (see vision.cells)
    sheet_image: np.ndarray | None = field(default=None, repr=False)  # the straightened sheet (BGR uint8)
    cell_boxes: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict, repr=False)
    read_path: str = "learned"  # "legend" (our sheet's drawn legend) or "learned" (groups named from priors)
    raw_confidence: np.ndarray | None = field(default=None, repr=False)  # before calibration (vision.calibrate)
    evidence: object | None = field(default=None, repr=False)  # the calibrator's input (vision.calibrate.Evidence)
    # while `orientation_unsure`: the way-up decision's evidence (vision.orient.Orientation.leads) and the cells'
    # calibrated confidence as if the way up were right, before vision.wayup folded in the chance that it is not
    orientation_leads: tuple[float, ...] = field(default=NO_RIVALS, repr=False)
    confidence_if_upright: np.ndarray | None = field(default=None, repr=False)
    # when the reader chose the side itself: (the orientation cues' lead, the mountains' look margin), what
    # P(the side is right) was worked out from (vision.sideprob; bench.bench_side fits it)
    side_evidence: tuple[float, float] | None = field(default=None, repr=False)

    def cell_image(self, row: int, col: int, pad: float = 0.12) -> np.ndarray | None:
        """The straightened photo of one cell with a little of its neighbours (for "Which terrain is this?")."""
        if self.sheet_image is None or (row, col) not in self.cell_boxes:
            return None
        x, y, s = self.cell_boxes[(row, col)]
        h, w = self.sheet_image.shape[:2]
        m = s * pad
        x0, y0 = max(0, int(x - m)), max(0, int(y - m))
        x1, y1 = min(w, int(x + s + m)), min(h, int(y + s + m))
        return self.sheet_image[y0:y1, x0:x1].copy()

    def unsure_groups(self, threshold: float = CONFIDENCE_THRESHOLD) -> list[GroupInfo]:
        """Groups whose name the reader is not sure of: one tap on their example cell names them all."""
        return [g for g in self.groups if g.source != "given" and g.confidence < threshold]

    def doubtful_cells(self) -> list[tuple[int, int]]:
        """The cells the review highlights for checking (`vision.review.cells_to_check`): those under the
        confidence threshold and, on a sheet with few of them, the least sure of the rest."""
        return cells_to_check(self.confidence)

    def turned_half(self) -> SheetReading:
        """The same reading a half turn round: the review's answer "No" to "Is this the top of your sheet?".

        Only offered when `orientation_unsure` (side A without markers, whose printed cells are symmetric
        under a half turn, so the turned grid is a valid map of the same side).
        """
        from dataclasses import replace

        def turn(rows):
            return [list(reversed(r)) for r in reversed(rows)]

        centres = turn(self.cell_centers_px) if self.cell_centers_px is not None else None
        return replace(self, grid=turn(self.grid), confidence=turn(self.confidence), cell_centers_px=centres,
                       orientation_unsure=False, orientation_choices=[0], confidence_if_upright=None,
                       overlay=None if self.overlay is None else self.overlay[::-1, ::-1])

    def warnings_text(self, lang: str = "en") -> list[str]:
        """The warnings in "en" or "tr" (the web app shows these next to the overlay)."""
        return [n.text(lang) for n in self.notes]

    def to_dict(self) -> dict:
        """The JSON contract of `mapsmith read --json` (plus a few extra keys)."""
        return {
            "side": self.side,
            "grid": self.grid,
            "coins": self.coins,
            "confidence": [[round(float(v), 3) for v in row] for row in self.confidence],
            "warnings": list(self.warnings),
            "warning_codes": [n.code for n in self.notes],
            "sheet_id": self.sheet_id,
            "table": self.table,
            "seat": self.seat,
            "doubtful": [list(rc) for rc in self.doubtful_cells()],
            "method": self.method,
            "style": self.style,
            "cell_centers_px": self.cell_centers_px,
            "orientation_unsure": self.orientation_unsure,
            "orientation_choices": list(self.orientation_choices),
            "groups": [g.to_dict() for g in self.groups],
        }

    def overlay_png(self) -> bytes:
        if self.overlay is None:
            return b""
        ok, buf = cv2.imencode(".png", self.overlay)
        return buf.tobytes() if ok else b""


def reads_heroes(side: str, heroes: bool | None) -> bool:
    """Whether the marks stage looks for heroes and destroyed monsters: as the caller says, else by the side.

    Both marks come only with the Heroes explore deck (a hero card, a hero's hits). Its own sides are C and D; a
    table may play it on side A or B too, and then it says so (the web table knows its deck, `mapsmith read
    --heroes`). With nothing said, a sheet of side A or B is a base game's: on the development photos of both
    generators (base games, no heroes) every hero and every destroyed monster the marks stage read there was a
    terrain's symbol or colour (277 of 4,022 wrong cells on 504 photos). A table's own side may hold either.
    """
    if heroes is not None:
        return bool(heroes)
    return side in HEROES_SIDES or is_custom(side)


def doubt_crossed_monsters(side: str, under: list[list[str]], grid: list[list[str]], conf: np.ndarray) -> int:
    """On a base-game side an X over a monster's colour is doubted as a Heroes "destroyed" mark (in place).

    An X (or a cross-hatched face) is one of the commonest monster symbols, and a bold one looks just like a
    hero's "destroyed" cross; on the Heroes sides (C, D) destroying monsters is what the cross is for, but on
    the others a player who crossed a monster square more likely drew a monster. Returns the cells doubted.
    """
    if side in HEROES_SIDES:
        return 0
    n = 0
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t == "destroyed" and under[r][c] == "monster" and conf[r, c] > CROSSED_MONSTER_DOUBT:
                conf[r, c] = CROSSED_MONSTER_DOUBT
                n += 1
    return n


def legend_quads(canon: Canon, page_to_image: np.ndarray, move_box=None) -> dict[str, np.ndarray]:
    """Our sheet's legend squares as quads (TL, TR, BR, BL) in the working photo's pixels."""
    M = canon_to_image(canon, page_to_image)
    out = {}
    for t, box in canon.legend_boxes().items():
        x, y, s = move_box(box) if move_box else box
        pts = np.array([[[x, y], [x + s, y], [x + s, y + s], [x, y + s]]], np.float64)
        out[t] = cv2.perspectiveTransform(pts, M)[0]
    return out


def read_qr(image: np.ndarray, location: SheetLocation, canon: Canon, thorough: bool = True):
    """Decode the sheet's QR code from a straightened patch of the photo; None when unreadable.

    Straightening first makes the QR a clean square; a binarised retry helps
    under uneven light. OpenCV's classic detector misses ~1-2 % of perfectly
    printed codes (it depends on the pattern alone), so the ArUco-based detector
    gets a second try. The markers already gave the side, so this only adds the
    sheet id / table / seat. Not `thorough` (a sheet found by its border, most
    often not ours): the classic detector at one scale only, a quarter of the
    time spent where there is no code at all.
    """
    qr = canon.layout.qr
    pad = 8.0
    detectors = [cv2.QRCodeDetector()]
    if hasattr(cv2, "QRCodeDetectorAruco") and thorough:
        detectors.append(cv2.QRCodeDetectorAruco())
    for detector, ppt in ((d, p) for d in detectors for p in ((4.0, 6.0) if thorough else (4.0,))):
        patch = rectify_patch(image, location.homography, qr.x_pt - pad, qr.y_pt - pad, qr.w_pt + 2 * pad,
                              qr.h_pt + 2 * pad, ppt)
        gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        binary = cv2.threshold(cv2.GaussianBlur(gray, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
        for img in (gray, binary):
            try:
                text, _, _ = detector.detectAndDecode(img)
            except cv2.error:
                continue
            info = parse_qr_payload(text) if text else None
            if info is not None:
                return info
    return None


def _in_background(fn, *args) -> Future:
    """`fn(*args)` started on a thread of its own; the future's `result()` waits for it and re-raises its error.

    Nothing is shared but the arguments, which neither side changes; a reading that fails before asking for the
    result lets the thread finish and drops it.
    """
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(fn, *args)
    finally:
        pool.shutdown(wait=False)


def _box(canon: Canon, offsets: np.ndarray | None, r: int, c: int) -> tuple[float, float, float]:
    x, y, s = canon.cell_box(r, c)
    if offsets is not None:
        x, y = x + float(offsets[r, c, 0]), y + float(offsets[r, c, 1])
    return x, y, s


def draw_overlay(canon_img: np.ndarray, canon: Canon, grid, check: list[tuple[int, int]], coins_filled,
                 offsets: np.ndarray | None = None) -> np.ndarray:
    """The straightened sheet tinted with the reading, the cells to `check` outlined in red, the coins circled."""
    out = canon_img.copy()
    tint = out.copy()
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            x, y, s = _box(canon, offsets, r, c)
            t = grid[r][c]
            if t != "empty":
                cv2.rectangle(tint, (int(x + 2), int(y + 2)), (int(x + s - 2), int(y + s - 2)), OVERLAY_COLOURS[t], -1)
    out = cv2.addWeighted(out, 0.55, tint, 0.45, 0)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            x, y, s = _box(canon, offsets, r, c)
            label = LETTERS[grid[r][c]]
            if label:
                cv2.putText(out, label, (int(x + s * 0.3), int(y + s * 0.7)), cv2.FONT_HERSHEY_SIMPLEX, s / 45,
                            (0, 0, 0), 2, cv2.LINE_AA)
            if (r, c) in check:
                cv2.rectangle(out, (int(x + 1), int(y + 1)), (int(x + s - 1), int(y + s - 1)), (0, 0, 255), 3)
    for coin, filled in zip(canon.layout.coins, coins_filled, strict=False):
        r = canon.px(coin.d_pt / 2)
        centre = (int(canon.px(coin.x_pt) + r), int(canon.px(coin.y_pt) + r))
        cv2.circle(out, centre, int(r + 2), (0, 170, 0) if filled else (160, 160, 160), 2)
    return out


def _centres_inside(loc: SheetLocation, shape: tuple[int, ...], margin_cells: float = 0.6) -> bool:
    """Every cell centre the lattice measured lies in the photo with `margin_cells` of a cell to spare."""
    c = loc.cell_centres
    if c is None:
        return False
    cell = float(np.median(np.linalg.norm(np.diff(c, axis=1), axis=2)))
    m = margin_cells * cell
    h, w = shape[:2]
    return bool((c[..., 0] >= m).all() and (c[..., 0] <= w - 1 - m).all() and (c[..., 1] >= m).all()
                and (c[..., 1] <= h - 1 - m).all())


def _locate_with_few_markers(image: np.ndarray, found: dict[int, np.ndarray], side: str | None,
                             quarter_turns: int | None, way_up: bool) -> SheetLocation | None:
    """The lattice's location of a sheet whose markers could not place it, turned by the markers seen
    (`markers_way_up`, when `way_up`) unless one of them lies inside the grid found: a look-alike decoded on
    a drawing (`markers_inside_grid`), left out before the lattice is looked for again."""
    for _ in range(2):
        m_side, down = markers_way_up(found, side) if way_up else (None, None)
        hint = m_side if m_side in ("A", "B") and side is None else side
        seen = {k: c for k, c in found.items() if ID_SIDE.get(k) == m_side} if m_side in ("A", "B") else None
        loc = locate_by_lattice(image, hint, quarter_turns, down=down if m_side in ("A", "B") else None,
                                markers=seen)
        fake = markers_inside_grid(seen, loc.cell_centres) if seen and loc is not None else set()
        if not fake:
            return loc
        found = {k: c for k, c in found.items() if k not in fake}
    return loc


def locate(image: np.ndarray, gray: np.ndarray, side: str | None, quarter_turns: int | None = None) -> SheetLocation:
    """Markers first (a fast path and a check); otherwise the grid's own lattice; otherwise a clear error.

    Fewer than three markers (clipped, covered, blurred) are no reason to refuse while the grid is in the
    frame: the lattice places the sheet then, and only when it cannot is the marker diagnosis reported. The
    one or two markers seen still say which side and which way up the sheet is (`markers_way_up`): the
    lattice is turned by them, and the player is not asked.
    """
    found = detect_markers(gray)
    try:
        loc = locate_by_markers(gray, side, found=found)
    except PhotoError as exc:
        # Markers that disagree (one misread) or a grid that three markers' homography puts partly out of
        # the frame (a curled sheet, a wide-angle lens bend it) are no verdict while the lattice of 12 + 12
        # lines is itself wholly in the photo.
        if exc.code not in ("markers_cut", "too_blurry", "too_small", "grid_cut", "unknown_side"):
            raise
        loc = _locate_with_few_markers(image, found, side, quarter_turns, exc.code != "unknown_side")
        if loc is None or (exc.code == "grid_cut" and not _centres_inside(loc, gray.shape)):
            raise
        return loc
    if loc is not None:
        return loc  # markers fix the way up: a turn asked for does not apply
    loc = locate_by_lattice(image, side, quarter_turns)
    if loc is not None:
        return loc
    loc = locate_by_border(image, gray, side)
    if loc is not None:
        return reorient(image, loc, side, quarter_turns)
    raise PhotoError("no_sheet", "no corner markers and no grid found")


def sheet_context(loc: SheetLocation, grid_measured: bool, blur_cells: float) -> dict[str, float]:
    """How the sheet was found, for the calibrated confidence (vision.calibrate.SHEET_FEATURES).

    `orientation_unsure` describes the sheet as the cues found it (its way up could not be told alone), also
    after the player's answer: the answer removes the chance of a wrong way up (`vision.wayup`, folded in only
    while unanswered), not what kind of sheet it is, so "yes, this is the top" gives the cells the confidence
    they were shown to have if upright (`SheetReading.confidence_if_upright`)."""
    markers = loc.method == "markers"
    return {"no_markers": float(not markers), "lattice": float(loc.cell_centres is not None),
            "markers_missing": float(4 - len(loc.markers)) if markers else 0.0,
            "orientation_unsure": float(loc.orientation_unsure or loc.orientation_asked),
            "grid_unmeasured": float(not grid_measured),
            "blur_cells": float(blur_cells), "residual": float(np.log1p(max(loc.residual_px, 0.0)))}


CELL_READERS = ("net", "features")


def read_sheet(source: bytes | str | os.PathLike, side: str | None = None, *, overlay: bool = True,
               names: dict[int, str] | None = None, quarter_turns: int | None = None,
               cells: str = "net", heroes: bool | None = None) -> SheetReading:
    """Read a photo (bytes or a path) of a map sheet into a `SheetReading`.

    `side` ("A"/"B") is only needed for sheets without markers whose side cannot
    be recognised; markers always win (with a warning when they disagree).
    `names` (group id → terrain word) re-reads with the player's names for groups of an earlier reading of
    the same photo (group ids are deterministic).
    `quarter_turns` (0..3) re-reads an unmarked sheet turned that many quarter turns clockwise from the way up
    the reader chose itself: the player's answer to "Which edge is the top of your sheet?", the way up sure then
    (0 = "yes, this is the top": the same reading, confirmed). None (the default): nobody has said; the reader
    decides, and when it is unsure (`orientation_unsure`) each cell's confidence includes the chance that the
    way up is wrong (`vision.wayup`).
    `cells` chooses the cell reader: "net", the learned cell model (`vision.cellread`; the measured features
    below when no model is installed), or "features", the measured features alone (`vision.cells.read_cells`,
    kept as the fallback and refitted by `scripts/calibrate.py`).
    `heroes`: whether the game plays the Heroes explore deck, whose heroes and destroyed monsters the marks stage
    reads (`reads_heroes`); None (the default): only on the Heroes sides and a table's own sides.
    Raises `PhotoError` (a ValueError with a stable `.code`) for unreadable photos.

    The reading's matrix products are small (121 × 324 cell similarities, the symbol and hero models): BLAS
    runs them on one thread for its duration. Woken BLAS threads fight OpenCV's own for two cores and made
    a 0.5 ms product take 20–40 ms; one thread gives the same numbers.
    """
    if quarter_turns is not None and (isinstance(quarter_turns, bool) or not isinstance(quarter_turns, int)
                                      or not 0 <= quarter_turns <= 3):
        raise ValueError(f"quarter_turns must be None, 0, 1, 2 or 3, not {quarter_turns!r}")
    if cells not in CELL_READERS:
        raise ValueError(f"cells must be one of {', '.join(CELL_READERS)}, not {cells!r}")
    with _one_blas_thread():
        return _read_sheet(source, side, overlay=overlay, names=names, quarter_turns=quarter_turns, cells=cells,
                           heroes=heroes)


def _one_blas_thread():
    """A context in which BLAS uses one thread (restored after)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _read_sheet(source: bytes | str | os.PathLike, side: str | None, *, overlay: bool,
                names: dict[int, str] | None, quarter_turns: int | None, cells: str = "net",
                heroes: bool | None = None, mountains_alike: float | None = None) -> SheetReading:
    """`read_sheet`'s work; `mountains_alike`: how alike the side's mountain cells looked to the cell model on the
    first reading that chose this side for the reader to read it again (`vision.sidelook`)."""
    if side is not None:
        side = side.strip().upper()
        if side not in MAPS and not is_custom(side):
            raise ValueError(f"side must be one of {', '.join(MAPS)}, not {side!r}")
    if names:
        from vision.cells import NAMEABLE

        bad = [t for t in names.values() if t not in NAMEABLE]
        if bad:
            raise ValueError(f"unknown terrain {bad[0]!r}: a group can be named {', '.join(NAMEABLE)}")
    photo = load_photo(source)
    gray = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY)
    quality.check_brightness(gray)
    loc = locate(photo.image, gray, CUSTOM_PREFIX if side is not None and is_custom(side) else side, quarter_turns)
    early_qr = None
    if loc.side == CUSTOM_PREFIX:  # a table's own side: only its QR code says which cells are printed
        early_qr = read_qr(photo.image, loc, canon_for(loc.side))
        if early_qr is None or not is_custom(early_qr.side):
            raise PhotoError("custom_side_unread", "this sheet shows a table's own side, but its QR code is unreadable")
        loc = replace(loc, side=early_qr.side)
    canon = canon_for(loc.side)
    quality.check_size(loc.homography, canon, photo.scale)
    # The QR code needs only the photo and the sheet's place: decode it on the second core (OpenCV releases the
    # GIL) while the cells are read; the answer is the same as reading it afterwards. A sheet found without its
    # markers (one clipped, or not ours) is looked at too: our QR code where our layout puts it gives the sheet's
    # id, table and seat all the same.
    qr_job = (_in_background(read_qr, photo.image, loc, canon, loc.method == "markers")
              if early_qr is None and loc.side in MAPS else None)
    canon_img = rectify(photo.image, loc.homography, canon)
    canon_gray = cv2.cvtColor(canon_img, cv2.COLOR_BGR2GRAY)
    quality.check_paper(paper_level(canon_img))
    boxes = quality.marker_boxes(canon) if loc.method == "markers" else quality.border_boxes(canon)
    blur = quality.edge_blur(canon_gray, boxes)
    quality.check_blur(blur, canon, "colour")
    norm = normalise_light(canon_img, canon, loc.side)
    ink = ink_strength(norm)
    warp = fit_grid(ink, canon) if loc.cell_centres is None else warp_from_centres(canon, loc.homography,
                                                                                      loc.cell_centres)
    offsets = cell_offsets(warp)
    # The paper's own lines (notebook rulings, squared paper, the drawn grid's edges) out of the cells of a sheet
    # found without our markers: from here on, ink in a cell is what the player drew. Our own print has neither
    # rulings nor lines off their place (its thin printed grid is where the layout says).
    cells_norm, outline_norm = norm, None
    if loc.method != "markers":
        clean = remove_paper_lines(norm, canon.grid_box(), offsets)
        if clean.changed:
            cells_norm, outline_norm = clean.image, norm
    printed = printed_cells(loc.side)
    # A side the reader chose itself is checked by how the mountain cells of both sides look to the model
    # (`vision.sidelook`): every cell is read then, the printed ones too.
    check_side = side is None and loc.method != "markers" and loc.side in SIDES and early_qr is None
    net = None if cells == "features" else read_net(
        photo.image, centres_in_photo(canon, loc.homography, offsets, 1.0),
        list(ALL_CELLS) if check_side else [rc for rc in ALL_CELLS if rc not in printed],
        legend_quads(canon, loc.homography, warp.box) if loc.method == "markers" else None)
    alike = side_likeness(net.cells, net.emb, loc.side) if net is not None and check_side else None
    look = alike[0] - alike[1] if alike is not None else None
    other = other_side_by_look(loc.side, look) if look is not None else None
    if other is not None:
        return _read_sheet(source, other, overlay=overlay, names=names, quarter_turns=quarter_turns,
                           cells=cells, heroes=heroes, mountains_alike=alike[1])
    own_alike = alike[0] if alike is not None else mountains_alike  # measured here, or on the first reading
    context = sheet_context(loc, warp.measured, blur / canon.cell_px)
    if net is not None:
        cls = read_cells_net(net, cells_norm, canon, loc.side, offsets, warp.box, loc.method, names, outline_norm,
                             context)
    else:  # no cell model installed: the measured features alone
        cls = read_cells(cells_norm, canon, loc.side, offsets, warp.box, loc.method, names, context=context,
                         outline_norm=outline_norm)
    if reads_heroes(loc.side, heroes):  # Heroes marks: mountains and wastelands are never destroyed
        markable = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)
                    if printed.get((r, c)) not in ("mountain", "wasteland")]
        mark_boxes = {rc: _box(canon, offsets, *rc) for rc in markable}
        same = mark_boxes == cls.boxes and list(mark_boxes) == list(cls.boxes)  # then the same whitened planes
        predrawn = {rc for rc in printed if rc in markable}
        under = [row[:] for row in cls.grid]
        apply_marks(cls.grid, cls.confidence, read_marks(cells_norm, mark_boxes, predrawn,
                                                         given=cls.planes if same else None,
                                                         ink_shapes=cls.ink_shapes if same else None))
        doubt_crossed_monsters(loc.side, under, cls.grid, cls.confidence)
        doubt_grouped_heroes(cls.grid, cls.confidence, cls.groups)
    # symbols need a sharper photo than colour fills; a map of fills with a few shape-named cells is gated as
    # fills, those cells doubted (before the way-up doubt below: it folds in the cells as they stand)
    quality.check_blur(blur, canon, quality.gate_style(cls.style, cls.groups))
    quality.doubt_blurred_shapes(cls.confidence, cls.groups, blur / canon.cell_px, cls.style)
    if_upright, on_print = None, printed_mask(printed)
    # a side whose mountains look like nothing alike: the grid is not on the map, every cell read is in doubt
    # (before the way-up and side doubts below, which only lower confidences further)
    if grid_off_map(own_alike) and doubt_sheet(cls.confidence, cls.groups) and \
            not any(w.code == "sheet_doubtful" for w in cls.warnings):
        cls.warnings.append(Note.of("sheet_doubtful"))
    if loc.orientation_unsure:  # nobody knows the way up yet: each cell may be right only by that chance
        if_upright = cls.confidence.copy()
        cls.confidence = unsure_confidence(cls.grid, cls.confidence, on_print, loc.orientation_leads)
    # the printed cells are where they are only if the side is right (a side the cues chose by a hair, its
    # mountains looking hardly more alike than the other side's)
    p_side = side_probability(loc.side_lead, look)
    for conf in (cls.confidence, if_upright):
        if conf is not None:
            doubt_printed(conf, on_print, p_side)
            if loc.method != "markers":  # a ruin printed large (the pad) under what was drawn
                doubt_unmarked_ruins(conf, loc.side)
    frame = (canon_to_image(canon, loc.homography), photo.image.shape[1::-1])  # a circle out of it is hidden
    coins = read_coins(ink, canon, warp.shift, frame) if loc.method == "markers" else read_coin_track(
        norm, canon, ink, warp.shift, frame)
    notes = [*loc.warnings, *cls.warnings]
    if coins.confidence < 0.3:
        notes.append(Note.of("coins_unsure"))
    qr = early_qr or (qr_job.result() if qr_job is not None else None)
    if qr is not None and qr.side != loc.side:
        notes.append(Note.of("qr_side_mismatch", qr=qr.side, side=loc.side))
    check = cells_to_check(cls.confidence)
    if check:
        notes.append(Note.of("doubtful_cells", n=len(check)))
    ov = draw_overlay(canon_img, canon, cls.grid, check, coins.filled, offsets) if overlay else None
    return SheetReading(
        side=loc.side,
        grid=cls.grid,
        coins=coins.count,
        confidence=cls.confidence.round(3).tolist(),
        sheet_id=qr.sheet_id if qr else None,
        table=qr.table if qr else None,
        seat=qr.seat if qr else None,
        warnings=[n.text("en") for n in notes],
        notes=notes,
        overlay=ov,
        method=loc.method,
        style=cls.style,
        cell_centers_px=np.round(centres_in_photo(canon, loc.homography, offsets, photo.scale), 1).tolist(),
        orientation_unsure=loc.orientation_unsure,
        orientation_choices=list(loc.orientation_choices) if loc.orientation_unsure else [0],
        groups=cls.groups,
        sheet_image=canon_img,
        read_path=cls.path,
        raw_confidence=cls.raw,
        evidence=cls.evidence,
        orientation_leads=tuple(loc.orientation_leads),
        confidence_if_upright=if_upright,
        side_evidence=(loc.side_lead, look) if look is not None else None,
        cell_boxes={(r, c): _box(canon, offsets, r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)},
    )
