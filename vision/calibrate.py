"""Classification stage 4: turn what the stages know about a cell into the probability that it is read right.

The stages' own scores (filled or not, which group, the group's name) multiply certainties that are not
probabilities: a shape margin of 0.3 may be right 99 % of the time on one hand and 40 % on a sheet whose grid
was found on squared paper. So the confidence is a **logistic model** over

* per-cell evidence (`CELL_FEATURES`): the raw score, the fill probability of the feature stage, the group's
  naming confidence, how surely the cell belongs to its group, the group's size, which cue named it, whether a
  second reader (the palette reader, the symbol model) agrees, glare on the cell's outline, ruins; and
* per-sheet sanity (`SHEET_FEATURES`): one class taking nearly every cell, a legend that disagrees with the
  map, glare, few confident cells, many small groups, a sheet found without markers, a grid fit that could not
  be measured, an orientation that could not be told, blur, the reading path and style, how often the colour
  and symbol cues disagree on the sheet.

One model per reading path (`legend`: our sheet with its legend drawn in; `learned`: groups named from priors,
the symbol model and taps) and per kind of answer (a cell read as drawn on, or as empty). The coefficients
(`vision/data/calibration.json`, a few kB) are fitted offline by `scripts/calibrate.py` with scikit-learn on
development seeds of two independent photo generators; here they are evaluated with NumPy only. Without a model
file the older monotone map of the raw score (`calibrated`) is used. Cells named by the player keep their own
score: their group's name is certain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

TABLE_PATH = Path(__file__).with_name("data") / "calibration.json"
DOUBT = 0.7  # vision.reading.CONFIDENCE_THRESHOLD (not imported: reading imports this module's users)
TOP_RAW = 0.999  # raw scores at least this form the top bin of the isotonic fit
MIN_BIN = 5  # fewer cells than this in a bin say nothing
DOMINANT_SHARE = 0.85  # one terrain on more than this share of ≥ 20 filled cells is suspicious
DOMINANT_CAP = 0.6
LOGIT_CLIP = 6.0  # |logit| of a probability feature is capped here (1 − 0.0025)
NO_PROMOTE_BELOW = 0.5  # a cell the stages scored below this is never lifted out of review (see `guard`)
RELIABILITY_EDGES = (0.0, 0.3, 0.5, 0.7, 0.9, 0.97, 1.0001)

# Per-cell evidence, in this order (cells.read_cells fills them; 0 where a feature does not apply).
CELL_FEATURES: tuple[str, ...] = (
    "raw_logit",  # logit of the stages' own score
    "fill_logit",  # logit of the feature stage's P(drawn on), independent of the palette reader
    "group_logit",  # logit of the group's naming confidence (drawn cells)
    "cohesion",  # 0..1 how surely the cell belongs to its group
    "group_log_size",  # log(1 + members)
    "singleton",  # the cell is a group of its own
    "src_legend", "src_colour", "src_symbol", "src_none",  # which cue named the group
    "agree",  # a second reader gives the same terrain (palette reader, or the group's majority on the legend path)
    "sym_has",  # the cell has dark strokes the symbol model can read
    "sym_p",  # the symbol model's probability for the cell's terrain (when it has strokes)
    "sym_top",  # the symbol model's own best probability (how sure it is of anything)
    "ruins",  # a ruins cell (its glyph hides part of a drawing)
    "glare",  # 1 − outline ratio, 0..1 (the cell's printed outline faded under a highlight)
    "log_mass",  # log of the cell's mean ink
    "capped",  # a sheet-level rule (dominant class, torn legend group, foreign ruins) capped the raw score
)
SHEET_FEATURES: tuple[str, ...] = (
    "dominant_share",  # share of the drawn cells in the commonest terrain
    "filled_share",  # drawn cells / drawable cells
    "groups_per_cell",  # groups / drawn cells (a fragmented sheet is not understood)
    "singleton_share",  # drawn cells that are a group of their own
    "sure_share",  # drawn cells with a raw score ≥ 0.7 (few confident cells: the reader is lost)
    "mean_raw",  # mean raw score of the drawn cells
    "torn_share",  # drawn cells in groups the legend splits (a legend that disagrees with the map)
    "glare_share",  # cells washed out by glare
    "style_symbols", "style_mixed",
    "sym_disagree",  # drawn cells with strokes where the symbol model's best terrain is not the reading
    "pal_disagree",  # drawn cells where the palette reader reads another terrain (or empty)
    "legend_squares",  # drawn-in legend squares / 5 (0 when not our sheet)
    "no_markers",  # the sheet was found by its grid, not its corner markers
    "lattice",  # … by the lattice of its lines (hand-ruled, squared paper, pads)
    "markers_missing",  # corner markers not seen (of 4), when found by markers
    "orientation_unsure",
    "grid_unmeasured",  # the grid's border could not be measured (cells placed from the page geometry alone)
    "blur_cells",  # edge blur in cells
    "residual",  # marker fit residual (px, log)
)


@dataclass
class Evidence:
    """What the calibrator sees of one sheet: `cells` (11, 11, len(CELL_FEATURES)) and `sheet` (SHEET_FEATURES).

    `use` is True for the cells the calibrator speaks for (drawable, not named by the player); `filled` says
    which of them were read as drawn on; `cap` (11×11) is the most a cell may keep whatever the model says
    (glare: a washed-out cell stays on the review screen).
    """

    cells: np.ndarray
    sheet: np.ndarray
    use: np.ndarray
    filled: np.ndarray
    path: str
    cap: np.ndarray | None = None

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(n, F) design rows of the used cells (cell features then the sheet's), and their (n,) filled flags."""
        m = self.use
        x = self.cells[m]
        s = np.broadcast_to(self.sheet, (len(x), len(self.sheet)))
        return np.concatenate([x, s], axis=1).astype(np.float64), self.filled[m]


def logit(p, clip: float = LOGIT_CLIP) -> np.ndarray:
    p = np.clip(np.asarray(p, float), 1e-6, 1 - 1e-6)
    return np.clip(np.log(p / (1 - p)), -clip, clip)


def model_key(path: str, filled: bool) -> str:
    return f"{path}/{'filled' if filled else 'empty'}"


@lru_cache(maxsize=4)
def _load(path: str = str(TABLE_PATH)) -> dict:
    p = Path(path)
    if not p.exists():
        return {}
    return json.loads(p.read_text())


def _tables(path: str = str(TABLE_PATH)) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    raw = _load(path)
    return {k: (np.asarray(v["x"], float), np.asarray(v["y"], float)) for k, v in raw.get("maps", {}).items()}


def _models(path: str = str(TABLE_PATH)) -> dict[str, dict]:
    raw = _load(path)
    names = list(raw.get("features", []))
    if names != [*CELL_FEATURES, *SHEET_FEATURES]:  # fitted on other features: not usable
        return {}
    return raw.get("models", {})


def models() -> dict[str, dict]:
    """The shipped models ({} when none fits today's features)."""
    return _models()


def predict(model: dict, X: np.ndarray) -> np.ndarray:
    """P(right) of design rows `X` under one fitted model {mean, scale, coef, intercept}."""
    X = np.asarray(X, float)
    z = ((X - np.asarray(model["mean"])) / np.asarray(model["scale"])) @ np.asarray(model["coef"]) + model["intercept"]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def sheet_probability(ev: Evidence, models: dict) -> float:
    """P(the sheet as a whole is understood): found the right way up, the right side, its classes mostly right."""
    m = models.get("sheet")
    return 1.0 if m is None else float(predict(m, ev.sheet[None, :])[0])


def probability(ev: Evidence, models: dict | None = None) -> np.ndarray | None:
    """11×11 P(right) for the used cells of `ev` (NaN elsewhere), or None when no model fits the path.

    P(right) = P(sheet understood) · P(right | understood) + P(not understood) · chance: a sheet read the wrong
    way up (or as the wrong side) has confident, coherent cells that are wrong together, which no cell's own
    evidence shows; only the sheet's signals (how it was found, what it looks like as a whole) do.
    """
    models = _models() if models is None else models
    out = np.full(ev.use.shape, np.nan)
    X, filled = ev.rows()
    if not len(X):
        return out
    p = np.full(len(X), np.nan)
    for is_filled in (True, False):
        m = models.get(model_key(ev.path, is_filled))
        sel = filled == is_filled
        if not sel.any():
            continue
        if m is None:
            return None
        p[sel] = predict(m, X[sel])
    ps = sheet_probability(ev, models)
    chance = float(models.get("sheet", {}).get("chance", 0.0))
    out[ev.use] = guard(ps * p + (1 - ps) * chance, X[:, CELL_FEATURES.index("raw_logit")])
    return out


def guard(p: np.ndarray, raw_logit: np.ndarray) -> np.ndarray:
    """Keep cells the stages themselves doubted (raw score < NO_PROMOTE_BELOW) on the review screen.

    The few such cells the models lift above 0.7 were right only about half the time on the check range (the
    sheet's signals outvote the cell's own), so a single linear model cannot be trusted there.
    """
    raw_logit = np.asarray(raw_logit, float)
    return np.where(raw_logit < logit(NO_PROMOTE_BELOW), np.minimum(p, DOUBT - 0.01), p)


def calibrated(raw: np.ndarray, path: str) -> np.ndarray:
    """Raw scores (any shape, 0..1) → probabilities via the fitted monotone map for `path` (the fallback)."""
    t = _tables().get(path)
    if t is None:
        return np.asarray(raw, float)
    x, y = t
    r = np.asarray(raw, float)
    out = np.interp(r, x, y)
    return np.where(r < DOUBT, np.minimum(out, DOUBT - 0.01), out)


def fit_logistic(X: np.ndarray, right: np.ndarray, C: float = 0.5) -> dict:
    """Fit one model (scikit-learn, offline only). Standardises the features; constant ones get weight 0."""
    from sklearn.linear_model import LogisticRegression

    X = np.asarray(X, float)
    y = np.asarray(right, bool)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale = np.where(scale < 1e-6, 1.0, scale)
    Z = (X - mean) / scale
    if y.all() or not y.any():  # one class only: a constant model
        share = float(np.clip(y.mean(), 0.02, 0.98))
        return {"mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(), "coef": [0.0] * X.shape[1],
                "intercept": float(np.log(share / (1 - share))), "cells": int(len(y)), "right": float(y.mean())}
    lr = LogisticRegression(C=C, max_iter=2000)
    lr.fit(Z, y)
    return {"mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
            "coef": lr.coef_[0].round(6).tolist(), "intercept": round(float(lr.intercept_[0]), 6),
            "cells": int(len(y)), "right": round(float(y.mean()), 5)}


def fit_isotonic(raw: np.ndarray, right: np.ndarray, bins: int = 40) -> dict[str, list[float]]:
    """A monotone map raw → share right (pool-adjacent-violators on quantile bins; no SciPy needed)."""
    order = np.argsort(raw)
    r, ok = np.asarray(raw, float)[order], np.asarray(right, float)[order]
    # Many cells score exactly 1: they get a bin of their own, the rest is cut into quantile bins.
    top = r >= TOP_RAW
    low = r[~top]
    inner = np.unique(np.quantile(low, np.linspace(0, 1, bins))) if len(low) else np.zeros(0)
    edges = np.unique(np.concatenate([[0.0], inner, [TOP_RAW, 1.0 + 1e-9]]))
    xs, ys, ws = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (r >= lo) & (r < hi)
        if m.sum() >= MIN_BIN or (m.any() and lo >= TOP_RAW):
            xs.append(float(r[m].mean()))
            ys.append(float(ok[m].mean()))
            ws.append(float(m.sum()))
    # pool adjacent violators
    blocks = [[x, y, w] for x, y, w in zip(xs, ys, ws, strict=True)]
    i = 0
    while i < len(blocks) - 1:
        if blocks[i][1] > blocks[i + 1][1]:
            a, b = blocks[i], blocks[i + 1]
            w = a[2] + b[2]
            blocks[i] = [(a[0] * a[2] + b[0] * b[2]) / w, (a[1] * a[2] + b[1] * b[2]) / w, w]
            del blocks[i + 1]
            i = max(i - 1, 0)
        else:
            i += 1
    x = [0.0] + [b[0] for b in blocks] + [1.0]
    y = [min(blocks[0][1], 0.5)] + [b[1] for b in blocks] + [blocks[-1][1]]
    # Between the top bin and the one below it the map must not rise earlier than the data did.
    if len(x) >= 3 and x[-2] >= TOP_RAW and x[-3] < TOP_RAW:
        x.insert(-2, min(TOP_RAW - 1e-4, max(x[-3], TOP_RAW - 0.01)))
        y.insert(-2, y[-3])
    return {"x": [round(v, 5) for v in x], "y": [round(v, 5) for v in y]}


def reliability(conf: np.ndarray, right: np.ndarray, edges=RELIABILITY_EDGES) -> list[dict]:
    """Confidence bins → number of cells and share right (the benchmark's reliability table)."""
    conf, right = np.asarray(conf, float), np.asarray(right, bool)
    out = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (conf >= lo) & (conf < hi)
        out.append({"lo": lo, "hi": min(hi, 1.0), "cells": int(m.sum()),
                    "mean_confidence": float(conf[m].mean()) if m.any() else None,
                    "share_right": float(right[m].mean()) if m.any() else None})
    return out


def expected_calibration_error(conf: np.ndarray, right: np.ndarray, bins: int = 10) -> float:
    """Cell-weighted mean |confidence − share right| over equal-width bins (0 = the number means what it says)."""
    conf, right = np.asarray(conf, float), np.asarray(right, float)
    if not len(conf):
        return 0.0
    k = np.clip((conf * bins).astype(int), 0, bins - 1)
    err = 0.0
    for b in range(bins):
        m = k == b
        if m.any():
            err += m.sum() * abs(conf[m].mean() - right[m].mean())
    return float(err / len(conf))


def review_figures(photos: list[tuple[np.ndarray, np.ndarray]], doubt: float = DOUBT,
                   review_max: int = 10) -> dict:
    """Silent errors and "right after review" over photos given as (confidence, right) arrays of their cells.

    A silent error is a wrong cell with confidence ≥ `doubt`; a photo is right after review when it has none and
    at most `review_max` cells are flagged.
    """
    cells = sum(len(c) for c, _ in photos)
    wrong = sum(int((~np.asarray(ok, bool)).sum()) for _, ok in photos)
    silent = sum(int(((np.asarray(c) >= doubt) & ~np.asarray(ok, bool)).sum()) for c, ok in photos)
    review = sum(1 for c, ok in photos if not ((np.asarray(c) >= doubt) & ~np.asarray(ok, bool)).any()
                 and int((np.asarray(c) < doubt).sum()) <= review_max)
    flagged = sum(int((np.asarray(c) < doubt).sum()) for c, _ in photos)
    return {"photos": len(photos), "cells": cells, "wrong": wrong, "silent": silent, "flagged": flagged,
            "silent_pct_cells": 100 * silent / cells if cells else 0.0,
            "silent_pct_wrong": 100 * silent / wrong if wrong else 0.0,
            "review": review, "review_pct": 100 * review / len(photos) if photos else 0.0}


def dominant_terrain(labels: list[str]) -> str | None:
    """The terrain on more than DOMINANT_SHARE of at least 20 filled cells, if any."""
    filled = [t for t in labels if t != "empty"]
    if len(filled) < 20:
        return None
    names, counts = np.unique(filled, return_counts=True)
    k = int(np.argmax(counts))
    return str(names[k]) if counts[k] / len(filled) > DOMINANT_SHARE else None
