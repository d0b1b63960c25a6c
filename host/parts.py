"""An object's attribute shown under the same name on the object that holds it.

The table is made of parts that each own their facts (the room's ``Roster``, the games'
``Dealer``, the password's ``Gate``), yet the host's tests and tools read those facts
from the table, as they did before the parts were carved out (``table.seats``,
``table.play``). ``Part("roster")`` on a class makes ``table.seats`` read and write
``table.roster.seats``: one owner for each fact, no copy to keep in step, and no
hand-written property for each.
"""

from __future__ import annotations

from typing import Generic, TypeVar, cast

__all__ = ["Part"]

T = TypeVar("T")


class Part(Generic[T]):
    """``holder.x`` is ``holder.<part>.x`` (``x``: the name this is given on the class)."""

    def __init__(self, part: str) -> None:
        self.part, self.name = part, ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, holder: object, owner: type | None = None) -> T:
        return cast(T, getattr(getattr(holder, self.part), self.name))

    def __set__(self, holder: object, value: T) -> None:
        setattr(getattr(holder, self.part), self.name, value)
