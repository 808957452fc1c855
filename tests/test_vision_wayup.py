"""vision.wayup on arrays: a cell's confidence while the way up is unsure is the chance it is right under every way
up the decision left open; the markers seen on a clipped sheet fix its way up (vision.locate / vision.orient)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cartographers.data import GRID_SIZE
from vision import wayup
from vision.geometry import half_turn_symmetric, printed_cells
from vision.lattice import Lattice
from vision.locate import markers_way_up
from vision.orient import UNSCORED, Orientation, turn_of_down

N = GRID_SIZE


def test_turn_probabilities_follow_the_leads():
    p = wayup.turn_probabilities((0.0, UNSCORED, UNSCORED, UNSCORED))
    assert p.tolist() == [1.0, 0.0, 0.0, 0.0]  # no rival scored: the way up is as read
    tie = wayup.turn_probabilities((0.0, 0.0, 0.0, 0.0))
    assert np.allclose(tie, 0.25)
    p = wayup.turn_probabilities((0.0, 0.05, 0.4, 0.9))
    assert np.isclose(p.sum(), 1.0) and p[0] > p[1] > p[2] > p[3] > 0
    # a bigger lead over the rivals, a surer way up
    assert wayup.turn_probabilities((0.0, 0.3, 0.3, 0.3))[0] > wayup.turn_probabilities((0.0, 0.1, 0.1, 0.1))[0]
    # a negative lead (cannot happen for the chosen turn) counts as a tie, not as more than one
    assert np.allclose(wayup.turn_probabilities((0.0, -1.0, UNSCORED, UNSCORED)), [0.5, 0.5, 0, 0])


def _grid(fill: str = "empty") -> list[list[str]]:
    return [[fill] * N for _ in range(N)]


def test_a_map_that_reads_the_same_turned_keeps_its_confidence():
    grid = _grid()
    conf = np.full((N, N), 0.95)
    printed = np.zeros((N, N), bool)
    out = wayup.unsure_confidence(grid, conf, printed, (0.0, 0.0, 0.0, 0.0))
    assert np.allclose(out, 0.95)  # every way up gives the same (empty) cell: nothing to lose


def test_a_cell_that_differs_under_the_rival_loses_the_rivals_chance():
    grid = _grid()
    grid[0][0] = "forest"  # turned a half round, (0, 0) shows (10, 10): empty
    conf = np.full((N, N), 0.95)
    printed = np.zeros((N, N), bool)
    leads = (0.0, UNSCORED, 0.0, UNSCORED)  # only the half turn is a rival, as likely as the reading
    out = wayup.unsure_confidence(grid, conf, printed, leads)
    p = wayup.turn_probabilities(leads)
    share_forest = 1 / (N * N)
    assert np.isclose(out[0, 0], p[0] * 0.95 + p[2] * 0.05 * share_forest)
    assert out[0, 0] < 0.7  # flagged for the review now
    # (10, 10) is empty, but under the half turn it would be the forest cell: it loses too
    assert out[N - 1, N - 1] < 0.7
    # a cell far from both keeps its confidence
    assert np.isclose(out[5, 5], 0.95)


def test_printed_cells_keep_their_confidence_and_hide_what_they_cover():
    grid = _grid()
    for c in range(N):
        grid[5][c] = "farm"  # a map not all empty: an unread cell matches "empty" by the empty cells' share only
    printed = wayup.printed_mask(printed_cells("B"))
    for r, c in zip(*np.nonzero(printed), strict=True):
        grid[r][c] = "mountain"
    conf = np.full((N, N), 0.99)
    out = wayup.unsure_confidence(grid, conf, printed, (0.0, 0.0, UNSCORED, UNSCORED))
    assert np.allclose(out[printed], 0.99)
    # a drawable cell that a quarter turn brings onto a printed one: what is drawn there was never read, so it
    # is right under that turn only by the empty cells' share of the map
    turned_printed = np.rot90(printed, -1) & ~printed
    r, c = map(int, np.argwhere(turned_printed)[0])
    share_empty = float((np.asarray(grid, dtype=object)[~printed] == "empty").mean())
    assert grid[r][c] == "empty" and share_empty < 1
    p = wayup.turn_probabilities((0.0, 0.0, UNSCORED, UNSCORED))
    assert np.isclose(out[r, c], p[0] * 0.99 + p[1] * share_empty)


def test_rival_agreement_uses_the_turned_cells_own_confidence():
    grid = _grid()
    grid[0][0] = "water"  # turned a quarter clockwise, (0, 0) shows what the reading has at (10, 0) ...
    grid[N - 1][0] = "water"  # ... water too, and (0, 10) shows (0, 0)
    conf = np.full((N, N), 0.9)
    conf[N - 1, 0] = 0.6
    a = wayup.rival_agreement(grid, conf, np.zeros((N, N), bool), 1)
    assert np.isclose(a[0, 0], 0.6)  # water both ways: right if the cell turned onto it is right
    assert np.isclose(a[0, N - 1], 0.1 * (N * N - 2) / (N * N))  # empty here, water turned onto it


def test_leads_pair_with_the_choices():
    o = Orientation("A", 1, 0.0, 5.0, True, False, 0.1, turn_totals=(0.2, 1.0, 0.3, 0.9))
    leads = o.leads()
    assert leads[0] == 0.0
    # the ask's choices are ordered by total: the lead of each is its distance from the best
    assert o.choices() == [0, 2, 3, 1]
    assert np.allclose([leads[k] for k in o.choices()], [0.0, 0.1, 0.7, 0.8])
    imposed = Orientation("A", 1, 0.0, 5.0, False, False, 1.0, turn_totals=(-1e9, 1.0, -1e9, -1e9))
    assert imposed.leads()[1:] == (UNSCORED,) * 3


def test_half_turn_symmetry_of_the_sides():
    assert half_turn_symmetric("A") and not half_turn_symmetric("B")


def _lattice(angle_deg: float) -> Lattice:
    """An 11×11 lattice of 40 px cells around (500, 500), its lattice rows running at `angle_deg` in the photo."""
    a = np.deg2rad(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    ij = np.stack(np.meshgrid(np.arange(N + 1.0), np.arange(N + 1.0)), axis=-1)  # (row, col) → (x=col, y=row)
    pts = (ij.reshape(-1, 2) - N / 2) * 40 @ R.T + 500
    return Lattice(np.eye(3), pts.reshape(N + 1, N + 1, 2), 3.0)


@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0, 270.0, 12.0])
def test_the_markers_way_down_picks_the_lattice_turn(angle):
    lat = _lattice(angle)
    for down, want in (((0, 1), None), ((1, 0), None), ((0, -1), None), ((-1, 0), None)):
        k = turn_of_down(lat, np.array(down, float))
        assert k is not None and k in range(4)
        from vision.orient import upright_centres

        c = upright_centres(lat, k)
        v = (c[-1] - c[0]).mean(axis=0)
        assert float(v @ np.array(down) / np.linalg.norm(v)) > 0.9, (angle, down, want)
    assert turn_of_down(lat, np.array([0.0, 0.0])) is None


def test_a_diagonal_way_down_decides_nothing():
    assert turn_of_down(_lattice(0.0), np.array([1.0, 1.0])) is None


def _marker(x: float, y: float, down=(0.0, 1.0), size: float = 30.0) -> np.ndarray:
    d = np.array(down, float) / np.linalg.norm(down)
    right = np.array([-d[1], d[0]])  # page right, a quarter turn counterclockwise of page down in image axes
    tl = np.array([x, y])
    return np.array([tl, tl + size * right, tl + size * (right + d), tl + size * d])


def test_markers_way_up_from_one_or_two_markers():
    side, down = markers_way_up({0: _marker(10, 10, (1, 0))})
    assert side == "A" and np.allclose(down, [1, 0], atol=1e-6)
    side, down = markers_way_up({4: _marker(10, 10, (0, -1)), 5: _marker(400, 10, (0, -1))})
    assert side == "B" and np.allclose(down, [0, -1], atol=1e-6)
    # two of one side pointing different ways (a look-alike on a drawing): no way up from them
    side, down = markers_way_up({0: _marker(10, 10, (1, 0)), 1: _marker(400, 10, (0, 1))})
    assert side == "A" and down is None
    assert markers_way_up({}) == (None, None)


@pytest.fixture(scope="module")
def clipped():
    """Our sheet photographed a quarter turn round with two of its markers cut off by the frame (grid in it)."""
    from bench.synthphoto import PhotoSpec, make_photo

    return make_photo(11, PhotoSpec(design="ours", style="marker", clip_marker=2, quarter_turn=1, megapixels=2.0))


def _upright(reading, photo) -> bool:
    got, truth = np.asarray(reading.cell_centers_px), np.asarray(photo.cell_centers)
    cell = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
    return float(np.linalg.norm(got - truth, axis=2).max() / cell) < 0.5


def test_two_markers_seen_fix_the_way_up_of_a_clipped_sheet(clipped):
    import cv2

    from vision.load import load_photo
    from vision.locate import detect_markers
    from vision.reading import read_sheet

    gray = cv2.cvtColor(load_photo(clipped.data).image, cv2.COLOR_BGR2GRAY)
    assert len(detect_markers(gray)) == 2  # the case: too few for the markers' homography
    r = read_sheet(clipped.data, overlay=False)
    assert r.method == "border" and r.side == clipped.side == "A"
    assert not r.orientation_unsure and r.orientation_choices == [0] and _upright(r, clipped)
    # the markers decided: no rival way up was even scored
    assert r.orientation_leads[1:] == (UNSCORED,) * 3 and r.confidence_if_upright is None
    # a player's --turn does not apply to a way up the markers give
    assert read_sheet(clipped.data, overlay=False, quarter_turns=2).cell_centers_px == r.cell_centers_px


def test_the_markers_way_down_overrides_the_cues(clipped):
    from vision.load import load_photo
    from vision.orient import locate_by_lattice

    img = load_photo(clipped.data).image
    free = locate_by_lattice(img, "A")
    c = np.asarray(free.cell_centres)
    down = (c[-1] - c[0]).mean(axis=0)
    # say the page's way down is the way the cues' reading has as its right: the lattice turns to it, sure
    right = np.array([-down[1], down[0]])
    forced = locate_by_lattice(img, "A", down=-right)
    f = np.asarray(forced.cell_centres)
    v = (f[-1] - f[0]).mean(axis=0)
    assert not forced.orientation_unsure and float(v @ -right / np.linalg.norm(v) / np.linalg.norm(right)) > 0.9


def test_an_unsure_reading_lowers_its_cells_until_the_way_up_is_confirmed():
    from tests.test_web_orient import unsure_photo
    from vision.reading import read_sheet

    data = unsure_photo()
    asked = read_sheet(data, overlay=False)
    assert asked.orientation_unsure and asked.confidence_if_upright is not None
    conf, upright = np.asarray(asked.confidence), np.asarray(asked.confidence_if_upright)
    assert (conf <= upright + 1e-3).all() and conf.mean() < upright.mean() - 0.05  # (rounded to 3 places)
    printed = wayup.printed_mask(printed_cells(asked.side))
    assert np.allclose(conf[printed], upright[printed], atol=1e-3)  # printed cells are printed whichever way up
    d = asked.to_dict()
    assert d["orientation_unsure"] is True and isinstance(d["orientation_choices"], list)
    assert "orientation_leads" not in d and "confidence_if_upright" not in d  # the JSON contract is unchanged
    yes = read_sheet(data, overlay=False, quarter_turns=0)
    assert not yes.orientation_unsure and yes.grid == asked.grid and yes.confidence_if_upright is None
    assert len(yes.doubtful_cells()) < len(asked.doubtful_cells())
    # "yes" takes away the chance of a wrong way up and nothing else: the cells have the confidence shown if upright
    assert np.allclose(np.asarray(yes.confidence), upright, atol=1e-3)


@pytest.mark.parametrize("bad", [True, 4, -1, 1.0, "0"])
def test_quarter_turns_is_none_or_0_to_3(bad):
    from vision.reading import read_sheet

    with pytest.raises(ValueError, match="quarter_turns"):
        read_sheet(b"not read", quarter_turns=bad)
