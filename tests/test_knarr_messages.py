"""Every error and notice code has a Turkish and an English sentence with all placeholders filled."""

from __future__ import annotations

import pytest

from companion.knarr.messages import TEMPLATES, notice, render, with_text

PARAMS = {
    "field": "vp", "type": "cheat", "player": 1, "name": "Ayşe", "have": 1, "spend": 2, "token": "recruit",
    "amount": 3, "active_name": "Bora", "max": 40, "count": 2, "colour": "red", "last": 3, "side": "x",
    "artifact": "crown", "variant": "x", "card": 7, "where": "hand", "artifact_name_en": "Mead Cup",
    "artifact_name_tr": "Bal Şarabı Kupası", "turn": 4, "round": 2, "lost": 1, "score": 41,
    "last_name": "Cem", "winner_names": ["Ayşe", "Bora"], "cards": 5, "names": ["Cem"],
    "deck_names": {"en": "Trading Lands", "tr": "Ticaret Toprakları"}, "gain_counts": {"vp": 2},
    "expected": 3, "got": 2, "slot_no": 1, "deltas": {"vp": 2, "bracelet": -1},
    "cost_text_en": "2 red", "cost_text_tr": "2 kırmızı", "offer": "reserve",
}


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_code_renders_in_both_languages(code: str) -> None:
    en, tr = render(code, "en", PARAMS), render(code, "tr", PARAMS)
    assert en and tr and "{" not in en + tr and "}" not in en + tr
    if code not in ("event_gain",):  # the gain line is language-neutral apart from asset names
        assert en != tr


def test_localised_names_and_lists() -> None:
    assert render("token_lost", "tr", {"name": "Ayşe", "token": "bracelet", "lost": 2}).count("Gümüş Bilezik") == 1
    assert "Ayşe, Bora" in render("game_over_notice", "en", {"winner_names": ["Ayşe", "Bora"]})
    assert "+2 Zafer Puanı, -1 Gümüş Bilezik" in render("event_gain", "tr", PARAMS)


def test_odd_parameters_never_raise() -> None:
    assert render("bad_colour", "en", {"colour": ["x"]})
    assert render("token_lost", "tr", {}) == TEMPLATES["token_lost"]["tr"]
    assert render("no_such_code", "en", {}) == "no_such_code"
    assert render("game_over", "de", {}) == render("game_over", "en", {})


def test_notices_get_their_texts_only_when_shown() -> None:
    raw = notice("income_paid", player=0, name="Ayşe", amount=2)
    assert raw == {"code": "income_paid", "params": {"player": 0, "name": "Ayşe", "amount": 2}}
    shown = with_text(raw)
    assert shown["text"]["en"] == "Ayşe scores 2 VP of reputation income."
    shown["params"]["amount"] = 9
    assert raw["params"]["amount"] == 2
