"""A photo of the whole table, end to end in headless Chromium at 360 px, in English and Turkish: the sheets
printed for the table are filed to their seats by QR, the other is shown as a thumbnail asking "Whose sheet is
this?", answered by keyboard; its review opens on that player's page, and going back lists what is left."""

from __future__ import annotations

import re

import pytest

from tests.conftest import csrf_token
from tests.test_web_browser import SMALL_TARGETS_JS, no_horizontal_scroll

pytestmark = pytest.mark.browser

TEXTS = {
    "en-US": {"found": "Sheets found in this photo: 3", "filed": "Filed to {} by its QR code.",
              "whose": "Whose sheet is this?", "assigned": "This is the sheet of Bob.", "checked": "Checked"},
    "tr-TR": {"found": "Bu fotoğrafta bulunan sayfalar: 3", "filed": "QR koduna göre {} adına kaydedildi.",
              "whose": "Bu sayfa kimin?", "assigned": "Bu sayfa Bob oyuncusunun.", "checked": "Kontrol edildi"},
}


@pytest.mark.parametrize("locale", ["en-US", "tr-TR"])
def test_table_photo_files_sheets_by_seat_and_asks_for_the_rest(app, live_server, context_factory, tmp_path,
                                                                locale):
    from bench.synthtable import make_table_photo

    text = TEXTS[locale]
    client = app.test_client()
    token = csrf_token(client)
    code = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob", "Cem"], "side": "B",
                                       "seed": "4"}).location.rsplit("/", 1)[1]
    photo = make_table_photo(11, n=3, kinds=("table", "ours", "table"), megapixels=6, table=code,
                             players=["Ann", "Bob", "Cem"], side="B")
    path = tmp_path / "table.jpg"
    path.write_bytes(photo.data)
    page = context_factory(locale=locale).new_page()
    page.goto(f"{live_server.url}/t/{code}/photo")
    page.set_input_files("#photo-input", str(path))
    page.wait_for_selector("#sheets-panel:not(.hidden)", timeout=120_000)
    assert page.inner_text("#sheets-title") == text["found"]
    items = page.locator(".sheet-item")
    assert items.count() == 3
    statuses = page.locator(".sheet-status").all_inner_texts()
    assert sorted(s for s in statuses if s != text["whose"]) == sorted([text["filed"].format("Ann"),
                                                                         text["filed"].format("Cem")])
    assert statuses.count(text["whose"]) == 1
    # every sheet is shown as a thumbnail a screen reader can name
    alts = [items.nth(i).locator("img").get_attribute("alt") for i in range(3)]
    assert all(a and "3" in a for a in alts)
    assert no_horizontal_scroll(page)
    assert page.evaluate(SMALL_TARGETS_JS) == []
    ask = page.locator(".sheet-item", has=page.locator(".assign"))
    assert ask.count() == 1
    assert ask.locator(".assign").all_inner_texts() == ["Ann", "Bob", "Cem"]
    assert ask.locator("[role=group]").get_attribute("aria-label")
    # answered with the keyboard: focus Bob, Enter; the review button gets the focus
    ask.locator(".assign[data-seat='1']").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.classList.contains('review')")
    assert text["assigned"] in page.inner_text(".sheet-item:has(.assign) .sheet-status")
    assert page.get_attribute(".assign[data-seat='1']", "aria-pressed") == "true"
    index = int(page.evaluate("document.activeElement.dataset.index"))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/t/{code}/player/1"))
    page.wait_for_selector("#photo-review:not(.hidden)", timeout=30_000)
    truth = photo.sheets[1].grid  # the sheet printed without a table, drawn by Bob
    painted = [[page.get_attribute(f"#grid .cell[data-r='{r}'][data-c='{c}']", "data-terrain") for c in range(11)]
               for r in range(11)]
    right = sum(painted[r][c] == truth[r][c] for r in range(11) for c in range(11))
    assert right >= 115
    # back on the photo page, the sheets are still listed, that one checked
    page.go_back()
    page.wait_for_selector("#sheets-panel:not(.hidden)")
    done = page.locator(f".sheet-item[data-index='{index}'] .sheet-done")
    assert done.inner_text() == text["checked"]
