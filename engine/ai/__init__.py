"""AI players. They see only a seat's view (``engine.observe``) and its trimmed events.

``make_bot("random", seat, rules, seed)`` builds a player by level name; a level may take a
parameter after a colon (``"hard:0.2"``: a 0.2 s budget per decision).

Levels: ``random`` (the baseline), ``easy`` (attacks low, defends with the smallest card
that beats), ``normal`` (saves trumps, weighs the stock, throws in what the defender
probably cannot beat) and ``hard`` (remembers every public card, samples what it cannot
see and searches; solves the heads-up endgame exactly).
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import Rules
from .base import Bot, RandomBot
from .easy import EasyBot
from .hard import HardBot
from .match import GameRecord, next_actor, play_game
from .normal import NormalBot

__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "GameRecord",
    "HardBot",
    "NormalBot",
    "RandomBot",
    "make_bot",
    "next_actor",
    "play_game",
]

LEVELS: dict[str, Callable[[int, Rules, int], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}


def _hard_with_budget(param: str) -> Callable[[int, Rules, int], Bot]:
    try:
        budget = float(param)
    except ValueError:
        raise ValueError(f"hard takes a time budget in seconds, not {param!r}") from None
    if not 0 < budget <= 600:
        raise ValueError(f"hard's budget must be between 0 and 600 seconds, not {param}")

    def make(seat: int, rules: Rules, seed: int) -> Bot:
        return HardBot(seat, rules, seed, budget=budget)

    return make


# Levels that take a parameter after a colon, and how it is read.
PARAMETERS: dict[str, Callable[[str], Callable[[int, Rules, int], Bot]]] = {
    "hard": _hard_with_budget,
}


def make_bot(spec: str, seat: int, rules: Rules, seed: int) -> Bot:
    """A bot from a level name such as ``"normal"`` or ``"hard:0.2"`` (``ValueError`` for an
    unknown level or a bad parameter)."""
    level, _, param = spec.partition(":")
    level = level.lower()
    factory = LEVELS.get(level)
    if factory is None:
        raise ValueError(f"unknown AI level {spec!r} (choose from {', '.join(LEVELS)})")
    if param:
        read = PARAMETERS.get(level)
        if read is None:
            raise ValueError(f"AI level {level!r} takes no parameter")
        factory = read(param)
    return factory(seat, rules, seed)
