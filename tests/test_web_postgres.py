"""The same storage contract on PostgreSQL (psycopg 3), when a test database is given.

Set MAPSMITH_TEST_POSTGRES=postgresql://user:password@localhost/dbname to run these; the
tests create their rows under fresh random codes and delete them afterwards.
"""

from __future__ import annotations

import os
import threading

import pytest

from tests.conftest import csrf_token
from web.storage import Conflict, NotFound, PostgresStore, connect, initialise

URL = os.environ.get("MAPSMITH_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="set MAPSMITH_TEST_POSTGRES to a PostgreSQL URL to run these")


@pytest.fixture
def pg_codes():
    codes: list[str] = []
    yield codes
    store = connect(URL)
    for code in codes:
        store.conn.execute("DELETE FROM games WHERE code = %s", (code,))
    store.close()


def test_postgres_compare_and_swap(pg_codes):
    initialise(URL)
    store = connect(URL)
    assert isinstance(store, PostgresStore)
    rec = store.create("cartographers", {"seed": 1})
    pg_codes.append(rec.code)
    assert store.get(rec.code).setup == {"seed": 1}
    assert store.swap(rec.code, 0, [{"type": "reveal"}]).version == 1
    with pytest.raises(Conflict):
        store.swap(rec.code, 0, [{"type": "x"}])
    assert store.get(rec.code).events == [{"type": "reveal"}]
    with pytest.raises(NotFound):
        store.version("AAAAAAA")
    store.close()


def test_postgres_concurrent_swaps_one_winner(pg_codes):
    initialise(URL)
    code = connect(URL).create("knarr", {}).code
    pg_codes.append(code)
    barrier = threading.Barrier(6)
    wins: list[int] = []

    def tap(i: int) -> None:
        store = connect(URL)
        barrier.wait()
        try:
            store.swap(code, 0, [{"by": i}])
            wins.append(i)
        except Conflict:
            pass
        store.close()

    threads = [threading.Thread(target=tap, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and connect(URL).get(code).events == [{"by": wins[0]}]


def test_app_on_postgres(pg_codes):
    from web import create_app

    app = create_app({"TESTING": True, "DATABASE": URL, "SECRET_KEY": "k"})
    client = app.test_client()
    token = csrf_token(client)
    r = client.post("/c/new", data={"csrf_token": token, "player": ["Ann"], "seed": "1"})
    code = r.location.rsplit("/", 1)[1]
    pg_codes.append(code)
    headers = {"X-CSRF-Token": token, "Accept": "application/json"}
    assert client.post(f"/t/{code}/action", json={"action": "reveal", "version": 0}, headers=headers).status_code == 200
    assert client.post(f"/t/{code}/action", json={"action": "reveal", "version": 0}, headers=headers).status_code == 409
    assert client.get(f"/t/{code}/state?v=1").status_code == 204
