"""Stage 1: bytes or a path → a working-size BGR image, safely.

Why this is more than `cv2.imread`: phone photos are 12 MP and carry their
rotation in EXIF; uploads can be anything. So we read the header first (pixel
bombs are refused before any decode), check that the file is complete (libjpeg
happily returns a half-grey picture for a truncated JPEG), decode JPEGs at 1/2,
1/4 or 1/8 size inside libjpeg when the photo is large (much cheaper than
decoding full size and resizing), and apply the EXIF orientation ourselves so
the behaviour does not depend on OpenCV's decode flags.
"""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from vision.errors import PhotoError

try:  # iPhones can send HEIC from the file picker; pillow-heif teaches Pillow to open it
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIF_SUPPORTED = True
except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
    HEIF_SUPPORTED = False

MAX_PIXELS = 100_000_000  # refuse anything above 100 MP before decoding
MIN_SIDE = 300  # below this the sheet cannot possibly be readable
MIN_WORK_SIDE = 1100  # reduced decode keeps the short side at least this long
MAX_BYTES = 60 * 1024 * 1024

_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


@dataclass(frozen=True)
class LoadedPhoto:
    """A decoded photo at working size, upright (EXIF applied)."""

    image: np.ndarray  # BGR uint8
    original_size: tuple[int, int]  # (width, height) of the upright full-size photo
    scale: float  # working pixels per original pixel (1, 1/2, 1/4, 1/8 or a resize factor)
    format: str


def sniff_format(data: bytes) -> str:
    """The container format from the magic bytes: 'jpeg', 'png', 'webp' or 'heif'."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1"):
        if not HEIF_SUPPORTED:
            raise PhotoError("unsupported_format", "HEIC/HEIF")
        return "heif"
    raise PhotoError("not_an_image", "unrecognised file signature")


def _jpeg_complete(data: bytes) -> bool:
    """True when the entropy-coded data after the first SOS ends with an EOI marker.

    An EXIF thumbnail has its own EOI, so searching the whole file would be fooled;
    inside scan data 0xFF is byte-stuffed, so FF D9 after SOS is the real end.
    """
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return False
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        seg_len = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker == 0xDA:  # start of scan
            return data.find(b"\xff\xd9", i + 2 + seg_len) != -1
        i += 2 + seg_len
    return False


def check_complete(data: bytes, fmt: str) -> None:
    """Raise `corrupt_image` for a truncated file (decoders often return partial images silently)."""
    ok = True
    if fmt == "jpeg":
        ok = _jpeg_complete(data)
    elif fmt == "png":
        ok = b"IEND" in data[-64:]
    elif fmt == "webp":
        ok = len(data) >= int.from_bytes(data[4:8], "little") + 8
    if not ok:
        raise PhotoError("corrupt_image", f"truncated {fmt} file")


def read_header(data: bytes) -> tuple[int, int, int]:
    """(width, height, EXIF orientation) from the header alone, refusing pixel bombs."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                w, h = im.size
                try:
                    orientation = int(im.getexif().get(0x0112, 1) or 1)
                except Exception:  # a malformed EXIF block must not hide a good picture
                    orientation = 1
    except Image.DecompressionBombError as exc:
        raise PhotoError("too_large", str(exc)) from None
    except Exception as exc:
        raise PhotoError("corrupt_image", f"unreadable header: {exc}") from None
    if w * h > MAX_PIXELS:
        raise PhotoError("too_large", f"{w}x{h} pixels")
    return w, h, orientation if 1 <= orientation <= 8 else 1


def apply_orientation(image: np.ndarray, orientation: int) -> np.ndarray:
    """Rotate/flip a decoded image so it is upright, per the EXIF Orientation tag (1..8)."""
    if orientation == 2:
        return cv2.flip(image, 1)
    if orientation == 3:
        return cv2.rotate(image, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(image, 0)
    if orientation == 5:
        return cv2.flip(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), 1)
    if orientation == 6:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.flip(cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE), 1)
    if orientation == 8:
        return cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return image


def reduction_factor(width: int, height: int, min_side: int = MIN_WORK_SIDE) -> int:
    """Largest libjpeg reduction (1, 2, 4, 8) that keeps the short side >= `min_side`."""
    f = 1
    while f < 8 and min(width, height) / (f * 2) >= min_side:
        f *= 2
    return f


def read_bytes(source: bytes | bytearray | memoryview | str | os.PathLike) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    try:
        size = os.path.getsize(source)
    except OSError as exc:
        raise PhotoError("not_an_image", f"cannot open {source}: {exc.strerror}") from None
    if size > MAX_BYTES:
        raise PhotoError("too_large", f"{size} bytes")
    with open(source, "rb") as fh:
        return fh.read()


def _decode_heif(data: bytes, f: int) -> np.ndarray:
    try:
        with Image.open(io.BytesIO(data)) as im:
            rgb = np.asarray(im.convert("RGB"))
    except Exception as exc:  # a truncated or damaged HEIF fails inside libheif
        raise PhotoError("corrupt_image", f"heif decoder failed: {exc}") from None
    img = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    if f > 1:
        img = cv2.resize(img, (img.shape[1] // f, img.shape[0] // f), interpolation=cv2.INTER_AREA)
    return img


def load_photo(source: bytes | str | os.PathLike, min_side: int = MIN_WORK_SIDE) -> LoadedPhoto:
    """Decode a photo at working size; raises PhotoError with a stable code for anything unusable."""
    data = read_bytes(source)
    if len(data) > MAX_BYTES:
        raise PhotoError("too_large", f"{len(data)} bytes")
    if len(data) < 16:
        raise PhotoError("not_an_image", "file too short")
    fmt = sniff_format(data)
    w, h, orientation = read_header(data)
    if min(w, h) < MIN_SIDE:
        raise PhotoError("too_small", f"{w}x{h} pixels")
    check_complete(data, fmt)
    f = reduction_factor(w, h, min_side)
    if fmt == "heif":
        # libheif applies the file's rotation while decoding (HEIF says EXIF orientation is only informative)
        return LoadedPhoto(_decode_heif(data, f), (w, h), 1.0 / f, fmt)
    buf = np.frombuffer(data, np.uint8)
    if fmt == "jpeg" and f > 1:
        img = cv2.imdecode(buf, _REDUCED[f] | cv2.IMREAD_IGNORE_ORIENTATION)
        scale = 1.0 / f
    else:
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        scale = 1.0
        if img is not None and f > 1:
            img = cv2.resize(img, (w // f, h // f), interpolation=cv2.INTER_AREA)
            scale = 1.0 / f
    if img is None:
        raise PhotoError("corrupt_image", f"{fmt} decoder failed")
    img = apply_orientation(img, orientation)
    upright = (h, w) if orientation in (5, 6, 7, 8) else (w, h)
    return LoadedPhoto(img, upright, scale, fmt)
