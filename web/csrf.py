"""CSRF protection: a per-session synchronizer token, checked on every state-changing request.

Forms carry it as a hidden `csrf_token` field; JavaScript sends it in the
`X-CSRF-Token` header (read from the page's meta tag). The token lives in
Flask's signed session cookie, so a cross-site page can neither read nor forge
it. Kept in-house because it is twenty lines and needs no form library.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, current_app, request, session
from flask_babel import gettext as _

from .errors import UserError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADER = "X-CSRF-Token"
FIELD = "csrf_token"


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def check_csrf() -> None:
    if request.method in SAFE_METHODS or current_app.config.get("CSRF_DISABLED"):
        return
    sent = request.headers.get(HEADER) or request.form.get(FIELD) or ""
    expected = session.get("csrf") or ""
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise UserError(
            400,
            "csrf",
            _("The page was out of date or opened in another browser. Reload the page and try again."),
        )


def init_app(app: Flask) -> None:
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
