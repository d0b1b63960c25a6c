"""What the other players' moves tell about their hidden cards: Hard's reading of hands.

Each seat gets a weight per card: how likely, next to an unknown card it could hold as
well, that card is in its hand (1: nothing is known; near 0: it almost surely is not).
Hard deals its samples' hidden cards by these weights (``engine.ai.determinize``).

Two things are read, both from events every seat is told:

- **A bout closed while a seat had not passed.** A bout waits for every seat that may add
  and holds a rank on the table (RULES.md, "What each player may know"), so when it ends
  with the table below its limit, every seat that may add and had not passed since the
  last card went down held no card of the table's ranks: weight ``CLOSED``.
- **A defender took a single unbeaten card.** They probably held nothing that beats it
  cheaply: the higher cards of its suit get weight ``TOOK_SUIT``, and for a plain card
  the trumps ``TOOK_TRUMP`` (a player may save a trump on purpose, so less sure).

A seat that draws ``k`` cards may have drawn such a card: each of its weights moves the
fraction ``k / 6`` of the way back to 1 (a hand of six of which ``k`` are new).
"""

from __future__ import annotations

from ..cards import RANK_MASKS, SUIT_MASKS, beaters_mask, bits, mask_of
from ..events import (
    Attacked,
    BoutStarted,
    Covered,
    Discarded,
    Drew,
    Event,
    Passed,
    PickedUp,
    Taking,
    ThrewIn,
    Transferred,
    TrumpTurned,
    WentOut,
)
from ..rules import HAND_SIZE, Rules
from ..rules import ThrowIn as ThrowInRule
from ..view import SeatView

__all__ = ["CLOSED", "TOOK_SUIT", "TOOK_TRUMP", "HandReading"]

CLOSED = 0.02
TOOK_SUIT = 0.3
TOOK_TRUMP = 0.7
FLOOR = 1e-4  # no weight goes below this: a card is made rare, never impossible


class HandReading:
    """The card weights of every seat, kept up from one seat's trimmed events."""

    __slots__ = (
        "attacker",
        "attacks",
        "covered",
        "defences",
        "defender",
        "limit",
        "out",
        "passed",
        "rules",
        "seat",
        "transferred",
        "trump",
        "weights",
    )

    def __init__(self, seat: int, rules: Rules) -> None:
        self.seat = seat
        self.rules = rules
        self.weights = [[1.0] * 52 for _ in range(rules.players)]
        self.trump = -1
        self.attacker = self.defender = self.limit = 0
        self.attacks: list[int] = []
        self.defences = 0  # the mask of the cards that beat
        self.covered = 0  # the mask of the attack cards they beat
        self.passed = 0  # seats that passed since the last card went down
        self.out = 0  # seats that have gone out
        self.transferred = False

    def weight(self, seat: int, card: int) -> float:
        return self.weights[seat][card]

    def look(self, view: SeatView) -> None:
        """Take the bout as the view shows it (for a seat that joined a game late, or
        missed events): the trump, who attacks and defends, the limit, the table."""
        self.trump = view.trump
        self.attacker, self.defender, self.limit = view.attacker, view.defender, view.limit
        self.attacks = [attack.index for attack, _ in view.table]
        self.covered = mask_of(attack for attack, defence in view.table if defence is not None)
        self.defences = mask_of(defence for _, defence in view.table if defence is not None)
        self.passed = sum(1 << s for s in view.passed)
        self.out = sum(1 << s for s, place in enumerate(view.places) if place)

    def see(self, event: Event) -> None:
        if isinstance(event, BoutStarted):
            self.attacker, self.defender, self.limit = event.attacker, event.defender, event.limit
            self.attacks, self.defences, self.covered, self.passed = [], 0, 0, 0
            self.transferred = False
        elif isinstance(event, Attacked):
            self.attacks = [card.index for card in event.cards]
            self.passed = 0
        elif isinstance(event, ThrewIn):
            self.attacks.append(event.card.index)
            self.passed = 0
        elif isinstance(event, Covered):
            self.defences |= event.card.bit
            self.covered |= event.target.bit
            self.passed = 0
        elif isinstance(event, Transferred):
            self.transferred = True  # the new limit is not told: read nothing this bout
            self.attacker, self.defender = event.seat, event.to
            if not event.shown:
                self.attacks.append(event.card.index)
            self.passed = 0
        elif isinstance(event, Taking):
            self._took(event.seat)
            self.passed = 0
        elif isinstance(event, Passed):
            self.passed |= 1 << event.seat
        elif isinstance(event, Discarded | PickedUp):
            self._closed()
        elif isinstance(event, Drew):
            self._drew(event.seat, event.count)
        elif isinstance(event, WentOut):
            self.out |= 1 << event.seat
        elif isinstance(event, TrumpTurned):
            self.trump = event.card.suit

    def _scale(self, seat: int, mask: int, factor: float) -> None:
        if seat == self.seat:
            return
        row = self.weights[seat]
        for card in bits(mask):
            row[card] = max(row[card] * factor, FLOOR)

    def _took(self, seat: int) -> None:
        unbeaten = [a for a in self.attacks if not self.covered >> a & 1]
        if len(unbeaten) != 1 or self.trump < 0:
            return
        target = unbeaten[0]
        beaters = beaters_mask(self.trump, target)
        if target // 13 == self.trump:
            self._scale(seat, beaters, TOOK_SUIT)
        else:
            trumps = SUIT_MASKS[self.trump]
            self._scale(seat, beaters & ~trumps, TOOK_SUIT)
            self._scale(seat, trumps, TOOK_TRUMP)

    def _closed(self) -> None:
        """The bout ended: whoever could add and had not passed held none of its ranks."""
        if self.transferred or len(self.attacks) >= self.limit:
            return
        ranks = 0
        for card in [*self.attacks, *bits(self.defences)]:
            ranks |= RANK_MASKS[card % 13 + 2]
        for seat in self._throwers():
            if not self.passed >> seat & 1:
                self._scale(seat, ranks, CLOSED)

    def _throwers(self) -> list[int]:
        """The seats that may add this bout (all still in, or the attacker and the
        defender's left neighbour), the defender left out."""
        n = self.rules.players
        playing = [s for s in range(n) if not self.out >> s & 1]
        if self.rules.throw_in is ThrowInRule.NEIGHBOURS:
            later = [s for s in playing if s > self.defender] + playing
            left = later[0] if later[0] != self.defender else None
            playing = [self.attacker] if left is None else [self.attacker, left]
        return [s for s in playing if s != self.defender]

    def _drew(self, seat: int, count: int) -> None:
        share = min(1.0, count / HAND_SIZE)
        row = self.weights[seat]
        for card in range(52):
            row[card] += (1.0 - row[card]) * share
