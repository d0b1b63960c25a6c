"""A seat's life at a table, from its player's connecting to its being freed, in one place.

A human seat is **connected** while its player's link is there. When the link goes, the
seat is **away**: in a game (and in the lobby of a table whose policy keeps the seat,
``TablePolicy.keep_lobby_seat``: a party's) it is **held** for the room's ``hold``
seconds; in an owner's lobby it is empty again at once. Each drop counts (``Seat.away``),
and the hold's timer (``Held``) carries the count it began with, so a player who came back
and dropped again meanwhile is judged by the newer hold only. When a hold runs out with its
player still away, in a game a **stand-in** AI plays the seat (``Dealer.stand_in``); in a
lobby (a resumed table's, whose players have not come back) the seat is freed. With no
hold (0) the stand-in plays at once. The player **back** with the seat's token takes over
from the stand-in at the next decision.

What follows a game's end for the seats is here too (``ended``): a seat an AI played only
for the game is empty again, and so is one whose player stayed away past the hold (a
stand-in played it); a player away for less keeps the seat for the rest of the hold (a
phone put away during the game gets its place back in the room) and the running hold
frees it after that. A seat is also freed by the owner's commands (``Roster.carry_out``)
and, in the lobby, by the idle watch of a player who sits there unready for the room's
``idle`` seconds (``Roster.idle_watches``); in a game the AI now there plays it. At the
next deal, seats kept for players who are not there (one away since the last game, a
party's player who never came) are held again, as for any drop.

``SeatLife`` decides all of it on the table's task and tells the table what changed; the
table hands the room on (``Roster.fix_owner``) and shows it. It owns no timers: ``later``
queues an item for the table, as the table's own timers do.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from .dealer import Dealer
from .items import Held, Idle, Item, Link
from .policy import TablePolicy
from .room import Freed, Roster
from .room_state import Seat

__all__ = ["SeatLife"]


class SeatLife:
    def __init__(
        self,
        roster: Roster,
        dealer: Dealer,
        policy: TablePolicy,
        later: Callable[[float, Item], object],
    ) -> None:
        self.roster = roster
        self.dealer = dealer
        self.policy = policy
        self.later = later  # queue an item for the table after so many seconds

    def back(self, index: int, link: Link) -> Link | None:
        """``link`` plays seat ``index`` now (a newcomer, or its player back with the
        token, who takes over from a stand-in): the connection it replaces, if any."""
        seat = self.roster.seats[index]
        old, seat.link, link.seat = seat.link, link, index
        seat.back_soon = False  # the player is back
        play = self.dealer.play
        if play is not None:
            play.bots.pop(index, None)
        return old

    def gone(self, index: int) -> None:
        """Seat ``index``'s connection is gone: held for its player in a game (and in a
        lobby the policy keeps), otherwise empty again."""
        seats = self.roster.seats
        seats[index].link = None
        if self.dealer.play is not None or self.policy.keep_lobby_seat:
            self.hold(index)
        else:
            seats[index] = Seat()

    def hold(self, index: int) -> None:
        """Hold an away player's seat for ``hold`` seconds, then a stand-in plays (in the
        lobby: the seat is freed). A seat the policy keeps through the lobby is its player's
        there, however long they are away."""
        if self.policy.keep_lobby_seat and self.dealer.play is None:
            return
        seat = self.roster.seats[index]
        seat.away += 1
        if self.roster.hold > 0:
            self.later(self.roster.hold, Held(index, self.dealer.game, seat.away))
        elif self.dealer.play is None:
            self.roster.seats[index] = Seat()
        else:
            self.dealer.stand_in(index)

    def held(self, held: Held) -> bool:
        """A hold ran out: if its player is still away since it began, the stand-in plays
        the seat (a resumed lobby's seat is freed). True when the seat changed hands."""
        seats = self.roster.seats
        seat = seats[held.seat] if held.seat < len(seats) else None
        due = held.game == self.dealer.game and held.seat not in self.dealer.bots
        still = seat is not None and seat.kind == "human" and not seat.link
        if not (due and still and seat is not None and seat.away == held.away):
            return False
        if self.dealer.play is None:
            seats[held.seat] = Seat()
        else:
            self.dealer.stand_in(held.seat)
        return True

    def freed(self, freed: Freed) -> None:
        """A seat was freed (an owner's command, the lobby's idle watch): in a game the AI
        now there plays it; its player is told why."""
        self.dealer.freed(freed.index)
        if freed.link is not None:
            freed.link.close(freed.code, freed.text)

    def watch_idle(self) -> None:
        """Time the lobby's idle watch of every player who sits there unready
        (``Roster.idle_watches``)."""
        for idle in self.roster.idle_watches(self.dealer.play is not None):
            assert self.roster.idle is not None
            self.later(self.roster.idle, idle)

    def idle_up(self, idle: Idle) -> bool:
        """An idle watch ran out: its seat is freed if the watch still ran. True if so."""
        freed = self.roster.idle_up(idle, self.dealer.play is not None)
        if freed is not None:
            self.freed(freed)
        return freed is not None

    def dealt(self) -> None:
        """A game is dealt: every seat kept for a player who is not there is held."""
        for index in self.away():
            self.hold(index)

    def opened(self) -> None:
        """The table opens: a resumed table's players are away until they come back."""
        for index in self.away():
            self.hold(index)

    def all_back(self) -> bool:
        """Whether every human seat is connected or played by a stand-in."""
        stand_ins = self.dealer.bots
        seats = enumerate(self.roster.seats)
        return all(s.kind != "human" or s.link is not None or i in stand_ins for i, s in seats)

    def ended(self, stood_in: Collection[int]) -> None:
        """A game ended: a seat an AI played only for it is empty again, and so is one whose
        player stayed away past the hold (``stood_in``: a stand-in played it)."""
        seats = self.roster.seats
        for index, seat in enumerate(seats):
            if seat.for_game or (seat.kind == "human" and seat.link is None and index in stood_in):
                seats[index] = Seat()

    def away(self) -> list[int]:
        """The seats of players who are not connected now."""
        seats = self.roster.seats
        return [i for i, s in enumerate(seats) if s.kind == "human" and s.link is None]
