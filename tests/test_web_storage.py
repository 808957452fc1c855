"""Storage: event-sourced rows changed only by one atomic compare-and-swap UPDATE."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web.storage import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Conflict,
    NotFound,
    connect,
    initialise,
    is_valid_code,
    new_code,
    normalise_code,
)


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    initialise(path)
    return path


def test_codes_are_random_unambiguous_and_valid():
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000  # 25**7 space: no collisions in a few thousand
    for code in codes:
        assert len(code) == CODE_LENGTH and is_valid_code(code)
        assert not set(code) & set("0O1IL2Z5S8B")
    assert set("".join(codes)) == set(CODE_ALPHABET)  # every allowed character is used: not sequential


def test_normalise_code_accepts_what_people_type():
    assert normalise_code(" k7m-4qxa ") == "K7M4QXA"
    assert not is_valid_code("K7M4QX")
    assert not is_valid_code("K7M4QX0")


def test_create_get_roundtrip(db):
    store = connect(db)
    rec = store.create("cartographers", {"seed": 3, "players": ["Ann"]})
    got = store.get(rec.code)
    assert got.setup == {"seed": 3, "players": ["Ann"]}
    assert got.events == [] and got.version == 0 and got.kind == "cartographers"
    with pytest.raises(ValueError):
        store.create("chess", {})
    with pytest.raises(NotFound):
        store.get("AAAAAAA")


def test_swap_is_compare_and_swap(db):
    store = connect(db)
    rec = store.create("knarr", {})
    after = store.swap(rec.code, 0, [{"type": "reveal"}])
    assert after.version == 1 and after.events == [{"type": "reveal"}]
    with pytest.raises(Conflict) as exc:
        store.swap(rec.code, 0, [{"type": "other"}])
    assert exc.value.current.version == 1
    assert store.get(rec.code).events == [{"type": "reveal"}]  # the loser changed nothing
    with pytest.raises(NotFound):
        store.swap("AAAAAAA", 0, [])


def test_sqlite_uses_wal(db):
    store = connect(db)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"


def test_concurrent_swaps_exactly_one_wins(db):
    """Eight phones tap at once on version 0: exactly one write lands."""
    code = connect(db).create("cartographers", {}).code
    barrier = threading.Barrier(8)
    results: list[str] = []
    lock = threading.Lock()

    def tap(i: int) -> None:
        store = connect(db)
        barrier.wait()
        try:
            store.swap(code, 0, [{"type": "reveal", "by": i}])
            outcome = "won"
        except Conflict:
            outcome = "lost"
        with lock:
            results.append(outcome)
        store.close()

    threads = [threading.Thread(target=tap, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["lost"] * 7 + ["won"]
    rec = connect(db).get(code)
    assert rec.version == 1 and len(rec.events) == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=6), max_size=15))
def test_only_matching_versions_are_written(tmp_path_factory, expected_versions):
    """Whatever versions clients claim, the row holds exactly the successful writes, in order."""
    path = str(tmp_path_factory.mktemp("cas") / "db.sqlite3")
    initialise(path)
    store = connect(path)
    code = store.create("cartographers", {}).code
    written: list[dict] = []
    for i, v in enumerate(expected_versions):
        try:
            store.swap(code, v, [*written, {"n": i}])
            written.append({"n": i})
        except Conflict as exc:
            assert exc.current.version != v
    rec = store.get(code)
    assert rec.events == written and rec.version == len(written)
    store.close()
