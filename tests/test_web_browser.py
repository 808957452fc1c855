"""End-to-end in real headless Chromium (Debian's /usr/bin/chromium) against a waitress server on loopback.

Phones are 360 px wide browser contexts; one speaks English, one Turkish.
"""

from __future__ import annotations

import re

import pytest

from companion.cartographers.board import Board
from companion.cartographers.scoring import score_season
from companion.cartographers.session import Game, Setup
from tests.conftest import LiveServer, csrf_token
from web.db import get_store

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def create_game(page, base: str, names: list[str], seed: int) -> str:
    page.goto(base + "/")
    page.click("#new-carto")
    inputs = page.locator("#players input[name=player]")
    for i, name in enumerate(names):
        if i >= inputs.count():
            page.click("#add-player")
        inputs.nth(i).fill(name)
    page.click("#new-game details summary")
    page.fill("#seed", str(seed))
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{7}$"))
    return page.url.rsplit("/", 1)[1]


def table_version(page) -> int:
    return int(page.get_attribute("#season", "data-version"))


def click_action(page, act: str) -> None:
    before = table_version(page)
    page.click(f"button[data-act={act}]")
    # newer than before: a note (another phone joined) may have come in between
    page.wait_for_function(f"Number(document.querySelector('#season').dataset.version) > {before}")


def reveal_to_season_end(page) -> None:
    while page.locator("button[data-act=reveal]").count():
        click_action(page, "reveal")
    page.wait_for_selector("#season-end")


def stored_game(app, code: str) -> Game:
    with app.app_context():
        rec = get_store().get(code)
    return Game.replay(Setup.from_dict(rec.setup), rec.events)


def test_two_phones_play_a_whole_game(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    for p in (ann, bob):
        p.on("dialog", lambda d: d.accept())

    code = create_game(ann, base, ["Ann", "Bob"], seed=21)
    assert "Reveal" in ann.inner_text("button[data-act=reveal]")

    # Bob joins by typing the code (lower case) on the Turkish home page
    bob.goto(base + "/")
    assert "Bir masaya katıl" in bob.inner_text("main")
    bob.fill("#join-code", code.lower())
    bob.click("form[action='/join'] button")
    bob.wait_for_url(f"{base}/t/{code}")
    assert "Kart aç" in bob.inner_text("button[data-act=reveal]")

    # a reveal on one phone shows on the other within 2 s (polling)
    click_action(ann, "reveal")
    bob.wait_for_selector("#turns .turn", timeout=2500)
    first = stored_game(app, code).to_dict()["turns"][0]["cards"][-1]
    assert first["name_tr"] in bob.inner_text("#turns")
    assert first["name_en"] in ann.inner_text("#turns")

    # undo the reveal; both phones are back to an empty season
    click_action(ann, "undo")
    bob.wait_for_selector("#turns", state="detached", timeout=2500)
    assert [e["type"] for e in stored_game(app, code).events] == ["joined"]  # Bob's phone joining is a note

    reveal_to_season_end(ann)
    bob.wait_for_selector("#season-end", timeout=2500)
    assert no_horizontal_scroll(ann) and no_horizontal_scroll(bob)

    # Ann paints her map: forests along the top edge, 3 coins
    ann.click("#season-scores tr[data-player='0'] a")
    ann.wait_for_url(re.compile(r"/player/0"))
    ann.click("#palette button[data-terrain=forest]")
    for c in range(11):
        ann.click(f"#grid .cell[data-r='0'][data-c='{c}']")
    ann.click("#palette button[data-terrain=monster]")
    ann.click("#grid .cell[data-r='5'][data-c='0']")
    ann.fill("#coins", "3")
    ann.click("#score-btn")
    ann.wait_for_selector("#breakdown-panel:not(.hidden)")
    game = stored_game(app, code)
    grid = Board.blank("A").to_words()
    grid[0] = ["forest"] * 11
    grid[5][0] = "monster"
    expected = score_season(Board.from_words("A", grid), game.edicts_for(0), 3)
    assert int(ann.get_attribute("#breakdown-panel", "data-total")) == expected.total
    assert game.season_scores(0)[0]["total"] == expected.total
    # tapping the monster line highlights the empty cells next to the monster
    ann.click("#breakdown li:nth-child(4)")
    assert ann.locator("#grid .cell.hl-neg").count() == expected.monsters.points == 3
    assert no_horizontal_scroll(ann)

    # Bob types his points by hand (Turkish page)
    bob.goto(f"{base}/t/{code}/player/1")
    bob.click("#manual summary")
    bob.fill("#edict1", "7")
    bob.fill("#edict2", "4")
    bob.fill("#m-coins", "2")
    bob.fill("#m-monsters", "1")
    bob.click("#manual-form button[type=submit]")
    bob.wait_for_selector("#flash .flash.info")
    assert "Kaydedildi" in bob.inner_text("#flash")
    assert stored_game(app, code).season_scores(1)[0]["total"] == 12
    assert no_horizontal_scroll(bob)

    ann.goto(f"{base}/t/{code}")
    ann.wait_for_selector("#season-scores tr[data-player='1'] .season-total:text('12')")
    click_action(ann, "next_season")
    bob.goto(f"{base}/t/{code}")
    assert "Yaz" in bob.inner_text("#season h1")

    # the rest of the game: reveal each season out and go on (scores missing: confirm dialog accepted)
    for _season in range(1, 4):
        reveal_to_season_end(ann)
        click_action(ann, "next_season")
    ann.wait_for_selector("#final")
    result = stored_game(app, code).result()
    winner = ("Ann", "Bob")[result["winners"][0]]
    assert f"{winner} wins!" in ann.inner_text("#winner")
    bob.wait_for_selector("#final", timeout=2500)
    assert f"{winner} kazandı!" in bob.inner_text("#winner")
    assert no_horizontal_scroll(ann) and no_horizontal_scroll(bob)


def test_server_restart_mid_game_loses_nothing(app, context_factory):
    server = LiveServer(app)
    port = server.port
    page = context_factory().new_page()
    code = create_game(page, server.url, ["Solo"], seed=2)
    click_action(page, "reveal")
    server.stop()
    # the phone notices the lost connection and says so, without losing the page
    page.wait_for_function("document.getElementById('sync-status').textContent.length > 0", timeout=10_000)
    assert "Connection lost" in page.inner_text("#sync-status")

    # same database, fresh process state, same address: the open page carries on
    from web import create_app

    app2 = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test-key"})
    server2 = LiveServer(app2, port=port)
    try:
        page.wait_for_function("document.getElementById('sync-status').textContent === ''", timeout=15_000)
        click_action(page, "reveal")
        page.reload()
        assert page.locator("#turns .turn").count() == 2
        assert len(stored_game(app2, code).events) == 2
    finally:
        server2.stop()


@pytest.mark.parametrize("locale, button, total_label", [("en-US", "Score this map", "Total"),
                                                          ("tr-TR", "Bu haritayı puanla", "Toplam")])
def test_single_map_scorer(live_server, context_factory, locale, button, total_label):
    page = context_factory(locale=locale).new_page()
    page.goto(live_server.url + "/")
    page.click("#score-map")
    assert button in page.inner_text("#score-btn")
    page.check("#side-choice input[value=B]")
    page.click("#palette button[data-terrain=village]")
    for c in range(6):
        page.click(f"#grid .cell[data-r='10'][data-c='{c}']")
    # the printed wasteland cannot be painted over
    page.click("#grid .cell[data-r='4'][data-c='4']")
    assert page.get_attribute("#grid .cell[data-r='4'][data-c='4']", "data-terrain") == "wasteland"
    page.uncheck("input[name=card][value=sentinel_wood]")
    page.uncheck("input[name=card][value=canal_lake]")
    page.check("input[name=card][value=wildholds]")
    page.fill("#coins", "1")
    page.click("#score-btn")
    page.wait_for_selector("#breakdown-panel:not(.hidden)")
    assert page.get_attribute("#breakdown-panel", "data-total") == "9"  # one 6-village cluster (8) + 1 coin
    assert f"{total_label}: 9" in page.inner_text("#score-total")
    page.click("#breakdown li:first-child")
    assert page.locator("#grid .cell.hl").count() == 6
    assert no_horizontal_scroll(page)


SMALL_TARGETS_JS = """() => {
  const small = [];
  const targets = 'a.btn, button, summary, select, input[type=text], input[type=number], nav.langs a, '
    + '.choices label, label.pick';
  for (const el of document.querySelectorAll(targets)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest('.mapgrid')) continue;
    if (r.height < 43.5 || r.width < 43.5) small.push(el.outerHTML.slice(0, 80) + ' ' + r.width + 'x' + r.height);
  }
  return small;
}"""


def table_pages(app) -> dict[str, str]:
    """One table of each kind in a telling state: mid-season, season end, Knarr with and without the deck."""
    client = app.test_client()
    token = csrf_token(client)
    headers = {"X-CSRF-Token": token, "Accept": "application/json"}
    play = client.post("/c/new", data={"csrf_token": token, "player": ["Ayşegül", "Bob"], "seed": "3"})
    play = play.location.rsplit("/", 1)[1]
    version = 0
    while True:
        body = client.post(f"/t/{play}/action", json={"action": "reveal", "version": version},
                           headers=headers).get_json()
        version = body["version"]
        if body["phase"] == "season_end":
            break
    client.post(f"/t/{play}/action", json={"action": "score", "player": 0, "edict1": 3, "edict2": 1},
                headers=headers)
    knarr = {}
    for deck in ("", "1"):
        r = client.post("/k/new", data={"csrf_token": token, "player": ["Ayşegül", "Bob", "Cem"],
                                        "virtual_deck": deck, "seed": "5", "artifact_variant": "random"})
        knarr[deck] = r.location.rsplit("/", 1)[1]
    return {"season end": f"/t/{play}", "player": f"/t/{play}/player/1", "photo": f"/t/{play}/photo",
            "knarr": f"/t/{knarr['']}", "knarr deck": f"/t/{knarr['1']}", "error": "/t/ZZZZZZZ"}


@pytest.mark.parametrize("locale", ["en-US", "tr-TR"])
def test_pages_fit_a_360px_phone(app, live_server, context_factory, locale):
    """Every page: no sideways scrolling, the TR/EN toggle, and tap targets of at least 44 px."""
    page = context_factory(locale=locale).new_page()
    paths = ["/", "/c/new", "/score", "/print", "/k/new", *table_pages(app).values()]
    for path in paths:
        page.goto(live_server.url + path)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert no_horizontal_scroll(page), path
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        assert page.locator("nav.langs a[data-lang]").count() == 2, path
        assert page.evaluate(SMALL_TARGETS_JS) == [], path


def test_print_page_downloads_the_chosen_sheet(live_server, context_factory):
    page = context_factory(locale="tr-TR").new_page()
    page.goto(live_server.url + "/print")
    page.check("input[name=kind][value=score]")
    page.fill("#players", "3")
    page.fill("#copies", "1")
    with page.expect_download() as info:
        page.click("#print-form button[type=submit]")
    download = info.value
    assert download.suggested_filename == "mapsmith-score.pdf"
    with open(download.path(), "rb") as fh:
        assert fh.read(5) == b"%PDF-"


def test_grid_editor_by_keyboard(live_server, context_factory):
    page = context_factory(locale="en-US", width=800).new_page()
    page.goto(live_server.url + "/score")
    cell = "#grid .cell[data-r='{}'][data-c='{}']"

    def terrain(r, c):
        return page.get_attribute(cell.format(r, c), "data-terrain")

    def focused():
        return page.evaluate("[document.activeElement.dataset.r, document.activeElement.dataset.c].join(',')")

    # the grid is one tab stop after the palette
    page.locator("#palette button").last.focus()
    page.keyboard.press("Tab")
    assert focused() == "0,0"
    assert page.locator("#grid .cell[tabindex='0']").count() == 1
    # the focused square is clearly marked
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineWidth")
    assert outline == "4px"
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    assert focused() == "1,2"
    page.keyboard.press("1")
    assert terrain(1, 2) == "forest"
    page.keyboard.press("ArrowRight")  # B4 on side A is a printed mountain: keys cannot change it
    page.keyboard.press("w")
    assert terrain(1, 3) == "mountain"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("w")
    assert terrain(1, 4) == "water"
    assert page.get_attribute("#palette button[data-terrain=water]", "aria-pressed") == "true"
    page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")  # Space paints the chosen terrain
    assert terrain(2, 4) == "water"
    page.keyboard.press("a")  # forest took F, so farm is A in English (the palette shows it)
    assert terrain(2, 4) == "farm"
    assert "A" in page.inner_text("#palette button[data-terrain=farm] kbd")
    page.keyboard.press("Delete")
    assert terrain(2, 4) == "empty"
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert focused() == "2,9"
    for _ in range(15):  # the edge stops the cursor
        page.keyboard.press("ArrowUp")
    assert focused() == "0,9"
    # the keys follow the page language: K is köy (village) in Turkish; touch still paints as before
    tr = context_factory(locale="tr-TR").new_page()
    tr.goto(live_server.url + "/score")
    tr.focus(cell.format(0, 0))
    tr.keyboard.press("k")
    assert tr.get_attribute(cell.format(0, 0), "data-terrain") == "village"
    tr.click("#palette button[data-terrain=monster]")
    tr.click(cell.format(0, 1))
    assert tr.get_attribute(cell.format(0, 1), "data-terrain") == "monster"
