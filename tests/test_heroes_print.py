"""Printables for Cartographers Heroes: sides C and D like A and B, Heroes score sheets with 8/7/7/6."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from companion.cli import main
from printables import map_sheet_pdf, scores_pdf
from printables.layout import MARKER_IDS, parse_qr_payload, qr_payload, sheet_layout


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return " ".join(" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc)))
    finally:
        doc.close()


def test_heroes_score_sheet_names_each_seasons_time() -> None:
    text = _text(scores_pdf(players=3, lang="en", card_set="heroes"))
    for season in ("Spring (8)", "Summer (7)", "Fall (7)", "Winter (6)"):
        assert text.count(season) == 2  # two games per page
    assert "Cartographers Heroes" in text
    assert "Yaz (7)" in _text(scores_pdf(players=3, lang="tr", card_set="heroes"))


def test_base_score_sheet_is_unchanged() -> None:
    text = _text(scores_pdf(players=3, lang="en"))
    assert "Summer (8)" not in text and "Heroes" not in text and "Summer" in text


def test_side_c_and_d_sheets_carry_their_side() -> None:
    for side in ("C", "D"):
        layout = sheet_layout(side, "a4")
        assert layout.grid == sheet_layout("A", "a4").grid  # same geometry as the base sides
        assert tuple(m.id for m in layout.markers) == MARKER_IDS[side]
        text = _text(map_sheet_pdf(side, "a4", "en", sheet_ids=["X1"]))
        assert f"Side {side}" in text and "Summer (7)" in text
    assert parse_qr_payload(qr_payload("D", "abc")).side == "D"
    assert len({i for ids in MARKER_IDS.values() for i in ids}) == 20  # A-D and one set for own sides


def test_print_cli(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["print", "map", "--side", "C", "-o", "c.pdf"]) == 0
    assert main(["print", "scores", "--set", "heroes", "-o", "s.pdf"]) == 0
    assert "Summer (7)" in _text((tmp_path / "s.pdf").read_bytes())
    assert "Side C" in _text((tmp_path / "c.pdf").read_bytes())


def test_score_sheet_names_the_skills_and_that_spent_coins_do_not_score(tmp_path: Path, monkeypatch) -> None:
    text = _text(scores_pdf(players=3, lang="en", skills=["Sharp Eye", "Fast Legs", "Coin Purse"]))
    assert "Skills: Sharp Eye · Fast Legs · Coin Purse" in text and "no longer score" in text
    assert "Beceriler: ________" in _text(scores_pdf(players=3, lang="tr", skills=[]))
    assert "Skills:" not in _text(scores_pdf(players=3, lang="en"))
    monkeypatch.chdir(tmp_path)
    assert main(["print", "scores", "--skills", "A1,B2", "-o", "k.pdf"]) == 0
    assert "Skills: A1 · B2" in _text((tmp_path / "k.pdf").read_bytes())
