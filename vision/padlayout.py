"""The game's own pad: where its grid lies on its page, as a starting point for the lattice search.

Most players draw on the pad that comes with the game. Every sheet of it is the same print: a portrait page
(about 1 : 1.445) with a title and a name line above, the 11×11 grid inside a decorated double frame, the
row letters on the left, the column numbers and the 14-coin track below, the season boxes at the bottom.
Measured on scans of both sides of the real pad, the inner line of the frame — the grid's own edge — lies at
7.6 % and 92.5 % of the page's width and at 19 % and 77.7 % of its height (side B's title band is a few
pixels taller; the measurement of the lines afterwards absorbs that).

So when the page itself is among the candidate outlines but the grid's frame is not (a fully coloured map
whose fills run into the frame, a faint dashed lattice on parchment), the pad's layout puts the grid within a
fraction of a cell of where it is, and the comb over the whole page — which may lock onto the frame's hatched
blocks, the coin track or a row of fills — is not needed. The page may lie any way round in the photo: both
short sides are tried as its top.
"""

from __future__ import annotations

import numpy as np

PAD_GRID_IN_PAGE = (0.076, 0.19, 0.925, 0.777)  # x0, y0, x1, y1 of the grid's edge, fractions of the page
PAD_ASPECT = 1.445  # the pad's page: height over width
ASPECT_TOL = 0.2  # a page seen by a phone within about 35° of straight above keeps its aspect to this fraction


def _bilinear(quad: np.ndarray, u: float, v: float) -> np.ndarray:
    """The point at page fractions (u, v) of a quad (TL, TR, BR, BL), by the homography of the unit square."""
    import cv2

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    H = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
    return cv2.perspectiveTransform(np.float64([[[u, v]]]), H.astype(np.float64))[0, 0]


def page_like(quad: np.ndarray) -> bool:
    """Could this outline (TL, TR, BR, BL) be the pad's page seen by a phone (aspect near 1 : 1.445)?"""
    side = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    a, b = 0.5 * (side[0] + side[2]), 0.5 * (side[1] + side[3])
    if min(a, b) <= 0:
        return False
    return abs(max(a, b) / min(a, b) / PAD_ASPECT - 1) < ASPECT_TOL


def pad_grid_quads(quad: np.ndarray) -> list[np.ndarray]:
    """The grid outlines (TL, TR, BR, BL, in the quad's own corner order) that the pad's layout puts inside
    a page-like outline, one for each short side taken as the page's top; [] for an outline that is not
    page-like."""
    q = np.asarray(quad, np.float64)
    if q.shape != (4, 2) or not page_like(q):
        return []
    side = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    # Rotate the corner order so that corner 0 → 1 is a short side (the page's top or bottom).
    start = 0 if side[0] + side[2] < side[1] + side[3] else 1
    x0, y0, x1, y1 = PAD_GRID_IN_PAGE
    out = []
    for flip in (0, 2):
        r = np.roll(q, -(start + flip), axis=0)  # r[0] → r[1] is the page's top edge
        grid = np.array([_bilinear(r, x0, y0), _bilinear(r, x1, y0), _bilinear(r, x1, y1), _bilinear(r, x0, y1)])
        # Back in the quad's own order: corner k of the grid sits next to corner k of the outline.
        out.append(np.roll(grid, start + flip, axis=0))
    return out
