"""Cartographers game data: the single source of truth for cards, maps, seasons and titles.

Transcribed from the reference facts: the base game here, Cartographers Heroes in
`heroes_data.py`; both are gathered into `CARD_SETS`. Everything is validated
at import time by `validate()`, so a typo in a cell list fails loudly in tests
rather than silently mis-scoring a map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import heroes_data
from .cards import (  # noqa: F401  (re-exported: the types have always been importable from here)
    BASE,
    HEROES,
    AmbushCard,
    CardSet,
    Doubt,
    ExploreCard,
    HeroCard,
    MapSide,
    ScoringCardInfo,
    Season,
    ShapeOption,
    SoloTitle,
    opt,
)
from .shapes import Cell, is_king_connected, is_orthogonally_connected, normalise
from .terrain import DRAWABLE, Terrain

GRID_SIZE = 11
COIN_TRACK_LENGTH = 14

F, V, A, W, M = Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER


_opt = opt


EXPLORE_CARDS: tuple[ExploreCard, ...] = (
    ExploreCard("05", 5, "Temple Ruins", "Tapınak Harabeleri", "ruins", 0, (), ()),
    ExploreCard("06", 6, "Outpost Ruins", "Karakol Harabeleri", "ruins", 0, (), ()),
    ExploreCard("07", 7, "Great River", "Büyük Nehir", "explore", 1, (W,), (
        _opt([[0, 0], [1, 0], [2, 0]], coin=True),
        _opt([[0, 2], [1, 1], [1, 2], [2, 0], [2, 1]]),
    )),
    ExploreCard("08", 8, "Farmland", "Tarım Arazisi", "explore", 1, (A,), (
        _opt([[0, 0], [1, 0]], coin=True),
        _opt([[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]),
    )),
    ExploreCard("09", 9, "Hamlet", "Mezra", "explore", 1, (V,), (
        _opt([[0, 0], [1, 0], [1, 1]], coin=True),
        _opt([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]]),
    )),
    ExploreCard("10", 10, "Forgotten Forest", "Unutulmuş Orman", "explore", 1, (F,), (
        _opt([[0, 0], [1, 1]], coin=True),
        _opt([[0, 0], [1, 0], [1, 1], [2, 1]]),
    )),
    ExploreCard("11", 11, "Hinterland Stream", "Taşra Deresi", "explore", 2, (A, W), (
        _opt([[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]]),
    )),
    ExploreCard("12", 12, "Homestead", "Çiftlik Evi", "explore", 2, (V, A), (
        _opt([[0, 0], [1, 0], [1, 1], [2, 0]]),
    )),
    ExploreCard("13", 13, "Orchard", "Meyve Bahçesi", "explore", 2, (F, A), (
        _opt([[0, 0], [0, 1], [0, 2], [1, 2]]),
    )),
    ExploreCard("14", 14, "Treetop Village", "Ağaç Tepesi Köyü", "explore", 2, (F, V), (
        _opt([[0, 2], [0, 3], [1, 0], [1, 1], [1, 2]]),
    )),
    ExploreCard("15", 15, "Marshlands", "Bataklıklar", "explore", 2, (F, W), (
        _opt([[0, 0], [1, 0], [1, 1], [1, 2], [2, 0]]),
    )),
    ExploreCard("16", 16, "Fishing Village", "Balıkçı Köyü", "explore", 2, (V, W), (
        _opt([[0, 0], [0, 1], [0, 2], [0, 3]]),
    )),
    ExploreCard("17", 17, "Rift Lands", "Yarık Topraklar", "rift", 0, (F, V, A, W, M), (
        _opt([[0, 0]]),
    )),
)

AMBUSH_CARDS: tuple[AmbushCard, ...] = tuple(
    AmbushCard(i, n, en, tr, normalise(map(tuple, cells)), is_orthogonally_connected(normalise(map(tuple, cells))),
               direction, corner)
    for i, n, en, tr, cells, direction, corner in (
        ("01", 1, "Goblin Attack", "Goblin Saldırısı", [[0, 0], [1, 1], [2, 2]], "counterclockwise", "bottom_right"),
        ("02", 2, "Bugbear Assault", "Bugbear Hücumu", [[0, 0], [0, 2], [1, 0], [1, 2]], "clockwise", "top_right"),
        ("03", 3, "Kobold Onslaught", "Kobold Akını", [[0, 0], [1, 0], [1, 1], [2, 0]], "clockwise", "bottom_left"),
        ("04", 4, "Gnoll Raid", "Gnoll Baskını", [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], "counterclockwise",
         "top_left"),
    )
)

SCORING_CARDS: tuple[ScoringCardInfo, ...] = (
    ScoringCardInfo("sentinel_wood", 26, "Sentinel Wood", "Gözcü Orman", "forest", 25,
                    "1 star for each forest space adjacent to the edge of the map.",
                    "Harita kenarına bitişik her orman alanı için 1 şöhret."),
    ScoringCardInfo("greenbough", 27, "Greenbough", "Yeşil Dal", "forest", 22,
                    "1 star for each row and each column with at least one forest space.",
                    "En az bir orman alanı içeren her satır ve her sütun için 1 şöhret."),
    ScoringCardInfo("treetower", 28, "Treetower", "Ağaçkubbe", "forest", 17,
                    "1 star for each forest space surrounded on all four sides by filled spaces or the map edge.",
                    "Dört tarafı da dolu alan veya harita kenarıyla çevrili her orman alanı için 1 şöhret."),
    ScoringCardInfo("stoneside_forest", 29, "Stoneside Forest", "Taşyanı Ormanı", "forest", 18,
                    "3 stars for each mountain connected to another mountain by a cluster of forest spaces.",
                    "Bir orman topluluğuyla başka bir dağa bağlanan her dağ için 3 şöhret."),
    ScoringCardInfo("canal_lake", 30, "Canal Lake", "Kanal Gölü", "farm_water", 24,
                    "1 star for each water space adjacent to a farm space, and 1 for each farm space adjacent "
                    "to a water space.",
                    "Tarlaya bitişik her su alanı için 1, suya bitişik her tarla alanı için 1 şöhret."),
    ScoringCardInfo("mages_valley", 31, "Mages Valley", "Büyücü Vadisi", "farm_water", 22,
                    "2 stars for each water space adjacent to a mountain, 1 for each farm space adjacent to a "
                    "mountain.",
                    "Dağa bitişik her su alanı için 2, dağa bitişik her tarla alanı için 1 şöhret."),
    ScoringCardInfo("golden_granary", 32, "The Golden Granary", "Altın Ambar", "farm_water", 20,
                    "1 star for each water space adjacent to a ruins space, 3 for each farm space on a ruins "
                    "space.",
                    "Harabeye bitişik her su alanı için 1, harabe üzerindeki her tarla alanı için 3 şöhret."),
    ScoringCardInfo("shoreside_expanse", 33, "Shoreside Expanse", "Kıyı Genişliği", "farm_water", 27,
                    "3 stars for each farm cluster touching neither water nor the map edge, and 3 for each "
                    "water cluster touching neither farm nor the map edge.",
                    "Suya ve harita kenarına değmeyen her tarla topluluğu için 3, tarlaya ve kenara değmeyen "
                    "her su topluluğu için 3 şöhret."),
    ScoringCardInfo("wildholds", 34, "Wildholds", "Yabaneller", "village", 16,
                    "8 stars for each cluster of six or more village spaces.",
                    "6 veya daha fazla köy alanından oluşan her topluluk için 8 şöhret."),
    ScoringCardInfo("great_city", 35, "Great City", "Büyük Şehir", "village", 16,
                    "1 star for each village space in the largest village cluster not adjacent to a mountain.",
                    "Hiçbir dağa bitişik olmayan en büyük köy topluluğundaki her köy alanı için 1 şöhret."),
    ScoringCardInfo("greengold_plains", 36, "Greengold Plains", "Yeşilaltın Ovaları", "village", 21,
                    "3 stars for each village cluster adjacent to three or more different terrain types.",
                    "3 veya daha fazla farklı arazi tipine bitişik her köy topluluğu için 3 şöhret."),
    ScoringCardInfo("shieldgate", 37, "Shieldgate", "Kalkan Kapısı", "village", 20,
                    "2 stars for each village space in the second largest village cluster.",
                    "İkinci en büyük köy topluluğundaki her köy alanı için 2 şöhret."),
    ScoringCardInfo("borderlands", 38, "Borderlands", "Sınır Toprakları", "arrangement", 24,
                    "6 stars for each complete row or complete column of filled spaces.",
                    "Tamamen dolu her satır veya sütun için 6 şöhret."),
    ScoringCardInfo("lost_barony", 39, "Lost Barony", "Kayıp Baronluk", "arrangement", 24,
                    "3 stars for each space along one edge of the largest square of filled spaces.",
                    "En büyük dolu kare bloğunun bir kenarındaki her alan için 3 şöhret."),
    ScoringCardInfo("broken_road", 40, "The Broken Road", "Kırık Yol", "arrangement", 24,
                    "3 stars for each complete diagonal line of filled spaces touching the left and bottom "
                    "edges of the map.",
                    "Haritanın sol ve alt kenarına dokunan tamamen dolu her çapraz çizgi için 3 şöhret."),
    ScoringCardInfo("cauldrons", 41, "The Cauldrons", "Obruklar", "arrangement", 20,
                    "1 star for each empty space surrounded on all four sides by filled spaces or the map edge.",
                    "Dört tarafı dolu alan veya harita kenarıyla çevrili her boş alan için 1 şöhret."),
)

CATEGORIES: tuple[str, ...] = ("forest", "farm_water", "village", "arrangement")
CATEGORY_NAMES: dict[str, dict[str, str]] = {
    "forest": {"en": "Forest", "tr": "Orman"},
    "farm_water": {"en": "Farm & water", "tr": "Nehir & tarla"},
    "village": {"en": "Village", "tr": "Köy"},
    "arrangement": {"en": "Arrangement", "tr": "Düzenleme"},
}

MAPS: dict[str, MapSide] = {
    "A": MapSide(
        "A", "Wilderness", "Yabani",
        mountains=((1, 3), (2, 8), (5, 5), (8, 2), (9, 7)),
        ruins=((1, 5), (2, 1), (2, 9), (8, 1), (8, 9), (9, 5)),
    ),
    "B": MapSide(
        "B", "Wastelands", "Çorak Topraklar",
        mountains=((1, 8), (2, 3), (7, 5), (8, 9), (9, 2)),
        ruins=((1, 6), (2, 2), (4, 6), (6, 1), (7, 8), (9, 3)),
        wastelands=((3, 5), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6), (6, 5)),
    ),
    **heroes_data.MAPS,  # sides C and D
}

SEASONS: tuple[Season, ...] = (
    Season(0, "Spring", "İlkbahar", 8, ("A", "B")),
    Season(1, "Summer", "Yaz", 8, ("B", "C")),
    Season(2, "Fall", "Sonbahar", 7, ("C", "D")),
    Season(3, "Winter", "Kış", 6, ("D", "A")),
)
EDICTS: tuple[str, ...] = ("A", "B", "C", "D")

SOLO_TITLES: tuple[SoloTitle, ...] = (
    SoloTitle(30, "Legendary Cartographer", "Efsanevi Kâşif"),
    SoloTitle(20, "Master Mapsmith", "Usta Haritacı"),
    SoloTitle(10, "Journeyman Topographer", "Kalfa Topograf"),
    SoloTitle(0, "Apprentice Surveyor", "Çırak Mesahacı"),
    SoloTitle(-5, "Amateur Assessor", "Amatör Değerlendirici"),
    SoloTitle(-10, "Inept Assistant", "Beceriksiz Yardımcı"),
    SoloTitle(-20, "Dimwitted Doodler", "Şaşkın Karalamacı"),
    SoloTitle(-30, "Oblivious Inkdrinker", "Dalgın Mürekkep Yutucu"),
)

# The two boxes. `EXPLORE_CARDS`, `AMBUSH_CARDS`, `SCORING_CARDS` and `SEASONS` above are the base game's;
# the lookups below cover every set, so a table may mix components freely.
CARD_SETS: dict[str, CardSet] = {
    BASE: CardSet(BASE, "Cartographers", "Cartographers", EXPLORE_CARDS, AMBUSH_CARDS, (), SCORING_CARDS, SEASONS,
                  ("A", "B")),
    HEROES: CardSet(HEROES, "Cartographers Heroes", "Cartographers Heroes (Kahramanlar)", heroes_data.EXPLORE_CARDS,
                    heroes_data.AMBUSH_CARDS, heroes_data.HERO_CARDS, heroes_data.SCORING_CARDS, heroes_data.SEASONS,
                    ("C", "D"), names_tr_ours=True, doubts=heroes_data.DOUBTS),
}
ALL_SCORING_CARDS: tuple[ScoringCardInfo, ...] = tuple(c for s in CARD_SETS.values() for c in s.scoring)

EXPLORE_BY_ID: dict[str, ExploreCard] = {c.id: c for s in CARD_SETS.values() for c in s.explore}
AMBUSH_BY_ID: dict[str, AmbushCard] = {c.id: c for s in CARD_SETS.values() for c in s.ambushes}
HERO_BY_ID: dict[str, HeroCard] = {c.id: c for s in CARD_SETS.values() for c in s.heroes}
SCORING_BY_ID: dict[str, ScoringCardInfo] = {c.id: c for c in ALL_SCORING_CARDS}
HERO_PREFIX = "hero-"


def seasons_differ_from_base(card_set: CardSet) -> bool:
    """True when a set's season times differ from the base game's (Heroes: Summer 7), so sheets print them."""
    return [s.threshold for s in card_set.seasons] != [s.threshold for s in CARD_SETS[BASE].seasons]


def card_set_of_side(side: str) -> CardSet:
    """The box a printed side comes from (its scoring cards are the default for `mapsmith score`)."""
    return CARD_SETS[MAPS[side].card_set]


def card_by_id(card_id: str) -> ExploreCard | AmbushCard | HeroCard:
    """Explore, ambush and hero cards share the deck; ambush ids are prefixed 'ambush-', heroes 'hero-'."""
    if card_id.startswith("ambush-"):
        return AMBUSH_BY_ID[card_id.removeprefix("ambush-")]
    if card_id.startswith(HERO_PREFIX):
        return HERO_BY_ID[card_id.removeprefix(HERO_PREFIX)]
    return EXPLORE_BY_ID[card_id]


def solo_title(rating: int) -> SoloTitle:
    """Highest title whose threshold the rating reaches; below -30 keeps the lowest title."""
    for title in SOLO_TITLES:
        if rating >= title.min_rating:
            return title
    return SOLO_TITLES[-1]


@dataclass
class DataError(Exception):
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "invalid game data: " + "; ".join(self.problems)


def _on_map(cell: Cell) -> bool:
    return 0 <= cell[0] < GRID_SIZE and 0 <= cell[1] < GRID_SIZE


def _check_explore(cards: tuple[ExploreCard, ...], problems: list[str], *, king_connected: bool = True) -> None:
    """Shapes, terrains and times; Heroes prints shapes with gaps, so there connectivity is not required."""
    if len({c.id for c in cards}) != len(cards):
        problems.append("duplicate explore ids")
    for card in cards:
        if card.kind == "ruins":
            if card.options or card.terrains or card.time:
                problems.append(f"ruins card {card.id} must have no options, terrains or time")
            continue
        if not card.options or not card.terrains:
            problems.append(f"card {card.id} needs options and terrains")
        if not (len(card.options) == 1 or len(card.terrains) == 1):
            problems.append(f"card {card.id}: either one shape or one terrain")
        for t in card.terrains:
            if t not in DRAWABLE:
                problems.append(f"card {card.id}: {t} is not drawable")
        for o in card.options:
            if king_connected and not is_king_connected(o.cells):
                problems.append(f"card {card.id}: shape {o.cells} is not connected")
            if o.cells != normalise(o.cells):
                problems.append(f"card {card.id}: shape not normalised")
            if o.coin and o is not card.options[0]:
                problems.append(f"card {card.id}: only the first option may carry a coin")
        if card.time not in (0, 1, 2):
            problems.append(f"card {card.id}: time {card.time} out of range")


def _check_ambushes(cards: tuple[AmbushCard, ...], sizes: range, problems: list[str]) -> None:
    for amb in cards:
        if len(amb.shape) not in sizes or amb.shape != normalise(amb.shape):
            problems.append(f"ambush {amb.id}: shape must be {sizes.start}-{sizes.stop - 1} normalised cells")
        if amb.direction not in ("clockwise", "counterclockwise"):
            problems.append(f"ambush {amb.id}: bad direction")
        if amb.solo_corner not in ("top_left", "top_right", "bottom_left", "bottom_right"):
            problems.append(f"ambush {amb.id}: bad corner")
        if amb.effect not in AMBUSH_EFFECTS:
            problems.append(f"ambush {amb.id}: unknown effect {amb.effect!r}")
    if len({a.solo_corner for a in cards}) != len(cards):
        problems.append("each ambush card should start in a different corner")


def _check_scoring(cards: tuple[ScoringCardInfo, ...], problems: list[str]) -> None:
    for cat in CATEGORIES:
        n = sum(1 for c in cards if c.category == cat)
        if n != 4:
            problems.append(f"category {cat} has {n} scoring cards, expected 4")


def _check_side(side: MapSide, problems: list[str]) -> None:
    cells = [*side.mountains, *side.ruins, *side.wastelands, *(c for c, _ in side.predrawn)]
    if len(set(cells)) != len(cells):
        problems.append(f"map {side.side}: overlapping features")
    for cell in cells:
        if not _on_map(cell):
            problems.append(f"map {side.side}: {cell} is off the map")
    for _, t in side.predrawn:
        if t not in (*DRAWABLE, Terrain.HERO, Terrain.DESTROYED):
            problems.append(f"map {side.side}: {t.value} cannot be pre-drawn")


AMBUSH_EFFECTS = ("", "coins_when_sealed", "spread_after_scoring", "destroy_after_scoring", "destroy_when_drawn")


def validate() -> None:
    """Check the invariants the rules rely on; raise DataError listing every problem."""
    problems: list[str] = []
    if len(EXPLORE_CARDS) != 13:
        problems.append(f"expected 13 explore cards, got {len(EXPLORE_CARDS)}")
    if sum(c.time for c in EXPLORE_CARDS) != 16:
        problems.append("explore deck time must total 16")
    if sum(1 for c in EXPLORE_CARDS if c.kind == "ruins") != 2:
        problems.append("expected 2 ruins cards")
    coin_cards = [c.id for c in EXPLORE_CARDS if any(o.coin for o in c.options)]
    if coin_cards != ["07", "08", "09", "10"]:
        problems.append(f"coin options expected on cards 07-10, found {coin_cards}")
    _check_explore(EXPLORE_CARDS, problems)
    _check_ambushes(AMBUSH_CARDS, range(3, 6), problems)
    _check_scoring(SCORING_CARDS, problems)
    if len({c.id for c in SCORING_CARDS}) != 16:
        problems.append("expected 16 distinct scoring card ids")
    _validate_heroes(problems)
    for side in MAPS.values():
        _check_side(side, problems)
        if len(side.mountains) != 5 or len(side.ruins) != 6:
            problems.append(f"map {side.side}: expected 5 mountains and 6 ruins")
        for r, c in side.mountains:
            if r in (0, GRID_SIZE - 1) or c in (0, GRID_SIZE - 1):
                problems.append(f"map {side.side}: mountain {(r, c)} on the edge")
        ruins = set(side.ruins)
        for r, c in side.ruins:
            if {(r + 1, c), (r, c + 1)} & ruins:
                problems.append(f"map {side.side}: ruins {(r, c)} touches another ruins")
    if [s.threshold for s in SEASONS] != [8, 8, 7, 6]:
        problems.append("season thresholds must be 8/8/7/6")
    if [s.edicts for s in SEASONS] != [("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")]:
        problems.append("season edict pairs must be AB, BC, CD, DA")
    if [t.min_rating for t in SOLO_TITLES] != sorted((t.min_rating for t in SOLO_TITLES), reverse=True):
        problems.append("solo titles must be sorted by threshold")
    if problems:
        raise DataError(problems)


def _validate_heroes(problems: list[str]) -> None:
    """Cartographers Heroes: 11 explore cards worth 16 time and no ruins cards, 4 heroes, 4 ambushes, 16 cards."""
    h = heroes_data
    if len(h.EXPLORE_CARDS) != 11 or sum(c.time for c in h.EXPLORE_CARDS) != 16:
        problems.append("Heroes: expected 11 explore cards worth 16 time")
    if any(c.kind == "ruins" for c in h.EXPLORE_CARDS):
        problems.append("Heroes has no ruins cards")
    if [c.id for c in h.EXPLORE_CARDS if any(o.coin for o in c.options)] != ["h01", "h02", "h03", "h04"]:
        problems.append("Heroes: coins expected on the four time-1 cards")
    _check_explore(h.EXPLORE_CARDS, problems, king_connected=False)
    _check_ambushes(h.AMBUSH_CARDS, range(1, 6), problems)
    _check_scoring(h.SCORING_CARDS, problems)
    if len(h.HERO_CARDS) != 4 or any(not 3 <= len(set(x.hits)) == len(x.hits) <= 4 or (0, 0) in x.hits
                                     for x in h.HERO_CARDS):
        problems.append("Heroes: 4 heroes, each hitting 3-4 distinct spaces other than its own")
    if [s.threshold for s in h.SEASONS] != [8, 7, 7, 6] or [s.edicts for s in h.SEASONS] != [
            s.edicts for s in SEASONS]:
        problems.append("Heroes seasons must be 8/7/7/6 with the base edict pairs")
    ids = [c.id for c in ALL_SCORING_CARDS]
    if len(set(ids)) != len(ids):
        problems.append("scoring card ids must be unique across sets")
    for cs in CARD_SETS.values():
        for item in (*cs.explore, *cs.ambushes, *cs.heroes, *cs.scoring, *(MAPS[x] for x in cs.sides)):
            if item.card_set != cs.id:
                problems.append(f"{item.name_en} is listed in set {cs.id} but says {item.card_set}")


validate()
