"""Speed pass 6 (branch speed8) on arrays: the coarse lattice search, the drawn symbols' vote skipped when it cannot
change the way up, lattices that no word can accept left unoriented,
and the grid pieces' distances in one array step."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cartographers.data import GRID_SIZE
from tests.test_vision_lattice import _photo
from vision import lattice as L
from vision import orient as O
from vision import paperlines as PL


def _grid_image(x0: float, y0: float, cell: float, size: int = 900, fill_seed: int = 0) -> np.ndarray:
    """A printed 11×11 grid (thin dark lines, some cells filled) on white paper with a title above it."""
    rng = np.random.default_rng(fill_seed)
    img = np.full((size, size, 3), 235, np.uint8)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if rng.random() < 0.3:
                col = tuple(int(v) for v in rng.integers(60, 200, 3))
                cv2.rectangle(img, (int(x0 + c * cell + 4), int(y0 + r * cell + 4)),
                              (int(x0 + (c + 1) * cell - 4), int(y0 + (r + 1) * cell - 4)), col, -1)
    for i in range(GRID_SIZE + 1):
        v = i * cell
        cv2.line(img, (int(x0 + v), int(y0)), (int(x0 + v), int(y0 + GRID_SIZE * cell)), (40, 40, 40), 2)
        cv2.line(img, (int(x0), int(y0 + v)), (int(x0 + GRID_SIZE * cell), int(y0 + v)), (40, 40, 40), 2)
    cv2.putText(img, "MAP", (int(x0), int(y0 - 20)), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 30), 3)
    return img


def _grid_h(x0: float, y0: float, cell: float) -> np.ndarray:
    return np.array([[cell, 0, x0], [0, cell, y0], [0, 0, 1.0]])


@pytest.mark.parametrize("dx,dy", [(0, 0), (2, -1), (-3, 3), (1, 4)])
def test_the_coarse_shift_search_moves_a_lattice_back_as_the_full_one_does(dx, dy):
    cell = 60.0
    ink = L.ink_map(_grid_image(120, 150, cell))
    H0 = _grid_h(120 + dx * cell, 150 + dy * cell, cell)
    H_full, ev_full, _ = L.shift_search(ink, H0, L.SHIFT_MAX, L.EV_CELL)
    H_coarse, ev_coarse, _ = L.shift_search(ink, H0, L.SHIFT_MAX, L.SEARCH_CELL)
    truth = _grid_h(120, 150, cell)
    assert np.allclose(H_full, truth) and np.allclose(H_coarse, truth)
    assert ev_coarse > L.EVIDENCE_ALONE and ev_full > L.EVIDENCE_ALONE


def test_the_comb_on_the_smaller_square_leads_the_measurement_to_the_same_lines():
    cell = 55.0
    ink = L.ink_map(_grid_image(140, 170, cell, fill_seed=3))
    quad = np.array([[60, 60], [840, 60], [840, 840], [60, 840]], np.float64)  # the page, not the grid
    full, coarse = L._candidate_lattice(ink, quad, L.SQ), L._candidate_lattice(ink, quad, 300)
    assert full is not None and coarse is not None
    true = np.array([[140, 170], [140 + 11 * cell, 170], [140 + 11 * cell, 170 + 11 * cell], [140, 170 + 11 * cell]])
    assert np.abs(full[0] - true).max() < 0.1 * cell
    assert np.abs(coarse[0] - true).max() < 0.15 * cell  # a first guess: the measurement places the lines
    assert L._candidate_lattice(ink, quad, 300) is not None  # any square side works
    unit = np.float32([[0, 0], [11, 0], [11, 11], [0, 11]])
    for corners in (full[0], coarse[0]):
        H = cv2.getPerspectiveTransform(unit, corners.astype(np.float32)).astype(np.float64)
        pts = L.measure(ink, H, rounds=1).points
        ideal = np.stack(np.meshgrid(140 + cell * np.arange(12), 170 + cell * np.arange(12)), axis=-1)
        err = np.linalg.norm(pts - ideal, axis=-1)
        assert np.median(err) < 0.02 * cell and err.max() < 0.1 * cell


def test_lattice_scores_at_the_search_cell_and_the_full_cell_agree_on_which_lattice_is_the_grid():
    cell = 60.0
    ink = L.ink_map(_grid_image(120, 150, cell))
    right, off = _grid_h(120, 150, cell), _grid_h(120 + 0.5 * cell, 150, cell)
    for c in (L.SEARCH_CELL, 24):
        assert L.lattice_score(ink, right, c) > L.lattice_score(ink, off, c) + 0.5


@pytest.mark.parametrize("design,side,seed", [("generic", "A", 1), ("handruled", "B", 2)])
def test_the_whole_search_still_fits_every_cell_within_a_sixth_of_a_cell(design, side, seed):
    img, pts = _photo(design, side, seed)
    lats = L.find_lattices(img, keep=4)
    cell = float(np.median(np.linalg.norm(np.diff(pts, axis=1), axis=2)))

    def fit(lat):
        c = lat.cell_centres()
        return min(float(np.linalg.norm(np.rot90(cc, k, axes=(0, 1)) - pts, axis=-1).max()) / cell
                   for cc in (c, c.transpose(1, 0, 2)) for k in range(4))

    assert min(fit(lat) for lat in lats[:2]) < 0.17


def _decide(per_turn: list[float], paper: np.ndarray, squared: bool) -> tuple[int, bool]:
    """`orient_lattice`'s decision (turn, asks) from each turn's best total (the rules as written there)."""
    k = int(np.argmax(per_turn))
    best = per_turn[k]
    rivals = [(best - per_turn[j], j) for j in range(4) if j != k and per_turn[j] > -O.UNSCORED]
    lead = min((d for d, _ in rivals), default=1.0)
    quarter_lead = min((d for d, j in rivals if (j - k) % 2), default=1.0)
    rest = [per_turn[j] - float(paper[j]) for j in range(4)]
    disagree = any(max(float(paper[j] - paper[k]), rest[j] - rest[k]) > O.DISAGREE
                   for j in ((k + 1) % 4, (k + 3) % 4) if per_turn[j] > -O.UNSCORED)
    half = (k + 2) % 4
    if squared and per_turn[half] > -O.UNSCORED and rest[k] - rest[half] < O.SURE_LEAD:
        disagree = True
    return k, lead < O.SURE_LEAD or quarter_lead < O.SURE_LEAD_QUARTER or disagree


def test_the_symbols_vote_is_skipped_only_when_no_vote_could_change_the_decision():
    rng = np.random.default_rng(8)
    span = O.SYMBOL_WEIGHT * O.SYMBOL_CAP
    skipped = 0
    for _ in range(3000):
        per_turn = list(rng.normal(0, 1.2, 4))
        paper = rng.normal(0, 0.15, 4) * rng.integers(0, 2)
        squared = bool(rng.random() < 0.2)
        if O.symbols_matter(per_turn, paper, squared):
            continue
        skipped += 1
        k0, unsure0 = _decide(per_turn, paper, squared)
        assert not unsure0
        for _ in range(20):  # any vote the symbols could give (each turn's term in [-span, 0])
            s = -span * rng.random(4) * (rng.random(4) < 0.7)
            assert _decide([p + v for p, v in zip(per_turn, s, strict=True)], paper + 0.0, squared) == (k0, False)
        for corner in range(16):  # and the box's corners
            s = -span * np.array([(corner >> b) & 1 for b in range(4)], float)
            assert _decide([p + v for p, v in zip(per_turn, s, strict=True)], paper, squared) == (k0, False)
    assert skipped > 200  # the case is common, not hypothetical


def test_a_close_call_still_asks_the_symbols():
    assert O.symbols_matter([1.0, 0.5, 0.2, 0.1], np.zeros(4), False)  # a quarter turn within reach
    assert O.symbols_matter([3.0, 0.0, 2.5, 0.0], np.zeros(4), False)  # the half turn within reach
    assert not O.symbols_matter([3.0, 0.0, 1.0, 0.0], np.zeros(4), False)
    # squared paper: the rest (without the paper's share) must settle the half turn too
    assert not O.symbols_matter([3.0, 0.0, 2.0, 0.0], np.array([0.5, 0.0, 0.0, 0.0]), False)
    assert O.symbols_matter([3.0, 0.0, 2.0, 0.0], np.array([0.5, 0.0, 0.0, 0.0]), True)
    assert O.symbols_matter([3.0, 0.0, 1.0, 0.0], np.array([0.0, 0.3, 0.0, 0.0]), False)  # the paper disagrees


def test_the_orientation_is_the_same_with_the_symbols_looked_at_as_without_when_they_cannot_matter(monkeypatch):
    img, _ = _photo("generic", "A", 4)
    lat = L.find_lattices(img, keep=1)[0]
    seen = []
    real = O.symbols_matter
    monkeypatch.setattr(O, "symbols_matter", lambda *a: seen.append(real(*a)) or real(*a))
    o = O.orient_lattice(img, lat)
    if seen and not seen[0]:
        # forced to look (with an extreme vote against the chosen turn): the same turn, sure
        votes = np.zeros(4)
        votes[o.k] = -1e3
        monkeypatch.setattr(O, "symbols_matter", lambda *a: True)
        monkeypatch.setattr(O, "symbol_votes", lambda *a, **k: O.TextVotes(votes, 12))
        o2 = O.orient_lattice(img, lat)
        assert (o2.k, o2.side, o2.unsure) == (o.k, o.side, o.unsure) and not o.unsure
    assert seen  # the question was asked


def test_may_be_accepted_is_true_whenever_some_word_of_the_mountains_would_accept():
    rng = np.random.default_rng(1)
    eye = np.eye(3)
    ys, xs = np.mgrid[0:12, 0:12] * 20.0
    square = np.stack([xs, ys], axis=-1)
    long = square * np.array([1.0, 3.0])  # a comb over the grid one way and a few cells of it the other
    for i in range(2000):
        pts = long if i % 5 == 0 else square
        lat = L.Lattice(eye, pts, float(rng.uniform(-2, 3)), float(rng.uniform(-1, 1)), bool(rng.random() < 0.3))
        some = any(L.lattice_accepted(lat, c, O.MIN_CONFIRM) for c in (-50.0, 0.0, 3.5, 10.0, 1e6))
        # a rival the printed mountains may set over the lines' choice (`settle_dispute`) must be oriented too
        rival = pts is square and lat.evidence >= L.RIVAL_EVIDENCE
        if some or rival:
            assert L.may_be_accepted(lat)
        if not L.may_be_accepted(lat):
            assert not some


def _grid_pieces_reference(found, centres, edges, across, cell):
    """`paperlines.grid_pieces` as it was (each peak's distance to the grid lines one at a time)."""
    def dev(j, p):
        return float(np.abs(across[j] - p).min())

    near = [[(p, h) for p, h in pk if dev(j, p) <= PL.EDGE_BAND_WIDE * cell] for j, pk in enumerate(found)]
    out = []
    for ch in PL.chains(near, centres, max_gap=1):
        js = np.array([j for j, _, _ in ch])
        span = js[-1] - js[0] + 1
        if span < PL.PIECE_STRIPS:
            continue
        if span < PL.LONG_PIECE and float(np.median([dev(j, p) for j, p, _ in ch])) > PL.EDGE_BAND * cell:
            continue
        out.append((js.tolist(), [p for _, p, _ in ch]))
    return out


def test_grid_pieces_are_the_same_as_one_peak_at_a_time():
    rng = np.random.default_rng(5)
    cell = 57.0
    edges = np.arange(12) * cell
    fine = PL.sub_edges(edges)
    centres = (fine[:-1] + fine[1:]) / 2
    across = np.repeat(np.stack([edges + rng.normal(0, 1.5, 12) for _ in range(11)]), PL.SUB, axis=0)
    for _ in range(5):
        found = []
        for j in range(len(centres)):
            lines = [float(a + rng.normal(0, 0.6)) for a in across[j] if rng.random() < 0.8]
            noise = [float(v) for v in rng.uniform(0, 11 * cell, rng.integers(0, 6))]
            found.append([(p, float(rng.uniform(0.02, 0.3))) for p in lines + noise])
        found[3] = []  # a strip with no peak at all
        got = [(np.searchsorted(fine, pl.t_range[0]).item(), pl.pos.tolist())
               for pl in PL.grid_pieces(found, centres, fine, across, cell)]
        ref = _grid_pieces_reference(found, centres, fine, across, cell)
        assert [g[1] for g in got] == [r[1] for r in ref]
        assert [g[0] for g in got] == [r[0][0] for r in ref]
