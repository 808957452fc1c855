"""The terrain vocabulary shared by JSON, the API, the CLI and every module.

Ruins are deliberately not a terrain: a ruins space is a printed feature that
terrain can be drawn over, so it lives as a per-cell flag on the board.
"""

from __future__ import annotations

from enum import StrEnum


class Terrain(StrEnum):
    EMPTY = "empty"
    FOREST = "forest"
    VILLAGE = "village"
    FARM = "farm"
    WATER = "water"
    MONSTER = "monster"
    MOUNTAIN = "mountain"
    WASTELAND = "wasteland"
    HERO = "hero"  # Cartographers Heroes: the hero's own 1×1, a terrain type of its own
    DESTROYED = "destroyed"  # Heroes: a space marked with an X — filled, but no terrain type

    @property
    def is_filled(self) -> bool:
        return self is not Terrain.EMPTY

    @property
    def is_drawable(self) -> bool:
        """A player can draw it with a pencil (mountains and wastelands are printed)."""
        return self in DRAWABLE


DRAWABLE: tuple[Terrain, ...] = (
    Terrain.FOREST,
    Terrain.VILLAGE,
    Terrain.FARM,
    Terrain.WATER,
    Terrain.MONSTER,
)
PRINTED: tuple[Terrain, ...] = (Terrain.MOUNTAIN, Terrain.WASTELAND)
# What a player's pencil may put on the map in any game: the base terrains plus the Heroes hero.
# `DRAWABLE` stays the base five because the printed legend row (and so the sheet geometry) is built on it.
PENCIL: tuple[Terrain, ...] = (*DRAWABLE, Terrain.HERO)

TERRAIN_NAMES: dict[Terrain, dict[str, str]] = {
    Terrain.EMPTY: {"en": "empty", "tr": "boş"},
    Terrain.FOREST: {"en": "forest", "tr": "orman"},
    Terrain.VILLAGE: {"en": "village", "tr": "köy"},
    Terrain.FARM: {"en": "farm", "tr": "tarla"},
    Terrain.WATER: {"en": "water", "tr": "su"},
    Terrain.MONSTER: {"en": "monster", "tr": "canavar"},
    Terrain.MOUNTAIN: {"en": "mountain", "tr": "dağ"},
    Terrain.WASTELAND: {"en": "wasteland", "tr": "çorak"},
    Terrain.HERO: {"en": "hero", "tr": "kahraman"},
    Terrain.DESTROYED: {"en": "destroyed", "tr": "yıkılmış"},
}


def parse_terrain(word: str) -> Terrain:
    """Parse a terrain word; raises ValueError naming the word so callers can point at the cell."""
    try:
        return Terrain(word.strip().lower())
    except (ValueError, AttributeError):
        allowed = ", ".join(t.value for t in Terrain)
        raise ValueError(f"unknown terrain {shorten(word)!r} (expected one of: {allowed})") from None


def shorten(value: object, limit: int = 40) -> str:
    """Bad input echoed back in a message, cut to `limit` characters so a 100 KB paste never comes back whole."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
