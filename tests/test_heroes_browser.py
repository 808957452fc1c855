"""A whole Cartographers Heroes game in real headless Chromium: three players (English and Turkish phones) and
solo (Turkish), with the hero drawn from a phone and the Heroes season clock (Summer at 7)."""

from __future__ import annotations

import re

import pytest

from companion.cartographers.data import HERO_PREFIX
from tests.test_web_browser import click_action, no_horizontal_scroll, reveal_to_season_end, stored_game

pytestmark = pytest.mark.browser


def create_heroes_game(page, base: str, names: list[str], seed: int, side: str) -> str:
    page.goto(base + "/c/new")
    inputs = page.locator("#players input[name=player]")
    for i, name in enumerate(names):
        if i >= inputs.count():
            page.click("#add-player")
        inputs.nth(i).fill(name)
    page.check("input[name=deck][value=heroes]")
    page.check(f"input[name=side][value={side}]")
    assert page.locator("#mixing-note").is_visible()
    page.click("#new-game details summary")
    page.fill("#seed", str(seed))
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{7}$"))
    return page.url.rsplit("/", 1)[1]


def reveal_until_hero(page, app, code) -> str:
    while True:
        if page.locator("#season-end").count():
            click_action(page, "next_season")
        click_action(page, "reveal")
        last = stored_game(app, code).turns[-1]["cards"][-1]
        if last.startswith(HERO_PREFIX):
            return last


def test_three_players_play_heroes(app, live_server, context_factory):
    base = live_server.url
    ann = context_factory(locale="en-US").new_page()
    bob = context_factory(locale="tr-TR").new_page()
    for p in (ann, bob):
        p.on("dialog", lambda d: d.accept())
    code = create_heroes_game(ann, base, ["Ann", "Bob", "Cem"], seed=8, side="C")
    assert stored_game(app, code).setup.deck == "heroes"
    hero = reveal_until_hero(ann, app, code)
    ann.wait_for_selector(".card.hero-card.latest")
    assert "Everyone draws a single hero square" in ann.inner_text(".card.hero-card.latest")
    assert ann.locator(".card.hero-card.latest .hero-pattern i.hit").count() >= 3
    bob.goto(f"{base}/t/{code}")
    bob.wait_for_selector(".card.hero-card.latest")
    assert "Kahraman" in bob.inner_text(".card.hero-card.latest")
    assert no_horizontal_scroll(ann) and no_horizontal_scroll(bob)

    # Bob (Turkish phone) draws his hero on F6, pattern turned a quarter right
    bob.goto(f"{base}/t/{code}/player/1")
    bob.fill("#hero-cell", "F6")
    bob.select_option("#hero-orientation", "1")
    bob.click("#hero-form button[type=submit]")
    bob.wait_for_selector("#hero-panel", state="detached")
    game = stored_game(app, code)
    assert game.events[-1] == {"type": "hero", "player": 1, "hero": hero.removeprefix(HERO_PREFIX), "cell": [5, 5],
                               "orientation": 1}
    assert game.hits(1)

    # play the game out: Summer's clock shows 7 on both phones
    ann.goto(f"{base}/t/{code}")
    while stored_game(app, code).season == 0:
        reveal_to_season_end(ann)
        click_action(ann, "next_season")
    assert "/ 7" in ann.inner_text("#clock-text")
    bob.goto(f"{base}/t/{code}")
    assert "Yaz" in bob.inner_text("#season h1") and "/ 7" in bob.inner_text("#clock-text")
    while stored_game(app, code).phase != "over":
        reveal_to_season_end(ann)
        click_action(ann, "next_season")
    ann.wait_for_selector("#final")
    bob.wait_for_selector("#final", timeout=2500)


def test_solo_heroes_in_turkish(app, live_server, context_factory):
    base = live_server.url
    page = context_factory(locale="tr-TR").new_page()
    page.on("dialog", lambda d: d.accept())
    code = create_heroes_game(page, base, ["Ece"], seed=3, side="D")
    # save the blank map so that the app can place ambushes by the solo corner rule
    page.goto(f"{base}/t/{code}/player/0")
    page.click("#save-map-btn")
    page.wait_for_selector("#flash .flash.info")
    page.goto(f"{base}/t/{code}")
    while not stored_game(app, code).removed_ambushes:
        if page.locator("#season-end").count():
            click_action(page, "next_season")
        click_action(page, "reveal")
    page.wait_for_selector(".card.ambush .solo-cells")
    assert "Kalıcı etki" in page.inner_text(".card.ambush")
    while stored_game(app, code).phase != "over":
        if page.locator("#season-end").count():
            click_action(page, "next_season")
        else:
            click_action(page, "reveal")
    page.wait_for_selector("#solo-result")
    assert no_horizontal_scroll(page)
