"""Photos kept on the server for a few minutes, so a tap on the review screen re-reads the same photo.

The phone uploads a photo once; the reading comes back with a token. "Which terrain is this?" answers are
sent with that token and the server reads the kept bytes again with the names given — nothing is
re-uploaded. Entries expire after `ttl` seconds and the store holds at most `max_bytes`, oldest dropped
first. It lives on the app (`app.extensions`), in this process's memory: waitress serves every thread of
`mapsmith serve` from one process, so any thread can answer the tap.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app

TTL_SECONDS = 10 * 60
MAX_BYTES = 200 * 1024 * 1024


@dataclass
class Kept:
    data: bytes
    side: str | None
    stored: float
    names: dict[int, str]
    quarter_turns: int | None = None  # "Which edge is the top?": turns clockwise, None = not answered (web.phototurn)
    heroes: bool | None = None  # the table plays heroes (read_sheet's `heroes`); None: not said, the side decides


class PhotoStore:
    def __init__(self, ttl: float = TTL_SECONDS, max_bytes: int = MAX_BYTES, clock=time.monotonic):
        self.ttl, self.max_bytes, self.clock = ttl, max_bytes, clock
        self._items: dict[str, Kept] = {}
        self._lock = threading.Lock()

    def _expire(self) -> None:
        now = self.clock()
        for k in [k for k, v in self._items.items() if now - v.stored > self.ttl]:
            del self._items[k]
        while self._items and sum(len(v.data) for v in self._items.values()) > self.max_bytes:
            del self._items[min(self._items, key=lambda k: self._items[k].stored)]

    def put(self, data: bytes, side: str | None, heroes: bool | None = None) -> str:
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._items[token] = Kept(data, side, self.clock(), {}, heroes=heroes)
            self._expire()
        return token

    def get(self, token: str) -> Kept | None:
        with self._lock:
            self._expire()
            return self._items.get(token)


def init_app(app: Flask) -> None:
    app.extensions["mapsmith_photos"] = PhotoStore(app.config.get("PHOTO_TTL_SECONDS", TTL_SECONDS))


def store() -> PhotoStore:
    return current_app.extensions["mapsmith_photos"]
