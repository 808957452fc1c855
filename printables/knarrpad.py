"""The Knarr score pad: per player a reputation track with its income steps, and a running score.

Knarr's reputation track has positions 0–14; from position 3, 6, 10 and 14 a
player scores 1, 2, 3 and 5 victory points at the start of each turn (there is
no 4). The pad prints those thresholds on the track so income is read off, not
remembered; the shading deepens with each income level.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.knarr.data import INCOME_THRESHOLDS, PLAYER_COUNTS, REPUTATION_MAX
from companion.knarr.rules import income_for

from .draw import Page, repeated_pages
from .layout import PAPERS
from .scoresheet import _check
from .strings import text

ROUND_BOXES = 30
MARGIN = 36.0
SHADE = {0: 1.0, 1: 0.93, 2: 0.87, 3: 0.81, 5: 0.74}  # deeper with each income level


def knarr_pad_pdf(players: int = 4, paper: str = "a4", lang: str = "en", copies: int = 1,
                  names: Sequence[str] | None = None) -> bytes:
    """A portrait PDF with `copies` identical pad pages, one block per player (2–4).

    With `names` (a table's players, in seat order) each block is pre-filled.
    """
    paper, lang = _check(paper, lang)
    names = [str(n) for n in names] if names else []
    if names:
        players = len(names)
    if players not in PLAYER_COUNTS:
        raise ValueError(f"players must be one of {', '.join(map(str, PLAYER_COUNTS))}, got {players}")
    w, h = PAPERS[paper]
    return repeated_pages((w, h), f"Knarr score pad ({players} players)", copies,
                          lambda pg: _draw(pg, w, h, players, lang, names))


def _draw(pg: Page, w: float, h: float, players: int, lang: str, names: Sequence[str] = ()) -> None:
    c = pg.c
    left, right = MARGIN, w - MARGIN
    pg.text(left, MARGIN + 16, text(lang, "knarr_title"), 18, bold=True, grey=0.05)
    c.setStrokeGray(0.35)
    c.setLineWidth(0.6)
    dw = pg.text(right - 150, MARGIN + 16, text(lang, "date") + ":", 9, grey=0.2)
    pg.line(right - 150 + dw + 4, MARGIN + 17.5, right, MARGIN + 17.5)

    top = MARGIN + 36
    note_room = 40.0
    # Two players: two games per page (four blocks) rather than two half-empty blocks.
    blocks = 4 if players == 2 else players
    block_h = (h - top - MARGIN - note_room) / blocks
    for b in range(blocks):
        y0 = top + b * block_h
        if b and b % players == 0:
            c.setStrokeGray(0.6)
            c.setLineWidth(0.5)
            c.setDash(3, 3)
            pg.line(left - 20, y0, right + 20, y0)
            c.setDash()
        _draw_player(pg, left, right, y0, block_h, lang, names[b % players] if names else "")

    note = text(lang, "knarr_note")
    y = h - MARGIN - note_room + 18
    size = 7.5
    # Two lines at most: split at the sentence break if one line is too long.
    if c.stringWidth(note, pg.regular, size) > right - left:
        first, _, rest = note.partition(". ")
        pg.text(left, y, first + ".", size, grey=0.35)
        pg.text(left, y + 10, rest, size, grey=0.35)
    else:
        pg.text(left, y, note, size, grey=0.35)
    pg.text(left, y + 22, text(lang, "tiebreak"), size, grey=0.35)


def _draw_player(pg: Page, left: float, right: float, y0: float, block_h: float, lang: str, name: str = "") -> None:
    c = pg.c
    # Block frame (light) and name line.
    c.setStrokeGray(0.6)
    c.setLineWidth(0.8)
    pg.rect(left, y0 + 4, right - left, block_h - 10)
    x = left + 10
    y = y0 + 24
    nw = pg.text(x, y, text(lang, "name") + ":", 10, bold=True, grey=0.1)
    c.setStrokeGray(0.35)
    c.setLineWidth(0.6)
    pg.line(x + nw + 4, y + 1.5, x + 230, y + 1.5)
    if name:
        pg.text(x + nw + 8, y, name, pg.fit_size(name, 11, 222 - nw), grey=0.05)
    # Final score box and tie-break box on the right.
    c.setStrokeGray(0.1)
    c.setLineWidth(1.4)
    box_w, box_h = 56.0, 24.0
    fx = right - 10 - box_w
    pg.rect(fx, y0 + 10, box_w, box_h)
    pg.text(fx - 6, y0 + 26, text(lang, "final") + " " + text(lang, "vp"), 9, bold=True, align="right")

    track_x = left + 90
    cell = (right - 10 - track_x) / (REPUTATION_MAX + 1)
    # Reputation track: 15 boxes, shaded by income level, thresholds marked.
    # Vertical sizes grow with the block (2 players get taller boxes), capped to stay tidy.
    k = min(1.4, block_h / 172)
    ry = y0 + 50 * k
    rh = 24.0 * k
    pg.text(left + 10, ry + 11, text(lang, "reputation"), 9, bold=True, grey=0.1)
    hint = text(lang, "reputation_hint")
    pg.text(left + 10, ry + 20, hint, pg.fit_size(hint, 6, track_x - left - 16), grey=0.45)
    for pos in range(REPUTATION_MAX + 1):
        bx = track_x + pos * cell
        c.setFillGray(SHADE[income_for(pos)])
        c.setStrokeGray(0.45)
        c.setLineWidth(0.6)
        pg.rect(bx, ry, cell, rh, fill=True)
        pg.text(bx + 2, ry + 7, str(pos), 6, grey=0.35)
    # Threshold marks: a heavy left edge and "+n VP" above the box where income starts.
    c.setStrokeGray(0.05)
    c.setLineWidth(1.8)
    for start, vp in INCOME_THRESHOLDS:
        bx = track_x + start * cell
        pg.line(bx, ry - 3, bx, ry + rh + 3)
        pg.text(bx + 2, ry - 4, text(lang, "income_vp", n=vp), 7, bold=True, grey=0.05)
    c.setLineWidth(1.0)
    pg.rect(track_x, ry, cell * (REPUTATION_MAX + 1), rh)

    # Running score: 30 round boxes in two rows of 15, aligned with the track.
    sy = ry + rh + 22 * k
    pg.text(left + 10, sy + 10, text(lang, "vp"), 9, bold=True, grey=0.1)
    hint = text(lang, "per_round")
    pg.text(left + 10, sy + 19, hint, pg.fit_size(hint, 6, track_x - left - 16), grey=0.45)
    per_row = REPUTATION_MAX + 1
    sh = min(26.0 * k, (y0 + block_h - 14 - sy) / 2)
    c.setStrokeGray(0.45)
    c.setLineWidth(0.6)
    for i in range(ROUND_BOXES):
        bx = track_x + (i % per_row) * cell
        by = sy + (i // per_row) * sh
        pg.rect(bx, by, cell, sh)
        pg.text(bx + 2, by + 6.5, str(i + 1), 5.5, grey=0.5)
