"""The paper before the player draws on it: every kind of sheet, designed in millimetres, painted at any scale.

A `Design` is the sheet's geometry (size, the 11x11 cell lattice, markers, legend squares, coin circles, ...)
in millimetres from the page's top-left corner; `Design.paint(px_per_mm, rng)` makes the picture of the blank
(printed or hand-ruled) sheet at the resolution the camera needs. The lattice is a 12x12 array of cell corners,
so hand-ruled grids with uneven, slanted cells are described as exactly as printed ones.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import strokes as S
from .mapfill import printed_cells, ruins_cells
from .page import Page, ink, layer
from .rand import chance, pick, uni
from .texture import fbm, paper_base, paper_tooth, smooth_noise, stains

N = 11
ROOT = Path(__file__).resolve().parents[2]
FONT_DIR = ROOT / "printables" / "fonts"
SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")
SCAN_FILES = {"A": "Cartographers_game_field.png", "B": "Cartographers_game_field_Backside.png"}
LATIN = "ABCDEFGHIJK"
CYRILLIC = "АБВГДЕЖЗИКЛ"


# --- the pad scans ----------------------------------------------------------------------------------------------

def scan_dir() -> Path:
    return Path(os.environ.get("MAPSMITH_PAD_SCANS") or (ROOT / "bench" / "pad-scans"))


def scans_available() -> bool:
    d = scan_dir()
    return all((d / f).is_file() for f in SCAN_FILES.values())


class ScansMissing(FileNotFoundError):
    pass


# Measured on the scans: the dashed lines' lattice (x = x0 + k*dx, y = y0 + k*dy, k = 0..11, scan pixels) fitted
# to the ten inner lines of each direction (residuals ~0.1 px), and the 14 coin circles' centres and radius.
SCAN_GEOMETRY = {
    "A": {"size": (413, 597), "x0": 31.43, "dx": 31.823, "y0": 111.80, "dy": 31.821,
          "coin_x0": 76.5, "coin_dx": 22.75, "coin_y": 507.5, "coin_r": 7.2, "labels": "cyrillic"},
    "B": {"size": (387, 565), "x0": 30.40, "dx": 29.764, "y0": 110.18, "dy": 29.741,
          "coin_x0": 71.5, "coin_dx": 21.5, "coin_y": 480.3, "coin_r": 6.8, "labels": "latin"},
}
SCAN_PX_PER_MM = 2.75  # the pad is about 150 mm wide


@lru_cache(maxsize=2)
def _scan(side: str) -> np.ndarray:
    path = scan_dir() / SCAN_FILES[side]
    if not path.is_file():
        raise ScansMissing(f"padscan needs the pad scans: {path} is missing (set MAPSMITH_PAD_SCANS)")
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ScansMissing(f"cannot read {path}")
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


# --- design -----------------------------------------------------------------------------------------------------

@dataclass
class Design:
    kind: str
    template: str
    side: str
    size_mm: tuple[float, float]
    lattice: np.ndarray  # (12, 12, 2) mm: [i, j] = corner between rows i-1|i and columns j-1|j
    painter: Callable | None = None
    markers: dict[str, np.ndarray] = field(default_factory=dict)
    legend: list[tuple[str, np.ndarray]] = field(default_factory=list)
    coins: list[tuple[float, float, float]] = field(default_factory=list)
    score_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    name_line: tuple[float, float, float] | None = None
    params: dict = field(default_factory=dict)
    paper_colour: tuple[float, float, float] = (0.95, 0.95, 0.94)
    extra: dict = field(default_factory=dict)

    @property
    def printed(self) -> dict:
        return printed_cells(self.side)

    @property
    def ruins(self) -> list:
        return ruins_cells(self.side)

    def cell_quad(self, r: int, c: int) -> np.ndarray:
        L = self.lattice
        return np.array([L[r, c], L[r, c + 1], L[r + 1, c + 1], L[r + 1, c]])

    def cell_centres(self) -> np.ndarray:
        L = self.lattice
        return (L[:-1, :-1] + L[:-1, 1:] + L[1:, 1:] + L[1:, :-1]) / 4.0

    def grid_corners(self) -> np.ndarray:
        L = self.lattice
        return np.array([L[0, 0], L[0, N], L[N, N], L[N, 0]])

    def page_corners(self) -> np.ndarray:
        w, h = self.size_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)

    def mean_cell_mm(self) -> float:
        c = self.cell_centres()
        dx = np.linalg.norm(c[:, 1:] - c[:, :-1], axis=-1).mean()
        dy = np.linalg.norm(c[1:] - c[:-1], axis=-1).mean()
        return float((dx + dy) / 2)

    def paint(self, ppm: float, rng: np.random.Generator) -> Page:
        return self.painter(self, ppm, rng)


def regular_lattice(x0: float, y0: float, cw: float, ch: float | None = None) -> np.ndarray:
    ch = cw if ch is None else ch
    j, i = np.meshgrid(np.arange(N + 1), np.arange(N + 1))
    return np.stack([x0 + j * cw, y0 + i * ch], -1).astype(np.float64)


# --- drawing helpers --------------------------------------------------------------------------------------------

def blank(design: Design, ppm: float, rng: np.random.Generator, colour=None, mottle: float = 0.012,
          tooth_coarse: float = 1.0) -> Page:
    w, h = design.size_mm
    W, H = max(8, int(round(w * ppm))), max(8, int(round(h * ppm)))
    img = paper_base(rng, H, W, colour or design.paper_colour, ppm, mottle)
    tooth = paper_tooth(rng, H, W, ppm, tooth_coarse)
    img *= (1.0 - 0.025 * (tooth - 0.5))[..., None]
    return Page(img, None, ppm, tooth)


def mm_poly(page: Page, pts) -> np.ndarray:
    return page.px(np.asarray(pts, np.float64))


def line_mm(mask, page: Page, p0, p1, width_mm: float, value: int = 255) -> None:
    S.draw(mask, [mm_poly(page, [p0, p1])], width_mm * page.ppm, value)


def dashed_mm(mask, page: Page, p0, p1, width_mm: float, dash: float, gap: float, phase: float = 0.0) -> None:
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    length = float(np.linalg.norm(p1 - p0))
    if length <= 0:
        return
    u = (p1 - p0) / length
    s = -phase
    polys = []
    while s < length:
        a, b = max(0.0, s), min(length, s + dash)
        if b > a:
            polys.append(mm_poly(page, [p0 + u * a, p0 + u * b]))
        s += dash + gap
    S.draw(mask, polys, width_mm * page.ppm)


def rect_mm(mask, page: Page, x, y, w, h, width_mm: float, filled: bool = False, value: int = 255) -> None:
    pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if filled:
        S.fill(mask, [mm_poly(page, pts)], value)
    else:
        S.draw(mask, [mm_poly(page, pts)], width_mm * page.ppm, value, closed=True)


def circle_mm(mask, page: Page, cx, cy, r, width_mm: float, filled: bool = False, value: int = 255) -> None:
    pts = S.arc(cx, cy, r, r, 0, 360, max(16, int(r * page.ppm)))
    if filled:
        S.fill(mask, [mm_poly(page, pts)], value)
    else:
        S.draw(mask, [mm_poly(page, pts)], width_mm * page.ppm, value, closed=True)


@lru_cache(maxsize=64)
def font(name: str, size_px: int) -> ImageFont.FreeTypeFont:
    for d in (FONT_DIR, SYSTEM_FONTS):
        p = d / name
        if p.is_file():
            return ImageFont.truetype(str(p), max(4, size_px))
    fallback = {"DejaVuSerif-Bold.ttf": "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf": "DejaVuSans.ttf",
                "DejaVuSans-Oblique.ttf": "DejaVuSans.ttf"}.get(name, "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONT_DIR / fallback), max(4, size_px))


class Text:
    """Printed text: one PIL layer for the page, drawn in mm."""

    def __init__(self, page: Page):
        h, w = page.image.shape[:2]
        self.page = page
        self.im = Image.new("L", (w, h), 0)
        self.d = ImageDraw.Draw(self.im)

    def put(self, x_mm: float, y_mm: float, text: str, size_mm: float, anchor: str = "la",
            face: str = "DejaVuSans.ttf") -> None:
        f = font(face, int(round(size_mm * self.page.ppm)))
        self.d.text((x_mm * self.page.ppm, y_mm * self.page.ppm), text, fill=255, font=f, anchor=anchor)

    def mask(self) -> np.ndarray:
        return np.asarray(self.im)


# --- printed icons (mountain, ruins, wasteland) in a cell -------------------------------------------------------

def mountain_icon(mask, page: Page, quad: np.ndarray, style: str, rng: np.random.Generator) -> np.ndarray | None:
    """Draw a printed mountain in the cell; returns a second mask for white details when the style needs one."""
    x0, y0 = quad[0]
    cw, ch = quad[1][0] - x0, quad[3][1] - y0
    P = lambda u, v: (x0 + u * cw, y0 + v * ch)  # noqa: E731
    if style == "triangle":
        S.fill(mask, [mm_poly(page, [P(0.15, 0.82), P(0.5, 0.18), P(0.85, 0.82)])])
    elif style == "peaks":
        S.fill(mask, [mm_poly(page, [P(0.08, 0.84), P(0.38, 0.28), P(0.55, 0.55), P(0.68, 0.2), P(0.94, 0.84)])])
    elif style == "square":
        S.fill(mask, [mm_poly(page, [P(0.1, 0.1), P(0.9, 0.1), P(0.9, 0.9), P(0.1, 0.9)])])
        white = np.zeros_like(mask)
        S.draw(white, [mm_poly(page, [P(0.22, 0.72), P(0.42, 0.3), P(0.55, 0.5), P(0.65, 0.36), P(0.8, 0.72)])],
               max(1.0, 0.05 * cw * page.ppm))
        return white
    elif style == "outline":
        S.draw(mask, [mm_poly(page, [P(0.12, 0.82), P(0.4, 0.22), P(0.58, 0.5), P(0.7, 0.32), P(0.9, 0.82),
                                     P(0.12, 0.82)])], max(1.0, 0.06 * cw * page.ppm))
        S.fill(mask, [mm_poly(page, [P(0.32, 0.4), P(0.4, 0.22), P(0.48, 0.4)])])
    else:  # glyph-like filled mountain with snow cap left white
        S.fill(mask, [mm_poly(page, [P(0.1, 0.8), P(0.5, 0.16), P(0.9, 0.8)])])
        white = np.zeros_like(mask)
        S.fill(white, [mm_poly(page, [P(0.39, 0.34), P(0.5, 0.16), P(0.61, 0.34), P(0.55, 0.31), P(0.5, 0.37),
                                      P(0.45, 0.31)])])
        return white
    return None


def ruins_icon(mask, page: Page, quad: np.ndarray, style: str) -> None:
    x0, y0 = quad[0]
    cw, ch = quad[1][0] - x0, quad[3][1] - y0
    P = lambda u, v: (x0 + u * cw, y0 + v * ch)  # noqa: E731
    lw = max(0.7, 0.035 * cw * page.ppm)
    if style == "temple":
        S.fill(mask, [mm_poly(page, [P(0.08, 0.22), P(0.22, 0.1), P(0.36, 0.22)])])
        for u in (0.11, 0.2, 0.29):
            S.fill(mask, [mm_poly(page, [P(u - 0.018, 0.24), P(u + 0.018, 0.24), P(u + 0.018, 0.36),
                                         P(u - 0.018, 0.36)])])
        S.fill(mask, [mm_poly(page, [P(0.07, 0.36), P(0.37, 0.36), P(0.37, 0.4), P(0.07, 0.4)])])
    elif style == "circle":
        circle_mm(mask, page, *P(0.2, 0.2), 0.09 * cw, lw / page.ppm)
        circle_mm(mask, page, *P(0.2, 0.2), 0.025 * cw, 0, filled=True)
    elif style == "dashed-square":
        for a, b in ((P(0.12, 0.12), P(0.88, 0.12)), (P(0.88, 0.12), P(0.88, 0.88)), (P(0.88, 0.88), P(0.12, 0.88)),
                     (P(0.12, 0.88), P(0.12, 0.12))):
            dashed_mm(mask, page, a, b, lw / page.ppm, 0.06 * cw, 0.04 * cw)
    else:  # a small printed R in the corner
        S.draw(mask, [page.px(np.asarray(p) * 0.2 * ch + np.array(P(0.08, 0.08)))
                      for p in S.glyph_strokes("R")[1]], lw)


def wasteland_fill(mask, page: Page, quad: np.ndarray, style: str, rng) -> None:
    x0, y0 = quad[0]
    cw, ch = quad[1][0] - x0, quad[3][1] - y0
    if style == "grey":
        rect_mm(mask, page, x0, y0, cw, ch, 0, filled=True, value=110)
    elif style == "hatch":
        polys = []
        for k in np.arange(-1.0, 1.0, 0.14):
            a = np.array([x0 + max(0, k) * cw, y0 + max(0, -k) * ch])
            b = np.array([x0 + min(1, 1 + k) * cw, y0 + min(1, 1 - k) * ch])
            polys.append(mm_poly(page, [a, b]))
        S.draw(mask, polys, max(1.0, 0.025 * cw * page.ppm), 200)
    else:  # dots
        for u in np.linspace(0.15, 0.85, 5):
            for v in np.linspace(0.15, 0.85, 5):
                circle_mm(mask, page, x0 + u * cw, y0 + v * ch, 0.03 * cw, 0, filled=True, value=200)


# --- kind: ours (Mapsmith's printed sheet, via the project's printing code) -----------------------------------

RASTER_PPM = 10.0
PT = 25.4 / 72.0
ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _sheet_id(side: str, paper: str, lang: str, idx: int) -> str:
    r = np.random.default_rng([ord(side[0]), len(paper), len(lang), idx, 3])
    return "".join(ID_ALPHABET[i] for i in r.integers(0, len(ID_ALPHABET), 12))


# pdfium is not thread-safe: bench.bench_vision2 makes photos on two threads at once, and two renders crashed
# the process (a general protection fault in libpdfium). One render at a time.
_PDFIUM = threading.Lock()


@lru_cache(maxsize=8)
def _ours_raster(side: str, paper: str, lang: str, idx: int) -> np.ndarray:
    with _PDFIUM:
        return _render_ours(side, paper, lang, idx)


def _render_ours(side: str, paper: str, lang: str, idx: int) -> np.ndarray:
    import pypdfium2 as pdfium

    from printables.mapsheet import map_sheet_pdf

    pdf = map_sheet_pdf(side, paper, lang, sheet_ids=[_sheet_id(side, paper, lang, idx)])
    doc = pdfium.PdfDocument(pdf)
    try:
        bmp = doc[0].render(scale=RASTER_PPM * PT, grayscale=True)
        arr = np.array(bmp.to_numpy())
    finally:
        doc.close()
    if arr.ndim == 3:
        arr = arr[..., 0]
    return arr


@lru_cache(maxsize=8)
def _ours_layout(side: str, paper: str) -> dict:
    from printables.layout import sheet_layout

    return sheet_layout(side, paper).to_dict()


def design_ours(side: str, rng: np.random.Generator, kind: str = "ours") -> Design:
    paper = pick(rng, ["a4", "letter"], [0.7, 0.3])
    lang = pick(rng, ["en", "tr"], [0.6, 0.4])
    idx = int(rng.integers(0, 4))
    lay = _ours_layout(side, paper)
    g = lay["grid"]
    lattice = regular_lattice(g["x_pt"] * PT, g["y_pt"] * PT, g["cell_pt"] * PT)
    markers = {}
    for m in lay["markers"]:
        x, y, s = m["x_pt"] * PT, m["y_pt"] * PT, m["size_pt"] * PT
        markers[m["corner"]] = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
    legend = []
    for lg in lay["legend"]:
        x, y, s = lg["x_pt"] * PT, lg["y_pt"] * PT, lg["cell_pt"] * PT
        legend.append((lg["terrain"], np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])))
    coins = [((c["x_pt"] + c["d_pt"] / 2) * PT, (c["y_pt"] + c["d_pt"] / 2) * PT, c["d_pt"] / 2 * PT)
             for c in lay["coins"]]
    boxes = [(b["x_pt"] * PT, b["y_pt"] * PT, b["w_pt"] * PT, b["h_pt"] * PT) for b in lay["score_boxes"]]
    t = lay["title"]
    name_line = ((t["x_pt"] + 115) * PT, (t["y_pt"] + 43) * PT, (t["x_pt"] + 235) * PT)
    white = uni(rng, 0.93, 0.985)
    paper_colour = (white * uni(rng, 0.985, 1.0), white, white * uni(rng, 0.975, 1.01))
    params = {"paper": paper, "lang": lang, "sheet_id": _sheet_id(side, paper, lang, idx), "sheet_id_index": idx,
              "toner_density": uni(rng, 0.82, 1.0), "toner_warmth": uni(rng, -0.03, 0.03),
              "paper_colour": paper_colour}
    return Design(kind, f"mapsmith-{paper}-{lang}", side, (lay["page_w_pt"] * PT, lay["page_h_pt"] * PT), lattice,
                  _paint_ours, markers, legend, coins, boxes, name_line, params, paper_colour)


def _paint_ours(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    p = d.params
    raster = _ours_raster(d.side, p["paper"], p["lang"], p["sheet_id_index"])
    page = blank(d, ppm, rng)
    H, W = page.image.shape[:2]
    grey = cv2.resize(raster, (W, H), interpolation=cv2.INTER_AREA if ppm < 0.7 * RASTER_PPM else cv2.INTER_LINEAR)
    a = (255 - grey.astype(np.float32)) * (p["toner_density"] / 255.0)
    tw = p["toner_warmth"]
    toner = np.array([0.06 + tw, 0.06, 0.07 - tw], np.float32)
    page.image *= 1.0 - a[..., None] * (1.0 - toner)
    return page


# --- kind: generic printed grids --------------------------------------------------------------------------------

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "square": (210.0, 225.0)}
GENERIC_TEMPLATES = ("plain", "labelled", "dashed", "scorebox", "compact")
TITLES = ("Cartographers", "CARTOGRAPHERS", "Map of the Realm", "Harita", "Kartograf", "Cartographers - Map Sheet",
          "The Queen's Survey", "Explorer's Map")


def design_generic(side: str, rng: np.random.Generator) -> Design:
    template = pick(rng, GENERIC_TEMPLATES)
    paper = "square" if template == "compact" and chance(rng, 0.6) else pick(rng, ["a4", "letter", "square"],
                                                                            [0.6, 0.3, 0.1])
    w, h = PAPERS[paper]
    if paper == "square":
        h = uni(rng, 200, 240)
    cream = chance(rng, 0.3)
    pc = (uni(rng, 0.95, 0.99), uni(rng, 0.92, 0.96), uni(rng, 0.8, 0.88)) if cream else \
        tuple(uni(rng, 0.93, 0.985) * np.array([uni(rng, 0.985, 1.0), 1.0, uni(rng, 0.98, 1.01)]))
    margin = uni(rng, 10, 18) if template != "compact" else uni(rng, 7, 12)
    cell_max = (w - 2 * margin - (8 if template in ("labelled", "scorebox") else 0)) / N
    cell = min(cell_max, uni(rng, 11.5, 17.5))
    header = 0.0 if template == "compact" and chance(rng, 0.7) else uni(rng, 22, 45)
    labels = template in ("labelled",) or (template in ("scorebox", "compact") and chance(rng, 0.5)) or \
        (template == "plain" and chance(rng, 0.2))
    top = margin + header + (7 if labels else 0)
    x0 = (w - N * cell) / 2 + uni(rng, -3, 3) + (3 if labels else 0)
    lattice = regular_lattice(x0, top, cell)
    under = top + N * cell
    coins, boxes = [], []
    y = under + uni(rng, 8, 14)
    coin_track = template == "dashed" or (template in ("scorebox", "labelled") and chance(rng, 0.35))
    if coin_track:
        r = min(cell * 0.3, uni(rng, 3.0, 4.5))
        step = min((N * cell) / 14, r * uni(rng, 2.3, 3.0))
        cx0 = x0 + (N * cell - 13 * step) / 2
        coins = [(cx0 + k * step, y + r, r) for k in range(14)]
        y += 2 * r + uni(rng, 6, 10)
    if template == "scorebox" or (template in ("plain", "dashed") and chance(rng, 0.3)):
        bw = N * cell / 17
        bh = min(uni(rng, 9, 14), h - y - 8)
        if bh > 5:
            for s in range(4):
                for k in range(3):
                    boxes.append((x0 + (s * 4 + k) * bw, y, bw, bh))
            boxes.append((x0 + 16 * bw, y, bw, bh))
    if (coins or boxes) and max([c[1] + c[2] for c in coins] + [b[1] + b[3] for b in boxes]) > h - 4:
        coins, boxes = [], []
    dark = uni(rng, 0.0, 0.15)
    line_colour = {
        "plain": (dark + 0.45,) * 3,
        "labelled": (dark,) * 3,
        "dashed": pick(rng, [(0.2, 0.35, 0.7), (0.2, 0.5, 0.3), (0.5, 0.32, 0.18), (0.45, 0.25, 0.55),
                             (0.35, 0.35, 0.35)]),
        "scorebox": (dark,) * 3,
        "compact": (0.55 + dark,) * 3,
    }[template]
    width = {"plain": uni(rng, 0.12, 0.3), "labelled": uni(rng, 0.25, 0.5), "dashed": uni(rng, 0.25, 0.45),
             "scorebox": uni(rng, 0.45, 0.9), "compact": uni(rng, 0.15, 0.3)}[template]
    params = {
        "paper": paper, "cream": cream, "paper_colour": pc, "cell_mm": cell, "line_colour": line_colour,
        "line_mm": width, "border_mm": width * uni(rng, 1.0, 3.5), "dashed": template == "dashed" or chance(rng, 0.1),
        "dash_mm": uni(rng, 1.0, 2.5), "gap_mm": uni(rng, 0.6, 1.5), "labels": labels,
        "labels_top": chance(rng, 0.6), "header_mm": header, "title": pick(rng, TITLES) if header else "",
        "name_line": header > 0 and chance(rng, 0.6),
        "mountain_style": pick(rng, ["triangle", "peaks", "square", "outline", "snowcap"]),
        "mountain_colour": pick(rng, [(0.15, 0.15, 0.15), (0.35, 0.25, 0.18), (0.4, 0.4, 0.42), line_colour]),
        "ruins_style": pick(rng, ["temple", "circle", "dashed-square", "letter"]),
        "wasteland_style": pick(rng, ["grey", "hatch", "dots"]), "coin_track": bool(coins),
        "score_boxes": bool(boxes), "serif": chance(rng, 0.35),
    }
    name_line = (x0 + 40, margin + header * 0.78, x0 + 110) if params["name_line"] else None
    return Design("generic", f"generic-{template}", side, (w, h), lattice, _paint_generic, coins=coins,
                  score_boxes=boxes, name_line=name_line, params=params, paper_colour=pc)


def _paint_generic(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    p = d.params
    page = blank(d, ppm, rng)
    L = d.lattice
    lines = layer(page)
    lw = p["line_mm"]
    for k in range(N + 1):
        for a, b in ((L[k, 0], L[k, N]), (L[0, k], L[N, k])):
            if 0 < k < N:
                if p["dashed"]:
                    dashed_mm(lines, page, a, b, lw, p["dash_mm"], p["gap_mm"], p["dash_mm"] / 2)
                else:
                    line_mm(lines, page, a, b, lw)
    S.draw(lines, [mm_poly(page, d.grid_corners())], p["border_mm"] * ppm, closed=True)
    face = "DejaVuSerif.ttf" if p["serif"] else "DejaVuSans.ttf"
    bold = "DejaVuSerif-Bold.ttf" if p["serif"] else "DejaVuSans-Bold.ttf"
    cell = p["cell_mm"]
    text = Text(page)
    if p["labels"]:
        for k in range(N):
            yc = (L[k, 0][1] + L[k + 1, 0][1]) / 2
            text.put(L[0, 0][0] - 2.5, yc, LATIN[k], cell * 0.28, "rm", face)
            xc = (L[0, k][0] + L[0, k + 1][0]) / 2
            if p["labels_top"]:
                text.put(xc, L[0, 0][1] - 2.0, str(k + 1), cell * 0.26, "ms", face)
            else:
                text.put(xc, L[N, 0][1] + 2.0, str(k + 1), cell * 0.26, "mt", face)
    if p["title"]:
        w = d.size_mm[0]
        top = d.lattice[0, 0][1] - p["header_mm"] - (7 if p["labels"] else 0)
        size = min(9.0, p["header_mm"] * 0.28, (L[0, N][0] - L[0, 0][0]) * 0.75 / (0.62 * len(p["title"])))
        centred = chance(rng, 0.5)
        text.put(w / 2 if centred else L[0, 0][0], top + p["header_mm"] * 0.35, p["title"], size,
                 "mm" if centred else "lm", bold)
        text.put(L[0, N][0], top + p["header_mm"] * 0.35, f"Side {d.side}" if chance(rng, 0.7) else d.side,
                 min(5.0, p["header_mm"] * 0.16), "rm", face)
    if d.name_line:
        x0, y, x1 = d.name_line
        text.put(x0 - 2, y, "Name:" if chance(rng, 0.6) else "Cartographer:", 3.5, "rs", face)
        line_mm(lines, page, (x0, y + 0.6), (x1, y + 0.6), 0.2)
    for cx, cy, r in d.coins:
        circle_mm(lines, page, cx, cy, r, max(0.2, lw * 0.8))
    if d.coins:
        text.put(d.coins[0][0] - d.coins[0][2] - 2.5, d.coins[0][1], "Coins", 3.2, "rm", face)
    for x, y, w, h in d.score_boxes:
        rect_mm(lines, page, x, y, w, h, max(0.25, lw * 0.8))
    ink(page, lines, p["line_colour"])
    tm = text.mask()
    ink(page, tm, (0.12, 0.12, 0.12))
    icons = layer(page)
    white = layer(page)
    for (r, c), t in d.printed.items():
        q = d.cell_quad(r, c)
        if t == "mountain":
            wm = mountain_icon(icons, page, q, p["mountain_style"], rng)
            if wm is not None:
                np.maximum(white, wm, out=white)
    ink(page, icons, p["mountain_colour"])
    ink(page, white, (0.97, 0.97, 0.95), cover=True)
    ruins = layer(page)
    for r, c in d.ruins:
        ruins_icon(ruins, page, d.cell_quad(r, c), p["ruins_style"])
    ink(page, ruins, (0.35, 0.35, 0.35))
    waste = layer(page)
    for (r, c), t in d.printed.items():
        if t == "wasteland":
            wasteland_fill(waste, page, d.cell_quad(r, c), p["wasteland_style"], rng)
    ink(page, waste, (0.45, 0.45, 0.47))
    return page


# --- player-drawn printed features (hand-ruled and squared sheets) ----------------------------------------------

def drawn_features(page: Page, d: Design, pen, rng: np.random.Generator) -> None:
    """Mountains, ruins and wastelands as the player drew them on a sheet they made themselves."""
    from . import pens

    p = d.params
    ppm = page.ppm
    m = layer(page)
    fillm = layer(page)
    wmm = pen.width_mm * ppm
    for (r, c), t in d.printed.items():
        q = d.cell_quad(r, c)
        B = _bilinear(q)
        if t == "mountain":
            s = uni(rng, 0.55, 0.85)
            off = rng.normal(0, 0.03, 2)
            pts = np.asarray([(-0.42, 0.35), (0, -0.4), (0.42, 0.35), (-0.42, 0.35)]) * s + off
            poly = S.wobble(rng, pts, 0.012, 0.3, 0.03)
            px = page.px(B(poly + 0.5))
            S.draw(m, [px], wmm)
            if p["mountain_drawn"] == "two-peaks":  # a second, smaller peak behind the first
                back = np.asarray([(0.2, -0.05), (0.38, -0.32), (0.56, 0.35)]) * s + off
                S.draw(m, [page.px(B(S.wobble(rng, back, 0.01, 0.3, 0.03) + 0.5))], wmm)
            elif p["mountain_drawn"] == "snowcap":
                cap = np.asarray([(-0.19, -0.06), (-0.07, 0.02), (0.0, -0.08), (0.07, 0.02), (0.19, -0.06)]) * s + off
                S.draw(m, [page.px(B(cap + 0.5))], wmm * 0.8)
            if p["mountain_fill"] == "solid":
                S.fill(fillm, [px], 200)
            elif p["mountain_fill"] == "hatch":
                hatch = []
                for k in np.linspace(-0.4, 0.4, 9):
                    hatch.append(page.px(B(np.array([[k * s - 0.05, 0.3 * s], [k * s + 0.1, -0.2 * s]]) + 0.5)))
                inner = layer(page)
                S.draw(inner, hatch, wmm * 0.8)
                poly_mask = layer(page)
                S.fill(poly_mask, [px])
                np.maximum(fillm, (inner.astype(np.uint16) * poly_mask // 255).astype(np.uint8), out=fillm)
        elif t == "wasteland":
            style = p["wasteland_drawn"]
            if style == "cross":
                S.draw(m, [page.px(B(np.array([[0.12, 0.12], [0.88, 0.88]]))),
                           page.px(B(np.array([[0.88, 0.12], [0.12, 0.88]])))], wmm)
            else:
                hatch = []
                step = float(np.clip(1.3 / max(d.mean_cell_mm(), 1e-6), 0.12, 0.3))  # lines about 1.3 mm apart
                for k in np.arange(-0.9, 1.0, step):
                    a = np.array([max(0, k), max(0, -k)]) * 0.92 + 0.04
                    b = np.array([min(1, 1 + k), min(1, 1 - k)]) * 0.92 + 0.04
                    hatch.append(page.px(B(S.wobble(rng, np.array([a, b]), 0.01, 0.3, 0.05))))
                    if style == "crosshatch":
                        hatch.append(page.px(B(np.array([[a[0], 1 - a[1]], [b[0], 1 - b[1]]]))))
                S.draw(m, hatch, wmm * 0.9)
    if p["ruins_drawn"] != "none":
        for r, c in d.ruins:
            B = _bilinear(d.cell_quad(r, c))
            if p["ruins_drawn"] == "R":
                h = 0.22
                polys = [np.asarray(s_) * h + np.array([0.08, 0.06]) for s_ in S.glyph_strokes("R")[1]]
            else:  # a little arch with two columns
                polys = [np.array([[0.08, 0.3], [0.08, 0.14]]), np.array([[0.26, 0.3], [0.26, 0.14]]),
                         np.array([[0.05, 0.14], [0.29, 0.14]]), np.array([[0.05, 0.3], [0.29, 0.3]])]
            S.draw(m, [page.px(B(S.wobble(rng, q_, 0.005, 0.1, 0.02))) for q_ in polys], wmm * 0.8)
    pens.apply(page, m, pen, rng)
    if fillm.any():
        pens.apply(page, fillm, pen, rng, pressure=min(1.0, pen.pressure + 0.1))


def _bilinear(quad: np.ndarray):
    """Unit square (u right, v down) to a cell's quad (TL, TR, BR, BL), for points shaped (..., 2)."""
    q = np.asarray(quad, np.float64)

    def f(uv):
        uv = np.asarray(uv, np.float64)
        u, v = uv[..., :1], uv[..., 1:2]
        return (1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]

    return f


def _drawn_feature_params(rng: np.random.Generator) -> dict:
    return {"mountain_drawn": pick(rng, ["triangle", "two-peaks", "snowcap"], [0.5, 0.25, 0.25]),
            "mountain_fill": pick(rng, ["none", "hatch", "solid"], [0.45, 0.35, 0.2]),
            "wasteland_drawn": pick(rng, ["hatch", "crosshatch", "cross"], [0.4, 0.4, 0.2]),
            "ruins_drawn": pick(rng, ["R", "arch", "none"], [0.4, 0.35, 0.25])}


def _hand_labels(page: Page, d: Design, pen, rng: np.random.Generator) -> None:
    from . import pens

    m = layer(page)
    L = d.lattice
    cell = d.mean_cell_mm()
    hgt = cell * uni(rng, 0.28, 0.42)
    slant = uni(rng, -0.1, 0.3)
    for k in range(N):
        yc = (L[k, 0][1] + L[k + 1, 0][1]) / 2
        x = L[k, 0][0] - hgt * 1.1 - uni(rng, 0.5, 2.0)
        S.draw(m, [page.px(p) for p in S.handwrite(rng, LATIN[k], x, yc + hgt / 2, hgt, slant, 0.03)],
               pen.width_mm * page.ppm)
        xc = (L[0, k][0] + L[0, k + 1][0]) / 2
        lab = str(k + 1)
        tw = S.text_width(lab, hgt, 0.1)
        S.draw(m, [page.px(p) for p in S.handwrite(rng, lab, xc - tw / 2, L[0, k][1] - uni(rng, 1.0, 2.5), hgt,
                                                      slant, 0.03, spacing=0.1)], pen.width_mm * page.ppm)
    pens.apply(page, m, pen, rng)


def _hand_title(page: Page, d: Design, pen, rng: np.random.Generator, y_mm: float) -> None:
    from . import pens

    text = pick(rng, ["CARTOGRAPHERS", f"MAP {d.side}", f"SIDE {d.side}", "HARITA", "KARTOGRAF"])
    hgt = min(uni(rng, 5, 9), 0.8 * d.mean_cell_mm())
    x = d.lattice[0, 0][0] + uni(rng, 0, 30)
    m = layer(page)
    S.draw(m, [page.px(p) for p in S.handwrite(rng, text, x, y_mm, hgt, uni(rng, -0.05, 0.3), 0.03,
                                               uni(rng, -3, 2))], pen.width_mm * page.ppm * 1.2)
    pens.apply(page, m, pen, rng)


# --- kind: hand-ruled on notebook paper -------------------------------------------------------------------------

NOTEBOOK = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a5": (148.0, 210.0)}


def _ruled_lattice(rng, x0, y0, widths, heights, rot_deg, slope_sd, bow_sd):
    X = x0 + np.concatenate([[0], np.cumsum(widths)])
    Y = y0 + np.concatenate([[0], np.cumsum(heights)])
    xc, yc = X.mean(), Y.mean()
    gw, gh = X[-1] - X[0], Y[-1] - Y[0]
    a = rng.normal(0, slope_sd, N + 1)
    b = rng.normal(0, bow_sd, N + 1)
    c = rng.normal(0, slope_sd, N + 1)
    e = rng.normal(0, bow_sd, N + 1)

    def fx(j, y):  # vertical line j: x as a function of y
        return X[j] + a[j] * (y - yc) + b[j] * np.sin(np.pi * np.clip((y - Y[0]) / gh, -0.2, 1.2))

    def fy(i, x):
        return Y[i] + c[i] * (x - xc) + e[i] * np.sin(np.pi * np.clip((x - X[0]) / gw, -0.2, 1.2))

    lat = np.zeros((N + 1, N + 1, 2))
    for i in range(N + 1):
        for j in range(N + 1):
            x, y = X[j], Y[i]
            for _ in range(6):
                y = fy(i, x)
                x = fx(j, y)
            lat[i, j] = (x, y)
    th = np.radians(rot_deg)
    rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    centre = np.array([xc, yc])

    def turn(p):
        return (np.asarray(p) - centre) @ rot.T + centre

    return turn(lat), fx, fy, X, Y, turn


def design_handruled(side: str, rng: np.random.Generator) -> Design:
    paper = pick(rng, list(NOTEBOOK), [0.45, 0.25, 0.3])
    w, h = NOTEBOOK[paper]
    spacing = uni(rng, 6.0, 8.7) if paper != "a5" else uni(rng, 5.5, 7.5)
    top_band = uni(rng, 18, 34)
    margin_line = chance(rng, 0.6)
    margin_x = uni(rng, 18, 32) if margin_line else 0.0
    holes = pick(rng, ["none", "two", "four", "spiral"], [0.55, 0.15, 0.12, 0.18])
    left = (margin_x if margin_line else uni(rng, 8, 20)) + uni(rng, 3, 14)
    avail_w = w - left - uni(rng, 6, 14)
    avail_h = h - top_band - uni(rng, 15, 40)
    aligned = chance(rng, 0.35)
    cell_w = min(avail_w / N / 1.06, uni(rng, 10.0, 16.5))
    if aligned:
        k = 2 if spacing * 1 < 9.5 else 1
        cell_h = min(spacing * k, avail_h / N / 1.06)
        aligned = cell_h == spacing * k
    else:
        cell_h = min(avail_h / N / 1.06, cell_w * uni(rng, 0.92, 1.08))
    var = uni(rng, 0.03, 0.1)
    widths = cell_w * (1 + rng.uniform(-var, var, N))
    heights = cell_h * (1 + (rng.uniform(-var, var, N) if not aligned else rng.uniform(-0.02, 0.02, N)))
    x0 = left
    y0 = top_band + (spacing * int(rng.integers(1, 3)) if aligned else uni(rng, 4, 20))
    y0 = min(y0, h - heights.sum() - 8)
    rot = uni(rng, -2.5, 2.5)
    lat, fx, fy, X, Y, turn = _ruled_lattice(rng, x0, y0, widths, heights, rot, uni(rng, 0.0, 0.012),
                                             uni(rng, 0.0, 0.7))
    pen_rng = np.random.default_rng(rng.integers(1 << 62))
    from .pens import line_pen

    pen = line_pen(pen_rng)
    params = {"paper": paper, "ruled_spacing_mm": spacing, "top_band_mm": top_band, "margin_line": margin_line,
              "margin_x_mm": margin_x, "holes": holes, "rows_on_ruling": aligned, "cell_w_mm": cell_w,
              "cell_h_mm": cell_h, "cell_size_variation": var, "rotation_deg": rot,
              "ruled_colour": (uni(rng, 0.5, 0.72), uni(rng, 0.68, 0.84), uni(rng, 0.86, 0.97)),
              "margin_colour": (uni(rng, 0.85, 0.95), uni(rng, 0.4, 0.6), uni(rng, 0.45, 0.65)),
              "paper_colour": (uni(rng, 0.93, 0.98),) * 2 + (uni(rng, 0.9, 0.97),),
              "ruling_pen": pen.as_dict(), "overshoot_mm": uni(rng, 0.0, 3.5), "tremor_mm": uni(rng, 0.05, 0.22),
              "strokes_per_line": int(rng.integers(1, 4)), "double_border": chance(rng, 0.3),
              "hand_labels": chance(rng, 0.45), "hand_title": chance(rng, 0.5), **_drawn_feature_params(rng)}
    return Design("handruled", f"notebook-{paper}", side, (w, h), lat, _paint_handruled, params=params,
                  paper_colour=params["paper_colour"],
                  extra={"fx": fx, "fy": fy, "X": X, "Y": Y, "turn": turn, "pen": pen})


def _paper_holes(page: Page, d: Design, rng) -> None:
    p = d.params
    H, W = page.shape
    alpha = np.ones((H, W), np.float32)
    w, h = d.size_mm
    if p["holes"] in ("two", "four"):
        n = 2 if p["holes"] == "two" else 4
        ys = [h / 2 - 40, h / 2 + 40] if n == 2 else [h / 2 - 120, h / 2 - 40, h / 2 + 40, h / 2 + 120]
        for y in ys:
            if 5 < y < h - 5:
                cv2.circle(alpha, tuple(int(v) for v in page.px([uni(rng, 10, 12.5), y])), int(3 * page.ppm), 0.0, -1,
                           cv2.LINE_AA)
    elif p["holes"] == "spiral":
        # torn out of a spiral notebook: a ragged left edge with the ends of the perforation
        ys = np.arange(0, H)
        edge = (uni(rng, 3, 6) + 1.2 * smooth_noise(rng, H, 1, 4 * page.ppm)[:, 0]) * page.ppm
        pitch = uni(rng, 6.0, 8.5) * page.ppm
        notch = np.abs(((ys / pitch) % 1.0) - 0.5) < 0.18
        edge = edge + notch * 2.0 * page.ppm
        xx = np.arange(W)[None, :]
        alpha = np.clip(xx - edge[:, None] + 0.5, 0, 1).astype(np.float32)
    page.alpha = alpha


def _rule_line(rng, pts, overshoot, tremor, pieces):
    """One hand-ruled line through `pts` (mm), extended by `overshoot` at both ends, drawn in `pieces` strokes."""
    pts = np.asarray(pts, np.float64)
    u0 = pts[0] - pts[1]
    u0 /= np.linalg.norm(u0) + 1e-9
    u1 = pts[-1] - pts[-2]
    u1 /= np.linalg.norm(u1) + 1e-9
    pts = np.vstack([pts[0] + u0 * uni(rng, -0.5, overshoot), pts, pts[-1] + u1 * uni(rng, -0.5, overshoot)])
    line = S.resample(pts, 1.0)
    cuts = sorted(rng.choice(np.arange(5, max(6, len(line) - 5)), size=min(pieces - 1, max(0, len(line) - 11)),
                         replace=False)) if pieces > 1 and len(line) > 12 else []
    out, start = [], 0
    for c in [*cuts, len(line)]:
        seg = line[max(0, start - int(rng.integers(0, 3))):c]
        if len(seg) >= 2:
            seg = S.wobble(rng, seg, tremor, uni(rng, 6, 18), 1.0)
            out.append(seg + rng.normal(0, tremor * 0.6, 2))
        start = c
    return out


def _paint_handruled(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    p = d.params
    page = blank(d, ppm, rng)
    w, h = d.size_mm
    ruled = layer(page)
    sp = p["ruled_spacing_mm"]
    y = p["top_band_mm"]
    while y < h - 5:
        line_mm(ruled, page, (0, y), (w, y), 0.18)
        y += sp
    ink(page, ruled, p["ruled_colour"], uni(rng, 0.55, 0.9))
    if p["margin_line"]:
        mm = layer(page)
        line_mm(mm, page, (p["margin_x_mm"], 0), (p["margin_x_mm"], h), 0.25)
        ink(page, mm, p["margin_colour"], uni(rng, 0.6, 0.9))
    _paper_holes(page, d, rng)
    ex = d.extra
    pen = ex["pen"]
    fx, fy, X, Y, turn = ex["fx"], ex["fy"], ex["X"], ex["Y"], ex["turn"]
    mask = layer(page)
    polys = []
    for k in range(N + 1):
        ys = np.linspace(Y[0], Y[-1], 23)
        xs = np.linspace(X[0], X[-1], 23)
        for pts in (np.stack([fx(k, ys), ys], 1), np.stack([xs, fy(k, xs)], 1)):
            polys += _rule_line(rng, turn(pts), p["overshoot_mm"], p["tremor_mm"], p["strokes_per_line"])
            if p["double_border"] and k in (0, N):
                polys += _rule_line(rng, turn(pts) + rng.normal(0, 0.3, 2), p["overshoot_mm"], p["tremor_mm"], 1)
    S.draw(mask, [page.px(q) for q in polys], pen.width_mm * ppm)
    from .pens import apply

    apply(page, mask, pen, rng)
    drawn_features(page, d, pen, rng)
    if p["hand_labels"]:
        _hand_labels(page, d, pen, rng)
    if p["hand_title"]:
        _hand_title(page, d, pen, rng, max(10.0, d.lattice[0, 0][1] - uni(rng, 8, 14)))
    return page


# --- kind: squared (graph) paper --------------------------------------------------------------------------------

def design_squared(side: str, rng: np.random.Generator) -> Design:
    paper = pick(rng, list(NOTEBOOK), [0.5, 0.2, 0.3])
    w, h = NOTEBOOK[paper]
    sq = 5.0
    k = 2 if (chance(rng, 0.7) and (2 * sq * N) < w - 12) else 1
    cell = sq * k
    ox, oy = uni(rng, 0, sq), uni(rng, 0, sq)
    border = pick(rng, [0.0, uni(rng, 5, 12)], [0.6, 0.4])
    nx_free = int((w - 2 * max(border, 6) - N * cell) // sq)
    ny_free = int((h - 2 * max(border, 6) - 20 - N * cell) // sq)
    ix = int(rng.integers(0, max(1, nx_free + 1)))
    iy = int(rng.integers(0, max(1, min(ny_free, 10) + 1)))
    start_x = ox + np.ceil((max(border, 6) - ox) / sq) * sq
    start_y = oy + np.ceil((max(border, 6) + 12 - oy) / sq) * sq
    x0, y0 = start_x + ix * sq, start_y + min(iy, max(0, ny_free)) * sq
    lattice = regular_lattice(x0, y0, cell)
    from .pens import line_pen

    pen = line_pen(np.random.default_rng(rng.integers(1 << 62)))
    pen.width_mm = min(pen.width_mm, 0.04 * cell)  # a fine pen for small squares
    colour = pick(rng, [(0.55, 0.7, 0.88), (0.65, 0.65, 0.65), (0.6, 0.78, 0.62), (0.7, 0.6, 0.8),
                        (0.5, 0.62, 0.8)])
    params = {"paper": paper, "square_mm": sq, "squares_per_cell": k, "cell_mm": cell, "offset_mm": (ox, oy),
              "blank_border_mm": border, "square_colour": colour, "square_line_mm": uni(rng, 0.08, 0.2),
              "square_opacity": uni(rng, 0.4, 0.85), "ruler": chance(rng, 0.4), "ruling_pen": pen.as_dict(),
              "overshoot_mm": uni(rng, 0.0, 2.5), "tremor_mm": uni(rng, 0.03, 0.15),
              "paper_colour": (uni(rng, 0.93, 0.985),) * 2 + (uni(rng, 0.91, 0.975),),
              "hand_labels": chance(rng, 0.35), "hand_title": chance(rng, 0.4), "holes": pick(
                  rng, ["none", "spiral", "two"], [0.7, 0.2, 0.1]), **_drawn_feature_params(rng)}
    return Design("squared", f"squared-{paper}-{k}sq", side, (w, h), lattice, _paint_squared, params=params,
                  paper_colour=params["paper_colour"], extra={"pen": pen})


def _rulings(start: float, length: float, border: float, step: float) -> list[float]:
    """Where squared paper's lines fall along one side: every `step` from `start`, none in the blank border."""
    out = []
    x = start
    while x < length:
        if border <= x <= length - border:
            out.append(x)
        x += step
    return out


def _paint_squared(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    p = d.params
    page = blank(d, ppm, rng)
    w, h = d.size_mm
    sq = p["square_mm"]
    ox, oy = p["offset_mm"]
    b = p["blank_border_mm"]
    m = layer(page)
    xs, ys = _rulings(ox, w, b, sq), _rulings(oy, h, b, sq)
    lw = p["square_line_mm"]
    for x in xs:
        line_mm(m, page, (x, ys[0] if b else 0), (x, ys[-1] if b else h), lw)
    for y in ys:
        line_mm(m, page, (xs[0] if b else 0, y), (xs[-1] if b else w, y), lw)
    ink(page, m, p["square_colour"], p["square_opacity"])
    _paper_holes(page, d, rng)
    pen = d.extra["pen"]
    L = d.lattice
    polys = []
    tremor = 0.02 if p["ruler"] else p["tremor_mm"]
    for k in range(N + 1):
        for pts in (L[k, :], L[:, k]):
            polys += _rule_line(rng, pts, p["overshoot_mm"], tremor, 1 if p["ruler"] else int(rng.integers(1, 3)))
    mask = layer(page)
    S.draw(mask, [page.px(q) for q in polys], pen.width_mm * ppm)
    from .pens import apply

    apply(page, mask, pen, rng)
    drawn_features(page, d, pen, rng)
    if p["hand_labels"]:
        _hand_labels(page, d, pen, rng)
    if p["hand_title"] and L[0, 0][1] > 18:
        _hand_title(page, d, pen, rng, L[0, 0][1] - uni(rng, 6, 10))
    return page


# --- kind: pad (a look-alike of the game's own pad, drawn here) -------------------------------------------------

def design_pad(side: str, rng: np.random.Generator) -> Design:
    w = uni(rng, 140, 160)
    h = w * uni(rng, 1.42, 1.46)
    grid_w = w * uni(rng, 0.82, 0.86)
    cell = grid_w / N
    x0 = (w - grid_w) / 2 + uni(rng, -1.0, 1.0)
    y0 = h * uni(rng, 0.175, 0.2)
    lattice = regular_lattice(x0, y0, cell)
    bottom = y0 + N * cell
    r = cell * uni(rng, 0.2, 0.24)
    cy = bottom + cell * uni(rng, 1.15, 1.45)
    step = grid_w * uni(rng, 0.06, 0.066)
    cx0 = x0 + grid_w - 13 * step - r * 1.6
    coins = [(cx0 + k * step, cy, r) for k in range(14)]
    sb_y = cy + r + cell * uni(rng, 0.9, 1.2)
    boxes = []
    gw = grid_w * 0.19
    for s in range(4):
        bx = x0 + s * (gw + grid_w * 0.035)
        boxes += [(bx, sb_y, gw / 2, cell * 0.8), (bx + gw / 2, sb_y, gw / 2, cell * 0.8)]
    labels = pick(rng, ["latin", "cyrillic"], [0.5, 0.5])
    grid_colour = (uni(rng, 0.78, 0.9), uni(rng, 0.5, 0.62), uni(rng, 0.22, 0.35))
    params = {
        "width_mm": w, "cell_mm": cell, "labels": labels,
        "parchment": (uni(rng, 0.9, 0.96), uni(rng, 0.84, 0.9), uni(rng, 0.7, 0.8)),
        "grid_colour": grid_colour, "grid_line_mm": uni(rng, 0.22, 0.4), "dash_mm": uni(rng, 1.2, 2.2),
        "gap_mm": uni(rng, 0.7, 1.3), "frame_colour": (uni(rng, 0.25, 0.4), uni(rng, 0.17, 0.26), uni(rng, 0.1, 0.18)),
        "mountain_colour": (uni(rng, 0.3, 0.4), uni(rng, 0.1, 0.16), uni(rng, 0.06, 0.12)),
        "ruins_colour": (0.92, 0.62, 0.28) if side == "A" else (0.55, 0.63, 0.74),
        "label_colour": grid_colour if labels == "cyrillic" else (0.45, 0.52, 0.62),
        "stains": int(rng.integers(1, 6)), "map_texture": uni(rng, 0.05, 0.16), "edge_burn": uni(rng, 0.1, 0.3),
        "title_lang": "ru" if labels == "cyrillic" else "en",
    }
    return Design("pad", f"pad-lookalike-{labels}", side, (w, h), lattice, _paint_pad, coins=coins,
                  score_boxes=boxes, name_line=(w * 0.06, h * 0.085, w * 0.32), params=params,
                  paper_colour=params["parchment"])


def _paint_pad(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    p = d.params
    page = blank(d, ppm, rng, mottle=0.045, tooth_coarse=1.3)
    H, W = page.shape
    w, h = d.size_mm
    img = page.image
    # parchment: blotches, stains, burnt edges, a faint old map printed underneath
    img *= (1.0 + 0.05 * fbm(rng, H, W, 25 * ppm, 3))[..., None]
    stains(rng, img, ppm, p["stains"], (0.8, 0.66, 0.45), 0.35)
    yy, xx = np.mgrid[0:H, 0:W]
    edge = np.minimum(np.minimum(xx, W - 1 - xx), np.minimum(yy, H - 1 - yy)).astype(np.float32) / ppm
    burn = p["edge_burn"] * np.exp(-edge / uni(rng, 3, 9)) * (1 + 0.4 * smooth_noise(rng, H, W, 12 * ppm))
    img *= (1.0 - np.clip(burn, 0, 0.6)[..., None] * np.array([0.35, 0.5, 0.75], np.float32))
    old = layer(page)
    for _ in range(int(rng.integers(6, 14))):
        pts = np.cumsum(rng.normal(0, 12, (8, 2)), 0) + rng.uniform([0, 0], [w, h])
        S.draw(old, [page.px(S.wobble(rng, pts, 1.5, 8, 1.0))], uni(rng, 0.2, 0.5) * ppm)
    for _ in range(int(rng.integers(3, 8))):
        cx, cy, r = uni(rng, 0, w), uni(rng, 0, h), uni(rng, 3, 8)
        S.draw(old, [page.px(np.array(S.arc(cx, cy, r, r * 0.6, 180, 360, 9)))], 0.3 * ppm)
    ink(page, old, (0.55, 0.4, 0.25), p["map_texture"], blur=0.6)

    L = d.lattice
    cell = p["cell_mm"]
    gx0, gy0 = L[0, 0]
    gx1, gy1 = L[N, N]
    # the grid: thin dashed lines
    g = layer(page)
    for k in range(1, N):
        dashed_mm(g, page, L[k, 0], L[k, N], p["grid_line_mm"], p["dash_mm"], p["gap_mm"], p["dash_mm"] * 0.3)
        dashed_mm(g, page, L[0, k], L[N, k], p["grid_line_mm"], p["dash_mm"], p["gap_mm"], p["dash_mm"] * 0.3)
    ink(page, g, p["grid_colour"], 0.9)
    # wastelands (side B): one grey irregular region
    waste = [rc for rc, t in d.printed.items() if t == "wasteland"]
    if waste:
        wm = np.zeros((H, W), np.float32)
        for r, c in waste:
            q = page.px(d.cell_quad(r, c))
            cv2.fillPoly(wm, [np.round(q).astype(np.int32)], 1.0)
        wm = cv2.GaussianBlur(wm, (0, 0), 0.08 * cell * ppm)
        near = wm > 0.03
        wm += 0.14 * fbm(rng, H, W, 0.3 * cell * ppm, 3)
        region = ((wm > 0.5) & near).astype(np.float32)
        region = cv2.GaussianBlur(region, (0, 0), 0.5)
        tex = 0.62 + 0.05 * fbm(rng, H, W, 2 * ppm, 3)
        grey = np.stack([tex, tex, tex * 1.02], -1)
        ink(page, region, grey, 0.95, cover=True)
        outline = cv2.morphologyEx((region > 0.5).astype(np.uint8) * 255, cv2.MORPH_GRADIENT,
                                   np.ones((max(2, int(0.4 * ppm)),) * 2, np.uint8))
        ink(page, outline, (0.35, 0.35, 0.36), 0.8)
    # frame: double line with a chequered band between
    band = cell * 0.22
    fr = layer(page)
    rect_mm(fr, page, gx0 - band, gy0 - band, gx1 - gx0 + 2 * band, gy1 - gy0 + 2 * band, 0.55)
    rect_mm(fr, page, gx0 - 0.05, gy0 - 0.05, gx1 - gx0 + 0.1, gy1 - gy0 + 0.1, 0.3)
    seg = cell / 2
    for k in range(0, 2 * N, 2):
        a = k * seg
        rect_mm(fr, page, gx0 + a, gy0 - band, seg, band * 0.45, 0, filled=True, value=170)
        rect_mm(fr, page, gx0 + a, gy1 + band * 0.55, seg, band * 0.45, 0, filled=True, value=170)
        rect_mm(fr, page, gx0 - band, gy0 + a, band * 0.45, seg, 0, filled=True, value=170)
        rect_mm(fr, page, gx1 + band * 0.55, gy0 + a, band * 0.45, seg, 0, filled=True, value=170)
    for cx, cy in ((gx0, gy0), (gx1, gy0), (gx1, gy1), (gx0, gy1)):
        rect_mm(fr, page, cx - band * 1.2, cy - band * 1.2, band * 2.4, band * 2.4, 0.4)
    ink(page, fr, p["frame_colour"], 0.92)
    # labels
    text = Text(page)
    letters = CYRILLIC if p["labels"] == "cyrillic" else LATIN
    for k in range(N):
        yc = (L[k, 0][1] + L[k + 1, 0][1]) / 2
        text.put(gx0 - band - 1.6, yc, letters[k], cell * 0.3, "rm", "DejaVuSerif-Bold.ttf")
        xc = (L[0, k][0] + L[0, k + 1][0]) / 2
        text.put(xc, gy1 + band + 1.2, str(k + 1), cell * 0.27, "mt", "DejaVuSerif-Bold.ttf")
    ink(page, text.mask(), p["label_colour"], 0.9)
    # printed mountains: dark-brown squares with a white peak and a little gold coin
    mnt = layer(page)
    white = layer(page)
    gold = layer(page)
    ring = layer(page)
    for (r, c), t in d.printed.items():
        if t != "mountain":
            continue
        q = d.cell_quad(r, c)
        x0, y0 = q[0]
        P = lambda u, v, x0=x0, y0=y0: (x0 + u * cell, y0 + v * cell)  # noqa: E731
        rect_mm(mnt, page, x0 + 0.06 * cell, y0 + 0.06 * cell, 0.88 * cell, 0.88 * cell, 0, filled=True)
        sk = [page.px(S.wobble(rng, np.array([P(uni(rng, 0.02, 0.1), v), P(uni(rng, 0.9, 0.98), v + 0.05)]),
                                0.05, 2, 0.3)) for v in np.linspace(0.06, 0.9, 9)]
        sketch = layer(page)
        S.draw(sketch, sk, 0.25 * ppm, 150)
        np.maximum(mnt, sketch, out=mnt)
        peak = [P(0.2, 0.62), P(0.42, 0.22), P(0.56, 0.45), P(0.66, 0.3), P(0.82, 0.62), P(0.2, 0.62)]
        S.draw(white, [mm_poly(page, peak)], 0.32 * ppm)
        S.draw(white, [mm_poly(page, [P(0.33, 0.42), P(0.42, 0.5), P(0.5, 0.42)])], 0.25 * ppm)
        circle_mm(gold, page, *P(0.5, 0.73), 0.14 * cell, 0, filled=True)
        circle_mm(ring, page, *P(0.5, 0.73), 0.14 * cell, 0.25)
    ink(page, mnt, p["mountain_colour"], 0.95)
    ink(page, white, (0.96, 0.94, 0.9), 0.95, cover=True)
    ink(page, gold, (0.9, 0.7, 0.22), 0.95, cover=True)
    ink(page, ring, (0.55, 0.35, 0.1), 0.9)
    # ruins: two little columns under a broken lintel
    ru = layer(page)
    for r, c in d.ruins:
        x0, y0 = d.cell_quad(r, c)[0]
        P = lambda u, v, x0=x0, y0=y0: (x0 + u * cell, y0 + v * cell)  # noqa: E731
        for u in (0.3, 0.55):
            S.fill(ru, [mm_poly(page, [P(u, 0.35), P(u + 0.1, 0.35), P(u + 0.1, 0.72), P(u, 0.72)])])
        S.fill(ru, [mm_poly(page, [P(0.24, 0.26), P(0.52, 0.28), P(0.5, 0.34), P(0.24, 0.34)])])
        S.fill(ru, [mm_poly(page, [P(0.55, 0.3), P(0.7, 0.27), P(0.71, 0.34), P(0.55, 0.34)])])
        S.fill(ru, [mm_poly(page, [P(0.2, 0.72), P(0.74, 0.72), P(0.74, 0.78), P(0.2, 0.78)])])
    ink(page, ru, p["ruins_colour"], 0.95)
    # coin track
    tr = layer(page)
    coin = layer(page)
    cr = layer(page)
    r0 = d.coins[0][2]
    xa, xb, yc = d.coins[0][0] - r0 * 1.5, d.coins[-1][0] + r0 * 1.5, d.coins[0][1]
    rect_mm(tr, page, xa, yc - r0 * 1.35, xb - xa, r0 * 2.7, 0.5)
    for cx, cy, r in d.coins:
        circle_mm(coin, page, cx, cy, r, 0, filled=True)
        circle_mm(cr, page, cx, cy, r, 0.3)
        circle_mm(cr, page, cx, cy, r * 0.6, 0.2)
    for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
        s = r0 * 0.8
        rect_mm(coin, page, xa - 4 * s + dx * s, yc - s / 2 + dy * s, s, s, 0, filled=True)
    ink(page, tr, (0.72, 0.52, 0.18), 0.9)
    ink(page, coin, (0.9, 0.72, 0.25), 0.9, cover=True)
    ink(page, cr, (0.55, 0.36, 0.1), 0.85)
    # season boxes, header, compass rose
    sb = layer(page)
    text = Text(page)
    names = ("AB", "BC", "CD", "DA") if p["labels"] == "latin" else ("АБ", "БВ", "ВГ", "ГА")
    for s in range(4):
        bx, by, bw, bh = d.score_boxes[2 * s]
        rect_mm(sb, page, bx, by, 2 * bw, bh, 0.4)
        line_mm(sb, page, (bx + bw, by), (bx + bw, by + bh), 0.3)
        line_mm(sb, page, (bx, by + bh / 2), (bx + 2 * bw, by + bh / 2), 0.3)
        text.put(bx + bw * 0.5, by + bh * 0.25, names[s][0], bh * 0.3, "mm", "DejaVuSerif-Bold.ttf")
        text.put(bx + bw * 1.5, by + bh * 0.25, names[s][1], bh * 0.3, "mm", "DejaVuSerif-Bold.ttf")
        if s < 3:
            text.put(bx + 2 * bw + cell * 0.2, by + bh / 2, "+", bh * 0.5, "mm", "DejaVuSerif-Bold.ttf")
        else:
            text.put(bx + 2 * bw + cell * 0.25, by + bh / 2, "=", bh * 0.5, "mm", "DejaVuSerif-Bold.ttf")
            sx, sy = bx + 2 * bw + cell * 0.7, by - bh * 0.1
            S.draw(sb, [mm_poly(page, [(sx, sy), (sx + cell, sy), (sx + cell, sy + bh * 0.7),
                                       (sx + cell / 2, sy + bh * 1.2), (sx, sy + bh * 0.7), (sx, sy)])], 0.4 * ppm)
    ink(page, sb, p["frame_colour"], 0.85)
    hdr = layer(page)
    lab = ("КАРТОГРАФ:", "ТИТУЛ:") if p["title_lang"] == "ru" else ("CARTOGRAPHER:", "TITLE:")
    for k, y in enumerate((h * 0.045, h * 0.11)):
        text.put(w * 0.06, y, lab[k], cell * 0.3, "ls", "DejaVuSerif-Bold.ttf")
        line_mm(hdr, page, (w * 0.06, y + cell * 0.55), (w * 0.32, y + cell * 0.55), 0.3)
    text.put(gx1, gy0 - band - 1.5, f"({d.side})", cell * 0.3, "rs", "DejaVuSerif-Bold.ttf")
    bx, by = w * 0.5, h * 0.06
    ribbon = [(bx - 22, by - 2), (bx - 10, by - 4), (bx + 10, by - 4), (bx + 22, by - 2), (bx + 20, by + 4),
              (bx + 8, by + 2.5), (bx - 8, by + 2.5), (bx - 20, by + 4), (bx - 22, by - 2)]
    S.draw(hdr, [mm_poly(page, ribbon)], 0.4 * ppm)
    title = "КАРТОГРАФЫ" if p["title_lang"] == "ru" else "CARTOGRAPHERS"
    text.put(bx, by, title, 2.6, "mm", "DejaVuSerif-Bold.ttf")
    shield = [(bx - 6, by + 8), (bx + 6, by + 8), (bx + 6, by + 15), (bx, by + 20), (bx - 6, by + 15), (bx - 6, by + 8)]
    S.draw(hdr, [mm_poly(page, shield)], 0.45 * ppm)
    S.draw(hdr, [mm_poly(page, [(bx - 13, by + 2), (bx + 9, by + 19)]),
                 mm_poly(page, [(bx + 13, by + 2), (bx - 9, by + 19)])], 0.5 * ppm)
    S.draw(hdr, [mm_poly(page, [(bx - 20, by + 14), (bx - 10, by + 13)]),
                 mm_poly(page, [(bx + 10, by + 13), (bx + 20, by + 14)])], 0.7 * ppm)
    crx, cry, crr = w * 0.86, h * 0.07, min(w * 0.1, 13.0)
    star = []
    for i in range(17):
        a = np.radians(-90 + i * 22.5)
        rr = crr if i % 4 == 0 else (crr * 0.6 if i % 2 == 0 else crr * 0.22)
        star.append((crx + rr * np.cos(a), cry + rr * np.sin(a)))
    S.draw(hdr, [mm_poly(page, star)], 0.3 * ppm)
    circle_mm(hdr, page, crx, cry, crr * 0.75, 0.25)
    S.fill(hdr, [mm_poly(page, [(crx, cry), star[0], star[1]]), mm_poly(page, [(crx, cry), star[4], star[5]]),
                 mm_poly(page, [(crx, cry), star[8], star[9]]), mm_poly(page, [(crx, cry), star[12], star[13]])], 200)
    ink(page, hdr, (0.45, 0.33, 0.2), 0.85)
    ink(page, text.mask(), (0.3, 0.22, 0.15), 0.9)
    return page


# --- kind: padscan (the real pad, scanned) ----------------------------------------------------------------------

def design_padscan(side: str, rng: np.random.Generator) -> Design:
    if not scans_available():
        raise ScansMissing(f"padscan needs the pad scans in {scan_dir()} (set MAPSMITH_PAD_SCANS); they are absent")
    g = SCAN_GEOMETRY[side]
    k = 1.0 / SCAN_PX_PER_MM
    sw, sh = g["size"]
    lattice = regular_lattice((g["x0"] + 0.5) * k, (g["y0"] + 0.5) * k, g["dx"] * k, g["dy"] * k)
    coins = [((g["coin_x0"] + i * g["coin_dx"] + 0.5) * k, (g["coin_y"] + 0.5) * k, g["coin_r"] * k)
             for i in range(14)]
    params = {"scan": SCAN_FILES[side], "scan_px_per_mm": SCAN_PX_PER_MM, "upscale_sharpen": uni(rng, 0.0, 0.5),
              "upscale_soften": uni(rng, 0.3, 0.8), "labels": g["labels"]}
    return Design("padscan", f"padscan-{side}", side, (sw * k, sh * k), lattice, _paint_padscan, coins=coins,
                  params=params, paper_colour=(0.92, 0.87, 0.76))


def _paint_padscan(d: Design, ppm: float, rng: np.random.Generator) -> Page:
    scan = _scan(d.side)
    w, h = d.size_mm
    W, H = max(8, int(round(w * ppm))), max(8, int(round(h * ppm)))
    f = ppm / SCAN_PX_PER_MM
    up = cv2.resize(scan, (W, H), interpolation=cv2.INTER_CUBIC if f > 1 else cv2.INTER_AREA)
    img = up.astype(np.float32) / 255.0
    if f > 1.2:
        soft = cv2.GaussianBlur(img, (0, 0), d.params["upscale_soften"] * f * 0.5)
        amt = d.params["upscale_sharpen"]
        img = soft + amt * (img - soft)
    img = np.clip(img, 0.0, 1.0)
    tooth = paper_tooth(rng, H, W, ppm, 1.2)
    img *= (1.0 - 0.03 * (tooth - 0.5))[..., None]
    img *= (1.0 + 0.015 * fbm(rng, H, W, 30 * ppm, 3))[..., None]
    return Page(img, None, ppm, tooth)


DESIGNERS = {
    "ours": design_ours,
    "ours-clipped": lambda side, rng: design_ours(side, rng, "ours-clipped"),
    "generic": design_generic,
    "handruled": design_handruled,
    "squared": design_squared,
    "pad": design_pad,
    "padscan": design_padscan,
}


def design(kind: str, side: str, rng: np.random.Generator) -> Design:
    return DESIGNERS[kind](side, rng)
