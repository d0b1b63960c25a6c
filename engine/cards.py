"""Cards, suits, ranks and the bit-mask card sets the engine computes with.

A card is a small frozen value that round-trips through text (``Card.parse("Th")``,
``str(card) == "Th"``). Each of the 52 cards has an index ``suit * 13 + rank - 2`` and a
bit ``1 << index``; a set of cards (a hand, the stock's contents, the discard pile) is an
``int`` mask of those bits, which keeps the hot path of the engine cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from .pickling import pickle_by_fields

__all__ = [
    "BEATERS",
    "CARDS",
    "RANK_MASKS",
    "SAME_RANK",
    "SUIT_MASKS",
    "Card",
    "Suit",
    "beaters_mask",
    "bits",
    "cards_of",
    "deck_mask",
    "mask_of",
    "rank_text",
]


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.name.lower()):
                return suit
        raise ValueError(f"unknown suit {text[:8]!r}")


_RANK_TEXT = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_TEXT_RANK = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def rank_text(rank: int) -> str:
    """The one-character name of a rank: 2-9, T, J, Q, K, A."""
    return _RANK_TEXT.get(rank, str(rank))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ranks run 2..14 (J=11, Q=12, K=13, A=14)."""

    index: int = field(init=False, repr=False, compare=True)
    rank: int = field(compare=False)
    suit: Suit = field(compare=False)
    bit: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise ValueError(f"rank {self.rank} is not between 2 and 14")
        object.__setattr__(self, "suit", Suit(self.suit))
        object.__setattr__(self, "index", self.suit * 13 + self.rank - 2)
        object.__setattr__(self, "bit", 1 << self.index)

    @staticmethod
    def from_index(index: int) -> Card:
        return CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``"6h"``, ``"Th"``, ``"10h"`` or ``"Q♠"`` (case-insensitive suit)."""
        text = text.strip()
        if not 2 <= len(text) <= 3:
            raise ValueError(f"not a card: {text[:8]!r}")
        rank_part, suit_part = text[:-1].upper(), text[-1]
        rank = _TEXT_RANK.get(rank_part)
        if rank is None:
            if not (rank_part.isascii() and rank_part.isdigit()) or not 2 <= int(rank_part) <= 9:
                raise ValueError(f"not a card: {text[:8]!r}")
            rank = int(rank_part)
        return CARDS[Suit.parse(suit_part) * 13 + rank - 2]

    def __str__(self) -> str:
        return rank_text(self.rank) + self.suit.letter

    @property
    def pretty(self) -> str:
        return ("10" if self.rank == 10 else rank_text(self.rank)) + self.suit.symbol


CARDS: Final[tuple[Card, ...]] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))
SUIT_MASKS: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
RANK_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 13 + r - 2) for s in range(4)) if r >= 2 else 0 for r in range(15)
)

SAME_RANK: Final[tuple[int, ...]] = tuple(RANK_MASKS[card.rank] for card in CARDS)  # by card index


def bits(mask: int) -> Iterator[int]:
    """The card indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, in index order."""
    # One cached lookup per suit's 13-bit slice (an empty slice holds no cards, and adding
    # an empty tuple costs nothing): the engine calls this for every draw and every bout,
    # and a loop over shifted ints costs double.
    low, high = mask & 0x3FFFFFF, mask >> 26
    try:
        return (
            _CLUBS[low & 0x1FFF]
            + _DIAMONDS[low >> 13]
            + _HEARTS[high & 0x1FFF]
            + _SPADES[high >> 13]
        )
    except KeyError:
        return (
            _slice(0, low & 0x1FFF)
            + _slice(1, low >> 13)
            + _slice(2, high & 0x1FFF)
            + _slice(3, high >> 13)
        )


def _slice(suit: int, part: int) -> tuple[Card, ...]:
    """The cards of one suit's slice of a mask, cached as slices are met."""
    base = suit * 13
    cards = _SUIT_SLICES[suit][part] = tuple(CARDS[base + i] for i in bits(part))
    return cards


_SUIT_SLICES: tuple[dict[int, tuple[Card, ...]], ...] = ({}, {}, {}, {})
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = _SUIT_SLICES


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def deck_mask(size: int) -> int:
    """The cards of a 24-, 36- or 52-card deck."""
    return _DECKS[size]


_DECKS = {
    size: sum(RANK_MASKS[rank] for rank in range(low, 15))
    for size, low in ((24, 9), (36, 6), (52, 2))
}


def _beaters_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for trump in range(4):
        row = []
        for card in CARDS:
            same_suit_higher = SUIT_MASKS[card.suit] & ~((1 << (card.index + 1)) - 1)
            row.append(same_suit_higher | (SUIT_MASKS[trump] if card.suit != trump else 0))
        table.append(tuple(row))
    return tuple(table)


# ``BEATERS[trump][target]``: every card (of all 52) that beats the card of index
# ``target`` (``beaters_mask``), as a table for the move generator and the checks.
BEATERS: Final = _beaters_table()


def beaters_mask(trump: Suit | int, target_index: int) -> int:
    """Every card (of all 52) that beats the card with index ``target_index``."""
    return BEATERS[trump][target_index]


pickle_by_fields(Card)
