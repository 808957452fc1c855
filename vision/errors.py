"""The one exception the vision pipeline raises for photos it cannot read.

A `PhotoError` carries a stable machine `code` (the web app translates it; see
`vision.messages`) and an English sentence that tells the player what to do
next. It subclasses ValueError because a bad photo is bad input, not a bug.
"""

from __future__ import annotations

from vision.messages import MESSAGES


class PhotoError(ValueError):
    """A photo that cannot be read into a grid, with a stable `code` and an actionable message."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown photo error code {code!r}")
        self.code = code
        self.detail = detail
        super().__init__(self.message("en") + (f" ({detail})" if detail else ""))

    def message(self, lang: str = "en") -> str:
        """The user-facing sentence in `lang` ("en" or "tr"), without the technical detail."""
        texts = MESSAGES[self.code]
        return texts.get(lang, texts["en"])

    def to_dict(self) -> dict[str, str]:
        d = {"error": self.message("en"), "code": self.code, "error_tr": self.message("tr")}
        if self.detail:
            d["detail"] = self.detail
        return d
