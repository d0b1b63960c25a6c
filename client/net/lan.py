"""The LAN around the window: invite links and the tables zeroconf finds.

An invite is ``durak://HOST:PORT``, or ``durak://HOST,HOST:PORT`` for a host with several
LAN addresses (``invite_link`` makes one for a table we host, ``parse_invite`` reads one
typed, pasted or given on the command line; the joiner tries every address at once).
``LanBrowser`` runs ``host.TableBrowser`` in a daemon thread with its own asyncio loop and
reports each change on an ``Inbox`` that the Join screen drains when it wakes the window.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from client.net.session import AI_NAMES, Inbox, Session, drain

if TYPE_CHECKING:
    from host import TableAd

__all__ = [
    "SCHEME",
    "Invite",
    "LanBrowser",
    "invite_link",
    "net_join",
    "page_address",
    "parse_invite",
]

SCHEME = "durak"


@dataclass(frozen=True, slots=True)
class Invite:
    """Where a table is: its host's addresses (all tried, in this order) and its port;
    ``link`` is the ``durak://`` text that ``parse_invite`` reads back."""

    hosts: tuple[str, ...]
    port: int

    @property
    def link(self) -> str:
        hosts = ",".join(f"[{h}]" if ":" in h else h for h in self.hosts)
        return f"{SCHEME}://{hosts}:{self.port}"


def parse_invite(text: str) -> Invite:
    """``durak://HOST:PORT``, ``HOST:PORT`` or, as a host's invite link lists every LAN
    address it has, ``durak://HOST,HOST:PORT``; ``ValueError`` if it is none of them."""
    text = text.strip()
    if "://" in text:
        scheme, _, text = text.partition("://")
        if scheme.lower() != SCHEME:
            raise ValueError(f"not a {SCHEME}:// link: {scheme}://")
    text = text.rstrip("/")
    hosts, sep, port = text.rpartition(":")
    if not sep or not port.isascii() or not port.isdecimal() or not 0 < int(port) < 65536:
        raise ValueError(f"not HOST:PORT: {text!r}")
    found = tuple(host.strip().strip("[]") for host in hosts.split(","))
    if not all(found) or any(c.isspace() or c in "/@?#" for host in found for c in host):
        raise ValueError(f"not HOST:PORT: {text!r}")
    return Invite(found, int(port))


def net_join(
    address: str | Sequence[str],
    port: int,
    name: str,
    password: str | None,
    ai_names: Sequence[str] = AI_NAMES,
    watch: bool = False,
    look: int | None = None,
) -> Session:
    """Join the table at ``address:port``, or at the first of several addresses that
    answers (``host.routes.race``), ``watch``: as a watcher; ``look``: our badge."""
    from client.net.remote import NetSession

    return NetSession(
        address,
        port,
        name,
        password=password,
        rooms=True,
        ai_names=ai_names,
        watch=watch,
        look=look,
    )


class LanBrowser:
    """The tables on the LAN, seen from ``bind`` (``""``: every interface), kept current
    by a daemon thread; ``poll()`` (once per frame) applies what changed."""

    def __init__(self, bind: str) -> None:
        self.bind = bind
        self.tables: dict[str, TableAd] = {}
        self.changes: Inbox[tuple[str, str, TableAd | None]] = Inbox()
        self.failed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._closing = threading.Event()  # asked to close, perhaps before the loop ran
        self._thread = threading.Thread(target=self._main, name="durak-browse", daemon=True)
        self._thread.start()

    def poll(self) -> bool:
        """Apply the changes seen since the last call; True if there were any."""
        changed = False
        for _kind, name, ad in drain(self.changes):
            changed = True
            if ad is None:
                self.tables.pop(name, None)
            else:
                self.tables[name] = ad
        return changed

    def close(self, timeout: float = 5.0) -> None:
        """Stop browsing and wait for the thread (at once, even before it got going: it
        sees ``_closing`` once its loop runs, or the loop's stop is set here)."""
        self._closing.set()
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout)

    def _main(self) -> None:
        try:
            asyncio.run(self._run())
        except OSError:  # no network to browse on: the manual field still works
            self.failed = True
            wake = self.changes.on_put  # the Join screen shows it at once
            if wake is not None:
                wake()

    async def _run(self) -> None:
        from host import TableBrowser

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self._closing.is_set():
            return
        async with TableBrowser(self.bind) as browser:
            while not self._stop.is_set():
                getting = asyncio.ensure_future(browser.changes.get())
                stopping = asyncio.ensure_future(self._stop.wait())
                done, _ = await asyncio.wait(
                    [getting, stopping], return_when=asyncio.FIRST_COMPLETED
                )
                for task in (getting, stopping):
                    task.cancel()
                if getting in done:
                    self.changes.put(getting.result())


def page_address(bind: str, port: int) -> str:
    """The phones' page of a host listening on ``bind`` with its web door on ``port``:
    ``http://IP:PORT/`` at its first LAN address (127.0.0.1 without one)."""
    from host import lan_addresses

    return f"http://{(lan_addresses(bind) or ('127.0.0.1',))[0]}:{port}/"


def invite_link(bind: str, port: int) -> str:
    """``durak://IP:PORT`` for a host listening on ``bind`` ("": every interface, and then
    every LAN address it has, the one its default route leaves by first:
    ``durak://IP,IP:PORT``; a joiner tries them all)."""
    from host import lan_addresses

    return Invite(lan_addresses(bind) or ("127.0.0.1",), port).link
