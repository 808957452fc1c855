"""Knarr on the web (filled in once `companion.knarr` lands)."""

from __future__ import annotations

from .base import Adapter


class KnarrAdapter(Adapter):
    kind = "knarr"
