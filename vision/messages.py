"""User-facing texts for every `PhotoError` code, in English and Turkish.

Codes are a stable contract with the web app: add new ones, never rename.
"""

from __future__ import annotations

from dataclasses import dataclass

MESSAGES: dict[str, dict[str, str]] = {
    "not_an_image": {
        "en": "This file is not a photo we can open. Please send a JPEG, PNG or WebP picture.",
        "tr": "Bu dosya açabildiğimiz bir fotoğraf değil. Lütfen JPEG, PNG veya WebP bir resim gönderin.",
    },
    "unsupported_format": {
        "en": "HEIC photos are not supported yet. Please send a JPEG (on iPhone: Settings › Camera › Formats › "
              "Most Compatible).",
        "tr": "HEIC fotoğraflar henüz desteklenmiyor. Lütfen JPEG gönderin (iPhone'da: Ayarlar › Kamera › "
              "Formatlar › En Uyumlu).",
    },
    "corrupt_image": {
        "en": "The photo file is damaged or incomplete. Please take or upload the photo again.",
        "tr": "Fotoğraf dosyası bozuk ya da eksik. Lütfen fotoğrafı yeniden çekin veya yükleyin.",
    },
    "too_large": {
        "en": "The picture is too large to process. Please send a normal phone photo (under 100 megapixels).",
        "tr": "Resim işlenemeyecek kadar büyük. Lütfen normal bir telefon fotoğrafı gönderin (100 megapikselden az).",
    },
    "too_small": {
        "en": "The map is too small in the photo. Move closer so the sheet fills most of the picture.",
        "tr": "Harita fotoğrafta çok küçük. Yaklaşın ki kağıt fotoğrafın büyük kısmını doldursun.",
    },
    "too_dark": {
        "en": "The photo is too dark. Turn on a light or move to a brighter spot and try again.",
        "tr": "Fotoğraf çok karanlık. Bir ışık açın ya da daha aydınlık bir yere geçip yeniden deneyin.",
    },
    "too_blurry": {
        "en": "The photo is blurry. Hold the phone still, tap the sheet to focus, and try again.",
        "tr": "Fotoğraf bulanık. Telefonu sabit tutun, odaklamak için kağıda dokunun ve yeniden deneyin.",
    },
    "custom_side_unread": {
        "en": "This sheet shows a table's own map side, but its QR code could not be read. Photograph it again "
              "with the QR code sharp and unshaded.",
        "tr": "Bu sayfa masanın kendi harita yüzünü gösteriyor ama QR kodu okunamadı. QR kod net ve gölgesiz "
              "olacak şekilde yeniden fotoğraflayın.",
    },
    "no_sheet": {
        "en": "No map sheet found. Lay the whole sheet flat and photograph it from above.",
        "tr": "Harita kağıdı bulunamadı. Kağıdın tamamını düz koyun ve yukarıdan fotoğraflayın.",
    },
    "markers_cut": {
        "en": "Part of the sheet is cut off. Move back so all four corner squares are in the photo.",
        "tr": "Kağıdın bir kısmı kadrajın dışında. Dört köşe karesinin de fotoğrafta olması için geri çekilin.",
    },
    "grid_cut": {
        "en": "Part of the map's grid is cut off: step back a little so the whole grid is in the photo.",
        "tr": "Harita ızgarasının bir kısmı kadrajın dışında: ızgaranın tamamı fotoğrafa girsin diye biraz geri "
              "çekilin.",
    },
    "unknown_side": {
        "en": "Could not tell whether this is side A or side B. Please choose the side and try again.",
        "tr": "Bunun A yüzü mü B yüzü mü olduğu anlaşılamadı. Lütfen yüzü seçip yeniden deneyin.",
    },
}

# Warnings attached to a successful reading: templates with named fields, per language.
WARNINGS: dict[str, dict[str, str]] = {
    "side_from_markers": {
        "en": "the corner markers say side {side}, not {hint}; using side {side}",
        "tr": "köşe işaretleri bunun {side} yüzü olduğunu gösteriyor ({hint} değil); {side} yüzü kullanıldı",
    },
    "marker_hidden": {
        "en": "the {corner} corner marker was not recognised (covered?)",
        "tr": "{corner} köşe işareti okunamadı (üstü kapalı mı?)",
    },
    "legend_incomplete": {
        "en": "legend row incomplete ({terrains}): using typical colours for those",
        "tr": "örnek satırı eksik ({terrains}): bunlar için tipik renkler kullanıldı",
    },
    "terrain_missing": {
        "en": "no {terrains} found on this well-filled map: the marked group of squares may be it, please check",
        "tr": "bu dolu haritada hiç {terrains} bulunamadı: işaretli kare grubu o olabilir, lütfen kontrol edin",
    },
    "nearly_blank": {
        "en": "almost nothing drawn was found on this map, so its empty squares are marked for checking; if it is "
              "filled in, retake the photo in brighter, even light",
        "tr": "bu haritada neredeyse hiç çizim bulunamadı, bu yüzden boş kareler kontrol için işaretlendi; harita "
              "doluysa fotoğrafı daha aydınlık ve eşit ışıkta yeniden çekin",
    },
    "legend_empty": {
        "en": "legend row is empty: using typical pencil colours; fill in the legend for best results",
        "tr": "örnek satırı boş: tipik kalem renkleri kullanıldı; en iyi sonuç için örnek satırını doldurun",
    },
    "legend_disagrees": {
        "en": "the legend row does not match how {n} square(s) are drawn: please check them",
        "tr": "örnek satırı {n} karenin çiziliş biçimine uymuyor: lütfen bunları kontrol edin",
    },
    "coins_unsure": {
        "en": "coin track is hard to read: please check the coin count",
        "tr": "para izi zor okunuyor: lütfen para sayısını kontrol edin",
    },
    "qr_side_mismatch": {
        "en": "the QR code says side {qr} but the markers say side {side}",
        "tr": "QR kod {qr} yüzünü, köşe işaretleri ise {side} yüzünü gösteriyor",
    },
    "doubtful_cells": {
        "en": "{n} cell(s) are uncertain: please check the highlighted cells",
        "tr": "{n} hücreden emin olunamadı: lütfen işaretli hücreleri kontrol edin",
    },
    "sheet_doubtful": {
        "en": "much of this map is hard to read, so every square is marked for checking; a sharp photo of the flat "
              "sheet in even light reads better",
        "tr": "bu haritanın büyük kısmı zor okunuyor, bu yüzden her kare kontrol için işaretlendi; düz duran kağıdın "
              "eşit ışıkta net bir fotoğrafı daha iyi okunur",
    },
    "glare": {
        "en": "{n} cell(s) are hidden by a reflection: check them, or retake the photo without the glare",
        "tr": "{n} hücre bir yansıma yüzünden görünmüyor: kontrol edin ya da parlama olmadan yeniden çekin",
    },
    "glare_legend": {
        "en": "a reflection hides part of the legend row ({terrains}): check the result or retake the photo",
        "tr": "bir yansıma örnek satırının bir kısmını gizliyor ({terrains}): sonucu kontrol edin ya da yeniden çekin",
    },
    "unmarked": {
        "en": "sheet without corner markers: read from the grid border (check the result)",
        "tr": "köşe işareti olmayan kağıt: harita ızgaranın kenarından okundu (sonucu kontrol edin)",
    },
    "orientation_unsure": {
        "en": "could not tell which way up the sheet is; check the result or photograph it upright",
        "tr": "kağıdın hangi yönde durduğu anlaşılamadı; sonucu kontrol edin ya da kağıdı düz tutarak çekin",
    },
    "marker_outside": {
        "en": "the {corner} corner marker is outside the photo; the sheet was placed from the other three",
        "tr": "{corner} köşe işareti fotoğrafın dışında; kağıdın yeri diğer üç işaretten bulundu",
    },
    "side_unsure": {
        "en": "side guessed from the mountains with little certainty; pass the side (A or B)",
        "tr": "yüz, dağların yerinden düşük kesinlikle tahmin edildi; lütfen yüzü (A veya B) seçin",
    },
}

# `grid_cut` when the reader knows which edge: the sheet's own (upright) top/bottom row or left/right column.
GRID_CUT_EDGE = {
    "en": "The {edge} of the map is cut off: step back a little so the whole grid is in the photo.",
    "tr": "Haritanın {edge} kadrajın dışında kalmış: ızgaranın tamamı fotoğrafa girsin diye biraz geri çekilin.",
}
# Grid edges in the sheet's own (upright) frame, as the `grid_cut` error names them.
EDGES = {
    "top": {"en": "top row", "tr": "en üst satırı"},
    "bottom": {"en": "bottom row", "tr": "en alt satırı"},
    "left": {"en": "left column", "tr": "en sol sütunu"},
    "right": {"en": "right column", "tr": "en sağ sütunu"},
}

CORNERS = {
    "top_left": {"en": "top left", "tr": "sol üst"},
    "top_right": {"en": "top right", "tr": "sağ üst"},
    "bottom_right": {"en": "bottom right", "tr": "sağ alt"},
    "bottom_left": {"en": "bottom left", "tr": "sol alt"},
}


@dataclass(frozen=True)
class Note:
    """A warning with a stable `code` and its fields, rendered in either language by `text(lang)`."""

    code: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, code: str, **params: object) -> Note:
        if code not in WARNINGS:
            raise KeyError(f"unknown warning code {code!r}")
        return cls(code, tuple(sorted(params.items())))

    def text(self, lang: str = "en") -> str:
        fields = {}
        for key, value in self.params:
            if key == "corner" and value in CORNERS:
                value = CORNERS[value].get(lang, CORNERS[value]["en"])
            elif key == "terrains" and isinstance(value, tuple):
                value = ", ".join(_terrain_name(t, lang) for t in value)
            fields[key] = value
        texts = WARNINGS[self.code]
        return texts.get(lang, texts["en"]).format(**fields)


def _terrain_name(word: str, lang: str) -> str:
    from companion.cartographers.terrain import TERRAIN_NAMES, Terrain

    return TERRAIN_NAMES[Terrain(word)].get(lang, word)
