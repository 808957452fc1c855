""""Is this the top of your sheet?" end to end in headless Chromium at 360 px, in English and Turkish: an unmarked
side-A photo whose way up the reader cannot tell is asked about first; "No" (by keyboard) shows the grid turned a
half round from the photo kept on the server; "Yes" reads it again with that way up confirmed (fewer doubtful
cells marked) and hides the question; "The left edge is the top" (by
keyboard) reads it again a quarter turn round clockwise."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_web_browser import SMALL_TARGETS_JS, no_horizontal_scroll
from tests.test_web_orient import half_turn, quarter_clockwise, unsure_photo
from vision.reading import read_sheet

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("orient") / "unsure.jpg"
    path.write_bytes(unsure_photo())
    return path


def _grid(page) -> list[list[str]]:
    return page.evaluate("window.Mapsmith.currentMap().grid")


@pytest.mark.parametrize("locale, question, no", [("en-US", "Is this the top of your sheet?", "No, turn it round"),
                                                  ("tr-TR", "Sayfanızın üstü burası mı?", "Hayır, çevir")])
def test_no_turns_the_map_round_and_yes_hides_the_question(live_server, context_factory, photo_file,
                                                           locale, question, no):
    page = context_factory(locale=locale).new_page()
    page.goto(live_server.url + "/score")
    page.set_input_files("#photo-input", str(photo_file))
    page.wait_for_selector("#orient:not(.hidden)", timeout=60_000)
    assert page.inner_text("#orient-title") == question
    # asked before anything else: the question has the focus, the rest of the review waits
    assert page.evaluate("document.activeElement.id") == "orient-title"
    assert not page.is_visible("#teach") and not page.is_visible("#photo-overlay")
    assert page.get_attribute("#orient-image", "src").startswith("data:image/jpeg")
    assert page.get_attribute("#orient-image", "alt")
    assert page.get_attribute("#orient", "aria-labelledby") == "orient-title"
    assert no_horizontal_scroll(page)
    assert page.evaluate(SMALL_TARGETS_JS) == []
    before = _grid(page)
    # keyboard: Tab from the question to "Yes", again to "No", Enter
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "orient-no"
    assert no in page.inner_text("#orient-no")
    page.keyboard.press("Enter")
    page.wait_for_selector("#orient.hidden", state="attached", timeout=60_000)
    # the kept photo read again the other way up (each cell seen upright by the cell model, as it was drawn):
    # the grid the reader gives for that way up, which is the first one turned round wherever a cell reads alike
    turned = read_sheet(photo_file.read_bytes(), overlay=False, quarter_turns=2).grid
    assert _grid(page) == turned
    same = np.array(turned) == np.array(half_turn(before))
    assert same.mean() > 0.8
    assert page.evaluate("window.Mapsmith.lastReading.orientation_unsure") is False
    assert page.inner_text("#orient-status")  # announced (role=status)
    assert page.is_visible("#photo-overlay")

    # "Yes" on a second upload: the photo is read again with that way up confirmed; the question goes, the grid
    # stays as read, and the review marks only the cells still doubtful once the way up is known
    page.set_input_files("#photo-input", str(photo_file))
    page.wait_for_selector("#orient:not(.hidden)", timeout=60_000)
    before = _grid(page)
    doubt_before = page.locator("#grid .cell.doubt").count()
    assert doubt_before == len(page.evaluate("window.Mapsmith.lastReading.doubtful"))
    page.click("#orient-yes")
    page.wait_for_selector("#orient.hidden", state="attached", timeout=60_000)
    assert _grid(page) == before
    assert page.evaluate("window.Mapsmith.lastReading.orientation_unsure") is False
    doubt_after = page.locator("#grid .cell.doubt").count()
    assert doubt_after == len(page.evaluate("window.Mapsmith.lastReading.doubtful")) < doubt_before
    assert page.is_visible("#photo-overlay")


@pytest.mark.parametrize("locale, left, right, status", [
    ("en-US", "The left edge is the top", "The right edge is the top", "Turned a quarter round"),
    ("tr-TR", "Üstü soldaki kenar", "Üstü sağdaki kenar", "Çeyrek tur çevrildi")])
def test_the_left_edge_turns_the_map_a_quarter_round(live_server, context_factory, photo_file, locale, left, right,
                                                     status):
    page = context_factory(locale=locale).new_page()
    page.goto(live_server.url + "/score")
    page.set_input_files("#photo-input", str(photo_file))
    page.wait_for_selector("#orient:not(.hidden)", timeout=60_000)
    # four choices in one labelled group, each a real button big enough to tap at 360 px
    assert page.eval_on_selector_all(".orient-choices button", "bs => bs.map(b => b.id)") == [
        "orient-yes", "orient-no", "orient-left", "orient-right"]
    assert page.get_attribute(".orient-choices", "role") == "group"
    assert page.get_attribute(".orient-choices", "aria-label")
    assert left in page.inner_text("#orient-left") and right in page.inner_text("#orient-right")
    assert no_horizontal_scroll(page)
    assert page.evaluate(SMALL_TARGETS_JS) == []
    before = page.evaluate("window.Mapsmith.lastReading.cell_centers_px")
    for _ in range(3):  # from the question: Yes, No, the left edge
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "orient-left"
    page.keyboard.press("Enter")
    page.wait_for_selector("#orient.hidden", state="attached", timeout=60_000)
    after = page.evaluate("window.Mapsmith.lastReading.cell_centers_px")
    assert np.allclose(after, quarter_clockwise(before), atol=3.0)
    assert page.evaluate("window.Mapsmith.lastReading.orientation_unsure") is False
    assert status in page.inner_text("#orient-status")
    assert page.is_visible("#photo-overlay")
