"""The history's storage functions (additive to the games table): versions listing and the summary cache, on
SQLite and, when MAPSMITH_TEST_POSTGRES is set, on PostgreSQL."""

from __future__ import annotations

import os

import pytest

from web.storage import cached_summaries, connect, game_versions, initialise, save_summary

PG = os.environ.get("MAPSMITH_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        url = str(tmp_path / "h.sqlite3")
    elif PG:
        url = PG
    else:
        pytest.skip("set MAPSMITH_TEST_POSTGRES to run on PostgreSQL")
    initialise(url)
    s = connect(url)
    created: list[str] = []
    s.created = created
    yield s
    for code in created:
        s._execute("DELETE FROM games WHERE code = ?", (code,))
        s._execute("DELETE FROM game_summaries WHERE code = ?", (code,))
    s.close()


def test_versions_and_summary_cache(store):
    a = store.create("cartographers", {"seed": 1})
    b = store.create("knarr", {"seed": 2})
    store.created += [a.code, b.code]
    store.swap(a.code, 0, [{"type": "reveal"}])
    rows = {code: version for code, version, _c, _u in game_versions(store, "cartographers")}
    assert rows.get(a.code) == 1 and b.code not in rows
    assert a.code not in cached_summaries(store)
    save_summary(store, a.code, 1, {"over": False, "players": ["Ann"]})
    assert cached_summaries(store)[a.code] == (1, {"over": False, "players": ["Ann"]})
    save_summary(store, a.code, 2, {"over": True})  # a newer version replaces the old summary
    assert cached_summaries(store)[a.code] == (2, {"over": True})
