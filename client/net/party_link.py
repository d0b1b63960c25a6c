"""A window's link to a party's own port (docs/protocol.md section 17), as a player or a
board: ``client.net.party.PartyClient`` in a daemon thread; and the parties on the LAN
(``PartyFinder``, ``host.party.browse_parties`` looked with again and again).

The window must never wait on the network, so ``PartyLink`` runs the party's connection
on an asyncio loop of its own, as a table's ``NetSession`` does: what the party host says
(``Joined`` first, then ``PartyUpdate``, ``PartyTable``, ``Rejected``...) goes to
``inbox`` as it comes, and the end of the link as one ``Lost`` with the goodbye's code and
words. A connection lost without a goodbye is joined again with the player's token (a
party host killed and resumed keeps it), quietly: the screens keep showing the party
until it is back. ``setup``, ``start`` and ``leave`` hand their message to that loop. The party's
tables are ordinary tables: a player sits at theirs with ``NetSession(..., token=...)``,
a board watches each with ``NetSession(..., watch=True)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from client.net.client import HostClosed
from client.net.lan import parse_invite
from client.net.party import PartyClient
from client.net.session import Inbox
from engine import Rules
from protocol import PROTOCOL_VERSION, Joined, PartyMessage

if TYPE_CHECKING:
    from host.party import PartyAd

__all__ = ["PARTY_PORT", "Lost", "PartyFinder", "PartyLink", "party_address"]

PARTY_PORT = 45655  # a party's port unless told otherwise (docs/protocol.md section 17)
# A connection lost without the party's goodbye (its host restarted with --resume, the
# Wi-Fi dropped) is joined again with our token every RETRY seconds for COME_BACK.
RETRY = 1.0
COME_BACK = 90.0


def party_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``durak://HOST:PORT`` or a bare ``HOST`` (the party port); the
    first address. ``ValueError`` if it is none of them."""
    text = text.strip()
    if not text:
        raise ValueError("no address")
    bare = text.split("://")[-1].rstrip("/")
    if ":" not in bare:
        text = f"{bare}:{PARTY_PORT}"
    invite = parse_invite(text)
    return invite.hosts[0], invite.port


@dataclass(frozen=True, slots=True)
class Lost:
    """The link ended: the party's goodbye (``code``, ``text``), or "unreachable" and
    "closed" when there was none."""

    code: str
    text: str


class PartyLink:
    def __init__(
        self,
        address: str,
        port: int,
        name: str,
        *,
        board: bool = False,
        token: str | None = None,
    ) -> None:
        """Join the party at ``address:port`` as ``name`` (``board``: watch it; ``token``:
        come back as the player a previous ``joined`` named)."""
        self.address, self.port, self.name = address, port, name
        self.board, self.token = board, token
        self.inbox: Inbox[PartyMessage | Lost] = Inbox()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: PartyClient | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="durak-party", daemon=True)
        self._thread.start()

    # --- the window's side ----------------------------------------------------------------

    def setup(
        self, rules: Rules, rounds: int | None, minutes: int | None, fill: bool, ai: str
    ) -> None:
        """The organiser sets the night up."""
        self._call(lambda client: client.set_up(rules, rounds, minutes, fill, ai))

    def start(self) -> None:
        """The organiser starts the first round (or the next, ending a break)."""
        self._call(lambda client: client.start())

    def leave(self) -> None:
        """Leave the party: off the next round's seating, the standing kept."""
        self._call(lambda client: client.leave())

    def close(self, timeout: float = 2.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout)

    def _call(self, work: Callable[[PartyClient], object]) -> None:
        loop, client = self._loop, self._client
        if loop is None or client is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop has already ended
            loop.call_soon_threadsafe(work, client)

    # --- the network's side (daemon thread) -----------------------------------------------

    def _main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        lost = await self._join()
        while lost is not None and not lost.said and not self._stop.is_set():
            lost = await self._back(lost)  # a connection lost without a goodbye
        if lost is not None:
            self.inbox.put(lost.end)

    async def _join(self) -> _Lost | None:
        """One connection, from ``join`` to its end (None: we closed it)."""
        try:
            client = await PartyClient.connect(
                self.address, self.port, self.name, token=self.token, board=self.board
            )
        except HostClosed as exc:
            return _Lost(Lost(exc.code, exc.text), said=True)
        except (OSError, TimeoutError) as exc:
            return _Lost(Lost("unreachable", str(getattr(exc, "strerror", None) or exc)))
        self._client, self.token = client, client.token or self.token
        self.inbox.put(Joined(PROTOCOL_VERSION, client.player, client.token, client.party))
        assert self._stop is not None
        receiving = asyncio.ensure_future(client.receive())
        stopping = asyncio.ensure_future(self._stop.wait())
        try:
            while True:
                await asyncio.wait([receiving, stopping], return_when=asyncio.FIRST_COMPLETED)
                if stopping.done():
                    return None
                try:
                    self.inbox.put(receiving.result())
                except HostClosed as exc:  # (only a lost connection is worth another try)
                    said = exc.goodbye or exc.code != "closed"
                    return _Lost(Lost(exc.code, exc.text), said=said, joined=True)
                receiving = asyncio.ensure_future(client.receive())
        finally:
            for task in (receiving, stopping):
                task.cancel()
            self._client = None
            await client.close()

    async def _back(self, lost: _Lost) -> _Lost | None:
        """Join again (with our token: as the same player) until the party answers, for
        ``COME_BACK`` seconds; a party never reached at all is not tried again."""
        if not lost.joined:
            return _Lost(lost.end, said=True)
        assert self._stop is not None
        deadline = asyncio.get_running_loop().time() + COME_BACK
        while asyncio.get_running_loop().time() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), RETRY)
            if self._stop.is_set():
                return None
            again = await self._join()
            if again is None or again.joined or again.said:
                return again
        return _Lost(lost.end, said=True)


@dataclass(frozen=True, slots=True)
class _Lost:
    """How a connection ended: ``said`` by the party (or given up on), after ``joined``."""

    end: Lost
    said: bool = False
    joined: bool = False


class PartyFinder:
    """The parties announced on the LAN, seen from ``bind`` (``""``: every interface):
    a daemon thread browses for ``LOOK`` seconds at a time; the parties go to ``inbox``
    as each is found, and each look's whole list at its end (``failed`` once there is no
    network to browse)."""

    LOOK = 2.5  # seconds of one look
    REST = 3.0  # seconds between two looks

    def __init__(self, bind: str) -> None:
        self.bind = bind
        self.inbox: Inbox[list[PartyAd]] = Inbox()
        self.failed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name="durak-party-find", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()

    def _main(self) -> None:
        from host.party import browse_parties

        while not self._stop.is_set():
            try:
                found = asyncio.run(browse_parties(self.bind, self.LOOK, on_found=self.inbox.put))
            except OSError:  # no network to browse on: the address field still works
                self.failed = True
                self.inbox.put([])
                return
            self.inbox.put(found)
            self._stop.wait(self.REST)
