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
GROUPED_HERO_DOUBT = 0.6  # a hero read on a cell grouped with look-alike cells (see `doubt_grouped_heroes`)
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
# Per-cell evidence of the cell's GROUP (`group_features`, derived from the cell features above and which group
# each cell is in): a misnamed group is wrong together, and its cells' own evidence (a clear fill, a tight group)
# looks good one by one; only the group as a whole shows the doubt.
GROUP_FEATURES: tuple[str, ...] = (
    "grp_agree",  # share of the group's cells a second reader reads the same (0 for empty cells)
    "grp_sym_bad",  # share of the group's cells with strokes whose best symbol is another terrain
    "grp_fill",  # mean fill_logit of the group (a group of faint smudges is not a terrain)
    "grp_share",  # the group's share of the drawn cells (one group taking the sheet)
    "grp_raw_sd",  # spread of the group's raw scores (a group that mixes two pens)
    "cell_odd",  # the cell disagrees with the second reader while most of its group agrees (or the reverse)
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
    group: np.ndarray | None = None  # 11×11 index of each cell's group (-1: none), see `group_index`

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(n, F) design rows of the used cells (cell, group, then sheet features), and their (n,) filled flags."""
        m = self.use
        x = self.cells[m]
        g = group_features(self.cells, self.use, self.filled, self.group)[m]
        s = np.broadcast_to(self.sheet, (len(x), len(self.sheet)))
        return np.concatenate([x, g, s], axis=1).astype(np.float64), self.filled[m]


def feature_names() -> list[str]:
    """The design rows' columns, in order (a model file fitted on other columns is not used)."""
    return [*CELL_FEATURES, *GROUP_FEATURES, *SHEET_FEATURES]


def group_index(groups) -> np.ndarray:
    """11×11 index of each cell's group in `groups` (objects with `.cells`, e.g. vision.cells.GroupInfo); -1 none."""
    out = np.full((11, 11), -1, int)
    for k, g in enumerate(groups):
        for r, c in g.cells:
            out[r, c] = k
    return out


def group_caps(groups) -> np.ndarray:
    """11×11: the most a cell may keep because of its group's name confidence (`vision.cells.cap_by_group`)."""
    out = np.ones((11, 11))
    for g in groups:
        if g.source not in ("given", "taught"):
            for r, c in g.cells:
                out[r, c] = min(out[r, c], float(g.confidence))
    return out


def group_features(cells: np.ndarray, use: np.ndarray, filled: np.ndarray,
                   group: np.ndarray | None) -> np.ndarray:
    """(11, 11, len(GROUP_FEATURES)) group-level evidence of each cell, from the cell features and the groups.

    Only used, drawn cells count towards a group's figures (an empty cell has no group). Without groups
    (`group` None) every drawn cell is a group of its own.
    """
    F = {n: i for i, n in enumerate(CELL_FEATURES)}
    out = np.zeros((*use.shape, len(GROUP_FEATURES)))
    G = {n: i for i, n in enumerate(GROUP_FEATURES)}
    drawn = use & filled
    n_drawn = max(int(drawn.sum()), 1)
    gid = np.full(use.shape, -1, int) if group is None else np.asarray(group, int)
    gid = np.where(drawn, gid, -1)
    # cells without a group: each its own
    solo = drawn & (gid < 0)
    if solo.any():
        gid = gid.copy()
        gid[solo] = gid.max() + 1 + np.arange(int(solo.sum()))
    agree = cells[..., F["agree"]]
    has = cells[..., F["sym_has"]] > 0
    sym_bad = has & (cells[..., F["sym_p"]] < cells[..., F["sym_top"]] - 1e-9)
    fill = cells[..., F["fill_logit"]]
    raw = cells[..., F["raw_logit"]]
    for k in np.unique(gid[gid >= 0]):
        m = gid == k
        n = int(m.sum())
        ga = float(agree[m].mean())
        out[m, G["grp_agree"]] = ga
        nh = int(has[m].sum())
        out[m, G["grp_sym_bad"]] = float(sym_bad[m].sum()) / nh if nh else 0.0
        out[m, G["grp_fill"]] = float(fill[m].mean())
        out[m, G["grp_share"]] = n / n_drawn
        out[m, G["grp_raw_sd"]] = float(raw[m].std()) if n > 1 else 0.0
        out[m, G["cell_odd"]] = np.abs(agree[m] - ga)
    return out


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
    if names == feature_names():
        return raw.get("models", {})
    if names == [*CELL_FEATURES, *SHEET_FEATURES]:  # a file fitted before the group features: still usable
        return {**raw.get("models", {}), "layout": "cells+sheet"}
    return {}  # fitted on other features: not usable


def models() -> dict[str, dict]:
    """The shipped models ({} when none fits today's features)."""
    return _models()


def load_models(path: str | Path = TABLE_PATH) -> dict[str, dict]:
    """The models of a calibration file, as the reader would use them ({} when none fits today's features)."""
    return _models(str(path))


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
    if models.get("layout") == "cells+sheet":  # fitted without the group features
        X = np.delete(X, np.s_[len(CELL_FEATURES):len(CELL_FEATURES) + len(GROUP_FEATURES)], axis=1)
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
    q = final_map(ps * p + (1 - ps) * chance, filled, models.get(f"final/{ev.path}"))
    out[ev.use] = guard(q, X[:, CELL_FEATURES.index("raw_logit")])
    return out


def final_map(p: np.ndarray, filled: np.ndarray, table: dict | None) -> np.ndarray:
    """The models' P(right) through a monotone map per kind of answer (`fit_monotone`), or unchanged.

    The logistic models rank cells well but their numbers drift where wrong cells are few and confident (a
    weighted fit pushes them down on purpose); the map, fitted on photos the models were not fitted on, says
    what share of cells at each model score were right there.
    """
    p = np.asarray(p, float)
    if not table:
        return p
    out = p.copy()
    filled = np.asarray(filled, bool)
    for key, sel in (("filled", filled), ("empty", ~filled)):
        t = table.get(key)
        if t is not None and sel.any():
            out[sel] = np.interp(p[sel], t["x"], t["y"])
    return out


def pool_adjacent_violators(blocks: list[list[float]]) -> list[list[float]]:
    """[x, share right, weight] blocks in rising x, merged (weighted means) until the share right never falls:
    the monotone steps of an isotonic fit, kept as blocks because their x is what the map interpolates."""
    blocks = [list(b) for b in blocks]
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
    return blocks


def fit_monotone(p: np.ndarray, right: np.ndarray, bins: int = 20, min_bin: int = 30) -> dict[str, list[float]]:
    """A non-decreasing map score → share right (pool-adjacent-violators on quantile bins of `p`).

    Bins hold at least `min_bin` cells; a bin's share right is shrunk towards its mean score by 2 cells' weight
    (so a small top bin that happened to be all right does not become certainty).
    """
    p, ok = np.asarray(p, float), np.asarray(right, float)
    if len(p) < 2 * min_bin:
        return {"x": [0.0, 1.0], "y": [0.0, 1.0]}
    order = np.argsort(p, kind="stable")
    p, ok = p[order], ok[order]
    k = max(1, min(bins, len(p) // min_bin))
    cuts = np.linspace(0, len(p), k + 1).astype(int)
    blocks = []
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        if b > a:
            w = b - a
            blocks.append([float(p[a:b].mean()), (float(ok[a:b].sum()) + 2 * float(p[a:b].mean())) / (w + 2), w])
    blocks = pool_adjacent_violators(blocks)
    x = [0.0] + [bl[0] for bl in blocks] + [1.0]
    y = [min(blocks[0][1], blocks[0][0])] + [bl[1] for bl in blocks] + [max(blocks[-1][1], 0.0)]
    return {"x": [round(v, 5) for v in x], "y": [round(v, 5) for v in y]}


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


def fit_logistic(X: np.ndarray, right: np.ndarray, C: float = 0.5, wrong_weight: float = 1.0) -> dict:
    """Fit one model (scikit-learn, offline only). Standardises the features; constant ones get weight 0.

    `wrong_weight` > 1 makes a wrong cell count that many right ones: the fit then cares more about the cells
    it would call sure and be wrong on (the silent errors) than about the many easy right ones.
    """
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
    lr.fit(Z, y, sample_weight=np.where(y, 1.0, float(wrong_weight)))
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
    blocks = pool_adjacent_violators([[x, y, w] for x, y, w in zip(xs, ys, ws, strict=True)])
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


def grouped_heroes(read: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Bool mask of the cells read "hero" whose group (`group_index`: -1 none) has other members too."""
    g = np.asarray(group, int)
    sizes = np.bincount(g[g >= 0].ravel(), minlength=1)
    return (np.asarray(read) == "hero") & (g >= 0) & (sizes[np.maximum(g, 0)] >= 2)


def doubt_grouped_heroes(grid: list[list[str]], conf: np.ndarray, groups) -> int:
    """A hero read on a cell the terrain stage grouped with other look-alike cells is doubted (in place).

    A hero is a 1×1 of its own drawn on an empty space, one a season: a drawing that repeats on the map (the
    cell's group has other members) is more likely a terrain's symbol or colour, and the marks stage's P(hero)
    cannot see the rest of the map. On both dev generators (neither draws heroes) every such hero was wrong,
    and a third of the silent errors on fresh dev photos were these. `groups`: the reading's groups (objects
    with `.cells`). Returns the cells doubted.
    """
    m = grouped_heroes(np.array(grid, dtype=object), group_index(groups)) & (conf > GROUPED_HERO_DOUBT)
    conf[m] = GROUPED_HERO_DOUBT
    return int(m.sum())
