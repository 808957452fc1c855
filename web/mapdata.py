"""Game data for the browser: the two map sides, terrains and scoring cards in the page language.

The grid editor is plain JavaScript, so it gets the printed features (which
cells are locked) and the translated names once per page as JSON.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from companion.cartographers.data import CATEGORIES, CATEGORY_NAMES, MAPS, SCORING_CARDS
from companion.cartographers.terrain import DRAWABLE, TERRAIN_NAMES, Terrain

from .i18n import lang, loc

PAINTABLE: tuple[Terrain, ...] = (*DRAWABLE, Terrain.EMPTY)


def side_data(side: str) -> dict[str, Any]:
    m = MAPS[side]
    return {
        "name": loc(m),
        "mountains": [list(c) for c in m.mountains],
        "ruins": [list(c) for c in m.ruins],
        "wastelands": [list(c) for c in m.wastelands],
    }


def terrain_names() -> dict[str, str]:
    language = lang()
    return {t.value: TERRAIN_NAMES[t][language] for t in Terrain}


def scoring_cards() -> list[dict[str, Any]]:
    return [
        {"id": c.id, "number": c.number, "name": loc(c), "text": loc(c, "text"), "category": c.category,
         "category_name": CATEGORY_NAMES[c.category][lang()]}
        for c in SCORING_CARDS
    ]


def categories() -> list[dict[str, str]]:
    return [{"id": cat, "name": CATEGORY_NAMES[cat][lang()]} for cat in CATEGORIES]


def page_data() -> dict[str, Any]:
    return {
        "sides": {s: side_data(s) for s in MAPS},
        "terrains": terrain_names(),
        "paintable": [t.value for t in PAINTABLE],
        "ruinsName": _("ruins"),
        "cards": {c["id"]: c for c in scoring_cards()},
    }
