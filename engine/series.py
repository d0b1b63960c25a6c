"""The series score a table keeps across rematches.

Series rule of RULES.md: one win for the first out (every seat sharing first place), one
loss for the Durak. A game without a Durak counts as a draw; in a game where everyone
went out together nobody wins either.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import GameResult

__all__ = ["Series"]


@dataclass(frozen=True, slots=True)
class Series:
    wins: tuple[int, ...]
    losses: tuple[int, ...]
    games: int = 0
    draws: int = 0
    last: GameResult | None = None

    @classmethod
    def new(cls, players: int) -> Series:
        return cls((0,) * players, (0,) * players)

    def record(self, result: GameResult) -> Series:
        """The series after one more game."""
        if len(result.places) != len(self.wins):
            raise ValueError("the result is for a different number of players")
        everyone_first = all(p == 1 for p in result.places)
        wins = tuple(
            w + (p == 1 and not everyone_first)
            for w, p in zip(self.wins, result.places, strict=True)
        )
        losses = tuple(loss + (s == result.durak) for s, loss in enumerate(self.losses))
        return Series(wins, losses, self.games + 1, self.draws + result.draw, result)
