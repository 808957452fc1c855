"""Rasterise a PDF page to an RGB array, the way a perfect flat-bed scan of the printout would look.

Used by the tests (markers and grid must land where `layout.py` says) and by the
vision engineer's synthetic-photo generator. Pixel convention: a point at PDF
coordinate `x_pt` (from the page's left edge) lies at continuous pixel
coordinate `x_pt * dpi / 72`, where pixel `i` spans `[i, i + 1)`; OpenCV's
sub-pixel coordinates put pixel centres at integers, so subtract 0.5 to compare.
"""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium


def rasterize(pdf: bytes, page: int = 0, dpi: float = 150) -> np.ndarray:
    """Render page `page` (0-based) of `pdf` at `dpi`; returns an (H, W, 3) uint8 RGB array."""
    doc = pdfium.PdfDocument(pdf)
    try:
        if not 0 <= page < len(doc):
            raise IndexError(f"page {page} out of range (the PDF has {len(doc)} pages)")
        pdf_page = doc[page]
        bitmap = pdf_page.render(scale=dpi / 72, rev_byteorder=True, may_draw_forms=True)
        array = np.array(bitmap.to_numpy()[:, :, :3], dtype=np.uint8, copy=True)
        bitmap.close()
        pdf_page.close()
    finally:
        doc.close()
    return array


def page_count(pdf: bytes) -> int:
    doc = pdfium.PdfDocument(pdf)
    try:
        return len(doc)
    finally:
        doc.close()


def page_sizes_pt(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) of every page in points, as a PDF viewer sees them."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [tuple(doc.get_page_size(i)) for i in range(len(doc))]
    finally:
        doc.close()
