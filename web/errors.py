"""Every bad request gets a clear, translated 4xx answer: JSON for scripts, a page for people.

Routes raise `UserError(status, code, message)`; the handler picks the format
from the request (fetch calls send `Accept: application/json`). The stable
`code` lets the front end and tests react without parsing sentences.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException


class UserError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def wants_json() -> bool:
    if request.is_json or request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def render_error(status: int, code: str, message: str, **extra: Any):
    if wants_json():
        return jsonify({"error": message, "code": code, **extra}), status
    return render_template("error.html", status=status, code=code, message=message), status


def _http_message(exc: HTTPException) -> tuple[str, str]:
    messages = {
        400: ("bad_request", _("The request could not be understood. Please go back and try again.")),
        404: ("not_found", _("There is nothing at this address. Check the link or the table code.")),
        405: ("method_not_allowed", _("This action is not available here.")),
        413: ("too_large", _("The file is too large. Please send a photo smaller than 15 MB.")),
    }
    return messages.get(exc.code or 500, ("error", exc.description or _("Something went wrong.")))


def security_headers(response):
    """No framing (a hidden Reveal button under another site's page), no MIME sniffing, no referrer leaks."""
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_app(app: Flask) -> None:
    app.after_request(security_headers)

    @app.errorhandler(UserError)
    def _user_error(exc: UserError):
        return render_error(exc.status, exc.code, exc.message, **exc.extra)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        code, message = _http_message(exc)
        return render_error(exc.code or 500, code, message)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        """The last resort: a bug must still give a page in the user's language, never a traceback."""
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return render_error(500, "server_error", _("Something went wrong on the server. Please try again."))
