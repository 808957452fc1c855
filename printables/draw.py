"""A thin top-left-origin wrapper over a ReportLab canvas, shared by every printable.

The layout speaks in points from the page's top-left (like the photo reader);
ReportLab's origin is bottom-left. Only this class knows about the flip.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from .fonts import register_fonts


def new_canvas(buf: BinaryIO, pagesize: tuple[float, float]) -> Canvas:
    """A compressed canvas whose initial font is our embedded TTF.

    ReportLab otherwise starts every page with Helvetica, which ends up listed as
    a non-embedded font (print shops' preflight checks flag that).
    """
    regular, _ = register_fonts()
    return Canvas(buf, pagesize=pagesize, pageCompression=1, initialFontName=regular, initialFontSize=10)


def repeated_pages(pagesize: tuple[float, float], title: str, copies: int, draw: Callable[[Page], None]) -> bytes:
    """A PDF of `copies` identical pages: the page is drawn once into a form and re-used, so copies are cheap."""
    if not 1 <= copies <= 100:
        raise ValueError(f"copies must be between 1 and 100, got {copies}")
    buf = io.BytesIO()
    c = new_canvas(buf, pagesize)
    c.setTitle(title)
    c.setAuthor("Mapsmith")
    c.beginForm("page")
    draw(Page(c, pagesize[1]))
    c.endForm()
    for _ in range(copies):
        c.doForm("page")
        c.showPage()
    c.save()
    return buf.getvalue()


class Page:
    """Top-left-origin drawing on a ReportLab canvas (whose origin is bottom-left)."""

    def __init__(self, c: Canvas, page_h: float) -> None:
        self.c = c
        self.h = page_h
        self.regular, self.bold = register_fonts()

    def y(self, y_top: float) -> float:
        return self.h - y_top

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.c.rect(x, self.h - y - h, w, h, stroke=int(stroke), fill=int(fill))

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.c.line(x1, self.h - y1, x2, self.h - y2)

    def circle(self, cx: float, cy: float, r: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.c.circle(cx, self.h - cy, r, stroke=int(stroke), fill=int(fill))

    def text(
        self, x: float, baseline: float, s: str, size: float, *, bold: bool = False, align: str = "left",
        grey: float = 0.0,
    ) -> float:
        """Draw `s` with its baseline at `baseline` (from the top); returns the text width."""
        font = self.bold if bold else self.regular
        self.c.setFillGray(grey)
        self.c.setFont(font, size)
        w = self.c.stringWidth(s, font, size)
        if align == "center":
            x -= w / 2
        elif align == "right":
            x -= w
        self.c.drawString(x, self.h - baseline, s)
        return w

    def fit_size(self, s: str, size: float, max_w: float, *, bold: bool = False) -> float:
        """The largest font size ≤ `size` at which `s` fits in `max_w` (long Turkish labels shrink)."""
        w = self.c.stringWidth(s, self.bold if bold else self.regular, size)
        return size if w <= max_w else size * max_w / w

    def run_path(self, matrix: Sequence[Sequence[bool]], x: float, y: float, module: float) -> None:
        """Fill the dark modules of a bit matrix as one path (one rect per horizontal run, no seams)."""
        p = self.c.beginPath()
        for r, row in enumerate(matrix):
            c0 = None
            for col, dark in enumerate([*row, False]):
                if dark and c0 is None:
                    c0 = col
                elif not dark and c0 is not None:
                    p.rect(x + c0 * module, self.h - y - (r + 1) * module, (col - c0) * module, module)
                    c0 = None
        self.c.drawPath(p, stroke=0, fill=1)
