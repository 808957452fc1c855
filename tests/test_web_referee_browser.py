"""The season referee in real headless Chromium: a photo reading is judged against the season's cards, the coin
track fills itself, a slip is marked on the grid with the likely card, and saving is never blocked."""

from __future__ import annotations

import json

import pytest

from companion.cartographers.simulate import play_table
from companion.cartographers.terrain import Terrain
from web.db import get_store

pytestmark = pytest.mark.browser


def season_waiting_for_player_0(app):
    """A table whose first season has ended; player 1 has scored, player 0 has not saved a map yet."""
    t = play_table(21, players=2, seasons=1, side="A")
    events = [e for e in t.events if not (e["type"] == "score" and e["player"] == 0)]
    with app.app_context():
        code = get_store().create("cartographers", t.setup.to_dict(), events).code
    return t, code


def isolated_empty_cell(board):
    drawn = {c for t in (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER)
             for c in board.cells_of(t)}
    for r, c in sorted(board.empty_cells):
        if not any((r + dr, c + dc) in drawn for dr in (-2, -1, 0, 1, 2) for dc in (-2, -1, 0, 1, 2)):
            return r, c
    return sorted(board.empty_cells)[0]


@pytest.mark.parametrize("locale, ok_text, bad_text", [
    ("en-US", "match the cards", "don't match the cards"),
    ("tr-TR", "kartlarla uyuşuyor", "kartlarla uyuşmuyor"),
])
def test_photo_reading_is_judged_and_a_slip_is_marked(app, live_server, context_factory, locale, ok_text,
                                                      bad_text):
    t, code = season_waiting_for_player_0(app)
    board = t.boards[0][0]
    page = context_factory(locale=locale).new_page()
    page.goto(f"{live_server.url}/t/{code}/player/0")
    page.wait_for_selector("#referee-panel")
    assert page.locator("#referee-none").count() == 1
    # a photo reading arrives (the vision pipeline's JSON); its coin track says 13
    reading = {"side": "A", "grid": board.to_words(), "coins": 13, "doubtful": [], "warnings": []}
    page.evaluate(f"window.MapsmithGrid.applyReading({json.dumps(reading)})")
    page.wait_for_selector("#referee-ok")
    assert ok_text in page.inner_text("#referee-panel")
    expected = t.shape_coins[0][0] + sum(
        1 for m in board.cells_of(Terrain.MOUNTAIN)
        if all(board.is_filled(n) for n in ((m[0] - 1, m[1]), (m[0] + 1, m[1]), (m[0], m[1] - 1), (m[0], m[1] + 1))))
    page.wait_for_function(f"document.getElementById('coins').value === '{expected}'")
    if expected != 13:
        assert page.locator("#referee-coins-photo").count() == 1  # the disagreement is shown, not hidden

    # a slip: one square of village where no card drew
    r, c = isolated_empty_cell(board)
    page.click("#palette button[data-terrain=village]")
    page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
    page.wait_for_selector("#referee-bad")
    assert bad_text in page.inner_text("#referee-panel")
    marked = page.locator(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
    assert "ref-bad" in marked.get_attribute("class")

    # nothing is blocked: the map is scored as drawn
    page.click("#score-btn")
    page.wait_for_selector("#breakdown-panel:not(.hidden)")
    with app.app_context():
        rec = get_store().get(code)
    last = rec.events[-1]
    assert last["type"] == "score" and last["player"] == 0 and last["grid"][r][c] == "village"
    page.wait_for_selector("#referee-bad")


def test_history_page_in_the_browser(app, live_server, context_factory):
    t = play_table(23, players=2, seasons=4, side="A")
    with app.app_context():
        code = get_store().create("cartographers", t.setup.to_dict(), list(t.events)).code
    page = context_factory(locale="en-US").new_page()
    page.goto(live_server.url + "/")
    page.click("#history")
    page.wait_for_selector(f'.history-game[data-code="{code}"]')
    page.click(f'.history-game[data-code="{code}"] a')
    page.wait_for_selector(".history-season")
    assert page.locator(".history-season").count() == 4
    assert page.locator(".history-map .mapgrid").count() == 8
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_saved_slip_is_marked_when_the_page_opens(app, live_server, context_factory):
    t = play_table(21, players=2, seasons=1, side="A")
    events = [dict(e) for e in t.events]
    last = max(i for i, e in enumerate(events) if e["type"] == "score" and e["player"] == 1)
    r, c = isolated_empty_cell(t.boards[1][0])
    events[last] = {**events[last], "grid": t.boards[1][0].draw([(r, c)], Terrain.VILLAGE).to_words()}
    with app.app_context():
        code = get_store().create("cartographers", t.setup.to_dict(), events).code
    page = context_factory(locale="en-US").new_page()
    page.goto(f"{live_server.url}/t/{code}/player/1")
    page.wait_for_selector("#referee-bad")
    cell = page.locator(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
    page.wait_for_function(
        f"document.querySelector('#grid .cell[data-r=\"{r}\"][data-c=\"{c}\"]').classList.contains('ref-bad')")
    assert cell.get_attribute("title")  # the likely card, on hover / long press
