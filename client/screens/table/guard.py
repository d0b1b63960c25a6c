"""Input aimed at a bout or a role that has just ended is not applied to the next.

A key pressed a second late to throw J♠ into a bout that had closed landed in the next
one: Igor attacked with 8♠ and the 4 beat it (issue 42). So when the table shows a new
bout (its first card down) or our role in it changes (we defend now, or take), the card and
action inputs are held off for ``HOLD`` seconds, and the new prompt flashes for
``FLASH`` seconds so that the change is seen. Within one bout nothing is held: a
defender beating card after card, or an attacker throwing in, is never slowed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

__all__ = ["FLASH", "HOLD", "Guard"]

HOLD = 0.6  # seconds input is held off after the bout or our role changes
FLASH = 0.9  # seconds the new prompt flashes


class Guard:
    """What the table showed last (``see``), and how long input is held off since."""

    def __init__(self) -> None:
        self.shown: Hashable = None
        self.held = 0.0  # seconds left of the hold
        self.flashing = 0.0  # seconds left of the flash

    def see(self, shown: Hashable) -> None:
        """The bout and our role as the table shows them now (any hashable value)."""
        if shown != self.shown:
            if self.shown is not None:  # (the first the table shows follows nothing)
                self.held, self.flashing = HOLD, FLASH
            self.shown = shown

    def update(self, dt: float) -> None:
        self.held = max(0.0, self.held - dt)
        self.flashing = max(0.0, self.flashing - dt)

    @property
    def holding(self) -> bool:
        """Card and action input is not taken now."""
        return self.held > 0

    def flash(self) -> float:
        """How strongly the prompt flashes now: 1 as it changes, fading to 0, in two pulses."""
        if self.flashing <= 0:
            return 0.0
        done = 1 - self.flashing / FLASH
        return (1 - done) * abs(math.cos(done * 2 * math.pi))

    def next_frame(self) -> float:
        return 0.0 if self.flashing > 0 or self.held > 0 else math.inf
