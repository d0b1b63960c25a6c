"""What every seat (and every watcher) knows of a game, followed event by event through
section 4's events, and the lists of section 2, 4 and 6 the games are held against: a view
the events do not explain, a verb or event the document does not name, is caught here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import (
    CARDS,
    Action,
    Attack,
    Attacked,
    BoutStarted,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    GameEnded,
    Passed,
    Phase,
    PickedUp,
    PublicView,
    Rules,
    SeatView,
    Taking,
    ThrewIn,
    Transferred,
    WentOut,
)
from protocol import event_to_wire

GAME_REASONS = frozenset(  # section 6
    (
        "game_over",
        "not_your_turn",
        "player_out",
        "not_defender",
        "not_attacker",
        "must_lead_first",
        "bout_in_progress",
        "card_not_in_hand",
        "not_same_rank",
        "rank_not_on_table",
        "table_full",
        "defender_hand_limit",
        "neighbours_only",
        "nothing_to_beat",
        "already_beaten",
        "does_not_beat",
        "wrong_suit",
        "trump_beats_only_higher",
        "already_taking",
        "transfer_not_allowed",
        "transfer_after_beat",
        "next_player_too_few_cards",
        "not_a_trump",
        "already_shown",
        "not_all_beaten",
        "already_passed",
    )
)
VERBS = ("attack", "throw", "beat", "transfer", "show", "take", "pass")  # section 2
EVENT_KINDS = (  # section 4
    "dealt", "trump_turned", "first_attacker", "bout_started", "attacked", "threw_in",
    "covered", "transferred", "taking", "passed", "discarded", "picked_up", "drew",
    "went_out", "game_ended",
)  # fmt: skip


@dataclass(slots=True)
class Public:
    """What every seat knows of a game, followed event by event (section 4's events),
    to hold each view against: the events of an update must explain its view."""

    sizes: list[int]
    stock: int
    places: list[int]
    discard: int = 0
    table: list[tuple[Card, Card | None]] = field(default_factory=list)
    attacker: int = 0
    defender: int = 0
    phase: Phase = Phase.LEAD
    taking: bool = False
    passed: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)

    @classmethod
    def before_deal(cls, rules: Rules) -> Public:
        return cls([0] * rules.players, rules.deck_size, [0] * rules.players)

    @classmethod
    def of(cls, view: SeatView | PublicView) -> Public:
        return cls(
            list(view.hand_sizes), view.stock_size, list(view.places), view.discard_size,
            list(view.table), view.attacker, view.defender, view.phase, view.taking,
            set(view.passed), set(view.shown),
        )  # fmt: skip

    def apply(self, event: Any) -> None:
        if isinstance(event, Dealt | Drew):
            self.sizes[event.seat] += event.count
            self.stock -= event.count
        elif isinstance(event, BoutStarted):
            self.attacker, self.defender = event.attacker, event.defender
            self.table, self.phase, self.taking = [], Phase.LEAD, False
            self.passed, self.shown = set(), set()
        elif isinstance(event, Attacked):
            self.put(event.seat, *event.cards)
            self.phase = Phase.OPEN
        elif isinstance(event, ThrewIn):
            self.put(event.seat, event.card)
        elif isinstance(event, Covered):
            self.sizes[event.seat] -= 1
            self.table = [(a, event.card if a == event.target else d) for a, d in self.table]
            self.passed = set()
        elif isinstance(event, Transferred):
            if event.shown:
                self.shown.add(event.seat)
            else:
                self.put(event.seat, event.card)
            self.attacker, self.defender, self.passed = event.seat, event.to, set()
        elif isinstance(event, Taking):
            self.taking, self.passed = True, set()
        elif isinstance(event, Passed):
            self.passed.add(event.seat)
        elif isinstance(event, Discarded):
            self.discard += len(event.cards)
            self.table = []
        elif isinstance(event, PickedUp):
            self.sizes[event.seat] += len(event.cards)
            self.table = []
        elif isinstance(event, WentOut):
            self.places[event.seat] = event.place
        elif isinstance(event, GameEnded):
            self.places, self.phase = list(event.result.places), Phase.OVER

    def put(self, seat: int, *cards: Card) -> None:
        self.sizes[seat] -= len(cards)
        self.table += [(card, None) for card in cards]
        self.passed = set()

    def differences(self, view: SeatView | PublicView) -> list[str]:
        """The fields of ``view`` that the events do not explain."""
        mine = {
            "hand_sizes": (tuple(self.sizes), view.hand_sizes),
            "stock": (self.stock, view.stock_size),
            "discard": (self.discard, view.discard_size),
            "table": (tuple(self.table), view.table),
            "phase": (self.phase, view.phase),
            "places": (tuple(self.places), view.places),
            # (at the end too: a game ends with its last bout's roles, section 13)
            "attacker": (self.attacker, view.attacker),
            "defender": (self.defender, view.defender),
            "taking": (self.taking, view.taking),
            "passed": (self.passed, set(view.passed)),
            "shown": (self.shown, set(view.shown)),
        }
        return [f"{k} {v!r}, the events say {e!r}" for k, (e, v) in mine.items() if e != v]


CARDS_BY_NAME = {str(card): card for card in CARDS}


def cards_in(data: Any) -> Iterable[Card]:
    """Every card named in a wire value (an event's map)."""
    if isinstance(data, str) and data in CARDS_BY_NAME:
        yield CARDS_BY_NAME[data]
    elif isinstance(data, list):
        for item in data:
            yield from cards_in(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from cards_in(item)


def event_name(event: Any) -> str:
    return str(event_to_wire(event)["event"])


def cards_of(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Attack):
        return action.cards
    return tuple(c for c in (getattr(action, "card", None),) if c is not None)


def next_in_play(view: SeatView, seat: int) -> int | None:
    """The seat a transfer from ``seat`` goes to, from what every view shows."""
    n = view.rules.players
    for step in range(1, n):
        other = (seat + step) % n
        if not view.places[other] and (view.stock_size or view.hand_sizes[other]):
            return other
    return None
