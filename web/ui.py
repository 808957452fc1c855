"""Small template helpers shared by every page (icons, terrain chips)."""

from __future__ import annotations

from flask import Flask
from markupsafe import Markup, escape

from companion.cartographers.board import cell_name
from companion.cartographers.data import COIN_TRACK_LENGTH


def icon(name: str, label: str | None = None) -> Markup:
    """An inline SVG icon from the page's sprite (`_icons.html`); decorative unless labelled."""
    safe = escape(name)
    aria = f' role="img" aria-label="{escape(label)}"' if label else ' aria-hidden="true"'
    return Markup(f'<svg class="icon icon-{safe}"{aria}><use href="#i-{safe}"></use></svg>')


def shape_rows(cells: list[list[int]]) -> list[list[bool]]:
    """A shape's bounding box as rows of on/off cells, for drawing it with CSS grid."""
    if not cells:
        return []
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    on = {(r, c) for r, c in cells}
    return [[(r, c) in on for c in range(w)] for r in range(h)]


def hero_pattern(hits: list[list[int]]) -> list[list[str]]:
    """A hero card's picture: rows of 'hero', 'hit' or '' around the hero's own space."""
    cells = [(0, 0), *((r, c) for r, c in hits)]
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    h, w = max(r for r, _ in cells) - r0 + 1, max(c for _, c in cells) - c0 + 1
    rows = [[""] * w for _ in range(h)]
    for r, c in cells[1:]:
        rows[r - r0][c - c0] = "hit"
    rows[-r0][-c0] = "hero"
    return rows


def terrain_name(word: str) -> str:
    from companion.cartographers.terrain import TERRAIN_NAMES, Terrain

    from .i18n import lang

    return TERRAIN_NAMES[Terrain(word)][lang()]


def cell_label(cell: list[int] | tuple[int, int]) -> str:
    """How the printed sheet names a space: row letter A-K and column 1-11 (e.g. C7)."""
    return cell_name(cell[0], cell[1])


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(icon=icon, shape_rows=shape_rows, terrain_name=terrain_name, hero_pattern=hero_pattern,
                                 coin_track_length=COIN_TRACK_LENGTH)
    app.jinja_env.filters["cell_label"] = cell_label
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
