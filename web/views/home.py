"""Home page, language toggle, joining a table by code and printing sheets."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from companion.cartographers.data import MAPS
from companion.cartographers.sides import SideError, is_custom, normalise_side, side_label

from .. import access, printing
from ..errors import UserError
from ..i18n import COOKIE, LANGUAGES
from ..storage import is_valid_code, normalise_code

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    return render_template("home.html")


def _safe_next(target: str | None) -> str:
    """Only same-site relative paths: the toggle must not become an open redirect."""
    if not target:
        return url_for("home.index")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("home.index")
    return target.rstrip("?")


@bp.get("/lang/<code>")
def set_lang(code: str) -> Response:
    if code not in LANGUAGES:
        raise UserError(404, "unknown_language", _("Unknown language."))
    response = make_response(redirect(_safe_next(request.args.get("next"))))
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.get("/join")
def join() -> Response:
    code = normalise_code(request.args.get("code", ""))
    if not is_valid_code(code):
        raise UserError(400, "bad_code", _("That is not a table code. A code has 7 letters and digits, like K7M4QXA."))
    access.join_by_code(code)  # rate-limited per client; refused when short codes are switched off
    return redirect(url_for("tables.table", code=code))


@bp.get("/print")
def print_page() -> str:
    sides = {s: s for s in MAPS}
    own = normalise_side(request.args.get("side") or "")
    if is_custom(own):
        try:
            sides[own] = side_label(own)
        except SideError:
            raise UserError(400, "bad_side", _("This map side is not known.")) from None
    return render_template("print.html", sides=sides, start_side=own if is_custom(own) else "A")


@bp.get("/print/<kind>.pdf")
def print_pdf(kind: str) -> Response:
    pdf = printing.render(kind, request.args)
    return printing.pdf_response(pdf, f"mapsmith-{kind}.pdf")
