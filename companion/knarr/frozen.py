"""A faster `dataclasses.replace` for the engine's frozen state records.

Replaying a stored virtual-deck game makes about 70 state copies per event, and the standard
`dataclasses.replace` (which re-runs `__init__` with every field) was half of the replay time. The
state records (`GameState`, `PlayerState`, `DeckState`, `TurnState`) are frozen dataclasses with no
`__post_init__` and no slots, so a copy of the instance dict with the changed fields is the same
value. Unknown field names are still refused, as `dataclasses.replace` does.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    fields = type(obj).__dataclass_fields__  # type: ignore[attr-defined]
    unknown = changes.keys() - fields.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    return new
