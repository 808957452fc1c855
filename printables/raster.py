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


def rasterize(
    pdf: bytes, page: int = 0, dpi: float = 150, *, clip_pt: tuple[float, float, float, float] | None = None
) -> np.ndarray:
    """Render page `page` (0-based) of `pdf` at `dpi`; returns an (H, W, 3) uint8 RGB array.

    `clip_pt` = (x, y, w, h) in points from the page's top-left renders only that
    rectangle (e.g. the QR code of each of 100 pages, which is much cheaper than
    whole pages); pixel (0, 0) is then the clip's top-left corner.
    """
    doc = pdfium.PdfDocument(pdf)
    try:
        if not 0 <= page < len(doc):
            raise IndexError(f"page {page} out of range (the PDF has {len(doc)} pages)")
        pdf_page = doc[page]
        crop = (0.0, 0.0, 0.0, 0.0)
        if clip_pt is not None:
            x, y, w, h = clip_pt
            pw, ph = pdf_page.get_size()
            crop = (x, ph - (y + h), pw - (x + w), y)  # pdfium crops from left, bottom, right, top
        bitmap = pdf_page.render(scale=dpi / 72, crop=crop, rev_byteorder=True, may_draw_forms=True)
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
