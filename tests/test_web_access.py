"""Tables strangers cannot reach: join links with a long secret, membership, short codes, archiving."""

from __future__ import annotations

import os
import re
import time

import pytest

from tests.conftest import csrf_token
from web import create_app
from web.db import get_store
from web.storage import NotFound, connect, initialise

JSON = {"Accept": "application/json"}


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "k", **config})


def new_table(client) -> tuple[str, str]:
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann", "Bob"], "seed": "4"})
    assert r.status_code == 303
    return r.location.rsplit("/", 1)[1], token


def reveal(client, code, token, version=None):
    if version is None:
        version = client.get(f"/t/{code}/state", headers=JSON).get_json()["version"]
    return client.post(f"/t/{code}/action", json={"action": "reveal", "version": version},
                       headers={**JSON, "X-CSRF-Token": token})


def secret_of(app, code) -> str:
    with app.app_context():
        return get_store().access(code).secret


def test_the_join_link_carries_a_long_secret_and_one_tap_joins(tmp_path):
    app = make_app(tmp_path)
    ann = app.test_client()
    code, _ = new_table(ann)
    secret = secret_of(app, code)
    assert len(secret) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", secret)  # 24 random bytes = 192 bits
    page = ann.get(f"/t/{code}").get_data(as_text=True)
    assert f'href="http://localhost/j/{secret}"' in page  # the link to share; the QR code encodes the same
    assert ann.get(f"/t/{code}/qr.svg").status_code == 200
    bob = app.test_client()
    bob_token = csrf_token(bob)
    r = bob.get(f"/j/{secret}")
    assert r.status_code == 302 and r.location == f"/t/{code}"
    assert reveal(bob, code, bob_token).status_code == 200
    assert bob.get("/j/" + "A" * 32).status_code == 404
    assert secret_of(app, new_table(ann)[0]) != secret


def test_a_phone_writes_only_after_joining(tmp_path):
    app = make_app(tmp_path)
    code, _ = new_table(app.test_client())
    stranger = app.test_client()
    token = csrf_token(stranger)
    r = stranger.post(f"/t/{code}/action", json={"action": "reveal", "version": 0}, headers={**JSON,
                                                                                            "X-CSRF-Token": token})
    assert r.status_code == 403 and r.get_json()["code"] == "not_joined"
    assert stranger.get(f"/t/{code}/state", headers=JSON).status_code == 403
    with app.app_context():
        assert get_store().get(code).events == []
    # the short code typed by hand (the LAN way) joins, then writing works
    assert stranger.get(f"/join?code={code.lower()}").status_code == 302
    assert reveal(stranger, code, token).status_code == 200


def test_short_codes_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("MAPSMITH_SHORT_CODES", "0")
    app = make_app(tmp_path)
    code, _ = new_table(app.test_client())
    phone = app.test_client()
    r = phone.get(f"/join?code={code}", headers={"Accept-Language": "tr"})
    assert r.status_code == 403 and "QR" in r.get_data(as_text=True)
    assert phone.get(f"/t/{code}").status_code == 403
    assert phone.get(f"/t/{code}/qr.svg").status_code == 403  # the QR code holds the secret
    assert phone.get(f"/j/{secret_of(app, code)}").status_code == 302
    assert phone.get(f"/t/{code}").status_code == 200


def test_wrong_short_codes_are_rate_limited_per_client(tmp_path):
    app = make_app(tmp_path, JOIN_ATTEMPTS=3, JOIN_WINDOW=60)
    code, _ = new_table(app.test_client())
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    for wrong in ("KKKKKKK", "MMMMMMM", "NNNNNNN"):
        assert guesser.get(f"/join?code={wrong}").status_code == 404
    r = guesser.get(f"/join?code={code}", headers=JSON)  # even the right code now waits
    assert r.status_code == 429 and r.get_json()["code"] == "too_many_tries"
    assert guesser.get(f"/t/{code}").status_code == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.10"
    assert other.get(f"/join?code={code}").status_code == 302
    # the window passes: the guesser may try again
    with app.app_context():
        get_store().conn.execute("UPDATE join_failures SET since = since - 120")
    assert guesser.get(f"/join?code={code}").status_code == 302


def test_idle_tables_are_archived_readable_and_reopened(tmp_path):
    app = make_app(tmp_path, ARCHIVE_AFTER=3600)
    ann = app.test_client()
    code, token = new_table(ann)
    assert reveal(ann, code, token).status_code == 200
    with app.app_context():
        get_store().conn.execute("UPDATE games SET updated = ? WHERE code = ?", (time.time() - 7200, code))
    page = ann.get(f"/t/{code}")
    assert page.status_code == 200 and 'id="archived"' in page.get_data(as_text=True)  # readable, with "reopen"
    r = reveal(ann, code, token)
    assert r.status_code == 409 and r.get_json()["code"] == "archived" and r.get_json()["reopen"]
    with app.app_context():
        assert len(get_store().get(code).events) == 1  # nothing lost, nothing changed
    stranger = app.test_client()
    assert stranger.get(f"/join?code={code}").status_code == 403  # no short-code joins to a put-away table
    assert ann.post(f"/t/{code}/reopen", headers={**JSON, "X-CSRF-Token": token}).status_code == 204
    assert 'id="archived"' not in ann.get(f"/t/{code}").get_data(as_text=True)
    assert reveal(ann, code, token).status_code == 200


DATABASES = ["sqlite"] + (["postgres"] if os.environ.get("MAPSMITH_TEST_POSTGRES") else [])


@pytest.mark.parametrize("kind", DATABASES)
def test_access_storage_on_both_databases(kind, tmp_path):
    url = str(tmp_path / "db.sqlite3") if kind == "sqlite" else os.environ["MAPSMITH_TEST_POSTGRES"]
    initialise(url)
    initialise(url)  # idempotent: an existing database gains the new tables once
    store = connect(url)
    code = store.create("cartographers", {"seed": 1}).code
    client = f"test-{code}"
    try:
        first = store.access(code)
        assert store.access(code) == first and store.code_for_secret(first.secret) == code
        with pytest.raises(NotFound):
            store.access("XXXXXXX")
        with pytest.raises(NotFound):
            store.code_for_secret("nope")
        now = time.time()
        assert store.join_failures(client, now - 60) == 0
        for _ in range(3):
            store.note_join_failure(client, now - 60)
        assert store.join_failures(client, now - 60) == 3
        store.note_join_failure(client, time.time() + 1)  # a new window: counting starts again
        assert store.join_failures(client, now - 60) == 1
        assert store.archive_idle(time.time() + 10, code) == 1 and store.access(code).archived is not None
        assert store.archive_idle(time.time() + 10, code) == 0  # already archived
        store.reopen(code)
        assert store.access(code).archived is None
    finally:
        if kind == "postgres":
            for sql in ("DELETE FROM join_failures WHERE client = %s", "DELETE FROM table_access WHERE code = %s",
                        "DELETE FROM games WHERE code = %s"):
                store.conn.execute(sql, (client if "join" in sql else code,))
        store.close()
