"""Stage 5: read every grid cell — the row of small classification stages behind one call.

    features (vision.features) → filled or empty → groups of like cells (vision.groups)
    → a name per group (vision.naming; the legend where our sheet has one drawn in, else priors and the
    symbol model, or the player's taps) → the colour groups' names together, by the order of their hues
    (vision.hueorder) → a calibrated confidence per cell (vision.calibrate)

With a usable legend (our sheet found by its markers, at least four legend squares drawn in) the cells are
matched to the legend by `vision.classify` as before, and the groups are named by their members' votes, so a
tap still renames a whole group. Anywhere else (the game's pad, other printed grids, a legend left blank)
nothing from the legend row is used: score boxes and blank squares are not examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.cartographers.data import GRID_SIZE
from vision import calibrate, symbols
from vision.calibrate import DOMINANT_CAP, dominant_terrain
from vision.classify import classify_cells
from vision.features import CellArrays, Planes, box_region, cell_arrays, ink_map, plain_ink_shapes, planes
from vision.geometry import Canon, printed_cells, ruins_cells
from vision.glare import CELL_FADED, glare_confidence_cap, outline_ratios
from vision.groups import Group, distances, make_groups
from vision.hueorder import order_names
from vision.light import grid_paper, whiten
from vision.messages import Note
from vision.naming import DRAWABLE, name_groups

NAMEABLE = (*DRAWABLE, "empty")  # what a player may call a group (a group of smudges is "empty")
LEGEND_MIN_SQUARES = 4  # drawn-in legend squares needed before the legend is trusted
LEGEND_AGREEMENT = 0.6  # a group whose members the legend splits more than this is doubted
FILL_FLOOR = 0.022  # mean ink below which a cell is never "drawn on"
FILL_CEILING = 0.09  # … and above which it always is (a full map has no empty cell to compare with)
FILL_SOFTNESS = 0.22  # log-ink units of the filled/empty sigmoid
# Paper inside the grid is whitened to ink ≈ 0.01 (empty cells of photogen2's dev photos: at most 0.031); when
# even the emptiest cells carry more than this, every cell is drawn on (a full map in pale pencil) and only
# the floor applies.
FULL_LEVEL = 0.035
RUINS_PRINT_RATIO = 1.5  # a ruins cell with printed ruins only carries more ink than this × a blank cell's
FILL_CONTRAST = 0.065  # ink contrast (98th percentile − median) of a pale symbol; blank cells stay below 0.045
FILL_TINT = 2.2  # Lab chroma of a cell's mean colour above which it is coloured in (blank paper stays below 1.6)
FOREIGN_RUINS_CAP = 0.65  # ruins printed by another sheet's design hide a pencil mark: show them
# An unsure group this close to a named one (and clearly closer than to any other named group) takes its name
# with this raw confidence.
TAUGHT_NEAR, TAUGHT_MARGIN = 0.8, 0.7
TAUGHT_CONFIDENCE = 0.9


@dataclass
class GroupInfo:
    """One group of like cells, as `mapsmith read --json` reports it."""

    id: int
    cells: list[tuple[int, int]]
    example_cell: tuple[int, int]
    name: str
    confidence: float
    source: str  # "given", "legend", "colour", "symbol", "none"

    def to_dict(self) -> dict:
        return {"id": self.id, "cells": [list(c) for c in self.cells], "example_cell": list(self.example_cell),
                "name": self.name, "confidence": round(float(self.confidence), 3), "source": self.source}


@dataclass
class CellReading:
    grid: list[list[str]]
    confidence: np.ndarray  # 11×11
    style: str
    warnings: list[Note]
    groups: list[GroupInfo] = field(default_factory=list)
    path: str = "learned"  # "legend" or "learned"
    raw: np.ndarray | None = None  # 11×11 scores before calibration
    evidence: calibrate.Evidence | None = None  # what the calibrator saw (scripts/calibrate.py fits on it)
    # The colour planes the cells were read from (whitened by the paper of the cells `boxes`), for the marks
    # stage to reuse when it reads the same cells (`vision.marks.read_marks`).
    planes: Planes | None = field(default=None, repr=False)
    boxes: dict = field(default_factory=dict, repr=False)
    # Its ink shape descriptors that the marks stage would make again from those planes (`plain_ink_shapes`).
    ink_shapes: dict = field(default_factory=dict, repr=False)


def _boxes(canon: Canon, offsets, cells) -> dict:
    out = {}
    for r, c in cells:
        x, y, s = canon.cell_box(r, c)
        if offsets is not None:
            x, y = x + float(offsets[r, c, 0]), y + float(offsets[r, c, 1])
        out[(r, c)] = (x, y, s)
    return out


def empty_level(mass: np.ndarray) -> float:
    """Ink of the sheet's emptiest cells (the third lowest, so one clean cell or one glare spot does not decide)."""
    m = np.sort(np.asarray(mass, float))
    return float(m[min(2, len(m) - 1)]) if len(m) else 0.0


def print_is_drawing(ruins_min: float, level: float) -> bool:
    """True when the emptiest ruins cell of a full map (every plain cell inked: `level` > FULL_LEVEL) carries
    no more ink than the plain cells' emptiest: it is drawn on like them, and there is no print to take off.

    A printed ruins icon adds ink over a blank cell (on the pad about twice a textured blank cell's); on a sheet
    whose player drew every ruins cell, the emptiest of them is a drawing, and taking it for the print emptied it.
    """
    return level > FULL_LEVEL and ruins_min < RUINS_PRINT_RATIO * level


def fill_probability(a: CellArrays, ruins: set, own_glyph: bool) -> np.ndarray:
    """P(cell drawn on) from its ink relative to the sheet's emptiest cells (paper, grid shadow, smudges)."""
    mass = a.mass.astype(float).copy()
    is_r = np.array([c in ruins for c in a.cells])
    plain = mass[~is_r] if (~is_r).sum() >= 10 else mass
    level = empty_level(plain)
    full = level > FULL_LEVEL
    if not own_glyph and is_r.sum() >= 3 and not print_is_drawing(mass[is_r].min(), level):
        # another design's printed ruins: the emptiest ruins cell is the print
        mass[is_r] = np.maximum(mass[is_r] - 0.95 * mass[is_r].min(), 0)
        if (~is_r).sum() < 10:
            level = empty_level(mass)
            full = level > FULL_LEVEL
    thr = FILL_FLOOR if full else float(np.clip(2.0 * level + 0.012, FILL_FLOOR, FILL_CEILING))
    p_mass = 1.0 / (1.0 + np.exp(-(np.log(mass + 0.003) - np.log(thr)) / FILL_SOFTNESS))
    if full:  # pale strokes may never cross INK_T; the sheet's own emptiest cells are drawn on already
        return p_mass
    p_cov = 1.0 / (1.0 + np.exp(-(a.coverage - 0.012) / 0.004))  # some pixels must really be drawn on
    # … or, for a pale pencil whose strokes never cross INK_T, stand out from the cell's own paper
    p_contrast = 1.0 / (1.0 + np.exp(-(a.contrast - FILL_CONTRAST) / 0.008))
    # … or, for pale colour hatching spread evenly (no pixel dark, none standing out), be tinted: paper is not
    p_tint = 1.0 / (1.0 + np.exp(-(np.hypot(a.tint[:, 0], a.tint[:, 1]) - FILL_TINT) / 0.3))
    return p_mass * np.maximum(np.maximum(p_cov, p_contrast), p_tint)


def legend_arrays(p, canon: Canon, move_box) -> tuple[CellArrays, list[str]]:
    boxes = {}
    for box in canon.legend_boxes().values():
        boxes[(-1, len(boxes))] = move_box(box) if move_box else box
    names = list(canon.legend_boxes())
    return cell_arrays(p, boxes), names


def usable_legend(leg: CellArrays, names: list[str], grid_mass_ref: float) -> tuple[CellArrays, list[str]] | None:
    """The legend squares that are drawn in, or None when fewer than LEGEND_MIN_SQUARES are."""
    on = leg.mass > max(0.05, 3 * grid_mass_ref + 0.02)
    if on.sum() < LEGEND_MIN_SQUARES:
        return None
    rows = np.nonzero(on)[0]
    return leg.take(rows), [names[i] for i in rows]


@dataclass
class SheetPlanes:
    """The grid's cells measured on the light-normalised sheet: what both cell readers start from."""

    cells: list[tuple[int, int]]  # the drawable cells, row by row
    boxes: dict  # their boxes on the sheet (canonical pixels)
    planes: Planes  # the colour planes, whitened by the paper of the cells
    arrays: CellArrays  # per-cell measurements (vision.features)
    ink_shapes: dict  # their ink shape descriptors, for the marks stage
    paper: np.ndarray  # the paper's colour inside the grid
    region: tuple[slice, slice]  # the part of the sheet the planes cover

    def outline_fading(self, grid: list[list[str]], outline_norm: np.ndarray | None = None) -> np.ndarray:
        """11×11 how much of each cell's printed outline is left (`vision.glare.outline_ratios`; glare washes it
        out), measured around the cells read empty. `outline_norm` is the sheet before its paper lines were
        taken out (`vision.paperlines`), where the grid's own outlines still are."""
        empty = {k for k in self.boxes if grid[k[0]][k[1]] == "empty"}
        ink = self.planes.ink if outline_norm is None else ink_map(whiten(outline_norm[self.region], self.paper))
        return outline_ratios(ink, _full_boxes(self.boxes), empty, self.planes.origin, self.planes.full_shape)


def sheet_planes(norm: np.ndarray, canon: Canon, side: str, offsets, move_box, method: str) -> SheetPlanes:
    printed = printed_cells(side)
    ruins = ruins_cells(side)
    cells = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if (r, c) not in printed]
    boxes = _boxes(canon, offsets, cells)
    paper = grid_paper(norm, boxes)
    # The planes are read only in the grid's cells and outlines (and the legend's, on our sheet): compute them
    # there alone (identical values).
    used = [*_boxes(canon, offsets, [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)]).values()]
    if method == "markers":
        used += [move_box(b) if move_box else b for b in canon.legend_boxes().values()]
    region = box_region(used, norm.shape)
    p = planes(whiten(norm[region], paper)).placed(region, norm.shape)
    own_glyph = method == "markers"
    a = cell_arrays(p, boxes, ruins, own_glyph)
    ink_shapes = plain_ink_shapes(a, p, boxes, ruins, own_glyph)
    return SheetPlanes(cells, boxes, p, a, ink_shapes, paper, region)


def read_cells(norm: np.ndarray, canon: Canon, side: str, offsets: np.ndarray | None = None, move_box=None,
               method: str = "markers", names: dict[int, str] | None = None,
               context: dict[str, float] | None = None, outline_norm: np.ndarray | None = None) -> CellReading:
    """Read all 121 cells. `names` (group id → terrain) are the player's taps from an earlier reading.

    `context` carries what earlier stages know about the whole sheet (how it was found, blur, grid fit; the
    `vision.calibrate.SHEET_FEATURES` it names) for the calibrated confidence. `outline_norm` is the sheet before
    its paper lines were taken out of `norm` (`vision.paperlines`): glare is told by how faded the grid's own
    outlines are, so they are measured there.
    """
    names = dict(names or {})
    printed = printed_cells(side)
    ruins = ruins_cells(side)
    sp = sheet_planes(norm, canon, side, offsets, move_box, method)
    cells, boxes, p, a, ink_shapes = sp.cells, sp.boxes, sp.planes, sp.arrays, sp.ink_shapes
    own_glyph = method == "markers"
    warnings: list[Note] = []
    p_fill = fill_probability(a, ruins, own_glyph)
    sym = symbols.predict(a.shape) if symbols.available() else None

    legend = None
    if method == "markers":
        leg, leg_names = legend_arrays(p, canon, move_box)
        legend = usable_legend(leg, leg_names, min(empty_level(a.mass), 0.03))

    grid = [["empty"] * GRID_SIZE for _ in range(GRID_SIZE)]
    for (r, c), t in printed.items():
        grid[r][c] = t
    conf = np.ones((GRID_SIZE, GRID_SIZE), np.float32)
    capped = np.zeros((GRID_SIZE, GRID_SIZE), bool)
    second = [["empty"] * GRID_SIZE for _ in range(GRID_SIZE)]  # a second reader's terrain per cell
    member_of: dict[int, tuple[Group, int, int]] = {}
    torn_cells = 0

    if legend is not None:
        path = "legend"
        cls = classify_cells(norm, canon, side, offsets, move_box, outline_norm=outline_norm)
        warnings += cls.warnings
        style = cls.style
        filled = [k for k, (r, c) in enumerate(a.cells) if cls.grid[r][c] != "empty"]
        groups = make_groups(a, filled)
        infos = []
        for gk, g in enumerate(groups):
            votes: dict[str, float] = {}
            for r, c in g.cells:
                votes[cls.grid[r][c]] = votes.get(cls.grid[r][c], 0.0) + float(cls.confidence[r, c]) + 0.05
            best = max(votes, key=votes.get)
            share = votes[best] / sum(votes.values())
            if g.id in names and names[g.id] in NAMEABLE:
                infos.append(GroupInfo(g.id, g.cells, g.example, names[g.id], 1.0, "given"))
            else:
                infos.append(GroupInfo(g.id, g.cells, g.example, best, share, "legend"))
            for j, row in enumerate(g.rows):
                member_of[row] = (g, gk, j)
        for k, (r, c) in enumerate(a.cells):
            grid[r][c] = cls.grid[r][c]
            conf[r, c] = cls.confidence[r, c]
            # The second reader on this path: the group's majority for drawn cells, the feature stage's fill test.
            second[r][c] = infos[member_of[k][1]].name if k in member_of else (
                "drawn" if p_fill[k] >= 0.5 else "empty")
        # A legend that disagrees with the map: cells drawn alike but matched to different legend squares.
        torn = [gi for gi in infos if gi.source == "legend" and gi.confidence < LEGEND_AGREEMENT and len(gi.cells) > 1]
        if torn:
            for gi in torn:
                for r, c in gi.cells:
                    conf[r, c] = min(float(conf[r, c]), DOMINANT_CAP)
                    capped[r, c] = True
            torn_cells = sum(len(gi.cells) for gi in torn)
            warnings.append(Note.of("legend_disagrees", n=torn_cells))
        for gi in infos:
            if gi.source == "given":
                for r, c in gi.cells:
                    grid[r][c], conf[r, c] = gi.name, max(float(conf[r, c]), 0.95)
        raw = conf.copy()
    else:
        path = "learned"
        if method == "markers":
            warnings.append(Note.of("legend_empty"))
        filled = [k for k in range(len(a.cells)) if p_fill[k] >= 0.5]
        groups = make_groups(a, filled)
        sym_ink = symbols.predict(a.shape_ink) if symbols.available() else None
        # The typical palette (then the sheet's own colours) read cell by cell: votes for the colour groups.
        pal = classify_cells(norm, canon, side, offsets, move_box, use_legend=False, outline_norm=outline_norm)
        votes = np.zeros((len(a.cells), len(DRAWABLE)))
        for k, (r, c) in enumerate(a.cells):
            second[r][c] = pal.grid[r][c]
            if pal.grid[r][c] in DRAWABLE:
                votes[k, DRAWABLE.index(pal.grid[r][c])] = 0.2 + float(pal.confidence[r, c])
        naming = name_groups(a, groups, symbol_probs=sym, given=names, palette_votes=votes, ink_symbol_probs=sym_ink)
        naming = order_names(a, groups, naming)  # the colour groups together, by the order of their hues
        infos = []
        taught = _taught_by_neighbours(a, groups, naming, names)
        for k, g in enumerate(groups):
            if k in taught:
                infos.append(GroupInfo(g.id, g.cells, g.example, taught[k], TAUGHT_CONFIDENCE, "taught"))
            elif names.get(g.id) == "empty":  # the player says this group is no drawing (a smudge, a dot)
                infos.append(GroupInfo(g.id, g.cells, g.example, "empty", 1.0, "given"))
            else:
                infos.append(GroupInfo(g.id, g.cells, g.example, naming.name(k), naming.confidence(k),
                                       naming.source[k]))
            for j, row in enumerate(g.rows):
                member_of[row] = (g, k, j)
        raw = np.ones((GRID_SIZE, GRID_SIZE))
        for k, (r, c) in enumerate(a.cells):
            if k in member_of:
                g, gk, j = member_of[k]
                grid[r][c] = infos[gk].name
                belong = 0.6 + 0.4 * float(g.cohesion[j])
                raw[r, c] = 1.0 if infos[gk].source == "given" else p_fill[k] * infos[gk].confidence * belong
            else:
                raw[r, c] = 1 - p_fill[k]
            if not own_glyph and (r, c) in ruins and (0.05 < p_fill[k] < 0.95 or (
                    k in member_of and infos[member_of[k][1]].source != "colour")):
                raw[r, c] = min(raw[r, c], FOREIGN_RUINS_CAP)
                capped[r, c] = True
        kinds = {i.source for i in infos}
        style = "symbols" if kinds <= {"symbol", "given", "none"} and infos else (
            "colour" if kinds <= {"colour", "given"} else "mixed")

    # Sheet-level sanity: one terrain on nearly every filled cell is more likely a misread than a map.
    dom = dominant_terrain([grid[r][c] for r, c in cells])
    if dom is not None:
        for r, c in cells:
            if grid[r][c] == dom:
                capped[r, c] = True
    keep = {rc for gi in infos if gi.source in ("given", "taught") for rc in gi.cells}  # the player's names
    ratio = sp.outline_fading(grid, outline_norm)
    ev = _evidence(a, raw, p_fill, sym, grid, second, member_of, infos, ratio, capped, keep, ruins, style, path,
                   torn_cells, 0 if legend is None else len(legend[1]), context or {})
    ev.cap = glare_caps(ratio, boxes, warnings if path == "learned" else [])  # the legend path warned already
    prob = calibrate.probability(ev)
    if prob is None:  # no fitted model for this path: the monotone map of the raw score
        prob = calibrate.calibrated(raw, path)
        if dom is not None:
            prob = np.where(capped, np.minimum(prob, DOMINANT_CAP), prob)
    for r, c in cells:
        if (r, c) in keep:
            conf[r, c] = raw[r, c] if path == "learned" else conf[r, c]
        else:
            conf[r, c] = min(float(prob[r, c]), float(ev.cap[r, c]))
    cap_by_group(conf, infos)
    # A printed cell is right exactly when the sheet was found the right way up and as the right side.
    sheet_p = calibrate.sheet_probability(ev, calibrate.models())
    for r, c in printed:
        conf[r, c] = sheet_p
    raw_out = np.asarray(raw, np.float32).copy()
    for rc in keep:
        raw_out[rc] = np.nan  # named by the player: not part of the calibration
    return CellReading(grid, conf, style, warnings, infos, path, raw_out, ev, p, boxes, ink_shapes)


def cap_by_group(conf: np.ndarray, infos: list[GroupInfo]) -> np.ndarray:
    """A cell is never surer than the name of its group (in place; the player's and taught names excepted).

    When a group is misnamed every cell of it is wrong together, and the calibrator's per-cell evidence
    (agreeing readers, a tight group, a clear fill) cannot see it: only the name's own doubt can.
    """
    np.minimum(conf, calibrate.group_caps(infos), out=conf)
    return conf


def _full_boxes(boxes: dict) -> dict:
    """Boxes for all 121 cells (printed cells borrow any box: their outline ratio is never used)."""
    spare = next(iter(boxes.values()))
    return {(r, c): boxes.get((r, c), spare) for r in range(GRID_SIZE) for c in range(GRID_SIZE)}


def _evidence(a: CellArrays, raw, p_fill, sym, grid, second, member_of, infos, ratio, capped, keep, ruins,
              style: str, path: str, torn_cells: int, legend_squares: int, context: dict) -> calibrate.Evidence:
    """The calibrator's view of the sheet: per-cell evidence and the sheet's sanity signals."""
    F = {n: i for i, n in enumerate(calibrate.CELL_FEATURES)}
    X = np.zeros((GRID_SIZE, GRID_SIZE, len(F)))
    use = np.zeros((GRID_SIZE, GRID_SIZE), bool)
    filled = np.zeros((GRID_SIZE, GRID_SIZE), bool)
    n_filled = n_groups = singletons = sure = sym_n = sym_bad = pal_bad = 0
    raw_sum = 0.0
    seen_groups = set()
    counts: dict[str, int] = {}
    for k, (r, c) in enumerate(a.cells):
        t = grid[r][c]
        x = X[r, c]
        x[F["raw_logit"]] = calibrate.logit(raw[r, c])
        x[F["fill_logit"]] = calibrate.logit(p_fill[k])
        x[F["ruins"]] = (r, c) in ruins
        x[F["glare"]] = float(np.clip(1.0 - ratio[r, c], 0, 1))
        x[F["log_mass"]] = np.log(float(a.mass[k]) + 0.003)
        x[F["capped"]] = capped[r, c]
        use[r, c] = (r, c) not in keep
        if not use[r, c]:  # named by the player: says nothing about how well the reader understood the sheet
            continue
        if t == "empty":
            x[F["agree"]] = second[r][c] == "empty"
            continue
        filled[r, c] = True
        n_filled += 1
        counts[t] = counts.get(t, 0) + 1
        raw_sum += float(raw[r, c])
        sure += raw[r, c] >= calibrate.DOUBT
        x[F["agree"]] = second[r][c] == t
        pal_bad += second[r][c] != t
        if k in member_of:
            g, gk, j = member_of[k]
            gi = infos[gk]
            x[F["group_logit"]] = calibrate.logit(gi.confidence)
            x[F["cohesion"]] = float(g.cohesion[j]) if len(g.rows) > 1 else 0.0
            x[F["group_log_size"]] = np.log1p(len(g.rows))
            x[F["singleton"]] = len(g.rows) == 1
            singletons += len(g.rows) == 1
            src = {"legend": "src_legend", "colour": "src_colour", "symbol": "src_symbol"}.get(gi.source, "src_none")
            x[F[src]] = 1.0
            if gk not in seen_groups:
                seen_groups.add(gk)
                n_groups += 1
        if sym is not None and a.stroke[k] > 0.02 and t in DRAWABLE:
            x[F["sym_has"]] = 1.0
            x[F["sym_p"]] = float(sym[k, DRAWABLE.index(t)])
            x[F["sym_top"]] = float(sym[k].max())
            sym_n += 1
            sym_bad += DRAWABLE[int(np.argmax(sym[k]))] != t
    S = {n: i for i, n in enumerate(calibrate.SHEET_FEATURES)}
    s = np.zeros(len(S))
    nf = max(n_filled, 1)
    s[S["dominant_share"]] = max(counts.values()) / nf if counts else 0.0
    s[S["filled_share"]] = n_filled / max(len(a.cells), 1)
    s[S["groups_per_cell"]] = n_groups / nf
    s[S["singleton_share"]] = singletons / nf
    s[S["sure_share"]] = sure / nf if n_filled else 1.0
    s[S["mean_raw"]] = raw_sum / nf if n_filled else 1.0
    s[S["torn_share"]] = torn_cells / nf
    s[S["glare_share"]] = float((ratio < CELL_FADED).mean())
    s[S["style_symbols"]] = style == "symbols"
    s[S["style_mixed"]] = style == "mixed"
    s[S["sym_disagree"]] = sym_bad / max(sym_n, 1)
    s[S["pal_disagree"]] = pal_bad / nf
    s[S["legend_squares"]] = legend_squares / 5
    for name in ("no_markers", "lattice", "markers_missing", "orientation_unsure", "grid_unmeasured", "blur_cells",
                 "residual"):
        s[S[name]] = float(context.get(name, 0.0))
    return calibrate.Evidence(X, s, use, filled, path, group=calibrate.group_index(infos))


def _taught_by_neighbours(a: CellArrays, groups: list[Group], naming, names: dict[int, str]) -> dict[int, str]:
    """Unsure groups that look like a group the player named take that name (one tap names look-alikes too).

    A symbol drawn in a ruins cell, or a little bigger, may land in a group of its own; it is still far closer
    to its named twin than to any other named group.
    """
    given = [k for k, g in enumerate(groups) if names.get(g.id) in DRAWABLE]
    if not given:
        return {}
    d = distances(a)
    out = {}
    for k, g in enumerate(groups):
        if k in given or naming.confidence(k) >= 0.7 or g.id in names:
            continue
        by_name: dict[str, float] = {}
        for j in given:
            dist = float(d[np.ix_(g.rows, groups[j].rows)].mean())
            t = names[groups[j].id]
            by_name[t] = min(by_name.get(t, np.inf), dist)
        ranked = sorted(by_name.items(), key=lambda kv: kv[1])
        best, dist = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else np.inf
        if dist < TAUGHT_NEAR and dist < TAUGHT_MARGIN * second:
            out[k] = best
    return out



def washed_caps(ratio: np.ndarray) -> np.ndarray:
    """11×11 highest confidence per cell by how faded its printed outline is (1 where it is intact)."""
    return np.minimum(glare_confidence_cap(ratio), 1.0).astype(float)


def glare_caps(ratio: np.ndarray, boxes, warnings: list[Note]) -> np.ndarray:
    """11×11 highest confidence per cell under glare: washed-out cells by how faded their printed outline is
    (`washed_caps`), their neighbours at 0.5 (a highlight's halo upsets the light estimate around it)."""
    cap = washed_caps(ratio)
    washed = {k for k in boxes if ratio[k] < CELL_FADED}
    halo = {(r + dr, c + dc) for r, c in washed for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - washed
    for k in halo:
        if k in boxes:
            cap[k] = min(cap[k], 0.5)
    if washed:
        warnings.append(Note.of("glare", n=len(washed)))
    return cap
