"""Stage 2c: side and orientation of a grid found without markers, and the homography onto our page layout.

Why several cues: side B's mountains and wastelands fix all four turns, but side
A's mountains and ruins are symmetric under a half turn, and on generic prints,
hand-ruled and squared paper the mountains are the player's own drawing. So every
(side, turn) hypothesis is scored by the printed features (the mountains' and
wastelands' likeness and darkness), the text around the grid (`vision.upright`:
title, labels, row letters, column numbers, read by a small glyph model), the
mountains' peaks (a mountain, printed or drawn, points up) and the margins (a
periodic row of coin circles or labels below and left of the grid). When the best
turn does not lead every other turn by `SURE_LEAD`, the reading says so
(`orientation_unsure`) and the review asks the player instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.cartographers.data import GRID_SIZE, MAPS
from printables.layout import sheet_layout
from vision.anchors import placed
from vision.lattice import EVIDENCE_ALONE, Lattice, ink_map, line_points, overrules, segment_evidence, segment_strengths
from vision.pagecues import Extents, PaperCues, page_frame, turn_scores
from vision.symbolup import symbol_votes
from vision.upright import TEXT_CELL, TEXT_PAD, TextVotes, darkness, frame_paper, peak_cue, text_frame, text_votes
from vision.wayup import UNSCORED

FRAME_CELL = 24  # pixels per cell in the grid frame
FRAME_PAD = 5  # cells of margin around the grid in the grid frame (our coin track is 3.6–4.1 cells below)
TEXT_WEIGHT = 0.03  # printed-feature score per unit of the text's log-odds (vision.upright)
TEXT_CAP = 20.0  # the text never outweighs more than this many log units
MARGIN_WEIGHT = 1.0  # printed-feature score per unit of the margin cue (periodic power share)
COLOUR_WEIGHT = 0.1  # printed-feature score per unit of the mountains' likeness in colour (`colour_likeness`)
PEAK_WEIGHT = 0.3  # printed-feature score per unit of the mountains' peak direction (vision.upright)
SYMBOL_WEIGHT = 0.03  # score per unit of the drawn symbols' log-odds (vision.symbolup), as the text's
SYMBOL_CAP = 20.0  # the symbols never outweigh more than this many log units
OVERSHOOT = 0.35  # cells past the grid's edge where the margins' rows begin (`margin_cue`)
ON_PAGE = 0.9  # share of a margin row on the page for its periodic detail to count (`periodic_power`)
# Total-score lead over every other turn that settles the way up; less and the review asks. 0.2 since session 12
# (was 0.15): on three development sets (photogen2/photogen3 seeds 50,000.., 60,000.., 61,000.., 936 photos) three
# hand-ruled and squared sheets were read turned without asking at leads of 0.16–0.19 (81–86 cells wrong each);
# at 0.2 they are asked, for 5 more questions on sheets read the right way up and no other reading changed.
SURE_LEAD = 0.2
# A quarter turn read wrong turns every cell AND puts the side's printed cells elsewhere: the lead over the two
# quarter-turned rivals must be larger before the reader goes without asking.
SURE_LEAD_QUARTER = 0.5
# ... and when the paper (vision.pagecues) and the rest (printed features, text, peaks, margins) disagree about a
# quarter turn by more than this, one of them is wrong, and the reader cannot tell which: it asks.
DISAGREE = 0.15
# ... and when the text (vision.upright) and everything else point opposite ways about the half turn, the lead
# needed grows by this share of the weaker side of the quarrel (`text_quarrel`). The glyphs' votes are summed as if
# independent, but a script the glyph model never learned (the Russian pad's Cyrillic) or one blur misleads them
# all alike, and a confident text can then outvote the printed peaks and the margins by a little. Set from
# development photos (session 13, `bench/README.md`).
TEXT_CONFLICT = 0.5
RULINGS_WEIGHT = 0.25  # score per unit of the notebook rulings' direction (vision.pagecues)
MARGIN_LINE_WEIGHT = 0.2  # score per unit of the margin line at the left
PAGE_WEIGHT = 0.2  # score per unit of the page outline (portrait, grid near the top)
# z-score of the mountains' mutual likeness (against random sets of 5 cells) a lattice needs to be taken for
# a Cartographers map: brick walls, tiles, squared paper and score tables are lattices too.
MIN_CONFIRM = 3.5


@dataclass(frozen=True)
class Orientation:
    """The lattice's reading: `k` quarter turns (np.rot90) put the lattice's cells upright."""

    side: str
    k: int
    score: float  # printed-feature score of the chosen hypothesis
    confirm: float  # z-score of the mountains' mutual similarity against random cell sets
    unsure: bool  # way up undecided: the review asks "Is this the top of your sheet?"
    side_unsure: bool
    margin_lead: float  # total-score lead of the chosen (side, turn) over the best hypothesis with another turn
    text: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)  # the text's log-odds per turn (vision.upright), max 0
    glyphs: int = 0
    turn_totals: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)  # best total score per turn k (lattice order)
    # the cues alone left the way up undecided, so the player was asked (also once answered: `imposed`)
    asked: bool = False
    # total-score lead of the chosen side over the best hypothesis of the other side (inf: the side was given)
    side_lead: float = float("inf")

    def choices(self) -> list[int]:
        """Quarter turns clockwise to apply to this reading, most likely first (0 = as read), for the ask."""
        order = sorted(range(4), key=lambda j: -self.turn_totals[j])
        return [(self.k - j) % 4 for j in order]

    def leads(self) -> tuple[float, float, float, float]:
        """For each K = 0..3 quarter turns clockwise from this reading: how far the chosen way up leads it in total
        score (0 for K = 0; `UNSCORED` for a turn that was not scored, e.g. when the way up was imposed).

        The evidence `vision.wayup` turns into the chance that the reading, not the reading turned K, is upright.
        """
        best = self.turn_totals[self.k]
        out = []
        for K in range(4):
            j = (self.k - K) % 4
            v = self.turn_totals[j]
            out.append(0.0 if K == 0 else (UNSCORED if v <= -UNSCORED else float(best - v)))
        return tuple(out)


def grid_frame(image: np.ndarray, H: np.ndarray, cell: int = FRAME_CELL, pad: int = FRAME_PAD) -> np.ndarray:
    """The grid and `pad` cells around it, straightened (lattice order), `cell` px per cell."""
    T = np.array([[1 / cell, 0, -pad], [0, 1 / cell, -pad], [0, 0, 1]])
    size = (GRID_SIZE + 2 * pad) * cell
    return cv2.warpPerspective(image, H @ T, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def cell_blocks(frame: np.ndarray, cell: int = FRAME_CELL, pad: int = FRAME_PAD, m: int = 3) -> np.ndarray:
    """(11, 11, cell − 2m, cell − 2m, …) view of the grid frame's cells, each less `m` px a side (no copy)."""
    g0, n = pad * cell, GRID_SIZE * cell
    blocks = frame[g0 : g0 + n, g0 : g0 + n].reshape(GRID_SIZE, cell, GRID_SIZE, cell, *frame.shape[2:])
    return blocks[:, m : cell - m, :, m : cell - m].swapaxes(1, 2)


def cell_patches(frame_gray: np.ndarray, cell: int = FRAME_CELL, pad: int = FRAME_PAD) -> np.ndarray:
    return np.ascontiguousarray(cell_blocks(frame_gray, cell, pad), np.float32)  # C order, as cell by cell


def similarity_matrix(patches: np.ndarray) -> np.ndarray:
    """121×121 normalised cross-correlation of the cell patches (flattened in row-major order)."""
    flat = patches.reshape(GRID_SIZE * GRID_SIZE, -1).astype(np.float64)
    flat = flat - flat.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(flat, axis=1)
    unit = flat / np.maximum(norms, 1e-6)[:, None]
    sim = unit @ unit.T
    sim[norms < 1e-3 * flat.shape[1]] = 0.0
    sim[:, norms < 1e-3 * flat.shape[1]] = 0.0
    return sim


def colour_distances(frame: np.ndarray, cell: int = FRAME_CELL, pad: int = FRAME_PAD) -> np.ndarray:
    """121×121 distances of the cells' mean colours (Lab, lightness halved), over the median distance.

    Drawn mountains (home-made sheets, hatched in one brown or grey pencil) are alike in colour even where
    their strokes are not: grey cross-correlation of hatching is mostly the noise of the strokes.
    """
    if frame.ndim != 3:
        return np.ones((GRID_SIZE * GRID_SIZE,) * 2)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab).astype(np.float32)
    # each cell's pixels in row-major order, one row of pixels per cell: the mean adds them in the same order
    # as a cell at a time did (a reduction over a non-last axis adds row after row), to the bit
    px = cell_blocks(lab, cell, pad).reshape(GRID_SIZE * GRID_SIZE, -1, 3)
    cols = px.mean(axis=1)
    cols[:, 0] *= 0.5
    d = np.linalg.norm(cols[:, None, :] - cols[None, :, :], axis=2)
    return d / max(float(np.median(d)), 1.0)


def colour_likeness(tone: np.ndarray, idx: np.ndarray) -> float:
    """1 − the mean colour distance within a set of cells (≈ 0 for random cells, up to 1 for one colour)."""
    n = len(idx)
    sub = tone[np.ix_(idx, idx)]
    return float(1.0 - sub.sum() / (n * (n - 1)))


def set_similarity(sim: np.ndarray, idx: np.ndarray) -> float:
    """The mean similarity (in `sim`) between the distinct cells of `idx`."""
    sub = sim[np.ix_(idx, idx)]
    n = len(idx)
    return float((sub.sum() - np.trace(sub)) / (n * (n - 1)))


def set_similarity_many(sim: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """`set_similarity` of each row of `sets` (cell index sets of one size), all in one batch."""
    n = sets.shape[1]
    sub = sim[sets[:, :, None], sets[:, None, :]]
    return (sub.reshape(len(sets), -1).sum(axis=1) - np.trace(sub, axis1=1, axis2=2)) / (n * (n - 1))


@lru_cache(maxsize=1)
def random_cell_sets() -> tuple[np.ndarray, np.ndarray]:
    """The random cell sets `orient_lattice` compares the mountains with: 150 sets of 5 cells, then 60 of as many
    cells as a side has wastelands, drawn in that order from `default_rng(0)` (the same on every call, so drawn
    once; read-only)."""
    rng = np.random.default_rng(0)
    sets5 = np.stack([rng.choice(121, 5, replace=False) for _ in range(150)])
    n_waste = max(len(m.wastelands) for m in MAPS.values())
    waste = np.stack([rng.choice(121, n_waste, replace=False) for _ in range(60)])
    for a in (sets5, waste):
        a.setflags(write=False)
    return sets5, waste


def _rot_index(k: int) -> np.ndarray:
    """upright (r, c) → flat lattice cell index, for the lattice turned by k quarter turns (np.rot90)."""
    return np.rot90(np.arange(GRID_SIZE * GRID_SIZE).reshape(GRID_SIZE, GRID_SIZE), k)


def periodic_power(band: np.ndarray, cell: int = FRAME_CELL, page: np.ndarray | None = None) -> float:
    """Largest share of a row's detail power at periods of 0.55–1.1 cell (coin circles, row/column labels).

    `page` (bool, the band's shape): only rows nearly all on the page count. Past the page's edge a striped
    table top or cloth is as periodic as a coin track, on whichever side of the grid the page happens to end.
    """
    d = band.astype(np.float32)
    d = cv2.blur(d, (1, 3))
    d = d - d.mean(axis=1, keepdims=True)
    spec = np.abs(np.fft.rfft(d, axis=1)) ** 2
    n = d.shape[1]
    freqs = np.arange(spec.shape[1]) * cell / n  # cycles per cell
    sel = (freqs >= 1 / 1.1) & (freqs <= 1 / 0.55)
    total = spec[:, 1:].sum(axis=1) + 1e-6
    share = spec[:, sel].max(axis=1) / total * (total > 1e-2 * total.max())
    if page is not None:
        share = share * (page.mean(axis=1) >= ON_PAGE)
    return float(share.max()) if len(share) else 0.0


def margin_darkness(frame: np.ndarray) -> np.ndarray:
    """Darkness 0..1 of the grid frame against its bright paper (95th percentile), for `margin_cue`."""
    if frame.ndim == 3:
        b, g, r = cv2.split(frame)
        low = cv2.min(cv2.min(b, g), r)  # the darkest channel (exact, and faster than numpy's min over an axis)
    else:
        low = frame
    return 1.0 - low.astype(np.float32) / max(float(np.percentile(frame, 95)), 1.0)


def standing_out(dark: np.ndarray, mask: np.ndarray) -> float:
    """How far the cells of `mask` stand out from the rest in darkness, either way, less their own spread.

    Mountains are darker than the rest on a sparse map (a printed or drawn peak among empty cells) but lighter on
    a full one (a white cell with a peak drawn in it among the fills); and the five are drawn alike, so about
    equally dark. The darker-only contrast read a full hand-ruled map of side A as side B turned, sure of it. On
    the development photos (both generators, 389 sheets without markers) this took the sheets read on the wrong
    side or turned without asking 13 → 8 and the sheets asked 71 → 60; on the full maps among them 10 → 4, on
    the sparse ones (over 50 empty cells) 2 → 3: thin drawn peaks among empty cells stay hard.
    """
    cells = dark[mask]
    return abs(float(cells.mean() - np.median(dark[~mask]))) - float(cells.std())


def printed_like_many(sim: np.ndarray, dark: np.ndarray, med_dark: float, sets: np.ndarray) -> np.ndarray:
    """For each row of `sets` (cell index sets, one size): the mutual likeness of its cells (`set_similarity`)
    plus how much darker they are than the median cell, all sets in one batch."""
    n = sets.shape[1]
    sub = sim[sets[:, :, None], sets[:, None, :]]
    mutual = (sub.reshape(len(sets), -1).sum(axis=1) - np.trace(sub, axis1=1, axis2=2)) / (n * (n - 1))
    return mutual + (dark[sets].mean(axis=1) - med_dark)


def page_mask(shape: tuple[int, ...], extents: Extents | None, cell: int = FRAME_CELL,
              pad: int = FRAME_PAD) -> np.ndarray | None:
    """The page in the grid frame: the rectangle the paper reaches from the grid's edges (`vision.pagecues.Extents`),
    None when unknown. A crude outline, but the margins' rows need only know where the page has ended."""
    if extents is None:
        return None
    g0, g1 = pad * cell, (pad + GRID_SIZE) * cell
    on = np.zeros(shape[:2], bool)
    on[max(0, int(g0 - extents.above * cell)) : int(g1 + extents.below * cell) + 1,
       max(0, int(g0 - extents.left * cell)) : int(g1 + extents.right * cell) + 1] = True
    return on


def margin_cue(frame_dark: np.ndarray, k: int, cell: int = FRAME_CELL, pad: int = FRAME_PAD,
               page: np.ndarray | None = None) -> float:
    """How much more the bottom and left margins (after k quarter turns) carry a periodic row than top/right.

    `page`: the page in the frame (`page_mask`); rows off it do not count (`periodic_power`)."""
    g0, g1 = pad * cell, (pad + GRID_SIZE) * cell
    # from OVERSHOOT on: a hand-ruled grid's lines run on past its edge, a row periodic at one cell on any side
    near, far = int(OVERSHOOT * cell), int(4.6 * cell)

    def bands(a: np.ndarray) -> tuple[np.ndarray, ...]:
        f = np.rot90(a, k)
        return (f[g1 + near : g1 + far, g0:g1], f[g0 - far : g0 - near, g0:g1][::-1],
                f[g0:g1, g0 - far : g0 - near].T, f[g0:g1, g1 + near : g1 + far].T)

    on = bands(page) if page is not None else (None,) * 4
    bottom, top, left, right = (periodic_power(b, cell, p) for b, p in zip(bands(frame_dark), on, strict=True))
    return (bottom - top) + 0.5 * (left - right)


def orient_lattice(image: np.ndarray, lattice: Lattice, side_hint: str | None = None, text: bool = True,
                   turn: int | None = None) -> Orientation:
    """The best (side, turn) for a lattice from the printed mountains (and wastelands), the text, the margins
    and the paper (vision.pagecues).

    `text=False` leaves the text, the margins and the paper out (cheaper: for ranking candidate lattices, whose
    confirmation is the same; its way up is then the printed features' alone). `turn` (k, lattice order) imposes
    the way up: only the side is decided then, and it is sure.
    """
    frame = grid_frame(image, lattice.homography)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    patches = cell_patches(gray)
    sim = similarity_matrix(patches)
    ref = float(np.percentile(patches, 95))
    dark = (1 - patches.mean(axis=(2, 3)) / max(ref, 1)).ravel()
    med_dark = float(np.median(dark))
    tone = colour_distances(frame)

    def printed_like(idx: np.ndarray) -> float:
        """Mutual likeness of a set of cells plus how much darker they are than the rest."""
        return set_similarity(sim, idx) + float(dark[idx].mean() - med_dark)

    sets5, waste_sets = random_cell_sets()
    rand = printed_like_many(sim, dark, med_dark, sets5)
    mu, sd = float(rand.mean()), float(rand.std() + 1e-3)
    # A side without wastelands scores what any cells would there (the mutual likeness of random sets of as
    # many cells): a constant would outweigh wastelands the player drew or left out (home-made sheets).
    rand_waste = float(np.mean(set_similarity_many(sim, waste_sets)))
    hyps = []
    for k in range(4):
        idx = _rot_index(k)
        for side in ("A", "B"):
            if side_hint and side != side_hint:
                continue
            m = MAPS[side]
            mnt = np.array([idx[r, c] for r, c in m.mountains])
            mask = np.zeros(121, bool)
            mask[mnt] = True
            s_m = set_similarity(sim, mnt)
            score = s_m + standing_out(dark, mask) + COLOUR_WEIGHT * colour_likeness(tone, mnt)
            if m.wastelands:
                score += 0.5 * set_similarity(sim, np.array([idx[r, c] for r, c in m.wastelands]))
            else:
                score += 0.5 * rand_waste
            ruins = np.array([idx[r, c] for r, c in m.ruins])
            score += 0.2 * set_similarity(sim, ruins)
            hyps.append((score, side, k, (printed_like(mnt) - mu) / sd))
    tframe = text_frame(image, lattice.homography) if text else None
    # the text votes and the paper cues read the same darkness and paper of the text frame: worked out once
    tdark, tpaper = (darkness(tframe), frame_paper(tframe)) if tframe is not None else (None, None)
    # The margins weigh only the way up: the candidate ranking (`text=False`) uses the confirmation alone.
    paper = paper_cues(image, lattice, tframe, tdark, tpaper)
    votes = (text_votes(tframe, dark=tdark, paper=tpaper, squared=paper.squared) if tframe is not None
             else TextVotes(np.zeros(4), 0))
    # On squared paper every margin is a periodic row: the coin track's cue would only weigh where the page ends.
    if text and not paper.squared:
        mdark = margin_darkness(frame)  # the same darkness and page for the four turns: worked out once
        on_page = page_mask(mdark.shape, paper.extents)
        margins = [margin_cue(mdark, k, page=on_page) for k in range(4)]
    else:
        margins = [0.0] * 4
    paper_total = paper.total(RULINGS_WEIGHT, MARGIN_LINE_WEIGHT, PAGE_WEIGHT)

    def peaks(side: str, k: int) -> float:
        if tframe is None:
            return 0.0
        idx = _rot_index(k)
        return peak_cue(tframe, [divmod(int(idx[r, c]), GRID_SIZE) for r, c in MAPS[side].mountains], k)

    peak = {(side, k): peaks(side, k) for _, side, k, _ in hyps}
    text_part = text_share(votes)
    base = [h[0] + float(text_part[h[2]]) + MARGIN_WEIGHT * margins[h[2]]
            + PEAK_WEIGHT * peak[(h[1], h[2])] + float(paper_total[h[2]]) for h in hyps]
    # The player's own drawing, upright as they sat: only worth it when the way up is still to be decided, and
    # only looked at when its vote could still change the decision (`symbols_matter`).
    drawn = TextVotes(np.zeros(4), 0)
    if text and turn is None:
        base_turn = [max((b for b, h in zip(base, hyps, strict=True) if h[2] == j), default=-UNSCORED)
                     for j in range(4)]
        if symbols_matter(base_turn, paper_total, paper.squared, text_part):
            drawn = symbol_votes(image, lattice.points)
    total = [(b + SYMBOL_WEIGHT * max(float(drawn.log_odds[h[2]]), -SYMBOL_CAP), h)
             for b, h in zip(base, hyps, strict=True)]
    if turn is not None:  # the player said which edge is the top: only that turn competes (for the side)
        total = [t for t in total if t[1][2] == turn]
    total.sort(key=lambda t: -t[0])
    best, (score, side, k, _) = total[0]
    z = max(h[3] for h in hyps)  # the lattice's confirmation by the printed features, whichever way up
    per_turn = [max((t[0] for t in total if t[1][2] == j), default=-UNSCORED) for j in range(4)]
    rivals = [(best - per_turn[j], j) for j in range(4) if j != k and per_turn[j] > -UNSCORED]
    lead = min((d for d, _ in rivals), default=1.0)
    rest = [per_turn[j] - float(paper_total[j]) for j in range(4)]
    disagree = any(max(float(paper_total[j] - paper_total[k]), rest[j] - rest[k]) > DISAGREE
                   for j in ((k + 1) % 4, (k + 3) % 4) if per_turn[j] > -UNSCORED)
    # On squared paper nothing corroborates the page's outline (no rulings, no margin line: a loose squared sheet
    # has no top of its own, and its grid may lie anywhere on it), so the page alone never settles a half turn.
    half = (k + 2) % 4
    if paper.squared and per_turn[half] > -UNSCORED and rest[k] - rest[half] < SURE_LEAD:
        disagree = True
    quarrel = text_quarrel(per_turn, text_part, k)  # only ever about the half turn
    short = any(d < needed_lead(k, j, quarrel if j == half else 0.0) for d, j in rivals)
    unsure = turn is None and (short or disagree)
    others = [h[0] for h in hyps if h[1] != side]
    side_unsure = side_hint is None and bool(others) and score - max(others) < 0.05
    other_totals = [t for t, h in total if h[1] != side]
    side_lead = best - max(other_totals) if side_hint is None and other_totals else float("inf")
    return Orientation(side, k, float(score), float(z), unsure, side_unsure, float(lead),
                       tuple(float(v) for v in votes.log_odds), votes.glyphs, tuple(float(v) for v in per_turn),
                       side_lead=float(side_lead))


def text_share(votes: TextVotes) -> np.ndarray:
    """Each turn's score from the text (as `orient_lattice` adds it): the log-odds, weighed and capped."""
    return TEXT_WEIGHT * np.maximum(np.asarray(votes.log_odds, float), -TEXT_CAP)


def _half_turn_leads(per_turn: list[float], text: np.ndarray, k: int) -> tuple[float, float] | None:
    """The text's lead and the rest's lead of turn k over its half turn (None when the half turn was not scored)."""
    j = (k + 2) % 4
    if per_turn[j] <= -UNSCORED:
        return None
    return float(text[k] - text[j]), (per_turn[k] - float(text[k])) - (per_turn[j] - float(text[j]))


def text_quarrel(per_turn: list[float], text: np.ndarray, k: int) -> float:
    """How strongly the text and everything else quarrel about turn k against its half turn: the smaller of the
    two leads when they point opposite ways, else 0 (and 0 when the half turn was not scored).

    Only the half turn: it is the rival a misread script points to (its letters taken for turned ones), and the
    one side A's printed cells cannot tell from the right way up; a quarter turn already needs `SURE_LEAD_QUARTER`.
    """
    leads = _half_turn_leads(per_turn, text, k)
    if leads is None:
        return 0.0
    t, rest = leads
    return min(abs(t), abs(rest)) if t * rest < 0 else 0.0


def needed_lead(k: int, j: int, conflict: float = 0.0) -> float:
    """The total-score lead of turn k over turn j that settles the way up without asking."""
    return (SURE_LEAD if (j - k) % 2 == 0 else SURE_LEAD_QUARTER) + TEXT_CONFLICT * conflict


def symbols_matter(per_turn: list[float], paper_total: np.ndarray, squared: bool,
                   text: np.ndarray | None = None) -> bool:
    """Could the drawn symbols' vote still change what `orient_lattice` decides (the turn, and whether it asks)?

    `per_turn`: each turn's best total without that vote (`-UNSCORED` for a turn not scored); `paper_total`: the
    paper's share of it. The vote adds at most `SYMBOL_WEIGHT · SYMBOL_CAP` to a turn's total, and never
    more than 0 (log-odds are at most 0). When the best turn leads every rival by that span plus the lead that
    settles the way up, and neither the paper nor the rest could disagree about a quarter turn however the
    symbols voted, the decision is the same with or without them: a sure way up is read without looking at them.
    """
    span = SYMBOL_WEIGHT * SYMBOL_CAP + 1e-9
    scored = [j for j in range(4) if per_turn[j] > -UNSCORED]
    k = max(scored, key=lambda j: per_turn[j])
    rest = [per_turn[j] - float(paper_total[j]) for j in range(4)]
    for j in scored:
        if j == k:
            continue
        quarter = (j - k) % 2 == 1
        bound = _quarrel_bound(per_turn, text, k, span) if not quarter else 0.0
        if per_turn[k] - per_turn[j] < span + needed_lead(k, j, bound):
            return True
        if quarter and (float(paper_total[j] - paper_total[k]) > DISAGREE or rest[j] - rest[k] + span > DISAGREE):
            return True
        if not quarter and squared and rest[k] - rest[j] - span < SURE_LEAD:
            return True
    return False


def _quarrel_bound(per_turn: list[float], text: np.ndarray | None, k: int, span: float) -> float:
    """The largest `text_quarrel` for k that the symbols' vote (at most `span` either way on the rest's lead over
    the half turn) could bring about."""
    leads = None if text is None else _half_turn_leads(per_turn, text, k)
    if leads is None:
        return 0.0
    t, rest = leads
    if t > 0:
        return min(t, span - rest) if rest - span < 0 else 0.0
    return min(-t, rest + span) if rest + span > 0 else 0.0


def paper_cues(image: np.ndarray, lattice: Lattice, tframe: np.ndarray | None, dark: np.ndarray | None = None,
               keep: np.ndarray | None = None) -> PaperCues:
    """The home-made sheet's paper (rulings, margin line, page outline) on the four turns; zeros without text.

    `dark` / `keep`: the text frame's `darkness` and `frame_paper` when the caller has them (else worked out)."""
    if tframe is None:
        return PaperCues(np.zeros(4), np.zeros(4), np.zeros(4))
    keep = frame_paper(tframe) if keep is None else keep
    dark = darkness(tframe) if dark is None else dark
    return turn_scores(dark, keep, TEXT_CELL, TEXT_PAD, page_frame(image, lattice.homography))


def page_homography(lattice: Lattice, side: str, k: int, paper: str = "a4") -> np.ndarray:
    """Page points of our layout → image pixels, placing our grid on the lattice turned upright by k."""
    idx = _rot_index(k)
    g = sheet_layout(side, paper).grid
    src, dst = [], []
    for r, c in ((0, 0), (0, GRID_SIZE - 1), (GRID_SIZE - 1, GRID_SIZE - 1), (GRID_SIZE - 1, 0)):
        i, j = divmod(int(idx[r, c]), GRID_SIZE)
        src.append((g.x_pt + (c + 0.5) * g.cell_pt, g.y_pt + (r + 0.5) * g.cell_pt))
        dst.append((j + 0.5, i + 0.5))
    A = cv2.getPerspectiveTransform(np.float32(src), np.float32(dst)).astype(np.float64)
    return lattice.homography @ A


def upright_centres(lattice: Lattice, k: int) -> np.ndarray:
    """11×11×2 measured cell centres (pixels) in the sheet's upright row/column order."""
    c = lattice.cell_centres().reshape(GRID_SIZE * GRID_SIZE, 2)
    return c[_rot_index(k)]


def imposed(image: np.ndarray, lat: Lattice, side_hint: str | None, quarter_turns: int | None) -> Orientation:
    """The lattice oriented with every cue, then turned `quarter_turns` clockwise more when the player says so.

    `quarter_turns` (0..3) is the player's answer to "Which edge is the top of your sheet?" relative to the
    reading they were shown; the reading's cells are upright after np.rot90(…, k), so turning it clockwise
    by K more is k - K. Only the side is decided again for that way up, and the way up is sure: the player
    said so (0 included: "yes, this is the top"). None: no answer, the cues decide (and may stay unsure).
    """
    o = orient_lattice(image, lat, side_hint)
    if quarter_turns is None:
        return replace(o, asked=o.unsure)
    if quarter_turns % 4 == 0:
        return replace(o, unsure=False, asked=o.unsure)  # the same (side, turn): only its doubt goes
    return replace(orient_lattice(image, lat, side_hint, turn=(o.k - quarter_turns) % 4), asked=o.unsure)


def turn_of_down(lat: Lattice, down: np.ndarray) -> int | None:
    """The lattice turn k (np.rot90) whose upright rows run down the photo along `down` (image x, y), or None
    when no turn is clearly the one (`down` at 45° to the grid, or degenerate).

    A corner marker's own corner order says where the sheet's top is in the photo (its left edge runs from
    its top-left to its bottom-left corner, i.e. down the page), whatever part of the sheet is in frame.
    """
    d = np.asarray(down, float)
    n = float(np.linalg.norm(d))
    if n < 1e-6:
        return None
    d = d / n
    cos = []
    for k in range(4):
        c = upright_centres(lat, k)
        v = (c[-1] - c[0]).mean(axis=0)  # last upright row minus the first: down the sheet in the photo
        cos.append(float(v @ d / max(float(np.linalg.norm(v)), 1e-6)))
    k = int(np.argmax(cos))
    return k if cos[k] > 0.8 else None


def location_notes(o: Orientation) -> list:
    from vision.messages import Note

    out = []
    if o.unsure:
        out.append(Note.of("orientation_unsure"))
    if o.side_unsure:
        out.append(Note.of("side_unsure"))
    out.append(Note.of("unmarked"))
    return out


MARKER_AGREE = 0.4  # cells: a seen corner marker this close to where a lattice puts it agrees with that lattice


def marker_error(lat: Lattice, side: str, k: int, markers: dict[int, np.ndarray], paper: str = "a4") -> float:
    """How far (cells, the worst marker) the corner markers seen lie from where our layout puts them on the
    sheet whose grid is the lattice `lat` turned upright by `k`; inf when none of them belongs to `side`.

    Why: each of our markers sits at a fixed place beside the grid (two thirds of a cell off its corner), so a
    lattice a column or a row off the grid (a curled page, the column numbers taken for a line) puts the
    marker a cell away from where it is, while the true grid puts it within a fraction of a cell even on a
    bent page. One marker is enough to tell them apart.
    """
    layout = sheet_layout(side, paper)
    H = page_homography(lat, side, k, paper)
    cell = lat.cell_px()
    errs = []
    for m in layout.markers:
        if m.id not in markers:
            continue
        centre = np.array([[[m.x_pt + m.size_pt / 2, m.y_pt + m.size_pt / 2]]])
        pred = cv2.perspectiveTransform(centre, H)[0, 0]
        errs.append(float(np.linalg.norm(pred - np.asarray(markers[m.id], float).mean(axis=0))) / max(cell, 1e-6))
    return max(errs) if errs else float("inf")


def locate_by_lattice(image: np.ndarray, side_hint: str | None = None, quarter_turns: int | None = None,
                      down: np.ndarray | None = None, markers: dict[int, np.ndarray] | None = None):
    """A `SheetLocation` for a sheet without (enough) markers, from its lattice; None when there is no grid.

    Each of the few best lattices is oriented; the one the printed features confirm best wins. A lattice
    that is weak on its own is accepted only when the side's mountains confirm it. `quarter_turns` turns
    the reading clockwise by that many quarter turns (the player's answer to the ask, see `imposed`; None =
    not answered). `down` (image x, y: the way down the page, from one or two corner markers seen) fixes the
    way up outright: the markers know it, the player need not be asked. `markers` (id → 4×2 corners, those
    seen of side `side_hint`, with `down`): of the accepted lattices, those that put the markers where they are
    (`marker_error` within `MARKER_AGREE`) are preferred, whatever their rank.
    """
    from vision.lattice import find_lattices, lattice_accepted, lattice_rank, may_be_accepted, remeasure
    from vision.locate import SheetLocation
    from vision.messages import Note

    for wide in (False, True):  # a second, wider look only when the first finds no grid (`find_lattices`)
        best = None
        seen = []
        for lat in find_lattices(image, keep=4, wide=wide):
            if not may_be_accepted(lat):
                continue  # refused whatever the mountains say: not worth orienting
            o = orient_lattice(image, lat, side_hint, text=False)
            seen.append((lat, o.confirm))
            if not lattice_accepted(lat, o.confirm, MIN_CONFIRM):
                continue
            rank = (markers_agree(lat, side_hint, down, markers), lattice_rank(lat, o.confirm))
            if best is None or rank > best[0]:
                best = (rank, lat, o)
        if best is not None:
            break
    if best is None:
        return None
    lat = lattice_to_read(best[1], best[2].confirm, best[0][0], seen)
    if not best[0][0]:  # the corner markers seen did not place it: the printed mountains may move it a cell
        lat = cell_off(image, lat, side_hint, next((c for s, c in seen if s is lat), best[2].confirm))
    lat = remeasure(image, lat)
    k_markers = turn_of_down(lat, down) if down is not None else None
    if k_markers is not None:
        o = orient_lattice(image, lat, side_hint, turn=k_markers)
    else:
        o = imposed(image, lat, side_hint, quarter_turns)
    lat = placed(image, lat, o.side, o.k)  # the pad's printed mountain squares, where its lines led it off
    warnings: list[Note] = location_notes(o)
    H = page_homography(lat, o.side, o.k)
    return SheetLocation(o.side, H, "border", {}, warnings, 0.0, cell_centres=upright_centres(lat, o.k),
                         orientation_unsure=o.unsure, orientation_asked=o.asked,
                         orientation_choices=o.choices(),
                         orientation_leads=o.leads(), side_lead=o.side_lead)


CELL_SHIFTS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def shifted_lattice(lat: Lattice, dx: int, dy: int) -> Lattice:
    """The lattice moved `dx` columns and `dy` rows (grid units), its points where its homography puts them."""
    H = lat.homography @ np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]])
    return Lattice(H, line_points(H), lat.score, lat.evidence, lat.from_layout)


def cell_off(image: np.ndarray, lat: Lattice, side_hint: str | None, confirm: float) -> Lattice:
    """The lattice, or the lattice one cell over when the side's printed mountains say the grid is there.

    The lines' own search (`vision.lattice.shift_search`) can take a line of a decorated frame for the grid's
    first and leave its last out: a whole grid one cell off, every cell read from its neighbour (the pad
    look-alike, 32 silent cells on one development sheet). The printed mountains fall on the side's mountain
    cells only where the grid really is: a lattice one cell over whose mountains overrule this one's
    (`vision.lattice.overrules`, the thresholds `settle_dispute` holds rivals to, with `MIN_CONFIRM`) wins.
    A sheet with no printed mountains confirms no shift and keeps its lines.

    Lines that alone make the lattice the grid (segment evidence ≥ `EVIDENCE_ALONE`: 12 + 12 lines inside,
    stopping at its edge) are not overruled by the mountains unless the lattice one cell over is a grid by its
    lines too (`lines_allow_shift`): a home-made grid's mountains are the player's own small peaks among dark
    fills, whose likeness a row over can beat theirs by chance. On 456 development photos the mountains moved
    five lattices: one pad scan whose faint dashes agreed with the move (evidence −0.08 → 0.74) and four ruled
    or printed grids moved a cell off, every cell read from its neighbour (evidence 0.55–0.82 → −0.19–0.15).
    """
    h, w = image.shape[:2]
    best, best_z = lat, confirm
    segs = None
    for dx, dy in CELL_SHIFTS:
        moved = shifted_lattice(lat, dx, dy)
        x, y = moved.points[..., 0], moved.points[..., 1]
        if x.min() < 0 or y.min() < 0 or x.max() >= w or y.max() >= h:
            continue
        z = orient_lattice(image, moved, side_hint, text=False).confirm
        if not (overrules(z, confirm, MIN_CONFIRM) and z > best_z):
            continue
        if segs is None:  # measured once, and only when the mountains would move the lattice (rare)
            segs = segment_strengths(ink_map(image), lat.homography)
        if lines_allow_shift(segs, dx, dy):
            best, best_z = moved, z
    return best


def lines_allow_shift(segs: tuple[np.ndarray, ...], dx: int, dy: int) -> bool:
    """May the printed mountains move a lattice whose segments are `segs` by (dx, dy) cells? Yes unless its lines
    alone make it the grid (`EVIDENCE_ALONE`) and the lines one cell over do not."""
    return segment_evidence(segs) < EVIDENCE_ALONE or segment_evidence(segs, dx, dy) >= EVIDENCE_ALONE


def lattice_to_read(chosen: Lattice, confirm: float, by_markers: bool, seen: list[tuple[Lattice, float]]) -> Lattice:
    """The lines' choice against the printed mountains' word (`settle_dispute` over the lattices `seen`, each
    with its confirmation), unless the corner markers seen put the chosen lattice where they are
    (`by_markers`): the markers are our layout's own word, stronger than a pattern of mountains."""
    from vision.lattice import settle_dispute

    return chosen if by_markers else settle_dispute((chosen, confirm), seen, MIN_CONFIRM)[0]


def markers_agree(lat: Lattice, side: str | None, down: np.ndarray | None,
                  markers: dict[int, np.ndarray] | None) -> bool:
    """Do the corner markers seen (if any) lie where this lattice, turned by them, puts them? False without
    markers, a side or a way down: then no lattice is preferred for it."""
    if not markers or side not in ("A", "B") or down is None:
        return False
    k = turn_of_down(lat, down)
    return k is not None and marker_error(lat, side, k, markers) <= MARKER_AGREE


def lattice_of_location(side: str, H: np.ndarray, paper: str = "a4") -> Lattice:
    """The lattice (grid units → image) of a sheet placed by page points → image `H`, in its upright order."""
    g = sheet_layout(side, paper).grid
    A = np.array([[g.cell_pt, 0, g.x_pt], [0, g.cell_pt, g.y_pt], [0, 0, 1]])
    Hl = H @ A
    return Lattice(Hl, line_points(Hl), 0.0)


def reorient(image: np.ndarray, loc, side_hint: str | None = None, quarter_turns: int | None = None):
    """An unmarked sheet's location, its side and way up decided again with every cue (`orient_lattice`).

    The outline path (`vision.border`) places the grid well but turns it by the printed features and our coin
    circles alone; this re-decides side and turn with the text and margins too, and sets `orientation_unsure`.
    """
    if loc.side is None or loc.side not in MAPS or loc.method == "markers":
        return loc
    lat = lattice_of_location(loc.side, loc.homography)
    o = imposed(image, lat, side_hint, quarter_turns)
    keep = [n for n in loc.warnings if n.code not in ("orientation_unsure", "side_unsure", "unmarked")]
    keep += location_notes(o)
    H = loc.homography if (o.k == 0 and o.side == loc.side) else page_homography(lat, o.side, o.k)
    centres = None if loc.cell_centres is None else upright_centres(lat, o.k)
    return replace(loc, side=o.side, homography=H, warnings=keep, orientation_unsure=o.unsure, cell_centres=centres,
                   orientation_asked=o.asked, orientation_choices=o.choices(), orientation_leads=o.leads(),
                   side_lead=o.side_lead)
