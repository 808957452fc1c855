"""Event-sourced game storage: one row per table, changed only by compare-and-swap.

Why event sourcing: a game is its setup plus the list of events players made
(reveals, scores, next season). The rules engine replays them, so the stored row
is tiny, undo is "drop the last event", and there is nothing derived to get out
of sync. Why compare-and-swap: two phones tapping Reveal at the same moment both
read version N; only one `UPDATE ... WHERE version = N` can succeed, the other
gets `Conflict` (→ HTTP 409 with the fresh state). Each change is a single
UPDATE statement, so a crash can never leave half a game written.

SQLite (stdlib, WAL mode, busy timeout) is the default, a file in the Flask
instance folder; `postgresql://...` URLs select PostgreSQL through psycopg 3
with the same SQL (only the placeholder style differs).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: codes are read aloud and typed on phones.
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 7  # 25**7 ≈ 6e9 codes: unguessable for a table that lives an evening
KINDS = ("cartographers", "knarr")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    setup TEXT NOT NULL,
    events TEXT NOT NULL,
    version INTEGER NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
)
"""

# Added tables (each `CREATE ... IF NOT EXISTS`, run by `init_schema` after SCHEMA, so old databases gain them):
# a table's long join secret and archive time (web/access.py), failed short-code joins per client, and the
# index behind "tables untouched since".
ACCESS_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS table_access (
    code TEXT PRIMARY KEY,
    secret TEXT NOT NULL UNIQUE,
    archived DOUBLE PRECISION
)
""",
    """
CREATE TABLE IF NOT EXISTS join_failures (
    client TEXT PRIMARY KEY,
    since DOUBLE PRECISION NOT NULL,
    failures INTEGER NOT NULL
)
""",
    "CREATE INDEX IF NOT EXISTS games_updated ON games (updated)",
)
SECRET_BYTES = 24  # 192 bits in the join link: far beyond guessing, still a QR code a phone reads at once


class StorageError(Exception):
    """Base class for storage failures that the web layer turns into 4xx answers."""


class NotFound(StorageError):
    pass


class Conflict(StorageError):
    """The row changed since the caller read it; `current` is the fresh record."""

    def __init__(self, current: GameRecord):
        self.current = current
        super().__init__(f"table {current.code} is at version {current.version}")


@dataclass(frozen=True)
class TableAccess:
    """Who may reach a table: the secret of its join link, and when it was archived (None = open)."""

    code: str
    secret: str
    archived: float | None


@dataclass(frozen=True)
class GameRecord:
    code: str
    kind: str
    setup: dict[str, Any]
    events: list[dict[str, Any]]
    version: int
    created: float
    updated: float


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """Accept what people type: lower case, spaces and dashes around the code."""
    return "".join(ch for ch in str(code).upper() if ch.isalnum())


def is_valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


class Store:
    """One open database connection (one per request in the web app); not thread-safe by itself."""

    placeholder = "?"

    def __init__(self, conn: Any):
        self.conn = conn

    # -- helpers ------------------------------------------------------------------
    def _sql(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _execute(self, sql: str, params: tuple = ()) -> Any:
        return self.conn.execute(self._sql(sql), params)

    @staticmethod
    def _record(row: Any) -> GameRecord:
        code, kind, setup, events, version, created, updated = row
        return GameRecord(code, kind, json.loads(setup), json.loads(events), int(version), created, updated)

    # -- API ---------------------------------------------------------------------
    def init_schema(self) -> None:
        self._execute(SCHEMA)
        for statement in ACCESS_SCHEMA:
            self._execute(statement)

    def create(self, kind: str, setup: dict[str, Any], events: list[dict[str, Any]] | None = None) -> GameRecord:
        """Insert a new game under a fresh random code (retrying the rare collision)."""
        if kind not in KINDS:
            raise ValueError(f"unknown game kind {kind!r}")
        setup_json = json.dumps(setup, separators=(",", ":"))
        events = list(events or [])
        events_json = json.dumps(events, separators=(",", ":"))
        now = time.time()
        for _ in range(10):
            code = new_code()
            try:
                self._execute(
                    "INSERT INTO games (code, kind, setup, events, version, created, updated) "
                    "VALUES (?, ?, ?, ?, 0, ?, ?)",
                    (code, kind, setup_json, events_json, now, now),
                )
            except Exception as exc:  # unique violation: both drivers name it IntegrityError
                if type(exc).__name__ in ("IntegrityError", "UniqueViolation"):
                    self._rollback()
                    continue
                raise
            return GameRecord(code, kind, json.loads(setup_json), events, 0, now, now)
        raise StorageError("could not allocate a table code")

    def get(self, code: str) -> GameRecord:
        row = self._execute(
            "SELECT code, kind, setup, events, version, created, updated FROM games WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            raise NotFound(code)
        return self._record(row)

    def version(self, code: str) -> int:
        """The cheap query behind polling: phones ask 'anything new since v?' every second."""
        row = self._execute("SELECT version FROM games WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise NotFound(code)
        return int(row[0])

    def swap(self, code: str, expected_version: int, events: list[dict[str, Any]]) -> GameRecord:
        """Replace the event list iff the row is still at `expected_version`; one atomic UPDATE."""
        events_json = json.dumps(events, separators=(",", ":"))
        now = time.time()
        cur = self._execute(
            "UPDATE games SET events = ?, version = version + 1, updated = ? WHERE code = ? AND version = ?",
            (events_json, now, code, int(expected_version)),
        )
        if cur.rowcount != 1:
            raise Conflict(self.get(code))  # raises NotFound when the table does not exist
        return self.get(code)

    # -- access: join secrets, archiving, short-code rate limit (web/access.py) --------------------------
    def access(self, code: str) -> TableAccess:
        """The table's access row, created on first use (tables from before secrets get one here)."""
        sql = "SELECT code, secret, archived FROM table_access WHERE code = ?"
        row = self._execute(sql, (code,)).fetchone()
        if row is None:
            self.version(code)  # NotFound for a table that does not exist
            self._execute("INSERT INTO table_access (code, secret) VALUES (?, ?) ON CONFLICT (code) DO NOTHING",
                          (code, secrets.token_urlsafe(SECRET_BYTES)))
            row = self._execute(sql, (code,)).fetchone()
        return TableAccess(row[0], row[1], row[2])

    def code_for_secret(self, secret: str) -> str:
        row = self._execute("SELECT code FROM table_access WHERE secret = ?", (secret,)).fetchone()
        if row is None:
            raise NotFound(secret)
        return row[0]

    def touched(self, code: str) -> float:
        """When the table last changed (or was reopened)."""
        row = self._execute("SELECT updated FROM games WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise NotFound(code)
        return float(row[0])

    def archive_idle(self, untouched_since: float, code: str | None = None) -> int:
        """Archive open tables not changed since `untouched_since` (only `code`, if given); how many were."""
        sql = ("UPDATE table_access SET archived = ? WHERE archived IS NULL AND code IN "
               "(SELECT code FROM games WHERE updated < ?)")
        params: tuple = (time.time(), untouched_since)
        if code is not None:
            sql += " AND code = ?"
            params += (code,)
        return self._execute(sql, params).rowcount

    def reopen(self, code: str) -> None:
        """Back in play: no longer archived, and touched now so it is not archived again at once."""
        self._execute("UPDATE table_access SET archived = NULL WHERE code = ?", (code,))
        self._execute("UPDATE games SET updated = ? WHERE code = ?", (time.time(), code))

    def join_failures(self, client: str, window_start: float) -> int:
        row = self._execute("SELECT since, failures FROM join_failures WHERE client = ?", (client,)).fetchone()
        return 0 if row is None or row[0] < window_start else int(row[1])

    def note_join_failure(self, client: str, window_start: float) -> None:
        """One more failed short-code join for `client` (a fixed window: counting restarts when it is over)."""
        now = time.time()
        self._execute("DELETE FROM join_failures WHERE since < ?", (window_start,))  # keep the table small
        self._execute(
            "INSERT INTO join_failures (client, since, failures) VALUES (?, ?, 1) ON CONFLICT (client) DO UPDATE SET "
            "failures = CASE WHEN join_failures.since < ? THEN 1 ELSE join_failures.failures + 1 END, "
            "since = CASE WHEN join_failures.since < ? THEN ? ELSE join_failures.since END",
            (client, now, window_start, window_start, now),
        )

    def close(self) -> None:
        self.conn.close()

    def _rollback(self) -> None:
        rollback = getattr(self.conn, "rollback", None)
        if rollback is not None:
            rollback()


class PostgresStore(Store):
    placeholder = "%s"


def connect(database: str) -> Store:
    """Open a Store for a SQLite path or a `postgresql://` URL (autocommit: every statement is its own transaction)."""
    if database.startswith(("postgresql://", "postgres://")):
        import psycopg  # optional dependency: only needed for PostgreSQL

        return PostgresStore(psycopg.connect(database, autocommit=True))
    conn = sqlite3.connect(database, timeout=10, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute("PRAGMA synchronous = NORMAL")
    return Store(conn)


def initialise(database: str) -> None:
    """Create the table and switch SQLite to WAL (persistent, so once per database file is enough)."""
    store = connect(database)
    try:
        if not isinstance(store, PostgresStore):
            store.conn.execute("PRAGMA journal_mode = WAL")
        store.init_schema()
    finally:
        store.close()


# -- game history (additive: finished games listed with a cached summary) -------------------------------------------

SUMMARY_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_summaries (
    code TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL
)
"""


def game_versions(store: Store, kind: str) -> list[tuple[str, int, float, float]]:
    """(code, version, created, updated) of every game of one kind, newest first: cheap, no event lists."""
    rows = store._execute(
        "SELECT code, version, created, updated FROM games WHERE kind = ? ORDER BY updated DESC", (kind,)
    ).fetchall()
    return [(code, int(version), created, updated) for code, version, created, updated in rows]


def cached_summaries(store: Store) -> dict[str, tuple[int, dict[str, Any]]]:
    """Every cached summary by table code, with the game version it was made from."""
    store._execute(SUMMARY_SCHEMA)
    rows = store._execute("SELECT code, version, summary FROM game_summaries").fetchall()
    return {code: (int(version), json.loads(summary)) for code, version, summary in rows}


def save_summary(store: Store, code: str, version: int, summary: dict[str, Any]) -> None:
    """Cache a game's summary for its current version (a later change makes it stale, never wrong)."""
    store._execute(SUMMARY_SCHEMA)
    store._execute(
        "INSERT INTO game_summaries (code, version, summary) VALUES (?, ?, ?) "
        "ON CONFLICT (code) DO UPDATE SET version = excluded.version, summary = excluded.summary",
        (code, int(version), json.dumps(summary, separators=(",", ":"))),
    )
