"""The TrueType fonts embedded in every PDF (the built-in PDF fonts have no ğ ş ı İ)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = "MapsmithSans"
BOLD = "MapsmithSans-Bold"


@cache
def register_fonts() -> tuple[str, str]:
    """Register DejaVu Sans (regular, bold) with ReportLab once; returns their font names.

    ReportLab keeps fonts in a process-wide registry, so registering is idempotent
    and cached rather than repeated per PDF (parsing a TTF costs ~20 ms).
    """
    pdfmetrics.registerFont(TTFont(REGULAR, str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    return REGULAR, BOLD
