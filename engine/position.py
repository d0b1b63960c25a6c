"""A position: where every card is and where the bout stands, apart from the play.

A position lists every seat's legal actions itself (``legal_actions``, the move
generator): a search calls it for every move, and a method is one call where a module
function behind a method was two. ``engine.legality`` decides whether one action may be
done and why not, and ``engine.notation`` reads and writes a position as one line of text;
neither needs more, so both depend on this module and nothing above it. The play,
``engine.state.GameState``, is a position that also counts the actions and the repeated
positions and changes itself in place by ``apply``.

``GameState`` is a subclass rather than a holder of a ``Position``: the legality functions
and ``apply`` read these fields in every playout of Hard's search, and an inherited slot is
read exactly as fast as one of the class's own, while ``state.position.hands`` would cost an
attribute lookup more on every read.

A position prints as code that rebuilds it: ``Position.from_text('rules=36 hands=…')``.
"""

from __future__ import annotations

from typing import ClassVar, Final, Self

from .actions import (
    BEATS,
    PASS,
    SHOWS,
    SINGLE_ATTACKS,
    TAKE,
    THROW_INS,
    TRANSFERS,
    Action,
    Attack,
    attack_of_mask,
)
from .cards import BEATERS, CARDS, SAME_RANK, SUIT_MASKS, Card, Suit, bits, cards_of
from .events import GameResult
from .line import Line
from .notation import read_position, write_position
from .phase import Phase
from .rules import MAX_ATTACKS, Rules
from .rules import ThrowIn as ThrowInRule

__all__ = ["Position"]

_OPEN: Final = Phase.OPEN
_OVER: Final = Phase.OVER
_NEIGHBOURS: Final = ThrowInRule.NEIGHBOURS


_FIELDS = (
    "attacker",
    "attacks",
    "bout_max",
    "dealer",
    "defences",
    "defender",
    "defender_start",
    "discard",
    "hands",
    "is_over",
    "known",
    "leader",
    "limit",
    "passed",
    "phase",
    "places",
    "players",
    "result",
    "rules",
    "shown",
    "stock",
    "table_cards",
    "table_ranks",
    "taking",
    "throwers",
    "trump",
    "trump_card",
)


class Position:
    """The cards' places, the bout, who is out. Mutable only by the play that holds it
    (``GameState.apply``); two positions are equal when their lines are.

    Card sets are int bit masks (see ``engine.cards``); the table is two parallel lists of
    card indices, ``defences[i]`` being -1 while ``attacks[i]`` is unbeaten.

    ``Position(rules, ...)`` builds any position from its fields (as listed in
    ``__init__``; unchecked, for code that knows its position is real, such as Hard's
    samples); ``from_text`` reads the one-line notation of ``engine.notation`` and refuses an
    impossible position.
    """

    # The slots are the fields, listed once: ``FIELDS`` names them where ``__slots__`` is not
    # kept (a class compiled with mypyc has none) for ``copy``'s test and for snapshots.
    __slots__ = _FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS

    rules: Rules
    players: int
    trump: Suit
    trump_card: int
    dealer: int
    hands: list[int]
    known: list[int]  # per seat: the cards of its hand everyone knows it holds
    stock: list[int]  # drawn from the end: the face-up trump card is stock[0]
    discard: int
    attacks: list[int]
    defences: list[int]
    table_cards: int  # the cards on the table
    table_ranks: int  # every card of a rank on the table
    attacker: int
    defender: int
    leader: int  # who led the bout (the attacker until a transfer): the first to draw
    defender_start: int  # the defender's hand size when the bout (or transfer) began
    bout_max: int
    limit: int  # the most attack cards this bout may hold: min(bout_max, defender_start)
    phase: Phase
    is_over: bool  # phase is OVER, kept as a field: it is read after every action
    taking: bool
    passed: int  # seats that passed since the last card went down (a mask)
    shown: int  # seats that showed a trump to transfer this bout (a mask)
    throwers: int  # seats that may add cards this bout (a mask)
    places: list[int]  # 0 while in the game, then the place (1 = first out)
    result: GameResult | None

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A bare object, filled by ``__init__`` or by ``copy`` (which calls this alone:
        compiled with mypyc, a class accepts ``object.__new__`` only in its ``__new__``)."""
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        *,
        hands: list[int],
        stock: list[int],
        trump_card: int,
        attacker: int,
        defender: int,
        bout_max: int,
        defender_start: int,
        known: list[int] | None = None,
        discard: int = 0,
        attacks: list[int] | None = None,
        defences: list[int] | None = None,
        leader: int | None = None,
        phase: Phase = Phase.LEAD,
        taking: bool = False,
        passed: int = 0,
        shown: int = 0,
        throwers: int | None = None,
        places: list[int] | None = None,
        result: GameResult | None = None,
        dealer: int | None = None,
    ) -> None:
        """A position from its fields, in the engine's own terms (masks and indices).

        ``stock`` lists the stock's cards from the bottom (the face-up trump card) to the
        top; ``attacks`` and ``defences`` are the table. Left out: nothing known, an empty
        discard and table, a bout that waits for its lead, no transfer (the attacker led),
        everyone in the game, the last seat dealing; ``throwers`` is then who may add under
        the rules."""
        n = rules.players
        self.rules = rules
        self.players = n
        self.trump = CARDS[trump_card].suit
        self.trump_card = trump_card
        self.dealer = n - 1 if dealer is None else dealer
        self.hands = hands
        self.known = [0] * n if known is None else known
        self.stock = stock
        self.discard = discard
        self.attacks = [] if attacks is None else attacks
        self.defences = [-1] * len(self.attacks) if defences is None else defences
        cards = ranks = 0
        for index in self.attacks + self.defences:
            if index >= 0:
                cards |= 1 << index
                ranks |= SAME_RANK[index]
        self.table_cards = cards
        self.table_ranks = ranks
        self.attacker = attacker
        self.defender = defender
        self.leader = attacker if leader is None else leader
        self.defender_start = defender_start
        self.bout_max = bout_max
        self.limit = min(bout_max, defender_start)
        self.phase = phase
        self.is_over = phase is _OVER
        self.taking = taking
        self.passed = passed
        self.shown = shown
        self.places = [0] * n if places is None else places
        self.result = result
        if throwers is None:
            self._set_throwers()
        else:
            self.throwers = throwers

    def copy(self) -> Self:
        """An independent copy: applying actions to it leaves this one as it is.

        Every field assigned, written out (a loop over ``FIELDS`` would cost several times
        as much, and Hard's search copies states millions of times; a test checks that no
        field is left out), its lists copied."""
        other = Position.__new__(type(self))
        other.attacker = self.attacker
        other.attacks = self.attacks[:]
        other.bout_max = self.bout_max
        other.dealer = self.dealer
        other.defences = self.defences[:]
        other.defender = self.defender
        other.defender_start = self.defender_start
        other.discard = self.discard
        other.hands = self.hands[:]
        other.is_over = self.is_over
        other.known = self.known[:]
        other.leader = self.leader
        other.limit = self.limit
        other.passed = self.passed
        other.phase = self.phase
        other.places = self.places[:]
        other.players = self.players
        other.result = self.result
        other.rules = self.rules
        other.shown = self.shown
        other.stock = self.stock[:]
        other.table_cards = self.table_cards
        other.table_ranks = self.table_ranks
        other.taking = self.taking
        other.throwers = self.throwers
        other.trump = self.trump
        other.trump_card = self.trump_card
        return other

    # --- as text and as code ------------------------------------------------------------

    @classmethod
    def from_line(cls, line: Line) -> Self:
        """The position of a ``Line`` (unchecked, as the constructor)."""
        return cls(
            line.rules,
            hands=list(line.hands),
            known=list(line.known),
            stock=list(line.stock),
            trump_card=line.trump_card,
            discard=line.discard,
            attacks=list(line.attacks),
            defences=list(line.defences),
            attacker=line.attacker,
            defender=line.defender,
            leader=line.leader,
            dealer=line.dealer,
            phase=line.phase,
            bout_max=line.bout_max,
            defender_start=line.defender_start,
            taking=line.taking,
            passed=line.passed,
            shown=line.shown,
            throwers=line.throwers,
            places=list(line.places),
            result=line.result,
        )

    def to_line(self) -> Line:
        """The fields the notation writes (everything but what they derive from)."""
        return Line(
            self.rules,
            hands=tuple(self.hands),
            known=tuple(self.known),
            stock=tuple(self.stock),
            trump_card=self.trump_card,
            discard=self.discard,
            attacks=tuple(self.attacks),
            defences=tuple(self.defences),
            attacker=self.attacker,
            defender=self.defender,
            leader=self.leader,
            dealer=self.dealer,
            phase=self.phase,
            bout_max=self.bout_max,
            defender_start=self.defender_start,
            taking=self.taking,
            passed=self.passed,
            shown=self.shown,
            throwers=self.throwers,
            places=tuple(self.places),
            result=self.result,
        )

    @classmethod
    def from_text(cls, text: str) -> Self:
        """The position written by ``to_text`` (see ``engine.notation``); ``PositionError``
        (a ``ValueError``) names what is malformed or impossible about it."""
        return cls.from_line(read_position(text))

    def to_text(self) -> str:
        """The whole position on one line of text (see ``engine.notation``)."""
        return write_position(self.to_line())

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        """The same line. (With ``__eq__`` and no ``__hash__`` a position is unhashable, as
        a mutable value must be: ``key()`` is the hashable one.)"""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Position)
        return self.to_line() == other.to_line()

    def key(self) -> tuple[object, ...]:
        """A hashable value equal for two positions exactly when the same game goes on from
        them: the cards' places, the bout, who is out. Not what is known about hands, nor
        the dealer (nor a game's history: its moves and repeated positions)."""
        return (
            self.phase,
            self.attacker,
            self.defender,
            self.leader,
            self.bout_max,
            self.defender_start,
            self.taking,
            self.passed,
            self.shown,
            self.throwers,
            self.discard,
            self.result,
            *self.hands,
            tuple(self.stock),
            tuple(self.attacks),
            tuple(self.defences),
            tuple(self.places),
        )

    # --- reading the position -----------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.phase is _OPEN

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    @property
    def table(self) -> tuple[tuple[Card, Card | None], ...]:
        return tuple(
            (CARDS[a], CARDS[d] if d >= 0 else None)
            for a, d in zip(self.attacks, self.defences, strict=True)
        )

    def next_active(self, seat: int) -> int:
        """The next seat clockwise (left) of ``seat`` that is still in the game."""
        n, places = self.players, self.places
        other = seat + 1 if seat + 1 < n else 0
        while places[other]:
            if other == seat:
                break
            other = other + 1 if other + 1 < n else 0
        return other

    def next_in_play(self, seat: int) -> int | None:
        """The next seat clockwise of ``seat`` still playing this bout, or None if none is.

        Unlike ``next_active`` this also skips a player who emptied their hand during the
        bout while the stock is empty: they are out, and leave once the bout is settled.
        """
        n, stock = self.players, bool(self.stock)
        for step in range(1, n):
            other = (seat + step) % n
            if not self.places[other] and (stock or self.hands[other]):
                return other
        return None

    def next_hand_size(self, seat: int) -> int:
        """How many cards the player a transfer would go to holds (0: there is nobody)."""
        target = self.next_in_play(seat)
        return 0 if target is None else self.hands[target].bit_count()

    # --- the move generator ---------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``engine.legality.check`` allows ``seat`` now (shared, interned
        values), from the bit masks."""
        # The attacker and the defender are always in the game, and ``throwers`` holds only
        # seats in the game: no other test of the seat is needed.
        actions: list[Action]
        if self.phase is _OPEN:
            if seat == self.defender:
                # Each beat of an unbeaten card (lowest card first), take, then the transfers.
                defences = self.defences
                if self.taking or -1 not in defences:
                    return []
                actions = []
                hand = self.hands[seat]
                beaters_of = BEATERS[self.trump]
                for slot, target in enumerate(self.attacks):
                    if defences[slot] < 0 and (beaters := hand & beaters_of[target]):
                        beats = _BEATS_OF[target]
                        while beaters:
                            low = beaters & -beaters
                            actions.append(beats[low.bit_length() - 1])
                            beaters ^= low
                actions.append(TAKE)
                if self.rules.transfer and all(d < 0 for d in defences):
                    self._add_transfers(seat, actions)
                return actions
            if seat < 0 or not self.throwers >> seat & 1:
                return []
            actions = []
            if len(self.attacks) < self.limit:
                playable = self.hands[seat] & self.table_ranks
                while playable:
                    low = playable & -playable
                    actions.append(THROW_INS[low.bit_length() - 1])
                    playable ^= low
            if not self.passed >> seat & 1 and (self.taking or -1 not in self.defences):
                actions.append(PASS)
            return actions
        if seat != self.attacker or self.phase is _OVER:
            return []
        # The leads: for each rank in the hand (by its lowest card), its cards' every subset.
        hand = rest = self.hands[seat]
        known = _GROUP_LEADS[self.limit]
        leads: list[Action] = []
        while rest:
            group = hand & SAME_RANK[(rest & -rest).bit_length() - 1]
            rest ^= group
            try:
                leads += known[group]
            except KeyError:
                leads += known.setdefault(group, _group_leads(group, self.limit))
        return leads

    def _add_transfers(self, seat: int, actions: list[Action]) -> None:
        """The defender's transfers, and shown trumps, before any card is beaten."""
        hand = self.hands[seat]
        attacks = self.attacks
        same_rank = hand & SAME_RANK[attacks[0]]
        count = len(attacks)
        next_size = self.next_hand_size(seat)
        if count + 1 <= self.bout_max and next_size >= count + 1:
            actions.extend(TRANSFERS[i] for i in bits(same_rank))
        if self.rules.transfer_show_trump and not self.shown >> seat & 1 and next_size >= count:
            actions.extend(SHOWS[i] for i in bits(same_rank & SUIT_MASKS[self.trump]))

    def _set_throwers(self) -> None:
        """Who may add cards to this bout under the rules (for the play as it changes the
        attacker or defender, too)."""
        defender = self.defender
        if self.rules.throw_in is _NEIGHBOURS:
            left = self.next_in_play(defender)
            mask = (1 << self.attacker) | (0 if left is None else 1 << left)
        elif self.stock or not any(self.places):  # nobody is out while the stock lasts
            mask = (1 << self.players) - 1
        else:
            mask = 0
            for seat, place in enumerate(self.places):
                if not place:
                    mask |= 1 << seat
        self.throwers = mask & ~(1 << defender)


def _group_leads(group: int, limit: int) -> tuple[Attack, ...]:
    """Every lead from the cards of one rank in ``group``: each subset of at most ``limit``."""
    if group & (group - 1) == 0:
        return (SINGLE_ATTACKS[group.bit_length() - 1],)
    leads = []
    sub = group
    while sub:
        if sub.bit_count() <= limit:
            leads.append(attack_of_mask(sub))
        sub = (sub - 1) & group
    return tuple(leads)


# The leads of one rank's cards in a hand, by the limit, then by the cards' mask (at most
# 13 * 16 masks for each of the limits 0 to 6).
_GROUP_LEADS: Final[tuple[dict[int, tuple[Attack, ...]], ...]] = tuple(
    {} for _ in range(MAX_ATTACKS + 1)
)

# BEATS by target: ``_BEATS_OF[target][card]`` is ``Beat(card, target)``.
_BEATS_OF: Final = tuple(tuple(BEATS[card][target] for card in range(52)) for target in range(52))
