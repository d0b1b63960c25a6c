"""What a table hands its disk, and when (docs/protocol.md section 12).

In the lobby the save file is rewritten after every change. A game's start begins its
journal (a resumed game's is written again whole); every action is a journal record, and
so is a change of the table during a game that the journal keeps (its seats, owner and
name: ``Table._key``); once the game is over it is in the save and the journal is compacted.
Every write the disk is handed has a number: the sends the table held while it handled an
item go out once the disk has written up to the last of them (``durable``), so no client
hears of what a restarted host would not know. Without a disk nothing is kept.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine import Action

from .disk import DiskWriter
from .journal import action_record, header_record, table_record
from .save import TableSave

__all__ = ["Keeper"]


class Keeper:
    """The table's files: the save, the journal, and what its sends wait for."""

    def __init__(self) -> None:
        self.disk: DiskWriter | None = None  # given to the table's ``run``
        self.journaled: int | None = None  # the game the journal is for
        self.key: tuple[object, ...] = ()  # the table as the journal last said it
        self.wait = 0  # what the disk must have written before the held sends go out

    def keep(
        self,
        saved: Callable[[bool], TableSave],
        game: int | None,
        key: tuple[object, ...],
        durable: bool = False,
    ) -> None:
        """Hand the table to the disk: ``saved(with_game)`` is the table as saved, ``game``
        the number of the game in play (None: the lobby), ``key`` what the journal keeps of
        the table beside the actions; ``durable``: in the lobby, nothing more is sent before
        the save is written."""
        disk = self.disk
        if disk is None:
            return
        if game is None:
            number = disk.save(saved(True))
            if self.journaled is not None:  # the game is in the save: compact the journal
                number, self.journaled = disk.end(), None
            if durable:
                self.wait = number
        elif self.journaled != game:
            self.journaled, self.key = game, key
            self.wait = disk.begin(header_record(saved(True)))
        elif key != self.key:
            self.key = key
            self.wait = disk.append(table_record(saved(False)))

    def record(self, index: int, action: Action) -> None:
        """Journal a seat's action (its update waits for the record)."""
        if self.disk is not None:
            self.wait = self.disk.append(action_record(index, action))

    def durable(self) -> Awaitable[None] | None:
        """What the sends held while handling an item wait for (None: nothing)."""
        if not self.wait or self.disk is None:
            return None
        number, self.wait = self.wait, 0
        return self.disk.durable(number)
