"""Knarr screens: new game, gains, end turn (strict), undo, last round and the final ranking with its tie-break."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from companion.knarr import KnarrGame
from tests.conftest import csrf_token
from tests.test_web_browser import SMALL_TARGETS_JS
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
    """Click and wait until this phone shows a later version of the table (a note may come in between)."""
    before = int(page.get_attribute("#season", "data-version"))
    page.click(selector)
    page.wait_for_function(f"parseInt(document.getElementById('season').dataset.version, 10) > {before}")


@pytest.mark.browser
def test_knarr_two_phones(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    ann.goto(base + "/")
    ann.click("#new-knarr")
    code = create_in_browser(ann)
    assert ann.get_attribute("#join-panel", "data-top") is not None  # the host's invitation first
    bob.goto(f"{base}/t/{code}")
    assert "Sırayı bitir" in bob.inner_text("button[data-act=end_turn]")
    # Bob's phone opened the table: on Ann's phone the invitation folds away below the table, without a reload
    ann.wait_for_selector("#join-panel:not([data-top])", state="attached", timeout=5000)
    assert ann.evaluate("document.getElementById('join-panel').compareDocumentPosition("
                        "document.getElementById('table')) & Node.DOCUMENT_POSITION_PRECEDING")

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


def claim(client, code, token, seat, **extra):
    r = act(client, code, token, {"action": "claim_seat", "player": seat, **extra})
    assert r.status_code == 200, r.get_json()
    return r


def test_virtual_deck_table_shows_the_board_in_both_languages(app, client):
    from companion.knarr.data import ASSET_NAMES, DESTINATION_DECK_NAMES, VIKING_BY_ID, VIKING_COLOUR_NAMES

    code, token = new_knarr(client, virtual_deck="1")
    ds = deck_of(app, code)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    slots = re.findall(r'<div class="vslot" data-slot="(\d)">\s*<span class="vchip vk-(\w+)">[^<]*</span>\s*'
                       r'<span class="vcard vk-(\w+)" data-card="(\d+)">', html)
    assert [(int(s), int(c)) for s, _slot, _c, c in slots] == list(enumerate(ds.slots))
    assert [slot for _s, slot, _c, _id in slots] == ["red", "yellow", "green", "blue", "purple"]
    assert all(VIKING_BY_ID[int(c)].colour == colour for _s, _slot, colour, c in slots)
    face_up = [int(c) for c in re.findall(r'<div class="dcard deck-[AB]" data-card="(\d+)">', html)]
    assert face_up == [*ds.dest_face_up[0], *ds.dest_face_up[1]]
    assert DESTINATION_DECK_NAMES["A"]["en"] in html and DESTINATION_DECK_NAMES["B"]["en"] in html
    assert "Deck: 15 cards" in html  # 30 cards for 2 players: 5 face up, 2 crew + 3 hand each
    assert html.count('class="khand">3<') == 2 and html.count('class="kcrew">2<') == 2
    # the shared table screen (no seat held) shows no hand and no move buttons
    assert 'id="hand-' not in html and 'data-act="recruit"' not in html and 'data-act="end_turn"' not in html
    assert html.count('data-act="claim_seat"') == 2
    client.get("/lang/tr")
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert DESTINATION_DECK_NAMES["A"]["tr"] in html and "Deste: 15 kart" in html
    first = VIKING_BY_ID[ds.slots[0]]
    assert f"<b>{VIKING_COLOUR_NAMES[first.colour]['tr']}</b><span>{ASSET_NAMES[first.gain]['tr']}</span>" in html


def hand_ids(html, seat):
    block = re.search(rf'<details class="hand" id="hand-{seat}".*?</details>', html, re.S)
    return None if block is None else sorted(int(c) for c in re.findall(r'data-card="(\d+)"', block.group(0)))


def test_private_hands_each_phone_sees_only_its_own_and_a_seat_can_be_handed_over(app):
    code, token_a = new_knarr(ann := app.test_client(), virtual_deck="1")
    bob, table, spare = app.test_client(), app.test_client(), app.test_client()
    token_b, token_s = csrf_token(bob), csrf_token(spare)
    for phone in (bob, table, spare):  # each phone joins the table first (here by its short code)
        assert phone.get(f"/t/{code}").status_code == 200
    claim(ann, code, token_a, 0)
    claim(bob, code, token_b, 1)
    ds = deck_of(app, code)
    a, b, t = (c.get(f"/t/{code}").get_data(as_text=True) for c in (ann, bob, table))
    assert hand_ids(a, 0) == sorted(ds.hands[0]) and hand_ids(a, 1) is None
    assert hand_ids(b, 1) == sorted(ds.hands[1]) and hand_ids(b, 0) is None
    assert hand_ids(t, 0) is None and hand_ids(t, 1) is None
    assert 'data-act="recruit"' in a and 'data-act="recruit"' not in b  # Ann's turn, on Ann's phone only
    # Bob cannot play Ann's cards, nor claim her seat by accident; a phone holding no seat plays nothing
    with app.app_context():
        seen = get_store().get(code).version  # the two claims and the note that a second phone opened the table
    assert seen == 3
    r = act(bob, code, token_b, {"action": "recruit", "player": 0, "card": ds.hands[0][0], "version": seen})
    assert r.status_code == 409 and r.get_json()["code"] == "seat_not_yours"
    r = act(bob, code, token_b, {"action": "claim_seat", "player": 0})
    assert r.status_code == 409 and r.get_json()["code"] == "seat_taken"
    r = act(spare, code, token_s, {"action": "end_turn", "player": 0, "version": seen})
    assert r.status_code == 409 and r.get_json()["code"] == "seat_not_yours"
    # Ann's phone is dropped: the spare phone takes the seat over on purpose and sees the hand instead
    claim(spare, code, token_s, 0, takeover="1")
    assert hand_ids(spare.get(f"/t/{code}").get_data(as_text=True), 0) == sorted(ds.hands[0])
    assert hand_ids(ann.get(f"/t/{code}").get_data(as_text=True), 0) is None
    assert "handed over" in spare.get(f"/t/{code}").get_data(as_text=True)
    # seat claims are no moves: nothing to undo yet
    assert not game_of(app, code).to_dict()["can_undo"]


def test_a_whole_turn_is_played_by_the_rules_and_undone_step_by_step(app, client):
    from companion.knarr.data import VIKING_BY_ID

    code, token = new_knarr(client, virtual_deck="on")
    claim(client, code, token, 0)
    start = game_of(app, code)
    before = start.state
    card = before.deck.hands[0][0]
    colour = VIKING_BY_ID[card].colour
    r = act(client, code, token, {"action": "recruit", "player": 0, "card": card, "version": 1})
    assert r.status_code == 200
    html = r.get_json()["html"]
    assert 'id="take-step"' in html and 'data-notice="column_gains"' in html
    after = game_of(app, code).state
    column = [c for c in after.deck.crews[0] if VIKING_BY_ID[c].colour == colour]
    vp = sum(1 for c in column if VIKING_BY_ID[c].gain == "vp")
    assert after.players[0].score == vp  # applied by the app, nothing typed
    # the turn cannot end before the Recruit's take; then the free slot of the played colour
    r = act(client, code, token, {"action": "end_turn", "player": 0, "version": 2})
    assert r.status_code == 409 and r.get_json()["code"] == "take_a_viking_first"
    client.get("/lang/tr")
    r = act(client, code, token, {"action": "end_turn", "player": 0, "version": 2})
    assert "Önce Devşir'i bitirin" in r.get_json()["error"] and "Devşir, son adım" in r.get_json()["html"]
    client.get("/lang/en")
    slot = ["red", "yellow", "green", "blue", "purple"].index(colour)
    r = act(client, code, token, {"action": "take_viking", "player": 0, "slot": slot, "version": 2})
    assert r.status_code == 200
    r = act(client, code, token, {"action": "recruit", "player": 0, "card": game_of(app, code).state.deck.hands[0][0],
                                  "version": 3})
    assert r.status_code == 409 and r.get_json()["code"] == "one_action_per_turn"
    r = act(client, code, token, {"action": "trade", "player": 0, "bracelets": 1, "version": 3})
    assert r.status_code == 200 and 'data-notice="traded"' in r.get_json()["html"]
    assert act(client, code, token, {"action": "end_turn", "player": 0, "version": 4}).status_code == 200
    for version in (5, 6, 7, 8):
        assert act(client, code, token, {"action": "undo", "version": version}).status_code == 200
    assert game_of(app, code).state == replace(before, seats=game_of(app, code).state.seats)


def test_explore_from_a_form_with_the_cards_to_pay(app, client):
    code, token = new_knarr(client, virtual_deck="1")
    claim(client, code, token, 0)
    game = game_of(app, code)
    move = next((m for m in game.legal_moves() if m["type"] == "explore"), None)
    if move is None:  # seed 9 gives Ann an affordable Destination; keep the test honest if data changes
        pytest.skip("no affordable Destination at the start of this seed")
    r = client.post(f"/t/{code}/action", data={"csrf_token": token, "action": "explore", "player": "0",
                                               "version": "1", "card": str(move["card"]),
                                               "pay": [str(c) for c in move["pay"]],
                                               "recruits": str(move["recruits"])})
    assert r.status_code == 303
    state = game_of(app, code).state
    assert state.deck.explored[0] == (move["card"],) and not set(move["pay"]) & set(state.deck.crews[0])


@pytest.mark.parametrize("body, status, code_", [
    ({"action": "take_viking", "player": 0, "slot": 9}, 409, "no_take_now"),
    ({"action": "recruit", "player": 0, "card": 50}, 409, "card_not_available"),
    ({"action": "discard_vikings", "player": 0}, 400, "no_cards"),
    ({"action": "discard_vikings", "player": 0, "cards": ["x"]}, 400, "bad_number"),
    ({"action": "replace_viking", "player": 0, "slot": 0}, 409, "artifact_not_in_play"),
    ({"action": "explore", "player": 0, "card": 99, "pay": [1]}, 409, "card_not_available"),
    ({"action": "trade", "player": 0, "bracelets": 2}, 400, "negative_tokens"),
    ({"action": "end_turn", "player": 0}, 409, "action_first"),
    ({"action": "recruit", "player": 1, "card": 1}, 409, "claim_seat_first"),
])
def test_bad_deck_actions_change_nothing(app, client, body, status, code_):
    code, token = new_knarr(client, virtual_deck="1")
    claim(client, code, token, 0)
    r = act(client, code, token, {**body, "version": 1})
    assert (r.status_code, r.get_json()["code"]) == (status, code_)
    assert game_of(app, code).event_count == 1


def test_mead_cup_is_offered_after_an_explore(app, client):
    code, token = new_knarr(client, virtual_deck="1", artifact_variant="random_with_mead_cup")
    assert "mead_cup" in game_of(app, code).setup.artifacts
    claim(client, code, token, 0)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert 'data-act="replace_viking"' not in html
    game = game_of(app, code)
    move = next((m for m in game.legal_moves() if m["type"] == "explore"), None)
    if move is None:
        pytest.skip("no affordable Destination at the start of this seed")
    r = act(client, code, token, {"action": "explore", "version": 1, **{k: v for k, v in move.items() if k != "type"}})
    assert r.status_code == 200
    html = r.get_json()["html"]
    assert html.count('data-act="replace_viking"') == 5 and 'data-notice="offer_replace"' in html
    before = deck_of(app, code)
    r = act(client, code, token, {"action": "replace_viking", "player": 0, "slot": 4, "version": 2})
    assert r.status_code == 200
    after = deck_of(app, code)
    assert after.discard[-1] == before.slots[4] and after.slots[4] == before.draw_pile[0]
    assert "(Mead Cup)" in r.get_json()["html"]


def no_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def shown_hand(page, seat):
    if not page.locator(f"#hand-{seat}").count():
        return None
    cards = page.locator(f"#hand-{seat} .vcard").evaluate_all("els => els.map(e => e.dataset.card)")
    return sorted(int(c) for c in cards)


@pytest.mark.browser
def test_knarr_four_players_two_phones_virtual_deck_to_the_end(app, live_server, context_factory):
    """A whole 4-player game with the virtual deck, only taps: Ann's English phone holds seats 0 and 2,
    Bob's Turkish phone seats 1 and 3; each phone sees only the hands of its own seats."""
    import random

    app.config["POLL_INTERVAL_MS"] = 250  # the phone that is not playing catches up sooner
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    for page in (ann, bob):
        page.on("dialog", lambda d: d.accept())
    ann.goto(base + "/k/new")
    names = ann.locator("#players input[name=player]")
    for i, name in enumerate(["Ann", "Bob", "Cem", "Dua"]):
        names.nth(i).fill(name)
    ann.select_option("#first-player", "0")
    ann.check("input[name=artifact_variant][value=random]")
    ann.check("#virtual-deck")
    ann.click("#new-knarr details summary")
    ann.fill("#seed", "12")
    ann.click("#new-knarr button[type=submit]")
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]{7}$"))
    code = ann.url.rsplit("/", 1)[1]
    bob.goto(f"{base}/t/{code}")
    assert "Hangi yer sizin?" in bob.inner_text("#seats")
    phone = {0: ann, 2: ann, 1: bob, 3: bob}
    for seat in (0, 2):
        tap(ann, f"button[data-act=claim_seat][data-seat='{seat}']")
    bob.reload()
    for seat in (1, 3):
        tap(bob, f"button[data-act=claim_seat][data-seat='{seat}']")
    def synced(page):
        """Wait until this phone shows the table's current version (its poll has caught up)."""
        with app.app_context():
            version = get_store().get(code).version
        page.wait_for_selector(f'#season[data-version="{version}"]', timeout=2500)

    synced(ann)
    assert ann.locator("#deck[data-mine='0,2'] button[data-act=recruit]").count()

    rng = random.Random(5)
    turns = 0
    while True:
        view = game_of(app, code).to_dict()
        if view["finished"]:
            break
        seat = view["active_player"]
        page = phone[seat]
        synced(page)
        page.wait_for_selector(f"#my-turn[data-player='{seat}']", timeout=2500)
        if turns in (0, 1):  # the rules' own terms, in each phone's language
            words = ("Recruit", "Explore", "Trade") if page is ann else ("Devşir", "Keşfet", "Ticaret")
            text = page.inner_text("#my-turn") + page.inner_text("#deck")
            assert all(w in text for w in words), text[:400]
            other = bob if page is ann else ann
            synced(other)
            assert ("Waiting for" if other is ann else "bekleniyor") in other.inner_text("#active")
        if turns in (0, 9):  # the playing phone's screen fits a 360 px phone, every target a thumb's size
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert no_overflow(page) and page.evaluate(SMALL_TARGETS_JS) == []
        if turns % 7 == 0:  # privacy: each phone shows the hands of its own two seats only
            hands = game_of(app, code).state.deck.hands
            synced(ann)
            synced(bob)
            for p, own in ((ann, (0, 2)), (bob, (1, 3))):
                for s in range(4):
                    assert shown_hand(p, s) == (sorted(hands[s]) if s in own else None)
        if page.locator("button[data-act=trade]").count() and rng.random() < 0.3:
            tap(page, "button[data-act=trade] >> nth=-1")
        explore = page.locator("button[data-act=explore]")
        if explore.count() and rng.random() < 0.6:
            tap(page, f"button[data-act=explore] >> nth={rng.randrange(explore.count())}")
        else:
            recruit = page.locator("button[data-act=recruit]")
            tap(page, f"button[data-act=recruit] >> nth={rng.randrange(recruit.count())}")
            takes = page.locator("button[data-act=take_viking]")
            if takes.count():
                free = page.locator("button[data-act=take_viking][data-cost='0']")
                tap(page, "button[data-act=take_viking][data-cost='0']" if free.count() else
                    "button[data-act=take_viking] >> nth=0")
        for offer in ("reserve", "replace_viking"):
            if page.locator(f"button[data-act={offer}]").count():
                tap(page, f"button[data-act={offer}] >> nth=0")
        assert page.locator("#fix-active").count() == 1  # the +1 buttons stay, folded away
        tap(page, "button[data-act=end_turn]")
        turns += 1
        assert turns < 200
    for page in (ann, bob):
        page.wait_for_selector("#final", timeout=2500)
        assert no_overflow(page)
    view = game_of(app, code).to_dict()
    assert view["finished"] and any(p["score"] >= 40 for p in view["players"])
    assert len({p["turns"] for p in view["players"]}) == 1
    winner = view["players"][view["winners"][0]]["name"]
    assert winner in ann.inner_text("#winner") and winner in bob.inner_text("#winner")
    assert "kazandı" in bob.inner_text("#winner") or "Ortak zafer" in bob.inner_text("#winner")
    # every gain was applied by the app: the log holds no typed gain at all
    assert not [e for e in game_of(app, code).events if e["type"] == "gain"]


def test_a_table_recorded_with_the_old_free_card_moves_gets_a_clear_error(app, client):
    code, token = new_knarr(client, virtual_deck="1")
    with app.app_context():
        store = get_store()
        rec = store.get(code)
        store.swap(code, rec.version, [{"type": "play_viking", "player": 0, "card": 1}])
    r = client.get(f"/t/{code}")
    assert r.status_code == 409 and "older version" in r.get_data(as_text=True)


def test_forced_discard_when_deck_and_discard_are_empty(app, client):
    """Simulated game 15 (2 players) empties deck and discard at event 109: Player 1 must discard."""
    from companion.knarr.sim import play

    sim, _ = play(15, 2)
    events = sim.events[:109]
    with app.app_context():
        store = get_store()
        rec = store.create("knarr", sim.setup.to_dict())
        rec = store.swap(rec.code, rec.version, events)
    code, token = rec.code, csrf_token(client)
    game = game_of(app, code)
    assert game.state.deck.must_discard == (0,)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    with app.app_context():
        rec = get_store().get(code)  # this phone did not start the table: its visit noted a second phone
    assert 'id="must-discard"' in html and "Player 1 must discard 1 Viking" in html
    # nobody holds Player 1's seat: the crew is public, so this (table) phone may tap the discard
    card = game.state.deck.crews[0][0]
    assert f'data-act="discard_vikings" data-card="{card}"' in html
    r = act(client, code, token, {"action": "end_turn", "player": game.state.active, "version": rec.version})
    assert r.status_code == 409
    r = act(client, code, token, {"action": "discard_vikings", "player": 0, "cards": [card], "version": rec.version})
    assert r.status_code == 200 and 'id="must-discard"' not in r.get_json()["html"]
    assert game_of(app, code).state.deck.must_discard == ()
    client.get("/lang/tr")
    assert "ikisi de boş" not in client.get(f"/t/{code}").get_data(as_text=True)
