"""Routes every table shares, whatever the game: the page, polling, actions, the join QR.

Each game kind supplies an adapter (see `web/games.py`) that replays events,
turns a posted action into an event and renders the table fragment. This module
owns the concurrency contract:

- `GET /t/<code>/state?v=N` answers 204 while the table is still at version N
  (one indexed SELECT), else the fresh fragment; phones poll it about once a
  second, so a reveal shows everywhere within ~2 s.
- `POST /t/<code>/action` carries the version the player saw. Actions that
  depend on what was on screen (reveal, next season, undo) are *strict*: if the
  table moved on, the answer is 409 with the fresh state and nothing changes.
  Independent actions (a player's score or map) are retried on the fresh
  version. Either way the write is one compare-and-swap UPDATE.
"""

from __future__ import annotations

import io
from typing import Any

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, current_app, jsonify, redirect, request, session, url_for
from flask_babel import gettext as _

from companion.cartographers.terrain import shorten

from .. import access, printing
from ..db import get_store
from ..errors import UserError, wants_json
from ..games import ADAPTERS, Adapter, GameRuleError
from ..storage import Conflict, GameRecord, NotFound, is_valid_code, normalise_code

bp = Blueprint("tables", __name__, url_prefix="/t")

MAX_RETRIES = 8
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})


def load_record(code: str) -> GameRecord:
    code = normalise_code(code)
    if not is_valid_code(code):  # a long bad code is cut, never echoed back whole
        raise UserError(404, "unknown_table", _("No table has the code %(code)s. Check the code and try again.",
                                                 code=shorten(code, 12)))
    try:
        record = get_store().get(code)
    except NotFound:
        if not access.is_member(code) and request.method == "GET" and not wants_json():
            access.join_by_code(code)  # a wrong code typed into the address bar counts as a wrong guess
        raise UserError(404, "unknown_table", _("No table has the code %(code)s. Check the code and try again.",
                                                 code=code)) from None
    access.require_member(record)  # web/access.py: only phones that joined see or change a table
    return record


def adapter_for(record: GameRecord) -> Adapter:
    return ADAPTERS[record.kind]


def state_payload(record: GameRecord, adapter: Adapter | None = None) -> dict[str, Any]:
    adapter = adapter or adapter_for(record)
    game = adapter.load(record)
    return {
        "version": record.version,
        "kind": record.kind,
        "phase": adapter.phase(game),
        "html": adapter.fragment(record, game),
    }


@bp.get("/<code>")
def table(code: str) -> str | Response:
    if code != normalise_code(code):
        return redirect(url_for("tables.table", code=normalise_code(code)))
    record = load_record(code)
    adapter = adapter_for(record)
    game = adapter.load(record)
    events = adapter.visit_events(game, host=record.code in session.get("hosted", []))
    if events is not None:  # e.g. "a second phone joined": a note, lost without harm if two phones race
        try:
            record = get_store().swap(record.code, record.version, events)
            game = adapter.load(record)
        except Conflict:
            pass
    return adapter.page(record, game)


@bp.get("/<code>/state")
def state(code: str) -> Response:
    """Versioned short polling: 204 when the phone is up to date, else version + rendered fragment."""
    seen = request.args.get("v", type=int)
    if seen is not None:
        try:
            current = get_store().version(normalise_code(code))
        except NotFound:
            raise UserError(404, "unknown_table", _("This table no longer exists.")) from None
        if current == seen:
            return Response(status=204, headers={"Cache-Control": "no-store"})
    record = load_record(code)
    response = jsonify(state_payload(record))
    response.headers["Cache-Control"] = "no-store"
    return response


def _action_input() -> tuple[str, int | None, dict[str, Any]]:
    """(action, version, fields) from a JSON body or a form post."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UserError(400, "bad_json", _("The request must be a JSON object."))
        fields = body
    else:
        # a repeated field (ticked checkboxes, e.g. the Vikings to discard) arrives as a list
        fields = {k: v[0] if len(v) == 1 else v for k, v in request.form.lists()}
    action = fields.get("action")
    if not isinstance(action, str) or not action:
        raise UserError(400, "bad_action", _("No action was given."))
    raw_version = fields.get("version")
    version: int | None
    if raw_version is None or raw_version == "":
        version = None
    else:
        try:
            version = int(raw_version)
        except (TypeError, ValueError):
            raise UserError(400, "bad_version", _("The table version must be a number.")) from None
    return action, version, fields


def _conflict(record: GameRecord) -> UserError:
    payload = state_payload(record)
    return UserError(409, "stale", _("Someone else changed the table a moment ago. Here is the table as it is now; "
                                     "check it and try again if you still want to."), **payload)


def _only_notes_since(adapter: Adapter, game: Any, fields: dict[str, Any]) -> bool:
    """True when the phone saw the same moves and only notes (a phone joined, done drawing) came since."""
    seen = fields.get("moves")
    return bool(seen) and adapter.moves_digest(game) == seen


@bp.post("/<code>/action")
def action(code: str) -> Response:
    record = load_record(code)
    access.require_open(record)
    adapter = adapter_for(record)
    action_name, version, fields = _action_input()
    strict = adapter.is_strict(action_name)
    if strict and version is None:
        raise UserError(400, "missing_version", _("This action needs the table version you are looking at."))
    store = get_store()
    for _attempt in range(MAX_RETRIES):
        game = adapter.load(record)
        if strict and record.version != version and not _only_notes_since(adapter, game, fields):
            raise _conflict(record)
        try:
            events = adapter.perform(game, action_name, fields)
        except GameRuleError as exc:
            raise UserError(exc.status, exc.code, exc.message, **state_payload(record, adapter)) from None
        try:
            record = store.swap(record.code, record.version, events)
            break
        except Conflict as exc:
            if strict and not _only_notes_since(adapter, adapter.load(exc.current), fields):
                raise _conflict(exc.current) from None
            record = exc.current
    else:
        raise _conflict(record)
    if wants_json():
        payload = state_payload(record, adapter)
        payload["result"] = adapter.action_result(adapter.load(record), action_name, fields)
        return jsonify(payload)
    return redirect(adapter.after_action_url(record, action_name, fields), code=303)


def public_base() -> str:
    """Where other phones reach this server (the LAN address when the page was opened on the server itself)."""
    if current_app.config.get("PUBLIC_BASE_URL"):  # MAPSMITH_PUBLIC_URL: the address the world uses, e.g. https://…
        return current_app.config["PUBLIC_BASE_URL"].rstrip("/")
    public = current_app.config.get("PUBLIC_URL")
    # behind a trusted proxy the forwarded Host is the public one; PUBLIC_URL is then only the upstream's address
    if public and not current_app.config.get("TRUSTED_PROXIES") and request.host.split(":")[0] in LOOPBACK_HOSTS:
        # a QR code pointing at localhost would be useless to the phones
        return public.rstrip("/")
    return request.host_url.rstrip("/")


def join_url(code: str) -> str:
    """The table's join link for other phones: its long secret, so one scan joins (web/access.py)."""
    return access.join_link(code)


@bp.get("/<code>/qr.svg")
def qr(code: str) -> Response:
    """A QR code of the table's address, so the other phones join by pointing their camera at it."""
    record = load_record(code)
    url = join_url(record.code)
    img = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    # the image carries the table's secret: private to this phone's cache
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


@bp.get("/<code>/print.pdf")
def print_sheets(code: str) -> Response:
    """This table's sheets: map sheets carry the table code and the seat in their QR; score sheets its players."""
    record = load_record(code)
    adapter = adapter_for(record)
    try:
        job = adapter.print_job(record, request.args)
    except GameRuleError as exc:
        raise UserError(exc.status, exc.code, exc.message) from None
    pdf = printing.render(job.kind, job.options, table=record.code if job.seats else None, seats=job.seats or None,
                          names=job.names or None)
    suffix = "" if job.kind == "map" else f"-{job.kind}"
    return printing.pdf_response(pdf, f"mapsmith-{record.code}{suffix}.pdf")
