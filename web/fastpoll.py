"""The polling fast path: answer "nothing new" without entering Flask.

Phones ask `GET /t/<code>/state?v=N` every second and almost always the answer
is 204 (unchanged). That answer needs one indexed SELECT and nothing else, so
this WSGI middleware gives it before Flask's routing, sessions, i18n and
template machinery run; anything else (a changed table, an unknown code, odd
query strings) falls through to the normal route, which stays the single source
of truth for every other answer. Each server thread keeps its own open
database connection for this query: opening one per poll would cost more than
the query itself. No game state is cached, so several processes sharing one
PostgreSQL database stay correct.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from typing import Any

from .storage import NotFound, Store, connect, is_valid_code

PREFIX = "/t/"
SUFFIX = "/state"
NO_CHANGE_HEADERS = [("Cache-Control", "no-store"), ("Content-Length", "0")]


class PollFastPath:
    def __init__(self, wsgi_app: Callable, database: str):
        self.wsgi_app = wsgi_app
        self.database = database
        self.local = threading.local()

    def _store(self) -> Store:
        store = getattr(self.local, "store", None)
        if store is None:
            store = self.local.store = connect(self.database)
        return store

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        if environ.get("REQUEST_METHOD") != "GET":
            return False
        path = environ.get("PATH_INFO", "")
        if not (path.startswith(PREFIX) and path.endswith(SUFFIX)):
            return False
        code = path[len(PREFIX):-len(SUFFIX)]
        query = environ.get("QUERY_STRING", "")
        if not is_valid_code(code) or not query.startswith("v=") or not query[2:].isdigit():
            return False
        try:
            return self._store().version(code) == int(query[2:])
        except NotFound:
            return False
        except Exception:  # a broken cached connection: drop it, let the normal route answer
            store = getattr(self.local, "store", None)
            self.local.store = None
            if store is not None:
                with contextlib.suppress(Exception):
                    store.close()
            return False

    def is_unchanged(self, method: str, path: str, query: str) -> bool:
        """The same test outside WSGI: web/server.py answers such polls in waitress's event loop itself."""
        return self._unchanged({"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query})

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if self._unchanged(environ):
            start_response("204 No Content", NO_CHANGE_HEADERS)
            return [b""]
        return self.wsgi_app(environ, start_response)
