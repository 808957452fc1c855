"""Stage 5, learned: the cell model's opinion of every cell, then the sheet's own hand where the model is torn.

    cell patches (vision.cellpatch) → P(terrain) per cell (vision.cellnet) → this sheet's pens (`adapt`)
    → groups of like cells, named (for one-tap teaching) → a confidence per cell

Why the sheet still matters when a model reads each cell: a player draws every forest with one pen, and the
pens differ from player to player. The model knows what greens and blues usually mean; it cannot know that on
this sheet the teal is the forest because the water is plainly blue. `adapt` learns each terrain's ink colour
on this sheet from the cells the model is sure of (and the legend squares, on our sheet), and weighs the
doubtful cells by how well they fit those colours: an EM over the sheet's own cells.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision import cellnet, cellsim
from vision.calibrate import DOMINANT_CAP, dominant_terrain, logit, predict
from vision.cellpatch import MARGIN, PATCH, cell_pitch, grid_quads, paper_white, quad_patches
from vision.scarcity import SCARCE_CAP, nearly_blank, scarce_terrains, suspect_cells, suspect_groups

if TYPE_CHECKING:
    from vision.cells import GroupInfo

CLASSES = cellnet.CLASSES
EMPTY = 0
# EM over the sheet's ink colours: how far a cell's colour may be from its terrain's before it counts against
# it (Lab units; a floor on each terrain's spread), how much the colours count against the model, and how many
# rounds.
COLOUR_FLOOR = (6.0, 6.0, 10.0)
COLOUR_WEIGHT = 0.5
EM_ROUNDS = 4
UNSURE_BELOW = 0.7  # an adapted probability under this is a cell the model is unsure of (the review's threshold)
PROB_LOGIT_CLIP = float(np.log(9999.0))  # probabilities enter the calibration as logits of p clipped to 1e-4..1-1e-4
MIN_MEMBERS = 1.5  # a terrain needs this much sure weight on the sheet before its colour is learned
LEGEND_WEIGHT = 4.0  # a drawn legend square counts as this many sure cells of its terrain


CAL_PATH = Path(__file__).with_name("data") / "cellcal.json"
# What the calibration sees of a cell read by the model (`features`): its own evidence, then the sheet's.
CAL_FEATURES = ("q_logit", "p_logit", "margin", "agree", "read_empty", "ruins", "group_agree", "group_purity",
                "group_log_size", "group_margin", "chroma", "ink_light", "glare", "sheet_q", "sheet_unsure",
                "no_markers", "lattice", "blur_cells", "residual", "legend")


@dataclass
class NetEvidence:
    """The calibration's input for one sheet: (11, 11, len(CAL_FEATURES)) features, and the cells they describe
    (drawable cells the player did not name)."""

    X: np.ndarray
    use: np.ndarray


@dataclass
class NetCells:
    """The cell model's view of one sheet: rows are `cells` (row by row), then nothing else."""

    cells: list[tuple[int, int]]
    probs: np.ndarray  # (n, 6) P(class) per cell, CLASSES order
    emb: np.ndarray  # (n, E) how each cell looks (the model's last features)
    colour: np.ndarray  # (n, 3) the ink's (a, b, L) in the inner cell
    legend: dict[str, tuple[np.ndarray, np.ndarray]]  # drawn legend squares: terrain -> (probs, colour)
    like: np.ndarray | None = None  # (n, D) unit likeness vectors (`vision.cellsim`), None without that model

    def row_of(self) -> dict[tuple[int, int], int]:
        return {c: k for k, c in enumerate(self.cells)}


def colour_features(patches: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """(n, 3) mean (a, b, L) of the ink in each patch's inner cell, weighted by how much ink each pixel is.

    Only the inner part of the cell is used (the grid lines and the neighbours' overshoot stay out); a cell
    with no ink reads as paper (0, 0, 100).
    """
    n, s = patches.shape[:2]
    m = int(round(s * (margin + 0.15) / (1 + 2 * margin)))
    inner = np.clip(patches[:, m : s - m, m : s - m], 0, 1).astype(np.float32)
    lab = cv2.cvtColor(inner.reshape(-1, inner.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(n, -1, 3)
    light, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    w = np.clip((95.0 - light) / 40.0 + np.hypot(a, b) / 30.0, 0, 1.5)
    w = np.where(w > 0.15, w, 0.0)
    tot = w.sum(axis=1)
    out = np.tile(np.array([0.0, 0.0, 100.0], np.float32), (n, 1))
    has = tot > 1e-3
    out[has, 0] = (w * a).sum(axis=1)[has] / tot[has]
    out[has, 1] = (w * b).sum(axis=1)[has] / tot[has]
    out[has, 2] = (w * light).sum(axis=1)[has] / tot[has]
    return out


def read_net(image: np.ndarray, centres: np.ndarray, cells: list[tuple[int, int]],
             legend_quads: dict[str, np.ndarray] | None = None) -> NetCells | None:
    """The model's reading of `cells` (and of the legend squares, given as photo quads), or None without a model.

    `centres` are the 11×11 cell centres in `image`'s pixels as the reader placed them.
    """
    if not cellnet.available():
        return None
    centres = np.asarray(centres, np.float64)
    white = paper_white(image, centres)
    pitch = cell_pitch(centres)
    quads = grid_quads(centres)
    rows = [r * GRID_SIZE + c for r, c in cells]
    names = list(legend_quads or {})
    all_quads = np.concatenate([quads[rows], *(np.asarray(legend_quads[t], np.float64)[None] for t in names)])
    patches = quad_patches(image, all_quads, pitch, white, PATCH, MARGIN)
    out = cellnet.predict(patches)
    if out is None:
        return None
    probs, emb = out
    colour = colour_features(patches)
    n = len(rows)
    legend = {}
    for k, t in enumerate(names):
        if probs[n + k, EMPTY] < 0.5:  # a square left blank teaches nothing
            legend[t] = (probs[n + k], colour[n + k])
    like = cellsim.vectors(patches[:n])
    return NetCells(list(cells), probs[:n], emb[:n], colour[:n], legend, like)


def adapt(probs: np.ndarray, colour: np.ndarray, fixed: dict[int, int] | None = None,
          examples: list[tuple[int, np.ndarray]] | None = None, weight: float = COLOUR_WEIGHT,
          rounds: int = EM_ROUNDS) -> np.ndarray:
    """(n, 6) probabilities with this sheet's pens taken into account.

    `fixed`: rows whose class is known (the player's taps); `examples`: (class, colour) pairs known from
    elsewhere (the legend squares). Each round learns every drawn terrain's colour (mean and spread) from the
    cells weighted by how surely they are that terrain, then weighs each cell's model probabilities by how
    well its colour fits each terrain's. A terrain with too few sure cells on the sheet learns nothing and
    neither helps nor hurts. Empty stays as the model says.
    """
    fixed = fixed or {}
    examples = examples or []
    P = np.asarray(probs, np.float64)
    F = np.asarray(colour, np.float64)
    n = len(P)
    Q = P.copy()
    for row, k in fixed.items():
        Q[row] = np.eye(len(CLASSES))[k]
    if n == 0:
        return Q
    floor = np.asarray(COLOUR_FLOOR) ** 2
    ex_f = np.array([f for _, f in examples], np.float64).reshape(-1, 3)
    ex_k = np.array([k for k, _ in examples], int)
    for _ in range(rounds):
        drawn = 1.0 - Q[:, EMPTY]
        W = (Q[:, 1:] ** 2) * drawn[:, None]
        for row in fixed:
            W[row] *= LEGEND_WEIGHT
        loglik = np.zeros((n, 5))
        active = np.zeros(5, bool)
        for k in range(5):
            w = W[:, k]
            wf = np.concatenate([w, np.full((ex_k == k + 1).sum(), LEGEND_WEIGHT)])
            ff = np.concatenate([F, ex_f[ex_k == k + 1]])
            if wf.sum() < MIN_MEMBERS:
                continue
            active[k] = True
            mu = (wf[:, None] * ff).sum(0) / wf.sum()
            var = (wf[:, None] * (ff - mu) ** 2).sum(0) / wf.sum() + floor
            loglik[:, k] = -0.5 * (((F - mu) ** 2) / var).sum(1) - 0.5 * np.log(var).sum()
        if not active.any():
            break
        ref = loglik[:, active].max(axis=1, keepdims=True)
        loglik = np.where(active[None, :], loglik - ref, np.log(0.5))  # an unlearned terrain: neutral-ish
        L = np.log(P + 1e-6)
        L[:, 1:] += weight * loglik
        Q = np.exp(L - L.max(axis=1, keepdims=True))
        Q /= Q.sum(axis=1, keepdims=True)
        for row, k in fixed.items():
            Q[row] = np.eye(len(CLASSES))[k]
    return Q


# Sheet-level doubt. On the development photos of the calibration (398 sheets, photogen2/photogen3 seeds 30,000..,
# synthphoto 400,000..), sheets where the model is unsure of a share of the cells are the badly read ones (a grid
# placed cells off, a whole pen misread): cell by cell nothing shows it, so the whole sheet is doubted: every square
# not named by the player is shown for checking. The share was 12 % for session 8's single model; with two models
# averaged (session 11) 8 % is the lowest share that costs no more than one sheet "right after review" on the
# calibration's photos (three-fold, 394 sheets: silent cells 282 at 12 % → 237 at 8 %, right after review 270 →
# 270) and on the session 10 development photos (seeds 50,000–50,251, 484 sheets: silent 580 → 415, review 289 →
# 288); lower shares doubt more sheets that are read right. The doubt is the first reading's (before any name):
# names settle the cells they cover, but the pens re-learned from them make the rest of a badly read sheet look
# sure without reading it any better. On development photos with taps (seeds 900.. and 1000.., both generators,
# 288 sheets) the doubt so lifted on 8 of 51 doubted sheets; none was right after review, and 86 of the 457
# cells it left at 0.7 or more were wrong (silent errors after taps 358 → 274 with the doubt kept). On such a sheet
# the grouping is no surer than the reading: only the cells the player named (the examples tapped) are sure, the
# other members of a named group stay doubted (on the same photos they were wrong 177 times in 2,611, 126 of them
# then at 0.7 or more; with them doubted, silent errors after taps 274 → 154, right after review unchanged: every
# such sheet shows more than ten squares anyway).
SHEET_DOUBT_SHARE = 0.08
SHEET_DOUBT_CAP = 0.6

# A tap names the group's example cell; the group's other members follow unless the reader, before any name, set
# them apart (read as another terrain than the group as a whole, or than the example) and gives the name next to no
# chance (below TAP_DISPUTE). Groups gather cells by look, and a group can mix terrains (letters in one pencil, a
# wash over two colours). On development photos with taps (seeds 800.. and 1000.., both generators, the members of
# tapped groups but their examples) 146 members were so set apart, 138 of them truly another terrain, which their
# own reading had right for 137; the name made them silent errors at 1.0. Such a member keeps its own reading,
# capped at DISPUTED_CAP. (The low probability alone disputed 176, 27 of them wrongly: members of groups the reader
# misread as a whole, such as a private code's digits, which the tap is there to correct.) The cap was 0.6 at first,
# which showed every such member for checking; on the next development photos (seeds 1000.., both generators,
# after taps) 89 of 91 of them were right, and one large tapped group could then show 25-36 right cells and sink
# the review. 0.9 is about their share right (137 of 146 and 89 of 91): the review still picks the least sure of
# them when it expects an error among them (`vision.review.cells_to_check`).
TAP_DISPUTE = 0.05
DISPUTED_CAP = 0.9
# A member set apart that still gives the name a chance (TAP_DISPUTE or more) but reads another terrain takes the
# name at no more than UNSURE_NAMED_CAP: on the development photos of seeds 1000.. (both generators, after taps) 59
# such members were the name 29 times, their own reading 28 times; taking the name at full confidence made half of
# them silent errors. The review shows them.
UNSURE_NAMED_CAP = 0.5

TAUGHT_SIMILARITY = 0.92  # an unnamed group whose look (mean model features, cosine) is this close to a named one
TAUGHT_MARGIN = 0.04  # … and this much closer to it than to any other named group takes its name
TAUGHT_CONFIDENCE = 0.9  # the confidence of cells named by a look-alike's tap


def group_names(Q: np.ndarray, groups: list[list[int]]) -> list[int]:
    """Each group's terrain (class index): the one that best explains all its members together."""
    return [int(np.argmax(np.log(Q[rows] + 1e-6).sum(axis=0)[1:])) + 1 for rows in groups]


def features(P: np.ndarray, Q: np.ndarray, ruins: np.ndarray, context: dict[str, float], legend: bool,
             groups: list[list[int]] | None = None, colour: np.ndarray | None = None,
             glare: np.ndarray | None = None) -> np.ndarray:
    """(n, len(CAL_FEATURES)) calibration features of cells whose model probabilities are `P` and sheet-adapted
    probabilities `Q`; `groups` are the rows drawn alike (a cell read otherwise than its look-alikes, or a group
    whose members are read several ways, is a doubt no single cell shows). `group_margin` is how much better
    (mean log-probability per member) the group's name explains its cells than the next name: a whole pen named
    by a hair (an olive village marker beside yellow farms) is a doubt its members, each sure, do not show.
    `colour` is the cells' ink (a, b, L) (`colour_features`; paper when not given): a cell read empty whose ink
    has a hue is a fill too pale for the model (a whole map in pale pencil), which its probability does not
    show. `glare` is how much of each cell's printed outline a highlight left (`vision.cells.glare_caps`; 1, all
    of it, when not given)."""
    qs = np.sort(Q, axis=1)
    n = len(P)
    read = Q.argmax(axis=1)
    g_agree, g_purity, g_size = np.ones(n), np.ones(n), np.zeros(n)
    logq = np.log(Q + 1e-6)
    top2 = np.sort(logq, axis=1)[:, -2:] if n else np.zeros((0, 2))
    g_margin = top2[:, 1] - top2[:, 0]  # a cell in no group: its own
    for rows, k in zip(groups or [], group_names(Q, groups or []), strict=True):
        g_agree[rows] = read[rows] == k
        g_purity[rows] = float((read[rows] == k).mean())
        g_size[rows] = np.log1p(len(rows))
        names = np.sort(logq[rows, 1:].mean(axis=0))  # how much better the group's name explains it than the next
        g_margin[rows] = names[-1] - names[-2]
    ink = np.tile([0.0, 0.0, 100.0], (n, 1)) if colour is None else np.asarray(colour, np.float64)
    sheet_q = float(Q.max(axis=1).mean()) if n else 1.0
    unsure = float((Q.max(axis=1) < UNSURE_BELOW).mean()) if n else 0.0
    cols = {
        "q_logit": logit(qs[:, -1], PROB_LOGIT_CLIP), "p_logit": logit(P.max(axis=1), PROB_LOGIT_CLIP),
        "margin": qs[:, -1] - qs[:, -2],
        "agree": (P.argmax(axis=1) == Q.argmax(axis=1)).astype(float), "read_empty": (Q.argmax(axis=1) == EMPTY),
        "ruins": ruins.astype(float), "group_agree": g_agree, "group_purity": g_purity, "group_log_size": g_size,
        "group_margin": g_margin, "chroma": np.hypot(ink[:, 0], ink[:, 1]), "ink_light": ink[:, 2],
        "glare": np.ones(n) if glare is None else np.asarray(glare, np.float64),
        "sheet_q": np.full(n, sheet_q), "sheet_unsure": np.full(n, unsure),
        "no_markers": np.full(n, context.get("no_markers", 0.0)), "lattice": np.full(n, context.get("lattice", 0.0)),
        "blur_cells": np.full(n, context.get("blur_cells", 0.0)), "residual": np.full(n, context.get("residual", 0.0)),
        "legend": np.full(n, float(legend)),
    }
    return np.stack([np.asarray(cols[f], np.float64) for f in CAL_FEATURES], axis=1)


@lru_cache(maxsize=2)
def _calibration(path: str = str(CAL_PATH)) -> dict | None:
    p = Path(path)
    if not p.exists():
        return None
    m = json.loads(p.read_text())
    if tuple(m.get("features", ())) != CAL_FEATURES:
        return None
    if "trees" in m:  # the nodes as arrays once, not on every sheet read
        m["trees"]["nodes"] = [{k: np.asarray(v, bool if k == "leaf" else None) for k, v in t.items()}
                               for t in m["trees"]["nodes"]]
    return m


def calibrated(X: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """P(the cell is read right) from its features (`scripts/calibrate_cellnet.py` fits the map on development
    photos); the sheet-adapted probability itself when no fitted map ships.

    The map is boosted trees (`trees`) when the file has them, else a logistic map (`coef`, `intercept`)."""
    m = _calibration()
    if m is None or not len(X):
        return Q.max(axis=1) if len(Q) else np.zeros(0)
    return apply_map(m, X)


def apply_map(m: dict, X: np.ndarray) -> np.ndarray:
    """P(right) of feature rows `X` under a calibration map as `scripts/calibrate_cellnet.py` writes it."""
    if "trees" in m:
        return 1.0 / (1.0 + np.exp(-tree_logit(np.asarray(X, np.float64), m["trees"])))
    return predict(m, X)  # the logistic map, as the feature reader's calibration applies its own


def tree_logit(X: np.ndarray, trees: dict) -> np.ndarray:
    """The summed log-odds of boosted regression trees (scikit-learn's HistGradientBoostingClassifier, exported by
    `scripts/calibrate_cellnet.py`: per tree the nodes' feature, threshold, children, value and whether a leaf).

    Why trees: the features act together (a cell read empty on a sheet read mostly empty, a group whose name
    the sheet's pens leave in doubt), which a logistic map can only add up. A row goes left when its feature
    is at most the node's threshold, as in scikit-learn; the features are never missing."""
    rows = np.arange(len(X))
    out = np.full(len(X), float(trees["baseline"]))
    for t in trees["nodes"]:
        feat, thr, left, right = (np.asarray(t[k]) for k in ("feature", "threshold", "left", "right"))
        leaf, value = np.asarray(t["leaf"], bool), np.asarray(t["value"], np.float64)
        node = np.zeros(len(X), int)
        while not leaf[node].all():
            inner = ~leaf[node]
            step = np.where(X[rows, feat[node]] <= thr[node], left[node], right[node])
            node = np.where(inner, step, node)
        out += value[node]
    return out


def read_cells_net(net: NetCells, norm: np.ndarray, canon, side: str, offsets, move_box=None,
                   method: str = "markers", names: dict[int, str] | None = None,
                   outline_norm: np.ndarray | None = None, context: dict[str, float] | None = None):
    """Read all 121 cells from the model's view `net` (see `read_net`): the `vision.cells.CellReading` the rest
    of the reader takes, with groups of like cells for one-tap naming (`names`: group id → terrain)."""
    from vision.cells import LEGEND_MIN_SQUARES, NAMEABLE, CellReading, GroupInfo, glare_caps, sheet_planes, washed_caps
    from vision.geometry import printed_cells, ruins_cells
    from vision.groups import make_groups
    from vision.messages import Note
    from vision.naming import medium, sheet_media

    names = dict(names or {})
    printed = printed_cells(side)
    sp = sheet_planes(norm, canon, side, offsets, move_box, method)
    a = sp.arrays
    row = net.row_of()
    order = [row[c] for c in a.cells]
    P, F, E = net.probs[order], net.colour[order], net.emb[order]
    warnings: list[Note] = []
    examples = []
    path = "learned"
    if method == "markers":
        if len(net.legend) >= LEGEND_MIN_SQUARES:
            examples = [(CLASSES.index(t), f) for t, (_, f) in net.legend.items()]
            path = "legend"
        else:
            warnings.append(Note.of("legend_empty"))
    Q0 = adapt(P, F, examples=examples)
    filled = [k for k in range(len(order)) if int(Q0[k].argmax()) != EMPTY]
    groups = make_groups(a, filled, like=None if net.like is None else net.like[order])
    fixed: dict[int, int] = {}
    given = {g.id: names[g.id] for g in groups if names.get(g.id) in NAMEABLE}
    taught = _taught(groups, E, given, Q0)
    disputed: set[int] = set()  # members of a named group that keep their own reading (`members_set_apart`)
    unsure_named: set[int] = set()  # … that take the name, doubted
    for g in groups:
        name = given.get(g.id) or taught.get(g.id)
        if name is None:
            continue
        off, unsure = members_set_apart(Q0, g, name, example_named=g.id in given)
        disputed |= off
        unsure_named |= unsure
        for k in g.rows:
            if k not in off:
                fixed[k] = CLASSES.index(name)
    Q = _with_names(P, F, Q0, fixed, groups, {**given, **taught}, examples)
    grid = [["empty"] * GRID_SIZE for _ in range(GRID_SIZE)]
    for (r, c), t in printed.items():
        grid[r][c] = t
    conf = np.ones((GRID_SIZE, GRID_SIZE), np.float32)
    raw = np.full((GRID_SIZE, GRID_SIZE), np.nan, np.float32)
    for k, (r, c) in enumerate(a.cells):
        grid[r][c] = CLASSES[int(Q[k].argmax())]
    # A highlight washes out the print where it falls. A cell whose outline it took keeps at most what is left of
    # it (its ink went too); the cells around it, and how much of each outline is left, are evidence for the
    # calibration: the model reads the halo's cells right (98 % of 899 such cells on the session 10 development
    # photos, all then capped at 0.5 and shown for checking).
    fading = sp.outline_fading(grid, outline_norm)
    glare = glare_caps(fading, sp.boxes, warnings)
    washed = washed_caps(fading)
    ruins = np.array([rc in ruins_cells(side) for rc in a.cells])
    X = features(P, Q, ruins, context or {}, path == "legend", [g.rows for g in groups], F,
                 np.array([glare[rc] for rc in a.cells]))
    prob = calibrated(X, Q)
    Xg = np.zeros((GRID_SIZE, GRID_SIZE, len(CAL_FEATURES)))
    use = np.zeros((GRID_SIZE, GRID_SIZE), bool)
    for k, (r, c) in enumerate(a.cells):
        conf[r, c] = min(float(prob[k]), float(washed[r, c]))
        raw[r, c] = float(Q[k].max())
        Xg[r, c] = X[k]
        use[r, c] = k not in fixed
    # Sheet-level sanity: one terrain on nearly every filled cell is more likely a misread than a map.
    dom = dominant_terrain([grid[r][c] for r, c in a.cells])
    doubted = sheet_doubted(Q0)
    if doubted:
        warnings.append(Note.of("sheet_doubtful"))
    for k, (r, c) in enumerate(a.cells):
        if dom is not None and grid[r][c] == dom:
            conf[r, c] = min(float(conf[r, c]), DOMINANT_CAP)
        if doubted and k not in fixed:
            conf[r, c] = min(float(conf[r, c]), SHEET_DOUBT_CAP)
    doubt_scarce(Q, groups, a.cells, [grid[r][c] for r, c in a.cells], fixed, conf, warnings)
    infos = []
    summaries, colour_sheet, mono = sheet_media(a, groups)
    for gi, g in enumerate(groups):
        if g.id in given or g.id in taught:
            name, sure, source = ((given[g.id], 1.0, "given") if g.id in given
                                  else (taught[g.id], TAUGHT_CONFIDENCE, "taught"))
            for k, (r, c) in zip(g.rows, g.cells, strict=True):
                tapped = g.id in given and (r, c) == tuple(g.example)
                grid[r][c], conf[r, c] = named_member(k, name, sure, grid[r][c], float(conf[r, c]), disputed,
                                                      unsure_named, doubted and not tapped)
            infos.append(GroupInfo(g.id, g.cells, g.example, name, sure, source))
            continue
        k = group_names(Q, [g.rows])[0]
        # How sure the name is: its members' confidence, read as that name (the review asks about a group whose
        # cells it doubts). Named by colour or by shape, as far as the blur gate is concerned
        # (vision.quality.gate_style).
        sure = float(np.mean([conf[rc] if grid[rc[0]][rc[1]] == CLASSES[k] else 1.0 - conf[rc] for rc in g.cells]))
        source = "symbol" if mono or medium(summaries[gi], colour_sheet) == "symbol" else "colour"
        infos.append(GroupInfo(g.id, g.cells, g.example, CLASSES[k], sure, source))
    for r, c in printed:
        conf[r, c] = 1.0
    kinds = {i.source for i in infos}
    style = "symbols" if kinds <= {"symbol", "given", "taught"} and infos else (
        "colour" if kinds <= {"colour", "given", "taught"} else "mixed")
    return CellReading(grid, conf, style, warnings, infos, path, raw, NetEvidence(Xg, use), sp.planes, sp.boxes,
                       sp.ink_shapes)


def doubt_scarce(Q: np.ndarray, groups, cells: list[tuple[int, int]], labels: list[str], fixed: dict[int, int],
                 conf: np.ndarray, warnings: list) -> None:
    """Doubt (in `conf`) the unnamed groups that could be a main terrain a well-filled map lacks, and the empty
    cells of a map read nearly blank (`vision.scarcity`), each with a warning. `cells` and `labels` are the
    drawable cells and their reading, in the rows of `Q`; `fixed` the rows the player has named (a group named
    by a tap, or by its look-alike's, has all its rows there)."""
    from vision.messages import Note

    doubted: list[tuple[int, int]] = []
    if nearly_blank(labels):
        doubted += [rc for k, (rc, t) in enumerate(zip(cells, labels, strict=True)) if t == "empty" and k not in fixed]
        warnings.append(Note.of("nearly_blank"))
    missing = scarce_terrains(labels)
    free = [g for g in groups if not any(k in fixed for k in g.rows)]
    rows = [g.rows for g in free]
    if missing:
        suspects = [rc for i in suspect_groups(Q, CLASSES, rows, group_names(Q, rows), missing) for rc in free[i].cells]
        suspects += [cells[k] for k in suspect_cells(Q, CLASSES, rows, missing)]
        if suspects:
            doubted += suspects
            warnings.append(Note.of("terrain_missing", terrains=tuple(missing)))
    for rc in doubted:
        conf[rc] = min(float(conf[rc]), SCARCE_CAP)


def doubt_sheet(conf: np.ndarray, groups: list[GroupInfo]) -> int:
    """Cap (in place) at SHEET_DOUBT_CAP the confidence of every cell but the squares the player tapped (the
    examples of groups named "given"); returns the cells capped. For a sheet found off the map after its cells
    were read (`vision.sidelook.grid_off_map`): the printed cells too, as the side that places them was told by
    the same mountains (development photogen2 f_0058: side B read as A, its five printed mountains the silent
    errors left)."""
    keep = np.zeros(conf.shape, bool)
    for g in groups:
        if g.source == "given":
            keep[g.example_cell] = True
    capped = (conf > SHEET_DOUBT_CAP) & ~keep
    conf[capped] = SHEET_DOUBT_CAP
    return int(capped.sum())


def sheet_doubted(Q0: np.ndarray) -> bool:
    """Whether the whole sheet is in doubt: the first reading (adapted, before any name) unsure (probability <
    UNSURE_BELOW) of at least SHEET_DOUBT_SHARE of the cells. The cells the player taps are settled by their names;
    every other cell of such a sheet stays doubted, the other members of a named group too (`named_member`)."""
    if not len(Q0):
        return False
    return float((Q0.max(axis=1) < UNSURE_BELOW).mean()) >= SHEET_DOUBT_SHARE


def _with_names(P: np.ndarray, F: np.ndarray, Q0: np.ndarray, fixed: dict[int, int], groups,
                named: dict[int, str], examples: list) -> np.ndarray:
    """The probabilities once the player's names (and their look-alikes) are in.

    A name that only confirms what the reader already called the group adds no colour evidence the first
    pass did not use: the cells named are set, nothing else moves (re-running the pens' EM would shift a
    few unrelated borderline cells, which a player reads as the app changing its mind over a "yes"). A name
    that corrects the reader does re-learn the pens, and may correct other cells with it.
    """
    if not fixed:
        return Q0
    first = dict(zip([g.id for g in groups], group_names(Q0, [g.rows for g in groups]), strict=True))
    if any(CLASSES.index(t) != first[gid] for gid, t in named.items()):
        return adapt(P, F, fixed=fixed, examples=examples)
    Q = Q0.copy()
    for row, k in fixed.items():
        Q[row] = np.eye(len(CLASSES))[k]
    return Q


def _taught(groups, emb: np.ndarray, given: dict[int, str], Q0: np.ndarray) -> dict[int, str]:
    """Unnamed groups that look like a named one (the model's features, group means) take its name, unless the
    reader is sure they are another terrain (`sure_otherwise`)."""
    if not given:
        return {}
    mean = {g.id: emb[g.rows].mean(axis=0) for g in groups}
    unit = {k: v / max(float(np.linalg.norm(v)), 1e-6) for k, v in mean.items()}
    out = {}
    for g in groups:
        if g.id in given:
            continue
        by_name: dict[str, float] = {}
        for gid, t in given.items():
            by_name[t] = max(by_name.get(t, -1.0), float(unit[g.id] @ unit[gid]))
        ranked = sorted(by_name.items(), key=lambda kv: -kv[1])
        best, sim = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else -1.0
        if sim >= TAUGHT_SIMILARITY and sim - second >= TAUGHT_MARGIN and not sure_otherwise(Q0, g.rows, best):
            out[g.id] = best
    return out


def members_set_apart(Q0: np.ndarray, group, name: str, example_named: bool = True) -> tuple[set[int], set[int]]:
    """The rows of `group` named `name` that the first reading sets apart and reads as another terrain than the
    name: (disputed, unsure). Disputed members give the name a probability under TAP_DISPUTE and keep their own
    reading; the others (unsure) take the name, doubted. Set apart: read as another terrain than the group as a
    whole, or (when `example_named`: the player named the group on its example cell) than the example. The
    example itself is never set apart then: it is the name whatever the reader says.

    Why "set apart": a group the reader misread as a whole (a private code of digits, every one read "farm", the
    example too) is exactly what a tap corrects, and every member takes the name; a member read like the rest of
    the group while the example was read otherwise (the example a stray of another terrain) is not."""
    k = CLASSES.index(name)
    first = group_names(Q0, [group.rows])[0]
    ex = group.rows[[tuple(rc) for rc in group.cells].index(tuple(group.example))] if example_named else None
    ex_own = int(Q0[ex].argmax()) if ex is not None else None
    disputed, unsure = set(), set()
    for row in group.rows:
        own = int(Q0[row].argmax())
        apart = own != first or (ex_own is not None and own != ex_own)
        if row == ex or own == k or not apart:
            continue
        (disputed if float(Q0[row, k]) < TAP_DISPUTE else unsure).add(row)
    return disputed, unsure


def named_member(row: int, name: str, sure: float, own: str, own_conf: float, disputed: set[int],
                 unsure: set[int], in_doubt: bool = False) -> tuple[str, float]:
    """(terrain, confidence) of a member of a named group (`members_set_apart` says which rows are set apart):
    a disputed member keeps its own reading at no more than DISPUTED_CAP, an unsure one takes the name at no more
    than UNSURE_NAMED_CAP, every other member takes the name as surely as the name is known (`sure`).

    `in_doubt`: the member lies on a sheet doubted whole (`sheet_doubted`) and is not the cell the player tapped;
    the group that carried the name there is no surer than the reading that made it, so the member keeps at most
    SHEET_DOUBT_CAP, like every other unnamed cell of that sheet."""
    if row in disputed:
        terrain, conf = own, min(own_conf, DISPUTED_CAP)
    elif row in unsure:
        terrain, conf = name, min(sure, UNSURE_NAMED_CAP)
    else:
        terrain, conf = name, sure
    return terrain, min(conf, SHEET_DOUBT_CAP) if in_doubt else conf


def sure_otherwise(Q0: np.ndarray, rows: list[int], name: str) -> bool:
    """Does the reader, before any name, read these cells as one terrain other than `name`, and surely (the
    group's members' mean probability of it at least `UNSURE_BELOW`, the review's own bar)?

    Why a look-alike's name does not overrule that: cells in one pen or hand look alike to the model whatever
    they are (letters in one pencil, one watercolour's washes), so a tap on one group made its look-alikes
    that name even where the reader had them right and sure: on development photos a tap on a two-cell
    "monster" group of letters turned 21 sure and right forest letters into monsters at 0.9, and a tap on one
    forest wash turned three sure water cells into forest. A look-alike the reader doubted, or read as that
    name already, still takes it.
    """
    k = group_names(Q0, [rows])[0]
    return CLASSES[k] != name and float(Q0[rows, k].mean()) >= UNSURE_BELOW
