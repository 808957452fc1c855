"""Teach by one tap, end to end in headless Chromium at 360 px, in English and Turkish: upload a sheet whose
legend is blank and whose squares carry initials, answer "Which terrain is this?" by keyboard, see the whole
group renamed from the photo kept on the server, and keep the photo (opt-in) when the map is scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_vision_learning import DIGITS, letters_grid, letters_photo
from tests.test_web_browser import SMALL_TARGETS_JS, no_horizontal_scroll

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory):
    grid = letters_grid(6)
    path = tmp_path_factory.mktemp("teach") / "letters.jpg"
    path.write_bytes(letters_photo("A", grid, marks=DIGITS))
    return grid, path


@pytest.mark.parametrize("locale, question, forest", [("en-US", "Which terrain is this?", "Forest"),
                                                      ("tr-TR", "Bu hangi arazi?", "Orman")])
def test_one_tap_names_a_group_and_the_photo_can_be_kept(app, live_server, context_factory, photo_file, tmp_path,
                                                         locale, question, forest):
    grid, path = photo_file
    app.instance_path = str(tmp_path / "instance")
    page = context_factory(locale=locale).new_page()
    page.goto(live_server.url + "/score")
    page.set_input_files("#photo-input", str(path))
    page.wait_for_selector("#teach:not(.hidden) .teach-q", timeout=60_000)
    assert question in page.inner_text("#teach-title")
    assert no_horizontal_scroll(page)
    assert page.evaluate(SMALL_TARGETS_JS) == []
    first = page.locator(".teach-q").first
    group = first.get_attribute("data-group")
    alt = first.locator("img").get_attribute("alt")
    assert alt and any(ch.isdigit() for ch in alt)  # the cropped square says where it is, for screen readers
    labels = first.locator(".teach-choice").all_inner_texts()
    assert forest in labels and len(labels) == 6
    # the example cell's true terrain, answered with the keyboard (Tab to the button, Enter)
    row, col = (int(n) - 1 for n in _numbers(alt)[:2])
    truth = grid[row][col]
    button = first.locator(f".teach-choice[data-terrain={truth}]")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"!document.querySelector('.teach-q[data-group=\"{group}\"]')", timeout=60_000)
    # every square of that group now shows the answer in the editor
    reading = page.evaluate("window.Mapsmith.lastReading")
    g = next(x for x in reading["groups"] if str(x["id"]) == group)
    assert g["source"] == "given"
    for r, c in g["cells"]:
        assert page.get_attribute(f"#grid .cell[data-r='{r}'][data-c='{c}']", "data-terrain") == truth
    assert page.inner_text("#teach-status")  # what is left to check is announced (role=status)
    # keep the photo (off by default), then score: photo + corrected map land in the instance folder
    assert not page.is_checked("#keep-photo")
    page.check("#keep-photo")
    page.click("#score-btn")
    kept = Path(app.instance_path) / "kept-photos"
    page.wait_for_function("document.getElementById('teach-status').textContent.length > 0")
    for _ in range(50):
        if kept.exists() and list(kept.glob("*.json")):
            break
        page.wait_for_timeout(100)
    saved = json.loads(next(kept.glob("*.json")).read_text())
    assert saved["side"] == "A" and saved["grid"] == page.evaluate("window.Mapsmith.currentMap().grid")
    assert any(p.suffix == ".jpg" for p in kept.iterdir())


def _numbers(text: str) -> list[str]:
    import re

    return re.findall(r"\d+", text)
