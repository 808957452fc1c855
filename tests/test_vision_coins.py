"""vision.coins on arrays: faint marks told from unmarked circles, and a track hidden (by a cup, or out of the
photo) read as unsure rather than as marks."""

from __future__ import annotations

import numpy as np
import pytest

from vision import coins
from vision.coins import CircleInk, circle_ink, coins_of, faint_split, in_frame, read_coins
from vision.geometry import canon_for

R = 20.0  # px radius of the drawn circles
PITCH = 60.0


def track(marks: dict[int, float], size: float = 0.15, base: float = 0.0) -> tuple[np.ndarray, list[tuple]]:
    """An ink image (paper 0) with 14 circle places in a row; circle i gets a cross of ink `marks[i]` whose
    strokes cover about `size` of the inner disc; `base` is faint ink noise everywhere."""
    h, w = 100, int(PITCH * 15)
    ink = np.full((h, w), base, np.float32)
    places = []
    for i in range(14):
        cx, cy = PITCH * (i + 1), 50.0
        places.append((cx, cy, R))
        if i in marks:
            half = max(1, int(round(size * 0.6 * R / 2)))
            ink[int(cy) - half : int(cy) + half + 1, int(cx - 0.6 * R) : int(cx + 0.6 * R) + 1] = marks[i]
            ink[int(cy - 0.6 * R) : int(cy + 0.6 * R) + 1, int(cx) - half : int(cx) + half + 1] = marks[i]
    return ink, places


def test_strong_marks_count_and_unmarked_circles_do_not():
    ink, places = track({0: 0.9, 1: 0.9, 2: 0.9}, size=1.0)
    reading = coins_of([circle_ink(ink, *p) for p in places])
    assert reading.count == 3 and reading.filled[:4] == (True, True, True, False)
    assert reading.confidence > 0.3


def test_faint_pencil_crosses_are_told_from_the_unmarked_circles():
    # eight thin crosses whose ink stays under the strong-ink threshold: the old rule read none
    ink, places = track(dict.fromkeys(range(8), 0.18), size=0.5)
    circles = [circle_ink(ink, *p) for p in places]
    assert all(c.cover < coins.FILLED_COVERAGE for c in circles)
    reading = coins_of(circles)
    assert reading.count == 8 and reading.filled == (True,) * 8 + (False,) * 6
    assert reading.confidence >= 0.3


def test_faint_noise_spread_along_the_track_is_not_a_mark():
    # the unmarked circles' faint shares drift smoothly (light, a grain): no clear gap, nothing marked
    assert faint_split(np.linspace(0.08, 0.45, 14)) is None
    assert faint_split(np.zeros(14)) is None  # all alike: none marked
    assert faint_split(np.r_[np.zeros(10), np.full(4, 0.2)]) == pytest.approx(0.1)


def slashed(n: int, ink: float = 0.9, half: int = 2) -> tuple[np.ndarray, list[tuple]]:
    """A track whose first `n` circles are struck through by one diagonal stroke each (a slash): strong ink over
    about a quarter of the inner disc, nothing else."""
    img, places = track({})
    yy, xx = np.mgrid[: img.shape[0], : img.shape[1]]
    for cx, cy, _ in places[:n]:
        on = (np.abs((xx - cx) - (yy - cy)) <= half * np.sqrt(2)) & (np.hypot(xx - cx, yy - cy) <= R)
        img[on] = ink
    return img, places


def test_slashed_coins_count_though_one_stroke_covers_little_of_the_disc():
    ink, places = slashed(3)
    cx, cy, _ = places[8]
    ink[int(cy - 0.6 * R) : int(cy), int(cx - 0.6 * R) : int(cx + 0.6 * R)] = 0.15  # a pale smudge on a bare coin
    circles = [circle_ink(ink, *p) for p in places]
    assert all(0.1 < c.cover < coins.FILLED_COVERAGE for c in circles[:3])  # under the fill line …
    assert faint_split(np.array([c.faint for c in circles])) is None  # … and the smudge hides them from the faint
    reading = coins_of(circles)
    assert reading.filled == (True,) * 3 + (False,) * 11
    assert reading.confidence >= 0.3  # as clearly apart from the bare circles as fills are


def test_light_strokes_drifting_along_the_track_are_not_split_into_marks():
    # strong-ink shares rising smoothly from circle to circle (a shadow's edge, a grain): no group stands apart
    circles = [CircleInk(float(v), float(v), 0.02, False) for v in np.linspace(0.02, 0.2, 14)]
    assert coins.light_marks(np.linspace(0.02, 0.2, 14), np.ones(14, bool)) is None
    assert coins_of(circles).count == 0


def test_a_stray_smudge_past_the_filled_run_is_held_to_the_fill_order():
    # three filled coins and, at the far end, a grey smudge that only the faint-ink share sees: the rules say
    # "fill the next coin", so the run of three stands and the smudge is not a fourth coin
    circles = [CircleInk(0.9, 0.95, 0.05, False)] * 3 + [CircleInk(0.0, 0.38, 0.05, False)] * 10 + \
        [CircleInk(0.02, 0.97, 0.1, False)]
    reading = coins_of(circles)
    assert reading.count == 3 and reading.filled[:4] == (True, True, True, False)
    assert reading.confidence >= 0.3


def test_a_cup_over_the_track_hides_its_circles_and_asks_for_a_check():
    ink, places = track({0: 0.9}, size=1.0)
    ink[:, : int(PITCH * 4.5)] = 0.95  # a dark cup over the first four circles
    circles = [circle_ink(ink, *p) for p in places]
    assert [c.hidden for c in circles[:5]] == [True, True, True, True, False]
    reading = coins_of(circles)
    assert reading.count == 0  # the covered circles are not read as four marks
    assert reading.confidence == 0.0  # … and the player is asked to check the coins


def test_a_circle_out_of_the_photo_is_hidden():
    M = np.eye(3)
    assert in_frame((M, (100, 100)), 50, 50, 10)
    assert not in_frame((M, (100, 100)), 95, 50, 10)  # its right edge is past the photo's
    assert in_frame(None, -5, -5, 10)  # no frame given: taken as inside
    assert circle_ink(np.zeros((40, 40), np.float32), 38, 20, 5).hidden  # past the image's own edge


def test_read_coins_asks_when_the_track_lies_beyond_the_photo():
    canon = canon_for("A")
    w, h = canon.size
    ink = np.zeros((h, w), np.float32)
    first = canon.layout.coins[0]
    r = canon.px(first.d_pt / 2)
    assert read_coins(ink, canon).confidence == 1.0  # a clean track: sure, none marked
    # the photo ends just above the coin track (canonical = photo pixels here)
    frame = (np.eye(3), (w, int(canon.px(first.y_pt) - r)))
    reading = read_coins(ink, canon, frame=frame)
    assert reading.count == 0 and reading.confidence == 0.0


def test_a_hidden_circle_keeps_no_certainty_but_the_others_are_read():
    seen = CircleInk(0.8, 0.9, 0.02, False)
    clear = CircleInk(0.0, 0.0, 0.01, False)
    hidden = CircleInk(1.0, 1.0, 0.9, True)
    reading = coins_of([seen, seen, hidden, *[clear] * 11])
    assert reading.count == 2 and reading.filled[2] is False and reading.confidence == 0.0
