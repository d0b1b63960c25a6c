"""A window's link to a party's own port (docs/protocol.md section 17), as a player or a
board: ``client.net.party.PartyClient`` in a daemon thread; and the parties on the LAN
(``PartyFinder``, ``host.party.browse_parties`` looked with again and again).

The window must never wait on the network, so ``PartyLink`` runs the party's connection
on an asyncio loop of its own, on the ``client.net.loop_link.LoopLink`` a table's
``NetSession`` runs on too: what the party host says (``Joined`` first, then
``PartyUpdate``, ``PartyTable``, ``Rejected``...) goes to ``inbox`` as it comes, and the
end of the link as one ``Lost`` with the goodbye's code and words. A connection lost
without a goodbye is joined again with the player's token (a party host killed and
resumed keeps it), quietly: the screens keep showing the party until it is back; every
``Joined`` says the link is (back) in. ``setup``, ``start`` and ``leave`` hand their
message to that loop. The party's tables are ordinary tables: a player sits at theirs
with ``NetSession(..., token=...)``, a board watches each with ``NetSession(...,
watch=True)``.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from client.net.client import Backoff, HostClosed
from client.net.lan import parse_invite
from client.net.loop_link import LoopLink
from client.net.party import PartyClient
from client.net.session import Inbox
from engine import Rules
from protocol import PROTOCOL_VERSION, Joined, PartyMessage

if TYPE_CHECKING:
    from host.party import PartyAd

__all__ = ["PARTY_PORT", "Lost", "PartyFinder", "PartyLink", "party_address"]

PARTY_PORT = 45655  # a party's port unless told otherwise (docs/protocol.md section 17)
# A connection lost without the party's goodbye (its host restarted with --resume, the
# Wi-Fi dropped) is joined again with our token about every second for a minute and a half;
# any answer of the party's to a try is its last word.
COME_BACK = Backoff(first=1.0, longest=1.0, give_up=90.0)


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
        self.link: LoopLink[PartyClient, PartyMessage | Lost] = LoopLink(
            self, "durak-party", COME_BACK, lambda closed: True
        )
        self.inbox = self.link.inbox
        self.link.start()

    # --- the window's side ----------------------------------------------------------------

    def setup(
        self, rules: Rules, rounds: int | None, minutes: int | None, fill: bool, ai: str
    ) -> None:
        """The organiser sets the night up."""
        self.link.call(lambda client: client.set_up(rules, rounds, minutes, fill, ai))

    def start(self) -> None:
        """The organiser starts the first round (or the next, ending a break)."""
        self.link.call(lambda client: client.start())

    def leave(self) -> None:
        """Leave the party: off the next round's seating, the standing kept."""
        self.link.call(lambda client: client.leave())

    def close(self, timeout: float = 2.0) -> None:
        self.link.stop()
        self.link.join(timeout)

    # --- the network's side (``LoopLink``'s thread) ---------------------------------------

    async def connect(self) -> PartyClient:
        return await PartyClient.connect(
            self.address, self.port, self.name, token=self.token, board=self.board
        )

    def joined(self, wire: PartyClient) -> None:
        self.token = wire.token or self.token
        self.inbox.put(Joined(PROTOCOL_VERSION, wire.player, wire.token, wire.party))

    def received(self, message: object) -> None:
        self.inbox.put(cast(PartyMessage, message))  # (what a ``PartyClient`` receives)

    def dropped(self) -> None:
        """Quietly: the screens keep showing the party until it is back."""

    def rejoined(self, welcome: object) -> None:
        wire = self.link.wire
        assert wire is not None
        self.joined(wire)

    def ended(self, end: HostClosed | OSError, after_drop: bool) -> None:
        if isinstance(end, OSError):
            self.inbox.put(Lost("unreachable", str(end.strerror or end)))
        else:
            self.inbox.put(Lost(end.code, end.text))


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
