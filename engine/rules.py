"""The table's rules: one frozen value holding every option of RULES.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Final

from .pickling import pickle_by_fields

__all__ = ["DECK_SIZES", "HAND_SIZE", "Rules", "RulesError", "ThrowIn"]

HAND_SIZE: Final = 6
DECK_SIZES: Final = (24, 36, 52)  # the decks RULES.md allows
MAX_ATTACKS: Final = 6
FIRST_BOUT_MAX: Final = 5  # under "first bout 5"
MAX_PLAYERS: Final = 6


class RulesError(ValueError):
    """Rules that cannot be played (e.g. a deck too small to deal to everyone)."""


class ThrowIn(StrEnum):
    ALL = "all"
    NEIGHBOURS = "neighbours"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a game. The defaults are those of RULES.md (Podkidnoy, 36 cards)."""

    players: int = 2
    deck_size: int = 36
    throw_in: ThrowIn = ThrowIn.ALL
    first_bout_five: bool = True
    transfer: bool = False
    transfer_show_trump: bool = False
    durak_defends_first: bool = False

    def __post_init__(self) -> None:
        # Typed code passes a ThrowIn (and compiled with mypyc, the class refuses a str before
        # this runs); untyped callers of the pure engine may still pass its text.
        object.__setattr__(self, "throw_in", ThrowIn(self.throw_in))
        if not 2 <= self.players <= MAX_PLAYERS:
            raise RulesError(f"Durak is played by 2 to 6 players, not {self.players}")
        if self.deck_size not in DECK_SIZES:
            raise RulesError(f"the deck has 24, 36 or 52 cards, not {self.deck_size}")
        if self.players * HAND_SIZE > self.deck_size:
            raise RulesError(
                f"a {self.deck_size}-card deck cannot deal {HAND_SIZE} cards to "
                f"{self.players} players (at most {self.deck_size // HAND_SIZE})"
            )
        if self.transfer_show_trump and not self.transfer:
            raise RulesError("transfer by showing a trump needs the transfer variant")

    def bout_max(self, *, first: bool) -> int:
        """The most attack cards a bout may hold, whatever the defender holds: 5 in the
        game's first bout under "first bout 5", else 6."""
        return FIRST_BOUT_MAX if first and self.first_bout_five else MAX_ATTACKS

    @property
    def summary(self) -> str:
        """A short human summary, e.g. ``"36 cards, throw-in all, transfer"``."""
        parts = [f"{self.deck_size} cards", f"throw-in {self.throw_in.value}"]
        if self.first_bout_five:
            parts.append("first bout 5")
        if self.transfer:
            parts.append("transfer (show trump)" if self.transfer_show_trump else "transfer")
        if self.durak_defends_first:
            parts.append("Durak defends first")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["throw_in"] = self.throw_in.value
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Build rules from a plain mapping, refusing unknown keys and wrong types."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a mapping")
        unknown = set(data) - set(_FIELD_TYPES)
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(sorted(map(str, unknown)))}")
        for key, value in data.items():
            expected = _FIELD_TYPES[key]
            if type(value) is not expected:
                raise RulesError(f"rules option {key!r} must be {expected.__name__}")
        options = dict(data)
        try:
            if "throw_in" in options:  # the field holds the enum: the text is read here
                options["throw_in"] = ThrowIn(options["throw_in"])
            return cls(**options)
        except ValueError as exc:
            raise RulesError(str(exc)) from None


_FIELD_TYPES: dict[str, type] = {
    "players": int,
    "deck_size": int,
    "throw_in": str,
    "first_bout_five": bool,
    "transfer": bool,
    "transfer_show_trump": bool,
    "durak_defends_first": bool,
}

pickle_by_fields(Rules)
