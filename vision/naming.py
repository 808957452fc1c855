"""Classification stage 3: name each group of like cells with a terrain, and say how sure the name is.

Evidence, strongest first:
1. **a name the player gave** (one tap on the review screen, `mapsmith read --name 3=forest`) — certain;
2. **the legend** of our own sheet, when its squares are drawn in — the group is named after the legend
   square it resembles most;
3. **priors**: the hue family of a coloured group (green → forest, red or brown → village, yellow or
   orange → farm, blue → water, purple or black → monster) and, for the dark strokes of a symbol, the
   small learned symbol model (`vision.symbols`).

The result per group is a probability over the five drawable terrains; its maximum is the raw name
confidence that `vision.calibrate` turns into a probability of being right.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.cartographers.terrain import DRAWABLE as TERRAIN_DRAWABLE
from vision.features import EVEN_TEXTURE, FIELDS, HUE_BINS, CellArrays
from vision.groups import Group, distances

DRAWABLE: tuple[str, ...] = tuple(t.value for t in TERRAIN_DRAWABLE)

# Hue families in Lab hue angle (degrees), lightness and chroma: (terrain, centre°, width°, L range, weight).
HUE_FAMILIES: tuple[tuple[str, float, float, tuple[float, float], float], ...] = (
    ("forest", 150.0, 40.0, (20, 90), 1.0),  # green
    ("forest", 115.0, 20.0, (20, 75), 0.5),  # olive / yellow-green
    ("village", 30.0, 22.0, (20, 70), 1.0),  # red
    ("village", 55.0, 20.0, (15, 58), 0.8),  # brown (dark orange)
    ("farm", 90.0, 18.0, (60, 100), 1.0),  # yellow
    ("farm", 68.0, 15.0, (55, 100), 0.8),  # orange
    ("water", 265.0, 35.0, (20, 95), 1.0),  # blue
    ("water", 225.0, 25.0, (30, 95), 0.6),  # cyan / teal
    ("monster", 320.0, 30.0, (10, 80), 1.0),  # purple / magenta
)
COLOUR_SHARPNESS = 4.0  # how decisive a clear hue is (log-odds per unit of family fit)
PALETTE_WEIGHT = 1.5  # how much the palette reader's votes count against the hue families
LEGEND_TEMPERATURE = 0.06  # distance units per e-fold of legend evidence
SYMBOL_COVERAGE = 0.3  # a symbol's lines cover less of a cell than hatching or a fill
MONO_SHARE, MONO_SPREAD = 0.85, 25.0  # one pen colour on most cells within this hue spread: a symbol sheet
MONO_THIN_SHARE = 0.25  # … drawn in thin lines on at least this share of the cells (some may be shaded over)
PALE_LIGHT = 80.0  # hatching whose strong ink is lighter than this is mostly paper: its lightness is no cue
BLACK_L = 45.0  # neutral ink darker than this and covering the cell is a black marker/crayon fill
GREY_FARM_CONFIDENCE = 0.55  # the most a mostly grey group named "farm" keeps (`grey_farm_doubt`)


@dataclass
class Naming:
    probs: np.ndarray  # (n_groups, 5) probability per drawable terrain
    source: list[str]  # per group: "given", "legend", "colour", "symbol", "none"

    def name(self, k: int) -> str:
        return DRAWABLE[int(np.argmax(self.probs[k]))]

    def confidence(self, k: int) -> float:
        return float(np.max(self.probs[k]))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def hue_angle(hist: np.ndarray) -> tuple[float, float]:
    """(dominant hue angle in degrees, share of the ink in that colour) of a mean hue histogram."""
    h = hist[:HUE_BINS]
    total = float(hist.sum())
    if total <= 0 or h.sum() <= 0:
        return 0.0, 0.0
    k = int(np.argmax(h))
    idx = [(k - 1) % HUE_BINS, k, (k + 1) % HUE_BINS]
    w = h[idx]
    ang = np.array([k - 1, k, k + 1], float) * (360.0 / HUE_BINS)  # bin k is centred on k·30° (soft binning)
    mean = float(np.degrees(np.arctan2((w * np.sin(np.radians(ang))).sum(), (w * np.cos(np.radians(ang))).sum())))
    return mean % 360.0, float(w.sum() / total)


def colour_logits(hue_deg: float, light: float | None) -> np.ndarray:
    """Log-evidence per terrain of a coloured group from its hue angle and lightness.

    `light` None: the lightness says nothing of the pencil (pale hatching is mostly paper: a brown pencil
    pressed lightly is as light as a yellow one), so the hue alone decides.
    """
    out = np.full(len(DRAWABLE), -3.0)
    for terrain, centre, width, (lo, hi), weight in HUE_FAMILIES:
        d = (hue_deg - centre + 180.0) % 360.0 - 180.0
        fit = weight * np.exp(-0.5 * (d / width) ** 2)
        if light is None:
            pass
        elif light < lo:
            fit *= np.exp(-(lo - light) / 10.0)
        elif light > hi:
            fit *= np.exp(-(light - hi) / 10.0)
        i = DRAWABLE.index(terrain)
        out[i] = max(out[i], COLOUR_SHARPNESS * fit - 3.0 * (1 - fit))
    return out


def group_summary(a: CellArrays, g: Group) -> dict:
    rows = g.rows
    hist = a.hue[rows].mean(axis=0)
    hue, share = hue_angle(hist)
    return {
        "hue": hue,
        "hue_share": share,
        "neutral": float(hist[HUE_BINS] / max(hist.sum(), 1e-6)),
        "light": float(np.median(a.light[rows])),
        "coverage": float(np.median(a.coverage[rows])),
        "stroke": float(np.median(a.stroke[rows])),
        # pale hatching: coloured ink spread thinly over the cell (vision.groups' texture, lighter than a pen)
        "pale": bool(np.median(a.evenness[rows]) >= EVEN_TEXTURE and np.median(a.light[rows]) >= PALE_LIGHT),
    }


def sheet_media(a: CellArrays, groups: list[Group]) -> tuple[list[dict], bool, bool]:
    """(each group's summary, whether the sheet is coloured in, whether one coloured pen drew thin symbols)."""
    summaries = [group_summary(a, g) for g in groups]
    coloured = [s["neutral"] < 0.5 and s["hue_share"] > 0.25 for s in summaries]
    n_cells = sum(len(g.rows) for g in groups)
    # On a sheet coloured in with pencils, grey/black ink is the black pencil: a monster (players with a
    # purple pencil use it; the others take black), whatever its hatching looks like.
    colour_sheet = n_cells > 0 and sum(len(g.rows) for g, c in zip(groups, coloured, strict=True) if c) > 0.5 * n_cells
    return summaries, colour_sheet, _one_pen(groups, summaries, coloured)


def medium(s: dict, colour_sheet: bool) -> str:
    """How a group (`group_summary`) is drawn: "hue" (coloured ink), "black" (a solid black fill), "hatching"
    (grey or black hatching on a coloured-in sheet) — all named by their colour — or "symbol" (strokes, named by
    their shape)."""
    if s["neutral"] < 0.5 and s["hue_share"] > 0.25:
        return "hue"
    if s["light"] < BLACK_L and s["coverage"] > 0.5:
        return "black"
    if colour_sheet and (s["coverage"] >= SYMBOL_COVERAGE or s["pale"]):
        return "hatching"
    return "symbol"


def name_groups(a: CellArrays, groups: list[Group], *, legend: CellArrays | None = None,
                legend_names: list[str] | None = None, symbol_probs: np.ndarray | None = None,
                given: dict[int, str] | None = None, palette_votes: np.ndarray | None = None,
                ink_symbol_probs: np.ndarray | None = None) -> Naming:
    """Probability over terrains for each group.

    `legend` / `legend_names`: the drawn legend squares measured like cells (only when usable).
    `symbol_probs`: (len(a.cells), 5) per-cell probabilities from the symbol model, or None.
    `given`: group id → terrain named by the player.
    `palette_votes`: (len(a.cells), 5) per-cell votes of the palette reader (`vision.classify` without a
    legend), which knows typical pencil colours better than hue families alone.
    `ink_symbol_probs`: the symbol model on all the ink (for symbols drawn with one coloured pen).
    """
    given = given or {}
    n = len(groups)
    probs = np.zeros((n, len(DRAWABLE)))
    source: list[str] = []
    d_leg = None
    if legend is not None and legend_names and len(legend.cells):
        both = _concat(a, legend)
        d_all = distances(both)
        d_leg = d_all[: len(a.cells), len(a.cells):]
    summaries, colour_sheet, mono = sheet_media(a, groups)
    shape_probs = symbol_probs
    if mono and ink_symbol_probs is not None:
        shape_probs = ink_symbol_probs  # the strokes are coloured: the symbol is in the ink, not in the grey
    for k, g in enumerate(groups):
        if g.id in given and given[g.id] in DRAWABLE:
            probs[k, DRAWABLE.index(given[g.id])] = 1.0
            source.append("given")
            continue
        s = summaries[k]
        if d_leg is not None:
            dist = d_leg[g.rows].mean(axis=0)
            logits = np.full(len(DRAWABLE), -9.0)
            for j, t in enumerate(legend_names):
                logits[DRAWABLE.index(t)] = max(logits[DRAWABLE.index(t)], -dist[j] / LEGEND_TEMPERATURE)
            probs[k] = _softmax(logits)
            source.append("legend")
            continue
        kind = medium(s, colour_sheet)
        if mono and shape_probs is not None:
            probs[k] = _softmax(_pooled_log(shape_probs[g.rows]))
            source.append("symbol")
        elif kind == "hue":
            logits = colour_logits(s["hue"], None if s["pale"] else s["light"])
            if palette_votes is not None:
                v = palette_votes[g.rows].sum(axis=0)
                logits = 0.5 * logits + PALETTE_WEIGHT * np.log((v + 0.1) / (v.sum() + 0.5))
            if symbol_probs is not None and s["stroke"] > 0.03:  # a symbol drawn over the colour helps too
                logits = logits + 0.5 * _pooled_log(symbol_probs[g.rows])
            probs[k] = _softmax(logits)
            source.append("colour")
        elif kind == "black":  # solid black: a monster in black marker
            logits = np.full(len(DRAWABLE), -2.0)
            logits[DRAWABLE.index("monster")] = 1.0
            probs[k] = _softmax(logits)
            source.append("colour")
        elif kind == "hatching":  # black pencil hatching among colours (pressed firmly or lightly): a monster
            logits = np.zeros(len(DRAWABLE))
            if symbol_probs is not None:
                logits += 0.4 * _pooled_log(symbol_probs[g.rows])
            if palette_votes is not None:
                v = palette_votes[g.rows].sum(axis=0)
                logits += PALETTE_WEIGHT * np.log((v + 0.1) / (v.sum() + 0.5))
            if s["hue_share"] > 0.2:  # a dark colour (deep purple) still has its hue
                logits += 0.5 * colour_logits(s["hue"], s["light"])
            logits[DRAWABLE.index("monster")] += 1.5
            probs[k] = grey_farm_doubt(_softmax(logits))
            source.append("colour")
        elif symbol_probs is not None:
            probs[k] = _softmax(_pooled_log(symbol_probs[g.rows]))
            source.append("symbol")
        else:
            probs[k] = np.full(len(DRAWABLE), 1 / len(DRAWABLE))
            source.append("none")
    return Naming(probs, source)


def grey_farm_doubt(p: np.ndarray) -> np.ndarray:
    """A group whose ink is mostly grey named "farm" is doubted: its name confidence is at most GREY_FARM_CONFIDENCE.

    Yellow and orange pens are vivid; a greyed yellowish ink is a khaki or brown (a village's) or a black pencil
    over a warm paper, and the palette reader's "farm" for it was wrong on most such cells of the dev photos
    (photogen2 dev seeds 100-103: 3 of 26 cells right). The name stays; the review asks about the group.
    """
    t = DRAWABLE.index("farm")
    if int(np.argmax(p)) != t or p[t] <= GREY_FARM_CONFIDENCE:
        return p
    rest = np.delete(p, t)
    out = np.empty_like(p)
    out[t] = GREY_FARM_CONFIDENCE
    out[np.arange(len(p)) != t] = (1 - GREY_FARM_CONFIDENCE) * (rest / rest.sum() if rest.sum() > 0 else 1 / len(rest))
    return out


def _one_pen(groups: list[Group], summaries: list[dict], coloured: list[bool]) -> bool:
    """True when one coloured pen drew nearly every cell as thin symbols (blue ballpoint): colour says nothing.

    Counted in cells, not groups: a few cells of another colour (a pad's printed ruins, a smudge of pencil)
    do not make a one-pen sheet a colour sheet.
    """
    n = sum(len(g.rows) for g in groups)
    col = [(g, s) for g, s, c in zip(groups, summaries, coloured, strict=True) if c]
    if n < 10 or len(col) < 2:
        return False
    hues = np.radians([s["hue"] for _, s in col])
    w = np.array([len(g.rows) for g, _ in col], float)
    mean = np.arctan2((w * np.sin(hues)).sum(), (w * np.cos(hues)).sum())
    near = np.degrees(np.abs((hues - mean + np.pi) % (2 * np.pi) - np.pi)) < MONO_SPREAD
    if w[near].sum() < MONO_SHARE * n:
        return False
    # the symbols' groups are thin (a few big groups of cells also shaded in the same pen do not undo that) …
    thin = np.median([s["coverage"] for (_, s), k in zip(col, near, strict=True) if k]) < SYMBOL_COVERAGE
    # … or, with a bold ballpoint whose symbols cover about a third of a cell and some cells shaded over, a good
    # share of the cells are thin lines (dots, a face): one pen drew symbols, whatever else it shaded
    thin_cells = sum(len(g.rows) for (g, s), k in zip(col, near, strict=True) if k and s["coverage"] < SYMBOL_COVERAGE)
    return bool(thin or thin_cells >= MONO_THIN_SHARE * n)


def _pooled_log(p: np.ndarray) -> np.ndarray:
    """Group evidence from members' probabilities: mean log-probability, sharpened by √n but bounded."""
    lp = np.log(np.clip(p, 1e-4, 1)).mean(axis=0)
    return lp * min(np.sqrt(len(p)), 3.0)


def _concat(a: CellArrays, b: CellArrays) -> CellArrays:
    return CellArrays(a.cells + b.cells, *(np.concatenate([getattr(a, f), getattr(b, f)]) for f in FIELDS))
