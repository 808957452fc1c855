"""Mapsmith's Flask app: a phone-first companion for a table of Cartographers or Knarr players.

Built like the Flask tutorial: `create_app(test_config=None)` wires config from
the instance folder (or a test dict), the storage, i18n, CSRF and the blueprints.
The app itself keeps no game state in memory: every request reads the table's
row, so any number of waitress threads (or processes, with PostgreSQL) can serve
the same table and a restart loses nothing.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

MAX_UPLOAD_BYTES = 15 * 1024 * 1024


def _secret_key(instance: Path) -> str:
    """A per-installation key kept in the instance folder, so sessions survive a restart."""
    env = os.environ.get("MAPSMITH_SECRET_KEY")
    if env:
        return env
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        path.write_text(key)
        os.chmod(path, 0o600)
        return key


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # MAPSMITH_INSTANCE moves the instance folder (database, secret key) out of the source tree
    app = Flask(__name__, instance_path=os.environ.get("MAPSMITH_INSTANCE") or None, instance_relative_config=True)
    instance = Path(app.instance_path)
    default_db = str(instance / "mapsmith.sqlite3")
    app.config.from_mapping(
        DATABASE=os.environ.get("DATABASE_URL") or default_db,
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        POLL_INTERVAL_MS=1000,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if app.config["DATABASE"] == default_db or not app.config.get("SECRET_KEY"):
        instance.mkdir(parents=True, exist_ok=True)  # only when something is kept there
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    from . import access, csrf, db, errors, i18n, photoqueue, photostore, ui, validation
    from .views import cartographers, history, home, knarr, scorer, sides, tables

    db.init_app(app)
    i18n.init_app(app)
    csrf.init_app(app)
    validation.init_app(app)
    access.init_app(app)
    photoqueue.init_app(app)
    errors.init_app(app)
    ui.init_app(app)
    photostore.init_app(app)
    app.register_blueprint(home.bp)
    app.register_blueprint(scorer.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(cartographers.bp)
    app.register_blueprint(knarr.bp)
    app.register_blueprint(sides.bp)
    app.register_blueprint(history.bp)
    if not app.config.get("POLL_FAST_PATH_DISABLED"):
        from .fastpoll import PollFastPath

        app.wsgi_app = PollFastPath(app.wsgi_app, app.config["DATABASE"])
    return app
