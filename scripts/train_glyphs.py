"""Train the glyph-orientation model shipped as vision/data/glyphs.npz (run offline, a few minutes).

    python scripts/train_glyphs.py                              # full model
    python scripts/train_glyphs.py --n 150 --out /tmp/g.npz --check   # small model + held-out sanity check

Samples are letters, digits and short words (Latin and Turkish) rendered in every TrueType font found (the
project's own DejaVu, the system's DejaVu / Liberation, ReportLab's Vera) and in OpenCV's Hershey fonts, at many
sizes, weights, slants and blurs, turned by 0–3 quarter turns (the class), plus "no glyph" shapes (boxes, circles,
lines, dots, hatching, scribbles). They are cut out by exactly the runtime code (`vision.upright.glyph_crops`,
`glyph_descriptor`). Seeds 0..999,999 train; `--check` scores on seeds from 1,000,000 and fails below a floor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.upright import MODEL_PATH, darkness, glyph_crops, glyph_descriptor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FONT_DIRS = [ROOT / "printables" / "fonts", Path("/usr/share/fonts/truetype")]
CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ÇĞİÖŞÜçğıöşü"
WORDS = ("Cartographers", "Kartograf", "Name", "Adı", "Spring", "Summer", "Autumn", "Winter", "İlkbahar", "Yaz",
         "Sonbahar", "Kış", "Total", "Toplam", "Coins", "Altın", "map sheet", "harita", "Season", "score", "Side")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
           cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)


def fonts() -> list[Path]:
    found = sorted({p for d in FONT_DIRS if d.exists() for p in d.rglob("*.ttf") if "Math" not in p.name})
    try:
        import reportlab

        found += sorted((Path(reportlab.__file__).parent / "fonts").glob("Vera*.ttf"))
    except ImportError:
        pass
    return found


def text_of(rng: np.random.Generator) -> str:
    u = rng.random()
    if u < 0.35:
        return CHARS[int(rng.integers(len(CHARS)))]
    if u < 0.55:
        return str(int(rng.integers(1, 15)))
    if u < 0.85:
        return WORDS[int(rng.integers(len(WORDS)))]
    return "".join(CHARS[int(i)] for i in rng.integers(0, len(CHARS), int(rng.integers(2, 4))))


def render_text(text: str, rng: np.random.Generator, font_files: list[Path]) -> np.ndarray:
    """Ink (0..1 float) of `text`, upright, on a blank canvas with room around it."""
    h = int(rng.integers(7, 56)) if rng.random() < 0.8 else int(rng.integers(7, 14))
    if font_files and rng.random() < 0.75:
        font = ImageFont.truetype(str(font_files[int(rng.integers(len(font_files)))]), h)
        box = font.getbbox(text)
        W, Hh = box[2] - box[0] + 2 * h, box[3] - box[1] + 2 * h
        img = Image.new("L", (max(W, 8), max(Hh, 8)), 0)
        ImageDraw.Draw(img).text((h - box[0], h - box[1]), text, fill=255, font=font)
        ink = np.asarray(img, np.float32) / 255
    else:
        face = HERSHEY[int(rng.integers(len(HERSHEY)))]
        scale = h / 30
        th = max(1, int(round(h / 14 * rng.uniform(0.6, 1.8))))
        (w, hh), base = cv2.getTextSize(text, face, scale, th)
        ink = np.zeros((hh + base + 2 * h, w + 2 * h), np.uint8)
        cv2.putText(ink, text, (h, h + hh), face, scale, 255, th, cv2.LINE_AA)
        ink = ink.astype(np.float32) / 255
    if rng.random() < 0.5:  # slant (italic hands, a tilted phone)
        sh = rng.uniform(-0.25, 0.25)
        ink = cv2.warpAffine(ink, np.float32([[1, sh, -sh * ink.shape[0] / 2], [0, 1, 0]]), ink.shape[::-1])
    if rng.random() < 0.5:
        ang = rng.normal(0, 5)
        M = cv2.getRotationMatrix2D((ink.shape[1] / 2, ink.shape[0] / 2), ang, 1.0)
        ink = cv2.warpAffine(ink, M, ink.shape[::-1])
    if rng.random() < 0.3:
        k = np.ones((2, 2), np.uint8)
        ink = cv2.dilate(ink, k) if rng.random() < 0.5 else cv2.erode(ink, k)
    if len(text) > 1 and rng.random() < 0.4:  # a small or blurred word: its letters run into one blob
        ink = np.clip(cv2.GaussianBlur(ink, (0, 0), h * rng.uniform(0.04, 0.12)) * rng.uniform(1.5, 3.0), 0, 1)
    if rng.random() < 0.3:  # printed small, photographed from afar: few pixels per letter
        f = rng.uniform(0.25, 0.6)
        small = cv2.resize(ink, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        ink = cv2.resize(small, ink.shape[::-1], interpolation=cv2.INTER_LINEAR)
    return ink


def render_other(rng: np.random.Generator) -> np.ndarray:
    """A shape that is no glyph: a box, circle, line, dot, hatching or scribble."""
    S = int(rng.integers(20, 90))
    m = np.zeros((S + 40, S + 40), np.uint8)
    o = 20
    th = max(1, int(S / rng.uniform(12, 30)))
    kind = int(rng.integers(6))
    if kind == 0:
        a, b = S, int(S * rng.uniform(0.5, 1.0))
        cv2.rectangle(m, (o, o), (o + a, o + b), 255, th)
    elif kind == 1:
        cv2.circle(m, (o + S // 2, o + S // 2), S // 2, 255, th if rng.random() < 0.8 else -1)
    elif kind == 2:
        cv2.line(m, (o, o + S // 2), (o + S, o + S // 2 + int(rng.integers(-3, 4))), 255, th)
    elif kind == 3:
        cv2.circle(m, (o + S // 2, o + S // 2), max(2, S // 6), 255, -1)
    elif kind == 4:
        step = max(3, S // int(rng.integers(4, 9)))
        for k in range(-S, S, step):
            cv2.line(m, (o + k, o + S), (o + k + S, o), 255, max(1, th // 2))
        m[: o] = 0
        m[o + S :] = 0
        m[:, : o] = 0
        m[:, o + S :] = 0
    else:
        pts = (o + rng.uniform(0, S, (int(rng.integers(3, 8)), 2))).astype(np.int32)
        cv2.polylines(m, [pts], False, 255, th)
    return m.astype(np.float32) / 255


def degrade(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ink → the runtime darkness map of a photographed page (paper level, blur, noise, faint print)."""
    paper = rng.uniform(170, 245)
    ink_level = rng.uniform(0.45, 1.0)
    g = paper * (1 - ink * ink_level)
    g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.3, 1.4))
    g = g + rng.normal(0, rng.uniform(1, 8), g.shape)
    return darkness(np.clip(g, 0, 255).astype(np.uint8))


def samples(j: int, seed: int, font_files: list[Path]) -> list[np.ndarray]:
    """Descriptors of the blobs of one rendered sample of class j (0..3 quarter turns, 4 = no glyph)."""
    rng = np.random.default_rng(seed)
    if j == 4:
        dark = degrade(render_other(rng), rng)
    else:
        dark = np.ascontiguousarray(np.rot90(degrade(render_text(text_of(rng), rng, font_files), rng), j))
    return [glyph_descriptor(c) for c in glyph_crops(dark, 6, 400, limit=6)]


def dataset(n: int, first_seed: int, font_files: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    X, y = [], []
    for j in range(5):
        for i in range(n):
            for d in samples(j, first_seed + j * 100_000 + i, font_files):
                X.append(d)
                y.append(j)
    return np.array(X, np.float32), np.array(y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2500, help="rendered samples per class")
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--check", action="store_true", help="score on held-out seeds and fail below 60 %%")
    args = ap.parse_args(argv)
    from sklearn.neural_network import MLPClassifier

    font_files = fonts()
    X, y = dataset(args.n, 0, font_files)
    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-3
    clf = MLPClassifier((128,), alpha=1e-3, max_iter=300, early_stopping=True, random_state=0)
    clf.fit((X - mean) / scale, y)
    Xh, yh = dataset(max(40, args.n // 5), 1_000_000, font_files)
    acc = float((clf.predict((Xh - mean) / scale) == yh).mean())
    print(f"trained on {len(y)} blobs from {len(font_files)} fonts + Hershey; held-out accuracy {acc:.1%} "
          f"on {len(yh)}")
    w0, w1 = (w.astype(np.float32) for w in clf.coefs_)
    b0, b1 = (b.astype(np.float32) for b in clf.intercepts_)
    np.savez_compressed(args.out, mean=mean.astype(np.float32), scale=scale.astype(np.float32), w0=w0, b0=b0,
                        w1=w1, b1=b1)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} kB)")
    return 0 if not args.check or acc >= 0.6 else 1


if __name__ == "__main__":
    sys.exit(main())
