"""The engine's frozen values (cards, rules, actions, events, views, the coach's verdicts)
pickle as a call of their class with their fields, compiled or pure alike.

They cross processes: a host's AI workers are told rules, views and events and answer with
actions; the window's review sends the coach decisions and gets verdicts back. Compiled by
mypyc, a frozen dataclass is unpickled by setting its attributes one by one, which its
frozen ``__setattr__`` refuses (the worker died, the host replaced it, again and again).
Each module registers its classes here with ``copyreg``, so pickle writes
``Card(14, Suit.SPADES)`` and unpickling rebuilds the value as it was built, checks
included, whichever engine made it.
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any

__all__ = ["pickle_by_fields"]


def pickle_by_fields(*classes: type) -> None:
    """Pickle each frozen dataclass of ``classes`` as its constructor's call."""
    for cls in classes:
        copyreg.pickle(cls, _by_fields)


def _by_fields(value: Any) -> tuple[type, tuple[object, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)
