"""Every user-visible word printed on the sheets, in English and Turkish.

Kept apart from the drawing code so a translator edits one table, and so tests
can check both languages carry the same keys.
"""

from __future__ import annotations

LANGS = ("en", "tr")

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "cartographers": "Cartographers",
        "side": "Side {side} · {name}",
        "cartographer": "Cartographer",
        "map_title": "Title",
        "print_note": "Print at 100 % (actual size), not “fit to page”",
        "sheet": "sheet",
        "table": "table",
        "seat": "seat",
        "legend_header": "Draw each terrain here once, just as you draw it on the map (it helps the camera)",
        "coins": "Coins",
        "total": "Total",
        "game_total": "Final score",
        "score_key": "A–D edicts · ● coins · ☠ monsters (subtract) · ★ season total",
        "mountain": "mountain",
        "ruins": "ruins",
        "wasteland": "wasteland",
        "scores_title": "Cartographers · score sheet",
        "player": "Player",
        "date": "Date",
        "winner": "Winner",
        "knarr_title": "Knarr · score pad",
        "score": "Victory points",
        "reputation": "Reputation",
        "income": "income",
        "round": "Round",
        "knarr_note": "Each turn, first score income from reputation: position 3+ → 1, 6+ → 2, 10+ → 3, 14 → 5 VP "
        "(there is no 4). The game ends after the round in which someone reaches 40.",
        "tiebreak": "Tie: most recruits + bracelets left",
        "final": "Final",
        "edicts": "Edicts",
        "name": "Name",
        "vp": "VP",
        "per_round": "Victory points after each round",
        "reputation_hint": "cross off each step you climb",
        "income_vp": "+{n} VP",
        "scores_key": "A–D edicts · ● coins · ☠ monsters (subtract) · ★ season total · write the edict cards above",
        "skills_line": "Skills: {skills} — coins spent on a skill are crossed off and no longer score (●)",
        "own_side": "Our own side · {name}",
        "season_time": "{name} ({time})",
        "scores_title_set": "{set}",
    },
    "tr": {
        "cartographers": "Cartographers",
        "side": "{side} yüzü · {name}",
        "cartographer": "Haritacı",
        "map_title": "Unvan",
        "print_note": "%100 ölçekte (gerçek boyut) yazdırın, “sayfaya sığdır” seçmeyin",
        "sheet": "sayfa",
        "table": "masa",
        "seat": "koltuk",
        "legend_header": "Her araziyi buraya bir kez, haritada çizdiğiniz gibi çizin (kameranın okumasına yardım eder)",
        "coins": "Altın",
        "total": "Toplam",
        "game_total": "Toplam şöhret",
        "score_key": "A–D fermanlar · ● altın · ☠ canavar (çıkarılır) · ★ mevsim toplamı",
        "mountain": "dağ",
        "ruins": "harabe",
        "wasteland": "çorak",
        "scores_title": "Cartographers · puan çizelgesi",
        "player": "Oyuncu",
        "date": "Tarih",
        "winner": "Kazanan",
        "knarr_title": "Knarr · puan defteri",
        "score": "Zafer puanı",
        "reputation": "İtibar",
        "income": "gelir",
        "round": "Tur",
        "knarr_note": "Her turun başında itibardan gelir alınır: 3+ → 1, 6+ → 2, 10+ → 3, 14 → 5 ZP (4 yoktur). "
        "Biri 40'a ulaştığı turun sonunda oyun biter.",
        "tiebreak": "Eşitlik: gemide kalan devşirme + bilezik çok olan",
        "final": "Son",
        "edicts": "Fermanlar",
        "name": "Ad",
        "vp": "ZP",
        "per_round": "Her turun sonundaki zafer puanı",
        "reputation_hint": "çıktığınız her adımı işaretleyin",
        "income_vp": "+{n} ZP",
        "scores_key": "A–D fermanlar · ● altın · ☠ canavar (çıkarılır) · ★ mevsim toplamı · "
        "ferman kartlarını yukarı yazın",
        "skills_line": "Beceriler: {skills} — bir beceriye harcanan altınların üstü çizilir, artık puan getirmez (●)",
        "own_side": "Kendi yüzümüz · {name}",
        "season_time": "{name} ({time})",
        "scores_title_set": "{set}",
    },
}


def season_title(lang: str, season, show_time: bool) -> str:
    """A season's name, with its time threshold where the set's seasons differ from the base game's (Heroes)."""
    name = season.name_tr if lang == "tr" else season.name_en
    return text(lang, "season_time", name=name, time=season.threshold) if show_time else name


def text(lang: str, key: str, **fmt: object) -> str:
    """The string `key` in `lang`; raises ValueError for an unsupported language."""
    if lang not in STRINGS:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(LANGS)})")
    s = STRINGS[lang][key]
    return s.format(**fmt) if fmt else s
