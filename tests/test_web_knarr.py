"""Knarr screens: new game, gains, end turn (strict), undo, last round and the final ranking with its tie-break."""

from __future__ import annotations

import re

import pytest

from companion.knarr import KnarrGame
from tests.conftest import csrf_token
from web.db import get_store


def new_knarr(client, names=("Ann", "Bob"), first="0", **extra):
    token = csrf_token(client)
    data = {"csrf_token": token, "player": list(names), "first_player": first, "ship_side": "normal",
            "artifact_variant": "off", "seed": "9", **extra}
    r = client.post("/k/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.location.rsplit("/", 1)[1], token


def act(client, code, token, body):
    return client.post(f"/t/{code}/action", json=body, headers={"X-CSRF-Token": token, "Accept": "application/json"})


def game_of(app, code) -> KnarrGame:
    with app.app_context():
        rec = get_store().get(code)
    assert rec.kind == "knarr"
    return KnarrGame.replay(rec.setup, rec.events)


def test_new_knarr_game_validation(client):
    token = csrf_token(client)
    r = client.post("/k/new", data={"csrf_token": token, "player": ["Solo"]})
    assert r.status_code == 400 and "2 to 4" in r.get_data(as_text=True)
    r = client.post("/k/new", data={"csrf_token": token, "player": ["A", "B"], "colour": ["white", "white"]})
    assert r.status_code == 400
    r = client.post("/k/new", data={"csrf_token": token, "player": ["A", "B"], "artifact_variant": "all"})
    assert r.status_code == 400
    assert client.post("/k/new", data={"player": ["A", "B"]}).status_code == 400  # no CSRF token


def test_knarr_setup_is_stored_resolved(app, client):
    code, _ = new_knarr(client, names=("Ann", "Bob", "Cem"), colour=["black", "white", "brown"], first="2")
    game = game_of(app, code)
    assert [p.name for p in game.setup.players] == ["Ann", "Bob", "Cem"]
    assert [p.colour for p in game.setup.players] == ["black", "white", "brown"]
    assert game.setup.first_player == 2
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Cem&#39;s turn" in html or "Cem's turn" in html


def test_gains_end_turn_and_undo(app, client):
    code, token = new_knarr(client)
    r = act(client, code, token, {"action": "gain", "player": 0, "vp": 3, "reputation": 3, "recruit": 1})
    assert r.status_code == 200
    p = game_of(app, code).to_dict()["players"][0]
    assert (p["score"], p["reputation"], p["recruit"], p["income"]) == (3, 3, 2, 1)
    # two phones tap "end turn" on the same version: one ends it, the other gets 409
    assert act(client, code, token, {"action": "end_turn", "player": 0, "version": 1}).status_code == 200
    r = act(client, code, token, {"action": "end_turn", "player": 0, "version": 1})
    assert r.status_code == 409 and r.get_json()["code"] == "stale"
    assert game_of(app, code).state.active == 1
    r = act(client, code, token, {"action": "end_turn", "player": 0, "version": 2})
    assert r.status_code == 409 and r.get_json()["code"] == "not_active_player"
    # Bob ends his turn: Ann's income (1 VP for reputation 3) is paid at the start of hers
    assert act(client, code, token, {"action": "end_turn", "player": 1, "version": 2}).status_code == 200
    view = game_of(app, code).to_dict()
    assert view["players"][0]["score"] == 4 and view["turn_income"] == 1
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "+1 VP" in html
    assert act(client, code, token, {"action": "undo", "version": 3}).status_code == 200
    assert game_of(app, code).to_dict()["players"][0]["score"] == 3
    r = act(client, code, token, {"action": "gain", "player": 1, "bracelet": -2})
    assert r.status_code == 400
    r = act(client, code, token, {"action": "gain", "player": 1, "vp": "many"})
    assert r.status_code == 400 and r.get_json()["code"] == "bad_number"
    assert game_of(app, code).event_count == 2


def test_last_round_and_tie_break(app, client):
    code, token = new_knarr(client)
    act(client, code, token, {"action": "gain", "player": 0, "vp": 40})
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="last-round"' in html
    assert "space 0, after 1 full lap" in html  # 40 VP: the marker is back at the start of the track
    assert "put back the Vikings marked 3+, 4+" in html  # two players
    act(client, code, token, {"action": "end_turn", "player": 0, "version": 1})
    act(client, code, token, {"action": "gain", "player": 1, "vp": 40, "recruit": 1})
    r = act(client, code, token, {"action": "end_turn", "player": 1, "version": 3})
    assert r.status_code == 200 and r.get_json()["phase"] == "over"
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Bob wins!" in html and "most recruits + bracelets" in html
    client.get("/lang/tr")
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "Bob kazandı!" in html and "devşirme + bilezik" in html
    r = act(client, code, token, {"action": "gain", "player": 0, "vp": 1})
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"


def test_knarr_table_has_no_map_sheets(client):
    code, _ = new_knarr(client)
    assert client.get(f"/t/{code}/print.pdf").status_code == 404
    assert client.get(f"/t/{code}/player/0").status_code == 404


@pytest.mark.browser
def test_knarr_two_phones(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    ann.goto(base + "/")
    ann.click("#new-knarr")
    names = ann.locator("#players input[name=player]")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    ann.select_option("#first-player", "0")
    ann.click("#new-knarr button[type=submit]")
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]{7}$"))
    code = ann.url.rsplit("/", 1)[1]
    bob.goto(f"{base}/t/{code}")
    assert "Sırayı bitir" in bob.inner_text("button[data-act=end_turn]")

    def tap(page, selector):
        before = int(page.get_attribute("#season", "data-version"))
        page.click(selector)
        page.wait_for_selector(f'#season[data-version="{before + 1}"]')

    tap(ann, "#active button[data-gain=vp5]")
    tap(ann, "#active button[data-gain=reputation3]")
    bob.wait_for_selector(".knarr-player[data-player='0'] .kscore[data-score='5']", timeout=2500)
    tap(ann, "button[data-act=end_turn]")
    bob.wait_for_selector("#active[data-player='1']", timeout=2500)
    tap(bob, "#active button[data-gain=vp4]")
    tap(bob, "button[data-act=end_turn]")
    # Ann's turn starts with her reputation income
    ann.wait_for_selector(".notice[data-notice='income_paid']", timeout=2500)
    assert game_of(app, code).to_dict()["players"][0]["score"] == 6
    for page in (ann, bob):
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
