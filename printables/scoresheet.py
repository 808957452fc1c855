"""The Cartographers table score sheet: every player's four seasons on one landscape page.

One row per player, per season the two edicts of that season (Spring A+B,
Summer B+C, Fall C+D, Winter D+A), coins, monsters and the season total, then
the final score. A write-in line names the four edict cards in play, so the
sheet is a complete record of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.cartographers.cards import BASE, CardSet
from companion.cartographers.data import CARD_SETS, EDICTS, seasons_differ_from_base

from .draw import Page, repeated_pages
from .layout import PAPERS
from .strings import LANGS, season_title, text

FIELDS = ("edict1", "edict2", "coins", "monsters", "total")
MAX_PLAYERS = 12
MARGIN = 36.0


def scores_pdf(players: int = 4, paper: str = "a4", lang: str = "en", copies: int = 1,
               names: Sequence[str] | None = None, card_set: str = BASE,
               skills: Sequence[str] | None = None, edicts: Sequence[str] | None = None) -> bytes:
    """A landscape PDF with `copies` identical score sheets for `players` rows (1–12).

    With `names` (a table's players, in seat order) the rows come pre-filled and
    there is one row per name; with `edicts` (the four scoring cards' names under
    edicts A–D, as a table knows them) the edict lines are filled in too.
    `card_set` picks the seasons: a Heroes sheet names
    each season's time (8/7/7/6) because Summer differs from the base game.
    `skills` (the Skills packs; names as the table typed them, or blanks to write in)
    adds a line naming them and reminding that coins spent on a skill are crossed
    off and no longer score, so the ● column counts only coins not spent.
    """
    paper, lang = _check(paper, lang)
    if card_set not in CARD_SETS:
        raise ValueError(f"unknown card set {card_set!r} (expected one of: {', '.join(CARD_SETS)})")
    cs = CARD_SETS[card_set]
    names = [str(n) for n in names] if names else []
    edicts = [str(e) for e in edicts] if edicts else []
    if edicts and len(edicts) != len(EDICTS):
        raise ValueError(f"give {len(EDICTS)} edict card names (A-D), got {len(edicts)}")
    if names:
        players = len(names)
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be between 1 and {MAX_PLAYERS}, got {players}")
    h, w = PAPERS[paper]  # landscape
    return repeated_pages((w, h), f"Cartographers score sheet ({players} players)", copies,
                          lambda pg: _draw(pg, w, h, players, lang, names, cs, skills, edicts))


def _check(paper: str, lang: str) -> tuple[str, str]:
    paper, lang = str(paper).lower(), str(lang).lower()
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (expected one of: {', '.join(PAPERS)})")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(LANGS)})")
    return paper, lang


EDICT_PAIRS = tuple(s.edicts for s in CARD_SETS[BASE].seasons)  # every set scores A+B, B+C, C+D, D+A


def _field_label(season: int, field: str) -> str:
    if field in ("edict1", "edict2"):
        return EDICT_PAIRS[season][0 if field == "edict1" else 1]
    return {"coins": "●", "monsters": "☠", "total": "★"}[field]


def games_per_page(players: int) -> int:
    """Small tables print twice per page (two games, or cut in half) instead of leaving half a page blank."""
    return 2 if players <= 5 else 1


def _draw(pg: Page, w: float, h: float, players: int, lang: str, names: Sequence[str] = (),
          cs: CardSet = CARD_SETS[BASE], skills: Sequence[str] | None = None, edicts: Sequence[str] = ()) -> None:
    left, right = MARGIN, w - MARGIN
    title = text(lang, "scores_title")
    if cs.id != BASE:
        title += " · " + (cs.name_tr if lang == "tr" else cs.name_en)
    pg.text(left, MARGIN + 16, title, 18, bold=True, grey=0.05)
    if skills is not None:
        shown = [str(s) for s in skills if str(s).strip()] or ["________"] * 3
        line = text(lang, "skills_line", skills=" · ".join(shown))
        pg.text(right, MARGIN + 14, line, pg.fit_size(line, 8.5, (right - left) * 0.55), align="right", grey=0.2)
    games = games_per_page(players)
    top = MARGIN + 30
    slot_h = (h - top - MARGIN + 10) / games
    for g in range(games):
        y0 = top + g * slot_h
        if g:
            pg.c.setStrokeGray(0.6)
            pg.c.setLineWidth(0.5)
            pg.c.setDash(3, 3)
            pg.line(left - 20, y0 - 4, right + 20, y0 - 4)
            pg.c.setDash()
        _draw_game(pg, left, right, y0 + 6, y0 + slot_h - 12, players, lang, names, cs, edicts)


def _draw_game(pg: Page, left: float, right: float, top: float, bottom: float, players: int, lang: str,
               names: Sequence[str] = (), cs: CardSet = CARD_SETS[BASE], edicts: Sequence[str] = ()) -> None:
    c = pg.c
    # Edict cards in play (write-in lines A..D) and the date.
    y = top + 12
    c.setStrokeGray(0.35)
    c.setLineWidth(0.6)
    dw = pg.text(right - 130, y, text(lang, "date") + ":", 9, grey=0.2)
    pg.line(right - 130 + dw + 4, y + 1.5, right, y + 1.5)
    x = left + pg.text(left, y, text(lang, "edicts") + ":", 9, bold=True, grey=0.15) + 10
    slot = (right - 150 - x) / len(EDICTS)
    for i, letter in enumerate(EDICTS):
        x0 = x + i * slot
        lw = pg.text(x0, y, letter, 10, bold=True)
        pg.line(x0 + lw + 4, y + 1.5, x0 + slot - 14, y + 1.5)
        if edicts:
            card = edicts[i]
            pg.text(x0 + lw + 6, y, card, pg.fit_size(card, 9.5, slot - lw - 22), grey=0.05)

    # The table.
    top = top + 24
    name_w = 128.0
    total_w = 64.0
    col_w = (right - left - name_w - total_w) / (4 * len(FIELDS))
    head1, head2 = 18.0, 15.0
    bottom_room = 22.0
    row_h = min(52.0, (bottom - top - head1 - head2 - bottom_room) / players)
    body_top = top + head1 + head2
    table_bottom = body_top + players * row_h
    season_x = [left + name_w + s * len(FIELDS) * col_w for s in range(4)]
    total_x = right - total_w

    # Shade the season-total and final columns (drawn first, under the lines).
    c.setFillGray(0.92)
    for sx in season_x:
        pg.rect(sx + 4 * col_w, top + head1, col_w, head2 + players * row_h, stroke=False, fill=True)
    pg.rect(total_x, top, total_w, head1 + head2 + players * row_h, stroke=False, fill=True)
    # Alternate row tint for reading across.
    c.setFillGray(0.97)
    for r in range(1, players, 2):
        pg.rect(left, body_top + r * row_h, name_w, row_h, stroke=False, fill=True)

    # Headers, and the players' names when the sheet is printed for a table.
    pg.text(left + 6, top + head1 + head2 - 5, text(lang, "player"), 9, bold=True, grey=0.1)
    for r, name in enumerate(names):
        size = pg.fit_size(name, 11, name_w - 12)
        pg.text(left + 6, body_top + (r + 0.5) * row_h + size / 3, name, size, grey=0.05)
    for s, sx in enumerate(season_x):
        name = season_title(lang, cs.seasons[s], seasons_differ_from_base(cs))
        pg.text(sx + 2.5 * col_w, top + head1 - 5, name, 10, bold=True, align="center", grey=0.05)
        for i, f in enumerate(FIELDS):
            pg.text(sx + (i + 0.5) * col_w, top + head1 + head2 - 4.5, _field_label(s, f),
                    10 if f == "monsters" else 8, bold=f.startswith("edict"), align="center", grey=0.05)
    label = text(lang, "game_total")
    size = pg.fit_size(label, 9, total_w - 6, bold=True)
    pg.text(total_x + total_w / 2, top + (head1 + head2) / 2 + 3, label, size, bold=True, align="center")

    # Lines: thin row and field lines, heavier season separators, a frame.
    c.setStrokeGray(0.55)
    c.setLineWidth(0.5)
    for r in range(players + 1):
        yy = body_top + r * row_h
        pg.line(left, yy, right, yy)
    pg.line(left + name_w, top + head1, total_x, top + head1)
    for sx in season_x:
        for i in range(1, len(FIELDS)):
            pg.line(sx + i * col_w, top + head1, sx + i * col_w, table_bottom)
    c.setStrokeGray(0.1)
    c.setLineWidth(1.2)
    for sx in [*season_x, total_x]:
        pg.line(sx, top, sx, table_bottom)
    c.setLineWidth(1.6)
    pg.rect(left, top, right - left, table_bottom - top)

    # Winner line and key.
    y = table_bottom + 16
    c.setStrokeGray(0.35)
    c.setLineWidth(0.6)
    ww = pg.text(left, y, text(lang, "winner") + ":", 9, bold=True, grey=0.15)
    pg.line(left + ww + 4, y + 1.5, left + 260, y + 1.5)
    key = text(lang, "scores_key")
    pg.text(right, y, key, pg.fit_size(key, 7, right - left - 280), align="right", grey=0.4)


# The name the web app looks up (`web/printing.py`); the brief calls it `scores_pdf`.
score_sheet_pdf = scores_pdf
