"""One storage connection per request, opened lazily and closed at teardown (Flask tutorial pattern)."""

from __future__ import annotations

from flask import Flask, current_app, g

from .storage import Store, connect, initialise


def get_store() -> Store:
    if "store" not in g:
        g.store = connect(current_app.config["DATABASE"])
    return g.store


def close_store(_exc: BaseException | None = None) -> None:
    store = g.pop("store", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    initialise(app.config["DATABASE"])
    app.teardown_appcontext(close_store)
