"""Game data for the browser: the two map sides, terrains and scoring cards in the page language.

The grid editor is plain JavaScript, so it gets the printed features (which
cells are locked) and the translated names once per page as JSON.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from companion.cartographers.data import ALL_SCORING_CARDS, CARD_SETS, CATEGORIES, CATEGORY_NAMES, MAPS
from companion.cartographers.sides import side_label, side_layout
from companion.cartographers.terrain import DRAWABLE, TERRAIN_NAMES, Terrain

from .i18n import lang, loc

PAINTABLE: tuple[Terrain, ...] = (*DRAWABLE, Terrain.HERO, Terrain.DESTROYED, Terrain.EMPTY)


def side_data(side: str) -> dict[str, Any]:
    m = side_layout(side)
    return {
        "name": loc(m),
        "label": side_label(side),
        "mountains": [list(c) for c in m.mountains],
        "ruins": [list(c) for c in m.ruins],
        "wastelands": [list(c) for c in m.wastelands],
        "predrawn": [[r, c, t.value] for (r, c), t in m.predrawn],
        "card_set": m.card_set,
    }


def terrain_names() -> dict[str, str]:
    language = lang()
    return {t.value: TERRAIN_NAMES[t][language] for t in Terrain}


def scoring_cards() -> list[dict[str, Any]]:
    """Every set's scoring cards (a table may mix them); Heroes names in Turkish are marked as ours."""
    return [
        {"id": c.id, "number": c.number, "name": loc(c), "text": loc(c, "text"), "category": c.category,
         "category_name": CATEGORY_NAMES[c.category][lang()], "card_set": c.card_set,
         "set_name": loc(CARD_SETS[c.card_set]),
         "name_ours": CARD_SETS[c.card_set].names_tr_ours and lang() == "tr"}
        for c in ALL_SCORING_CARDS
    ]


def card_sets() -> list[dict[str, Any]]:
    return [{"id": cs.id, "name": loc(cs), "sides": list(cs.sides), "names_tr_ours": cs.names_tr_ours,
             "doubts": [loc(d, "text") for d in cs.doubts]} for cs in CARD_SETS.values()]


def categories() -> list[dict[str, str]]:
    return [{"id": cat, "name": CATEGORY_NAMES[cat][lang()]} for cat in CATEGORIES]


def page_data(extra_sides: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """Everything the grid editor needs; `extra_sides` adds a table's own sides to the printed A-D."""
    return {
        "sides": {s: side_data(s) for s in (*MAPS, *(x for x in extra_sides if x not in MAPS))},
        "terrains": terrain_names(),
        "paintable": [t.value for t in PAINTABLE],
        "ruinsName": _("ruins"),
        "cards": {c["id"]: c for c in scoring_cards()},
    }
