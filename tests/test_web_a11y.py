"""axe-core in real Chromium on every kind of page, in Turkish and English: no critical or serious violation.

axe-core's own script comes from the `axe-playwright-python` wheel (installed from pyproject's test extras),
so nothing is downloaded while the tests run; it is injected into each page and run there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cartographers.session import AMBUSH_PREFIX, Game, Setup
from tests.test_web_knarr import new_knarr
from tests.test_web_routes import act, new_game

pytestmark = pytest.mark.browser

BLOCKING = ("critical", "serious")
# the moderate and minor findings of the newcomer's pass stay fixed too
ALSO_REFUSED = ("heading-order", "empty-table-header", "label", "select-name", "target-size")


def axe_script() -> str:
    import axe_playwright_python as axe  # a test extra (pyproject): missing means the install is broken

    return (Path(axe.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page, script: str) -> list[dict]:
    page.evaluate(script)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return result["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        why = v["nodes"][0]["failureSummary"][:160]
        lines.append(f"{v['impact']}: {v['id']} ({len(v['nodes'])}) {targets} :: {why}")
    return "\n".join(lines)


def ambush_seed(players: tuple[str, ...]) -> tuple[int, int]:
    for seed in range(300):
        game = Game.new(Setup(seed=seed, players=players))
        while game.phase == "explore":
            game = game.apply({"type": "reveal"})
            if game.turns[-1]["cards"][-1].startswith(AMBUSH_PREFIX) and len(game.turns) > 1:
                return seed, len(game.events)
    raise AssertionError("no ambush found")


def table_pages(app, client) -> list[str]:
    """Ten pages and more: every screen a player meets, in its interesting states."""
    players = ("Ayşe", "Bora", "Cem")
    seed, reveals = ambush_seed(players)
    code, token = new_game(client, players=players, seed=seed)
    for version in range(reveals):
        assert act(client, code, token, "reveal", version).status_code == 200
    ended, token2 = new_game(client, players=("Ann", "Bob"), seed=5)
    version = 0
    while act(client, ended, token2, "reveal", version).status_code == 200:
        version += 1
    solo, _token3 = new_game(client, players=("Solo",), seed=7)
    over, token4 = new_game(client, players=("Ann", "Bob"), seed=9)
    version = 0
    for _season in range(4):  # a whole game, so the final scores and ranking are checked too
        while act(client, over, token4, "reveal", version).status_code == 200:
            version += 1
        assert act(client, over, token4, "next_season", version).status_code == 200
        version += 1
    knarr, _ = new_knarr(client, names=("Ayşe", "Bora"))
    deck, _ = new_knarr(client, names=("Ann", "Bob", "Cem"), virtual_deck="1")
    return ["/", "/c/new", "/k/new", "/score", "/print", f"/t/{code}", f"/t/{ended}", f"/t/{solo}",
            f"/t/{code}/player/1", f"/t/{ended}/player/0", f"/t/{code}/photo", f"/t/{knarr}", f"/t/{deck}",
            f"/t/{over}", "/t/NOSUCH1"]


@pytest.mark.parametrize("locale", ["tr-TR", "en-US"])
def test_every_page_has_no_critical_or_serious_axe_violation(app, client, live_server, context_factory, locale):
    script = axe_script()
    pages = table_pages(app, client)
    assert len(pages) >= 10
    page = context_factory(locale=locale).new_page()
    failures = []
    for path in pages:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        for d in page.locator("details").all():  # folded panels are checked open
            d.evaluate("el => el.open = true")
        found = axe_violations(page, script)
        bad = [v for v in found if v["impact"] in BLOCKING or v["id"] in ALSO_REFUSED]
        if bad:
            failures.append(f"{path}:\n{describe(bad)}")
    assert not failures, "\n".join(failures)


def test_editor_squares_are_easy_to_hit_on_a_360px_phone(live_server, context_factory):
    page = context_factory(locale="en-US", width=360).new_page()
    page.goto(live_server.url + "/score")
    cell = "#grid .cell[data-r='{}'][data-c='{}']"
    small = page.locator(cell.format(0, 0)).bounding_box()
    assert small["width"] < 32  # eleven columns on a 360 px screen: the reason for the large squares
    page.click("#grid-zoom")
    assert page.get_attribute("#grid-zoom", "aria-pressed") == "true"
    box = page.locator(cell.format(3, 7)).bounding_box()
    assert box["width"] >= 32 and box["height"] >= 32
    page.click("#palette button[data-terrain=water]")
    page.click(cell.format(3, 7))
    assert page.get_attribute(cell.format(3, 7), "data-terrain") == "water"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.click("#grid-zoom")
    assert page.locator(cell.format(0, 0)).bounding_box()["width"] < 32


@pytest.mark.parametrize("locale, empty, drawn", [("en-US", "B6: ruins", "B6: farm (ruins)"),
                                                  ("tr-TR", "B6: harabe", "B6: tarla (harabe)")])
def test_ruins_squares_are_announced_as_ruins(live_server, context_factory, locale, empty, drawn):
    page = context_factory(locale=locale).new_page()
    page.goto(live_server.url + "/score")
    ruins = "#grid .cell[data-r='1'][data-c='5']"  # side A's ruins at B6
    assert page.get_attribute(ruins, "aria-label") == empty
    page.click("#palette button[data-terrain=farm]")
    page.click(ruins)
    assert page.get_attribute(ruins, "aria-label") == drawn


def test_terrain_areas_carry_patterns_that_survive_colour_blindness(live_server, context_factory):
    page = context_factory(locale="en-US").new_page()
    page.goto(live_server.url + "/score")
    patterns = {}
    for r, terrain in enumerate(("forest", "village", "water", "monster", "farm")):
        page.click(f"#palette button[data-terrain={terrain}]")
        page.click(f"#grid .cell[data-r='{r + 4}'][data-c='0']")
        patterns[terrain] = page.eval_on_selector(f"#grid .cell[data-r='{r + 4}'][data-c='0']",
                                                  "el => getComputedStyle(el).backgroundImage")
    assert all(p != "none" for p in patterns.values())
    # the pairs that merge under deuteranopia look different as areas
    assert patterns["forest"] != patterns["village"] and patterns["water"] != patterns["monster"]


def test_the_host_sees_the_invitation_first_until_another_phone_joins(live_server, context_factory):
    from tests.test_web_browser import create_game

    host = context_factory(locale="en-US").new_page()
    code = create_game(host, live_server.url, ["Ayşe", "Bora", "Cem"], seed=4)
    order = "document.getElementById('join-panel').compareDocumentPosition(document.getElementById('table'))"
    assert host.evaluate(order) & 4  # the invitation comes first (the table follows it)
    assert host.evaluate("document.getElementById('join-panel').open")
    host.evaluate("document.getElementById('join-panel').open = false")
    host.click("[data-show-invite]")  # the code badge brings the code and QR back
    assert host.evaluate("document.getElementById('join-panel').open")
    assert host.locator("#join-panel img").is_visible()
    guest = context_factory(locale="tr-TR").new_page()
    guest.goto(f"{live_server.url}/t/{code}")
    host.wait_for_function(f"({order}) & 2", timeout=5000)  # now below the table
    assert not host.evaluate("document.getElementById('join-panel').open")


def test_large_squares_are_on_by_default_on_a_small_touch_screen(browser, live_server):
    ctx = browser.new_context(viewport={"width": 360, "height": 780}, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(live_server.url + "/score")
        assert page.get_attribute("#grid-zoom", "aria-pressed") == "true"
        assert page.locator("#grid .cell[data-r='5'][data-c='5']").bounding_box()["width"] >= 32
        page.tap("#palette button[data-terrain=village]")
        page.tap("#grid .cell[data-r='0'][data-c='1']")
        assert page.get_attribute("#grid .cell[data-r='0'][data-c='1']", "data-terrain") == "village"
    finally:
        ctx.close()


def test_the_print_form_offers_each_sheet_the_player_counts_it_takes(live_server, context_factory):
    page = context_factory(locale="tr-TR").new_page()
    page.goto(live_server.url + "/print")
    assert page.is_disabled("#players")  # map sheets have no player rows
    page.check("input[name=kind][value=score]")
    page.fill("#players", "9")
    page.check("input[name=kind][value=knarr]")
    assert (page.get_attribute("#players", "min"), page.get_attribute("#players", "max")) == ("2", "4")
    assert page.input_value("#players") == "4"
    page.check("input[name=kind][value=score]")
    assert page.get_attribute("#players", "max") == "12"
