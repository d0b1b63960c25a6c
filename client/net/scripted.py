"""A session driven step by step by its caller: the tests' and the benchmark's table.

It holds a real ``GameState`` and speaks the messages of ``client.net.session`` like a host,
but nothing happens by itself: the caller plays the other seats with ``play(seat,
action)``, and the window's own actions are applied when it sends them (or only recorded,
with ``apply_sent=False``). No thread, no clock: a test stays deterministic.
"""

from __future__ import annotations

import queue
from collections.abc import Sequence

from client.net.session import (
    Emoted,
    GameOver,
    Happened,
    Inbox,
    InFlight,
    Message,
    Rejected,
    Seated,
    Snapshot,
)
from engine import Action, Event, GameState, IllegalAction, Series, observe, trim

__all__ = ["ScriptedSession"]


class ScriptedSession:
    def __init__(
        self,
        state: GameState,
        *,
        seat: int = 0,
        names: Sequence[str] | None = None,
        apply_sent: bool = True,
    ) -> None:
        self.inbox: queue.Queue[Message] = Inbox[Message]()
        self.inflight = InFlight()
        self.state = state
        self.seat = seat
        self.names = tuple(names or [f"Player {s + 1}" for s in range(state.players)])
        self.apply_sent = apply_sent
        self.sent: list[Action] = []
        self.rematches = 0
        self.closed = False
        self.left = False  # ``leave`` was called
        self.paused: list[bool] = []  # what each ``pause`` asked
        self.back_soon_marks: list[bool] = []  # what each ``back_soon`` asked
        self.series = Series.new(state.players)
        self.inbox.put(Seated(seat, self.names, state.rules))
        self._tell(state.opening)

    def _tell(self, events: Sequence[Event]) -> None:
        self.inbox.put(Happened(tuple(trim(e, self.seat) for e in events)))
        self.inbox.put(Snapshot(observe(self.state, self.seat)))
        if self.state.result is not None:
            self.series = self.series.record(self.state.result)
            self.inbox.put(GameOver(self.state.result, self.series))

    def play(self, seat: int, action: Action) -> None:
        """Another seat acts (raises ``IllegalAction`` if it may not)."""
        self._tell(self.state.apply(seat, action))

    def send(self, action: Action) -> None:
        self.inflight.sent(action)
        self.sent.append(action)
        if not self.apply_sent:
            return
        try:
            events = self.state.apply(self.seat, action)
        except IllegalAction as exc:
            self.inbox.put(Rejected(exc.reason.value, exc.reason.text))
            return
        self._tell(events)

    def emote(self, code: str) -> None:
        """Shown at once, as a host would relay it back."""
        self.inbox.put(Emoted(self.seat, code))

    def rematch(self) -> None:
        self.rematches += 1

    def leave(self) -> None:
        self.left = True
        self.close()

    def draw(self) -> None:
        """Ends the game as a draw, as a host would for its owner."""
        self._tell(self.state.declare_draw())

    def pause(self, paused: bool) -> None:
        self.paused.append(paused)

    def back_soon(self, on: bool) -> None:
        self.back_soon_marks.append(on)

    def close(self) -> None:
        self.closed = True
