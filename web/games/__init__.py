"""Game adapters by kind: the table routes look up `ADAPTERS[record.kind]`."""

from __future__ import annotations

from .base import Adapter, GameRuleError, PrintJob
from .cartographers import CartographersAdapter
from .knarr import KnarrAdapter

ADAPTERS: dict[str, Adapter] = {
    "cartographers": CartographersAdapter(),
    "knarr": KnarrAdapter(),
}

__all__ = ["ADAPTERS", "Adapter", "GameRuleError", "PrintJob"]
