"""The season referee and the history on the web: player page verdict, the check endpoint, coins without typing,
finished games, statistics and exports (Flask test client on a real SQLite database)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from functools import cache

from companion.cartographers.board import RUINS_SINGLE_SQUARE, Board
from companion.cartographers.simulate import play_table
from companion.cartographers.terrain import Terrain
from tests.conftest import csrf_token
from web.db import get_store
from web.ui import cell_label


@cache
def table(seed: int, players: int, seasons: int):
    return play_table(seed, players=players, seasons=seasons, side="A")


def store_game(app, setup, events) -> str:
    with app.app_context():
        return get_store().create("cartographers", setup.to_dict(), list(events)).code


def extra_cell(board: Board) -> tuple[Board, tuple[int, int]]:
    """The map with one more village square, away from every drawing: no card drew it."""
    drawn = {c for t in (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER)
             for c in board.cells_of(t)}
    for cell in sorted(board.empty_cells):
        r, c = cell
        if not any((r + dr, c + dc) in drawn for dr in (-2, -1, 0, 1, 2) for dc in (-2, -1, 0, 1, 2)):
            return board.draw([cell], Terrain.VILLAGE), cell
    cell = sorted(board.empty_cells)[0]
    return board.draw([cell], Terrain.VILLAGE), cell


def test_player_page_says_the_season_matches_the_cards(app, client):
    t = table(21, 2, 1)
    code = store_game(app, t.setup, t.events)
    html = client.get(f"/t/{code}/player/0", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="referee-ok"' in html and "match the cards" in html
    assert "from coin shapes" in html
    tr = client.get(f"/t/{code}/player/1", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "Bu mevsimin çizimleri kartlarla uyuşuyor" in tr


def test_player_page_marks_what_does_not_fit_with_the_likely_card(app, client):
    t = table(21, 2, 1)
    events = [dict(e) for e in t.events]
    last_score = max(i for i, e in enumerate(events) if e["type"] == "score" and e["player"] == 0)
    wrong, cell = extra_cell(t.boards[0][0])
    events[last_score] = {**events[last_score], "grid": wrong.to_words()}
    code = store_game(app, t.setup, events)
    html = client.get(f"/t/{code}/player/0", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="referee-bad"' in html and "Nothing is blocked" in html
    assert cell_label(cell) in html
    # the score was saved as drawn: nothing is blocked
    assert "Saved score for this season" in html


def test_check_endpoint_judges_the_editor_map(app, client):
    t = table(21, 2, 1)
    code = store_game(app, t.setup, t.events)
    client.get(f"/t/{code}")  # joins the table (only members write to it)
    token = csrf_token(client)
    headers = {"X-CSRF-Token": token, "Accept": "application/json", "Accept-Language": "en"}
    good = client.post(f"/t/{code}/player/1/check", json={"season": 0, "grid": t.boards[1][0].to_words()},
                       headers=headers)
    assert good.status_code == 200
    data = good.get_json()
    assert data["state"] == "legal" and data["marks"] == []
    assert data["coins"]["shapes"] == t.shape_coins[1][0]
    assert "referee-ok" in data["html"]
    wrong, cell = extra_cell(t.boards[1][0])
    bad = client.post(f"/t/{code}/player/1/check", json={"season": 0, "grid": wrong.to_words(), "photo_coins": 13},
                      headers=headers).get_json()
    assert bad["state"] == "problems"
    assert [cell[0], cell[1]] in [m[:2] for m in bad["marks"]]
    assert "referee-coins-photo" in bad["html"]  # the photo's coin track disagrees: shown, not hidden
    tr = client.post(f"/t/{code}/player/1/check", json={"season": 0, "grid": wrong.to_words()},
                     headers={**headers, "Accept-Language": "tr"}).get_json()
    assert [p["code"] for p in tr["problems"]] == [p["code"] for p in bad["problems"]]
    assert any("açılan hiçbir kart" in p["message"] for p in tr["problems"]), tr["problems"]


def test_check_endpoint_refuses_bad_input_with_a_clear_error(app, client):
    t = table(21, 2, 1)
    code = store_game(app, t.setup, t.events)
    client.get(f"/t/{code}")  # joins the table (only members write to it)
    headers = {"X-CSRF-Token": csrf_token(client), "Accept": "application/json"}
    r = client.post(f"/t/{code}/player/0/check", json={"season": 0, "grid": [["lava"]]}, headers=headers)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_grid"
    r = client.post(f"/t/{code}/player/0/check", json={"season": 3, "grid": None}, headers=headers)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_season"
    r = client.post(f"/t/{code}/player/9/check", json={"season": 0}, headers=headers)
    assert r.status_code == 404
    r = client.post(f"/t/{code}/player/0/check", json={"season": 0})
    assert r.status_code in (400, 403)  # no CSRF token


def test_coins_are_filled_in_from_the_cards_when_not_typed(app, client):
    t = table(21, 2, 1)
    # the season's maps saved with "Save my map", not scored yet: the coin box shows the referee's count
    events = [e if e["type"] != "score" else {"type": "map", "player": e["player"], "grid": e["grid"]}
              for e in t.events]
    code = store_game(app, t.setup, events)
    html = client.get(f"/t/{code}/player/0", headers={"Accept-Language": "en"}).get_data(as_text=True)
    data = json.loads(html.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    expected = t.shape_coins[0][0] + len([m for m in t.boards[0][0].cells_of(Terrain.MOUNTAIN)
                                          if all(t.boards[0][0].is_filled(n) for n in _around(m))])
    assert data["coins"] == expected


def _around(cell):
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def test_finished_games_are_listed_with_statistics_and_exports(app, client):
    finished = table(23, 2, 4)
    running = table(21, 2, 1)
    done = store_game(app, finished.setup, finished.events)
    store_game(app, running.setup, running.events)
    html = client.get("/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert done in html and html.count('class="history-game"') == 1
    assert "Player 1" in html and "Player 2" in html
    page = client.get(f"/history/{done}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert page.count('class="panel history-season"') == 4
    assert page.count('class="mapgrid mini"') == 8
    assert "✓" in page
    export = client.get("/history/export.json").get_json()
    assert [g["code"] for g in export["games"]] == [done]
    game = export["games"][0]
    assert len(game["edicts"]) == 4 and len(game["seasons"]) == 4
    assert {p["name"] for p in export["players"]} == {"Player 1", "Player 2"}
    assert sum(p["wins"] for p in export["players"]) >= 1
    rows = list(csv.reader(io.StringIO(client.get("/history/games.csv").get_data(as_text=True))))
    assert rows[0][:3] == ["code", "date", "side"] and len(rows) == 3
    players = list(csv.reader(io.StringIO(client.get("/history/players.csv").get_data(as_text=True))))
    assert players[0][:5] == ["player", "games", "wins", "average", "best"] and len(players) == 3
    # the cached summary is used on the next listing, and the Turkish page reads Turkish
    tr = client.get("/history", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert done in tr and "Oyun geçmişi" in tr


def test_history_of_an_unknown_table_is_a_404(client):
    assert client.get("/history/AAAAAAA").status_code == 404


def test_the_panel_says_when_the_coins_can_be_read_two_ways(app):
    from flask import render_template

    referee = {"state": "legal", "spans": 1, "saved_complete": True, "problems": [], "marks": [],
               "coins": {"shapes": 3, "mountains": 1, "total": 4}, "coin_range": [2, 3]}
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        html = render_template("carto/_referee.html", referee=referee, photo_coins=None, entry={"coins": 4})
    assert 'id="referee-coin-range"' in html and "2 to 3 coins" in html
    assert "referee-coins-saved" not in html


def test_the_player_page_judges_by_the_tables_ruins_rule(app, client):
    # seed 0, side A: in season 4 no shape could cover a ruins space; the players drew their shapes elsewhere
    # (normal placement rules, the default). A table playing the printed rulebook is told it asked for one square.
    played = play_table(0, players=2, seasons=4, side="A")
    fine = store_game(app, played.setup, played.events)
    html = client.get(f"/t/{fine}/player/0", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="referee-ok"' in html
    strict = store_game(app, replace(played.setup, ruins_rule=RUINS_SINGLE_SQUARE), played.events)
    html = client.get(f"/t/{strict}/player/0", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="referee-bad"' in html and "calls for a single square of any terrain" in html
    tr = client.get(f"/t/{strict}/player/0", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "herhangi bir araziden tek bir kare" in tr
