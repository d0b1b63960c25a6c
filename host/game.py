"""The game in play at a table: one object that exists from the deal to the result.

A ``Game`` owns what only a game has: the engine's state and its log (seed and actions),
its ``seq``, every seat's events so far (a bot that takes a seat mid-game, or a returning
player, catches up from them), the deal's secret (revealed at the end), the AI players'
bots and the turn timer. It never sends anything itself: ``tell`` returns the update for
each connected seat and the watchers', ``reveal`` the end's reveal messages, and an AI's
answer becomes an ``Answer`` for the table to play. Its AI jobs and its turn timer run
through the table's scheduler (``Resources``, given when it is made) and post what comes
of them (``Thought``, ``TurnUp``) to the table's queue, so the game never waits and is
never entered from outside the table's task. The table (``host.table``) owns the
connections and the queue and applies what the game returns.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from engine import (
    Action,
    Attack,
    Card,
    Event,
    GameLog,
    GameResult,
    GameState,
    Pass,
    Phase,
    Rules,
    SeatView,
    Suit,
    Take,
    new_game,
    observe,
    observe_public,
    trim,
)
from engine.ai import Bot
from protocol import MAX_REVEAL, DealSecret, Reveal, Snapshot, Update, WatchSnapshot, WatchUpdate

from .items import Thought, TurnUp
from .scheduler import Handle, Scheduler

__all__ = ["Answer", "BotSlot", "Game", "Resources", "Told", "decide", "default_move"]

log = logging.getLogger("durak.host")

MakeBot = Callable[[str, int, int], Bot]  # level, seat, seed -> a bot for the seat


@dataclass(frozen=True, slots=True)
class Resources:
    """What a game uses of its table's: the table's seeds (the bots' seeds, the random
    fallback), its bots' maker, its scheduler (the turn timer, the AI players' jobs), its
    queue (``post``: where a job's answer and the timer's end go) and its job numbers (one
    counter for every AI job of the table: an answer is taken only from the job that is
    current for its seat's current bot, never from an earlier stand-in's)."""

    seeds: random.Random
    make_bot: MakeBot
    scheduler: Scheduler
    post: Callable[[Thought | TurnUp], None]
    jobs: Iterator[int]


@dataclass(slots=True)
class BotSlot:
    bot: Bot
    seen: int = 0  # how many of the seat's events the bot has been told
    thinking: bool = False
    job: int = 0  # the table-wide number of the job it was last given (see ``Table.jobs``)
    seq: int = -1  # the table's seq when it was last asked


def decide(bot: Bot, events: Sequence[Event], view: SeatView) -> Action:
    """Runs in the executor: tell the bot what it missed, then let it choose."""
    for event in events:
        bot.see(event)
    return bot.decide(view)


def _lowest_first(card: Card, trump: Suit) -> tuple[bool, int, int]:
    """Non-trumps before trumps, then by rank, then clubs, diamonds, hearts, spades."""
    return (card.suit == trump, card.rank, card.suit)


def default_move(state: GameState, seat: int) -> Action | None:
    """The turn timer's move: the defender takes, the attacker who must lead leads its
    lowest card (the lowest non-trump, else the lowest trump; of one rank, the first suit
    in the order clubs, diamonds, hearts, spades), anyone else passes.

    None: the game is not waiting on the seat (nothing to do, or only cards it may throw
    in while the defender still has to beat); the timer never plays a card for it."""
    legal = state.legal_actions(seat)
    if not legal:
        return None
    if seat == state.defender and Take() in legal:
        return Take()
    if state.phase is Phase.LEAD and seat == state.attacker:
        leads = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if leads:
            trump = state.trump
            return min(leads, key=lambda a: _lowest_first(a.cards[0], trump))
        return None
    if Pass() in legal:
        return Pass()
    return None


@dataclass(frozen=True, slots=True)
class Told:
    """What the game tells of some events: each connected seat's update, the watchers'."""

    updates: tuple[tuple[int, Update], ...]
    watch: WatchUpdate | None


@dataclass(frozen=True, slots=True)
class Answer:
    """What an AI's answer comes to: an action to play, or asking again (``again``: the
    answer was for a view that has moved on). ``failed``: the bot failed or chose an
    illegal action on a current view, and ``action`` is a legal one picked for it."""

    action: Action | None = None
    again: bool = False
    failed: bool = False


IGNORED = Answer()  # (an answer from an earlier bot or game, or an earlier job)


@dataclass(slots=True)
class Game:
    number: int  # the table's game number
    state: GameState
    log: GameLog
    deal: DealSecret | None  # the secret and contributions, None for a game saved before
    uses: Resources
    history: list[list[Event]]  # every seat's events so far, trimmed for it
    seq: int = 0
    bots: dict[int, BotSlot] = field(default_factory=dict)
    turn: Handle | None = None  # the turn timer, while it runs

    @classmethod
    def dealt(
        cls,
        number: int,
        rules: Rules,
        deal: DealSecret,
        previous: GameResult | None,
        uses: Resources,
    ) -> Game:
        """A new game, dealt from the seed ``deal`` gives (``previous``: the last result,
        which may decide who leads); its opening events are in ``state.opening``."""
        seed = deal.seed(number, rules)
        state = new_game(rules, seed, previous)
        history: list[list[Event]] = [[] for _ in range(rules.players)]
        game_log = GameLog(rules, seed, previous)
        return cls(number, state, game_log, deal, uses, history)

    @classmethod
    def resumed(
        cls,
        number: int,
        game_log: GameLog,
        deal: DealSecret | None,
        players: int,
        uses: Resources,
    ) -> Game:
        """A saved game, replayed to where its log ends."""
        state = game_log.start()
        history = [[trim(e, i) for e in state.opening] for i in range(players)]
        for seat_index, action in game_log.actions:
            events = state.apply(seat_index, action)
            for i in range(players):
                history[i].extend(trim(e, i) for e in events)
        game = cls(number, state, game_log, deal, uses, history)
        game.seq = len(game_log.actions)
        return game

    @property
    def over(self) -> bool:
        return self.state.result is not None

    def add_bots(self, levels: dict[int, str]) -> None:
        """A bot for each seat of ``levels`` (in seat order), each with its own seed from
        the table's seeds (so a bot never learns the shuffle's). A bot that takes a seat
        in the middle of a game is told the seat's events so far when it first thinks."""
        for index, level in levels.items():
            seed = self.uses.seeds.getrandbits(32)
            self.bots[index] = BotSlot(self.uses.make_bot(level, index, seed))

    def apply(self, index: int, action: Action) -> Sequence[Event]:
        """Play a legal ``action`` of seat ``index``: its events (``seq`` counts it)."""
        events = self.state.apply(index, action)
        self.log.actions.append((index, action))
        self.seq += 1
        return events

    def draw(self) -> Sequence[Event]:
        """The owner ends the game as a draw: its events."""
        events = self.state.declare_draw()
        self.seq += 1
        return events

    def tell(self, events: Sequence[Event], connected: Collection[int], watched: bool) -> Told:
        """Note ``events`` in every seat's history; the updates for the ``connected`` seats
        and, when someone ``watched``, the watchers'."""
        state, updates = self.state, []
        for index, seen in enumerate(self.history):
            trimmed = tuple(trim(e, index) for e in events)
            seen.extend(trimmed)
            if index in connected:
                updates.append(
                    (index, Update(self.number, self.seq, trimmed, observe(state, index)))
                )
        watch = None
        if watched:
            public = tuple(trim(e, None) for e in events)
            watch = WatchUpdate(self.number, self.seq, public, observe_public(state))
        return Told(tuple(updates), watch)

    def snapshot(self, index: int) -> Snapshot:
        return Snapshot(self.number, self.seq, observe(self.state, index))

    def watch_snapshot(self) -> WatchSnapshot:
        return WatchSnapshot(self.number, self.seq, observe_public(self.state))

    def reveal(self, drawn: bool) -> tuple[Reveal, ...]:
        """The game is over: its secret, the contributions, the seed and every action
        (``MAX_REVEAL`` actions a message), so each player can check the deal."""
        deal = self.deal
        if deal is None:  # (a game resumed from a save of before the fair deal)
            return ()
        values = tuple((seat, value.hex()) for seat, value in deal.contributions)
        actions = self.log.actions
        starts = range(0, max(len(actions), 1), MAX_REVEAL)
        return tuple(
            Reveal(
                self.number,
                deal.secret.hex(),
                values,
                self.log.seed,
                start,
                tuple(actions[start : start + MAX_REVEAL]),
                drawn,
                start == starts[-1],
            )
            for start in starts
        )

    # --- the AI players and the turn timer -----------------------------------------------

    def think(self) -> bool:
        """Ask every AI-played seat that has something to do and is not thinking yet (its
        answer is posted as a ``Thought``). False: the executor refuses work (the host is
        going), and the seats were not asked."""
        for index in self._due():
            job = next(self.uses.jobs)
            try:
                self.uses.scheduler.run(self._job(index), partial(self._thought, index, job))
            except RuntimeError as exc:  # the executor is shut down: the host is going
                log.info("AI seats stop thinking: %s", exc)
                return False
            self._asked(index, job)
        return True

    def _thought(
        self, index: int, job: int, action: Action | None, error: BaseException | None
    ) -> None:
        if error is not None:
            log.error("AI seat %d failed to decide: %r", index, error)
        self.uses.post(Thought(index, self.number, job, None if error else action))

    def arm_turn(self, seconds: float) -> None:
        """(Re)start the turn timer (the room's, or its patience): ``TurnUp`` is posted."""
        self.stop_turn()
        self.turn = self.uses.scheduler.later(
            seconds, partial(self.uses.post, TurnUp(self.number, self.seq))
        )

    def stop_turn(self) -> None:
        if self.turn is not None:
            self.turn.cancel()
            self.turn = None

    def _due(self) -> list[int]:
        """The AI-played seats to ask now: not thinking yet and with something to do
        (throw-ins wait for the defender, the order the bots play for)."""
        state = self.state
        defender_busy = bool(state.legal_actions(state.defender))
        return [
            index
            for index, slot in self.bots.items()
            if not slot.thinking
            and state.legal_actions(index)
            and not (defender_busy and index != state.defender)
        ]

    def _job(self, index: int) -> Callable[[], Action]:
        """Seat ``index``'s thinking, to run off the table's task."""
        slot = self.bots[index]
        return partial(
            decide, slot.bot, self.history[index][slot.seen :], observe(self.state, index)
        )

    def _asked(self, index: int, job: int) -> None:
        """Seat ``index``'s bot was given job number ``job``."""
        slot = self.bots[index]
        slot.seen = len(self.history[index])
        slot.thinking, slot.seq, slot.job = True, self.seq, job

    def answer(self, thought: Thought) -> Answer:
        """What an AI's answer comes to (applied by the table)."""
        slot = self.bots.get(thought.seat)
        if slot is None or thought.game != self.number or thought.job != slot.job:
            return IGNORED
        slot.thinking = False
        state, action = self.state, thought.action
        if action is not None and state.check(thought.seat, action) is None:
            return Answer(action)
        legal = state.legal_actions(thought.seat)
        if slot.seq != self.seq or not legal:
            return Answer(again=True)  # stale: ask again on the current view
        return Answer(legal[self.uses.seeds.randrange(len(legal))], failed=True)

    def timed_out(self, humans: Iterable[int]) -> list[int]:
        """The human seats (not played by an AI) the game waits on, the defender first."""
        state = self.state
        due = [i for i in humans if i not in self.bots and default_move(state, i) is not None]
        due.sort(key=lambda i: i != state.defender)
        return due
