"""The game state and the flow of play: setup, bouts, refills, going out, the end.

The position itself (where the cards are, whose turn it is) is ``engine.position``'s, which
legality and the notation read; this module adds the play: the moves, the repetition
history and ``apply``.

Choices where RULES.md is silent (also listed in the README):

- Seats are numbered clockwise; the player on a seat's left is the next seat number.
- The deal starts left of the dealer, one card at a time. In a first game the last seat
  deals; in a series the previous Durak deals (the last seat again after a draw).
- A bout ends by itself once every attack card is beaten (or the defender takes) and every
  seat that may add has passed since the last card went down. A seat that holds no card
  it could add counts as passed, so nobody has to pass with nothing to play.
- After a transfer the transferring player is the bout's attacker: under "throw-in:
  neighbours" they and the new defender's left neighbour may add. The refill still starts
  with the bout's first attacker (the player who led), then clockwise, the defender last.
- Places follow the order of going out; players who go out in the same bout share a place
  (1, 1, 3, ...). The Durak takes the last place.

Every game ends (RULES.md allows endless games: players who take every attack can pass the
same cards round for ever). Two rules end such a game as a draw, with no Durak:

- Repetition: when a bout is about to start from the same position for the
  ``REPETITION_LIMIT``-th time (the same hands, the same stock and discard, the same
  attacker, the table empty), the game ends instead.
- Move cap: when a bout is about to start after ``MAX_MOVES`` actions or more, the game ends
  instead (a bout holds a bounded number of actions, so no game goes far past the cap).

In such a draw the players still holding cards share the next place (those already out
keep theirs), exactly as if they had gone out together. The bout never starts: the game
ends where the last one ended, with its roles, as any game does (a client told of no new
bout must not see one). ``declare_draw`` (the table's owner ending a game) ends it the
same way at any moment, the table as it stands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, Self

from .actions import Action, Attack, Beat, Pass, ShowTrump, Take, ThrowIn, Transfer
from .cards import CARDS, SAME_RANK, SUIT_MASKS, Card, Suit, cards_of, deck_mask, mask_of
from .events import (
    Attacked,
    BoutStarted,
    Covered,
    Dealt,
    Event,
    FirstAttacker,
    GameEnded,
    GameResult,
    Transferred,
    TrumpTurned,
    WentOut,
)
from .legality import CHECKS, card_reason, check
from .line import History
from .notation import read_game, write_game
from .phase import Phase
from .position import Position
from .reasons import IllegalAction, Reason
from .rules import DECK_SIZES, HAND_SIZE, MAX_ATTACKS, MAX_PLAYERS, Rules
from .rules import ThrowIn as ThrowInRule
from .shared_events import (
    ATTACKED,
    BOUT_STARTED,
    COVERED,
    PASSED,
    TAKING,
    THREW_IN,
    discarded,
    drew,
    picked_up,
)

__all__ = ["MAX_MOVES", "REPETITION_LIMIT", "GameState", "Phase", "new_game"]

REPETITION_LIMIT: Final = 3  # the same position at a bout's start for the third time: a draw
MAX_MOVES: Final = 3_000  # a game that reaches this many actions ends as a draw at the next bout

_LEAD: Final = Phase.LEAD
_OPEN: Final = Phase.OPEN
_OVER: Final = Phase.OVER
_NEIGHBOURS: Final = ThrowInRule.NEIGHBOURS


_HISTORY = ("moves", "opening", "seen")  # the fields a game adds to its position


class GameState(Position):
    """A game in progress: a position (``engine.position``), the actions played so far and
    the positions its bouts started from. Mutable: ``apply`` changes it in place; ``copy``
    is cheap.

    ``GameState(rules, ...)`` builds any position from the fields ``Position`` takes, with
    no history unless given; ``from_deal`` and ``new_game`` start a game; ``from_text``
    reads a game's line of ``engine.notation`` and refuses an impossible position.
    """

    __slots__ = _HISTORY
    FIELDS: ClassVar[tuple[str, ...]] = Position.FIELDS + _HISTORY

    moves: int  # actions applied so far
    # The positions bouts started from since the discard last grew or the stock last
    # shrank (no earlier one can come back): (attacker, bout_max, *hands) each.
    seen: tuple[tuple[int, ...], ...]
    opening: tuple[Event, ...]  # the deal's events (empty for a position built otherwise)

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
        moves: int = 0,
        seen: tuple[tuple[int, ...], ...] = (),
        opening: tuple[Event, ...] = (),
    ) -> None:
        """``Position``'s fields, each passed on by name (mypyc's compiled code does not
        pass on ``**kwargs`` to a base's keyword-only parameters), then the history's."""
        super().__init__(
            rules,
            hands=hands,
            stock=stock,
            trump_card=trump_card,
            attacker=attacker,
            defender=defender,
            bout_max=bout_max,
            defender_start=defender_start,
            known=known,
            discard=discard,
            attacks=attacks,
            defences=defences,
            leader=leader,
            phase=phase,
            taking=taking,
            passed=passed,
            shown=shown,
            throwers=throwers,
            places=places,
            result=result,
            dealer=dealer,
        )
        self.moves = moves
        self.seen = seen
        self.opening = opening

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        *,
        trump: Card | None = None,
        dealer: int | None = None,
        previous: GameResult | None = None,
    ) -> GameState:
        """A game from a given deal (a stacked deck, for tests and replays).

        ``stock`` lists the stock from the top; its last card is the face-up trump. With an
        empty stock, ``trump`` names the card that shows the trump suit (in the 6-player
        36-card game: the last card dealt, which stays in its owner's hand).
        """
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"{len(hands)} hands dealt for {n} players")
        if previous is not None and len(previous.places) != n:
            raise ValueError("the previous game had a different number of players")
        if stock:
            trump = stock[-1]
        elif trump is None:
            raise ValueError("with an empty stock the trump card must be given")
        masks = [mask_of(hand) for hand in hands]
        dealt = mask_of(stock)
        for mask in masks:
            dealt |= mask
        if dealt.bit_count() != sum(map(len, hands)) + len(stock):
            raise ValueError("a card was dealt twice")
        if dealt & ~deck_mask(rules.deck_size):
            raise ValueError(f"a card is not in the {rules.deck_size}-card deck")

        known = [0] * n
        events: list[Event] = [Dealt(s, len(hands[s]), cards_of(masks[s])) for s in range(n)]
        holder = None if stock else next((s for s in range(n) if trump in hands[s]), None)
        if holder is not None:
            known[holder] |= trump.bit
        events.append(TrumpTurned(trump, holder))
        dealer = _dealer(n, previous) if dealer is None else dealer
        attacker, shown = _first_attacker(rules, masks, trump.suit, dealer, previous)
        if shown is not None:
            known[attacker] |= shown.bit
        events.append(FirstAttacker(attacker, shown))
        defender = (attacker + 1) % n  # nobody is out yet
        bout_max = rules.bout_max(first=True)
        self = cls(
            rules,
            hands=masks,
            known=known,
            stock=[c.index for c in reversed(stock)],
            trump_card=trump.index,
            dealer=dealer,
            attacker=attacker,
            defender=defender,
            bout_max=bout_max,
            defender_start=masks[defender].bit_count(),
            seen=((attacker, bout_max, *masks),),
        )
        events.append(BoutStarted(attacker, defender, self.limit))
        self.opening = tuple(events)
        return self

    @classmethod
    def from_text(cls, text: str) -> Self:
        """The game written by ``to_text``: its position and history (see
        ``engine.notation``); ``PositionError`` (a ``ValueError``) names what is malformed
        or impossible about it."""
        line, history = read_game(text)
        state = cls.from_line(line)
        state.moves, state.seen = history.moves, history.seen
        return state

    def to_text(self) -> str:
        """The whole game on one line of text: its position, then its history (see
        ``engine.notation``). The deal's events are not part of it."""
        return write_game(self.to_line(), History(self.moves, self.seen))

    def __eq__(self, other: object) -> bool:
        """The same position and history (whatever the deal's events were)."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return (self.moves, self.seen, self.to_line()) == (other.moves, other.seen, other.to_line())

    def copy(self) -> Self:
        other = super().copy()
        other.moves = self.moves
        other.opening = self.opening
        other.seen = self.seen
        return other

    def check(self, seat: int, action: Action) -> Reason | None:
        """Why ``seat`` may not do ``action`` now, or None (``engine.legality.check``)."""
        return check(self, seat, action)

    def card_reason(self, seat: int, card: Card) -> Reason | None:
        """Why a card of ``seat``'s hand cannot be played now, or None
        (``engine.legality.card_reason``)."""
        return card_reason(self, seat, card)

    # --- changing the state -------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play ``action`` for ``seat``; raise ``IllegalAction`` (state untouched) if refused."""
        try:
            checker, play = _PLAYS[type(action)]
        except KeyError:
            raise TypeError(f"not an action: {action!r}") from None
        # ``check`` in short: the checker it would call decides alone, as only seats in the
        # game attack, defend or may add (so it refuses any other seat); ``check``'s own
        # seat tests then name the reason of a refusal.
        if self.phase is _OVER or seat < 0 or checker(self, seat, action) is not None:
            reason = check(self, seat, action)
            assert reason is not None  # the same checker, after tests a refused seat fails
            raise IllegalAction(reason, seat, action)
        self.moves += 1
        return play(self, seat, action)

    def push(self, seat: int, action: Action) -> list[Event]:
        """Play ``action`` for ``seat`` without checking it, as python-chess's ``push``:
        only for an action ``legal_actions(seat)`` just listed (a search's own moves); an
        illegal one leaves the state broken. Everything else goes through ``apply``."""
        self.moves += 1
        return _PLAYS[type(action)][1](self, seat, action)

    # One method per kind of action, found by ``apply`` in ``_PLAYS``. Each knows whether
    # the bout may have settled: a card that went down unbeaten keeps it open (unless the
    # defender takes), so only the others ask ``_settled``.

    def _beat(self, seat: int, action: Beat) -> list[Event]:
        card, target = action.card, action.target
        index, bit, aimed = card.index, card.bit, target.index
        self.hands[seat] &= ~bit
        self.known[seat] &= ~bit
        defences = self.defences
        defences[self.attacks.index(aimed)] = index
        self.table_cards |= bit
        self.table_ranks |= SAME_RANK[index]
        self.passed = 0
        key = seat << 12 | index << 6 | aimed
        covered = COVERED.get(key)
        if covered is None:
            covered = COVERED[key] = Covered(seat, card, target)
        events: list[Event] = [covered]
        if -1 not in defences and self._settled():
            self._end_bout(events)
        return events

    def _pass(self, seat: int, action: Pass) -> list[Event]:
        self.passed |= 1 << seat
        events: list[Event] = [PASSED[seat]]
        if self._settled():
            self._end_bout(events)
        return events

    def _throw_in(self, seat: int, action: ThrowIn) -> list[Event]:
        card = action.card
        self._put_attack(seat, card)
        events: list[Event] = [THREW_IN[seat][card.index]]
        if self.taking and self._settled():
            self._end_bout(events)
        return events

    def _attack(self, seat: int, action: Attack) -> list[Event]:
        """A lead onto the empty table: the bout cannot settle yet."""
        cards = action.cards
        played = action.mask
        self.hands[seat] &= ~played
        self.known[seat] &= ~played
        if len(cards) == 1:
            self.attacks = [cards[0].index]
            self.defences = [-1]
        else:
            self.attacks = [card.index for card in cards]
            self.defences = [-1] * len(cards)
        self.table_cards = played
        self.table_ranks = SAME_RANK[cards[0].index]
        self.passed = 0
        self.phase = _OPEN
        key = played | seat << 52
        attacked = ATTACKED.get(key)
        if attacked is None:
            attacked = ATTACKED[key] = Attacked(seat, cards)
        return [attacked]

    def _take(self, seat: int, action: Take) -> list[Event]:
        self.taking = True
        self.passed = 0
        events: list[Event] = [TAKING[seat]]
        if self._settled():
            self._end_bout(events)
        return events

    def _pass_on(self, seat: int, action: Transfer | ShowTrump) -> list[Event]:
        """A transfer, or showing a trump: the attack goes on to the next player."""
        card = action.card
        shown = type(action) is ShowTrump
        if shown:
            self.shown |= 1 << seat
            self.known[seat] |= card.bit
        else:
            self._put_attack(seat, card)
        new_defender = self.next_in_play(seat)
        assert new_defender is not None  # check() refuses a transfer to nobody
        self.attacker = seat
        self.defender = new_defender
        self.defender_start = self.hands[new_defender].bit_count()
        self.limit = min(self.bout_max, self.defender_start)
        self.passed = 0
        self._set_throwers()
        return [Transferred(seat, card, new_defender, shown)]

    def _put_attack(self, seat: int, card: Card) -> None:
        bit = card.bit
        self.hands[seat] &= ~bit
        self.known[seat] &= ~bit
        self.attacks.append(card.index)
        self.defences.append(-1)
        self.table_cards |= bit
        self.table_ranks |= SAME_RANK[card.index]
        self.passed = 0

    def _settled(self) -> bool:
        """Is the bout over, everything being beaten (or taken)? Yes once nobody is left
        who may add: the table is full, or each seat that may add has passed or holds
        nothing of the table's ranks."""
        if len(self.attacks) >= self.limit:
            return True
        waiting = self.throwers & ~self.passed
        ranks = self.table_ranks
        hands = self.hands
        while waiting:
            low = waiting & -waiting
            if hands[low.bit_length() - 1] & ranks:
                return False
            waiting ^= low
        return True

    def _start_bout(self, attacker: int, events: list[Event]) -> None:
        """The next bout (never the first: ``from_deal`` sets that one up), or the end of
        the game by the rule that every game ends."""
        players, places, hands = self.players, self.places, self.hands
        position = (attacker, MAX_ATTACKS, *hands)
        seen = self.seen
        if (seen and seen.count(position) + 1 >= REPETITION_LIMIT) or self.moves >= MAX_MOVES:
            # The draw ends the game before the bout: the view keeps the last bout's roles
            # (as at any other end), so nothing shows a bout no ``BoutStarted`` announced.
            self.attacks, self.defences, self.table_cards, self.table_ranks = [], [], 0, 0
            self._draw(events)
            return
        defender = attacker + 1 if attacker + 1 < players else 0
        if places[defender]:
            defender = self.next_active(attacker)
        start = hands[defender].bit_count()
        limit = start if start < MAX_ATTACKS else MAX_ATTACKS
        self.phase = _LEAD
        self.attacker = self.leader = attacker
        self.defender = defender
        self.defender_start = start
        self.bout_max = MAX_ATTACKS
        self.limit = limit
        self.attacks = []
        self.defences = []
        self.table_cards = self.table_ranks = 0
        self.taking = False
        self.passed = self.shown = 0
        if self.rules.throw_in is _NEIGHBOURS or not (self.stock or not any(places)):
            self._set_throwers()
        else:  # everyone is in and may add, as ``_set_throwers`` finds
            self.throwers = ((1 << players) - 1) & ~(1 << defender)
        self.seen = (*seen, position)
        events.append(BOUT_STARTED[attacker][defender][limit])

    def _end_bout(self, events: list[Event]) -> None:
        table = self.table_cards
        defender = self.defender
        took = self.taking
        if took:
            self.hands[defender] |= table
            self.known[defender] |= table
            events.append(picked_up(defender, table))
        else:
            self.discard |= table
            self.seen = ()  # no position before a discard can come back
            events.append(discarded(table))
        if self.stock:
            self._refill(events)
        if not self.stock:
            self._go_out(events)
            places = self.places
            if places.count(0) <= 1:
                self.attacks, self.defences, self.table_cards, self.table_ranks = [], [], 0, 0
                self._finish([s for s in range(self.players) if not places[s]], events)
                return
            if places[defender]:
                took = True  # the defender went out: the next player attacks
        self._start_bout(self.next_active(defender) if took else defender, events)

    def _refill(self, events: list[Event]) -> None:
        """Draw up to six: the bout's first attacker (who led it) first, then clockwise,
        the defender last.

        Only called while the stock lasts, so nobody has gone out yet."""
        stock = self.stock
        hands = self.hands
        for seat in _REFILL_ORDERS[self.players][self.leader][self.defender]:
            need = HAND_SIZE - hands[seat].bit_count()
            if need <= 0:
                continue
            self.seen = ()  # nor one before a draw from the stock
            count = need if need < len(stock) else len(stock)
            drawn = 0
            for index in stock[-count:]:
                drawn |= 1 << index
            del stock[-count:]
            hands[seat] |= drawn
            events.append(drew(seat, count, drawn))
            if not stock:
                trump_card = self.trump_card
                if drawn >> trump_card & 1:
                    self.known[seat] |= 1 << trump_card
                return

    def _go_out(self, events: list[Event]) -> None:
        places, hands = self.places, self.hands
        place = 1 + self.players - places.count(0)
        for seat in range(self.players):
            if not places[seat] and not hands[seat]:
                places[seat] = place
                events.append(WentOut(seat, place))

    def _finish(self, remaining: list[int], events: list[Event]) -> None:
        durak = remaining[0] if remaining else None
        if durak is not None:
            self.places[durak] = 1 + sum(1 for p in self.places if p)
        self.phase = _OVER
        self.is_over = True
        self.result = GameResult(tuple(self.places), durak)
        events.append(GameEnded(self.result))

    def declare_draw(self) -> list[Event]:
        """End the game now as a draw (the table's owner stops it): the players still in
        share the next place, as in a draw by repetition. ``ValueError`` if it is over."""
        if self.phase is _OVER:
            raise ValueError("the game is already over")
        events: list[Event] = []
        self._draw(events)
        return events

    def _draw(self, events: list[Event]) -> None:
        """End the game as a draw: every seat still in takes the next place together."""
        places = self.places
        place = 1 + sum(1 for p in places if p)
        for seat in range(self.players):
            if not places[seat]:
                places[seat] = place
        self._finish([], events)


# How ``apply`` checks and plays each kind of action.
_Play = Callable[[GameState, int, Any], list[Event]]
_PLAYS: Final[dict[type, tuple[Callable[[GameState, int, Any], Reason | None], _Play]]] = {
    kind: (CHECKS[kind], play)
    for kind, play in (
        (Attack, GameState._attack),
        (Beat, GameState._beat),
        (Pass, GameState._pass),
        (ShowTrump, GameState._pass_on),
        (Take, GameState._take),
        (ThrowIn, GameState._throw_in),
        (Transfer, GameState._pass_on),
    )
}


def _refill_order(players: int, leader: int, defender: int) -> tuple[int, ...]:
    """The seats in drawing order: the leader, the others clockwise, the defender last."""
    others = [(leader + step) % players for step in range(players)]
    return (*(s for s in others if s != defender), defender)


# Every drawing order, by players, leader and defender: three subscripts cost a third of a
# cached call's lookup, and a refill ends most bouts.
_REFILL_ORDERS: Final = tuple(
    tuple(
        tuple(_refill_order(players, leader, defender) for defender in range(players))
        for leader in range(players)
    )
    for players in range(MAX_PLAYERS + 1)
)


def _first_attacker(
    rules: Rules, hands: list[int], trump: Suit, dealer: int, previous: GameResult | None
) -> tuple[int, Card | None]:
    """Who attacks first, and the lowest trump they show (None: no trump was needed)."""
    n = rules.players
    if previous is not None and rules.durak_defends_first and previous.durak is not None:
        return (previous.durak - 1) % n, None
    trumps = SUIT_MASKS[trump]
    lowest: tuple[int, int] | None = None
    for seat, hand in enumerate(hands):
        mine = hand & trumps
        if mine:
            low = (mine & -mine).bit_length() - 1
            if lowest is None or low < lowest[1]:
                lowest = (seat, low)
    if lowest is None:
        return (dealer + 1) % n, None
    seat, index = lowest
    return seat, CARDS[index]


def _dealer(players: int, previous: GameResult | None) -> int:
    """Who deals: the last seat in a first game, the previous Durak in a series (the last
    seat again after a draw)."""
    return players - 1 if previous is None or previous.durak is None else previous.durak


def new_game(rules: Rules, seed: int, previous: GameResult | None = None) -> GameState:
    """Shuffle with ``random.Random(seed)``, deal 6 each from left of the dealer, turn trump."""
    n = rules.players
    deck = list(cards_of(deck_mask(rules.deck_size)))
    _shuffle(deck, random.Random(seed))
    dealer = _dealer(n, previous)
    deck.reverse()  # in dealing order: one card at a time, clockwise from the dealer's left
    dealt = HAND_SIZE * n
    hands = [deck[(seat - dealer - 1) % n : dealt : n] for seat in range(n)]
    if len(deck) > dealt:
        stock = [*deck[dealt + 1 :], deck[dealt]]  # the next card turned, under the stock
        return GameState.from_deal(rules, hands, stock, dealer=dealer, previous=previous)
    last = deck[dealt - 1]
    return GameState.from_deal(rules, hands, [], trump=last, dealer=dealer, previous=previous)


def _shuffle(deck: list[Card], rng: random.Random) -> None:
    """Shuffle ``deck`` in place exactly as ``rng.shuffle(deck)`` does (Fisher-Yates from
    the top, each position drawn by ``getrandbits`` with rejection), written out: the
    method's two calls per card cost a twentieth of a random game."""
    getrandbits = rng.getrandbits
    for top, width in _SHUFFLE_STEPS[len(deck)]:
        other = getrandbits(width)
        while other > top:
            other = getrandbits(width)
        deck[top], deck[other] = deck[other], deck[top]


# ``_shuffle``'s steps for each deck: the position drawn for, and the bits drawn for it.
_SHUFFLE_STEPS: Final = {
    size: tuple((top, (top + 1).bit_length()) for top in range(size - 1, 0, -1))
    for size in DECK_SIZES
}
