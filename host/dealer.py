"""The table's games, from the owner's start to the result, carried out on its task.

A ``Dealer`` owns what a table has of its games: the deal waiting for the players'
contributions (``host.deal``), the game in play (``host.game``), the games played
(``logs``), the game number, the seeds and the AI players' job numbers. It does what those
phases return: it sends the commitment, each seat's and the watchers' updates and the
reveal, plays the AI players' answers and the turn timer's default moves, and hands each
action to ``record`` (the journal) before anyone is told of it.

The deal's secret (docs/protocol.md section 15) comes from the OS's secure random source
whenever a player is asked to contribute, even on a table with a ``seed``: a seed anyone
may know (``durak host --seed``, a benchmark's) would make the secret known before the
game, and a player who contributes last could then choose the deal. A seeded table's deals
are reproducible only where nobody contributes (its AI-only games, or ``fair_wait`` 0).

What concerns the room is the table's, so the dealer says when it is the table's turn
instead of calling it: ``start`` says whether the deal waits, ``dealt`` returns the game
for the table to show in the room before its first update goes out (``opening``), and
every call that can end a game returns True when it did (the table then hands the room
on, shows it and perhaps starts the next game).
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine import Action, Event, GameLog, GameState
from engine.ai import Bot, make_bot
from protocol import SECRET_BYTES, Ack, Act, Contribute, DealSecret, Rejected

from . import lobby
from .audience import Audience
from .config import HostConfig
from .deal import Deal
from .game import BotSlot, Game, Resources, default_move
from .items import Link, Thought, TurnUp
from .room import Roster
from .save import TableSave
from .scheduler import Scheduler
from .workers import Workers

__all__ = ["Dealer"]


class Dealer:
    def __init__(
        self,
        config: HostConfig,
        roster: Roster,
        audience: Audience,
        scheduler: Scheduler,
        post: Callable[[Thought | TurnUp], None],
        workers: Workers | None,
        record: Callable[[int, Action], None],
        seats_after: Callable[[Collection[int]], None],
        entropy: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self.config, self.roster, self.audience = config, roster, audience
        self.seats_after = seats_after  # a game ended: its stand-ins, for the seats' fate
        self.entropy = entropy  # the secure source of a secret players contribute to
        self.workers = workers
        self.record = record  # an action is journaled (before anyone is told of it)
        self.game = 0  # the number of the game in play (or of the last one)
        self.logs: list[GameLog] = []  # every finished game, for replays and tests
        self.last_seq = 0  # the last game's seq, once it is over
        self.pending: Deal | None = None  # a deal waiting for contributions
        self.play: Game | None = None  # the game in play
        self.seeds = (
            random.Random(config.seed) if config.seed is not None else random.SystemRandom()
        )
        # One counter for every AI job of the table: an answer is taken only from the job
        # that is current for its seat's current bot (never from an earlier stand-in's).
        jobs = itertools.count(1)
        self.uses = Resources(self.seeds, self._bot, scheduler, post, jobs)
        self.failed = 0  # AI answers that failed or were illegal on a current view
        # The host is stopping (or its AI executor refuses work, as it does once the process
        # is exiting): no AI is asked to think any more.
        self.stopping = False

    # (views of the game in play, for the host's tests and tools)
    @property
    def state(self) -> GameState | None:
        return None if self.play is None else self.play.state

    @property
    def log(self) -> GameLog | None:
        return None if self.play is None else self.play.log

    @property
    def seq(self) -> int:
        """The game in play's (or the last game's) count of actions."""
        return self.last_seq if self.play is None else self.play.seq

    @property
    def bots(self) -> dict[int, BotSlot]:
        return {} if self.play is None else self.play.bots

    @property
    def deal(self) -> DealSecret | None:
        return None if self.play is None else self.play.deal

    def restore(self, saved: TableSave) -> None:
        """The games of a saved table (its room restored first): the number, the last
        game played and the game in play, if any, with every action so far."""
        self.game = saved.game
        if saved.last is not None:
            self.logs.append(saved.last)
        if saved.current is not None:
            players = len(self.roster.seats)
            self.play = Game.resumed(self.game, saved.current, saved.deal, players, self.uses)
            self.play.add_bots(self.roster.ai_levels())

    def saved(self, game: bool) -> dict[str, Any]:
        """The games' fields of a ``TableSave`` (with ``game``: the game in play, every
        action so far)."""
        play = self.play if game else None
        current = None
        if play is not None:
            log = play.log
            current = GameLog(log.rules, log.seed, log.previous, list(log.actions))
        return {
            "game": self.game,
            "current": current,
            "last": self.logs[-1] if self.logs else None,
            "deal": None if play is None else play.deal,
        }

    def start(self) -> float | None:
        """Commit to the next deal: every connected player is sent the commitment to a
        fresh secret. The seconds to wait for their contributions (``fair_wait``), or None
        when the deal follows at once (nobody is asked)."""
        game = self.game + 1
        roster = self.roster
        kinds = tuple(s.kind for s in roster.seats)
        waiting = roster.connected()
        wait = max(0.0, self.config.fair_wait)
        # A secret anyone could know beforehand (``--seed``'s) would let a player who
        # contributes last choose the deal: whenever a contribution is asked for, the
        # secret is the OS's. Only a deal nobody contributes to is the seed's alone.
        asked = bool(waiting) and wait > 0
        secret = self.entropy(SECRET_BYTES) if asked else self.seeds.randbytes(SECRET_BYTES)
        self.pending = pending = Deal.committed(game, secret, kinds, roster.rules, waiting, wait)
        for index in sorted(waiting):
            link = roster.seats[index].link
            assert link is not None
            link.send(pending.commit)
        return None if not waiting or wait == 0 else wait

    def contribute(self, link: Link, message: Contribute) -> bool:
        """A player's contribution to the pending deal: True when the deal may follow
        (every seat asked has sent one)."""
        pending = self.pending
        reason = "no_commitment" if pending is None else pending.contribute(link.seat, message)
        if reason is not None:
            link.send(Rejected(message.ref, reason, lobby.REFUSALS[reason]))
            return False
        link.send(Ack(message.ref, None))
        assert pending is not None
        return pending.complete

    def dealt(self, pending: Deal) -> Game:
        """Deal the pending game from the seed its secret and contributions give (its
        first update waits for ``opening``)."""
        self.pending = None
        number, previous = pending.game, self.roster.series.last
        play = Game.dealt(number, self.roster.rules, pending.dealt(), previous, self.uses)
        self.play, self.game = play, number
        self.roster.dealt()
        play.add_bots(self.roster.ai_levels())
        return play

    def opening(self, play: Game) -> None:
        """The dealt game's first update to everyone; the AI players and the timer start."""
        self._tell(play, play.state.opening)
        self.carry_on()

    def _bot(self, level: str, seat: int, seed: int) -> Bot:
        """A bot for an AI-played seat: in a worker process when the table has workers."""
        if self.workers is not None:
            return self.workers.bot(level, seat, self.roster.rules, seed)
        return make_bot(level, seat, self.roster.rules, seed)

    def _tell(self, play: Game, events: Sequence[Event]) -> None:
        told = play.tell(events, self.roster.connected(), bool(self.audience))
        for index, update in told.updates:
            link = self.roster.seats[index].link
            assert link is not None
            link.send(update)
        if told.watch is not None:
            for watcher in self.audience:
                watcher.send(told.watch)

    def act(self, link: Link, act: Act) -> bool:
        """A player's action: played if legal (True: it ended the game)."""
        play, index = self.play, link.seat
        assert index is not None
        if play is None:
            link.send(Rejected(act.ref, "no_game", lobby.REFUSALS["no_game"]))
            return False
        reason = play.state.check(index, act.action)
        if reason is not None:
            link.send(Rejected(act.ref, reason.value, reason.text))
            return False
        return self._apply(play, index, act.action, ack=(link, act.ref))

    def _apply(
        self, play: Game, index: int, action: Action, ack: tuple[Link, int] | None = None
    ) -> bool:
        events = play.apply(index, action)
        self.record(index, action)
        if ack is not None:
            ack[0].send(Ack(ack[1], play.seq))
        self._tell(play, events)
        if play.over:
            self.end(play)
            return True
        self.carry_on()
        return False

    def draw(self) -> None:
        """The owner ends the game as a draw: an update with its end to everyone."""
        play = self.play
        assert play is not None  # (``lobby.check``: a draw only while a game is played)
        self._tell(play, play.draw())
        self.end(play, drawn=True)

    def end(self, play: Game, drawn: bool = False) -> None:
        """The game is over: its reveal to every player; the series and the seats after it."""
        result = play.state.result
        assert result is not None
        for part in play.reveal(drawn):
            for seat in self.roster.seats:
                if seat.link is not None:
                    seat.link.send(part)
        self.roster.record(result)
        self.seats_after(play.bots)
        self.logs.append(play.log)
        play.stop_turn()
        self.play, self.last_seq = None, play.seq

    # --- the AI players and the turn timer -----------------------------------------------

    def think(self) -> None:
        """Ask the AI-played seats that have something to do (none once the host stops)."""
        play = self.play
        if play is not None and not self.stopping and not play.think():
            self.stopping = True

    def carry_on(self) -> None:
        """The game goes on (dealt, after a move, resumed): the AI players with something
        to do are asked and the turn timer starts afresh."""
        self.think()
        if self.play is not None:
            self.play.arm_turn(self.roster.turn_limit)

    def freed(self, index: int) -> None:
        """Seat ``index`` was freed in a game: the AI now there (if any) plays it."""
        play = self.play
        if play is None:
            return
        play.bots.pop(index, None)
        level = self.roster.ai_levels().get(index)
        if level is not None:
            play.add_bots({index: level})
        self.think()

    def stand_in(self, index: int) -> None:
        """The stand-in AI plays seat ``index`` (its player stayed away past the hold)."""
        assert self.play is not None  # (a stand-in plays only in a game)
        self.play.add_bots({index: self.config.stand_in})
        self.think()

    def thought(self, thought: Thought) -> bool:
        """An AI's answer, played if it still may be (True: it ended the game)."""
        play = self.play
        if play is None:
            return False
        answer = play.answer(thought)
        if answer.failed:
            self.failed += 1
        if answer.again:
            self.think()
        elif answer.action is not None:
            return self._apply(play, thought.seat, answer.action)
        return False

    def turn_up(self, turn: TurnUp) -> bool:
        """Time is up: every human seat (not played by an AI) the game was waiting on gets
        its default move, the defender first (True: that ended the game). A seat that
        could only throw in while cards are unbeaten was not waited on and is left alone."""
        play = self.play
        if play is None or turn.game != play.number or turn.seq != play.seq:
            return False
        humans = [i for i, s in enumerate(self.roster.seats) if s.kind == "human"]
        for index in play.timed_out(humans):
            action = default_move(play.state, index)  # (again: the moves before may change it)
            if action is not None and self._apply(play, index, action):
                return True
        return False
