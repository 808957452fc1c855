"""A newcomer's pass through the pages: the rules' own Turkish, one sense per message, errors in the page
language, the ruins rule as the table chose it, and who passes to whom in an Ambush."""

from __future__ import annotations

import re

import pytest

from companion.cartographers.data import EXPLORE_BY_ID
from companion.cartographers.session import AMBUSH_PREFIX, Game, Setup
from tests.conftest import csrf_token
from tests.test_web_knarr import act as knarr_act
from tests.test_web_knarr import new_knarr
from tests.test_web_routes import act, new_game, stored

TR = {"Accept-Language": "tr-TR,tr;q=0.9"}


def test_score_has_one_message_per_sense(app):
    from flask_babel import force_locale, pgettext

    with app.test_request_context("/"), force_locale("tr"):
        assert pgettext("noun: points", "Score") == "Puan"
        assert pgettext("verb: score it", "Score") == "Puanla"


def test_the_season_end_table_reads_puan_in_the_header_and_puanla_on_the_button(app, client):
    code, token = new_game(client)
    version = 0
    while stored(app, code).events == () or Game.replay(Setup.from_dict(stored(app, code).setup),
                                                      stored(app, code).events).phase == "explore":
        assert act(client, code, token, "reveal", version).status_code == 200
        version += 1
    html = client.get(f"/t/{code}", headers=TR).get_data(as_text=True)
    table = html[html.index('id="season-scores"'):]
    table = table[: table.index("</table>")]
    assert "<th>Puan</th>" in table and ">Puanla<" in re.sub(r"\s+", "", table)
    assert re.search(r"<th>\s*</th>", table) is None  # no empty header cell
    assert "<h2>Puan</h2>" in client.get(f"/t/{code}/player/0", headers=TR).get_data(as_text=True)
    assert "<h2>Puan</h2>" in client.get("/score", headers=TR).get_data(as_text=True)


@pytest.mark.parametrize("query, words", [
    ("/print/knarr.pdf?players=6", "Oyuncu sayısı 2 ile 4 arasında olmalı."),
    ("/print/score.pdf?players=13", "Oyuncu sayısı 1 ile 12 arasında olmalı."),
    ("/print/map.pdf?copies=30", "Kopya sayısı 1 ile 20 arasında olmalı."),
    ("/print/map.pdf?copies=x", "Kopya sayısı bir tam sayı olmalı."),
    ("/print/map.pdf?side=Z", "Bu harita yüzü bilinmiyor."),
    ("/print/map.pdf?paper=a3", "Kağıt boyutu A4 ya da Letter olmalı."),
    ("/print/map.pdf?lang=de", "Kağıdın dili Türkçe ya da İngilizce olmalı."),
])
def test_print_errors_speak_turkish(client, query, words):
    r = client.get(query, headers=TR)
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and words in html
    for english in ("must be", "players", "copies", "got "):
        assert english not in html.split("<main", 1)[-1]


def test_the_print_form_offers_the_knarr_pad_two_to_four_players(client):
    html = client.get("/print").get_data(as_text=True)
    assert 'data-knarr-range="2 4"' in html and 'data-score-range="1 12"' in html
    assert client.get("/print/knarr.pdf?players=4").status_code == 200


def test_turkish_pages_use_the_rules_terms(app, client):
    code, _ = new_knarr(client, virtual_deck="1")
    html = client.get(f"/t/{code}", headers=TR).get_data(as_text=True)
    assert "Tayfa" in html and "Mürettebat" not in html
    assert "maliyet" in html.lower() and "Bedel" not in html
    new = client.get("/c/new", headers=TR).get_data(as_text=True) + client.get("/k/new", headers=TR).get_data(
        as_text=True)
    assert "Tohum" not in new and "Karıştırma numarası" in new
    table = client.get(f"/t/{new_game(client)[0]}", headers=TR).get_data(as_text=True)
    assert "puan çizelgesi" in table.lower() and "puan kağıdı" not in table.lower()
    assert "Mevsimin 8 zamanından 0 zamanı geçti" in table


def test_knarr_undo_asks_one_question_and_moves_are_numbered_by_the_game(app, client):
    code, token = new_knarr(client, names=("Ayşe", "Bora"))
    for version in range(8):
        assert knarr_act(client, code, token, {"action": "end_turn", "player": version % 2,
                                               "version": version}).status_code == 200
    html = client.get(f"/t/{code}", headers=TR).get_data(as_text=True)
    assert "Bu hamle geri alınsın mı? Bora sırasını bitirdi." in html
    assert ". geri alınsın mı" not in html
    values = [int(v) for v in re.findall(r'<li value="(\d+)">', html[html.index("Son hamleler"):])]
    assert values == [8, 7, 6, 5, 4, 3]
    en = client.get(f"/t/{code}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Undo this move? Bob" not in en and "Undo this move? Bora ended their turn." in en


def find_turn(pred, setup_kw):
    for seed in range(300):
        game = Game.new(Setup(seed=seed, **setup_kw))
        while game.phase == "explore":
            game = game.apply({"type": "reveal"})
            if pred(game.turns[-1]):
                return seed, len(game.events)
    raise AssertionError("no seed found")


def is_ruins(cid):
    return not cid.startswith(AMBUSH_PREFIX) and EXPLORE_BY_ID[cid].kind == "ruins"


@pytest.mark.parametrize("rule, words, not_words", [
    ("normal", "If no shape can cover one, normal placement rules apply.", "draw a single square"),
    ("single_square", "If it cannot, draw a single square of any terrain anywhere.", "normal placement rules"),
])
def test_the_ruins_card_words_the_table_rule(app, client, rule, words, not_words):
    players = ("Ann", "Bob")
    seed, reveals = find_turn(lambda t: is_ruins(t["cards"][0]), {"players": players})
    code, token = new_game(client, players=players, seed=seed, ruins_rule=rule)
    assert Setup.from_dict(stored(app, code).setup).ruins_rule == rule
    for version in range(reveals):
        assert act(client, code, token, "reveal", version).status_code == 200
    html = client.get(f"/t/{code}").get_data(as_text=True)
    card = html[html.index('data-kind="ruins"'):]
    card = card[: card.index("</article>")]
    assert words in card and not_words not in card


def test_an_ambush_says_who_passes_to_whom(app, client):
    players = ("Ayşe", "Bora", "Cem")
    seed, reveals = find_turn(lambda t: t["cards"][-1].startswith(AMBUSH_PREFIX), {"players": players})
    code, token = new_game(client, players=players, seed=seed)
    for version in range(reveals):
        assert act(client, code, token, "reveal", version).status_code == 200
    game = Game.replay(Setup.from_dict(stored(app, code).setup), stored(app, code).events)
    from companion.cartographers.session import card_view

    pass_to = card_view(game.turns[-1]["cards"][-1])["pass_to"]
    chain = "Ayşe → Bora → Cem → Ayşe" if pass_to == "left" else "Ayşe → Cem → Bora → Ayşe"
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert f"Who passes to whom:</b> {chain}" in html
    assert 'class="row ambush-shape"' in html



def test_done_drawing_is_a_note_per_player_that_never_blocks_and_undo_takes_it_along(app, client):
    code, token = new_game(client, players=("Ayşe", "Bora", "Cem"), seed=3)
    assert act(client, code, token, "reveal", 0).status_code == 200
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Still drawing: Ayşe, Bora, Cem" in html
    r = act(client, code, token, "drawn", None, player=1)  # not strict: no version needed
    assert r.status_code == 200 and "Still drawing: Ayşe, Cem" in r.get_json()["html"]
    assert 'data-player="1"\n              aria-pressed="true"' in r.get_json()["html"]
    # the reveal is never held up by players still drawing; the next card starts everyone afresh
    r = act(client, code, token, "reveal", 2)
    assert r.status_code == 200 and "Still drawing: Ayşe, Bora, Cem" in r.get_json()["html"]
    act(client, code, token, "drawn", None, player=0)
    act(client, code, token, "drawn", None, player=2)
    act(client, code, token, "drawn", None, player=1)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Everyone is done drawing." in html and "Undo: the last card revealed" in html
    # one undo takes back the card together with the taps about it
    version = stored(app, code).version
    assert act(client, code, token, "undo", version).status_code == 200
    events = stored(app, code).events
    assert [e["type"] for e in events] == ["reveal", "drawn"]
    tapped = act(client, code, token, "drawn", None, player=1).get_json()["html"]  # Bora taps again: not done
    assert "Still drawing: Ayşe, Bora, Cem" in tapped


def test_the_invitation_is_on_top_for_the_host_and_the_code_badge_shows_it(app, client):
    code, token = new_game(client, players=("Ayşe", "Bora"))
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert html.index('id="join-panel"') < html.index('id="table"')
    assert re.search(r'<details class="panel top" id="join-panel" open data-top>', html)
    assert "data-show-invite" in html
    act(client, code, token, "reveal", 0)
    assert "data-top" in client.get(f"/t/{code}").get_data(as_text=True)  # still nobody else here
    solo, _ = new_game(client, players=("Solo",))
    assert "data-top" not in client.get(f"/t/{solo}").get_data(as_text=True)


def pdf_texts(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc))]
    finally:
        doc.close()


def test_sheets_printed_from_a_table_carry_its_edicts_and_each_players_name(app, client):
    from companion.cartographers.data import SCORING_BY_ID

    code, _ = new_game(client, players=("Ayşe", "Bora", "Cem"))
    game = Game.replay(Setup.from_dict(stored(app, code).setup), stored(app, code).events)
    (sheet,) = pdf_texts(client.get(f"/t/{code}/print.pdf?kind=score&lang=tr").data)
    for letter, cid in zip("ABCD", game.scoring, strict=True):
        assert f"{letter} {SCORING_BY_ID[cid].name_tr}" in sheet
    maps = pdf_texts(client.get(f"/t/{code}/print.pdf?lang=en").data)
    assert len(maps) == 3
    for page, name in zip(maps, ("Ayşe", "Bora", "Cem"), strict=True):
        assert "Cartographer:" in page and name in page
        assert all(other not in page for other in ("Ayşe", "Bora", "Cem") if other != name)


def test_long_bad_input_is_cut_in_the_error(client):
    from companion.cartographers.board import Board

    grid = Board.blank("A").to_words()
    grid[0][0] = "lava" * 900  # within the request limits: the grid's own check names the cell
    token = csrf_token(client)
    headers = {"X-CSRF-Token": token, "Accept": "application/json"}
    r = client.post("/api/score", json={"side": "A", "grid": grid, "cards": ["sentinel_wood"]}, headers=headers)
    body = r.get_json()
    assert r.status_code == 400 and body["code"] == "bad_grid" and "A1" in body["error"]
    assert len(body["error"]) < 300
    grid[0][0] = "lava" * 25_000  # a 100 KB word is refused by the request limits, just as briefly
    r = client.post("/api/score", json={"side": "A", "grid": grid, "cards": ["sentinel_wood"]}, headers=headers)
    assert r.status_code == 400 and len(r.get_json()["error"]) < 300


def test_the_invitation_folds_away_once_a_second_phone_opens_the_table(app):
    host, other = app.test_client(), app.test_client()
    code, token = new_game(host, players=("Ayşe", "Bora"))
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "data-top" in page and stored(app, code).version == 0  # the host's own visits are not a join
    other.get(f"/t/{code}")
    assert [e["type"] for e in stored(app, code).events] == ["joined"]
    other.get(f"/t/{code}")
    assert len(stored(app, code).events) == 1  # noted once
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "data-top" not in page and page.index('id="join-panel"') > page.index('id="table"')
    # the host's reveal, sent with the version seen before the join, is not refused for that note
    moves = re.search(r'name="moves" value="([0-9a-f]+)"', page).group(1)
    r = host.post(f"/t/{code}/action", json={"action": "reveal", "version": 0, "moves": moves},
                  headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 200
    # but a reveal that did not see another phone's reveal still is
    r = host.post(f"/t/{code}/action", json={"action": "reveal", "version": 1, "moves": moves},
                  headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 409 and r.get_json()["code"] == "stale"
    # undo takes back the card and keeps the note
    version = stored(app, code).version
    assert act(host, code, token, "undo", version).status_code == 200
    assert [e["type"] for e in stored(app, code).events] == ["joined"]
    assert act(host, code, token, "undo", version + 1).get_json()["code"] == "nothing_to_undo"


def test_the_knarr_invitation_stays_on_top_until_a_second_phone_opens_the_table(app):
    host, other = app.test_client(), app.test_client()
    code, token = new_knarr(host)
    assert knarr_act(host, code, token, {"action": "gain", "player": 0, "vp": 2}).status_code == 200
    page = host.get(f"/t/{code}").get_data(as_text=True)
    # a first move is no join: the host's invitation is still first and open
    assert "data-top" in page and page.index('id="join-panel"') < page.index('id="table"')
    assert [e["type"] for e in stored(app, code).events] == ["gain"]
    other.get(f"/t/{code}")
    assert [e["type"] for e in stored(app, code).events] == ["gain", "joined"]
    other.get(f"/t/{code}")
    host.get(f"/t/{code}")
    assert len(stored(app, code).events) == 2  # noted once, and the host's own visits are not a join
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "data-top" not in page and page.index('id="join-panel"') > page.index('id="table"')
    assert 'data-joined="1"' in page  # the polled fragment tells the page to fold the invitation away
    # the host's end turn, sent with the version seen before the join, is not refused for that note
    moves = re.search(r'name="moves" value="([0-9a-f]+)"', page).group(1)
    r = knarr_act(host, code, token, {"action": "end_turn", "player": 0, "version": 1, "moves": moves})
    assert r.status_code == 200
    # but an end turn that did not see another phone's move still is
    r = knarr_act(host, code, token, {"action": "end_turn", "player": 1, "version": 2, "moves": moves})
    assert r.status_code == 409 and r.get_json()["code"] == "stale"
    # undo takes back the moves and keeps the note; the note itself is never undone
    for _ in range(2):
        version = stored(app, code).version
        assert knarr_act(host, code, token, {"action": "undo", "version": version}).status_code == 200
    assert [e["type"] for e in stored(app, code).events] == ["joined"]
    version = stored(app, code).version
    assert knarr_act(host, code, token, {"action": "undo", "version": version}).get_json()["code"] == "nothing_to_undo"


def test_a_drawn_viking_card_reads_as_a_thing_not_an_action():
    from companion.knarr.messages import render

    params = {"name": "Ayşe", "colour": "red", "gain_counts": {"vp": 2, "card": 1}}
    tr, en = render("column_gains", "tr", params), render("column_gains", "en", params)
    assert "1 × Viking kartı" in tr and "Çekme" not in tr
    assert "1 × Viking card" in en and "Draw a" not in en


def test_a_long_bad_table_code_is_not_echoed_back_whole(client):
    r = client.get("/t/" + "Q" * 5000, headers={"Accept": "application/json"})
    assert r.status_code == 404 and len(r.get_json()["error"]) < 200


@pytest.mark.parametrize("headers, words", [
    (TR, "B4: A yüzünde burada basılı dağ var, orman olamaz."),
    ({"Accept-Language": "en"}, "B4: side A has a printed mountain here, not forest."),
])
def test_a_bad_map_is_explained_in_the_page_language(app, client, headers, words):
    from companion.cartographers.board import Board

    grid = Board.blank("A").to_words()
    grid[1][3] = "forest"
    token = csrf_token(client)
    r = client.post("/api/score", json={"side": "A", "grid": grid, "cards": ["sentinel_wood"]},
                    headers={"X-CSRF-Token": token, "Accept": "application/json", **headers})
    assert r.status_code == 400 and r.get_json()["error"] == words
    code, token = new_game(client)
    r = client.post(f"/t/{code}/action", json={"action": "map", "player": 0, "grid": grid},
                    headers={"X-CSRF-Token": token, "Accept": "application/json", **headers})
    assert r.status_code == 400 and r.get_json()["error"] == words
