"""Printable PDFs (map sheets, score sheets, the Knarr pad) and the sheet geometry they share with `vision/`.

The web app calls the `*_pdf` functions for PDF bytes; `mapsmith print ...` wraps the same functions.
"""

from .mapsheet import map_sheet_pdf, new_sheet_id

__all__ = ["map_sheet_pdf", "new_sheet_id"]
