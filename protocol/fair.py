"""A fair deal (protocol version 4): the host's commitment, the players' contributions, the
seed they give, and what a client checks once the host reveals them (docs/protocol.md,
section 15).

Before a deal the host draws a secret of ``SECRET_BYTES`` random bytes and sends every
seated player the commitment ``commitment(secret, deal_context(game, rules, seats))``; each
player answers with ``VALUE_BYTES`` random bytes of its own. The game's seed is
``deal_seed(commitment, secret, contributions)``: the host, which fixed its secret before it
saw a contribution, cannot steer the deal, and no player, who sees only a hash before
sending, can either. At the end the host reveals the secret, the contributions, the seed and
every action; ``check_deal`` verifies them against what one seat saw, and ``DealWitness``
collects that from the host's messages as they come.

Everything here is pure (hashing and the engine's replay): no I/O, no randomness.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import (
    Action,
    Event,
    GameLog,
    GameResult,
    IllegalAction,
    Rules,
    SeatView,
    observe,
    trim,
)

from .messages import Commit, Message, Reveal, Room, RoomUpdate, Snapshot, Update, Welcome

__all__ = [
    "COMMIT_DOMAIN",
    "DEAL_PROBLEMS",
    "SECRET_BYTES",
    "SEED_DOMAIN",
    "VALUE_BYTES",
    "DealCheck",
    "DealSecret",
    "DealSeen",
    "DealWitness",
    "Revealed",
    "check_deal",
    "commitment",
    "deal_context",
    "deal_seed",
    "is_value",
]

SECRET_BYTES = 32
VALUE_BYTES = 32  # a player's contribution
COMMIT_DOMAIN = b"durak fair deal 4 commitment\n"
SEED_DOMAIN = b"durak fair deal 4 seed\n"
_HEX = frozenset("0123456789abcdef")

# why a deal could not be verified (``DealCheck.problem``), in the order they are checked
DEAL_PROBLEMS = (
    "no_commitment",  # we never saw the commitment of this game
    "no_reveal",  # the host did not reveal the game (or not all of it)
    "commitment",  # the revealed secret does not give the commitment we were sent
    "contribution",  # our contribution is missing or changed
    "seed",  # the seed does not follow from the secret and the contributions
    "log",  # the revealed actions do not replay from that seed
    "deal",  # the replay is not the game we were shown
)


def is_value(text: object, size: int = VALUE_BYTES) -> bool:
    """Whether ``text`` is ``size`` bytes as ``2 * size`` lower-case hex digits."""
    return isinstance(text, str) and len(text) == 2 * size and set(text) <= _HEX


def deal_context(game: int, rules: Rules, seats: Sequence[str]) -> bytes:
    """What the commitment binds beside the secret: the game's number at the table, its
    rules and each seat's kind (``"human"`` or ``"ai"``), as canonical JSON (keys sorted, no
    spaces, ASCII)."""
    data = {"game": game, "rules": rules.to_dict(), "seats": list(seats)}
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode("ascii")


def commitment(secret: bytes, context: bytes) -> str:
    """SHA-256 of ``COMMIT_DOMAIN + secret + context``, as 64 hex digits."""
    return hashlib.sha256(COMMIT_DOMAIN + secret + context).hexdigest()


def deal_seed(commit: str, secret: bytes, contributions: Sequence[tuple[int, bytes]]) -> int:
    """The game's seed: the first 8 bytes of SHA-256 of ``SEED_DOMAIN``, the commitment's 32
    bytes, the secret, then for each contribution in seat order one byte of the seat and the
    value; as a big-endian number shifted right by one (63 bits, for ``engine.new_game``)."""
    digest = hashlib.sha256(SEED_DOMAIN + bytes.fromhex(commit) + secret)
    for seat, value in sorted(contributions):
        digest.update(bytes((seat,)) + value)
    return int.from_bytes(digest.digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class DealSecret:
    """The host's side of one game's deal, kept (and saved) until the game's end: never sent
    before it."""

    secret: bytes
    seats: tuple[str, ...]  # each seat's kind when the commitment was made
    contributions: tuple[tuple[int, bytes], ...]  # (seat, value) in seat order

    def commitment(self, game: int, rules: Rules) -> str:
        return commitment(self.secret, deal_context(game, rules, self.seats))

    def seed(self, game: int, rules: Rules) -> int:
        return deal_seed(self.commitment(game, rules), self.secret, self.contributions)


@dataclass(frozen=True, slots=True)
class Revealed:
    """What the host revealed at a game's end (the ``reveal`` messages put together)."""

    game: int
    secret: str  # hex
    contributions: tuple[tuple[int, str], ...]  # (seat, hex value)
    seed: int
    actions: tuple[tuple[int, Action], ...]
    drawn: bool  # the owner ended the game as a draw after the last action


@dataclass(slots=True)
class DealSeen:
    """What one seat saw of one game: enough to check the deal."""

    seat: int
    game: int
    rules: Rules
    seats: tuple[str, ...]  # each seat's kind in the room when the commitment came
    previous: GameResult | None  # the table's last result then (the engine's ``previous``)
    commitment: str | None = None
    contribution: str | None = None  # our value (hex), if we sent one
    events: dict[int, tuple[Event, ...]] = field(default_factory=dict)  # by update seq
    views: dict[int, SeatView] = field(default_factory=dict)  # by update or snapshot seq


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The verdict: ``problem`` is "" when the deal is verified, else one of
    ``DEAL_PROBLEMS`` with ``text`` saying what was wrong in one English line. ``log`` is the
    revealed game (rules, seed, actions) once it replays to what the seat saw."""

    problem: str
    text: str
    log: GameLog | None = None

    @property
    def ok(self) -> bool:
        return not self.problem


def _fail(problem: str, text: str) -> DealCheck:
    return DealCheck(problem, text)


def check_deal(seen: DealSeen, revealed: Revealed | None) -> DealCheck:
    """Verify a revealed game against what the seat saw: the commitment matches the secret,
    our contribution is in, the seed follows from them, and the engine replaying the actions
    from that seed tells the seat exactly the events and views it was shown."""
    if seen.commitment is None:
        return _fail("no_commitment", "we never saw the host's commitment to this deal")
    if revealed is None or revealed.game != seen.game:
        return _fail("no_reveal", "the host did not reveal the deal at the end of the game")
    if not is_value(revealed.secret, SECRET_BYTES):
        return _fail("commitment", "the revealed secret is not 32 bytes")
    secret = bytes.fromhex(revealed.secret)
    context = deal_context(seen.game, seen.rules, seen.seats)
    if commitment(secret, context) != seen.commitment:
        return _fail("commitment", "the revealed secret does not match the host's commitment")
    values = dict(revealed.contributions)
    if len(values) != len(revealed.contributions) or not all(
        is_value(v) and 0 <= s < seen.rules.players for s, v in revealed.contributions
    ):
        return _fail("contribution", "the revealed contributions are malformed")
    if seen.contribution is not None and values.get(seen.seat) != seen.contribution:
        return _fail("contribution", "our contribution is not among those the seed was made of")
    parts = [(s, bytes.fromhex(v)) for s, v in revealed.contributions]
    if deal_seed(seen.commitment, secret, parts) != revealed.seed:
        return _fail("seed", "the seed does not follow from the secret and the contributions")
    log = GameLog(seen.rules, revealed.seed, seen.previous, list(revealed.actions))
    return _replayed(seen, log, revealed.drawn)


def _replayed(seen: DealSeen, log: GameLog, drawn: bool) -> DealCheck:
    """Replay ``log``: every update and view the seat saw must be what the engine tells it."""
    seat = seen.seat
    state = log.start()
    steps: list[tuple[Event, ...]] = [tuple(trim(e, seat) for e in state.opening)]
    views = {0: observe(state, seat)} if 0 in seen.views else {}
    for number, (actor, action) in enumerate(log.actions, 1):
        try:
            events = state.apply(actor, action)
        except IllegalAction:
            return _fail("log", f"revealed action {number} is illegal in the dealt game")
        steps.append(tuple(trim(e, seat) for e in events))
        if number in seen.views:
            views[number] = observe(state, seat)
    if drawn and state.result is None:
        steps.append(tuple(trim(e, seat) for e in state.declare_draw()))
        if len(steps) - 1 in seen.views:
            views[len(steps) - 1] = observe(state, seat)
    if state.result is None:
        return _fail("log", "the revealed actions do not finish the game")
    for seq, shown in sorted(seen.events.items()):
        if seq >= len(steps) or steps[seq] != shown:
            what = "the deal" if seq == 0 else f"update {seq}"
            return _fail("deal", f"{what} we were shown is not the one the seed gives")
    for seq, view in sorted(seen.views.items()):
        if views.get(seq) != view:
            what = "our first hand" if seq == 0 else f"the table after update {seq}"
            return _fail("deal", f"{what} is not what the seed gives")
    return DealCheck("", "deal verified", log)


class DealWitness:
    """What one client sees of each game's deal, gathered from the host's messages in the
    order they come (``see``), with our contribution (``contributed``). Once a game's
    ``reveal`` is complete, ``see`` returns the verdict (also kept: ``verdict``)."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.room: Room | None = None
        self.seen: DealSeen | None = None  # the game being played (or the last one)
        self._actions: list[tuple[int, Action]] = []
        self._broken = False  # a reveal part came out of order
        self._verdicts: dict[int, DealCheck] = {}

    def contributed(self, game: int, value: str) -> None:
        if self.seen is not None and self.seen.game == game:
            self.seen.contribution = value

    def see(self, message: Message) -> DealCheck | None:
        if isinstance(message, Welcome):
            self.seat, self.room = message.seat, message.room
        elif isinstance(message, RoomUpdate):
            self.room = message.room
        elif isinstance(message, Commit):
            self._begin(message.game, message.commitment)
        elif isinstance(message, Update | Snapshot):
            seen = self.seen
            if seen is None or seen.game != message.game:
                seen = self._begin(message.game, None, message.view.rules)
            if seen is not None:
                if isinstance(message, Update):
                    seen.events[message.seq] = message.events
                seen.views[message.seq] = message.view
        elif isinstance(message, Reveal):
            return self._reveal(message)
        return None

    def verdict(self, game: int) -> DealCheck:
        """The verdict on ``game``: the reveal's, or why there is none."""
        found = self._verdicts.get(game)
        if found is not None:
            return found
        seen = self.seen
        if seen is None or seen.game != game:
            return _fail("no_commitment", "we never saw the host's commitment to this deal")
        return check_deal(seen, None)

    def _begin(self, game: int, commit: str | None, rules: Rules | None = None) -> DealSeen | None:
        room = self.room
        if self.seat is None or room is None:
            return None
        kinds = tuple(s.kind for s in room.seats)
        previous = room.series.last
        self.seen = DealSeen(self.seat, game, rules or room.rules, kinds, previous, commit)
        self._actions, self._broken = [], False
        return self.seen

    def _reveal(self, message: Reveal) -> DealCheck | None:
        seen = self.seen
        if seen is None or seen.game != message.game:
            return None
        if message.start == 0:  # (again, whole: a restarted host ends the game again)
            self._actions, self._broken = [], False
        if message.start != len(self._actions):
            self._broken = True
        self._actions.extend(message.actions)
        if not message.done:
            return None
        revealed = None
        if not self._broken:
            revealed = Revealed(
                message.game,
                message.secret,
                message.contributions,
                message.seed,
                tuple(self._actions),
                message.drawn,
            )
        verdict = check_deal(seen, revealed)
        if len(self._verdicts) >= 8:
            self._verdicts.pop(min(self._verdicts))
        self._verdicts[message.game] = verdict
        return verdict
