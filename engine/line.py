"""A position as plain values, and what such a position cannot be.

``Line`` is what ``engine.notation`` reads and writes and what ``engine.position.Position``
is built from and turned back into: a record of its own, so that the notation needs nothing
of the class that keeps a position, and that class can print itself through the notation
with no import circle.

``Line.problem`` checks what a position can be, as far as the position itself shows it:
every card of the deck exactly once, a table no fuller than the bout allows, defences that
beat their attack, no more cards to beat than the defender holds, nobody out while the stock
lasts, six cards in every hand when a bout is to start with a stock, and so on (the
notation's reader has checked that the hands and seats exist). It does not check that some
game leads there from a deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, SAME_RANK, Card, Suit, beaters_mask, cards_of, deck_mask
from .events import GameResult
from .phase import Phase
from .pickling import pickle_by_fields
from .rules import HAND_SIZE, Rules

__all__ = ["History", "Line"]


@dataclass(frozen=True, slots=True)
class Line:
    """A position's fields as its line of text holds them, in the engine's terms (card
    indices and masks, named as ``Position`` names them)."""

    rules: Rules
    hands: tuple[int, ...]
    known: tuple[int, ...]  # per seat: the cards of its hand everyone knows it holds
    stock: tuple[int, ...]  # from the bottom (the face-up trump card) to the top
    trump_card: int
    discard: int
    attacks: tuple[int, ...]
    defences: tuple[int, ...]  # -1 while the attack card beside it is unbeaten
    attacker: int
    defender: int
    leader: int
    dealer: int
    phase: Phase
    bout_max: int
    defender_start: int
    taking: bool
    passed: int
    shown: int
    throwers: int
    places: tuple[int, ...]
    result: GameResult | None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def trump(self) -> Suit:
        return CARDS[self.trump_card].suit

    @property
    def limit(self) -> int:
        return min(self.bout_max, self.defender_start)

    def problem(self) -> str | None:
        """Why this position cannot occur in a game, or None (see the module's docstring)."""
        stock = [CARDS[i] for i in reversed(self.stock)]
        discard = list(cards_of(self.discard))
        for check in (_cards_problem, _bout_problem, _seats_problem, _end_problem):
            problem = check(self, stock, discard)
            if problem is not None:
                return problem
        return None


@dataclass(frozen=True, slots=True)
class History:
    """What a game's line holds beyond its position: the actions played so far, and the
    positions bouts started from that the repetition rule counts (``seen``: each
    ``(attacker, cap, *hands)``)."""

    moves: int
    seen: tuple[tuple[int, ...], ...]


def _cards_problem(line: Line, stock: list[Card], discard: list[Card]) -> str | None:
    """Every card of the deck exactly once; the trump card where it must be."""
    places: dict[Card, list[str]] = {}
    for seat, hand in enumerate(line.hands):
        for card in cards_of(hand):
            places.setdefault(card, []).append(f"seat {seat}'s hand")
    for name, cards in (
        ("the stock", stock),
        ("the table", [CARDS[i] for i in line.attacks + line.defences if i >= 0]),
        ("the discard", discard),
    ):
        for card in cards:
            places.setdefault(card, []).append(name)
    deck = deck_mask(line.rules.deck_size)
    for card, where in places.items():
        if not deck & card.bit:
            return f"{card} is not in the {line.rules.deck_size}-card deck"
        if len(where) > 1:
            return f"{card} is in two places ({' and '.join(where)})"
    missing = cards_of(deck & ~sum(card.bit for card in places))
    if missing:
        return f"{' '.join(map(str, missing))} of the {line.rules.deck_size}-card deck is nowhere"
    trump = CARDS[line.trump_card]
    if not deck & trump.bit:
        return f"the trump card {trump} is not in the deck"
    if stock and stock[-1] != trump:
        return f"the trump card {trump} is not the stock's last card"
    if len(stock) > line.rules.deck_size - HAND_SIZE * line.players:
        return "the stock holds more cards than are left after the deal"
    return None


def _bout_problem(line: Line, stock: list[Card], discard: list[Card]) -> str | None:
    """The table and the bout's state fit together (at the end they are left as they
    were when the game ended)."""
    if line.phase is Phase.OVER:
        return None
    rules = line.rules
    if line.bout_max == 5 and not rules.first_bout_five:
        return "a cap of 5 needs the first-bout-five rule"
    if len(line.attacks) > line.limit:
        return f"{len(line.attacks)} attack cards, more than the bout allows ({line.limit})"
    trump = line.trump
    for attack, defence in zip(line.attacks, line.defences, strict=True):
        if defence >= 0 and not beaters_mask(trump, attack) >> defence & 1:
            return f"{CARDS[defence]} does not beat {CARDS[attack]}"
    if line.attacks:
        first = line.attacks[0]
        ranks = SAME_RANK[first]
        for index in line.attacks + line.defences:
            if index >= 0:
                ranks |= SAME_RANK[index]
        if any(not ranks >> a & 1 for a in line.attacks):
            return "an attack card of a rank that is not on the table"
    unbeaten = line.defences.count(-1)
    phase = line.phase
    if phase is Phase.LEAD and (line.attacks or line.taking or line.passed or line.shown):
        return "a bout waiting for its lead has nothing on the table, no take, no pass"
    if phase is Phase.OPEN and not line.attacks:
        return "an open bout has cards on the table"
    if line.taking and not unbeaten:
        return "the defender takes with nothing left to beat"
    if not line.taking and unbeaten > line.hands[line.defender].bit_count():
        return "more cards to beat than the defender holds"
    if line.shown and not rules.transfer_show_trump:
        return "a trump shown without the show-trump rule"
    if line.passed & ~line.throwers:
        return "a seat passed that may not add cards"
    if line.throwers >> line.defender & 1:
        return "the defender cannot add cards to their own bout"
    if phase is Phase.LEAD and stock:
        short = [s for s in range(line.players) if line.hands[s].bit_count() < HAND_SIZE]
        if short:
            return f"seat {short[0]} holds fewer than {HAND_SIZE} cards with a stock to draw"
    return None


def _seats_problem(line: Line, stock: list[Card], discard: list[Card]) -> str | None:
    """Who is in, who attacks and defends."""
    places = line.places
    if line.phase is Phase.OVER:
        return None
    if stock and any(places):
        return "a player is out while the stock lasts"
    if line.attacker == line.defender:
        return "the attacker defends too"
    if places[line.attacker] or places[line.defender] or places[line.leader]:
        return "an attacker, defender or leader who is out of the game"
    if line.leader != line.attacker and (line.phase is Phase.LEAD or not line.rules.transfer):
        return "the attacker led the bout unless a transfer passed it on"
    if line.throwers & sum(1 << s for s in range(line.players) if places[s]):
        return "a seat out of the game may add cards"
    for seat in range(line.players):
        if places[seat] and line.hands[seat]:
            return f"seat {seat} is out but holds cards"
    if sum(1 for p in places if not p) < 2:
        return "fewer than two players in a game that goes on"
    for seat in _between(line.attacker, line.defender, line.players):
        if not places[seat] and (stock or line.hands[seat]):
            return f"seat {seat}, between the attacker and the defender, is in play"
    return None


def _between(start: int, end: int, players: int) -> list[int]:
    return [(start + k) % players for k in range(1, (end - start) % players)]


def _end_problem(line: Line, stock: list[Card], discard: list[Card]) -> str | None:
    """A result only at the end, and one that fits the places."""
    over = line.phase is Phase.OVER
    if over != (line.result is not None):
        return "the phase is over exactly when there is a result"
    if not over:
        return None
    if not all(line.places):
        return "a finished game gives every seat a place"
    assert line.result is not None
    durak = line.result.durak
    if durak is not None:
        holders = [s for s in range(line.players) if line.hands[s]]
        if holders != [durak] or stock or line.places[durak] != line.players:
            return "the Durak is the last player holding cards, in the last place"
    return None


pickle_by_fields(Line, History)
