"""The photo flow: upload → reading → review (fix a cell) → saved score; bad photos explain themselves."""

from __future__ import annotations

import io
import re

import cv2
import numpy as np
import pytest

from companion.cartographers.board import Board
from companion.cartographers.session import Game, Setup
from printables.layout import sheet_layout
from printables.mapsheet import map_sheet_pdf
from printables.raster import rasterize
from tests.conftest import csrf_token
from web.db import get_store

PEN = {"forest": (40, 140, 40), "village": (40, 40, 200), "farm": (30, 200, 240), "water": (200, 110, 30),
       "monster": (130, 40, 140)}  # BGR marker colours


def sheet_photo(side: str, grid: list[list[str]], table: str | None = None, seat: int | None = None,
                dpi: int = 150) -> bytes:
    """A flat 'photo' of a printed sheet (optionally printed for a table seat) with cells coloured in."""
    pdf = map_sheet_pdf(side, "a4", "en", 1, ["WEBTEST"], table, [seat] if seat else None)
    img = cv2.cvtColor(rasterize(pdf, 0, dpi=dpi), cv2.COLOR_RGB2BGR)
    g = sheet_layout(side, "a4").grid
    s = dpi / 72
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t in PEN:
                x0, y0 = int((g.x_pt + c * g.cell_pt) * s) + 3, int((g.y_pt + r * g.cell_pt) * s) + 3
                x1, y1 = int((g.x_pt + (c + 1) * g.cell_pt) * s) - 3, int((g.y_pt + (r + 1) * g.cell_pt) * s) - 3
                cv2.rectangle(img, (x0, y0), (x1, y1), PEN[t], -1)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def sample_grid(side: str = "A") -> list[list[str]]:
    grid = Board.blank(side).to_words()
    grid[0] = ["forest"] * 11
    grid[10][:4] = ["water"] * 4
    grid[6][0] = "village"
    return grid


def upload(client, data: bytes, side: str = "", mimetype: str = "image/jpeg"):
    token = csrf_token(client)
    return client.post("/api/photo", data={"photo": (io.BytesIO(data), "map.jpg", mimetype), "side": side},
                       headers={"X-CSRF-Token": token, "Accept": "application/json"})


def test_photo_reading_comes_back_for_review(client):
    grid = sample_grid("B")
    r = upload(client, sheet_photo("B", grid, table="K7M4QXA", seat=2))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["side"] == "B" and body["table"] == "K7M4QXA" and body["seat"] == 2
    wrong = [(r_, c) for r_ in range(11) for c in range(11) if body["grid"][r_][c] != grid[r_][c]]
    assert len(wrong) <= 2  # the review screen lets the player fix what is left
    assert body["overlay"].startswith("data:image/jpeg;base64,")
    assert len(body["confidence"]) == 11 and isinstance(body["doubtful"], list)


@pytest.mark.parametrize("data, code", [
    (b"GIF89a" + b"\x00" * 100, "not_an_image"),
    (cv2.imencode(".png", np.full((600, 800, 3), 255, np.uint8))[1].tobytes(), None),
    (cv2.imencode(".jpg", np.zeros((900, 1200, 3), np.uint8))[1].tobytes(), "too_dark"),
])
def test_unreadable_photos_say_why_in_the_page_language(client, data, code):
    r = upload(client, data)
    assert r.status_code == 422
    body = r.get_json()
    from vision.messages import MESSAGES

    assert body["code"] in MESSAGES and (code is None or body["code"] == code)
    assert body["error"] == MESSAGES[body["code"]]["en"]
    client.get("/lang/tr")
    assert upload(client, data).get_json()["error"] == MESSAGES[body["code"]]["tr"]


@pytest.mark.browser
def test_photo_of_a_table_sheet_is_filed_to_its_seat_then_fixed_and_saved(app, live_server, context_factory):
    base = live_server.url
    page = context_factory(locale="en-US").new_page()
    page.on("dialog", lambda d: d.accept())
    client = app.test_client()
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "side": "A", "seed": "4"})
    code = r.location.rsplit("/", 1)[1]
    version = 0
    while True:
        r = client.post(f"/t/{code}/action", json={"action": "reveal", "version": version},
                        headers={"X-CSRF-Token": token, "Accept": "application/json"})
        version = r.get_json()["version"]
        if r.get_json()["phase"] == "season_end":
            break

    # a photo that cannot be read: the vision message, a way to try again, nothing saved
    page.goto(f"{base}/t/{code}/player/0")
    blank = cv2.imencode(".jpg", np.zeros((900, 1200, 3), np.uint8))[1].tobytes()
    page.set_input_files("#photo-input", files=[{"name": "dark.jpg", "mimeType": "image/jpeg", "buffer": blank}])
    page.wait_for_selector("#photo-error:not(.hidden)")
    assert "too dark" in page.inner_text("#photo-error")
    assert page.is_visible("label[for=photo-input]")

    # Ann photographs Bob's sheet (printed for seat 2 of this table): it is filed to Bob without asking
    grid = sample_grid("A")
    photo = sheet_photo("A", grid, table=code, seat=2)
    page.set_input_files("#photo-input", files=[{"name": "map.jpg", "mimeType": "image/jpeg", "buffer": photo}])
    page.wait_for_url(re.compile(rf"/t/{code}/player/1"))
    page.wait_for_selector("#photo-review:not(.hidden)")
    assert page.get_attribute("#photo-overlay", "src").startswith("data:image/jpeg")
    assert page.get_attribute("#grid .cell[data-r='0'][data-c='5']", "data-terrain") == "forest"

    # fix a cell: Bob had drawn a farm at F3, not what the photo shows
    page.click("#palette button[data-terrain=farm]")
    page.click("#grid .cell[data-r='5'][data-c='2']")
    page.fill("#coins", "2")
    page.click("#score-btn")
    page.wait_for_selector("#breakdown-panel:not(.hidden)")

    with app.app_context():
        rec = get_store().get(code)
    game = Game.replay(Setup.from_dict(rec.setup), rec.events)
    saved = game.known_map(1).to_words()
    expected = [row[:] for row in grid]
    expected[5][2] = "farm"
    assert saved == expected
    entry = game.season_scores(1)[0]
    assert entry["source"] == "grid" and entry["coins"] == 2
    assert int(page.get_attribute("#breakdown-panel", "data-total")) == entry["total"]
    assert game.season_scores(0)[0] is None  # Ann's score untouched


@pytest.mark.browser
def test_table_photo_page_asks_whose_map_when_the_sheet_has_no_seat(app, live_server, context_factory):
    client = app.test_client()
    token = csrf_token(client)
    code = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "side": "B",
                                       "seed": "4"}).location.rsplit("/", 1)[1]
    page = context_factory(locale="tr-TR").new_page()
    page.goto(f"{live_server.url}/t/{code}/photo")
    # a side A sheet on a side B table is refused with a clear message
    page.set_input_files("#photo-input", files=[{"name": "a.jpg", "mimeType": "image/jpeg",
                                                 "buffer": sheet_photo("A", sample_grid("A"))}])
    page.wait_for_selector("#photo-error:not(.hidden)")
    assert "A yüzünü" in page.inner_text("#photo-error")
    grid = sample_grid("B")
    page.set_input_files("#photo-input", files=[{"name": "b.jpg", "mimeType": "image/jpeg",
                                                 "buffer": sheet_photo("B", grid)}])
    page.wait_for_selector("#whose:not(.hidden)")
    page.click("#whose button[data-seat='1']")
    page.wait_for_url(re.compile(rf"/t/{code}/player/1"))
    page.wait_for_selector("#photo-review:not(.hidden)")
    painted = [[page.get_attribute(f"#grid .cell[data-r='{r}'][data-c='{c}']", "data-terrain") for c in range(11)]
               for r in (0, 10)]
    assert painted == [grid[0], grid[10]]


def _png(width: int, height: int) -> bytes:
    """A valid grey PNG whose pixels compress to almost nothing: a 'pixel bomb' when the size is huge."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" * (width + 1)
    idat = zlib.compressobj(9)
    body = b"".join(idat.compress(row) for _ in range(height)) + idat.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def test_pixel_bomb_is_refused(client):
    bomb = _png(12000, 12000)  # 144 megapixels in ~140 kB, far under the upload limit
    assert len(bomb) < 1_000_000
    r = upload(client, bomb, mimetype="image/png")
    assert r.status_code == 422 and r.get_json()["code"] == "too_large"


def test_reading_warnings_come_in_the_page_language(client):
    from vision.messages import Note

    photo = sheet_photo("B", sample_grid("B"))
    client.get("/lang/tr")
    body = upload(client, photo, side="A").get_json()  # the markers overrule the wrong side hint
    assert body["side"] == "B"
    assert len(body["warnings"]) == len(body["warning_codes"]) and "side_from_markers" in body["warning_codes"]
    turkish = body["warnings"][body["warning_codes"].index("side_from_markers")]
    assert turkish == Note.of("side_from_markers", side="B", hint="A").text("tr")
    assert "köşe işaretleri" in turkish
    client.get("/lang/en")
    english = upload(client, photo, side="A").get_json()
    assert english["warning_codes"] == body["warning_codes"]
    assert english["warnings"][english["warning_codes"].index("side_from_markers")] == (
        "the corner markers say side B, not A; using side B")


@pytest.mark.browser
def test_review_screen_shows_the_warnings_in_turkish(live_server, context_factory):
    from vision.messages import WARNINGS

    page = context_factory(locale="tr-TR").new_page()
    page.goto(f"{live_server.url}/score")
    page.set_input_files("#photo-input", files=[{"name": "b.jpg", "mimeType": "image/jpeg",
                                                 "buffer": sheet_photo("B", sample_grid("B"))}])
    page.wait_for_selector("#photo-review:not(.hidden)")
    items = page.locator("#photo-warnings li")
    assert items.count() >= 1  # the legend row of the test sheet is left empty, which the reader notes
    for i in range(items.count()):
        code = items.nth(i).get_attribute("data-code")
        text = items.nth(i).text_content()
        assert code in WARNINGS and text != WARNINGS[code]["en"]
        if "{" not in WARNINGS[code]["tr"]:
            assert text == WARNINGS[code]["tr"]
    # shown with a capital first letter, Turkish style (the page says lang="tr")
    first = items.nth(0).inner_text()
    assert first[0].isupper() and first[1:] == items.nth(0).text_content()[1:]
