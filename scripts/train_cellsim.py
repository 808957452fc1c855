"""Train the cell likeness model (`vision/cellsim.py`): cell patch → a unit vector, near for cells one hand drew
alike on one sheet, far for that hand's other terrains.

    python scripts/train_cellsim.py DATA.npz [DATA.npz …] --out vision/data/cellsim.npz [--epochs 3]
                                    [--val VAL.npz …] [--init vision/data/cellnet.npz]

Why a model of its own: the sheet's own classes (`vision.groups`) are found by grouping its cells by how they
look, and a player's symbol the reader never saw (drops for water, a grid for a farm) is only told apart from
the others by that. The cell model (`vision/cellnet.py`) learnt what a terrain usually looks like, so two
unknown symbols look alike to it whenever both resemble the same known one. This model learns the other
question — "did the same hand draw these two the same way?" — from the harvested patches of
`scripts/cellnet_data.py`, where every photo is one player's hand and its terrains are known: the loss
(supervised contrastive, within a photo only) pulls a photo's cells of one terrain together and pushes its
other terrains away, so what it learns is likeness on a sheet, not any generator's palette or symbol set.
Starts from the cell model's convolutions (`--init`) with a new last layer; needs PyTorch for training only.
Prints, for each `--val` file, how the groups of its photos come out (`vision.groups.cluster` on the learnt
distance): purity and groups per terrain.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.train_cellnet import augment, build, export, load, load_member, to_tensor  # noqa: E402

DIM = 32  # length of the likeness vector
TAU = 0.1  # temperature of the contrastive loss
RES = 4  # designs are drawn at this many times the patch size, then shrunk (anti-aliased strokes)


def random_design(rng: np.random.Generator) -> list[tuple[str, np.ndarray, bool]]:
    """A symbol nobody drew before: 1-3 strokes (lines, open polylines, zigzags, waves, arcs, rings, dots),
    some repeated two or three times side by side, in unit-cell coordinates: (kind, points, filled)."""
    out = []
    for _ in range(int(rng.integers(1, 4))):
        kind = str(rng.choice(["line", "poly", "zigzag", "wave", "arc", "ring", "dot"]))
        c = rng.uniform(0.3, 0.7, 2)
        size = rng.uniform(0.15, 0.45)
        if kind == "line":
            a = rng.uniform(0, np.pi)
            pts = c + size * np.array([[-np.cos(a), -np.sin(a)], [np.cos(a), np.sin(a)]])
        elif kind == "poly":
            pts = c + rng.uniform(-size, size, (int(rng.integers(3, 6)), 2))
        elif kind in ("zigzag", "wave"):
            t = np.linspace(-1, 1, 5 if kind == "zigzag" else 24)
            k = rng.uniform(1.5, 3.5)
            y = np.where(np.arange(len(t)) % 2, 1, -1) * 0.3 if kind == "zigzag" else 0.3 * np.sin(t * k * np.pi)
            a = rng.uniform(-0.5, 0.5)
            R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            pts = c + size * (np.c_[t, y] @ R.T)
        else:
            lo, hi = (0, 2 * np.pi) if kind != "arc" else sorted(rng.uniform(0, 2 * np.pi, 2))
            th = np.linspace(lo, hi, 24)
            r = size * (0.25 if kind == "dot" else rng.uniform(0.4, 1.0))
            pts = c + r * np.c_[np.cos(th), np.sin(th) * rng.uniform(0.6, 1.4)]
        filled = kind == "dot" or (kind == "ring" and rng.random() < 0.3)
        reps = int(rng.integers(1, 4)) if rng.random() < 0.4 else 1
        step = rng.uniform(-0.3, 0.3, 2)
        for j in range(reps):
            out.append((kind, pts + (j - (reps - 1) / 2) * step, filled))
    return out


def draw_design(design, rng: np.random.Generator, hand: dict) -> np.ndarray:
    """One (S, S, 3) float patch of `design` drawn by `hand` (ink, width, fill, paper, grid), as
    `vision.cellpatch` cuts a cell: the cell in the middle, a margin of grid lines and paper around it."""
    from vision.cellpatch import MARGIN, PATCH

    n = PATCH * RES
    cell = n / (1 + 2 * MARGIN)
    org = MARGIN * cell
    img = np.ones((n, n, 3), np.float32) * hand["paper"]
    for e in (org, org + cell):  # the grid lines around the cell
        for horiz in (True, False):
            p0, p1 = ((0, e), (n, e)) if horiz else ((e, 0), (e, n))
            cv2.line(img, tuple(int(v) for v in p0), tuple(int(v) for v in p1), hand["grid"], hand["grid_w"])
    a = np.radians(rng.normal(0, 10))
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * rng.uniform(0.75, 1.1)
    shift = rng.normal(0, 0.05, 2)
    if hand["fill"] is not None:
        q = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float) + rng.normal(0, 0.03, (4, 2))
        cv2.fillPoly(img, [np.round(org + q * cell).astype(np.int32)], hand["fill"], cv2.LINE_AA)
    w = max(1, int(round(hand["width"] * RES * rng.uniform(0.8, 1.25))))
    ink = tuple(float(v) for v in np.clip(np.asarray(hand["ink"]) * rng.uniform(0.85, 1.2), 0, 1))
    for kind, pts, filled in design:
        q = ((pts - 0.5) @ R.T + 0.5 + shift + rng.normal(0, 0.01, pts.shape)) * cell + org
        qi = np.round(q).astype(np.int32)
        if filled:
            cv2.fillPoly(img, [qi], ink, cv2.LINE_AA)
        else:
            cv2.polylines(img, [qi], kind == "ring", ink, w, cv2.LINE_AA)
    img = cv2.resize(img, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.9))
    return np.clip(img + rng.normal(0, 0.02, img.shape), 0, 1.4)


def design_sheet(rng: np.random.Generator, designs: int = 5, each: int = 5) -> np.ndarray:
    """(designs × each, S, S, 3) uint8 patches (× SCALE, as harvested) of one hand's unseen symbols: the loss
    learns to tell symbols apart by their strokes alone (one ink, one width, one paper for all of them)."""
    from scripts.cellnet_data import SCALE

    ink = [(0.33, 0.33, 0.35), (0.1, 0.1, 0.12), (0.5, 0.15, 0.1), (0.15, 0.2, 0.6)][int(rng.integers(4))]
    hand = {"ink": ink, "width": rng.uniform(0.8, 2.2), "paper": rng.uniform(0.88, 1.0, 3).astype(np.float32),
            "grid": tuple(float(v) for v in rng.uniform(0.3, 0.8, 3)), "grid_w": int(rng.integers(1, 4)),
            "fill": tuple(float(v) for v in rng.uniform(0.4, 1.0, 3)) if rng.random() < 0.3 else None}
    out = [draw_design(d, rng, hand) for d in (random_design(rng) for _ in range(designs)) for _ in range(each)]
    return np.clip(np.stack(out) * SCALE, 0, 255).astype(np.uint8)


def sheets_of(d: dict) -> list[np.ndarray]:
    """Row indices of each harvested photo (one generator and seed: one hand)."""
    key = np.char.add(d["gen"].astype(str), np.char.mod("%d", d["seed"]))
    _, inv = np.unique(key, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    bounds = np.flatnonzero(np.diff(inv[order])) + 1
    return np.split(order, bounds)


def supcon(torch, z, sheet, label):
    """Supervised contrastive loss over unit vectors `z`, positives = same photo and terrain, the anchor's
    denominator = its own photo's other cells (other photos are other hands: neither like nor unlike)."""
    sim = z @ z.T / TAU
    same_sheet = sheet[:, None] == sheet[None, :]
    eye = torch.eye(len(z), dtype=torch.bool)
    pos = same_sheet & (label[:, None] == label[None, :]) & ~eye
    allowed = same_sheet & ~eye
    sim = sim.masked_fill(~allowed, -1e9)
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    npos = pos.sum(1)
    keep = npos > 0
    loss = -(log_prob * pos).sum(1)[keep] / npos[keep]
    return loss.mean()


def vectors(torch, net, x: np.ndarray) -> np.ndarray:
    net.eval()
    out = []
    with torch.no_grad():
        for k in range(0, len(x), 1024):
            v = net(to_tensor(torch, x[k : k + 1024]))[0]
            out.append(torch.nn.functional.normalize(v, dim=1).numpy())
    return np.concatenate(out)


def group_report(name: str, d: dict, z: np.ndarray, merge_at: tuple[float, ...]) -> None:
    """Cluster each photo's filled cells on 1 − cos and report purity and groups per terrain."""
    from vision.groups import cluster

    for m in merge_at:
        pure = total = groups = terrains = 0
        by_style: dict[str, list[int]] = {}
        for rows in sheets_of(d):
            rows = rows[d["y"][rows] != 0]
            if len(rows) < 2:
                continue
            v = z[rows]
            parts = cluster(np.clip(1.0 - v @ v.T, 0, 2), m)
            y = d["y"][rows]
            ok = sum(int(np.bincount(y[p]).max()) for p in parts)
            pure += ok
            total += len(rows)
            groups += len(parts)
            terrains += len(set(y.tolist()))
            s = by_style.setdefault(str(d["style"][rows[0]]), [0, 0, 0, 0])
            s[0] += ok
            s[1] += len(rows)
            s[2] += len(parts)
            s[3] += len(set(y.tolist()))
        print(f"== {name} merge at {m:.2f}: purity {pure / total * 100:.2f} %, groups per terrain "
              f"{groups / terrains:.2f}; " + ", ".join(f"{k} {v[0] / v[1] * 100:.1f}/{v[2] / v[3]:.1f}"
                                                       for k, v in sorted(by_style.items())), flush=True)


def train(torch, d: dict, epochs: int, per_sheet: int, sheets_per_batch: int, lr: float,
          init: tuple[Path, int] | None, steps_per_epoch: int, designs: int = 0):
    """`designs`: sheets of unseen symbols (`design_sheet`) added to every batch."""
    net = build(torch, DIM)
    if init is not None:
        load_member(torch, net, *init, with_head=False)  # the cell model's convolutions, a new last layer
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch,
                                                pct_start=0.15)
    groups = [g for g in sheets_of(d) if len(g) >= 4]
    rng = np.random.default_rng(0)
    y_all = torch.from_numpy(d["y"].astype(np.int64))
    for ep in range(epochs):
        net.train()
        if init is not None:
            for bn in net.bns:
                bn.eval()
        t0, tot = time.time(), 0.0
        for _ in range(steps_per_epoch):
            picks = rng.choice(len(groups), sheets_per_batch, replace=False)
            idx, sheet = [], []
            for j, g in enumerate(picks):
                rows = groups[g]
                take = rng.choice(rows, min(per_sheet, len(rows)), replace=False)
                idx.append(take)
                sheet += [j] * len(take)
            idx = np.concatenate(idx)
            xb, yb = d["x"][idx], y_all[idx]
            if designs:
                made = [design_sheet(rng) for _ in range(designs)]
                xb = np.concatenate([xb, *made])
                yb = torch.cat([yb, *(torch.arange(len(m)) // 5 + 10 for m in made)])
                sheet += [sheets_per_batch + j for j, m in enumerate(made) for _ in range(len(m))]
            v, _ = net(augment(torch, to_tensor(torch, xb)))
            z = torch.nn.functional.normalize(v, dim=1)
            loss = supcon(torch, z, torch.tensor(sheet), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach())
        print(f"epoch {ep + 1}: loss {tot / steps_per_epoch:.4f} ({time.time() - t0:.0f} s)", flush=True)
    net.eval()
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--val", type=Path, nargs="*", default=[])
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=600, help="batches per epoch")
    ap.add_argument("--per-sheet", type=int, default=24, help="cells of one photo in a batch")
    ap.add_argument("--sheets", type=int, default=16, help="photos in a batch")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", type=Path, default=None, help="start from this cell model file's convolutions")
    ap.add_argument("--member", type=int, default=0)
    ap.add_argument("--designs", type=int, default=0, help="sheets of unseen symbols in every batch")
    ap.add_argument("--merge-at", type=float, nargs="*", default=[0.3, 0.45, 0.6])
    args = ap.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    d = load(args.data)
    print(f"training on {len(d['y'])} patches of {len(sheets_of(d))} photos", flush=True)
    net = train(torch, d, args.epochs, args.per_sheet, args.sheets, args.lr,
                None if args.init is None else (args.init, args.member), args.steps, args.designs)
    for vp in args.val:
        v = load([vp])
        group_report(vp.name, v, vectors(torch, net, v["x"]), tuple(args.merge_at))
    export(torch, net, args.out, 1.0)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
