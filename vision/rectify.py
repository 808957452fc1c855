"""Stage 3: warp the photo to the canonical top-down page image."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import Canon


def canon_to_image(canon: Canon, page_to_image: np.ndarray) -> np.ndarray:
    """3×3 matrix taking canonical pixels to working-image pixels."""
    return page_to_image @ np.linalg.inv(canon.page_to_canon())


def rectify(image: np.ndarray, page_to_image: np.ndarray, canon: Canon) -> np.ndarray:
    """The canonical image (same dtype/channels as `image`), bilinear, replicated edges.

    INTER_AREA does not apply to perspective warps, so a photo much larger than
    the canonical size is expected to be reduced first (the loader does that).
    """
    M = canon_to_image(canon, page_to_image)
    return cv2.warpPerspective(image, M, canon.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def rectify_patch(image: np.ndarray, page_to_image: np.ndarray, x_pt: float, y_pt: float, w_pt: float,
                  h_pt: float, ppt: float) -> np.ndarray:
    """A page rectangle (points) warped out of the photo at `ppt` pixels per point (e.g. the QR code)."""
    T = np.array([[1 / ppt, 0, x_pt], [0, 1 / ppt, y_pt], [0, 0, 1]])
    size = (max(1, round(w_pt * ppt)), max(1, round(h_pt * ppt)))
    return cv2.warpPerspective(image, page_to_image @ T, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
