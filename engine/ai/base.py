"""What every AI player is: a decision from one seat's view and the events it has seen.

A bot never touches the game state or another hand: the host (or the arena) tells it the
trimmed events of its seat with ``see`` and asks ``decide`` for one of ``view.legal``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action
from ..events import Event
from ..rules import Rules
from ..view import SeatView

__all__ = ["Bot", "RandomBot"]


class Bot(ABC):
    """An AI player for one seat."""

    level = "bot"

    def __init__(self, seat: int, rules: Rules, seed: int) -> None:
        self.seat = seat
        self.rules = rules
        self.rng = random.Random(seed)

    def see(self, event: Event) -> None:  # noqa: B027 - remembering is optional
        """One event, trimmed for this seat, in the order the seat was told it."""

    @abstractmethod
    def decide(self, view: SeatView) -> Action:
        """One of ``view.legal`` (which is not empty)."""

    def random_action(self, view: SeatView) -> Action:
        """A uniformly random one of ``view.legal``, drawn from the bot's own generator."""
        return view.legal[self.rng.randrange(len(view.legal))]


class RandomBot(Bot):
    """The baseline: a uniformly random legal action."""

    level = "random"

    def decide(self, view: SeatView) -> Action:
        return self.random_action(view)
