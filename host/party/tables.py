"""A party's table: an ordinary table of today's protocol (``host.table``, served by a
``host.server.Host``) whose seats are held for the round's players by token, which starts
its one game when they are all there (or after ``gather`` seconds without the missing),
and which tells the party its result.

What differs from a table someone hosts, and why:

- **Seats held by token.** Each seat of a party player is taken before anyone connects,
  with the hash of the token the party gives that player (``Reserved``), exactly as a
  resumed table holds its seats: a ``hello`` with the token gets the seat, nobody else can
  take it, and a player who connects and drops again in the lobby keeps it (an ordinary
  lobby frees it: a party table has no lobby to come back to).
- **The start.** The table is ``autostart`` for one game: it deals once every seat is
  connected. A player who has not come after ``gather`` seconds (a sleeping laptop) does
  not hold up the table: the game starts, their seat held for ``hold`` seconds and then
  stood in for, as for any player who drops (docs/protocol.md section 10); they can come
  in with their token at any time. A seat freed in the lobby (its player sent ``leave``)
  is played by a stand-in for the game.
- **No owner.** The party runs the table: the owner's commands (rules, seats, options,
  start, kick, replace, draw) are rejected ``not_owner``, so no player can change a
  table the night scores, nor send another player away from it.
- **The result.** When the game ends, ``on_result`` is told its result and what the
  party's figures need: how many actions it took, and after how many each seat went out
  (replayed from the game's log, a few milliseconds), once the table's journal has the
  end and its players have been sent it. A table resumed after its game ended (the host
  was killed before the party heard) reports it as it opens.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine import GameLog, GameResult
from protocol import Draw, Kick, Replace, SetOptions, SetRules, SetSeat, Start

from .. import lobby
from ..config import HostConfig
from ..deal import Deal
from ..items import Item, Link, Show
from ..room_state import Seat
from ..server import Host
from ..table import Table
from ..workers import AiPool

__all__ = ["Begin", "Finished", "PartyTable", "PartyTableHost", "Reserved", "went_out"]

PARTY_RUNS = (SetRules, SetSeat, SetOptions, Start, Kick, Replace, Draw)  # the owner's commands


@dataclass(frozen=True, slots=True)
class Reserved:
    """A seat held for a party player: their name, and the hash of their table token."""

    name: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class Finished:
    """A party table's game, as the party scores it."""

    result: GameResult
    actions: int
    seconds: float
    out_after: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Begin(Show):
    """The gathering time is up: deal, whoever is missing (a ``Show``, so that the
    table's queue takes it; only a ``PartyTable`` knows it)."""


def went_out(log: GameLog) -> tuple[int, tuple[int | None, ...]]:
    """The game's number of actions, and after how many each seat went out (its hand
    empty with its place taken; None for the Durak, and for a seat still holding cards
    when a draw ended the game)."""
    state = log.start()
    out: list[int | None] = [None] * log.rules.players
    for number, (seat, action) in enumerate(log.actions, 1):
        state.apply(seat, action)
        for index in range(log.rules.players):
            if out[index] is None and state.places[index] and not state.hands[index]:
                out[index] = number
    if state.result is not None and state.result.durak is not None:
        out[state.result.durak] = None
    return len(log.actions), tuple(out)


class PartyTable(Table):
    def __init__(
        self,
        config: HostConfig,
        *,
        reserved: Sequence[Reserved | None],
        on_result: Callable[[Finished], None],
        gather: float,
        **parts: Any,
    ) -> None:
        super().__init__(config, **parts)
        self.on_result = on_result
        self.gather = gather
        self.opened = time.monotonic()
        self.reported = False
        if not config.resume:  # (a resumed table's seats come from its save)
            for index, seat in enumerate(reserved):
                if seat is not None:
                    self.seats[index] = Seat("human", seat.name, None, seat.token_hash)

    def open(self) -> None:
        super().open()
        if self.game == 0 and not self.playing:
            self._later(self.gather, Begin())
        self._report()

    def handle(self, item: Item) -> None:
        if isinstance(item, Begin):
            self._begin()
        else:
            super().handle(item)

    def _begin(self) -> None:
        """Deal now: a seat freed in the lobby is played by a stand-in for the game."""
        if self.playing or self.pending is not None or self.game > 0:
            return
        for index, seat in enumerate(self.seats):
            if seat.kind == "empty":
                self.seats[index] = Seat.ai(self.config.stand_in, for_game=True)
        self._start_game()

    def _deal(self, pending: Deal) -> None:
        """Dealt: the seats of players who never came are held, then stood in for."""
        super()._deal(pending)
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.link is None and self.playing:
                super()._hold(index)

    def _hold(self, index: int) -> None:
        """A player away in the lobby keeps the seat (it is theirs by token); in the
        game they are held and stood in for as at any table."""
        if self.playing:
            super()._hold(index)

    def _command(self, link: Link, message: lobby.Command) -> None:
        """The party runs its tables: nobody's owner commands change one (the ready mark
        and leaving are every player's own)."""
        if isinstance(message, PARTY_RUNS):
            self._reject(
                link, message.ref, "not_owner", "At a party's table the party runs the room."
            )
            return
        super()._command(link, message)

    def _gone(self, link: Link) -> None:
        index = link.seat
        in_lobby = not self.playing and index is not None and link not in self.audience
        if in_lobby and index is not None and self.seats[index].link is link:
            self.seats[index].link = None
            self._fix_owner()
            self._room_changed()
            return
        super()._gone(link)

    def _ended(self, ended: bool = True) -> None:
        super()._ended(ended)
        if ended:
            self._report()

    def _report(self) -> None:
        if self.reported or self.playing or not self.logs or self.game < 1:
            return
        self.reported = True
        log = self.logs[-1]
        actions, out_after = went_out(log)
        result = log.replay().result or self.series.last  # (a draw declared: no action ends it)
        assert result is not None
        finished = Finished(result, actions, time.monotonic() - self.opened, out_after)
        # Through the outbox: the party hears of the end once the table's journal has it
        # and its players have been sent it, never before (a kill -9 between the two
        # would otherwise tell the party a result the resumed table plays differently).
        self.outbox.send(partial(self.on_result, finished))


class PartyTableHost(Host):
    """A ``Host`` serving a ``PartyTable``, its AI in the party's ``ai``."""

    def __init__(
        self,
        config: HostConfig,
        *,
        ai: AiPool,
        reserved: Sequence[Reserved | None],
        on_result: Callable[[Finished], None],
        gather: float,
    ) -> None:
        self._party_parts: dict[str, Any] = {
            "reserved": reserved,
            "on_result": on_result,
            "gather": gather,
        }
        super().__init__(config, ai=ai)

    def make_table(self, config: HostConfig, **parts: Any) -> Table:
        return PartyTable(config, **self._party_parts, **parts)
