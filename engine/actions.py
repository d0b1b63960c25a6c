"""What a player does: attack, throw in, beat, transfer (or show a trump), take, pass.

Actions are small frozen values that round-trip through text, and print as it::

    >>> str(parse_action("beat 7h with 8h").card)
    '8h'
    >>> str(Attack.of("6s", "6h"))
    'attack 6h 6s'
    >>> Attack.of("6s", "6h")
    parse_action('attack 6h 6s')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .cards import CARDS, Card, cards_of, mask_of
from .pickling import pickle_by_fields

__all__ = [
    "Action",
    "Attack",
    "Beat",
    "Pass",
    "ShowTrump",
    "Take",
    "ThrowIn",
    "Transfer",
    "parse_action",
]


class _Printed:
    """What every action shares: its ``repr`` is its text form, as ``parse_action`` reads
    it (``parse_action('take')``), not its fields."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Attack(_Printed):
    """The attacker leads one card, or several cards of one rank."""

    cards: tuple[Card, ...]
    mask: int = field(init=False, repr=False, compare=False)  # the cards as a bit mask

    @property
    def verb(self) -> str:
        return "attack"

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("an attack needs at least one card")
        ordered = tuple(sorted(set(self.cards)))
        if len(ordered) != len(self.cards):
            raise ValueError("an attack cannot play the same card twice")
        object.__setattr__(self, "cards", ordered)
        object.__setattr__(self, "mask", mask_of(ordered))

    @classmethod
    def of(cls, *cards: str | Card) -> Attack:
        return cls(tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards))

    def __str__(self) -> str:
        return "attack " + " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True, repr=False)
class ThrowIn(_Printed):
    """Add a card whose rank is already on the table."""

    card: Card

    @property
    def verb(self) -> str:
        return "throw"

    def __str__(self) -> str:
        return f"throw {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Beat(_Printed):
    """The defender covers the attack card ``target`` with ``card``."""

    card: Card
    target: Card

    @property
    def verb(self) -> str:
        return "beat"

    def __str__(self) -> str:
        return f"beat {self.target} with {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Transfer(_Printed):
    """The defender adds a card of the attack's rank and passes the attack on."""

    card: Card

    @property
    def verb(self) -> str:
        return "transfer"

    def __str__(self) -> str:
        return f"transfer {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class ShowTrump(_Printed):
    """The defender shows (keeps) a trump of the attack's rank and passes the attack on."""

    card: Card

    @property
    def verb(self) -> str:
        return "show"

    def __str__(self) -> str:
        return f"show {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Take(_Printed):
    """The defender gives up and will pick up every card of the bout."""

    @property
    def verb(self) -> str:
        return "take"

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Printed):
    """An attacker is done adding cards (all is beaten, or the defender takes)."""

    @property
    def verb(self) -> str:
        return "pass"

    def __str__(self) -> str:
        return "pass"


Action = Attack | ThrowIn | Beat | Transfer | ShowTrump | Take | Pass


_SINGLE_CARD: dict[str, type[ThrowIn | Transfer | ShowTrump]] = {
    "throw": ThrowIn,
    "transfer": Transfer,
    "show": ShowTrump,
}


def parse_action(text: str) -> Action:
    """Parse the text form of an action (what ``str(action)`` gives)."""
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "attack" and args:
            return Attack.of(*args)
        if verb == "beat" and len(args) == 3 and args[1].lower() == "with":
            return Beat(Card.parse(args[2]), Card.parse(args[0]))
        if len(args) == 1 and verb in _SINGLE_CARD:
            return _SINGLE_CARD[verb](Card.parse(args[0]))
        if not args and verb in ("take", "pass"):
            return Take() if verb == "take" else Pass()
    except ValueError as exc:
        raise ValueError(f"not an action: {_quote(text)} ({exc})") from None
    raise ValueError(f"not an action: {_quote(text)}")


def _quote(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut short: input may be hostile and huge."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# Interned actions: legal-move generation hands out these shared values instead of
# building new objects on every call (the AI asks for legal moves millions of times).
TAKE: Final = Take()
PASS: Final = Pass()
THROW_INS: Final[tuple[ThrowIn, ...]] = tuple(ThrowIn(c) for c in CARDS)
TRANSFERS: Final[tuple[Transfer, ...]] = tuple(Transfer(c) for c in CARDS)
SHOWS: Final[tuple[ShowTrump, ...]] = tuple(ShowTrump(c) for c in CARDS)
BEATS: Final[tuple[tuple[Beat, ...], ...]] = tuple(tuple(Beat(c, t) for t in CARDS) for c in CARDS)
SINGLE_ATTACKS: Final[tuple[Attack, ...]] = tuple(Attack((c,)) for c in CARDS)
_ATTACKS: Final[dict[int, Attack]] = {}


def attack_of_mask(mask: int) -> Attack:
    attack = _ATTACKS.get(mask)
    if attack is None:
        attack = _ATTACKS[mask] = Attack(cards_of(mask))
    return attack


pickle_by_fields(Attack, ThrowIn, Beat, Transfer, ShowTrump, Take, Pass)
