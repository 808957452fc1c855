"""Stage 1 (loading) on real encoded bytes: formats, EXIF orientation, reduced decode, bad files."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.errors import PhotoError
from vision.load import apply_orientation, load_photo, read_header, reduction_factor, sniff_format


def _asymmetric(w: int = 640, h: int = 400) -> np.ndarray:
    """BGR image whose orientation is recognisable: a red block in the top-left corner."""
    img = np.full((h, w, 3), 200, np.uint8)
    img[: h // 4, : w // 4] = (0, 0, 255)
    return img


def _encode_pil(img_bgr: np.ndarray, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(img_bgr[..., ::-1]).save(buf, fmt, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_formats_decode_to_the_same_picture(fmt):
    img = _asymmetric()
    photo = load_photo(_encode_pil(img, fmt, quality=95) if fmt != "PNG" else _encode_pil(img, fmt))
    assert photo.image.shape == img.shape
    assert photo.format == fmt.lower().replace("jpeg", "jpeg")
    assert np.abs(photo.image.astype(int) - img.astype(int)).mean() < 6


def test_exif_orientation_is_applied():
    img = _asymmetric()
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: rotate 90° clockwise to view
    data = _encode_pil(img, "JPEG", quality=95, exif=exif.tobytes())
    photo = load_photo(data)
    assert photo.image.shape[:2] == (640, 400)
    assert photo.original_size == (400, 640)
    # After a clockwise turn the red block sits in the top-right corner.
    assert photo.image[10, -10, 2] > 200 and photo.image[10, -10, 0] < 60
    assert photo.image[-10, 10, 2] < 230 or photo.image[-10, 10, 0] > 150


@pytest.mark.parametrize("orientation", range(1, 9))
def test_apply_orientation_inverts_the_stored_transform(orientation):
    img = _asymmetric(60, 40)
    out = apply_orientation(img, orientation)
    assert out.shape[:2] in ((40, 60), (60, 40))
    assert (out.shape[:2] == (60, 40)) == (orientation >= 5)


def test_large_jpeg_is_decoded_reduced():
    big = cv2.resize(_asymmetric(), (4000, 3000), interpolation=cv2.INTER_NEAREST)
    ok, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 80])
    photo = load_photo(buf.tobytes())
    assert photo.image.shape[:2] == (1500, 2000)
    assert photo.scale == 0.5
    assert photo.original_size == (4000, 3000)


def test_reduction_factor_keeps_enough_pixels():
    assert reduction_factor(4000, 3000) == 2
    assert reduction_factor(1600, 1200) == 1
    assert reduction_factor(12000, 9000) == 8


def _png_header_only(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


def test_pixel_bomb_is_refused_from_the_header():
    data = _png_header_only(50_000, 50_000)
    assert len(data) < 200
    with pytest.raises(PhotoError) as exc:
        load_photo(data)
    assert exc.value.code == "too_large"


def test_header_just_over_the_limit_is_refused():
    with pytest.raises(PhotoError) as exc:
        read_header(_png_header_only(12_000, 9_000))
    assert exc.value.code == "too_large"


def test_one_pixel_png_is_too_small():
    with pytest.raises(PhotoError) as exc:
        load_photo(_encode_pil(np.zeros((1, 1, 3), np.uint8), "PNG"))
    assert exc.value.code == "too_small"


@pytest.mark.parametrize("cut", [0.3, 0.7, 0.98])
def test_truncated_jpeg_is_corrupt(cut):
    ok, buf = cv2.imencode(".jpg", cv2.resize(_asymmetric(), (1200, 900)), [cv2.IMWRITE_JPEG_QUALITY, 90])
    data = buf.tobytes()
    with pytest.raises(PhotoError) as exc:
        load_photo(data[: int(len(data) * cut)])
    assert exc.value.code == "corrupt_image"


def test_truncated_jpeg_with_exif_thumbnail_is_still_caught():
    exif = Image.Exif()
    exif[0x0112] = 1
    img = _asymmetric(900, 700)
    data = _encode_pil(img, "JPEG", quality=90, exif=exif.tobytes())
    assert load_photo(data).image.shape == img.shape
    with pytest.raises(PhotoError) as exc:
        load_photo(data[:-200])
    assert exc.value.code == "corrupt_image"


@pytest.mark.parametrize("data", [b"", b"hello world, not a picture at all", b"%PDF-1.7\n" + b"0" * 100])
def test_non_images_are_refused(data):
    with pytest.raises(PhotoError) as exc:
        load_photo(data)
    assert exc.value.code == "not_an_image"


def test_sniff_format():
    assert sniff_format(b"\xff\xd8\xff\xe0rest") == "jpeg"
    assert sniff_format(b"RIFF\0\0\0\0WEBPVP8 ") == "webp"


def test_missing_file_is_a_photo_error(tmp_path):
    with pytest.raises(PhotoError) as exc:
        load_photo(tmp_path / "nope.jpg")
    assert exc.value.code == "not_an_image"


def test_heic_photo_is_decoded_upright():
    import pillow_heif

    pillow_heif.register_heif_opener()
    rgb = np.zeros((600, 800, 3), np.uint8)
    rgb[:300, :, 0] = 255  # red top half, so a wrong rotation shows
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="HEIF", quality=90)
    loaded = load_photo(buf.getvalue())
    assert loaded.format == "heif" and loaded.original_size == (800, 600)
    assert loaded.image.shape[:2] == (600, 800)
    assert loaded.image[100, 400, 2] > 200 and loaded.image[500, 400, 2] < 50  # BGR: red channel last


def test_damaged_heic_is_a_clear_error():
    with pytest.raises(PhotoError) as exc:
        load_photo(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 100)
    assert exc.value.code in ("corrupt_image", "not_an_image")
