"""Cartographers Heroes (Thunderworks, 2021): its cards, seasons and map sides C and D.

Transcribed from the verified reference (expansions facts). No Turkish edition
exists, so every Turkish name here is OUR translation (`CardSet.names_tr_ours`);
proper names (Craylund, Jorekburg, Traylo, ...) are kept. Printed card numbers
are not known, so `number` is None. Facts resting on a single source or on an
interpretation are listed in `DOUBTS`, each pinned by a test in
tests/test_heroes_data.py; `data.validate()` checks this module at import.
"""

from __future__ import annotations

from .cards import HEROES, AmbushCard, Doubt, ExploreCard, HeroCard, MapSide, ScoringCardInfo, Season, opt
from .shapes import is_orthogonally_connected, normalise
from .terrain import Terrain

F, V, A, W, M = Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER


def _card(cid: str, en: str, tr: str, kind: str, time: int, terrains: tuple[Terrain, ...], *options) -> ExploreCard:
    return ExploreCard(cid, None, en, tr, kind, time, terrains, tuple(options), HEROES)


EXPLORE_CARDS: tuple[ExploreCard, ...] = (
    _card("h01", "Lagoon", "Lagün", "explore", 1, (W,),
          opt([[0, 1], [1, 0]], coin=True), opt([[0, 0], [0, 1], [0, 2], [1, 1]])),
    _card("h02", "Pasture", "Mera", "explore", 1, (A,),
          opt([[0, 0], [0, 2]], coin=True), opt([[0, 1], [0, 2], [1, 0], [1, 1]])),
    _card("h03", "Settlement", "Yerleşim", "explore", 1, (V,),
          opt([[0, 0], [1, 0]], coin=True), opt([[0, 2], [1, 1], [1, 2], [2, 0], [2, 1]])),
    _card("h04", "Timber Grove", "Kereste Korusu", "explore", 1, (F,),
          opt([[0, 0], [1, 0], [1, 1]], coin=True), opt([[0, 0], [0, 2], [1, 0], [1, 2]])),
    _card("h05", "Hillside Terrace", "Yamaç Teraslar", "explore", 2, (A, W),
          opt([[0, 0], [0, 1], [1, 0], [1, 1]])),
    _card("h06", "Frontier Dwelling", "Sınır Konağı", "explore", 2, (V, A),
          opt([[0, 0], [0, 1], [0, 2], [1, 1], [2, 1]])),
    _card("h07", "Wildwood Garden", "Yaban Koru Bahçesi", "explore", 2, (F, A),
          opt([[0, 1], [0, 2], [1, 0]])),
    _card("h08", "Woodland Crossroads", "Orman Kavşağı", "explore", 2, (F, V),
          opt([[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]])),
    _card("h09", "Coastal Encampment", "Kıyı Kampı", "explore", 2, (V, W),
          opt([[0, 0], [0, 1], [0, 2], [1, 0]])),
    _card("h10", "Mangrove Swamp", "Mangrov Bataklığı", "explore", 2, (F, W),
          opt([[0, 0], [0, 1], [0, 2], [1, 0], [1, 2]])),
    _card("h11", "Kethra's Gates", "Kethra'nın Kapıları", "rift", 0, (F, V, A, W, M), opt([[0, 0]])),
)

HERO_CARDS: tuple[HeroCard, ...] = (
    HeroCard("h01", "Dobrik of Lorkheim", "Lorkheim'lı Dobrik", ((-1, 0), (1, 0), (0, -1), (0, 1))),
    HeroCard("h02", "Wren the Lioness", "Dişi Aslan Wren", ((-1, 2), (0, 2), (1, 2))),
    HeroCard("h03", "Freyla the True", "Sadık Freyla", ((0, 1), (0, 2), (0, 3))),
    HeroCard("h04", "Dal of Jolev", "Jolev'li Dal", ((-1, -1), (-1, 1), (1, -1), (1, 1))),
)


def _ambush(cid: str, en: str, tr: str, cells: list[list[int]], direction: str, corner: str,
            effect: str, amount: int, chooser: str, effect_en: str, effect_tr: str) -> AmbushCard:
    shape = normalise(map(tuple, cells))
    return AmbushCard(cid, None, en, tr, shape, is_orthogonally_connected(shape), direction, corner, 0, HEROES,
                      effect, amount, chooser, effect_en, effect_tr)


AMBUSH_CARDS: tuple[AmbushCard, ...] = (
    _ambush("h01", "Dragon Inferno", "Ejderha Cehennemi", [[0, 2], [1, 0], [1, 1], [1, 2], [2, 0]],
            "counterclockwise", "bottom_left", "coins_when_sealed", 3, "",
            "When every Dragon space is surrounded (filled or edge on all sides) or destroyed, the map's owner "
            "gains 3 coins, once.",
            "Ejderhanın her alanı çevrildiğinde (dört yanı dolu ya da kenar) veya yıkıldığında haritanın sahibi "
            "bir kez 3 altın kazanır."),
    _ambush("h02", "Zombie Plague", "Zombi Salgını", [[0, 0]],
            "counterclockwise", "top_left", "spread_after_scoring", 0, "",
            "After each season's scoring, draw a zombie (monster) in every empty space next to a zombie.",
            "Her mevsimin puanlamasından sonra bir zombiye bitişik her boş alana zombi (canavar) çizilir."),
    _ambush("h03", "Giant Troll Ravage", "Dev Trol Yıkımı", [[0, 0], [0, 1], [0, 2], [1, 1]],
            "clockwise", "top_right", "destroy_after_scoring", 1, "owner",
            "After each season's scoring, destroy one empty space next to the Giant Troll.",
            "Her mevsimin puanlamasından sonra Dev Trol'e bitişik bir boş alan yıkılır."),
    _ambush("h04", "Gorgon Gaze", "Gorgon Bakışı", [[0, 0], [0, 2], [1, 1]],
            "clockwise", "bottom_right", "destroy_when_drawn", 1, "drawer",
            "Right after drawing the Gorgon, destroy one adjacent non-mountain space (filled or empty).",
            "Gorgon çizilir çizilmez ona bitişik, dağ olmayan bir alan (dolu ya da boş) yıkılır."),
)


def _sc(cid: str, en: str, tr: str, category: str, solo: int, text_en: str, text_tr: str) -> ScoringCardInfo:
    return ScoringCardInfo(cid, None, en, tr, category, solo, text_en, text_tr, HEROES)


SCORING_CARDS: tuple[ScoringCardInfo, ...] = (
    _sc("faunlost_thicket", "Faunlost Thicket", "Faunlost Çalılığı", "forest", 16,
        "2 stars for each forest space in your longest unbroken column of forest.",
        "En uzun kesintisiz dikey orman dizinizdeki her orman alanı için 2 şöhret."),
    _sc("deepwood", "Deepwood", "Derin Koru", "forest", 18,
        "6 stars for each forest cluster of 5 or more spaces not adjacent to a village space.",
        "Hiçbir köy alanına bitişik olmayan, 5 veya daha fazla alanlı her orman topluluğu için 6 şöhret."),
    _sc("heart_of_the_forest", "Heart of the Forest", "Ormanın Kalbi", "forest", 22,
        "2 stars for each forest space surrounded on all four sides by forest spaces or the map edge.",
        "Dört tarafı da orman alanı veya harita kenarıyla çevrili her orman alanı için 2 şöhret."),
    _sc("sleepy_valley", "Sleepy Valley", "Uykulu Vadi", "forest", 24,
        "4 stars for each row containing three or more forest spaces.",
        "3 veya daha fazla orman alanı içeren her satır için 4 şöhret."),
    _sc("craylund", "Craylund", "Craylund", "farm_water", 12,
        "7 stars for each farm cluster adjacent to three or more water spaces.",
        "3 veya daha fazla su alanına bitişik her tarla topluluğu için 7 şöhret."),
    _sc("ulems_wallow", "Ulem's Wallow", "Ulem'in Batağı", "farm_water", 14,
        "4 stars for each water space adjacent to two or more farm spaces.",
        "2 veya daha fazla tarla alanına bitişik her su alanı için 4 şöhret."),
    _sc("clawsgrave_peaks", "Clawsgrave Peaks", "Pençemezar Dorukları", "farm_water", 15,
        "5 stars for each mountain space connected to a farm space by a cluster of water spaces.",
        "Bir su topluluğuyla bir tarla alanına bağlanan her dağ alanı için 5 şöhret."),
    _sc("jorekburg", "Jorekburg", "Jorekburg", "farm_water", 18,
        "4 stars for each column containing an equal number of farm and water spaces, at least one of each.",
        "Eşit sayıda tarla ve su alanı (her birinden en az bir) içeren her sütun için 4 şöhret."),
    _sc("traylo_monastery", "Traylo Monastery", "Traylo Manastırı", "village", 14,
        "7 stars for each village cluster that contains four spaces in a straight 4×1 line.",
        "4×1 düz bir çizgide dört alan içeren her köy topluluğu için 7 şöhret."),
    _sc("outer_enclave", "Outer Enclave", "Dış Yerleşke", "village", 12,
        "Choose one village cluster: 1 star for each empty space adjacent to it.",
        "Bir köy topluluğu seçin: ona bitişik her boş alan için 1 şöhret."),
    _sc("gnomish_colony", "Gnomish Colony", "Gnom Kolonisi", "village", 12,
        "6 stars for each village cluster that contains four spaces in a 2×2 square.",
        "2×2 kare biçiminde dört alan içeren her köy topluluğu için 6 şöhret."),
    _sc("caravansary", "Caravansary", "Kervansaray", "village", 16,
        "Choose one village cluster: 1 star for each row and each column that contains one of its spaces.",
        "Bir köy topluluğu seçin: onun bir alanını içeren her satır ve her sütun için 1 şöhret."),
    _sc("dwarvenholds", "Dwarvenholds", "Cüce Kaleleri", "arrangement", 28,
        "7 stars for each complete row or complete column of filled spaces that contains a mountain.",
        "Bir dağ içeren, tamamen dolu her satır veya sütun için 7 şöhret."),
    _sc("silos", "Silos", "Silolar", "arrangement", 30,
        "10 stars for each complete odd-numbered column of filled spaces (1st, 3rd, ... 11th from the left).",
        "Tamamen dolu her tek numaralı sütun için (soldan 1., 3., ... 11.) 10 şöhret."),
    _sc("banded_hills", "Banded Hills", "Kuşaklı Tepeler", "arrangement", 28,
        "4 stars for each row containing five or more different terrain types.",
        "5 veya daha fazla farklı arazi tipi içeren her satır için 4 şöhret."),
    _sc("starlit_sigil", "Starlit Sigil", "Yıldızlı Mühür", "arrangement", 30,
        "4 stars for each cluster of exactly three empty spaces surrounded on all sides by filled spaces or "
        "the map edge.",
        "Her yanı dolu alanlar veya harita kenarıyla çevrili, tam üç boş alandan oluşan her küme için 4 şöhret."),
)

SEASONS: tuple[Season, ...] = (
    Season(0, "Spring", "İlkbahar", 8, ("A", "B")),
    Season(1, "Summer", "Yaz", 7, ("B", "C")),
    Season(2, "Fall", "Sonbahar", 7, ("C", "D")),
    Season(3, "Winter", "Kış", 6, ("D", "A")),
)

MAPS: dict[str, MapSide] = {
    "C": MapSide(
        "C", "Heroes wilderness", "Kahramanlar yaban",
        mountains=((1, 1), (3, 8), (5, 3), (8, 9), (9, 5)),
        ruins=((1, 4), (3, 7), (6, 6), (7, 2), (9, 8), (10, 0)),
        card_set=HEROES,
    ),
    "D": MapSide(
        "D", "Heroes wastelands", "Kahramanlar çorak",
        mountains=((1, 9), (3, 3), (5, 6), (8, 2), (8, 9)),
        ruins=((1, 3), (1, 8), (5, 1), (6, 7), (6, 10), (9, 5)),
        wastelands=((1, 1), (2, 1), (5, 9), (5, 10), (6, 9), (9, 0), (9, 1)),
        card_set=HEROES,
    ),
}

DOUBTS: tuple[Doubt, ...] = (
    Doubt("combining",
          "The official rules for combining base and Heroes components (deck, seasons, heroes and ambushes per "
          "season) are not known to us: a mixed table decides for itself.",
          "Temel oyun ile Kahramanlar bileşenlerini birleştirmenin resmî kuralları elimizde yok: karışık oynayan "
          "masa kendisi karar verir."),
    Doubt("map_d", "Side D's layout and side C's ruins come from a single source and were not checked on a sheet.",
          "D yüzünün düzeni ve C yüzünün harabeleri tek kaynağa dayanıyor; basılı bir sayfayla karşılaştırılmadı."),
    Doubt("ambush_arrows", "The Heroes ambushes' arrows and solo corners come from a single source.",
          "Kahramanlar saldırı kartlarının ok yönleri ve tek kişilik köşeleri tek kaynağa dayanıyor."),
    Doubt("solo_numbers", "The Heroes scoring cards' solo numbers come from a single source.",
          "Kahramanlar puan kartlarının tek kişilik sayıları tek kaynağa dayanıyor."),
    Doubt("chooser", "Who picks the space the Troll or the Gorgon destroys is an interpretation: we let the Gorgon's "
          "drawer and the Troll's map owner choose.",
          "Trol ve Gorgon'un yıktığı alanı kimin seçeceği bir yorumdur: Gorgon'da çizen, Trol'de harita sahibi seçer."),
    Doubt("hero_rotation", "Whether a hero's hit pattern may be turned with the hero is not stated; we allow it.",
          "Kahramanın vuruş deseninin döndürülüp döndürülemeyeceği yazılı değil; biz izin veriyoruz."),
    Doubt("banded_hills_hero", "Whether the hero counts as a terrain type for Banded Hills is open; we count it "
          "(the official text calls it a terrain type).",
          "Kuşaklı Tepeler'de kahramanın bir arazi tipi sayılıp sayılmadığı belirsiz; resmî metin ona arazi tipi "
          "dediği için sayıyoruz."),
    Doubt("names_tr", "Heroes has no Turkish edition: the Turkish card names are our translations.",
          "Kahramanlar'ın Türkçe baskısı yok: Türkçe kart adları bizim çevirimizdir."),
)
