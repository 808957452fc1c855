"""Printable PDFs (map sheets, score sheets, the Knarr pad) and the sheet geometry they share with `vision/`.

The web app calls these functions for PDF bytes; `mapsmith print ...` wraps the same functions:
- `map_sheet_pdf(side, paper, lang, copies, sheet_ids, table, seats)`: Cartographers map sheets;
- `scores_pdf(players, paper, lang, copies)`: the Cartographers table score sheet;
- `knarr_pad_pdf(players, paper, lang, copies)`: the Knarr score pad;
- `sheet_layout(side, paper)`: the geometry (see `layout.py`).
"""

from .knarrpad import knarr_pad_pdf
from .layout import sheet_layout
from .mapsheet import map_sheet_pdf, new_sheet_id
from .scoresheet import scores_pdf

__all__ = ["knarr_pad_pdf", "map_sheet_pdf", "new_sheet_id", "scores_pdf", "sheet_layout"]
