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


def test_knarr_table_prints_its_score_pad_and_no_map_sheets(client):
    from printables.raster import page_count

    code, _ = new_knarr(client, names=("Ann", "Bob", "Cem"))
    assert f'href="/t/{code}/print.pdf?lang=en"' in client.get(f"/t/{code}").get_data(as_text=True)
    r = client.get(f"/t/{code}/print.pdf?lang=tr")
    assert r.status_code == 200 and r.data.startswith(b"%PDF") and page_count(r.data) == 1
    assert f"mapsmith-{code}-knarr.pdf" in r.headers["Content-Disposition"]
    import pypdfium2 as pdfium

    title = pdfium.PdfDocument(r.data).get_metadata_dict()["Title"]
    assert title == "Knarr score pad (3 players)"  # sized for the table's three players
    text = pdfium.PdfDocument(r.data)[0].get_textpage().get_text_range()
    assert all(name in text for name in ("Ann", "Bob", "Cem"))
    assert client.get(f"/t/{code}/print.pdf?kind=map").status_code == 404
    assert client.get(f"/t/{code}/player/0").status_code == 404


def create_in_browser(page, virtual_deck: bool = False) -> str:
    """Fill the open New Knarr game form for Ann and Bob (Ann first) and return the new table's code."""
    names = page.locator("#players input[name=player]")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    page.select_option("#first-player", "0")
    if virtual_deck:
        page.check("#virtual-deck")
    page.click("#new-knarr button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{7}$"))
    return page.url.rsplit("/", 1)[1]


def tap(page, selector):
    """Click and wait until this phone shows the table's next version."""
    before = int(page.get_attribute("#season", "data-version"))
    page.click(selector)
    page.wait_for_selector(f'#season[data-version="{before + 1}"]')


@pytest.mark.browser
def test_knarr_two_phones(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    ann.goto(base + "/")
    ann.click("#new-knarr")
    code = create_in_browser(ann)
    bob.goto(f"{base}/t/{code}")
    assert "Sırayı bitir" in bob.inner_text("button[data-act=end_turn]")

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


# --- the virtual Viking and Destination deck ---------------------------------------------------

def deck_of(app, code):
    ds = game_of(app, code).state.deck
    assert ds is not None
    return ds


def test_virtual_deck_is_off_unless_asked(app, client):
    code, token = new_knarr(client)
    assert game_of(app, code).state.deck is None
    assert 'id="deck"' not in client.get(f"/t/{code}").get_data(as_text=True)
    r = act(client, code, token, {"action": "take_viking", "player": 0, "slot": 0, "version": 0})
    assert r.status_code == 409 and r.get_json()["code"] == "no_virtual_deck"


def test_virtual_deck_table_shows_the_board_in_both_languages(app, client):
    from companion.knarr.data import ASSET_NAMES, DESTINATION_DECK_NAMES, VIKING_BY_ID, VIKING_COLOUR_NAMES

    code, _ = new_knarr(client, virtual_deck="1")
    ds = deck_of(app, code)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    slots = re.findall(r'<div class="vslot" data-slot="(\d)">\s*<span class="vcard vk-(\w+)" data-card="(\d+)">', html)
    assert [(int(s), int(c)) for s, _c, c in slots] == list(enumerate(ds.slots))
    assert all(VIKING_BY_ID[int(c)].colour == colour for _s, colour, c in slots)
    face_up = [int(c) for c in re.findall(r'<div class="dcard deck-[AB]" data-card="(\d+)">', html)]
    assert face_up == [*ds.dest_face_up[0], *ds.dest_face_up[1]]
    assert DESTINATION_DECK_NAMES["A"]["en"] in html and DESTINATION_DECK_NAMES["B"]["en"] in html
    assert "Deck: 15 cards" in html  # 30 cards for 2 players: 5 face up, 2 crew + 3 hand each
    hand = ds.hands[0]
    assert len(re.findall(r'data-act="play_viking" data-card="(\d+)"', html)) == len(hand) == 3
    assert html.count('class="khand">3<') == 2 and html.count('class="kcrew">2<') == 2
    client.get("/lang/tr")
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert DESTINATION_DECK_NAMES["A"]["tr"] in html and "Deste: 15 kart" in html
    first = VIKING_BY_ID[ds.slots[0]]
    assert f"<b>{VIKING_COLOUR_NAMES[first.colour]['tr']}</b><span>{ASSET_NAMES[first.gain]['tr']}</span>" in html


def test_virtual_deck_actions_go_through_the_engine_with_undo(app, client):
    code, token = new_knarr(client, virtual_deck="on")
    before = deck_of(app, code)
    taken, top = before.slots[1], before.draw_pile[0]
    r = act(client, code, token, {"action": "take_viking", "player": 0, "slot": 1, "version": 0})
    assert r.status_code == 200
    ds = deck_of(app, code)
    assert ds.hands[0][-1] == taken and ds.slots[1] == top
    # strict: a second phone that still showed version 0 takes nothing
    r = act(client, code, token, {"action": "take_viking", "player": 0, "slot": 1, "version": 0})
    assert r.status_code == 409 and r.get_json()["code"] == "stale"
    # recruit with the column's assets: one event, one undo step
    card = ds.hands[0][0]
    score_before = game_of(app, code).state.players[0]
    r = act(client, code, token, {"action": "play_viking", "player": 0, "card": card, "collect": "1", "version": 1})
    assert r.status_code == 200 and card in deck_of(app, code).crews[0]
    assert game_of(app, code).state.players[0] != score_before
    assert "column_gains" in r.get_json()["html"]
    # explore: a face-up destination moves above the ship and its slot refills from the same pile
    dest = ds.dest_face_up[1][2]
    r = act(client, code, token, {"action": "take_destination", "player": 0, "card": dest, "version": 2})
    assert r.status_code == 200
    ds = deck_of(app, code)
    assert ds.explored[0] == (dest,) and dest not in ds.dest_face_up[1] and None not in ds.dest_face_up[1]
    # discard two crew cards at once (a form's ticked checkboxes arrive as a list)
    crew = list(ds.crews[0][:2])
    r = client.post(f"/t/{code}/action", data={"csrf_token": token, "action": "discard_vikings", "player": "0",
                                               "version": "3", "cards": [str(c) for c in crew]})
    assert r.status_code == 303
    ds = deck_of(app, code)
    assert ds.discard == tuple(crew) and not set(crew) & set(ds.crews[0])
    r = act(client, code, token, {"action": "draw_viking", "player": 0, "to": "hand", "version": 4})
    assert r.status_code == 200 and len(deck_of(app, code).hands[0]) == len(ds.hands[0]) + 1
    # undo walks back through the deck events, one at a time
    for version in (5, 6, 7):
        assert act(client, code, token, {"action": "undo", "version": version}).status_code == 200
    assert deck_of(app, code).explored[0] == () and len(deck_of(app, code).crews[0]) == 3


@pytest.mark.parametrize("body, status, code_", [
    ({"action": "take_viking", "player": 0, "slot": 9}, 400, "malformed_event"),
    ({"action": "play_viking", "player": 0, "card": 50}, 409, "card_not_available"),
    ({"action": "draw_viking", "player": 0, "to": "table"}, 400, "bad_field"),
    ({"action": "discard_vikings", "player": 0}, 400, "no_cards"),
    ({"action": "discard_vikings", "player": 0, "cards": ["x"]}, 400, "bad_number"),
    ({"action": "replace_viking", "slot": 0}, 409, "artifact_not_in_play"),
    ({"action": "take_destination", "player": 7, "card": 1}, 400, "unknown_player"),
])
def test_bad_deck_actions_change_nothing(app, client, body, status, code_):
    code, token = new_knarr(client, virtual_deck="1")
    r = act(client, code, token, {**body, "version": 0})
    assert (r.status_code, r.get_json()["code"]) == (status, code_)
    assert game_of(app, code).event_count == 0


def test_deck_and_discard_both_empty_asks_the_biggest_crew_to_discard(app, client):
    code, token = new_knarr(client, virtual_deck="1")
    version = 0
    # draw the whole Viking deck into Ann's crew: the next draw finds deck and discard empty
    while deck_of(app, code).draw_pile:
        r = act(client, code, token, {"action": "draw_viking", "player": 0, "to": "crew", "version": version})
        assert r.status_code == 200
        version += 1
    r = act(client, code, token, {"action": "draw_viking", "player": 1, "to": "hand", "version": version})
    version += 1
    assert r.status_code == 200
    html = r.get_json()["html"]
    assert 'id="must-discard"' in html and "Ann must discard 1 Viking" in html
    ds = deck_of(app, code)
    assert ds.must_discard == (0,) and ds.pending == (("hand", 1),)
    client.get("/lang/tr")
    assert "ikisi de boş" in client.get(f"/t/{code}").get_data(as_text=True)
    card = ds.crews[0][-1]
    r = act(client, code, token, {"action": "discard_vikings", "player": 0, "cards": [card], "version": version})
    assert r.status_code == 200 and 'id="must-discard"' not in r.get_json()["html"]
    ds = deck_of(app, code)
    assert ds.must_discard == () and ds.hands[1][-1] == card  # the discarded card was the only one to draw


@pytest.mark.browser
def test_knarr_two_phones_with_the_virtual_deck(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    ann.goto(base + "/k/new")
    code = create_in_browser(ann, virtual_deck=True)
    bob.goto(f"{base}/t/{code}")
    assert "Tahtadaki Viking'ler" in bob.inner_text("#deck")

    start = deck_of(app, code)
    # Ann takes the face-up Viking of slot 3; the slot refills from the deck on both phones
    tap(ann, "button[data-act=take_viking][data-slot='2']")
    bob.wait_for_selector(f"#slots .vslot[data-slot='2'] .vcard[data-card='{start.draw_pile[0]}']", timeout=2500)
    # she opens her hand (it stays open across redraws) and recruits that card with its column's assets
    ann.click("#hand-0 summary")
    tap(ann, f"#hand-0 button[data-act=play_viking][data-card='{start.slots[2]}']")
    assert ann.locator("#hand-0").get_attribute("open") is not None
    ann.wait_for_selector(".notice[data-notice='column_gains']")
    assert start.slots[2] in deck_of(app, code).crews[0]
    tap(ann, "button[data-act=draw_crew]")
    tap(ann, "button[data-act=end_turn]")
    bob.wait_for_selector("#my-cards[data-player='1']", timeout=2500)
    # Bob explores a Trading Land, discarding two crew Vikings as its cost, then undoes the discard
    dest = deck_of(app, code).dest_face_up[0][0]
    tap(bob, f"button[data-act=take_destination][data-card='{dest}']")
    bob.locator(".crew-form input[name=cards]").nth(0).check()
    bob.locator(".crew-form input[name=cards]").nth(1).check()
    tap(bob, ".crew-form button[data-act=discard_vikings]")
    assert len(deck_of(app, code).crews[1]) == 0 and deck_of(app, code).explored[1] == (dest,)
    ann.wait_for_selector("#piles:has-text('Discard pile: 2 cards')", timeout=2500)
    bob.on("dialog", lambda d: d.accept())
    tap(bob, "button[data-act=undo]")
    assert len(deck_of(app, code).crews[1]) == 2
    assert no_overflow(ann) and no_overflow(bob)
    # the rest of a short game: Bob, last in the round, reaches 40; the game ends with his turn
    for _ in range(8):
        tap(bob, "#active button[data-gain=vp5]")
    ann.wait_for_selector("#last-round", timeout=2500)
    tap(bob, "button[data-act=end_turn]")
    ann.wait_for_selector("#final", timeout=2500)
    assert "Bob kazandı!" in bob.inner_text("#winner")
    assert ann.locator("#deck").count() == 0


def no_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_mead_cup_replaces_a_face_up_viking_and_other_hands_show_on_request(app, client):
    code, token = new_knarr(client, virtual_deck="1", artifact_variant="random_with_mead_cup")
    assert "mead_cup" in game_of(app, code).setup.artifacts
    before = deck_of(app, code)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert html.count('data-act="replace_viking"') == 5
    # Bob's hand is folded away on his row (Ann is playing): tap to show, for the player themself
    shown = re.search(r'<details class="hand" id="hand-view-1">.*?</details>', html, re.S).group(0)
    assert sorted(int(c) for c in re.findall(r'data-card="(\d+)"', shown)) == sorted(before.hands[1])
    assert 'id="hand-view-0"' not in html
    r = act(client, code, token, {"action": "replace_viking", "slot": 4, "version": 0})
    assert r.status_code == 200
    after = deck_of(app, code)
    assert after.discard == (before.slots[4],) and after.slots[4] == before.draw_pile[0]
    assert "slot 5 was replaced (Mead Cup)" in r.get_json()["html"]
