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
away or not: their game must go on), and only in a game (``no_game``). The pause ends by
itself once that stops being true: the game ended or was drawn, the player left or
dropped out, or another player came back to a seat.
"""

from __future__ import annotations

from protocol import Refusal

from .items import Item, Thought, TurnUp

__all__ = ["Pausing"]


class Pausing:
    def __init__(self) -> None:
        self.by: int | None = None  # the seat that paused the game (None: it runs)
        self.held: list[Item] = []  # what would have moved the game meanwhile

    @property
    def on(self) -> bool:
        return self.by is not None

    @staticmethod
    def refusal(playing: bool, alone: bool) -> Refusal | None:
        """Why a seat's pause is refused (``alone``: it is the table's only human)."""
        if not playing:
            return Refusal.NO_GAME
        return None if alone else Refusal.NOT_ALONE

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
