"""Finding tables on the LAN: a zeroconf browser for ``_durak._tcp.local.``.

``TableBrowser`` keeps the tables it currently sees and reports each change (added,
updated, removed) on a queue; ``browse`` collects what is there for a few seconds.
Handlers are synchronous and only start lookups as tasks, whose references are kept.
Everything an announcement says is checked: anyone on the LAN can announce.

A table announces an address per adapter of its host, some of which this machine may
not reach (a VPN, a VM's bridge): an ad keeps them all, ranked (``routes.rank``), and
with ``probe`` (the default) the browser tries them at once (``routes.tcp_probe``) and
reports the table at the first that answers, or as not reachable when none does.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass, replace

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from engine import Rules, RulesError, ThrowInRule

from .announce import RULE_FLAGS, SERVICE_TYPE, make_zeroconf
from .routes import Unreached, own_interfaces, rank, tcp_probe

__all__ = ["TableAd", "TableBrowser", "browse"]


@dataclass(frozen=True, slots=True)
class TableAd:
    """A table as announced: where it is and what its TXT properties say. ``address`` is
    where it answered (before a probe, the best ranked of ``addresses``)."""

    service: str
    name: str
    address: str
    port: int
    version: int | None
    taken: int
    seats: int
    rules: str
    status: str
    password: bool
    # The rules from the ``deck``, ``throw_in`` and ``flags`` keys, for a browser to show in
    # its own language; None when they are missing or malformed (then only ``rules``, the
    # English summary, is known).
    game_rules: Rules | None = None
    # Every address the table announced, best first (empty: ``address`` only).
    addresses: tuple[str, ...] = ()
    # Whether one of them answered: None until probed.
    reachable: bool | None = None

    @property
    def candidates(self) -> tuple[str, ...]:
        """The addresses to try, the one that answered first."""
        return tuple(dict.fromkeys((self.address, *self.addresses)))

    def line(self) -> str:
        lock = ", password" if self.password else ""
        tried = self.candidates if self.reachable is False else (self.address,)
        where = ", ".join(f"{address}:{self.port}" for address in tried)
        note = "  [not reachable]" if self.reachable is False else ""
        return (
            f"{self.name}  {where}  seats {self.taken}/{self.seats}  "
            f"{self.status}{lock}  ({self.rules}){note}"
        )


def _printable(text: str) -> str:
    """``text`` with every character a terminal could act on (escape codes, control and
    other non-printable characters) replaced: announcements come from anyone on the LAN."""
    return "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text)


def _text(properties: dict[bytes, bytes | None], key: str) -> str:
    value = properties.get(key.encode())
    return _printable(value.decode("utf-8", "replace")) if value else ""


def _number(text: str) -> int | None:
    """A plain decimal number (ASCII digits only: ``int`` refuses e.g. "²", which
    ``str.isdigit`` accepts), else None."""
    return int(text) if text.isascii() and text.isdecimal() else None


def _rules(properties: dict[bytes, bytes | None], players: int) -> Rules | None:
    """The rules the structured TXT keys name, or None unless every one is present and
    valid (an unknown flag, say from a newer host, also gives None: the English summary
    then says what this reader cannot)."""
    deck = _number(_text(properties, "deck"))
    throw_in = _text(properties, "throw_in")
    if deck is None or throw_in not in {t.value for t in ThrowInRule}:
        return None
    if b"flags" not in properties:
        return None
    flags = _text(properties, "flags")
    names = flags.split(",") if flags else []
    if any(name not in RULE_FLAGS for name in names) or len(set(names)) != len(names):
        return None
    try:
        return Rules(
            players=players,
            deck_size=deck,
            throw_in=ThrowInRule(throw_in),
            first_bout_five="first_bout_five" in names,
            transfer="transfer" in names,
            transfer_show_trump="transfer_show_trump" in names,
            durak_defends_first="durak_defends_first" in names,
        )
    except RulesError:  # e.g. a 24-card deck for 6 seats, or show-trump without transfer
        return None


def ad_from_info(
    info: AsyncServiceInfo, interfaces: Sequence[ipaddress.IPv4Interface] = ()
) -> TableAd | None:
    """The table an answer describes, its addresses ranked for a joiner with
    ``interfaces`` (``routes.rank``)."""
    addresses = rank(info.parsed_addresses(IPVersion.V4Only), interfaces)
    if not addresses or info.port is None:
        return None
    props = info.properties
    taken, _, seats = _text(props, "seats").partition("/")
    version = _text(props, "version")
    total = _number(seats) or 0
    return TableAd(
        service=info.name,
        name=_text(props, "name") or _printable(info.name.removesuffix("." + SERVICE_TYPE)),
        address=addresses[0],
        port=info.port,
        version=_number(version),
        taken=_number(taken) or 0,
        seats=total,
        rules=_text(props, "rules"),
        status=_text(props, "status") or "?",
        password=_text(props, "password") == "yes",
        game_rules=_rules(props, total),
        addresses=addresses,
    )


class TableBrowser:
    """The tables on the network, kept current. ``async with TableBrowser(bind) as b``.
    With ``probe`` a table is reported once its addresses have been tried."""

    def __init__(self, bind: str = "", probe: bool = True, probe_timeout: float = 2.0) -> None:
        self.bind = bind
        self.probe = probe
        self.probe_timeout = probe_timeout
        self.interfaces = own_interfaces()
        self.tables: dict[str, TableAd] = {}
        self.changes: asyncio.Queue[tuple[str, str, TableAd | None]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._azc = make_zeroconf(bind)
        self._browser: AsyncServiceBrowser | None = None

    async def start(self) -> None:
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf, [SERVICE_TYPE], handlers=[self._on_change]
        )

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            self.tables.pop(name, None)
            self.changes.put_nowait(("removed", name, None))
            return
        kind = "added" if state_change is ServiceStateChange.Added else "updated"
        task = asyncio.ensure_future(self._look_up(kind, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _look_up(self, kind: str, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._azc.zeroconf, 3000):
            return
        ad = ad_from_info(info, self.interfaces)
        if ad is None:
            return
        if self.probe:
            ad = await self._reach(ad, self.tables.get(name))
        self.tables[name] = ad
        self.changes.put_nowait((kind, name, ad))

    async def _reach(self, ad: TableAd, before: TableAd | None) -> TableAd:
        """``ad`` at the first of its addresses that answers (as ``before`` when it
        answered there and the table still announces it: an update of the seats)."""
        if before is not None and before.reachable and before.address in ad.addresses:
            return replace(ad, address=before.address, reachable=True)
        try:
            found = await tcp_probe(ad.addresses, ad.port, self.probe_timeout)
        except Unreached:
            return replace(ad, reachable=False)
        return replace(ad, address=found, reachable=True)

    async def settled(self) -> None:
        """Wait for the lookups and probes under way (a browser still hears new ones)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._azc.async_close()

    async def __aenter__(self) -> TableBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


async def browse(bind: str = "", seconds: float = 3.0, probe: bool = True) -> list[TableAd]:
    """The tables seen within ``seconds`` (with ``probe``: and tried), sorted by name."""
    async with TableBrowser(bind, probe) as browser:
        await asyncio.sleep(seconds)
        await browser.settled()
        return sorted(browser.tables.values(), key=lambda ad: (ad.name, ad.address, ad.port))
