"""Where a game stands."""

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    LEAD = "lead"  # waiting for the attacker to open the bout
    OPEN = "open"  # cards are on the table
    OVER = "over"
