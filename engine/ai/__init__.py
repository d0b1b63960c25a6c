"""AI players. They see only a seat's view (``engine.observe``) and its trimmed events.

``make_bot("random", seat, rules, seed)`` builds a player by level name; a level may take a
parameter after a colon (``"hard:0.2"``: a 0.2 s budget per decision).
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import Rules
from .base import Bot, RandomBot

__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]

LEVELS: dict[str, Callable[[int, Rules, int], Bot]] = {
    "random": RandomBot,
}


def make_bot(spec: str, seat: int, rules: Rules, seed: int) -> Bot:
    """A bot from a level name such as ``"random"`` (``ValueError`` for an unknown one)."""
    level, _, param = spec.partition(":")
    factory = LEVELS.get(level.lower())
    if factory is None:
        raise ValueError(f"unknown AI level {spec!r} (choose from {', '.join(LEVELS)})")
    if param:
        raise ValueError(f"AI level {level!r} takes no parameter")
    return factory(seat, rules, seed)
