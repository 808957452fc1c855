"""Photo → 11×11 grid: `read_sheet(photo) -> SheetReading`; failures raise `vision.errors.PhotoError`.

Importing the package is cheap; OpenCV loads on the first `read_sheet` call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.reading import SheetReading

__all__ = ["read_sheet", "SheetReading"]


def read_sheet(source, side: str | None = None, *, overlay: bool = True,
               names: dict[int, str] | None = None) -> SheetReading:
    """See `vision.reading.read_sheet`."""
    from vision.reading import read_sheet as _read

    return _read(source, side, overlay=overlay, names=names)


def __getattr__(name: str):
    if name == "SheetReading":
        from vision.reading import SheetReading

        return SheetReading
    raise AttributeError(name)
