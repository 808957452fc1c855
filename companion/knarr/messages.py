"""Turkish and English texts for the engine's error codes and notices.

The engine speaks in stable codes plus parameters; this module turns them into sentences for
the phones at the table, so the web layer does not have to re-invent the rule wording. Token
and colour names are localised here from `data.py`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .data import ASSET_NAMES, VIKING_COLOUR_NAMES

LANGS: tuple[str, ...] = ("en", "tr")

TEMPLATES: Mapping[str, Mapping[str, str]] = {
    # --- errors (KnarrError.code) ---
    "malformed_event": {
        "en": "Malformed event: field “{field}” is missing or has the wrong type.",
        "tr": "Hatalı olay: “{field}” alanı eksik ya da türü yanlış.",
    },
    "unknown_event": {
        "en": "Unknown event type “{type}”.",
        "tr": "Bilinmeyen olay türü: “{type}”.",
    },
    "unknown_player": {
        "en": "There is no player number {player} at this table.",
        "tr": "Bu masada {player} numaralı oyuncu yok.",
    },
    "game_over": {
        "en": "The game is over: nothing more can be recorded (undo is still possible).",
        "tr": "Oyun bitti: artık bir şey kaydedilemez (geri alma hâlâ mümkün).",
    },
    "negative_tokens": {
        "en": "{name} has only {have} {token_name} token(s) and cannot spend {spend}.",
        "tr": "{name} oyuncusunun yalnızca {have} {token_name} jetonu var, {spend} tane harcayamaz.",
    },
    "invalid_amount": {
        "en": "Invalid amount {amount} for “{field}”.",
        "tr": "“{field}” için geçersiz miktar: {amount}.",
    },
    "empty_gain": {
        "en": "A gain must change at least one track or token.",
        "tr": "Bir kazanım en az bir pisti ya da jetonu değiştirmelidir.",
    },
    "not_active_player": {
        "en": "It is {active_name}'s turn, not {name}'s.",
        "tr": "Sıra {name} oyuncusunda değil, {active_name} oyuncusunda.",
    },
    "nothing_to_undo": {
        "en": "There is nothing to undo.",
        "tr": "Geri alınacak bir şey yok.",
    },
    "bad_setup": {
        "en": "Invalid game setup: field “{field}”.",
        "tr": "Geçersiz oyun kurulumu: “{field}” alanı.",
    },
    "bad_player_count": {
        "en": "Knarr is played by 2 to 4 players, not {count}.",
        "tr": "Knarr 2 ila 4 oyuncuyla oynanır, {count} ile değil.",
    },
    "bad_player_name": {
        "en": "Each player needs a name of 1 to {max} characters, all different.",
        "tr": "Her oyuncunun 1 ila {max} karakterlik, birbirinden farklı bir adı olmalı.",
    },
    "bad_colour": {
        "en": "Unknown or repeated ship colour “{colour}”.",
        "tr": "Bilinmeyen ya da tekrarlanan gemi rengi: “{colour}”.",
    },
    "bad_first_player": {
        "en": "The first player must be one of the seats 0 to {last}.",
        "tr": "Başlangıç oyuncusu 0 ile {last} arasındaki koltuklardan biri olmalı.",
    },
    "bad_ship_side": {
        "en": "The ship side must be “normal”, “advanced” or “random”, not “{side}”.",
        "tr": "Gemi yüzü “normal”, “advanced” ya da “random” olmalı, “{side}” değil.",
    },
    "unknown_artifact": {
        "en": "Unknown or repeated Artifact “{artifact}”.",
        "tr": "Bilinmeyen ya da tekrarlanan Eser: “{artifact}”.",
    },
    "bad_artifact_variant": {
        "en": "The Artifact variant must be “off”, “random” or “random_with_mead_cup”, not “{variant}”.",
        "tr": "Eser varyantı “off”, “random” ya da “random_with_mead_cup” olmalı, “{variant}” değil.",
    },
    "no_virtual_deck": {
        "en": "This game does not use the virtual Viking and Destination deck.",
        "tr": "Bu oyunda sanal Viking ve Keşif destesi kullanılmıyor.",
    },
    "card_not_available": {
        "en": "Card {card} is not in {where}.",
        "tr": "{card} numaralı kart {where} içinde değil.",
    },
    "empty_slot": {
        "en": "There is no card in that face-up slot.",
        "tr": "O açık kart yuvasında kart yok.",
    },
    "artifact_not_in_play": {
        "en": "The {artifact_name} Artifact is not in play in this game.",
        "tr": "{artifact_name} Eseri bu oyunda kullanılmıyor.",
    },
    "stale_event": {
        "en": "Someone else recorded a move first; the table has been refreshed, please check and retry.",
        "tr": "Başka biri önce bir hamle kaydetti; masa yenilendi, lütfen kontrol edip tekrar deneyin.",
    },
    # --- notices (the `notices` of an applied event) ---
    "turn_started": {
        "en": "Round {round}: {name}'s turn.",
        "tr": "{round}. tur: sıra {name} oyuncusunda.",
    },
    "income_paid": {
        "en": "{name} scores {amount} VP of reputation income.",
        "tr": "{name} itibar gelirinden {amount} Zafer Puanı aldı.",
    },
    "token_lost": {
        "en": "{name} can hold only 3 {token_name} tokens: {lost} lost.",
        "tr": "{name} en fazla 3 {token_name} jetonu tutabilir: {lost} tanesi kaybedildi.",
    },
    "reputation_lost": {
        "en": "{name} is at the top of the reputation track: {lost} reputation lost.",
        "tr": "{name} itibar pistinin sonunda: {lost} itibar puanı kaybedildi.",
    },
    "last_round_triggered": {
        "en": "{name} reached {score} VP: this is the last round. The game ends after {last_name}'s turn.",
        "tr": "{name} {score} puana ulaştı: bu son tur. Oyun {last_name} oyuncusunun sırasından sonra biter.",
    },
    "game_over_notice": {
        "en": "The game is over. Winner: {winner_names}.",
        "tr": "Oyun bitti. Kazanan: {winner_names}.",
    },
    "deck_reshuffled": {
        "en": "The Viking deck ran out: the discard pile ({cards} cards) was shuffled into a new deck.",
        "tr": "Viking destesi bitti: ıskarta destesi ({cards} kart) karıştırılıp yeni deste yapıldı.",
    },
    "must_discard": {
        "en": "The Viking deck and the discard pile are both empty: {names} must discard 1 Viking of "
              "their choice.",
        "tr": "Viking destesi ve ıskarta destesi ikisi de boş: {names} kendi seçtiği 1 Viking'i "
              "ıskartaya atmalı.",
    },
    "destinations_exhausted": {
        "en": "The {deck_name} deck is empty: the slot stays empty.",
        "tr": "{deck_name} destesi boş: yuva boş kalır.",
    },
    "column_gains": {
        "en": "{name} recruited into the {colour_name} column and collects: {gains}.",
        "tr": "{name} {colour_name} sütuna devşirdi ve topluyor: {gains}.",
    },
    # --- the event history (one line per recorded event) ---
    "event_gain": {
        "en": "{name}: {deltas_text}",
        "tr": "{name}: {deltas_text}",
    },
    "event_end_turn": {
        "en": "{name} ended their turn.",
        "tr": "{name} sırasını bitirdi.",
    },
    "event_take_viking": {
        "en": "{name} took the face-up Viking of the {colour_name} slot into the hand.",
        "tr": "{name} {colour_name} yuvadaki açık Viking'i eline aldı.",
    },
    "event_recruit": {
        "en": "{name} recruited a {colour_name} Viking (Recruit).",
        "tr": "{name} {colour_name} bir Viking devşirdi (Devşir).",
    },
    "event_discard_vikings": {
        "en": "{name} discarded {count} Viking card(s).",
        "tr": "{name} {count} Viking kartını ıskartaya attı.",
    },
    "event_explore": {
        "en": "{name} explored a card of the {deck_name} (cost: {cost_text}).",
        "tr": "{name} {deck_name} destesinden bir kart keşfetti (maliyet: {cost_text}).",
    },
    "event_trade": {
        "en": "{name} traded with {count} silver bracelet(s).",
        "tr": "{name} {count} Gümüş Bilezik harcayarak ticaret yaptı.",
    },
    "event_reserve": {
        "en": "{name} reserved a card of the {deck_name} (Golden Bracelet).",
        "tr": "{name} {deck_name} destesinden bir kartı rezerve etti (Altın Bilezik).",
    },
    "event_replace_viking": {
        "en": "{name} replaced the face-up Viking of the {colour_name} slot (Mead Cup).",
        "tr": "{name} {colour_name} yuvadaki açık Viking'i değiştirdi (Bal Şarabı Kupası).",
    },
    "event_claim_seat": {
        "en": "A phone took {name}'s seat.",
        "tr": "Bir telefon {name} oyuncusunun yerini aldı.",
    },
    "event_release_seat": {
        "en": "A phone gave up {name}'s seat.",
        "tr": "Bir telefon {name} oyuncusunun yerini bıraktı.",
    },
    "event_joined": {
        "en": "Another phone opened the table.",
        "tr": "Masayı başka bir telefon açtı.",
    },
    # --- the rules of a virtual-deck turn (turn.py) ---
    "waiting_for_discard": {
        "en": "First {names} must discard 1 Viking (the deck and the discard pile are empty).",
        "tr": "Önce {names} 1 Viking'i ıskartaya atmalı (deste ve ıskarta boş).",
    },
    "take_a_viking_first": {
        "en": "Finish the Recruit first: take a face-up Viking into your hand.",
        "tr": "Önce Devşir'i bitirin: tahtadan açık bir Viking'i elinize alın.",
    },
    "action_first": {
        "en": "Take your turn's action first: Recruit or Explore.",
        "tr": "Önce turun aksiyonunu yapın: Devşir ya da Keşfet.",
    },
    "one_action_per_turn": {
        "en": "You have already taken this turn's action (one Recruit or one Explore per turn).",
        "tr": "Bu turun aksiyonunu zaten yaptınız (turda bir Devşir ya da bir Keşfet).",
    },
    "no_take_now": {
        "en": "A face-up Viking is taken only as the last step of a Recruit.",
        "tr": "Açık Viking yalnızca Devşir'in son adımında alınır.",
    },
    "take_needs_recruit": {
        "en": "Only the Viking of the {colour_name} slot is free; any other costs 1 recruit token, and you have none.",
        "tr": "Yalnızca {colour_name} yuvadaki Viking bedava; başkası 1 devşirme jetonu ister ve hiç jetonunuz yok.",
    },
    "wrong_cost_count": {
        "en": "The cost is {cost_text}: choose exactly that many Vikings and recruit tokens.",
        "tr": "Maliyet {cost_text}: tam o kadar Viking ve devşirme jetonu seçin.",
    },
    "wrong_cost_colour": {
        "en": "The cost is {cost_text}: one of the chosen Vikings has a colour the cost does not ask for.",
        "tr": "Maliyet {cost_text}: seçilen Viking'lerden birinin rengi maliyette istenmiyor.",
    },
    "cost_needs_different_colours": {
        "en": "The cost is {cost_text}: the chosen Vikings must all have different colours.",
        "tr": "Maliyet {cost_text}: seçilen Viking'lerin hepsi farklı renkte olmalı.",
    },
    "cost_needs_one_colour": {
        "en": "The cost is {cost_text}: the chosen Vikings must all have the same colour.",
        "tr": "Maliyet {cost_text}: seçilen Viking'lerin hepsi aynı renkte olmalı.",
    },
    "one_trade_per_turn": {
        "en": "Trade is allowed once per turn.",
        "tr": "Ticaret turda yalnızca bir kez yapılabilir.",
    },
    "no_offer": {
        "en": "No Artifact offers that move now.",
        "tr": "Şu an hiçbir Eser bu hamleyi sunmuyor.",
    },
    "reserve_full": {
        "en": "You already have {max} reserved Destinations.",
        "tr": "Zaten {max} rezerve Keşif kartınız var.",
    },
    "no_discard_needed": {
        "en": "{name} does not have to discard a Viking now.",
        "tr": "{name} şu an Viking ıskartaya atmak zorunda değil.",
    },
    "discard_exactly_one": {
        "en": "Discard exactly 1 Viking.",
        "tr": "Tam olarak 1 Viking ıskartaya atın.",
    },
    "seat_not_yours": {
        "en": "This phone does not hold {name}'s seat.",
        "tr": "Bu telefon {name} oyuncusunun yerini tutmuyor.",
    },
    "seat_already_yours": {
        "en": "This phone already holds {name}'s seat.",
        "tr": "Bu telefon zaten {name} oyuncusunun yerini tutuyor.",
    },
    "seat_taken": {
        "en": "Another phone holds {name}'s seat; take it over only if that phone is gone.",
        "tr": "{name} oyuncusunun yerini başka bir telefon tutuyor; yalnızca o telefon yoksa devralın.",
    },
    # --- notices of the rules moves ---
    "explored": {
        "en": "{name} explored: immediate gain {gains}.",
        "tr": "{name} keşfetti: anında kazanım {gains}.",
    },
    "traded": {
        "en": "{name} traded {count} silver bracelet(s): {gains}.",
        "tr": "{name} {count} Gümüş Bilezik ile ticaret yaptı: {gains}.",
    },
    "no_viking_to_take": {
        "en": "{name} can take no face-up Viking: the {colour_name} slot is empty and no recruit token is left.",
        "tr": "{name} açık Viking alamıyor: {colour_name} yuva boş ve devşirme jetonu kalmadı.",
    },
    "artifact_silver_coin": {
        "en": "Silver Coin: {name} gains 1 VP for a Viking beyond the 3rd of its colour.",
        "tr": "Gümüş Sikke: {name} rengindeki 3. Viking'in ötesindeki Viking için 1 Zafer Puanı kazanır.",
    },
    "artifact_cauldron": {
        "en": "Cauldron: {name} may take any face-up Viking without spending a recruit.",
        "tr": "Kazan: {name} devşirme harcamadan istediği açık Viking'i alabilir.",
    },
    "artifact_amulet": {
        "en": "Amulet: {name} completed a line of 5 colours: +1 silver bracelet, +1 recruit, +1 reputation.",
        "tr": "Muska: {name} 5 renkli bir hattı tamamladı: +1 Gümüş Bilezik, +1 devşirme, +1 İtibar.",
    },
    "offer_reserve": {
        "en": "Golden Bracelet: {name} may reserve a face-up Destination.",
        "tr": "Altın Bilezik: {name} açık bir Keşif kartını rezerve edebilir.",
    },
    "offer_recruit": {
        "en": "Helmet: {name} may Recruit once more now.",
        "tr": "Miğfer: {name} şimdi bir kez daha Devşir yapabilir.",
    },
    "offer_explore": {
        "en": "Weathervane: {name} completed a line of 5 colours and may Explore once more (paying the cost).",
        "tr": "Rüzgar Gülü: {name} 5 renkli bir hattı tamamladı, bir kez daha Keşfet yapabilir (maliyeti ödeyerek).",
    },
    "offer_replace": {
        "en": "Mead Cup: {name} may discard a face-up Viking and replace it with the top card of the deck.",
        "tr": "Bal Şarabı Kupası: {name} açık bir Viking'i ıskartaya atıp yerine desteden ilk kartı açabilir.",
    },
    "seat_claimed": {
        "en": "{name}'s seat is now held by a phone.",
        "tr": "{name} oyuncusunun yeri artık bir telefonda.",
    },
    "seat_released": {
        "en": "{name}'s seat is free again.",
        "tr": "{name} oyuncusunun yeri yeniden boş.",
    },
    "seat_handed_over": {
        "en": "{name}'s seat was handed over to another phone.",
        "tr": "{name} oyuncusunun yeri başka bir telefona devredildi.",
    },
}


def _name(table: Mapping[str, Mapping[str, str]], key: object, lang: str) -> str:
    return table[key][lang] if isinstance(key, str) and key in table else str(key)


def _localised(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Add the localised forms of the raw parameters; never raises on odd input."""
    out = dict(params)
    if "token" in params:
        out["token_name"] = _name(ASSET_NAMES, params["token"], lang)
    if "colour" in params:
        out["colour_name"] = _name(VIKING_COLOUR_NAMES, params["colour"], lang)
    gains = params.get("gain_counts")
    if isinstance(gains, Mapping):
        out["gains"] = ", ".join(f"{n} × {_name(ASSET_NAMES, a, lang)}" for a, n in gains.items()) or "—"
    deltas = params.get("deltas")
    if isinstance(deltas, Mapping):
        out["deltas_text"] = ", ".join(f"{n:+d} {_name(ASSET_NAMES, a, lang)}" for a, n in deltas.items()
                                       if isinstance(n, int))
    for key in ("names", "winner_names"):
        if isinstance(params.get(key), list | tuple):
            out[key] = ", ".join(map(str, params[key]))
    if isinstance(params.get(f"cost_text_{lang}"), str):
        out["cost_text"] = params[f"cost_text_{lang}"]
    if isinstance(params.get(f"artifact_name_{lang}"), str):
        out["artifact_name"] = params[f"artifact_name_{lang}"]
    deck_names = params.get("deck_names")
    if isinstance(deck_names, Mapping) and lang in deck_names:
        out["deck_name"] = deck_names[lang]
    return out


def render(code: str, lang: str, params: Mapping[str, Any]) -> str:
    """The sentence for a code in 'en' or 'tr' (anything else falls back to English).

    A missing parameter never raises here: an error message must not hide the original error.
    """
    lang = lang if lang in LANGS else "en"
    template = TEMPLATES.get(code)
    if template is None:
        return code
    try:
        return template[lang].format(**_localised(params, lang))
    except (KeyError, IndexError, ValueError):
        return template[lang]


def notice(code: str, **params: Any) -> dict[str, Any]:
    """A raw notice (code + params); texts are added by `with_text` only when shown.

    Replaying a stored game creates a notice for every past event, but only the last event's
    are ever displayed, so rendering is deferred.
    """
    return {"code": code, "params": params}


def with_text(raw: dict[str, Any]) -> dict[str, Any]:
    """A JSON-ready copy of a notice: stable code, params and both rendered texts."""
    params = copy.deepcopy(raw["params"])
    return {"code": raw["code"], "params": params,
            "text": {lang: render(raw["code"], lang, params) for lang in LANGS}}
