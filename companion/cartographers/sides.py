"""Map sides: the printed ones (A-D) and the ones a table defines itself.

A table's own side (a map pack's layout we may not guess, a home-made map) is
carried as a short code instead of being registered anywhere: `~Name~MM~RR~WW~PP`
where each list holds two hex digits per cell (its index r*11+c) and pre-drawn
cells add a terrain letter. The code is the side's id everywhere — in a Board,
a game's setup, a map JSON file and the printed sheet's QR — so any part of the
program can rebuild the layout from the id alone, with no global table.
"""

from __future__ import annotations

import re
from functools import cache

from .cards import CUSTOM, MapSide
from .data import GRID_SIZE, MAPS
from .shapes import Cell
from .terrain import Terrain

CUSTOM_PREFIX = "~"
MAX_NAME = 20
MAX_FEATURES = 60  # printed cells of all kinds together: a side must leave room to play
NAME_RE = re.compile(r"^[A-Za-z0-9 _\-]{1,20}$")  # plain ASCII: it travels in the sheet's QR code
PREDRAWN_LETTERS: dict[str, Terrain] = {
    "f": Terrain.FOREST, "v": Terrain.VILLAGE, "a": Terrain.FARM, "w": Terrain.WATER, "m": Terrain.MONSTER,
    "h": Terrain.HERO, "x": Terrain.DESTROYED,
}
LETTER_OF = {t: k for k, t in PREDRAWN_LETTERS.items()}


class SideError(ValueError):
    """A custom side that cannot be used; the message says why."""


def is_custom(side: str) -> bool:
    return isinstance(side, str) and side.startswith(CUSTOM_PREFIX)


def _cells(text: str, what: str) -> tuple[Cell, ...]:
    if len(text) % 2:
        raise SideError(f"bad {what} list")
    out = []
    for i in range(0, len(text), 2):
        try:
            n = int(text[i:i + 2], 16)
        except ValueError:
            raise SideError(f"bad {what} list") from None
        if n >= GRID_SIZE * GRID_SIZE:
            raise SideError(f"a {what} cell is off the map")
        out.append(divmod(n, GRID_SIZE))
    return tuple(out)


def encode_side(name: str, mountains=(), ruins=(), wastelands=(), predrawn=()) -> str:
    """The code of a table's own side (validated by decoding it back)."""
    name = str(name).strip().replace("~", "-").replace(":", "-")

    def hexes(cells) -> str:
        return "".join(f"{r * GRID_SIZE + c:02x}" for r, c in sorted({tuple(x) for x in cells}))

    pre = "".join(f"{r * GRID_SIZE + c:02x}{LETTER_OF[Terrain(t)]}" for (r, c), t in
                  sorted({(tuple(cell), Terrain(t)) for cell, t in predrawn}))
    code = CUSTOM_PREFIX + "~".join([name, hexes(mountains), hexes(ruins), hexes(wastelands), pre])
    side_layout(code)
    return code


@cache
def _decode(code: str) -> MapSide:
    parts = code[len(CUSTOM_PREFIX):].split("~")
    if len(parts) != 5:
        raise SideError("a custom side code has five parts: ~name~mountains~ruins~wastelands~pre-drawn")
    name, m, r, w, p = parts
    if not NAME_RE.match(name):
        raise SideError(f"a side name has 1-{MAX_NAME} letters, digits, spaces, '-' or '_'")
    if len(p) % 3:
        raise SideError("bad pre-drawn list")
    predrawn = []
    for i in range(0, len(p), 3):
        (cell,) = _cells(p[i:i + 2], "pre-drawn")
        if p[i + 2] not in PREDRAWN_LETTERS:
            raise SideError("unknown pre-drawn terrain")
        predrawn.append((cell, PREDRAWN_LETTERS[p[i + 2]]))
    side = MapSide(code, name, name, _cells(m, "mountain"), _cells(r, "ruins"), _cells(w, "wasteland"),
                   card_set=CUSTOM, predrawn=tuple(predrawn))
    cells = [*side.mountains, *side.ruins, *side.wastelands, *(c for c, _ in side.predrawn)]
    if len(set(cells)) != len(cells):
        raise SideError("two features share a space")
    if len(cells) > MAX_FEATURES:
        raise SideError(f"at most {MAX_FEATURES} printed spaces")
    return side


def side_layout(side: str) -> MapSide:
    """The layout behind any side id: a printed side A-D, or a table's own side code."""
    if side in MAPS:
        return MAPS[side]
    if is_custom(side):
        return _decode(side)
    raise SideError(f"unknown map side {side!r} (expected one of {', '.join(MAPS)}, or a table's own side)")


def normalise_side(side: object) -> str:
    """Upper-case a printed side's letter; keep a custom code as it is (its name is case-sensitive)."""
    text = str(side).strip()
    return text if is_custom(text) else text.upper()


def side_name(side: str, lang: str = "en") -> str:
    m = side_layout(side)
    return m.name_tr if lang == "tr" else m.name_en


def side_label(side: str) -> str:
    """How a sheet or a screen names the side: its letter, or the custom side's own name."""
    return side_layout(side).name_en if is_custom(side) else side


def card_set_for(side: str):
    """The set a side comes from; a table's own side plays with the base game's seasons unless told otherwise."""
    from .data import CARD_SETS

    return CARD_SETS.get(side_layout(side).card_set, CARD_SETS["base"])
