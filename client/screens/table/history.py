"""What happened in this game, as the window saw it: the bouts, a log in plain words, and
the game's numbers. Pure: it reads the host's events (already trimmed for our seat) and
keeps no pygame and no words, only what happened and the values the words need
(``narrate.line_text``), so the log shows in whatever language the player picks.

Everything here is public knowledge at the table: the cards led, thrown in, beaten and
taken, how many each seat drew, and which cards went to the discard pile. That is also
how the end of a game can show the Durak's cards: every card that is in no pile and in
nobody else's hand is in theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import (
    Attacked,
    BoutStarted,
    Card,
    Covered,
    Discarded,
    Drew,
    Event,
    GameEnded,
    PickedUp,
    Suit,
    ThrewIn,
    Transferred,
    TrumpTurned,
    WentOut,
)

__all__ = ["Bout", "History", "Line"]


@dataclass
class Bout:
    """One bout as it was played: who attacked whom, each attack card and what beat it,
    and how it ended ("beaten", "taken" or "" while it is still on)."""

    number: int
    attacker: int
    defender: int
    pairs: list[tuple[Card, Card | None]] = field(default_factory=list)
    end: str = ""
    taker: int = -1

    def cover(self, target: Card, card: Card) -> None:
        self.pairs = [(a, card if a == target else d) for a, d in self.pairs]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the log: what happened (``kind``: "bout", "led", "beat"...) and what
    fills in its words (``narrate.line_text``)."""

    kind: str
    seat: int = -1
    other: int = -1
    cards: tuple[Card, ...] = ()
    n: int = 0


class History:
    def __init__(self, players: int) -> None:
        self.players = players
        self.trump: Suit | None = None
        self.bouts: list[Bout] = []
        self.lines: list[Line] = []
        self.discarded: set[Card] = set()
        self.taken: set[Card] = set()  # the cards picked up from the table, by anyone
        self.trumps: set[Card] = set()  # trumps led, thrown in, laid in a transfer or beaten with

    @property
    def current(self) -> Bout | None:
        return self.bouts[-1] if self.bouts else None

    def last_finished(self, end: str | None = None) -> Bout | None:
        """The latest bout that is over (and ended as ``end``, if given)."""
        for bout in reversed(self.bouts):
            if bout.end and (end is None or bout.end == end):
                return bout
        return None

    @property
    def cards_taken(self) -> int:
        """How many of the deck's cards were picked up (a card taken twice counts once, as
        the end's "N different cards taken" says)."""
        return len(self.taken)

    @property
    def trumps_played(self) -> int:
        """How many of the deck's trumps were played (a card taken and played again counts
        once: the deck has only so many)."""
        return len(self.trumps)

    def _played(self, cards: tuple[Card, ...]) -> None:
        self.trumps.update(c for c in cards if c.suit == self.trump)

    def add(self, event: Event) -> None:
        """Take in one event, in the order the host told it."""
        bout = self.current
        match event:
            case TrumpTurned(card, _):
                self.trump = card.suit
            case BoutStarted(attacker, defender, _):
                self.bouts.append(Bout(len(self.bouts) + 1, attacker, defender))
                self.lines.append(Line("bout", attacker, defender, n=len(self.bouts)))
            case Attacked(seat, cards) if bout is not None:
                bout.pairs += [(c, None) for c in cards]
                self._played(cards)
                self.lines.append(Line("led", seat, cards=cards))
            case ThrewIn(seat, card) if bout is not None:
                bout.pairs.append((card, None))
                self._played((card,))
                self.lines.append(Line("threw_in", seat, cards=(card,)))
            case Covered(seat, card, target) if bout is not None:
                bout.cover(target, card)
                self._played((card,))
                self.lines.append(Line("beat", seat, cards=(card, target)))
            case Transferred(seat, card, to, shown) if bout is not None:
                if not shown:
                    bout.pairs.append((card, None))
                    self._played((card,))
                bout.attacker, bout.defender = seat, to
                kind = "showed" if shown else "transferred"
                self.lines.append(Line(kind, seat, to, cards=(card,)))
            case PickedUp(seat, cards):
                self.taken.update(cards)
                if bout is not None:
                    bout.end, bout.taker = "taken", seat
                self.lines.append(Line("took", seat, n=len(cards)))
            case Discarded(cards):
                self.discarded.update(cards)
                if bout is not None:
                    bout.end = "beaten"
                self.lines.append(Line("beaten", n=len(cards)))
            case Drew(seat, count, _) if count:
                self.lines.append(Line("drew", seat, n=count))
            case WentOut(seat, place):
                self.lines.append(Line("out", seat, n=place))
            case GameEnded(result):
                durak = -1 if result.durak is None else result.durak
                self.lines.append(Line("durak" if durak >= 0 else "draw", durak))

    def durak_cards(self, deck: list[Card], discard_size: int, elsewhere: set[Card]) -> list[Card]:
        """At the end: the cards the Durak is left with, if the window saw every card go to
        the discard pile (``discard_size`` is the pile as the host counts it); ``elsewhere``:
        cards known to be anywhere else (our hand, the table). Empty if it cannot know."""
        if len(self.discarded) != discard_size:
            return []  # we came in late (a reconnect): some discards were never seen
        return [c for c in deck if c not in self.discarded and c not in elsewhere]
