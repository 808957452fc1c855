"""Score sheets: the Cartographers table sheet and the Knarr pad parse back with the right structure and words."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from companion.knarr.data import INCOME_BY_POSITION, INCOME_THRESHOLDS
from printables import knarr_pad_pdf, scores_pdf
from printables.layout import PAPERS
from printables.raster import page_count, page_sizes_pt, rasterize
from printables.scoresheet import score_sheet_pdf


def _texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("paper", list(PAPERS))
def test_scores_sheet_is_landscape_with_copies(paper: str) -> None:
    pdf = scores_pdf(players=5, paper=paper, lang="en", copies=3)
    w, h = PAPERS[paper]
    assert page_count(pdf) == 3
    assert all(size == pytest.approx((h, w), abs=0.01) for size in page_sizes_pt(pdf))


@pytest.mark.parametrize(("players", "games"), [(1, 2), (4, 2), (5, 2), (6, 1), (12, 1)])
def test_scores_sheet_has_every_season_column_per_game(players: int, games: int) -> None:
    """Small tables print two games per page; each game has 4 seasons × (2 edicts, coins, monsters, total)."""
    (text,) = _texts(scores_pdf(players=players, lang="en"))
    for season in ("Spring", "Summer", "Fall", "Winter"):
        assert text.count(season) == games
    assert text.count("Final score") == games
    assert text.count("Player") == games
    # Each season's two edicts (Spring A+B, Summer B+C, Fall C+D, Winter D+A), coins, monsters, total.
    flat = " ".join(text.split())
    assert flat.count("Spring A B ● ☠ ★ Summer B C ● ☠ ★ Fall C D ● ☠ ★ Winter D A ● ☠ ★") == games


def test_scores_sheet_in_turkish() -> None:
    (text,) = _texts(scores_pdf(players=3, lang="tr"))
    for word in ("puan çizelgesi", "Oyuncu", "İlkbahar", "Yaz", "Sonbahar", "Kış", "Toplam şöhret", "Fermanlar",
                 "Kazanan", "Tarih"):
        assert word in text


def test_web_name_is_the_same_function() -> None:
    assert score_sheet_pdf is scores_pdf


@pytest.mark.parametrize(("players", "blocks"), [(2, 4), (3, 3), (4, 4)])
def test_knarr_pad_blocks_and_income_thresholds(players: int, blocks: int) -> None:
    (text,) = _texts(knarr_pad_pdf(players=players, paper="a4", lang="en"))
    assert text.count("Name:") == blocks
    assert text.count("Reputation") == blocks
    for _, vp in INCOME_THRESHOLDS:
        assert text.count(f"+{vp} VP") == blocks
    assert "+4 VP" not in text  # there is no 4-VP step
    assert "40" in text


def test_knarr_thresholds_match_the_shading() -> None:
    """The track is shaded by income level: each threshold starts a darker box, within a level boxes match."""
    import numpy as np

    from printables.knarrpad import MARGIN, REPUTATION_MAX

    pdf = knarr_pad_pdf(players=4, paper="a4", lang="en")
    img = rasterize(pdf, 0, 150).mean(axis=2)
    w, _ = PAPERS["a4"]
    s = 150 / 72
    left, right = MARGIN, w - MARGIN
    track_x = left + 90
    cell = (right - 10 - track_x) / (REPUTATION_MAX + 1)
    k = min(1.4, ((PAPERS["a4"][1] - (MARGIN + 36) - MARGIN - 40) / 4) / 172)
    y = (MARGIN + 36 + 50 * k + 18 * k) * s  # lower part of the first block's track boxes, below the numbers
    levels = [float(np.median(img[int(y) - 2:int(y) + 2, int((track_x + (p + 0.6) * cell) * s)])) for p in
              range(REPUTATION_MAX + 1)]
    for p in range(1, REPUTATION_MAX + 1):
        if INCOME_BY_POSITION[p] > INCOME_BY_POSITION[p - 1]:
            assert levels[p] < levels[p - 1] - 5, (p, levels)
        else:
            assert abs(levels[p] - levels[p - 1]) < 3, (p, levels)


def test_knarr_pad_in_turkish() -> None:
    (text,) = _texts(knarr_pad_pdf(players=3, lang="tr"))
    for word in ("puan defteri", "İtibar", "+1 ZP", "+5 ZP", "Ad:", "Eşitlik", "4 yoktur"):
        assert word in text


@pytest.mark.parametrize(
    ("func", "kwargs"),
    [
        (scores_pdf, {"players": 0}),
        (scores_pdf, {"players": 13}),
        (scores_pdf, {"paper": "a5"}),
        (scores_pdf, {"lang": "fr"}),
        (scores_pdf, {"copies": 0}),
        (knarr_pad_pdf, {"players": 1}),
        (knarr_pad_pdf, {"players": 5}),
        (knarr_pad_pdf, {"lang": "xx"}),
    ],
)
def test_bad_arguments(func, kwargs: dict) -> None:
    with pytest.raises(ValueError):
        func(**kwargs)


def test_names_prefill_the_rows() -> None:
    text = _texts(scores_pdf(names=["Ayşe", "Bora", "Çağla"], lang="tr"))[0]
    assert all(n in text for n in ("Ayşe", "Bora", "Çağla"))
    pad = _texts(knarr_pad_pdf(names=["Ayşe", "Bora"]))[0]
    assert pad.count("Ayşe") == 2 and pad.count("Bora") == 2  # two games per page for two players
