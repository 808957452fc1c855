"""The contract between the generic table routes and one game's rules engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from flask_babel import gettext as _

from ..storage import GameRecord


class GameRuleError(Exception):
    """An action the rules refuse, already translated for the page language."""

    def __init__(self, code: str, message: str, status: int = 409):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def form_int(fields: Mapping[str, Any], key: str, *, default: int | None = None, required: bool = True,
             limit: int | None = None) -> int | None:
    """A whole number from a form or JSON field, with the same translated 400s for every game.

    Empty → `default`, else a `missing_field` error when required, else None; `limit` bounds |value|.
    """
    value = fields.get(key)
    if value is None or value == "":
        if default is not None:
            return default
        if required:
            raise GameRuleError("missing_field", _("Please fill in %(field)s.", field=key), 400)
        return None
    if isinstance(value, bool):
        raise GameRuleError("bad_number", _("%(field)s must be a whole number.", field=key), 400)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise GameRuleError("bad_number", _("%(field)s must be a whole number.", field=key), 400) from None
    if limit is not None and abs(number) > limit:
        raise GameRuleError("bad_number", _("%(field)s must be between %(low)s and %(high)s.", field=key,
                                            low=-limit, high=limit), 400)
    return number


@dataclass(frozen=True)
class PrintJob:
    """What a table prints: a `printing.KINDS` kind, its query options, and who it is for.

    `seats` (1-based) put the table code and each seat in the QR of map sheets; `names`
    label the rows of a score sheet when the printable supports it.
    """

    kind: str
    options: dict[str, str]
    seats: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


class Adapter:
    """Per-game glue: routes parse input, the adapter calls the engine, nothing here holds rules."""

    kind: str = ""
    strict_actions: frozenset[str] = frozenset()

    def load(self, record: GameRecord) -> Any:
        raise NotImplementedError

    def phase(self, game: Any) -> str:
        raise NotImplementedError

    def is_strict(self, action: str) -> bool:
        return action in self.strict_actions

    def moves_digest(self, game: Any) -> str | None:
        """A fingerprint of the game's moves, without the notes (a phone joined, done drawing) that also bump
        the version: a strict action sent with the digest still current is not refused for a mere note."""
        return None

    def perform(self, game: Any, action: str, fields: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The complete new event list after `action`; raises GameRuleError and changes nothing."""
        raise NotImplementedError

    def action_result(self, game: Any, action: str, fields: Mapping[str, Any]) -> Any:
        return None

    def fragment(self, record: GameRecord, game: Any) -> str:
        raise NotImplementedError

    def page(self, record: GameRecord, game: Any) -> str:
        raise NotImplementedError

    def after_action_url(self, record: GameRecord, action: str, fields: Mapping[str, Any]) -> str:
        return url_for("tables.table", code=record.code)

    def visit_events(self, game: Any, host: bool) -> list[dict[str, Any]] | None:
        """The events to store when a phone opens the table (`host`: the phone that made it); None = nothing."""
        return None

    def print_job(self, record: GameRecord, args: Mapping[str, str]) -> PrintJob:
        raise NotImplementedError
