"""The table as the window shows it: a model of where every card is, and the card sprites
that move between those places.

The host's events move cards in the model (``apply``), and every card that changed place
gets a tween from wherever it is now to its new place: a lead flies from the hand (or the
opponent's seat, turning face up) to the bout, a beat lands across its target, a take
sweeps the bout to the taker, draws fly from the stock. ``resync(view)`` makes the model
equal to a snapshot; cards that are off their place glide there, so nothing ever jumps.
Drawing lives in ``client.ui.render``; nothing here touches pygame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from client.screens.table.layout import OPPONENT_SCALE, Layout, Pose
from client.ui.tween import Easing, Tween, ease_in_out_cubic, ease_out_back, ease_out_cubic
from engine import (
    CARDS,
    Attacked,
    BoutStarted,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameEnded,
    Passed,
    PickedUp,
    Rules,
    SeatView,
    Suit,
    Taking,
    ThrewIn,
    Transferred,
    TrumpTurned,
    WentOut,
)

__all__ = ["Board", "Sprite", "deck_of"]

FLY = 0.45  # seconds for a card's flight at normal speed
LIFT = 0.07  # how much larger a card looks at the top of its flight
DEAL_STEP = 0.07  # between two dealt cards
HAND, TABLE, TRUMP = "hand", "table", "trump"
LANDED = 0.8  # of a flight to the bout: the card is down (only settling from here)
SWEEP_AFTER = {"beaten": 1.0, "taken": 0.7}  # seconds a finished bout stays to be read


def deck_of(rules: Rules) -> list[Card]:
    """Every card of the rules' deck (24: nine to ace, 36: six to ace, 52: two to ace)."""
    low = 15 - rules.deck_size // 4
    return [card for card in CARDS if card.rank >= low]


@dataclass
class Sprite:
    """One moving or resting card. ``card`` is None for a back we never learn."""

    card: Card | None
    pose: Pose
    face: float  # 0 = back up, 1 = face up; in between it is turning
    dest: tuple[str, int] = (HAND, 0)  # where it is going or lies
    vanish: bool = False  # removed on arrival (it joins a pile or an opponent's hand)
    motion: Tween | None = None
    lift: float = 0.0  # pixels raised (playable or selected cards in the hand)
    lift_target: float = 0.0
    order: int = 0
    in_stock: bool = False  # still a card of the stock, waiting for its turn to fly

    @property
    def moving(self) -> bool:
        return self.motion is not None

    def fly(
        self,
        pose: Pose,
        face: float,
        duration: float,
        delay: float = 0.0,
        ease: Easing = ease_out_cubic,
    ) -> None:
        end = (pose.x, pose.y, pose.angle, pose.scale, face)
        if self.motion is not None and self.motion.end == end:
            return
        if self.motion is not None and not self.motion.started:
            delay = self.motion.delay - self.motion.elapsed  # keep a pending start
        start = (self.pose.x, self.pose.y, self.pose.angle, self.pose.scale, self.face)
        if start == end:
            self.motion = None
            return
        # turn the short way round
        a0, a1 = start[2], end[2]
        while a1 - a0 > 180:
            a0 += 360
        while a0 - a1 > 180:
            a0 -= 360
        start = (start[0], start[1], a0, start[3], start[4])
        self.motion = Tween(start, end, duration, ease, delay)

    def update(self, dt: float) -> bool:
        """Advance; True when a flight ended this frame."""
        self.lift += (self.lift_target - self.lift) * min(1.0, dt * 14)
        if self.motion is None:
            return False
        self.motion.update(dt)
        if self.motion.started:
            self.in_stock = False
            x, y, angle, scale, face = self.motion.value  # type: ignore[misc]
            # a card in flight is lifted off the cloth: a little larger mid-way
            flight = self.motion.progress
            hop = LIFT * math.sin(math.pi * flight) if 0 < flight < 1 else 0.0
            self.pose = Pose(x, y, angle, scale * (1 + hop))
            self.face = face
        if self.motion.done:
            self.motion = None
            return True
        return False


@dataclass
class Board:
    layout: Layout
    seat: int
    rules: Rules
    speed: float = 1.0
    hand: list[Card] = field(default_factory=list)
    table: list[list[Card | None]] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    stock: int = 0
    discard: int = 0
    trump: Suit | None = None
    trump_card: Card | None = None
    attacker: int = -1
    defender: int = -1
    taking: bool = False
    passed: set[int] = field(default_factory=set)
    places: list[int] = field(default_factory=list)
    durak: int | None = None
    cards: dict[Card, Sprite] = field(default_factory=dict)
    flying: list[Sprite] = field(default_factory=list)  # anonymous backs on their way
    cues: list[tuple[float, str]] = field(default_factory=list)  # (delay, sound) to play
    dragged: Card | None = None
    played_by: dict[Card, int] = field(default_factory=dict)  # the bout's cards: whose
    _deal_run: int = 0
    _order: int = 0

    def __post_init__(self) -> None:
        n = self.rules.players
        self.counts = self.counts or [0] * n
        self.places = self.places or [0] * n
        if not self.stock and not self.hand and not self.discard:
            self.stock = self.rules.deck_size

    # --- time ---------------------------------------------------------------------------

    def t(self, seconds: float) -> float:
        return seconds / self.speed

    def update(self, dt: float) -> None:
        for sprite in list(self.cards.values()):
            if sprite.update(dt) and sprite.vanish:
                del self.cards[sprite.card]  # type: ignore[arg-type,unused-ignore]
        landed = [s for s in self.flying if s.update(dt)]
        if landed:
            self.flying = [s for s in self.flying if s not in landed]

    @property
    def busy(self) -> bool:
        return bool(self.flying) or any(s.moving for s in self.cards.values())

    @property
    def lifting(self) -> bool:
        """A card of the hand is still rising or settling (by half a pixel or more)."""
        return any(abs(s.lift_target - s.lift) >= 0.5 for s in self.cards.values())

    @property
    def landing(self) -> bool:
        """A card is still on its way to the bout (or to its new place in it)."""
        return any(
            s.dest[0] == TABLE
            and not s.vanish
            and s.motion is not None
            and s.motion.progress < LANDED
            for s in self.cards.values()
        )

    @property
    def stock_shown(self) -> int:
        """The stock as seen: cards dealt or drawn but still waiting to fly are still in it."""
        waiting = [s for s in (*self.cards.values(), *self.flying) if s.in_stock]
        return self.stock + sum(1 for s in waiting if s.dest[0] != TRUMP)

    def incoming(self, dest: tuple[str, int]) -> int:
        """Cards still flying to a pile or seat (not yet shown there)."""
        count = sum(1 for s in self.flying if s.dest == dest)
        return count + sum(1 for s in self.cards.values() if s.vanish and s.dest == dest)

    # --- where things go ------------------------------------------------------------------

    def hand_key(self, card: Card) -> tuple[int, int, int]:
        return (card.suit == self.trump, (card.suit - (self.trump or 0)) % 4, card.rank)

    def home(self, card: Card) -> Pose | None:
        if card in self.hand:
            poses = self.layout.hand_poses(len(self.hand))
            return poses[self.hand.index(card)]
        for i, (attack, defence) in enumerate(self.table):
            if card == attack:
                return self.layout.attack_pose(i, len(self.table))
            if card == defence:
                return self.layout.defence_pose(i, len(self.table))
        if card == self.trump_card and self.stock > 0:
            return self.layout.trump_pose()
        return None

    def arrange(
        self, duration: float | None = None, delays: dict[Card, float] | None = None
    ) -> None:
        """Send every card of the hand, the bout and the trump to its place."""
        self.hand.sort(key=self.hand_key)
        duration = self.t(FLY) if duration is None else duration
        delays = delays or {}
        for card, sprite in self.cards.items():
            if sprite.vanish or card == self.dragged:
                continue
            pose = self.home(card)
            if pose is None:
                continue
            # a card coming down on the table settles with a small overshoot
            ease = ease_out_back if sprite.dest[0] == TABLE else ease_out_cubic
            sprite.fly(pose, 1.0, duration, delays.get(card, 0.0), ease)

    def relayout(self, layout: Layout) -> None:
        """A new window size: everything snaps to its new place (no flight across a resize)."""
        self.layout = layout
        for card, sprite in list(self.cards.items()):
            pose = self.home(card)
            if pose is None or sprite.vanish:
                if sprite.vanish:
                    del self.cards[card]
                continue
            sprite.motion = None
            sprite.pose = pose
            sprite.face = 1.0
        self.flying.clear()

    def _seat_pose(self, seat: int) -> Pose:
        if seat == self.seat:
            x, y = self.layout.seat_centre(seat)
            return Pose(x, y + self.layout.card_h, 0, 1.0)
        return self.layout.seats[seat].fan

    def _from_stock(self, card: Card | None, dest: tuple[str, int]) -> Sprite:
        """A card leaving the stock, face down (hidden in the pile until its flight starts)."""
        known = card is not None and card in self.cards  # e.g. the trump card, drawn last
        sprite = self._new(card, self.layout.stock_pose(3), 0.0, dest)
        sprite.in_stock = not known
        return sprite

    def _new(self, card: Card | None, pose: Pose, face: float, dest: tuple[str, int]) -> Sprite:
        """A sprite for ``card`` (the existing one if the card already has one)."""
        self._order += 1
        sprite = Sprite(card, pose, face, dest, order=self._order)
        if card is not None:
            old = self.cards.get(card)
            if old is not None:
                return old
            self.cards[card] = sprite
        else:
            self.flying.append(sprite)
        return sprite

    def _in_fan(self, seat: int, count: int) -> Pose:
        """The middle of an opponent's fan of ``count`` backs, where a card joins or leaves it."""
        fan = self.layout.opponent_fan(seat, max(1, count))
        return fan[len(fan) // 2] if fan else self._seat_pose(seat)

    def _to_seat(self, sprite: Sprite, seat: int, delay: float) -> None:
        """Fly a card into an opponent's hand (it disappears among their backs)."""
        sprite.dest = ("seat", seat)
        sprite.vanish = True
        target = self._in_fan(seat, self.counts[seat])
        sprite.fly(
            Pose(target.x, target.y, target.angle, OPPONENT_SCALE),
            0.0,
            self.t(FLY),
            delay,
            ease_in_out_cubic,
        )

    # --- events -------------------------------------------------------------------------

    def apply(self, event: Event) -> float:
        """Show one event; returns the seconds to wait before showing the next one."""
        if not isinstance(event, Dealt):
            self._deal_run = 0
        match event:
            case Dealt():
                return self._on_dealt(event)
            case TrumpTurned():
                return self._on_trump_turned(event)
            case BoutStarted():
                return self._on_bout_started(event)
            case Attacked():
                return self._on_attacked(event)
            case ThrewIn():
                return self._on_attacked(Attacked(event.seat, (event.card,)))
            case Covered():
                return self._on_covered(event)
            case Transferred():
                return self._on_transferred(event)
            case Taking():
                return self._on_taking(event)
            case Passed():
                return self._on_passed(event)
            case Discarded():
                return self._on_discarded(event)
            case PickedUp():
                return self._on_picked_up(event)
            case Drew():
                return self._on_drew(event)
            case WentOut():
                return self._on_went_out(event)
            case GameEnded():
                return self._on_game_ended(event)
        return 0.0  # FirstAttacker: told by a toast

    def _on_dealt(self, e: Dealt) -> float:
        n = self.rules.players
        r = self._deal_run
        self._deal_run += 1
        delays: dict[Card, float] = {}
        for i in range(e.count):
            delay = self.t((i * n + r) * DEAL_STEP)
            self.stock -= 1
            if e.seat == self.seat and e.cards is not None:
                card = e.cards[i]
                self._from_stock(card, (HAND, 0))
                self.hand.append(card)
                delays[card] = delay
            else:
                self.counts[e.seat] += 1
                self._to_seat(self._from_stock(None, ("seat", e.seat)), e.seat, delay)
            self.cues.append((delay, "deal"))
        if e.seat == self.seat:
            self.arrange(self.t(FLY * 1.2), delays)
        return self.t((6 * n) * DEAL_STEP + FLY) if r == n - 1 else 0.0

    def _on_trump_turned(self, e: TrumpTurned) -> float:
        self.trump = e.card.suit
        self.trump_card = e.card
        if e.holder is None:
            self._from_stock(e.card, (TRUMP, 0))
        self.arrange()
        return self.t(FLY)

    def _on_bout_started(self, e: BoutStarted) -> float:
        self.attacker, self.defender = e.attacker, e.defender
        self.taking = False
        self.passed.clear()
        return self.t(0.15)

    def _from_seat(self, seat: int, card: Card) -> None:
        """A card leaves a hand for the bout."""
        if seat == self.seat:
            if card in self.hand:
                self.hand.remove(card)
            if card not in self.cards:
                self._new(card, self._seat_pose(seat), 1.0, (TABLE, 0))
        else:
            self.counts[seat] = max(0, self.counts[seat] - 1)
            self._new(card, self._in_fan(seat, self.counts[seat] + 1), 0.0, (TABLE, 0))
        self.cards[card].dest = (TABLE, 0)
        self.cards[card].vanish = False
        self.played_by[card] = seat

    def _on_attacked(self, e: Attacked) -> float:
        for card in e.cards:
            self._from_seat(e.seat, card)
            self.table.append([card, None])
        self.passed.clear()
        self.arrange()
        self.cues.append((self.t(FLY * 0.7), "play"))
        return self.t(FLY * 0.9)

    def _on_covered(self, e: Covered) -> float:
        self._from_seat(e.seat, e.card)
        for pair in self.table:
            if pair[0] == e.target:
                pair[1] = e.card
        self.passed.clear()
        self.arrange()
        self.cues.append((self.t(FLY * 0.7), "beat"))
        return self.t(FLY * 0.9)

    def _on_transferred(self, e: Transferred) -> float:
        if not e.shown:  # the card is laid like an attack (a trump shown stays in the hand)
            self._on_attacked(Attacked(e.seat, (e.card,)))
        self.attacker, self.defender = e.seat, e.to
        self.passed.clear()
        return self.t(FLY * 0.9)

    def _on_taking(self, e: Taking) -> float:
        self.taking = True
        self.passed.clear()
        return self.t(0.3)

    def _on_passed(self, e: Passed) -> float:
        self.passed.add(e.seat)
        return self.t(0.2)

    def _table_cards(self) -> list[Card]:
        return [c for pair in self.table for c in pair if c is not None]

    def _between_bouts(self) -> None:
        """The bout is over: nobody attacks or defends until the next one starts."""
        self.table.clear()
        self.played_by.clear()
        self.taking = False
        self.attacker = self.defender = -1
        self.passed.clear()

    def _on_discarded(self, e: Discarded) -> float:
        cards = self._table_cards() or list(e.cards)
        self._between_bouts()
        linger = self.t(SWEEP_AFTER["beaten"])
        for k, card in enumerate(cards):
            sprite = self.cards.get(card)
            if sprite is None:
                continue
            sprite.dest = ("discard", 0)
            sprite.vanish = True
            sprite.fly(
                self.layout.discard_pose(self.discard + k),
                0.0,
                self.t(FLY * 1.1),
                linger + self.t(0.03 * k),
                ease_in_out_cubic,
            )
        self.discard += len(e.cards)
        self.cues.append((linger, "deal"))
        return linger + self.t(FLY * 1.1 + 0.03 * len(cards))

    def _on_picked_up(self, e: PickedUp) -> float:
        self._between_bouts()
        linger = self.t(SWEEP_AFTER["taken"])
        for k, card in enumerate(e.cards):
            sprite = self.cards.get(card) or self._new(
                card, self.layout.attack_pose(0, 1), 1.0, (TABLE, 0)
            )
            if e.seat == self.seat:
                sprite.dest = (HAND, 0)
                self.hand.append(card)
            else:
                self.counts[e.seat] += 1
                self._to_seat(sprite, e.seat, linger + self.t(0.03 * k))
        delays = {card: linger for card in e.cards}
        self.arrange(self.t(FLY * 1.1), delays)
        self.cues.append((linger, "take"))
        return linger + self.t(FLY * 1.1 + 0.03 * len(e.cards))

    def _on_drew(self, e: Drew) -> float:
        delays: dict[Card, float] = {}
        for i in range(e.count):
            delay = self.t(i * DEAL_STEP * 1.4)
            self.stock = max(0, self.stock - 1)
            if e.seat == self.seat and e.cards is not None:
                card = e.cards[i]  # the trump card, if drawn, is its resting sprite
                sprite = self._from_stock(card, (HAND, 0))
                sprite.dest, sprite.vanish = (HAND, 0), False
                self.hand.append(card)
                delays[card] = delay
            else:
                self.counts[e.seat] += 1
                trump = self.cards.get(self.trump_card) if self.trump_card else None
                last = self.stock == 0 and trump is not None and trump.dest[0] == TRUMP
                sprite = trump if last and trump else self._from_stock(None, ("seat", e.seat))
                self._to_seat(sprite, e.seat, delay)
            self.cues.append((delay, "deal"))
        self.arrange(self.t(FLY * 1.1), delays)
        # the next seat's draw may start while these cards still fly
        return self.t(0.25 + DEAL_STEP * 1.4 * e.count)

    def _on_went_out(self, e: WentOut) -> float:
        self.places[e.seat] = e.place
        return self.t(0.3)

    def _on_game_ended(self, e: GameEnded) -> float:
        self.places = list(e.result.places)
        self.durak = e.result.durak
        return self.t(0.5)

    # --- snapshots ----------------------------------------------------------------------

    def resync(self, view: SeatView) -> None:
        """Make the model equal to ``view``; misplaced cards glide to where they belong."""
        self.rules = view.rules
        self.trump, self.trump_card = view.trump, view.trump_card
        self.stock, self.discard = view.stock_size, view.discard_size
        self.counts = list(view.hand_sizes)
        self.hand = sorted(view.hand, key=self.hand_key)
        self.table = [[a, d] for a, d in view.table]
        on_table = set(self._table_cards())  # (who played a card we did not see: unknown)
        self.played_by = {c: s for c, s in self.played_by.items() if c in on_table}
        self.attacker, self.defender, self.taking = view.attacker, view.defender, view.taking
        self.passed = set(view.passed)
        self.places = list(view.places)
        self.durak = view.result.durak if view.result else None
        wanted = set(self.hand) | set(self._table_cards())
        if self.stock > 0:
            wanted.add(view.trump_card)
        for card, sprite in list(self.cards.items()):
            if card in wanted:
                sprite.vanish = False
                sprite.dest = (HAND, 0) if card in self.hand else (TABLE, 0)
                if card == view.trump_card and self.stock > 0:
                    sprite.dest = (TRUMP, 0)
            elif not sprite.vanish:
                sprite.dest, sprite.vanish = ("discard", 0), True
                sprite.fly(self.layout.discard_pose(self.discard), 0.0, self.t(FLY))
        for card in wanted - set(self.cards):
            self._from_stock(card, (HAND, 0))
        self.arrange()
