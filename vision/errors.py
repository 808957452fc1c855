"""The one exception the vision pipeline raises for photos it cannot read.

A `PhotoError` carries a stable machine `code` (the web app translates it; see
`vision.messages`) and an English sentence that tells the player what to do
next. It subclasses ValueError because a bad photo is bad input, not a bug.
"""

from __future__ import annotations

from vision.messages import EDGES, GRID_CUT_EDGE, MESSAGES


class PhotoError(ValueError):
    """A photo that cannot be read into a grid, with a stable `code` and an actionable message."""

    def __init__(self, code: str, detail: str | None = None, *, edge: str | None = None) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown photo error code {code!r}")
        if edge is not None and edge not in EDGES:
            raise KeyError(f"unknown grid edge {edge!r}")
        self.code = code
        self.detail = detail
        self.edge = edge  # for `grid_cut`: which side of the sheet's grid is outside the photo
        super().__init__(self.message("en") + (f" ({detail})" if detail else ""))

    def message(self, lang: str = "en") -> str:
        """The user-facing sentence in `lang` ("en" or "tr"), without the technical detail."""
        texts = MESSAGES[self.code]
        if self.code == "grid_cut" and self.edge:
            name = EDGES[self.edge]
            return GRID_CUT_EDGE.get(lang, GRID_CUT_EDGE["en"]).format(edge=name.get(lang, name["en"]))
        return texts.get(lang, texts["en"])

    def to_dict(self) -> dict[str, str]:
        d = {"error": self.message("en"), "code": self.code, "error_tr": self.message("tr")}
        if self.detail:
            d["detail"] = self.detail
        if self.edge:
            d["edge"] = self.edge
        return d
