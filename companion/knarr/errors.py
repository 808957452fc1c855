"""The one exception the Knarr engine raises for a rejected event, with a stable code.

The web layer maps `code` to an HTTP 4xx answer and shows `text(lang)` to the player; the codes
are part of the API and must not change. A rejected event never changes the game.
"""

from __future__ import annotations

from typing import Any

from .messages import render


class KnarrError(ValueError):
    """An event or setup the rules reject. `code` is stable; `params` fill the TR/EN message."""

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = params
        super().__init__(render(code, "en", params))

    @property
    def message(self) -> str:
        return self.text("en")

    def text(self, lang: str = "en") -> str:
        return render(self.code, lang, self.params)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"code": self.code, "message": self.text(lang), "params": dict(self.params)}
