"""Deterministic synthetic photos of a whole table: 2–6 filled-in map sheets side by side, one phone photo.

What a player does at the end of a game: the sheets lie on the table, each turned the way its player sat
(a quarter or a half turn, a little skewed), none on top of another; someone photographs them all at once,
at an angle. Each sheet is one of:

* `table`: our sheet printed for this table (`printables.mapsheet.map_sheet_pdf` with the table code, the
  seat in its QR code and the player's name on the Cartographer line, as the table's print button makes it);
* `ours`: our sheet printed without a table (its QR has no seat: the player must say whose it is);
* `pad`, `generic`: sheets without markers (`bench.sheetdesigns`: the game's own pad look-alike, a printed grid).

Every sheet is drawn by its own player (`bench.synthphoto.random_player`, a random style), the pages are laid
out on a wood or cloth background and the whole table is photographed by `bench.synthphoto.photograph`
(tilt, light gradient, shadow, white balance, blur, noise, JPEG). The truth per sheet — kind, side, grid,
coins, seat, the true cell centres in the photo — comes back with the JPEG bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from bench.synthphoto import STYLES, _background, draw_sheet, page_to_photo, photograph, random_grid, random_player
from companion.cartographers.data import COIN_TRACK_LENGTH, GRID_SIZE
from printables.layout import sheet_layout

KINDS = ("table", "ours", "pad", "generic")
NAMES = ("Ayşe", "Mehmet", "Zeynep", "Can", "Elif", "Burak", "Anna", "Tom", "Selin", "Deniz", "Mia", "Emre")
PPT = 1.75  # page pixels per point: a 6-sheet table at 12 MP shows each page at about this size


@dataclass
class TruthSheet:
    kind: str
    side: str
    grid: list[list[str]]
    coins: int
    seat: int | None  # the 1-based seat whose player drew it (every sheet has an owner)
    name: str
    qr_seat: bool  # True when the sheet's QR code names its seat at this table (kind "table")
    cell_centers: np.ndarray  # 11×11×2 true cell centres in the photo's pixels
    outline: np.ndarray  # 4×2 page corners in the photo's pixels
    style: str = "marker"


@dataclass
class TablePhoto:
    data: bytes  # the JPEG file
    table: str  # the table code printed in the QR codes of the `table` sheets
    players: list[str]
    sheets: list[TruthSheet]
    size: tuple[int, int]
    params: dict = field(default_factory=dict)


def _rotated_bbox(w: float, h: float, angle: float) -> tuple[float, float]:
    a = math.radians(angle)
    return abs(w * math.cos(a)) + abs(h * math.sin(a)), abs(w * math.sin(a)) + abs(h * math.cos(a))


def _page(kind: str, side: str, rng, table: str, seat: int, name: str, sheet_id: str):
    """(RGB page image, 11×11×2 cell centres in page px, marked) for one sheet kind."""
    lay = sheet_layout(side, "a4")
    g = lay.grid
    if kind in ("table", "ours"):
        from printables.mapsheet import map_sheet_pdf
        from printables.raster import rasterize

        if kind == "table":
            pdf = map_sheet_pdf(side, "a4", "en", 1, [sheet_id], table, [seat], [name])
        else:
            pdf = map_sheet_pdf(side, "a4", "en", 1, [sheet_id])
        page = rasterize(pdf, 0, dpi=PPT * 72)
        xs = (g.x_pt + g.cell_pt * (np.arange(GRID_SIZE) + 0.5)) * PPT
        ys = (g.y_pt + g.cell_pt * (np.arange(GRID_SIZE) + 0.5)) * PPT
        return page, np.stack(np.meshgrid(xs, ys), axis=-1), True
    from bench.sheetdesigns import render_design

    page, centres = render_design(kind, side, PPT, rng)
    return page, centres, False


def _layout(rng, sizes: list[tuple[int, int]], gap: float) -> tuple[list[np.ndarray], tuple[int, int]]:
    """Affine 2×3 page → canvas for each page (rotated by a quarter turn times k plus a small skew) and the
    canvas size; pages never overlap (slots of a grid, each page jittered inside its slot)."""
    n = len(sizes)
    cols = 2 if n <= 4 else 3
    rows = math.ceil(n / cols)
    angles = []
    for _ in range(n):
        k = int(rng.choice([0, 0, 1, 2, 2, 3]))  # players sit round the table: some sheets face the other way
        angles.append(90.0 * k + float(rng.uniform(-14, 14)))
    boxes = [_rotated_bbox(w, h, a) for (w, h), a in zip(sizes, angles, strict=True)]
    slot_w = max(b[0] for b in boxes) + gap
    slot_h = max(b[1] for b in boxes) + gap
    W, H = int(slot_w * cols + gap), int(slot_h * rows + gap)
    mats = []
    for i, ((w, h), a, (bw, bh)) in enumerate(zip(sizes, angles, boxes, strict=True)):
        r, c = divmod(i, cols)
        if r == rows - 1 and n % cols:  # a short last row is centred
            c += (cols - n % cols) / 2
        cx = gap / 2 + c * slot_w + slot_w / 2 + rng.uniform(-0.4, 0.4) * (slot_w - bw - gap / 2)
        cy = gap / 2 + r * slot_h + slot_h / 2 + rng.uniform(-0.4, 0.4) * (slot_h - bh - gap / 2)
        M = cv2.getRotationMatrix2D((w / 2, h / 2), -a, 1.0)
        M[:, 2] += (cx - w / 2, cy - h / 2)
        mats.append(M)
    return mats, (W, H)


def make_table_photo(seed: int, n: int | None = None, kinds: tuple[str, ...] | None = None,
                     megapixels: float | None = None, tilt_deg: float = 25.0, table: str | None = None,
                     players: list[str] | None = None, side: str | None = None) -> TablePhoto:
    """One deterministic photo of a table with `n` (default 2–6 at random) sheets.

    `kinds` fixes each sheet's kind (cycled); `table`, `players` and `side` fix the table (the web tests use
    their own table's code and names); by default most are `table` sheets, some `ours`, `pad` or
    `generic`. All sheets of a table are of one side, as in the game.
    """
    rng = np.random.default_rng(seed)
    n = int(n or rng.integers(2, 7))
    if not 1 <= n <= 6:
        raise ValueError("a table photo holds 1 to 6 sheets")
    side = side or ("A", "B")[int(rng.integers(2))]
    code = "T" + "".join(rng.choice(list("ABCDEFGHJKMNPQRSTUVWXYZ23456789"), 6))
    table = table or code
    names = [str(x) for x in rng.choice(NAMES, n, replace=False)]
    players = list(players) if players is not None else names
    if len(players) < n:
        raise ValueError(f"{len(players)} players for {n} sheets")
    if kinds is None:
        kinds = tuple(str(rng.choice(KINDS, p=[0.55, 0.15, 0.15, 0.15])) for _ in range(n))
    pages, centres, truths = [], [], []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        if kind not in KINDS:
            raise ValueError(f"unknown sheet kind {kind!r}")
        page, cp, marked = _page(kind, side, rng, table, i + 1, players[i], f"S{seed % 10000:04d}{i}")
        style = STYLES[int(rng.integers(len(STYLES)))]
        grid = random_grid(rng, side)
        coins = int(rng.integers(0, COIN_TRACK_LENGTH + 1))
        drawn = draw_sheet(page, PPT, side, grid, coins, random_player(rng, style), rng, legend=marked)
        pages.append(drawn)
        centres.append(cp)
        truths.append((kind, grid, coins, style))
    gap = 0.06 * max(pages[0].shape[:2])
    mats, (W, H) = _layout(rng, [(p.shape[1], p.shape[0]) for p in pages], gap)
    canvas = _background(rng, W, H).astype(np.float32)
    for page, M in zip(pages, mats, strict=True):
        warped = cv2.warpAffine(page, M, (W, H), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(np.full(page.shape[:2], 255, np.uint8), M, (W, H), flags=cv2.INTER_LINEAR)
        a = alpha.astype(np.float32)[..., None] / 255
        canvas = canvas * (1 - a) + warped.astype(np.float32) * a
    canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    mp = float(megapixels or rng.uniform(8, 12))
    # A phone's 12 MP photo of a table is sharp to about a pixel; the one-sheet generator's blur grows with the
    # megapixels (a close-up), which at 12 MP would blur away the QR codes of six small sheets.
    blur = float(rng.uniform(0.4, 1.3))
    photo, Hm = photograph(canvas, rng, mp, tilt_deg=tilt_deg, curl=0.0, fill=(0.9, 0.98), blur=blur)
    q = int(rng.integers(75, 95))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    sheets = []
    for i, ((kind, grid, coins, style), cp, M, page) in enumerate(zip(truths, centres, mats, pages, strict=True)):
        A = np.vstack([M, [0, 0, 1]])
        ph, pw = page.shape[:2]
        corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
        to_photo = Hm @ A
        cc = page_to_photo(cp.reshape(-1, 2), to_photo, {}).reshape(GRID_SIZE, GRID_SIZE, 2)
        outline = cv2.perspectiveTransform(corners[None], to_photo)[0]
        sheets.append(TruthSheet(kind, side, grid, coins, i + 1, players[i], kind == "table", cc, outline, style))
    return TablePhoto(buf.tobytes(), table, players, sheets, (photo.shape[1], photo.shape[0]),
                      {"megapixels": mp, "quality": q, "side": side, "blur": blur})
