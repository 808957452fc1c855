"""Sides C and D read back from synthetic photos like A and B (print → photo → read → score)."""

from __future__ import annotations

import pytest

from companion.cartographers.board import Board
from companion.cartographers.data import CARD_SETS

synth = pytest.importorskip("bench.synthphoto")
read_sheet = pytest.importorskip("vision.reading").read_sheet


@pytest.mark.parametrize("side,style,seed", [("C", "marker", 300), ("D", "pencil", 301), ("D", "marker", 302)])
def test_heroes_sides_read_back_exactly(side, style, seed):
    from companion.cartographers.scoring import score_card

    p = synth.make_photo(seed, synth.PhotoSpec(style=style, side=side, megapixels=3.0))
    r = read_sheet(p.data, overlay=False)
    assert r.side == side and r.sheet_id == p.sheet_id
    assert r.grid == p.grid and r.coins == p.coins
    truth, read = Board.from_words(side, p.grid), Board.from_words(r.side, r.grid)
    for card in CARD_SETS["heroes"].scoring:
        assert score_card(card.id, read) == score_card(card.id, truth)


# --------------------------------------------------------------------------- the marks stage on arrays

cv2 = pytest.importorskip("cv2")
marks = pytest.importorskip("vision.marks")
np = pytest.importorskip("numpy")

CELL = 57  # a canonical cell (vision.geometry: 38 pt × 1.5)


def _cell(fill: float = 0.0) -> np.ndarray:
    return np.full((CELL, CELL), fill, np.float32)


def _line(a, p, q, dark=0.7, width=5):
    cv2.line(a, (int(p[0] * CELL), int(p[1] * CELL)), (int(q[0] * CELL), int(q[1] * CELL)), float(dark), width,
             cv2.LINE_AA)
    return a


def _x(a, inset=0.08, dark=0.7, width=5):
    _line(a, (inset, inset), (1 - inset, 1 - inset), dark, width)
    return _line(a, (1 - inset, inset), (inset, 1 - inset), dark, width)


def test_a_bold_x_is_a_cross_blank_cells_and_single_strokes_are_not():
    assert marks.cross_probability(marks.cross_strength(_x(_cell()))) > 0.95
    assert marks.cross_probability(marks.cross_strength(_cell())) < 0.05
    one = _line(_cell(), (0.08, 0.08), (0.92, 0.92))
    assert marks.cross_probability(marks.cross_strength(one)) < 0.05
    # a quick X, far from 45° and off-centre, still counts
    sloppy = _line(_line(_cell(), (0.05, 0.3), (0.95, 0.75)), (0.9, 0.1), (0.15, 0.92))
    assert marks.cross_probability(marks.cross_strength(sloppy)) > 0.9


def test_an_x_over_a_fill_counts_and_the_fill_alone_does_not():
    filled = _cell(0.45)  # a marker fill: everything dark, the X darker still
    assert marks.cross_probability(marks.cross_strength(filled)) < 0.05
    assert marks.cross_probability(marks.cross_strength(_x(filled.copy(), dark=0.9))) > 0.9


def test_hatching_and_a_monster_drawn_as_a_small_cross_are_not_destroyed_marks():
    hatch = _cell()
    for k in range(-CELL, CELL, 6):  # colour-pencil hatching at 45°: one direction only
        cv2.line(hatch, (k, CELL), (k + CELL, 0), 0.5, 2)
    assert marks.cross_probability(marks.cross_strength(hatch)) < 0.05
    cross_hatch = hatch.copy()
    for k in range(0, 2 * CELL, 6):  # hatched both ways: a texture, not two strokes
        cv2.line(cross_hatch, (k - CELL, 0), (k, CELL), 0.5, 2)
    assert marks.cross_probability(marks.cross_strength(cross_hatch)) < 0.3
    small = _x(_cell(), inset=0.25)  # a monster symbol: an X about half the cell
    assert marks.cross_probability(marks.cross_strength(small)) < 0.1


def test_decide_prefers_an_x_doubts_the_unclear_and_refuses_a_crowd_of_heroes():
    cells = [(r, c) for r in range(11) for c in range(11)]
    pc, ph = np.zeros((11, 11)), np.zeros((11, 11))
    pc[0, 0], ph[0, 0] = 0.97, 0.8  # crossed-out hero? the X wins: destroyed
    ph[1, 1] = 0.9
    pc[2, 2] = 0.4  # unclear: no mark, but doubted
    m = marks.decide(pc, ph, cells)
    assert m.kind[0][0] == "destroyed" and m.kind[1][1] == "hero" and m.kind[2][2] == ""
    assert m.confidence[2, 2] < 0.7 and m.confidence[5, 5] == 1.0
    grid = [["forest"] * 11 for _ in range(11)]
    conf = np.full((11, 11), 0.95)
    assert marks.apply_marks(grid, conf, m) == 2
    assert grid[0][0] == "destroyed" and grid[1][1] == "hero" and grid[2][2] == "forest"
    assert conf[2, 2] < 0.7 and conf[5, 5] == 0.95
    ph[3:5, 0:3] = 0.9  # seven hero-like cells: a terrain symbol that looks like a hero, not seven heroes
    crowd = marks.decide(pc, ph, cells)
    assert all(crowd.kind[r][c] != "hero" for r, c in cells)
    assert all(crowd.confidence[r, c] < 0.7 for r in (1, 3, 4) for c in range(3) if ph[r, c] > 0.5)
    ps = np.zeros((11, 11))
    ps[9, 9] = 0.9  # strokes like an X, but no darker than the fill: not changed, doubted
    assert marks.decide(pc, np.zeros((11, 11)), cells, 11, ps).kind[9][9] == ""
    assert marks.decide(pc, np.zeros((11, 11)), cells, 11, ps).confidence[9, 9] < 0.7
    ph[3:5, 0:3] = 0.55  # … but four clear heroes among six look-alikes are heroes, the look-alikes doubted
    ph[6, 0:3] = 0.95
    few = marks.decide(pc, ph, cells)
    assert [c for c in cells if few.kind[c[0]][c[1]] == "hero"] == [(1, 1), (6, 0), (6, 1), (6, 2)]
    assert all(few.confidence[r, c] < 0.7 for r in (3, 4) for c in range(3))


# --------------------------------------------------------------------------- print → photo → read → score

def _heroes_map():
    """A side C map where the marks matter: a mountain sealed by two destroyed spaces (its coin), a destroyed
    monster (no penalty), a destroyed farm, and heroes, one finishing a row of five terrain types (Banded Hills)."""
    from companion.cartographers.data import GRID_SIZE

    under = [["empty"] * GRID_SIZE for _ in range(GRID_SIZE)]
    for (r, c), t in {(0, 1): "forest", (1, 2): "village", (2, 1): "monster", (4, 0): "forest", (4, 1): "village",
                      (4, 2): "farm", (4, 3): "water", (6, 0): "monster", (7, 0): "monster", (6, 1): "monster",
                      (8, 4): "farm", (8, 5): "farm", (0, 6): "water", (0, 7): "water", (10, 4): "forest"}.items():
        under[r][c] = t
    for r, c in MAPS_C.mountains:
        under[r][c] = "mountain"
    cells = {(2, 1): ("destroyed", "monster"), (1, 0): ("destroyed", "empty"), (7, 0): ("destroyed", "monster"),
             (8, 4): ("destroyed", "farm"), (4, 4): ("hero", "empty"), (2, 6): ("hero", "empty")}
    truth = [row[:] for row in under]
    for (r, c), (kind, _) in cells.items():
        truth[r][c] = kind
    return under, truth, cells


MAPS_C = __import__("companion.cartographers.data", fromlist=["MAPS"]).MAPS["C"]


@pytest.mark.parametrize("style,design,seed", [("marker", 0, 11), ("pencil", 1, 12), ("graphite", 3, 13),
                                               ("crayon", -1, 14)])
def test_heroes_marks_read_back_and_score_like_the_map(style, design, seed):
    """Print → photo → read → review → score on a map where the marks change the score: no misread cell goes
    unframed, at least five of the six marks are read right, and the reviewed map scores as drawn."""
    from bench.synthphoto import GRAPHITE, Marks, draw_marks, draw_sheet, photograph, random_player, render_sheet
    from companion.cartographers.scoring import monster_penalty, mountain_coins, score_card

    rng = np.random.default_rng(seed)
    under, truth, cells = _heroes_map()
    ppt = 3.0
    page = render_sheet("C", ppt, "HERO1")
    drawn = draw_sheet(page, ppt, "C", under, 2, random_player(rng, style), rng)
    drawn = draw_marks(drawn, ppt, "C", Marks(cells, GRAPHITE, (0.12, 0.12, 0.14), design), rng)
    photo, _ = photograph(drawn, rng, 6.0, tilt_deg=15, fill=(0.8, 0.9), quality=90)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    r = read_sheet(buf.tobytes(), overlay=False)
    assert r.side == "C" and r.sheet_id == "HERO1"
    right = [cell for cell, (kind, _) in cells.items() if r.grid[cell[0]][cell[1]] == kind]
    assert len(right) >= 5, f"marks read: {[(c, r.grid[c[0]][c[1]]) for c in cells]}"
    wrong = [(i, j) for i in range(11) for j in range(11) if r.grid[i][j] != truth[i][j]]
    assert all(r.confidence[i][j] < 0.7 for i, j in wrong), "a misread cell must be framed for review"
    if style == "graphite":
        assert wrong == []
    # The review: the player fixes the framed cells (and only those) on the phone, then the map is scored.
    reviewed = [row[:] for row in r.grid]
    for i, j in r.doubtful_cells():
        reviewed[i][j] = truth[i][j]
    read, board = Board.from_words("C", reviewed), Board.from_words("C", truth)
    assert mountain_coins(read) == mountain_coins(board) and mountain_coins(board).points >= 1
    assert monster_penalty(read) == monster_penalty(board)
    assert score_card("banded_hills", board).points >= 4
    for card in CARD_SETS["heroes"].scoring:
        assert score_card(card.id, read) == score_card(card.id, board)


@pytest.mark.parametrize("seed", [1500, 1503, 1506])
def test_random_heroes_photos_have_no_silent_mark_errors(seed):
    """Our generator's random Heroes sheets (dev seeds): every misread cell is framed for review."""
    from bench.bench_marks import photo

    p = photo(seed)
    r = read_sheet(p.data, overlay=False, heroes=True)  # seed 1500 is side A: a table playing the Heroes deck
    wrong = [(i, j) for i in range(11) for j in range(11) if r.grid[i][j] != p.grid[i][j]]
    silent = [c for c in wrong if r.confidence[c[0]][c[1]] >= 0.7]
    assert not silent, silent
    marked = [(i, j) for i in range(11) for j in range(11) if p.grid[i][j] in ("hero", "destroyed")]
    assert marked and sum(r.grid[i][j] == p.grid[i][j] for i, j in marked) >= 0.75 * len(marked)


def test_the_review_gets_hero_and_destroyed_cells_with_their_doubts(client):
    """The phone's photo scoring: marks come back in the grid; unsure cells are in `doubtful` for a tap."""
    import io

    from bench.bench_marks import photo
    from tests.conftest import csrf_token

    p = photo(1500)
    r = client.post("/api/photo", data={"photo": (io.BytesIO(p.data), "map.jpg", "image/jpeg"), "side": "",
                                        "heroes": "1"},
                    headers={"X-CSRF-Token": csrf_token(client), "Accept": "application/json"})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    words = {w for row in body["grid"] for w in row}
    assert "destroyed" in words
    doubtful = {tuple(c) for c in body["doubtful"]}
    from vision.review import cells_to_check

    assert doubtful >= {(i, j) for i in range(11) for j in range(11) if body["confidence"][i][j] < 0.7}
    assert doubtful == set(cells_to_check(body["confidence"]))  # and the least sure of the rest
    page = client.get("/score").get_data(as_text=True)  # the review's editor paints the marks too
    assert '"hero"' in page and '"destroyed"' in page


# --------------------------------------------------------------------------- who plays heroes


def test_heroes_are_read_on_the_heroes_sides_and_where_the_table_says_so():
    """Heroes come with the Heroes deck: read on sides C, D and a table's own sides, on A and B only when told."""
    from vision.reading import reads_heroes

    assert [reads_heroes(s, None) for s in "ABCD"] == [False, False, True, True]
    assert reads_heroes("~Pack 1", None)
    assert reads_heroes("A", True) and reads_heroes("B", True)
    assert not reads_heroes("C", False) and not reads_heroes("~Pack 1", False)


def test_a_base_game_sheet_reads_no_heroes_unless_its_table_plays_them():
    """Side A with heroes drawn (our generator): read as a base game, no cell is a hero or destroyed; read for a
    table playing the Heroes deck, the marks come back."""
    from bench.bench_marks import photo

    p = photo(1500)
    assert p.grid and any(w in ("hero", "destroyed") for row in p.grid for w in row)
    base = read_sheet(p.data, overlay=False)
    heroes = read_sheet(p.data, overlay=False, heroes=True)
    assert base.side == heroes.side == "A"
    assert not {w for row in base.grid for w in row} & {"hero", "destroyed"}
    assert {w for row in heroes.grid for w in row} & {"hero", "destroyed"}
    marked = [(i, j) for i in range(11) for j in range(11) if heroes.grid[i][j] in ("hero", "destroyed")]
    unmarked = [(i, j) for i in range(11) for j in range(11) if (i, j) not in marked]
    assert [base.grid[i][j] for i, j in unmarked] == [heroes.grid[i][j] for i, j in unmarked]


def test_a_tables_pages_tell_the_reader_whether_it_plays_heroes(client):
    """The photo pages of a table send its deck; the kept photo keeps it for the re-reads of the review."""
    import io
    import json
    import re

    from bench.bench_marks import photo
    from tests.conftest import csrf_token
    from web.photostore import PhotoStore

    token = csrf_token(client)
    for deck, want in (("base", False), ("heroes", True)):
        code = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "side": "A",
                                           "deck": deck, "seed": "4"}).location.rsplit("/", 1)[1]
        for page, script in ((f"/t/{code}/photo", "photo-data"), (f"/t/{code}/player/0", "page-data")):
            html = client.get(page).get_data(as_text=True)
            data = re.search(rf'id="{script}">(.*?)</script>', html, re.S).group(1)
            assert json.loads(data)["heroes"] is want, (deck, page)
    p = photo(1500)
    r = client.post(f"/t/{code}/photo/sheets", data={"photo": (io.BytesIO(p.data), "t.jpg", "image/jpeg"),
                                                     "side": "A", "heroes": "1"},
                    headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 200, r.get_json()
    sheet = r.get_json()["sheets"][0]
    assert {w for row in sheet["grid"] for w in row} & {"hero", "destroyed"}
    store = client.application.extensions["mapsmith_photos"]
    assert isinstance(store, PhotoStore) and store.get(sheet["photo_token"]).heroes is True
    g = sheet["groups"][0]
    again = client.post(f"/api/photo/{sheet['photo_token']}/names", json={"names": {str(g["id"]): g["name"]}},
                        headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert again.status_code == 200 and again.get_json()["grid"] == sheet["grid"]
