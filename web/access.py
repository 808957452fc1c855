"""Who may reach a table: the join link's long secret, the short typed code, membership, archiving.

The security model (also in the README):

- Every table has a **join link** `/j/<secret>` with a 192-bit random secret; the table's QR code
  carries it, so scanning is still one tap. Opening it makes the phone a **member** of the table.
- Membership lives in the phone's signed session cookie (Flask, signed with the server's secret key;
  valid 30 days). Only members can see a table or write to it: every `/t/<code>/…` route but the
  "nothing new" poll checks it. The phone that creates a table is its first member.
- The **short code** (7 characters, ≈ 32.5 bits) stays for the LAN: typing it (`/join`, or opening
  `/t/<code>` as a non-member) joins too, but a client (its IP address; behind nginx the forwarded
  one, with `MAPSMITH_TRUSTED_PROXIES`) that types unknown codes is stopped for a while
  (`MAPSMITH_JOIN_ATTEMPTS` failures per `MAPSMITH_JOIN_WINDOW` seconds; counted in the database, so
  shared by every process). `MAPSMITH_SHORT_CODES=0` switches short codes off for internet servers.
- A table untouched for `MAPSMITH_ARCHIVE_AFTER_HOURS` is **archived**: its members still read it,
  any member reopens it with one tap, nothing is deleted; an archived table cannot be joined by short
  code (only by its link), and writes wait for it to be reopened.
- The fast "nothing new" poll (`web/fastpoll.py`) answers 204 to anyone naming a table and its
  current version: that tells only that the table exists, nothing of its content.
"""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, redirect, request, session, url_for
from flask_babel import gettext as _

from .db import get_store
from .errors import UserError, wants_json
from .storage import GameRecord, NotFound, TableAccess

bp = Blueprint("access", __name__)

SESSION_KEY = "tables"
MAX_REMEMBERED = 40  # tables one phone stays a member of (oldest forgotten first); keeps the cookie small
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{20,64}")


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() not in ("0", "false", "no", "off", "")


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def settings_from_env() -> dict[str, Any]:
    return {
        "SHORT_CODES": _env_flag("MAPSMITH_SHORT_CODES", True),
        "JOIN_ATTEMPTS": int(_env_number("MAPSMITH_JOIN_ATTEMPTS", 10)),
        "JOIN_WINDOW": _env_number("MAPSMITH_JOIN_WINDOW", 600),
        "ARCHIVE_AFTER": _env_number("MAPSMITH_ARCHIVE_AFTER_HOURS", 48) * 3600,
        "TRUSTED_PROXIES": int(_env_number("MAPSMITH_TRUSTED_PROXIES", 0)),
        "PUBLIC_BASE_URL": os.environ.get("MAPSMITH_PUBLIC_URL", ""),
    }


# -- membership --------------------------------------------------------------------------------------------

def is_member(code: str) -> bool:
    return code in session.get(SESSION_KEY, ())


def remember(code: str) -> None:
    """Make this phone a member of the table (kept in its signed session cookie for 30 days)."""
    tables = [c for c in session.get(SESSION_KEY, ()) if c != code]
    tables.append(code)
    session[SESSION_KEY] = tables[-MAX_REMEMBERED:]
    session.permanent = True


def client_id() -> str:
    return request.remote_addr or "unknown"


def table_access(code: str) -> TableAccess:
    """The table's access row, with the archive time brought up to date (tables idle too long are archived now)."""
    store = get_store()
    info = store.access(code)
    cutoff = time.time() - current_app.config["ARCHIVE_AFTER"]
    # read first, write only when there is something to archive (page loads must not queue for the write lock)
    if info.archived is None and store.touched(code) < cutoff and store.archive_idle(cutoff, code):
        info = store.access(code)
    return info


def _short_code_gate() -> tuple[float, int]:
    """Refuses when short codes are off or this client failed too often; (window start, failures so far)."""
    config = current_app.config
    if not config["SHORT_CODES"]:
        raise UserError(403, "short_codes_off", _("Table codes cannot be typed on this server. Scan the table's "
                                                  "QR code or open the link the table shared."))
    window_start = time.time() - config["JOIN_WINDOW"]
    failures = get_store().join_failures(client_id(), window_start)
    if failures >= config["JOIN_ATTEMPTS"]:
        minutes = max(1, round(config["JOIN_WINDOW"] / 60))
        raise UserError(429, "too_many_tries", _("Too many wrong table codes from this device. Wait %(minutes)s "
                                                 "minutes, or scan the table's QR code.", minutes=minutes))
    return window_start, failures


def unknown_code(code: str) -> UserError:
    return UserError(404, "unknown_table", _("No table has the code %(code)s. Check the code and try again.",
                                             code=code))


def join_by_code(code: str) -> None:
    """A typed short code: rate-limited per client, refused when switched off or for an archived table."""
    window_start, _failures = _short_code_gate()
    try:
        info = table_access(code)
    except NotFound:
        get_store().note_join_failure(client_id(), window_start)
        raise unknown_code(code) from None
    if info.archived is not None:
        raise UserError(403, "archived_join", _("This table has been put away. Open the link or QR code the "
                                                "table shared to see it."))
    remember(code)


def require_member(record: GameRecord) -> None:
    """Non-members get nothing; opening a table's page by its short code joins, like typing the code."""
    if is_member(record.code):
        return
    if request.method == "GET" and not wants_json() and current_app.config["SHORT_CODES"]:
        join_by_code(record.code)
        return
    raise UserError(403, "not_joined", _("Join this table first: scan its QR code or open its link."))


def require_open(record: GameRecord) -> None:
    """Writes need an open table: an archived one says so and how to reopen it."""
    info = table_access(record.code)
    g.table_archived = info.archived is not None
    if info.archived is not None:
        raise UserError(409, "archived", _("This table was put away after a long pause. Tap “Reopen the table” "
                                           "to play on."), reopen=url_for("access.reopen", code=record.code))


def archived(code: str) -> bool:
    """For the table page: show the "reopen" banner (read-only until then)."""
    try:
        return table_access(code).archived is not None
    except NotFound:
        return False


def join_link(code: str) -> str:
    """The absolute join link with the table's secret (for the QR code and for sharing)."""
    from .views.tables import public_base

    return public_base() + url_for("access.join_link_route", secret=get_store().access(code).secret)


# -- routes ------------------------------------------------------------------------------------------------

@bp.get("/j/<secret>")
def join_link_route(secret: str) -> Response:
    """The QR code's and the shared link's target: one tap makes the phone a member and shows the table."""
    if not SECRET_PATTERN.fullmatch(secret):
        raise UserError(404, "unknown_link", _("This link is not valid. Ask the table for its QR code again."))
    try:
        code = get_store().code_for_secret(secret)
    except NotFound:
        raise UserError(404, "unknown_link", _("This link is not valid. Ask the table for its QR code again."),
                        ) from None
    remember(code)
    return redirect(url_for("tables.table", code=code))


@bp.post("/t/<code>/reopen")
def reopen(code: str) -> Response:
    """A member brings an archived table back into play."""
    from .views.tables import load_record

    record = load_record(code)
    get_store().reopen(record.code)
    if wants_json():
        return Response(status=204)
    return redirect(url_for("tables.table", code=record.code), code=303)


def init_app(app: Flask) -> None:
    for key, value in settings_from_env().items():
        app.config.setdefault(key, value)
    app.permanent_session_lifetime = timedelta(days=30)
    if app.config["TRUSTED_PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(join_link=join_link, table_archived=archived)
