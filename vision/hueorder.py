"""Classification stage 3b: name a sheet's colour groups together, by the order of their hues.

Why: each colour group is first named alone (`vision.naming`: hue families, the palette reader, symbols), and the
priors overlap — orange is a village colour and a farm colour, teal a forest and a water one — so a whole group
drawn in one pen can be named confidently wrong while its cells agree with each other (an orange village beside
yellow farms read as two farms). What a single group cannot tell, the sheet's groups together can:

* **the terrains' colours lie in one order round the colour wheel**: village (red, brown, orange) → farm (orange,
  yellow) → forest (yellow-green, green) → water (teal, blue) → monster (violet, purple, magenta) → back to red.
  A player picks a redder pen for the villages than for the farms, a yellower one for the farms than for the
  forests, and so on; the pens' hues may sit anywhere, their order holds. So the groups, sorted by hue round the
  circle, should carry names that never step back in that order.
* **one pen, one terrain**: two neighbouring groups whose hues differ clearly were drawn with different pens and
  should not share a name (shades of one pen sit close together).

`order_marginals` finds the best labellings under both relations by dynamic programming over the groups sorted by
hue (every cut of the circle tried): the sorted groups are cut into runs, one run per terrain, the runs' terrains
rising in ORDER; each group scores its own naming evidence (log-probabilities from `vision.naming`, weighted by
its size); a group may break its run's name at a cost (`OUT_OF_ORDER`: a stray cell of mixed colour); a run whose
groups of a few cells or more (`ANCHOR_CELLS`) span a wide arc of hue pays for it (`SPAN`: two pens, one name).
Each group's confidence comes from its max-marginals — the best labelling with this group named t, for every t —
so a group that another labelling nearly as good would name otherwise is a contested group, which the review
asks about with one tap.
"""

from __future__ import annotations

import numpy as np

from vision.features import CellArrays
from vision.groups import Group
from vision.naming import DRAWABLE, Naming, group_summary

# The terrains in the order of their colours round the hue circle (Lab hue angle rising).
ORDER: tuple[str, ...] = ("village", "farm", "forest", "water", "monster")
OUT_OF_ORDER = 3.0  # log-evidence a group pays to carry another name than its run's
SPAN = (20.0, 40.0, 6.0)  # a run whose anchors span more than 20° of hue pays, up to 6.0 from 40° on
ANCHOR_CELLS = 2  # groups of at least this many cells say where a pen's hue lies (single cells may be bleed)
EVIDENCE_SCALE = 0.1  # the independent names' log-probabilities are overconfident: this much of them counts
TEMPERATURE = 0.7  # log-evidence units per e-fold between rival labellings' scores (the confidence)
EVIDENCE_FLOOR = 1e-3  # a group's probability for a name is floored here before its log is taken
GIVEN_WEIGHT = 1e4  # a group the player named weighs like this many cells (its name never moves)
NEG = -1e18


def span_cost(span) -> np.ndarray:
    """What a run pays for the arc of hue (degrees) its anchors span."""
    lo, hi, cost = SPAN
    return cost * np.clip((np.asarray(span, float) - lo) / (hi - lo), 0.0, 1.0)


def _linear(ev: np.ndarray, hue: np.ndarray, anchor: np.ndarray) -> np.ndarray:
    """(n, k) max-marginals of the sequence `ev` (n, k; labels in ORDER) cut into runs of rising labels.

    `hue` (n,) rises along the sequence (unwrapped); `anchor` (n,) marks the groups whose hue counts for a run's
    span. A run [a, b) named t scores Σ best_i(t) − span_cost(its anchors' arc), best_i(t) the better of the
    group taking t and the group breaking the run (its best other name − OUT_OF_ORDER).
    """
    n, k = ev.shape
    alt = np.empty_like(ev)  # [i, t]: best other name than t, less the cost of breaking the run
    for t in range(k):
        alt[:, t] = np.delete(ev, t, axis=1).max(axis=1) - OUT_OF_ORDER if k > 1 else NEG
    best = np.maximum(ev, alt)  # [i, t]
    csum = np.vstack([np.zeros(k), np.cumsum(best, axis=0)])  # [i, t]: Σ best over [0, i)
    # the arc of the anchors of every run [a, b): last anchor before b minus first anchor from a
    idx = np.arange(n)
    first = np.full(n + 1, n)  # first anchor at or after a
    last = np.full(n + 1, -1)  # last anchor before b
    for i in range(n - 1, -1, -1):
        first[i] = i if anchor[i] else first[i + 1]
    for b in range(1, n + 1):
        last[b] = b - 1 if anchor[b - 1] else last[b - 1]
    a_ = idx[:, None]
    b_ = np.arange(1, n + 1)[None, :]
    fa, lb = first[a_], last[b_]
    valid = b_ > a_  # [a, b-1]
    has = valid & (fa <= lb)
    arc = np.where(has, hue[np.clip(lb, 0, n - 1)] - hue[np.clip(fa, 0, n - 1)], 0.0)
    pay = span_cost(arc)
    # S[t][a, b-1] = score of the run [a, b) named t
    S = np.where(valid[None], csum[1:].T[:, None, :] - csum[:-1].T[:, :, None] - pay[None], NEG)  # [t, a, b-1]
    # forward: F[a, t] = best of [0, a) whose runs are all named below t (the empty prefix scores 0)
    F = np.full((n + 1, k), NEG)
    G = np.full((n + 1, k), NEG)  # best of [0, b) whose last run is named t
    F[0] = 0.0
    for b in range(1, n + 1):
        G[b] = (F[:b] + S[:, :b, b - 1].T).max(axis=0)
        F[b, 1:] = np.maximum.accumulate(G[b])[:-1]
    # backward: H[b, t] = best of [b, n) whose runs are all named above t
    H = np.full((n + 1, k), NEG)
    J = np.full((n + 1, k), NEG)  # best of [a, n) whose first run is named t
    H[n] = 0.0
    for a in range(n - 1, -1, -1):
        J[a] = (S[:, a, a:].T + H[a + 1:]).max(axis=0)
        H[a, :-1] = np.maximum.accumulate(J[a][::-1])[::-1][1:]
    T = np.where(valid[None], F[:n].T[:, :, None] + S + H[1:].T[:, None, :], NEG)  # [t, a, b-1]
    # R[t, i] = the best labelling whose run named t holds item i (a ≤ i ≤ b-1)
    suffix = np.maximum.accumulate(T[:, :, ::-1], axis=2)[:, :, ::-1]  # [t, a, j]: max over b-1 ≥ j
    R = np.maximum.accumulate(suffix, axis=1)[:, idx, idx]  # [t, i]: max over a ≤ i of suffix[t, a, i]
    # item i inside a run named t takes u: t itself, or another name at the cost of breaking the run
    eye = np.eye(k, dtype=bool)
    take = np.where(eye[:, None, :], ev[None], ev[None] - OUT_OF_ORDER)  # [t, i, u]
    return (R[:, :, None] - best.T[:, :, None] + take).max(axis=0)


def order_marginals(hues, evidence, anchor=None) -> np.ndarray:
    """(n, 5) max-marginal scores (labels in ORDER) of n groups with hue angles `hues` (degrees), `evidence`
    (n, 5) log-evidence per ORDER label and `anchor` (n,) bool (all True when not given), over every cut of the
    hue circle."""
    hues = np.asarray(hues, float) % 360.0
    ev = np.asarray(evidence, float)
    n = len(hues)
    anchor = np.ones(n, bool) if anchor is None else np.asarray(anchor, bool)
    if n == 0:
        return np.zeros((0, len(ORDER)))
    order = np.argsort(hues, kind="stable")
    h, e, an = hues[order], ev[order], anchor[order]
    best = np.full((n, len(ORDER)), NEG)
    for c in range(n):
        idx = (np.arange(n) + c) % n
        unwrapped = np.where(np.arange(n) + c >= n, h[idx] + 360.0, h[idx])
        best[idx] = np.maximum(best[idx], _linear(e[idx], unwrapped, an[idx]))
    out = np.empty_like(best)
    out[order] = best
    return out


def order_probabilities(hues, probs, cells) -> np.ndarray:
    """(n, 5) probabilities per ORDER label of n colour groups named together (see the module's docstring).

    `probs` (n, 5): each group's own naming probabilities in ORDER; `cells` (n,): its number of cells (a big
    group's own evidence counts more, as √cells, and its hue anchors its run).
    """
    p = np.asarray(probs, float)
    n_cells = np.asarray(cells, float)
    w = EVIDENCE_SCALE * np.sqrt(n_cells)
    ev = w[:, None] * np.log(np.clip(p, EVIDENCE_FLOOR, 1.0))
    m = order_marginals(hues, ev, n_cells >= ANCHOR_CELLS)
    z = (m - m.max(axis=1, keepdims=True)) / TEMPERATURE
    q = np.exp(z)
    return q / q.sum(axis=1, keepdims=True)


_TO_DRAWABLE = [DRAWABLE.index(t) for t in ORDER]  # ORDER position → DRAWABLE column


def coloured(summary: dict) -> bool:
    """A group drawn in a colour whose hue says something (`vision.naming.group_summary`)."""
    return summary["neutral"] < 0.5 and summary["hue_share"] > 0.25


def order_names(a: CellArrays, groups: list[Group], naming: Naming) -> Naming:
    """The colour groups' names and confidences, decided together by the order of their hues.

    Groups named by colour take the labelling's probabilities; groups the player named (`given`) take part as
    fixed points (one tap on the orange group tells the yellow one it is the farm) and keep their names; every
    other group (symbols, black ink, blank ones) is left as it is.
    """
    items = [k for k, g in enumerate(groups) if naming.source[k] in ("colour", "given")
             and coloured(group_summary(a, g))]
    if sum(naming.source[k] == "colour" for k in items) == 0 or len(items) < 2:
        return naming
    summaries = [group_summary(a, groups[k]) for k in items]
    p = naming.probs[items][:, _TO_DRAWABLE]
    # a name the player gave is a fixed point: its evidence counts as a group of GIVEN_WEIGHT cells
    cells = [len(groups[k].rows) if naming.source[k] == "colour" else GIVEN_WEIGHT for k in items]
    q = order_probabilities([s["hue"] for s in summaries], p, cells)
    probs = naming.probs.copy()
    for row, k in zip(q, items, strict=True):
        if naming.source[k] == "colour":
            probs[k] = 0.0
            probs[k, _TO_DRAWABLE] = row
    return Naming(probs, list(naming.source))
