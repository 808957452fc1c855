"""Teach by one tap on the server: the photo stays for a few minutes, a name re-reads it, keeping is opt-in."""

from __future__ import annotations

import io
import json

import pytest

from tests.conftest import csrf_token
from tests.test_vision_learning import DIGITS, letters_grid, letters_photo
from web.photostore import PhotoStore


@pytest.fixture(scope="module")
def letters():
    grid = letters_grid(5)
    return grid, letters_photo("A", grid, marks=DIGITS)


def upload(client, data: bytes):
    token = csrf_token(client)
    return client.post("/api/photo", data={"photo": (io.BytesIO(data), "map.jpg", "image/jpeg"), "side": ""},
                       headers={"X-CSRF-Token": token, "Accept": "application/json"})


def post(client, url: str, body: dict):
    return client.post(url, data=json.dumps(body), content_type="application/json",
                       headers={"X-CSRF-Token": csrf_token(client), "Accept": "application/json"})


def test_unsure_groups_are_asked_and_one_tap_rereads_the_kept_photo(client, letters, app, tmp_path):
    grid, data = letters
    r = upload(client, data)
    assert r.status_code == 200
    body = r.get_json()
    token = body["photo_token"]
    assert token and body["ask"], "a private code (digits): the reader must ask"
    ask = body["ask"][0]
    assert ask["image"].startswith("data:image/jpeg;base64,") and len(ask["cell"]) == 2
    truth = grid[ask["cell"][0]][ask["cell"][1]]
    r2 = post(client, f"/api/photo/{token}/names", {"names": {str(ask["group"]): truth}})
    assert r2.status_code == 200
    again = r2.get_json()
    group = next(g for g in again["groups"] if g["id"] == ask["group"])
    assert group["name"] == truth and group["source"] == "given"
    assert all(again["grid"][r][c] == truth for r, c in group["cells"])
    assert ask["group"] not in [a["group"] for a in again["ask"]]
    assert again["photo_token"] == token  # the same photo, not uploaded again

    # names given earlier stay given (the server remembers the taps of this photo)
    if again["ask"]:
        nxt = again["ask"][0]
        r3 = post(client, f"/api/photo/{token}/names",
                  {"names": {str(nxt["group"]): grid[nxt["cell"][0]][nxt["cell"][1]]}})
        named = {g["id"] for g in r3.get_json()["groups"] if g["source"] == "given"}
        assert {ask["group"], nxt["group"]} <= named

    # bad names and unknown tokens get clear errors
    bad = post(client, f"/api/photo/{token}/names", {"names": {"1": "lava"}})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_names"
    gone = post(client, "/api/photo/nope/names", {"names": {"1": "forest"}})
    assert gone.status_code == 410 and gone.get_json()["code"] == "photo_expired"

    # keeping is opt-in: nothing on disk until asked, then photo + confirmed grid in the instance folder
    kept_dir = tmp_path / "instance-kept"
    app.instance_path = str(kept_dir)
    assert not kept_dir.exists()
    k = post(client, f"/api/photo/{token}/keep", {"side": "A", "grid": grid})
    assert k.status_code == 200
    name = k.get_json()["kept"]
    saved = json.loads((kept_dir / "kept-photos" / f"{name}.json").read_text())
    assert saved["grid"] == grid and saved["side"] == "A"
    assert (kept_dir / "kept-photos" / f"{name}.jpg").read_bytes() == data
    badgrid = post(client, f"/api/photo/{token}/keep", {"side": "A", "grid": [["forest"]]})
    assert badgrid.status_code == 400


def test_turkish_errors(client):
    client.get("/lang/tr")
    gone = post(client, "/api/photo/nope/names", {"names": {"1": "forest"}})
    assert gone.status_code == 410 and "fotoğraf" in gone.get_json()["error"].lower()


def test_store_expires_and_bounds_memory():
    now = [0.0]
    s = PhotoStore(ttl=60, max_bytes=10, clock=lambda: now[0])
    a = s.put(b"12345", None)
    now[0] = 1
    b = s.put(b"67890", "A")
    assert s.get(a).data == b"12345" and s.get(b).side == "A"
    now[0] = 2
    c = s.put(b"abc", None)  # over 10 bytes: the oldest goes
    assert s.get(a) is None and s.get(b) is not None and s.get(c) is not None
    now[0] = 100
    assert s.get(b) is None and s.get(c) is None
