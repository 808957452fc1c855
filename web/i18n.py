"""Turkish and English for every page, through Flask-Babel.

The language comes from the `lang` cookie (set by the TR/EN toggle) and
otherwise from the browser's Accept-Language. Template strings go through
gettext (`web/translations/<lang>/LC_MESSAGES/messages.po`, compiled `.mo`
committed so a fresh install needs no build step); game data already carries
both languages (`name_en`/`name_tr`), which `loc()` picks from.

After changing user-facing strings:
    pybabel extract -F web/babel.cfg -k _ -k gettext -o web/translations/messages.pot --no-location --omit-header .
    pybabel update -i web/translations/messages.pot -d web/translations -l tr
    (translate the new entries in messages.po)
    pybabel compile -d web/translations -l tr
`tests/test_web_routes.py::test_translations_complete_and_compiled` fails until all three are done.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale

LANGUAGES = ("tr", "en")
COOKIE = "lang"


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def lang() -> str:
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "en"


def loc(obj: Any, attr: str = "name") -> str:
    """`obj.name_tr`/`obj.name_en` (or such dict keys, or an {'en', 'tr'} dict) in the page language."""
    language = lang()
    if isinstance(obj, dict):
        if language in obj and attr == "name" and "en" in obj:
            return obj[language]
        return obj.get(f"{attr}_{language}") or obj.get(f"{attr}_en") or ""
    return getattr(obj, f"{attr}_{language}", None) or getattr(obj, f"{attr}_en", "")


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(lang=lang, loc=loc, LANGUAGES=LANGUAGES)
