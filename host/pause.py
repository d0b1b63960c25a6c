"""A real pause for a player alone with the computer: the game's clock stops.

Against the host's AIs nobody waits for anybody, so a player who presses Esc expects the
game to stand still behind the dialog (issue 24: two bouts finished behind it within 5 s).
While a game is paused the table holds back what would move it: an AI's answer that was
already being thought out (its ``Thought``) and a turn timer that ran out just before
(``TurnUp``) wait here, no new AI job is started (jobs start only after a move), the turn
timer is stopped and a player's ``act`` is refused (``paused``). Resuming hands the held
items back in the order they came and starts the turn timer afresh, so the game carries on
from exactly where it stood, the player's turn with its whole time.

Only the table's one human may pause it (``not_alone`` when another human has a seat,
away or not: their game must go on), only in a game (``no_game``) and never at a party's
table (``party_table``: the night's clock is everyone's): ``protocol.pause_refusal``, the
rule the window asks too. The pause ends by itself once that stops being true: the game
ended or was drawn, the player left or dropped out, or another player came back to a
seat.

The "back in a minute" mark is the room's (``host.room``); it is asked for beside the pause
and answered the same way. ``Pausing`` answers each request with what came of it
(``Turn``) or why not, and the table carries that out: it stops or restarts the game's
clock, hands back what was held and shows the room.
"""

from __future__ import annotations

from enum import Enum

from protocol import BackSoon, Pause, Refusal, Room, pause_refusal

from .items import Item, Thought, TurnUp
from .room import Roster

__all__ = ["Pausing", "Turn"]


class Turn(Enum):
    """What came of a seat's pause, resume or mark (the room shows all but ``SAME``)."""

    SAME = "same"  # nothing changed
    PAUSED = "paused"  # the game's clock stops
    RESUMED = "resumed"  # the game runs again (``end`` gives back what was held)
    MARKED = "marked"  # the seat's "back in a minute" mark changed


class Pausing:
    def __init__(self, roster: Roster) -> None:
        self.roster = roster  # who is alone, who is connected, the marks
        self.by: int | None = None  # the seat that paused the game (None: it runs)
        self.held: list[Item] = []  # what would have moved the game meanwhile

    @property
    def on(self) -> bool:
        return self.by is not None

    def ask(self, seat: int, message: Pause | BackSoon, room: Room) -> Refusal | Turn:
        """Seat ``seat`` pauses the game, lets it run again or sets its mark, at a table
        showing ``room``: what came of it, or why it is refused."""
        if isinstance(message, BackSoon):
            if room.status != "playing":
                return Refusal.NO_GAME
            return Turn.MARKED if self.roster.set_back_soon(seat, message.on) else Turn.SAME
        if message.paused:
            refusal = pause_refusal(room, seat)
            if refusal is not None:
                return refusal
            return Turn.PAUSED if self.start(seat) else Turn.SAME
        return Turn.RESUMED if self.by == seat else Turn.SAME

    def over(self, playing: bool) -> bool:
        """Whether the pause ends now: its player is no longer alone and there in a game."""
        by = self.by
        if by is None:
            return False
        return not (playing and self.roster.alone(by) and self.roster.seats[by].link)

    def hold(self, item: Item) -> bool:
        """Keep ``item`` for later if it would move the paused game (True: kept)."""
        if self.on and isinstance(item, Thought | TurnUp):
            self.held.append(item)
            return True
        return False

    def start(self, seat: int) -> bool:
        """Seat ``seat`` pauses the game: True when it was running."""
        started, self.by = self.by is None, seat
        return started

    def end(self) -> list[Item]:
        """The game runs again: what was held back, to be handled now in order."""
        held, self.held, self.by = self.held, [], None
        return held
