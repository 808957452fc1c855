"""The types of Cartographers game data: cards, map sides, seasons, card sets.

Kept apart from the data itself so that every set's data module (base game in
`data.py`, Cartographers Heroes in `heroes_data.py`) builds the same records,
and so that each card carries the set it comes from: a table picks components
by set, and nothing else in the code needs to know card names.
"""

from __future__ import annotations

from dataclasses import dataclass

from .shapes import Cell, Shape, is_orthogonally_connected, normalise
from .terrain import Terrain

BASE = "base"
HEROES = "heroes"
CUSTOM = "custom"


@dataclass(frozen=True)
class ShapeOption:
    cells: Shape
    coin: bool = False
    orthogonally_connected: bool = True


@dataclass(frozen=True)
class ExploreCard:
    id: str
    number: int | None  # printed card number; None where it is not known (Heroes)
    name_en: str
    name_tr: str
    kind: str  # "explore", "ruins" or "rift" (a 1×1 of a choice of terrains: Rift Lands, Kethra's Gates)
    time: int
    terrains: tuple[Terrain, ...]
    options: tuple[ShapeOption, ...]
    card_set: str = BASE


@dataclass(frozen=True)
class AmbushCard:
    id: str
    number: int | None
    name_en: str
    name_tr: str
    shape: Shape
    orthogonally_connected: bool
    direction: str  # "clockwise" | "counterclockwise": passing direction and solo travel direction
    solo_corner: str  # "top_left" | "top_right" | "bottom_left" | "bottom_right"
    time: int = 0
    card_set: str = BASE
    # Lasting effect (Heroes monsters): "" none, "coins_when_sealed", "spread_after_scoring",
    # "destroy_after_scoring", "destroy_when_drawn"; `effect_amount` is the coins or spaces it gives/takes.
    effect: str = ""
    effect_amount: int = 0
    chooser: str = ""  # who picks the destroyed space: "drawer", "owner" or "" (not applicable)
    effect_en: str = ""
    effect_tr: str = ""


@dataclass(frozen=True)
class HeroCard:
    """A hero: each player draws a 1×1 of the hero terrain, then marks the hits relative to it."""

    id: str
    name_en: str
    name_tr: str
    hits: tuple[Cell, ...]  # [d_row, d_col] offsets from the hero's space, printed orientation
    time: int = 0
    card_set: str = HEROES


@dataclass(frozen=True)
class ScoringCardInfo:
    id: str
    number: int | None
    name_en: str
    name_tr: str
    category: str
    solo_threshold: int
    text_en: str
    text_tr: str
    card_set: str = BASE


@dataclass(frozen=True)
class MapSide:
    side: str
    name_en: str
    name_tr: str
    mountains: tuple[Cell, ...]
    ruins: tuple[Cell, ...]
    wastelands: tuple[Cell, ...] = ()
    card_set: str = BASE
    # pre-drawn terrains (map packs' "scouted" spaces, a table's own side): cell and terrain
    predrawn: tuple[tuple[Cell, Terrain], ...] = ()


@dataclass(frozen=True)
class Season:
    index: int
    name_en: str
    name_tr: str
    threshold: int
    edicts: tuple[str, str]


@dataclass(frozen=True)
class SoloTitle:
    min_rating: int
    name_en: str
    name_tr: str


@dataclass(frozen=True)
class Doubt:
    """A fact resting on thin evidence: shown to tables and pinned by a test that names it."""

    id: str
    text_en: str
    text_tr: str


@dataclass(frozen=True)
class CardSet:
    """One box of components a table can play with (and mix with the other box's)."""

    id: str
    name_en: str
    name_tr: str
    explore: tuple[ExploreCard, ...]
    ambushes: tuple[AmbushCard, ...]
    heroes: tuple[HeroCard, ...]
    scoring: tuple[ScoringCardInfo, ...]
    seasons: tuple[Season, ...]
    sides: tuple[str, ...]
    names_tr_ours: bool = False  # no Turkish edition: the Turkish names are our translations
    doubts: tuple[Doubt, ...] = ()


def opt(cells: list[list[int]], coin: bool = False) -> ShapeOption:
    shape = normalise((r, c) for r, c in cells)
    return ShapeOption(shape, coin, is_orthogonally_connected(shape))
