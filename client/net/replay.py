"""A kept game played back: a session the table screen shows like a live one.

``Replay`` turns a game file into its steps (the deal, then one step per action: the
seat's trimmed events and its view after them), where each bout starts, and — when the
file has the full log, i.e. the player may know everything once the game is over — every
hand after every step (the engine plays the log again). ``ReplaySession`` is the
``client.net.session.Session`` the table drains: ``seek(k)`` puts the table at step ``k``
at once (a fresh ``Seated`` and the view there), ``advance()`` tells it the next step
(its events animate as in a live game) and the end; the table's Rematch asks
for the replay to start over (``restart``). The views it hands on have no legal
actions, so nothing on the table can be played; ``send`` does nothing.
"""

from __future__ import annotations

import queue
from dataclasses import replace

from client.net.gamefile import GameFile, Step, steps_from_log
from client.net.session import GameOver, Happened, InFlight, Message, Seated, Snapshot
from engine import Action, BoutStarted, Card, SeatView, Series

__all__ = ["Replay", "ReplaySession"]


class Replay:
    def __init__(self, game: GameFile) -> None:
        self.game = game
        self.steps: tuple[Step, ...] = game.steps
        self.hands: list[tuple[tuple[Card, ...], ...]] | None = None
        if game.log is not None:
            self.steps = steps_from_log(game.log, game.seat)
            state = game.log.start()
            self.hands = [tuple(state.hand(s) for s in range(state.players))]
            for actor, action in game.log.actions:
                state.apply(actor, action)
                self.hands.append(tuple(state.hand(s) for s in range(state.players)))
        self.bouts = [
            k
            for k, step in enumerate(self.steps)
            if any(isinstance(e, BoutStarted) for e in step.events)
        ]

    def __len__(self) -> int:
        return len(self.steps)

    def view_at(self, shown: int) -> SeatView | None:
        """The seat's view once ``shown`` steps are shown (the latest one told)."""
        for step in reversed(self.steps[:shown]):
            if step.view is not None:
                return replace(step.view, legal=(), hints=())
        return None

    def bout_at(self, shown: int) -> int:
        """Which bout (1-based; 0 before the first) is under way once ``shown`` steps are."""
        return sum(1 for k in self.bouts if k < shown)

    def bout_start(self, shown: int, step: int) -> int:
        """Where to go to step ``step`` bouts (back or forward) from ``shown``: the start
        of that bout (the step after its ``BoutStarted`` is shown), within the game."""
        here = self.bout_at(shown)
        # going back from the middle of a bout first returns to its own start
        if step < 0 and here and shown > self.bouts[here - 1] + 1:
            step += 1
        target = min(max(here + step, 1), len(self.bouts))
        return self.bouts[target - 1] + 1 if self.bouts else len(self.steps)


class ReplaySession:
    """The table's session during a replay; the replay screen drives it."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.inflight = InFlight()  # (nothing is ever sent)
        self.shown = 0
        self.restart = False  # the table's "watch again" (its Rematch) was pressed

    def seek(self, shown: int) -> list[Message]:
        """The messages that put a fresh table at ``shown`` steps (without animation)."""
        replay, game = self.replay, self.replay.game
        self.shown = max(0, min(shown, len(replay)))
        told: list[Message] = [Seated(game.seat, game.names, game.rules)]
        view = replay.view_at(self.shown)
        if view is not None:
            told.append(Snapshot(view))
        if self.shown == len(replay):
            told += self._end()
        return told

    def advance(self) -> bool:
        """Tell the table the next step (and the end after the last); False at the end."""
        replay = self.replay
        if self.shown >= len(replay):
            return False
        step = replay.steps[self.shown]
        self.shown += 1
        self.inbox.put(Happened(step.events))
        view = replay.view_at(self.shown)
        if step.view is not None and view is not None:
            self.inbox.put(Snapshot(view))
        if self.shown == len(replay):
            for message in self._end():
                self.inbox.put(message)
        return True

    def _end(self) -> list[Message]:
        result = self.replay.game.result
        if result is None:
            return []
        return [GameOver(result, Series.new(len(result.places)).record(result))]

    def send(self, action: Action) -> None:
        """A replay is watched, not played."""

    def emote(self, code: str) -> None:
        """Nobody is there to see it."""

    def rematch(self) -> None:
        """Watch it again from the deal (the replay screen starts it over)."""
        self.restart = True

    def leave(self) -> None:
        """Nobody sits there: leaving a replay is closing it."""

    def draw(self) -> None:
        """A kept game ended as it ended."""

    def pause(self, paused: bool) -> None:
        """A replay has its own pause (the replay screen's)."""

    def back_soon(self, on: bool) -> None:
        """Nobody waits for a replay's watcher."""

    def close(self) -> None:
        """Nothing to close: the file was read at the start."""
