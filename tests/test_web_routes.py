"""Route tests with Flask's test client: pages, CSRF, the table contract, scoring and every 4xx path."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cartographers.board import Board
from companion.cartographers.data import MAPS
from companion.cartographers.scoring import score_season
from companion.cartographers.session import Game, Setup
from tests.conftest import csrf_token
from web.db import get_store


def post_json(client, url, body, token=None):
    headers = {"Accept": "application/json"}
    if token is not None:
        headers["X-CSRF-Token"] = token
    return client.post(url, json=body, headers=headers)


def new_game(client, players=("Ann", "Bob"), seed=11, side="A", **extra):
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": list(players), "side": side,
                                    "scoring_mode": "random", "seed": str(seed), **extra})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.location.rsplit("/", 1)[1], token


def act(client, code, token, action, version=None, **fields):
    body = {"action": action, **fields}
    if version is not None:
        body["version"] = version
    return post_json(client, f"/t/{code}/action", body, token)


def stored(app, code):
    with app.app_context():
        return get_store().get(code)


def test_home_in_both_languages(client):
    en = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).get_data(as_text=True)
    tr = client.get("/", headers={"Accept-Language": "tr-TR,tr;q=0.9"}).get_data(as_text=True)
    assert "New Cartographers game" in en and 'lang="en"' in en
    assert "Yeni Cartographers oyunu" in tr and 'lang="tr"' in tr
    for html in (en, tr):
        for href in ("/c/new", "/k/new", "/score", "/print", "/join"):
            assert href in html


def test_language_toggle_cookie_wins_over_browser(client):
    r = client.get("/lang/tr?next=/score")
    assert r.status_code == 302 and r.location == "/score"
    html = client.get("/score", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Tek bir haritayı puanla" in html
    assert client.get("/lang/tr?next=https://evil.example/").location == "/"
    assert client.get("/lang/tr?next=//evil.example/").location == "/"
    assert client.get("/lang/xx").status_code == 404


def test_all_pages_render_in_both_languages(client):
    code, _ = new_game(client)
    for lang in ("en", "tr"):
        client.get(f"/lang/{lang}")
        for url in ("/", "/score", "/c/new", "/k/new", "/print", f"/t/{code}", f"/t/{code}/player/1"):
            r = client.get(url)
            assert r.status_code == 200, (url, lang)
            assert f'lang="{lang}"' in r.get_data(as_text=True)


def test_translations_complete_and_compiled():
    from pathlib import Path

    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    base = Path(__file__).resolve().parents[1] / "web" / "translations" / "tr" / "LC_MESSAGES"
    po = read_po((base / "messages.po").open("rb"))
    mo = read_mo((base / "messages.mo").open("rb"))
    ids = [(m.id, m.context) for m in po if m.id]
    assert len(ids) > 150
    untranslated = [m.id for m in po if m.id and (not m.string or m.fuzzy)]
    assert untranslated == []
    compiled = {(m.id, m.context): m.string for m in mo if m.id}
    stale = [i for i in ids if compiled.get(i) != po.get(*i).string]
    assert stale == [], "run pybabel compile -d web/translations"


def test_create_requires_csrf(app, client):
    r = client.post("/c/new", data={"player": ["Ann"], "side": "A"})
    assert r.status_code == 400 and b"Reload the page" in r.data
    r = client.post("/c/new", data={"player": ["Ann"], "csrf_token": "forged"})
    assert r.status_code == 400
    with app.app_context():
        assert get_store().conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_json_actions_require_csrf_header(app, client):
    code, token = new_game(client)
    r = act(client, code, None, "reveal", 0)
    assert r.status_code == 400 and r.get_json()["code"] == "csrf"
    assert stored(app, code).version == 0


def test_create_validation(client):
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": ["", "  "]})
    assert r.status_code == 400 and b"at least one player" in r.data
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann"], "seed": "x"})
    assert r.status_code == 400
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann"], "side": "E"})
    assert r.status_code == 400
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann"], "scoring_mode": "chosen",
                                    "edict_A": "sentinel_wood", "edict_B": "greenbough",
                                    "edict_C": "wildholds", "edict_D": "borderlands"})
    assert r.status_code == 400  # two forest cards: one of each category is required


def test_chosen_scoring_cards_are_used(app, client):
    code, _ = new_game(client, scoring_mode="chosen", edict_A="wildholds", edict_B="sentinel_wood",
                       edict_C="borderlands", edict_D="canal_lake")
    assert stored(app, code).setup["scoring"] == ["wildholds", "sentinel_wood", "borderlands", "canal_lake"]


def test_join(client):
    code, _ = new_game(client)
    r = client.get(f"/join?code={code.lower()}")
    assert r.status_code == 302 and r.location.endswith(f"/t/{code}")
    assert client.get("/join?code=nope").status_code == 400
    r = client.get("/join?code=AAAAAAA", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_table"
    assert client.get("/t/AAAAAAA").status_code == 404
    assert client.get("/t/AAAAAAA/state?v=0").status_code == 404


def test_reveal_matches_engine_and_polling(app, client):
    code, token = new_game(client, seed=5)
    r = act(client, code, token, "reveal", 0)
    assert r.status_code == 200
    body = r.get_json()
    assert body["version"] == 1 and body["phase"] == "explore"
    rec = stored(app, code)
    game = Game.replay(Setup.from_dict(rec.setup), rec.events)
    expected = Game.new(Setup(seed=5, players=("Ann", "Bob"))).apply({"type": "reveal"})
    assert game.turns == expected.turns
    first = expected.to_dict()["turns"][0]["cards"][-1]
    assert first["name_en"] in body["html"]
    assert client.get(f"/t/{code}/state?v=1").status_code == 204
    r = client.get(f"/t/{code}/state?v=0")
    assert r.status_code == 200 and r.get_json()["version"] == 1


def test_stale_reveal_is_409_and_reveals_nothing(app, client):
    code, token = new_game(client)
    assert act(client, code, token, "reveal", 0).status_code == 200
    r = act(client, code, token, "reveal", 0)
    assert r.status_code == 409
    body = r.get_json()
    assert body["code"] == "stale" and body["version"] == 1 and "html" in body
    rec = stored(app, code)
    assert rec.version == 1 and len(rec.events) == 1


def test_two_phones_reveal_at_once_exactly_one_card(app):
    """Two clients on the same version, released together: one 200 and one 409, one card more each round."""
    code, _ = new_game(app.test_client())
    clients = [app.test_client() for _ in range(2)]
    tokens = [csrf_token(c) for c in clients]
    for c in clients:  # each phone joins the table first (here by its short code)
        assert c.get(f"/t/{code}").status_code == 200
    start = stored(app, code).version  # a second phone opening the table is noted once ("joined")
    for version in range(start, start + 5):
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def tap(i: int, version: int = version, barrier: threading.Barrier = barrier,
                statuses: list[int] = statuses) -> None:
            barrier.wait()
            statuses.append(act(clients[i], code, tokens[i], "reveal", version).status_code)

        threads = [threading.Thread(target=tap, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [200, 409]
        rec = stored(app, code)
        assert len(rec.events) == version + 1 and rec.version == version + 1
    assert sum(e["type"] == "reveal" for e in stored(app, code).events) == 5


def test_undo_restores_previous_state(app, client):
    code, token = new_game(client)
    act(client, code, token, "reveal", 0)
    act(client, code, token, "reveal", 1)
    r = act(client, code, token, "undo", 2)
    assert r.status_code == 200
    rec = stored(app, code)
    assert len(rec.events) == 1 and rec.version == 3
    act(client, code, token, "undo", 3)
    r = act(client, code, token, "undo", 4)
    assert r.status_code == 409 and r.get_json()["code"] == "nothing_to_undo"
    assert stored(app, code).version == 4


def test_bad_action_requests(app, client):
    code, token = new_game(client)
    r = client.post(f"/t/{code}/action", data="{not json", content_type="application/json",
                    headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 400 and r.get_json()["code"] == "bad_json"
    assert act(client, code, token, "reveal").get_json()["code"] == "missing_version"
    assert act(client, code, token, "reveal", "x").get_json()["code"] == "bad_version"
    assert act(client, code, token, "explode", 0).status_code == 400
    r = post_json(client, f"/t/{code}/action", {"version": 0}, token)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_action"
    r = act(client, code, token, "score", 0, player=0, coins=1, edict1=1, edict2=2, monsters=0)
    assert r.status_code == 409 and r.get_json()["code"] == "bad_season"  # spring is still running
    r = act(client, code, token, "score", 0, player=9, coins=1, edict1=1, edict2=2, monsters=0)
    assert r.status_code == 400 and r.get_json()["code"] == "unknown_player"
    r = act(client, code, token, "next_season", 0)
    assert r.status_code == 409 and r.get_json()["code"] == "season_not_over"
    r = act(client, code, token, "map", None, player=0, grid=[["forest"] * 11] * 11)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_grid"  # forest on printed mountains
    assert stored(app, code).version == 0


def reveal_to_season_end(client, code, token, version):
    while True:
        r = act(client, code, token, "reveal", version)
        assert r.status_code == 200, r.get_json()
        version = r.get_json()["version"]
        if r.get_json()["phase"] != "explore":
            return version


def test_play_a_whole_game_with_manual_and_grid_scores(app, client):
    code, token = new_game(client, players=("Ann", "Bob"), seed=3)
    version = 0
    grid = Board.blank("A").to_words()
    for c in range(11):
        grid[0][c] = "forest"
    for season in range(4):
        version = reveal_to_season_end(client, code, token, version)
        r = act(client, code, token, "reveal", version)
        assert r.status_code == 409 and r.get_json()["code"] == "season_over"
        r = act(client, code, token, "score", None, player=0, grid=grid, coins=season)
        assert r.status_code == 200
        entry = r.get_json()["result"]
        rec = stored(app, code)
        game = Game.replay(Setup.from_dict(rec.setup), rec.events)
        expected = score_season(Board.from_words("A", grid), game.edicts_for(season), season)
        assert entry["total"] == expected.total and entry["detail"] == expected.to_dict()
        r = act(client, code, token, "score", None, player=1, edict1=season, edict2=1, coins=0, monsters=2)
        assert r.status_code == 200 and r.get_json()["result"]["total"] == season + 1 - 2
        version = r.get_json()["version"]
        r = act(client, code, token, "next_season", version)
        assert r.status_code == 200
        version = r.get_json()["version"]
    assert r.get_json()["phase"] == "over"
    html = client.get(f"/t/{code}").get_data(as_text=True)
    rec = stored(app, code)
    result = Game.replay(Setup.from_dict(rec.setup), rec.events).result()
    winner = ("Ann", "Bob")[result["winners"][0]]
    assert f"{winner} wins!" in html and 'id="ranking"' in html
    r = act(client, code, token, "reveal", version)
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"
    assert stored(app, code).version == version


def test_solo_game_shows_rating_and_title(app, client):
    code, token = new_game(client, players=("Solo",), seed=8)
    version = 0
    for season in range(4):
        version = reveal_to_season_end(client, code, token, version)
        r = act(client, code, token, "score", None, player=0, edict1=10, edict2=10, coins=season, monsters=0)
        version = r.get_json()["version"]
        version = act(client, code, token, "next_season", version).get_json()["version"]
    html = client.get(f"/t/{code}").get_data(as_text=True)
    rec = stored(app, code)
    solo = Game.replay(Setup.from_dict(rec.setup), rec.events).result()["solo"]
    assert f"Rating: {solo['rating']}" in html and solo["title_en"] in html
    client.get("/lang/tr")
    assert solo["title_tr"] in client.get(f"/t/{code}").get_data(as_text=True)


def test_html_form_post_redirects(app, client):
    code, token = new_game(client)
    r = client.post(f"/t/{code}/action", data={"csrf_token": token, "action": "reveal", "version": "0"})
    assert r.status_code == 303 and r.location.endswith(f"/t/{code}")
    r = client.post(f"/t/{code}/action", data={"csrf_token": token, "action": "reveal", "version": "0"})
    assert r.status_code == 409 and b"Someone else changed the table" in r.data


def test_player_page_prefills_known_map(app, client):
    code, token = new_game(client, players=("Solo",))
    grid = Board.blank("A").to_words()
    grid[5][0] = "water"
    assert act(client, code, token, "map", None, player=0, grid=grid).status_code == 200
    html = client.get(f"/t/{code}/player/0").get_data(as_text=True)
    assert '"water"' in html
    assert client.get(f"/t/{code}/player/3").status_code == 404


def test_api_score_single_map(client):
    token = csrf_token(client)
    grid = Board.blank("B").to_words()
    for c in range(11):
        grid[10][c] = "forest"
    r = post_json(client, "/api/score", {"side": "B", "grid": grid, "cards": ["sentinel_wood", "greenbough"],
                                         "coins": 2}, token)
    assert r.status_code == 200
    body = r.get_json()
    assert [e["points"] for e in body["edicts"]] == [11, 12]  # 11 edge forests; 1 row + 11 columns
    assert body["total"] == 25 and body["coins"] == 2
    assert sorted(map(tuple, body["edicts"][0]["cells"])) == [(10, c) for c in range(11)]


@pytest.mark.parametrize("body, code", [
    ({"side": "E", "grid": [], "cards": ["greenbough"], "coins": 0}, "bad_side"),
    ({"side": "A", "grid": [["empty"] * 11] * 10, "cards": ["greenbough"], "coins": 0}, "bad_grid"),
    ({"side": "A", "grid": "x", "cards": ["greenbough"], "coins": 0}, "bad_grid"),
    ({"side": "A", "grid": None, "cards": [], "coins": 0}, "bad_grid"),
    ({"side": "A", "cards": ["nope"], "coins": 0}, "bad_grid"),
    ({"side": "A", "grid": "BLANK", "cards": ["nope"], "coins": 0}, "bad_cards"),
    ({"side": "A", "grid": "BLANK", "cards": ["greenbough", "greenbough"], "coins": 0}, "bad_cards"),
    ({"side": "A", "grid": "BLANK", "cards": ["greenbough"], "coins": -1}, "bad_coins"),
    ({"side": "A", "grid": "BLANK", "cards": ["greenbough"], "coins": True}, "bad_coins"),
])
def test_api_score_rejects_bad_input(client, body, code):
    token = csrf_token(client)
    if body.get("grid") == "BLANK":
        body["grid"] = Board.blank("A").to_words()
    r = post_json(client, "/api/score", body, token)
    assert r.status_code == 400 and r.get_json()["code"] == code


def test_api_score_points_at_the_bad_cell(client):
    token = csrf_token(client)
    grid = Board.blank("A").to_words()
    r0, c0 = MAPS["A"].mountains[0]
    grid[r0][c0] = "farm"
    r = post_json(client, "/api/score", {"side": "A", "grid": grid, "cards": ["greenbough"], "coins": 0}, token)
    body = r.get_json()
    assert r.status_code == 400 and (body["row"], body["col"]) == (r0, c0)
    assert post_json(client, "/api/score", [1, 2], token).get_json()["code"] == "bad_json"


def test_upload_limits(app, client):
    token = csrf_token(client)
    headers = {"X-CSRF-Token": token, "Accept": "application/json"}
    r = client.post("/api/photo", data={}, headers=headers)
    assert r.status_code == 400 and r.get_json()["code"] == "no_photo"
    import io

    r = client.post("/api/photo", data={"photo": (io.BytesIO(b"hello"), "notes.txt", "text/plain")},
                    headers=headers)
    assert r.status_code == 415 and r.get_json()["code"] == "not_an_image"
    app.config["MAX_CONTENT_LENGTH"] = 1000
    r = client.post("/api/photo", data={"photo": (io.BytesIO(b"\xff" * 5000), "big.jpg", "image/jpeg")},
                    headers=headers)
    assert r.status_code == 413 and r.get_json()["code"] == "too_large"


def test_print_pdfs(client):
    r = client.get("/print/map.pdf?side=B&paper=letter&lang=tr&copies=2")
    assert r.status_code == 200 and r.mimetype == "application/pdf" and r.data.startswith(b"%PDF")
    r = client.get("/print/score.pdf?players=3&lang=en")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    assert client.get("/print/map.pdf?copies=0").status_code == 400
    assert client.get("/print/map.pdf?copies=x").status_code == 400
    assert client.get("/print/map.pdf?side=Q").status_code == 400
    assert client.get("/print/chess.pdf").status_code == 404
    code, _ = new_game(client, players=("Ann", "Bob", "Cem"))
    r = client.get(f"/t/{code}/print.pdf?lang=en")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    from printables.raster import page_count

    assert page_count(r.data) == 3  # one sheet per seat


def test_table_map_sheets_carry_the_table_and_each_seat_in_their_qr(client):
    import cv2

    from printables.layout import parse_qr_payload
    from printables.raster import page_count, rasterize

    code, _ = new_game(client, players=("Ann", "Bob", "Cem"), side="B")
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert f'id="print-maps" href="/t/{code}/print.pdf?lang=en"' in html
    pdf = client.get(f"/t/{code}/print.pdf?lang=en&paper=letter").data
    assert page_count(pdf) == 3
    for page in range(3):
        img = cv2.cvtColor(rasterize(pdf, page, 200), cv2.COLOR_RGB2BGR)
        # OpenCV's plain detector misses some codes; the reader falls back to the ArUco-based one, so does this test
        text = cv2.QRCodeDetector().detectAndDecode(img)[0] or cv2.QRCodeDetectorAruco().detectAndDecode(img)[0]
        info = parse_qr_payload(text)
        assert info is not None, f"page {page + 1}: no Mapsmith QR code ({text!r})"
        assert (info.side, info.table, info.seat) == ("B", code, page + 1)


def test_table_score_sheet_has_a_row_per_player(client):
    import pypdfium2 as pdfium

    from printables.raster import page_count

    code, _ = new_game(client, players=("Ann", "Bob", "Cem", "Deniz", "Ece"))
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert f'id="print-scores" href="/t/{code}/print.pdf?kind=score&amp;lang=en"' in html
    r = client.get(f"/t/{code}/print.pdf?kind=score&lang=tr")
    assert r.status_code == 200 and page_count(r.data) == 1
    assert pdfium.PdfDocument(r.data).get_metadata_dict()["Title"] == "Cartographers score sheet (5 players)"
    assert f"mapsmith-{code}-score.pdf" in r.headers["Content-Disposition"]
    text = pdfium.PdfDocument(r.data)[0].get_textpage().get_text_range()
    assert all(name in text for name in ("Ann", "Bob", "Cem", "Deniz", "Ece"))
    r = client.get(f"/t/{code}/print.pdf?kind=chess", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_printable"


def test_table_qr_code(client):
    code, _ = new_game(client)
    r = client.get(f"/t/{code}/qr.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and b"<svg" in r.data


def test_unknown_routes_and_methods(client):
    r = client.get("/nowhere", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.get_json()["code"] == "not_found"
    assert client.get("/nowhere").status_code == 404
    code, _ = new_game(client)
    assert client.get(f"/t/{code}/action").status_code == 405
    assert client.get(f"/t/{code.lower()}").status_code == 302


ACTIONS = st.sampled_from(["reveal", "reveal", "reveal", "stale_reveal", "undo", "next_season", "score", "garbage"])


@settings(max_examples=15, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=25))
def test_any_action_sequence_leaves_a_replayable_game(tmp_path_factory, actions):
    """Whatever phones send, the stored row is always a complete, replayable game; refused actions change nothing."""
    from web import create_app

    path = tmp_path_factory.mktemp("seq") / "db.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"})
    client = app.test_client()
    code, token = new_game(client, players=("Ann", "Bob"))
    for name in actions:
        before = stored(app, code)
        if name == "stale_reveal":
            r = act(client, code, token, "reveal", before.version - 1)
        elif name == "score":
            r = act(client, code, token, "score", None, player=0, edict1=1, edict2=2, coins=0, monsters=0)
        elif name == "garbage":
            r = act(client, code, token, "score", None, player=0, grid=[[1]], coins=0)
        else:
            r = act(client, code, token, name, before.version)
        after = stored(app, code)
        if r.status_code == 200:
            assert after.version == before.version + 1
        else:
            assert 400 <= r.status_code < 500 and "error" in r.get_json()
            assert (after.version, after.events) == (before.version, before.events)
        game = Game.replay(Setup.from_dict(after.setup), after.events)
        assert len(game.events) == len(after.events)


def test_poll_fast_path_and_fallthrough(app, client):
    """Unchanged → 204 before Flask; anything unusual falls through to the full route."""
    from web.fastpoll import PollFastPath

    assert isinstance(app.wsgi_app, PollFastPath)
    code, token = new_game(client)
    r = client.get(f"/t/{code}/state?v=0")
    assert r.status_code == 204 and r.data == b""
    act(client, code, token, "reveal", 0)
    r = client.get(f"/t/{code}/state?v=0")
    assert r.status_code == 200 and r.get_json()["version"] == 1
    assert client.get(f"/t/{code}/state?v=1").status_code == 204
    assert client.get(f"/t/{code}/state?v=x").status_code == 200  # no usable version: the full state
    assert client.get("/t/AAAAAAA/state?v=0").status_code == 404
    assert client.post(f"/t/{code}/state?v=1", headers={"X-CSRF-Token": token}).status_code == 405


def test_join_url_prefers_the_lan_address_on_the_server_itself(app, client):
    from web.views.tables import join_url

    code, _ = new_game(client)
    with app.test_request_context("/", base_url="http://192.168.1.20:8000"):
        secret = get_store().access(code).secret
        assert join_url(code) == f"http://192.168.1.20:8000/j/{secret}"
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000/"
    with app.test_request_context("/", base_url="http://localhost:8000"):
        assert join_url(code) == f"http://192.168.1.20:8000/j/{secret}"


def _seed_with_early_ambush() -> tuple[int, int]:
    """A solo seed whose spring reveals an ambush, and after how many reveals (found with the engine)."""
    for seed in range(200):
        game = Game.new(Setup(seed=seed, players=("Solo",)))
        for n in range(1, 12):
            game = game.apply({"type": "reveal"})
            if game.turns[-1]["cards"][-1].startswith("ambush-"):
                return seed, n
            if game.phase != "explore":
                break
    raise AssertionError("no seed with a spring ambush")


def test_solo_ambush_shows_corner_and_exact_cells(app, client):
    from web.ui import cell_label

    seed, reveals = _seed_with_early_ambush()
    code, token = new_game(client, players=("Solo",), seed=seed)
    for v in range(reveals):
        assert act(client, code, token, "reveal", v).status_code == 200
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Solo: start in the" in html and "Paint or photograph your map" in html
    # the player saves their map: the engine places the monster and the table shows exactly where
    grid = Board.blank("A").to_words()
    r = act(client, code, token, "map", None, player=0, grid=grid)
    assert r.status_code == 200
    turn = stored_game_view(app, code)["turns"][-1]
    cells = turn["solo"]["cells"]
    assert cells and not turn["solo"]["ignored"]
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Draw the monster on: " + ", ".join(cell_label(c) for c in cells) in html


def stored_game_view(app, code):
    rec = stored(app, code)
    return Game.replay(Setup.from_dict(rec.setup), rec.events).to_dict()


def test_security_headers(client):
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"


def test_player_page_offers_late_scoring_only_while_missing(client):
    code, token = new_game(client, players=("Ann", "Bob"), seed=6)
    reveal_to_season_end(client, code, token, 0)
    assert 'id="score-btn"' in client.get(f"/t/{code}/player/0").get_data(as_text=True)
    r = act(client, code, token, "score", None, player=0, edict1=1, edict2=1, coins=0, monsters=0)
    assert act(client, code, token, "next_season", r.get_json()["version"]).status_code == 200
    assert 'id="score-btn"' not in client.get(f"/t/{code}/player/0").get_data(as_text=True)
    bob = client.get(f"/t/{code}/player/1").get_data(as_text=True)
    assert 'id="score-btn"' in bob and "Scoring: Spring" in bob  # Bob can still score the spring he missed
    assert "Scoring: Spring" in client.get(f"/t/{code}/player/0?season=0").get_data(as_text=True)
