"""Knarr game data: tracks, tokens, colours, the 50 Vikings, the 35 Destinations, ships and Artifacts.

Transcribed by hand from the verified reference facts (Bombyx rulebook, cross-checked against
the Board Game Arena data and two independent implementations). The project never reads the
reference at run time, so this module *is* the game for Mapsmith. `validate()` runs at import
and checks every count the rules rely on, so a typo in a literal fails the test suite instead of
quietly dealing a 39-card deck.

Ids: Vikings use a synthetic 1..50 numbering (the physical cards carry no number); Destinations
and Artifacts use the BGA numbering. Neither is printed on the cards, so the UI shows the card's
content, never its id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

# --- Tracks -----------------------------------------------------------------------------------

REPUTATION_MAX = 14
"""Last space of the reputation track (positions 0..14). Reputation beyond it is lost."""

INCOME_BY_POSITION: tuple[int, ...] = (0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 5)
"""VP paid at the start of a player's own turn, indexed by reputation position. There is no 4."""

INCOME_THRESHOLDS: tuple[tuple[int, int], ...] = ((3, 1), (6, 2), (10, 3), (14, 5))
"""(position, income) pairs printed on the board; `INCOME_BY_POSITION` must agree with them."""

SCORE_TRACK_SPACES = 40
"""Printed spaces 0..39; the pawn wraps, the score does not (scores are never capped)."""

END_TRIGGER_SCORE = 40
"""The first time any player has at least this many VP, the last round is triggered."""

MAX_SCORE_PER_EVENT = 100
"""Sanity bound on one recorded VP gain: a mistyped 300 is refused instead of ending the game."""

# --- Tokens -----------------------------------------------------------------------------------

TOKEN_KINDS: tuple[str, ...] = ("recruit", "bracelet")
TOKEN_CAP = 3
"""At most 3 recruits and 3 silver bracelets on a ship at any time; an excess gain is lost."""
TOKEN_START: MappingProxyType[str, int] = MappingProxyType({"recruit": 1, "bracelet": 1})

START_CREW = 2
"""Vikings of two different colours face up in each player's Crew Zone at setup."""
START_HAND = 3
FACE_UP_VIKINGS = 5
FACE_UP_DESTINATIONS_PER_DECK = 3

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)

# --- Names (TR / EN) --------------------------------------------------------------------------

VIKING_COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
"""Also the left-to-right order of the 5 face-up Viking slots on the board."""

VIKING_COLOUR_NAMES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "red": MappingProxyType({"en": "red", "tr": "kırmızı"}),
    "yellow": MappingProxyType({"en": "yellow", "tr": "sarı"}),
    "green": MappingProxyType({"en": "green", "tr": "yeşil"}),
    "blue": MappingProxyType({"en": "blue", "tr": "mavi"}),
    "purple": MappingProxyType({"en": "purple", "tr": "mor"}),
})

SHIP_COLOURS: tuple[str, ...] = ("white", "beige", "brown", "black")
"""The four ship sheets, which are also the players' pawn colours."""

SHIP_COLOUR_NAMES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "white": MappingProxyType({"en": "white", "tr": "beyaz"}),
    "beige": MappingProxyType({"en": "beige", "tr": "bej"}),
    "brown": MappingProxyType({"en": "brown", "tr": "kahverengi"}),
    "black": MappingProxyType({"en": "black", "tr": "siyah"}),
})

SHIP_COLOUR_HEX: MappingProxyType[str, str] = MappingProxyType({
    "white": "#d6d6d7", "beige": "#b79d86", "brown": "#7c5654", "black": "#1e2c36",
})

ASSETS: tuple[str, ...] = ("vp", "recruit", "bracelet", "reputation", "card")
ASSET_NAMES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "vp": MappingProxyType({"en": "Victory Point", "tr": "Zafer Puanı"}),
    "recruit": MappingProxyType({"en": "Recruit", "tr": "Devşirme"}),
    "bracelet": MappingProxyType({"en": "Silver Bracelet", "tr": "Gümüş Bilezik"}),
    "reputation": MappingProxyType({"en": "Reputation", "tr": "İtibar"}),
    "card": MappingProxyType({"en": "Viking card", "tr": "Viking kartı"}),
})

# --- Viking cards -----------------------------------------------------------------------------

VikingGain = Literal["vp", "recruit", "bracelet", "reputation"]


@dataclass(frozen=True)
class VikingCard:
    id: int
    colour: str
    gain: str  # one asset icon; never "card"
    mark: int | None  # None (always in play), 3 (3-4 players) or 4 (4 players only)

    def in_play(self, player_count: int) -> bool:
        """Cards marked 3 are removed with 2 players; cards marked 4 with 2 or 3 players."""
        return self.mark is None or player_count >= self.mark


def _vikings(colour: str, first_id: int, rows: tuple[tuple[str, int | None], ...]) -> tuple[VikingCard, ...]:
    return tuple(VikingCard(first_id + i, colour, gain, mark) for i, (gain, mark) in enumerate(rows))


_ = None  # readability of the unmarked column below
VIKING_CARDS: tuple[VikingCard, ...] = (
    *_vikings("red", 1, (
        ("vp", _), ("vp", _), ("vp", _), ("vp", 4),
        ("bracelet", _), ("bracelet", _), ("bracelet", 3),
        ("recruit", _), ("recruit", 4),
        ("reputation", 3),
    )),
    *_vikings("yellow", 11, (
        ("vp", _), ("vp", _), ("vp", _), ("vp", 3), ("vp", 4),
        ("bracelet", _), ("bracelet", 4),
        ("recruit", 3),
        ("reputation", _), ("reputation", _),
    )),
    *_vikings("green", 21, (
        ("vp", _), ("vp", _), ("vp", 3), ("vp", 4),
        ("bracelet", _), ("bracelet", 4),
        ("recruit", _), ("recruit", _), ("recruit", 3),
        ("reputation", _),
    )),
    *_vikings("blue", 31, (
        ("vp", _), ("vp", _), ("vp", 3), ("vp", 4),
        ("bracelet", _), ("bracelet", 3),
        ("recruit", _),
        ("reputation", _), ("reputation", _), ("reputation", 4),
    )),
    *_vikings("purple", 41, (
        ("vp", _), ("vp", 3), ("vp", 4), ("vp", 4),
        ("bracelet", _), ("bracelet", _),
        ("recruit", _), ("recruit", _),
        ("reputation", _), ("reputation", 3),
    )),
)
del _

VIKING_BY_ID: MappingProxyType[int, VikingCard] = MappingProxyType({c.id: c for c in VIKING_CARDS})
DECK_SIZE_BY_PLAYERS: MappingProxyType[int, int] = MappingProxyType({2: 30, 3: 40, 4: 50})


def viking_deck(player_count: int) -> tuple[VikingCard, ...]:
    """The Viking cards in play for this player count, in id order (unshuffled)."""
    if player_count not in PLAYER_COUNTS:
        raise ValueError(f"Knarr is played by 2 to 4 players, not {player_count}")
    return tuple(c for c in VIKING_CARDS if c.in_play(player_count))


def deck_composition(player_count: int) -> dict[str, dict[str, int]]:
    """Counts per colour and gain for this player count, plus per-colour and grand totals.

    Shaped for a setup screen: ``{"red": {"vp": 3, ..., "total": 6}, ..., "total": {"total": 30}}``.
    """
    deck = viking_deck(player_count)
    out: dict[str, dict[str, int]] = {}
    for colour in VIKING_COLOURS:
        row = {g: sum(1 for c in deck if c.colour == colour and c.gain == g) for g in ASSETS if g != "card"}
        row["total"] = sum(row.values())
        out[colour] = row
    out["total"] = {"total": len(deck)}
    return out


# --- Destinations -----------------------------------------------------------------------------

CostKind = Literal["colours", "different", "same"]


@dataclass(frozen=True)
class Cost:
    kind: str  # "colours" (exact colours), "different" (N distinct colours), "same" (N of one colour)
    count: int
    colours: MappingProxyType[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def text(self, lang: str = "en") -> str:
        if self.kind == "different":
            return (f"{self.count} farklı renkten Viking" if lang == "tr"
                    else f"{self.count} Vikings of {self.count} different colours")
        if self.kind == "same":
            return (f"aynı renkten {self.count} Viking" if lang == "tr"
                    else f"{self.count} Vikings of one same colour")
        return " + ".join(f"{n} {VIKING_COLOUR_NAMES[c][lang]}" for c, n in self.colours.items())


def _colours(**counts: int) -> Cost:
    return Cost("colours", sum(counts.values()), MappingProxyType(dict(counts)))


def _different(n: int) -> Cost:
    return Cost("different", n)


def _same(n: int) -> Cost:
    return Cost("same", n)


def _gain(**assets: int) -> MappingProxyType[str, int]:
    return MappingProxyType(dict(assets))


@dataclass(frozen=True)
class Destination:
    id: int
    deck: str  # "A" = Trading Lands (green back), "B" = Lands of Influence (blue back)
    cost: Cost
    gain: MappingProxyType[str, int]  # immediate gain, top-right of the card
    trade: tuple[str | None, str | None, str | None]  # trade columns 1..3, None = empty

    @property
    def kind(self) -> str:
        return "trading_land" if self.deck == "A" else "land_of_influence"


DESTINATIONS: tuple[Destination, ...] = (
    Destination(1, "A", _different(3), _gain(recruit=1, reputation=1, card=1), (None, "vp", None)),
    Destination(2, "A", _different(3), _gain(bracelet=1, reputation=1, card=1), (None, "vp", None)),
    Destination(3, "A", _different(3), _gain(bracelet=1, recruit=1, card=1), (None, "vp", None)),
    Destination(4, "A", _different(3), _gain(bracelet=1), ("vp", "reputation", "recruit")),
    Destination(5, "A", _different(3), _gain(bracelet=1), ("vp", "reputation", "recruit")),
    Destination(6, "A", _colours(purple=2), _gain(bracelet=1, card=1), (None, "vp", "card")),
    Destination(7, "A", _colours(purple=2), _gain(card=1), ("card", None, "vp")),
    Destination(8, "A", _colours(purple=2), _gain(card=1), ("vp", "card", None)),
    Destination(9, "A", _colours(blue=2), _gain(reputation=2), (None, "vp", "reputation")),
    Destination(10, "A", _colours(blue=2), _gain(recruit=1, reputation=1), ("reputation", None, "vp")),
    Destination(11, "A", _colours(blue=2), _gain(bracelet=1, reputation=1), (None, "reputation", "vp")),
    Destination(12, "A", _colours(green=2), _gain(bracelet=1, recruit=1), ("vp", None, "recruit")),
    Destination(13, "A", _colours(green=2), _gain(recruit=1), ("recruit", "vp", None)),
    Destination(14, "A", _colours(green=2), _gain(recruit=2), (None, "recruit", None)),
    Destination(15, "A", _colours(yellow=2), _gain(), ("vp", "vp", "vp")),
    Destination(16, "A", _colours(yellow=2), _gain(reputation=1), ("vp", "vp", None)),
    Destination(17, "A", _colours(yellow=2), _gain(recruit=1), ("vp", "vp", None)),
    Destination(18, "A", _colours(red=2), _gain(bracelet=1, card=1), ("vp", None, "vp")),
    Destination(19, "A", _colours(red=2), _gain(bracelet=1, reputation=1), ("vp", None, "vp")),
    Destination(20, "A", _colours(red=2), _gain(bracelet=1), ("vp", "vp", None)),
    Destination(21, "B", _same(4), _gain(vp=5, recruit=1), (None, None, "vp")),
    Destination(22, "B", _same(4), _gain(vp=5, reputation=1), (None, None, "vp")),
    Destination(23, "B", _same(4), _gain(vp=5, bracelet=1), (None, None, "vp")),
    Destination(24, "B", _colours(red=1, yellow=1, green=1, blue=1, purple=1),
                _gain(vp=4, bracelet=1, recruit=1, reputation=1, card=1), (None, None, "vp")),
    Destination(25, "B", _colours(red=1, yellow=1, green=1, blue=1, purple=1),
                _gain(vp=4, bracelet=1, recruit=1, reputation=1, card=1), (None, None, "vp")),
    Destination(26, "B", _colours(purple=2, yellow=2), _gain(vp=6), (None, "vp", None)),
    Destination(27, "B", _colours(purple=3, red=2), _gain(vp=8, card=1), (None, None, "vp")),
    Destination(28, "B", _colours(blue=2, red=2), _gain(vp=6), (None, "vp", None)),
    Destination(29, "B", _colours(blue=3, purple=2), _gain(vp=7, reputation=2), (None, None, "vp")),
    Destination(30, "B", _colours(green=2, purple=2), _gain(vp=6), (None, "vp", None)),
    Destination(31, "B", _colours(green=3, blue=2), _gain(vp=8, recruit=1), (None, None, "vp")),
    Destination(32, "B", _colours(yellow=2, blue=2), _gain(vp=6), (None, "vp", None)),
    Destination(33, "B", _colours(yellow=3, green=2), _gain(vp=9), (None, None, "vp")),
    Destination(34, "B", _colours(red=2, green=2), _gain(vp=6), (None, "vp", None)),
    Destination(35, "B", _colours(red=3, yellow=2), _gain(vp=7, bracelet=1), (None, None, "vp")),
)

DESTINATION_BY_ID: MappingProxyType[int, Destination] = MappingProxyType({d.id: d for d in DESTINATIONS})
DESTINATION_DECKS: tuple[str, ...] = ("A", "B")
DESTINATION_DECK_NAMES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "A": MappingProxyType({"en": "Trading Lands", "tr": "Ticaret Toprakları"}),
    "B": MappingProxyType({"en": "Lands of Influence", "tr": "Etki Toprakları"}),
})

# --- Ships ------------------------------------------------------------------------------------

SHIP_SIDES: MappingProxyType[str, tuple[str | None, str | None, str | None]] = MappingProxyType({
    "normal": (None, "recruit", None),
    "advanced": ("vp", None, "bracelet"),
})
"""Trade columns printed on the ship; every player uses the same side."""

SHIP_START: MappingProxyType[str, MappingProxyType[str, int]] = MappingProxyType({
    "normal": MappingProxyType({"crew": 2, "recruit": 1, "bracelet": 1}),
    "advanced": MappingProxyType({"crew": 2, "recruit": 1, "bracelet": 1}),
})
"""The start box printed below each ship side. The Turkish rules text says the advanced side has
"different start gains", but the verified facts (the box checked on both sides' images, Board Game
Arena's defaults) give the same box on both sides: 2 Vikings of different colours, 1 recruit and
1 silver bracelet. We follow the facts; the per-side table keeps the place to change it."""

SHIP_SIDE_NAMES: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "normal": MappingProxyType({"en": "Normal side (recommended for a first game)",
                                "tr": "Normal yüz (ilk oyun için önerilir)"}),
    "advanced": MappingProxyType({"en": "Advanced side", "tr": "İleri seviye yüz"}),
})

# --- Artifacts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Artifact:
    id: str
    bga_id: int
    name_en: str
    name_tr: str
    effect_en: str
    effect_tr: str

    def name(self, lang: str = "en") -> str:
        return self.name_tr if lang == "tr" else self.name_en

    def effect(self, lang: str = "en") -> str:
        return self.effect_tr if lang == "tr" else self.effect_en


MEAD_CUP = "mead_cup"
SILVER_COIN = "silver_coin"
CAULDRON = "cauldron"
GOLDEN_BRACELET = "golden_bracelet"
HELMET = "helmet"
AMULET = "amulet"
WEATHERVANE = "weathervane"

CAULDRON_COLUMN = 2
"""Cauldron: the Recruit that makes a colour column exactly 2 cards may take any face-up Viking free."""
GOLDEN_BRACELET_COLUMN = 3
"""Golden Bracelet: the Recruit that makes a colour column exactly 3 cards may reserve a Destination."""
GOLDEN_BRACELET_MAX_RESERVED = 2
SILVER_COIN_FROM_COLUMN = 4
"""Silver Coin: +1 VP for a Recruit that makes its colour column 4 or more ("beyond the 3rd")."""
AMULET_REWARD: MappingProxyType[str, int] = MappingProxyType({"bracelet": 1, "recruit": 1, "reputation": 1})

ARTIFACTS: tuple[Artifact, ...] = (
    Artifact(
        MEAD_CUP, 1, "Mead Cup", "Bal Şarabı Kupası",
        "If a player takes an Explore action, they may discard a Viking from the board and replace it "
        "with the top card of the deck.",
        "Bir oyuncu Keşfet aksiyonu yaptığında, tahtadaki açık Viking kartlarından birini ıskartaya atıp "
        "yerine desteden ilk kartı açabilir.",
    ),
    Artifact(
        "silver_coin", 2, "Silver Coin", "Gümüş Sikke",
        "For each Viking of the same colour a player Recruits beyond their 3rd Viking of that colour, "
        "they gain 1 VP.",
        "Bir oyuncu, aynı renkten 3. Viking'inin ötesinde devşirdiği her Viking için 1 Zafer Puanı kazanır.",
    ),
    Artifact(
        "cauldron", 3, "Cauldron", "Kazan",
        "If a player Recruits a 2nd Viking of the same colour, they may take the Viking card of their "
        "choice instead of the imposed one (no recruit spent).",
        "Bir oyuncu aynı renkten 2. Viking'i devşirdiğinde, oynadığı kartın dayattığı Viking yerine "
        "istediği Viking kartını alabilir (devşirme jetonu harcamadan).",
    ),
    Artifact(
        "golden_bracelet", 4, "Golden Bracelet", "Altın Bilezik",
        "If a player recruits a 3rd Viking of the same colour, they may reserve a face-up Destination of "
        "their choice next to their play area; later they may Explore a reserved Destination instead of a "
        "face-up one. Max 2 reserved per player.",
        "Bir oyuncu aynı renkten 3. Viking'i devşirdiğinde, açık kartlardan istediği bir Keşif kartını "
        "rezerve edip oyun alanının yanına koyabilir. Keşfet aksiyonunda, açık kartlar yerine rezerve "
        "ettiği bir toprağı keşfetmeyi seçebilir. Her oyuncunun aynı anda en fazla 2 rezerve Keşif kartı "
        "olabilir.",
    ),
    Artifact(
        "helmet", 5, "Helmet", "Miğfer",
        "If a player places the Land of Influence they have just Explored directly onto a Trading Land "
        "card, they may immediately carry out a Recruit action.",
        "Bir oyuncu yeni Keşfettiği bir Etki Toprağı kartını doğrudan bir Ticaret Toprağı kartının üstüne "
        "yerleştirirse, hemen bir Devşir aksiyonu gerçekleştirebilir.",
    ),
    Artifact(
        "amulet", 6, "Amulet", "Muska",
        "If a player completes a line of Vikings with all 5 different colours, they take 1 silver "
        "bracelet, 1 recruit and 1 reputation point.",
        "Bir oyuncu 5 farklı rengin tümünden oluşan bir Viking hattını tamamlarsa 1 gümüş bilezik ve "
        "1 devşirme alır, ayrıca 1 İtibar Puanı kazanır.",
    ),
    Artifact(
        "weathervane", 7, "Weathervane", "Rüzgar Gülü",
        "If a player completes a line of Vikings with all 5 different colours, they may immediately carry "
        "out an Explore action (still paying the cost).",
        "Bir oyuncu 5 farklı rengin tümünden oluşan bir hattı tamamlarsa hemen bir Keşfet aksiyonu "
        "gerçekleştirebilir (keşif maliyetini yine ödemesi gerekir).",
    ),
)

ARTIFACT_BY_ID: MappingProxyType[str, Artifact] = MappingProxyType({a.id: a for a in ARTIFACTS})

ARTIFACT_VARIANT_RULE: MappingProxyType[str, str] = MappingProxyType({
    "en": "During setup reveal 1 Artifact at random next to the board; the others stay in the box. After "
          "their action, a player gets the Artifact's reward each time they meet its condition. With 2 "
          "players the Mead Cup is recommended in addition to the random one.",
    "tr": "Kurulumda rastgele 1 Eser kartı açılıp tahtanın yanına konur; diğerleri kutuya kaldırılır. Bir "
          "oyuncu, turundaki aksiyonundan sonra Eser kartındaki koşulu her sağladığında ilgili ödülü alır. "
          "2 oyunculu oyunda, rastgele açılan karta ek olarak Bal Şarabı Kupası kartının da kullanılması "
          "önerilir.",
})

# --- Validation -------------------------------------------------------------------------------


class KnarrDataError(ValueError):
    """The transcribed game data is inconsistent; lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("invalid Knarr game data: " + "; ".join(self.problems))


def _check_tracks(problems: list[str]) -> None:
    if len(INCOME_BY_POSITION) != REPUTATION_MAX + 1:
        problems.append(f"income table has {len(INCOME_BY_POSITION)} positions, expected {REPUTATION_MAX + 1}")
    if list(INCOME_BY_POSITION) != sorted(INCOME_BY_POSITION):
        problems.append("income must never decrease along the reputation track")
    expected: list[int] = []
    for pos in range(REPUTATION_MAX + 1):
        expected.append(max((inc for at, inc in INCOME_THRESHOLDS if at <= pos), default=0))
    if list(INCOME_BY_POSITION) != expected:
        problems.append("income table disagrees with the printed thresholds")
    if sorted(set(INCOME_BY_POSITION)) != [0, 1, 2, 3, 5]:
        problems.append("income values must be exactly 0, 1, 2, 3 and 5 (there is no 4)")
    if INCOME_THRESHOLDS[-1][0] != REPUTATION_MAX:
        problems.append("the top income threshold must sit on the last reputation space")
    if END_TRIGGER_SCORE != SCORE_TRACK_SPACES:
        problems.append("the end trigger is one lap of the score track")
    if TOKEN_CAP != 3 or any(TOKEN_START[k] != 1 for k in TOKEN_KINDS) or set(TOKEN_START) != set(TOKEN_KINDS):
        problems.append("tokens: cap 3, start 1 recruit and 1 bracelet")


def _check_vikings(problems: list[str]) -> None:
    if len(VIKING_CARDS) != 50:
        problems.append(f"expected 50 Viking cards, got {len(VIKING_CARDS)}")
    if [c.id for c in VIKING_CARDS] != list(range(1, len(VIKING_CARDS) + 1)):
        problems.append("Viking ids must run 1..50 without gaps")
    for card in VIKING_CARDS:
        if card.colour not in VIKING_COLOURS:
            problems.append(f"Viking {card.id}: unknown colour {card.colour!r}")
        if card.gain not in ("vp", "recruit", "bracelet", "reputation"):
            problems.append(f"Viking {card.id}: bad gain {card.gain!r}")
        if card.mark not in (None, 3, 4):
            problems.append(f"Viking {card.id}: bad player-count mark {card.mark!r}")
    for colour in VIKING_COLOURS:
        marks = Counter(c.mark for c in VIKING_CARDS if c.colour == colour)
        if marks != Counter({None: 6, 3: 2, 4: 2}):
            problems.append(f"{colour}: expected 6 unmarked, 2 marked 3, 2 marked 4; got {dict(marks)}")
    gains = Counter(c.gain for c in VIKING_CARDS)
    if gains != Counter({"vp": 21, "bracelet": 11, "recruit": 9, "reputation": 9}):
        problems.append(f"Viking gains must total 21 vp / 11 bracelet / 9 recruit / 9 reputation, got {dict(gains)}")
    for n, size in DECK_SIZE_BY_PLAYERS.items():
        got = sum(1 for c in VIKING_CARDS if c.in_play(n))
        if got != size:
            problems.append(f"{n} players: deck has {got} cards, expected {size}")
        per_colour = Counter(c.colour for c in VIKING_CARDS if c.in_play(n))
        if set(per_colour.values()) != {size // len(VIKING_COLOURS)}:
            problems.append(f"{n} players: every colour needs {size // 5} cards, got {dict(per_colour)}")
    if tuple(DECK_SIZE_BY_PLAYERS) != PLAYER_COUNTS:
        problems.append("deck sizes must be given for 2, 3 and 4 players")


def _check_cost(dest: Destination, problems: list[str]) -> None:
    cost = dest.cost
    if cost.kind == "colours":
        if not cost.colours or any(c not in VIKING_COLOURS or n < 1 for c, n in cost.colours.items()):
            problems.append(f"Destination {dest.id}: bad colour cost {dict(cost.colours)}")
        if cost.count != sum(cost.colours.values()):
            problems.append(f"Destination {dest.id}: cost count disagrees with its colours")
    elif cost.kind in ("different", "same"):
        if cost.colours:
            problems.append(f"Destination {dest.id}: a {cost.kind} cost names no colours")
        if cost.kind == "different" and not 2 <= cost.count <= len(VIKING_COLOURS):
            problems.append(f"Destination {dest.id}: cannot ask for {cost.count} different colours")
    else:
        problems.append(f"Destination {dest.id}: unknown cost kind {cost.kind!r}")


def _check_destinations(problems: list[str]) -> None:
    if [d.id for d in DESTINATIONS] != list(range(1, 36)):
        problems.append("Destination ids must run 1..35")
    decks = Counter(d.deck for d in DESTINATIONS)
    if decks != Counter({"A": 20, "B": 15}):
        problems.append(f"expected 20 Trading Lands (A) and 15 Lands of Influence (B), got {dict(decks)}")
    for dest in DESTINATIONS:
        _check_cost(dest, problems)
        if len(dest.trade) != 3:
            problems.append(f"Destination {dest.id}: needs exactly 3 trade columns")
        for asset in (*dest.gain, *(t for t in dest.trade if t is not None)):
            if asset not in ASSETS:
                problems.append(f"Destination {dest.id}: unknown asset {asset!r}")
        if any(n < 1 for n in dest.gain.values()):
            problems.append(f"Destination {dest.id}: gains must be positive")
        if dest.deck == "A" and "vp" in dest.gain:
            problems.append(f"Destination {dest.id}: Trading Lands give no immediate VP")
        if dest.deck == "B" and dest.gain.get("vp", 0) < 4:
            problems.append(f"Destination {dest.id}: Lands of Influence give at least 4 VP")
    trading = [d for d in DESTINATIONS if d.deck == "A"]
    per_colour = Counter(next(iter(d.cost.colours)) for d in trading if d.cost.kind == "colours")
    if per_colour != Counter({c: 3 for c in VIKING_COLOURS}):
        problems.append(f"Trading Lands: 3 two-card costs per colour expected, got {dict(per_colour)}")
    if any(d.cost.kind == "colours" and d.cost.count != 2 for d in trading):
        problems.append("single-colour Trading Lands cost exactly 2 cards")
    if sum(1 for d in trading if d.cost.kind == "different" and d.cost.count == 3) != 5:
        problems.append("expected 5 Trading Lands costing 3 different colours")
    influence = [d for d in DESTINATIONS if d.deck == "B"]
    if sum(1 for d in influence if d.cost.kind == "same" and d.cost.count == 4) != 3:
        problems.append("expected 3 Lands of Influence costing 4 of one colour")


def _check_ships_and_artifacts(problems: list[str]) -> None:
    if set(SHIP_SIDES) != {"normal", "advanced"} or set(SHIP_SIDE_NAMES) != set(SHIP_SIDES):
        problems.append("ships have exactly a normal and an advanced side, both named")
    for side, cols in SHIP_SIDES.items():
        if len(cols) != 3 or any(c is not None and c not in ASSETS for c in cols):
            problems.append(f"ship side {side}: bad trade columns {cols}")
    if set(SHIP_START) != set(SHIP_SIDES) or any(
            dict(v) != {"crew": START_CREW, **TOKEN_START} for v in SHIP_START.values()):
        problems.append("both ship sides start with 2 crew Vikings, 1 recruit and 1 bracelet")
    if {MEAD_CUP, SILVER_COIN, CAULDRON, GOLDEN_BRACELET, HELMET, AMULET, WEATHERVANE} != set(ARTIFACT_BY_ID):
        problems.append("every Artifact needs its rule in the engine")
    if not CAULDRON_COLUMN < GOLDEN_BRACELET_COLUMN < SILVER_COIN_FROM_COLUMN:
        problems.append("Artifact column thresholds must be 2 < 3 < 4")
    if len(ARTIFACTS) != 7 or [a.bga_id for a in ARTIFACTS] != list(range(1, 8)):
        problems.append("expected the 7 Artifacts numbered 1..7")
    if len(ARTIFACT_BY_ID) != len(ARTIFACTS):
        problems.append("duplicate Artifact ids")
    if MEAD_CUP not in ARTIFACT_BY_ID:
        problems.append("the Mead Cup is needed for the 2-player suggestion")
    for art in ARTIFACTS:
        if not all(s.strip() for s in (art.name_en, art.name_tr, art.effect_en, art.effect_tr)):
            problems.append(f"Artifact {art.id}: name and effect needed in TR and EN")
    for table_name, table, keys in (
        ("Viking colour", VIKING_COLOUR_NAMES, VIKING_COLOURS),
        ("ship colour", SHIP_COLOUR_NAMES, SHIP_COLOURS),
        ("asset", ASSET_NAMES, ASSETS),
        ("destination deck", DESTINATION_DECK_NAMES, DESTINATION_DECKS),
    ):
        if tuple(table) != tuple(keys):
            problems.append(f"{table_name} names must cover exactly {keys}")
        for key, names in table.items():
            if set(names) != {"en", "tr"} or not all(v.strip() for v in names.values()):
                problems.append(f"{table_name} {key}: needs non-empty 'en' and 'tr' names")
    if set(SHIP_COLOUR_HEX) != set(SHIP_COLOURS):
        problems.append("every ship colour needs a display colour")
    if len(SHIP_COLOURS) != max(PLAYER_COUNTS):
        problems.append("one ship per possible player")


def validate() -> None:
    """Check every invariant the rules rely on; raise KnarrDataError listing all problems."""
    problems: list[str] = []
    _check_tracks(problems)
    _check_vikings(problems)
    _check_destinations(problems)
    _check_ships_and_artifacts(problems)
    if problems:
        raise KnarrDataError(problems)


validate()
