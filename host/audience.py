"""The table's watchers and the gap between anyone's reactions.

Watchers (a hello with the role "watch") need no seat: up to the room's ``watchers`` (and
never more than the host's door leaves room for beside the seats, ``door_room``) watch the
table in its lobby, in a game or when it is full. They are shown the room, the game as
``observe_public`` gives it (``watch_snapshot``, ``watch_update``) and every reaction; they
may react too, and take a seat that is open in the lobby (``sit``), where they wear the
badge their hello chose (``looks``). Anything else they ask for is refused (``watching``);
one who drops out is simply gone. A lower limit sends nobody away: it holds back newcomers.
``Audience`` answers a watcher itself where the answer is only theirs (a ping, leaving, a
refusal) and returns what the table must carry out: a reaction to relay to everyone, a
request for a seat.

Reactions (``emote``) from one seat or watcher closer together than ``EMOTE_GAP`` seconds
are dropped without a word, so nobody can flood the table with them.

Watchers' comings and goings reach the others coalesced: the first change asks (``show``)
for one room update ``SHOW_AFTER`` seconds later, which shows every change made meanwhile
(a churn of watchers from a few addresses had sent each player 166 room updates a
second); the save holds no watcher, so it is not rewritten for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from protocol import (
    ROOM_COMMANDS,
    Ack,
    Act,
    BackSoon,
    Contribute,
    Emote,
    Hello,
    Leave,
    Message,
    Pause,
    Ping,
    Pong,
    Rejected,
    Sit,
    WatcherEmoted,
)
from protocol import Refusal as Code
from protocol.names import numbered

from .entry import Gate, Refusal
from .items import Link
from .room import bad_name

__all__ = ["EMOTE_GAP", "SHOW_AFTER", "Audience"]

EMOTE_GAP = 2.0  # seconds: a seat's emotes closer together than this are dropped
SHOW_AFTER = 0.25  # seconds from a watcher's coming or going to the room update showing it


class Audience:
    """The watchers' connections and names, and when each seat or watcher last reacted."""

    def __init__(
        self, clock: Callable[[], float], show: Callable[[], object], door_room: int | None
    ) -> None:
        self.clock = clock
        self.show = show  # asks for a room update showing the watchers, SHOW_AFTER from now
        self.door_room = door_room  # watchers the host's door has room for (None: any)
        self.names: dict[Link, str] = {}  # the watchers' connections and names
        self.looks: dict[Link, int | None] = {}  # the badge each watcher's hello chose
        self._emoted: dict[int | Link, float] = {}  # seat or watcher -> when it last emoted
        self.due = False  # a room update showing the watchers is asked for (``show``)

    def __contains__(self, link: object) -> bool:
        return link in self.names

    def __iter__(self) -> Iterator[Link]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def let_in(
        self,
        link: Link,
        hello: Hello,
        watchers: int,
        gate: Gate,
        password_ok: bool | None,
        taken: set[str],
    ) -> bool:
        """A watcher's hello: True when ``link`` watches now; otherwise it is sent away
        (the room's limit of ``watchers`` and the door's room first, then the password;
        ``taken``: the players' names)."""
        refusal = self.refusal(hello, watchers) or gate.newcomer(
            link.address, hello.password, password_ok
        )
        if refusal is not None:
            link.close(refusal.code, refusal.text)
            return False
        self.add(link, hello.name, taken, hello.look)
        return True

    def refusal(self, hello: Hello, watchers: int) -> Refusal | None:
        """Why a watcher's hello is refused before its password is looked at, if it is."""
        limit = watchers if self.door_room is None else min(watchers, self.door_room)
        if hello.token is not None:
            return Refusal("bad_token", "A watcher has no seat token.")
        if (named := bad_name(hello.name)) is not None:
            return named
        if len(self.names) >= limit:
            text = "This table takes no watchers." if limit == 0 else "Enough people watch already."
            return Refusal("watchers_full", text)
        return None

    def message(self, link: Link, message: Message) -> WatcherEmoted | Sit | None:
        """A watcher's message: a reaction to relay to everyone (if it is due) or a request
        for a seat, for the table; a ping and leaving are answered here, and anything else
        a player would ask for is refused (``watching``)."""
        if isinstance(message, Emote):
            return WatcherEmoted(self.names[link], message.code) if self.emote_due(link) else None
        if isinstance(message, Sit):
            return message
        if isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, Leave):
            link.send(Ack(message.ref, None))
            self.remove(link)  # (the others' room update follows)
            link.close("left", "You stopped watching.")
        elif isinstance(message, (Act, Contribute, Pause, BackSoon, *ROOM_COMMANDS)):
            link.send(Rejected(message.ref, Code.WATCHING, Code.WATCHING.text))
        return None

    def add(self, link: Link, name: str, taken: set[str], look: int | None = None) -> None:
        """``link`` watches, under ``name`` or a number beside it (``taken``: the players'),
        with the badge ``look`` for when it sits down."""
        self.names[link] = numbered(name, taken | set(self.names.values()))
        self.looks[link] = look
        link.watching = True
        self._changed()

    def remove(self, link: Link) -> str | None:
        """``link`` no longer watches (it left, or it sat down): its name, if it watched.
        (Its connection stays a watcher's until it sits: its goodbye lingers like one.)"""
        name = self.names.pop(link, None)
        self.looks.pop(link, None)
        if name is not None:
            self._emoted.pop(link, None)
            self._changed()
        return name

    def _changed(self) -> None:
        if not self.due:  # (one room update shows every change until it is sent)
            self.due = True
            self.show()

    def emote_due(self, sender: int | Link) -> bool:
        """Whether a reaction of ``sender`` (a seat or a watcher) goes out now."""
        now = self.clock()
        last = self._emoted.get(sender)
        if last is not None and now - last < EMOTE_GAP:
            return False
        self._emoted[sender] = now
        return True
