"""Game setup: seats, first player, ship side, Artifacts, and the setup sheet shown before play.

A `KnarrSetup` is fully resolved: every random choice (first player, ship side "random", the
random Artifact) is drawn from the seed once, by `new_setup`, and stored as a plain value. The
stored setup plus the event list is therefore the whole game, and replaying it never depends on
how the choices were made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .data import (
    ARTIFACT_BY_ID,
    ARTIFACT_VARIANT_RULE,
    ARTIFACTS,
    DECK_SIZE_BY_PLAYERS,
    MEAD_CUP,
    PLAYER_COUNTS,
    SHIP_COLOUR_HEX,
    SHIP_COLOUR_NAMES,
    SHIP_COLOURS,
    SHIP_SIDE_NAMES,
    SHIP_SIDES,
    START_CREW,
    START_HAND,
    TOKEN_START,
    deck_composition,
)
from .errors import KnarrError

MAX_NAME_LENGTH = 40
ARTIFACT_VARIANTS: tuple[str, ...] = ("off", "random", "random_with_mead_cup")
SHIP_SIDE_CHOICES: tuple[str, ...] = ("normal", "advanced", "random")


def seeded_rng(seed: int, purpose: str) -> random.Random:
    """An independent random stream per purpose, so adding one draw never shifts another.

    String seeds are hashed with SHA-512 by `random`, so the stream is the same on every
    machine and every run (unlike `hash()`).
    """
    return random.Random(f"knarr:{seed}:{purpose}")


@dataclass(frozen=True)
class PlayerSeat:
    name: str
    colour: str  # ship colour: white, beige, brown or black


@dataclass(frozen=True)
class KnarrSetup:
    """Everything fixed before the first turn; seats are listed clockwise."""

    players: tuple[PlayerSeat, ...]
    first_player: int
    seed: int
    ship_side: str = "normal"
    artifacts: tuple[str, ...] = ()
    virtual_deck: bool = False

    def __post_init__(self) -> None:
        _check_setup(self)

    @property
    def player_count(self) -> int:
        return len(self.players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "colour": p.colour} for p in self.players],
            "first_player": self.first_player,
            "seed": self.seed,
            "ship_side": self.ship_side,
            "artifacts": list(self.artifacts),
            "virtual_deck": self.virtual_deck,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KnarrSetup:
        """Rebuild a stored setup; anything malformed raises KnarrError (code bad_setup or finer)."""
        if not isinstance(data, Mapping):
            raise KnarrError("bad_setup", field="setup")
        try:
            raw_players = data["players"]
            players = tuple(PlayerSeat(p["name"], p["colour"]) for p in raw_players)
            first = data["first_player"]
            seed = data["seed"]
            side = data.get("ship_side", "normal")
            artifacts = tuple(data.get("artifacts", ()))
            virtual = data.get("virtual_deck", False)
        except (KeyError, TypeError) as exc:
            raise KnarrError("bad_setup", field=str(exc).strip("'")) from None
        if not isinstance(virtual, bool):
            raise KnarrError("bad_setup", field="virtual_deck")
        return cls(players, first, seed, side, artifacts, virtual)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_setup(setup: KnarrSetup) -> None:
    if not isinstance(setup.players, tuple) or len(setup.players) not in PLAYER_COUNTS:
        count = len(setup.players) if isinstance(setup.players, Sequence) else setup.players
        raise KnarrError("bad_player_count", count=count)
    names = [p.name for p in setup.players]
    if any(not isinstance(n, str) or not n.strip() or len(n) > MAX_NAME_LENGTH or n != n.strip()
           for n in names) or len({n.casefold() for n in names}) != len(names):
        raise KnarrError("bad_player_name", max=MAX_NAME_LENGTH)
    seen: set[str] = set()
    for p in setup.players:
        if not isinstance(p.colour, str) or p.colour not in SHIP_COLOURS or p.colour in seen:
            raise KnarrError("bad_colour", colour=p.colour)
        seen.add(p.colour)
    if not _is_int(setup.first_player) or not 0 <= setup.first_player < len(setup.players):
        raise KnarrError("bad_first_player", last=len(setup.players) - 1)
    if not _is_int(setup.seed):
        raise KnarrError("bad_setup", field="seed")
    if not isinstance(setup.ship_side, str) or setup.ship_side not in SHIP_SIDES:
        raise KnarrError("bad_ship_side", side=setup.ship_side)
    if (not isinstance(setup.artifacts, tuple) or not all(isinstance(a, str) for a in setup.artifacts)
            or len(set(setup.artifacts)) != len(setup.artifacts)):
        raise KnarrError("unknown_artifact", artifact=",".join(map(str, setup.artifacts)))
    for art in setup.artifacts:
        if art not in ARTIFACT_BY_ID:
            raise KnarrError("unknown_artifact", artifact=art)
    if not isinstance(setup.virtual_deck, bool):
        raise KnarrError("bad_setup", field="virtual_deck")


def suggested_artifact_variant(player_count: int) -> str:
    """The rulebook's advice: one random Artifact, plus the Mead Cup with 2 players."""
    return "random_with_mead_cup" if player_count == 2 else "random"


def draw_artifacts(variant: str, rng: random.Random) -> tuple[str, ...]:
    """Resolve an Artifact variant to Artifact ids.

    With "random_with_mead_cup" the Mead Cup is placed first and the random one is drawn from
    the other six (as Board Game Arena does), so the two are never the same card.
    """
    if variant == "off":
        return ()
    if variant == "random":
        return (rng.choice(ARTIFACTS).id,)
    if variant == "random_with_mead_cup":
        return (MEAD_CUP, rng.choice([a for a in ARTIFACTS if a.id != MEAD_CUP]).id)
    raise KnarrError("bad_artifact_variant", variant=variant)


def new_setup(
    names: Sequence[str],
    seed: int,
    *,
    colours: Sequence[str] | None = None,
    first_player: int | None = None,
    ship_side: str = "normal",
    artifact_variant: str = "off",
    artifacts: Sequence[str] | None = None,
    virtual_deck: bool = False,
) -> KnarrSetup:
    """Build a resolved setup from the new-game form.

    `names` are in clockwise seat order. Missing colours are given in box order. The first player
    is drawn from the seed unless chosen (the Destiny tokens). `ship_side` may be "random" (one
    side for everybody). `artifacts`, when given, are the Artifacts the table actually revealed
    and override `artifact_variant`.
    """
    if not isinstance(names, Sequence) or isinstance(names, str) or len(names) not in PLAYER_COUNTS:
        raise KnarrError("bad_player_count", count=len(names) if isinstance(names, Sequence) else names)
    if not _is_int(seed):
        raise KnarrError("bad_setup", field="seed")
    names = [n.strip() if isinstance(n, str) else n for n in names]
    if colours is None:
        colours = SHIP_COLOURS[: len(names)]
    if len(colours) != len(names):
        raise KnarrError("bad_setup", field="colours")
    if first_player is None:
        first_player = seeded_rng(seed, "first_player").randrange(len(names))
    if ship_side == "random":
        ship_side = seeded_rng(seed, "ship_side").choice(sorted(SHIP_SIDES))
    elif ship_side not in SHIP_SIDES:
        raise KnarrError("bad_ship_side", side=ship_side)
    chosen = (tuple(artifacts) if artifacts is not None
              else draw_artifacts(artifact_variant, seeded_rng(seed, "artifacts")))
    return KnarrSetup(
        players=tuple(PlayerSeat(n, c) for n, c in zip(names, colours, strict=True)),
        first_player=first_player,
        seed=seed,
        ship_side=ship_side,
        artifacts=chosen,
        virtual_deck=virtual_deck,
    )


def setup_sheet(setup: KnarrSetup) -> dict[str, Any]:
    """What the table must lay out, as JSON: deck composition, starts, ship side, Artifacts.

    Texts are given in both languages so the screen can switch without another request.
    """
    n = setup.player_count
    return {
        "player_count": n,
        "seat_order": [
            {"seat": i, "name": p.name, "colour": p.colour, "colour_hex": SHIP_COLOUR_HEX[p.colour],
             "colour_names": dict(SHIP_COLOUR_NAMES[p.colour]),
             "turn_position": (i - setup.first_player) % n + 1}
            for i, p in enumerate(setup.players)
        ],
        "first_player": setup.first_player,
        "viking_deck": {
            "size": DECK_SIZE_BY_PLAYERS[n],
            "remove_marks": [m for m in (3, 4) if m > n],
            "composition": deck_composition(n),
        },
        "player_start": {
            "recruit": TOKEN_START["recruit"],
            "bracelet": TOKEN_START["bracelet"],
            "crew": START_CREW,
            "crew_rule": {"en": "2 Vikings of different colours, face up in the Crew Zone",
                          "tr": "Tayfa Bölgesine açık olarak farklı renkten 2 Viking"},
            "hand": START_HAND,
            "vp": 0,
            "reputation": 0,
        },
        "ship_side": {
            "side": setup.ship_side,
            "names": dict(SHIP_SIDE_NAMES[setup.ship_side]),
            "trade_columns": list(SHIP_SIDES[setup.ship_side]),
        },
        "artifacts": [
            {"id": a, "name": {"en": ARTIFACT_BY_ID[a].name_en, "tr": ARTIFACT_BY_ID[a].name_tr},
             "effect": {"en": ARTIFACT_BY_ID[a].effect_en, "tr": ARTIFACT_BY_ID[a].effect_tr}}
            for a in setup.artifacts
        ],
        "artifact_rule": dict(ARTIFACT_VARIANT_RULE) if setup.artifacts else None,
        "suggested_artifact_variant": suggested_artifact_variant(n),
        "virtual_deck": setup.virtual_deck,
    }
