"""User-facing texts for every `PhotoError` code, in English and Turkish.

Codes are a stable contract with the web app: add new ones, never rename.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "not_an_image": {
        "en": "This file is not a photo we can open. Please send a JPEG, PNG or WebP picture.",
        "tr": "Bu dosya açabildiğimiz bir fotoğraf değil. Lütfen JPEG, PNG veya WebP bir resim gönderin.",
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
    "no_sheet": {
        "en": "No map sheet found. Lay the whole sheet flat and photograph it from above.",
        "tr": "Harita kağıdı bulunamadı. Kağıdın tamamını düz koyun ve yukarıdan fotoğraflayın.",
    },
    "markers_cut": {
        "en": "Part of the sheet is cut off. Move back so all four corner squares are in the photo.",
        "tr": "Kağıdın bir kısmı kadrajın dışında. Dört köşe karesinin de fotoğrafta olması için geri çekilin.",
    },
    "unknown_side": {
        "en": "Could not tell whether this is side A or side B. Please choose the side and try again.",
        "tr": "Bunun A yüzü mü B yüzü mü olduğu anlaşılamadı. Lütfen yüzü seçip yeniden deneyin.",
    },
}
