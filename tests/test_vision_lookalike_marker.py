"""A "marker" decoded inside the map's grid is a look-alike, never one of our corner markers
(`vision.locate.markers_inside_grid`, `vision.reading._locate_with_few_markers`).

On a development photo of the game's pad in crayon, a textured cell decoded as side B's marker 7: its side and way
down turned the whole pad into side B a quarter turn off, 88 cells silently wrong. Here the pad look-alike, drawn
in code, gets a real ArUco marker of side B painted into one of its cells.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.synthphoto import PhotoSpec, make_photo
from printables.layout import ARUCO_DICT
from vision import read_sheet
from vision.locate import ID_SIDE, detect_markers, markers_inside_grid


def _grid_centres(x0: float, y0: float, cell: float) -> np.ndarray:
    g = x0 + cell * (np.arange(11) + 0.5)
    h = y0 + cell * (np.arange(11) + 0.5)
    X, Y = np.meshgrid(g, h)
    return np.stack([X, Y], axis=-1)


def _square(cx: float, cy: float, half: float) -> np.ndarray:
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]])


def test_markers_inside_the_grid_are_told_from_corner_markers():
    centres = _grid_centres(100, 100, 40)  # grid from (100, 100) to (540, 540)
    found = {
        7: _square(300, 300, 15),  # in the middle of the map
        4: _square(100 - 27, 100 - 27, 12),  # where our layout prints a corner marker: 2/3 cell off the corner
        5: _square(530, 300, 8),  # in the last column, within half a cell of the edge: not surely inside
    }
    assert markers_inside_grid(found, centres) == {7}
    assert markers_inside_grid({}, centres) == set()


def test_a_marker_drawn_inside_the_pad_does_not_turn_it():
    p = make_photo(31, PhotoSpec(design="pad", style="marker", side="A", megapixels=2.0))
    img = cv2.imdecode(np.frombuffer(p.data, np.uint8), cv2.IMREAD_COLOR)
    cell = float(np.median(np.linalg.norm(np.diff(p.cell_centers, axis=1), axis=2)))
    size = int(cell * 0.8)
    tag = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT)), 7, size)
    x, y = (p.cell_centers[5, 6] - size / 2).astype(int)
    img[y: y + size, x: x + size] = tag[..., None]  # turned as the page is not: it says a different way down
    img[y: y + size, x: x + size] = np.rot90(img[y: y + size, x: x + size])
    found = detect_markers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    assert 7 in found and ID_SIDE[7] == "B"  # the look-alike is there, and it names the other side
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    r = read_sheet(buf.tobytes(), overlay=False)
    assert r.side == "A"
    c = np.array(r.cell_centers_px)
    errs = [np.linalg.norm(np.rot90(c, k, axes=(0, 1)) - p.cell_centers, axis=2).max() / cell for k in range(4)]
    assert errs[0] < 0.15 or (r.orientation_unsure and min(errs) < 0.15)
