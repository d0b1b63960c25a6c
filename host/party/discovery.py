"""Finding parties on the LAN: a zeroconf browser for ``_durak-party._tcp.local.``.

A party is announced under a service type of its own (docs/protocol.md section 17), so
that a browser of tables (``host.discovery``) never lists a party as a table; its tables
are announced as tables. As with tables, every TXT value is checked and made printable
(anyone on the LAN can announce), and the addresses are ranked for this machine
(``host.routes.rank``). The handler only schedules lookups, keeping their tasks.

A browse is told of each party as it is looked up (``on_found``: the join screen lists
a party at once, not at the end of its look), and may end early (``settle``): the
parties on a LAN answer a query together, within the responders' delay of a fraction of
a second, so once one has answered a second of quiet means there are no more to come
(``durak party --board`` opened the one party after 3 s; now after about 1 s more than
it took to answer).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from protocol import PARTY_STATUSES

from ..announce import make_zeroconf
from ..routes import own_interfaces, rank
from .config import SERVICE_TYPE

__all__ = ["PartyAd", "browse_parties"]


@dataclass(frozen=True, slots=True)
class PartyAd:
    """A party as announced (``status`` "?" and numbers 0 where the TXT is malformed)."""

    service: str
    name: str
    address: str
    port: int
    version: int | None
    status: str
    round: int
    players: int
    size: int
    addresses: tuple[str, ...] = ()

    def line(self) -> str:
        where = f"{self.address}:{self.port}"
        state = self.status if self.status != "playing" else f"playing round {self.round}"
        return f"{self.name}  {where}  {self.players} players, tables of {self.size}  {state}"


def _text(properties: dict[bytes, bytes | None], key: str) -> str:
    value = properties.get(key.encode())
    text = value.decode("utf-8", "replace") if value else ""
    return "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text)[:63]


def _number(text: str, most: int) -> int | None:
    if not (text.isascii() and text.isdecimal()):
        return None
    value = int(text)
    return value if value <= most else None


def party_from_info(info: AsyncServiceInfo) -> PartyAd | None:
    addresses = rank(info.parsed_addresses(IPVersion.V4Only), own_interfaces())
    if not addresses or info.port is None:
        return None
    props = info.properties
    status = _text(props, "status")
    size = _number(_text(props, "size"), 6) or 0
    return PartyAd(
        service=info.name,
        name=_text(props, "name") or info.name.removesuffix("." + SERVICE_TYPE)[:63],
        address=addresses[0],
        port=info.port,
        version=_number(_text(props, "version"), 2**31 - 1),
        status=status if status in PARTY_STATUSES else "?",
        round=_number(_text(props, "round"), 10_000) or 0,
        players=_number(_text(props, "players"), 60) or 0,
        size=size if size >= 2 else 0,
        addresses=addresses,
    )


async def browse_parties(
    bind: str = "",
    seconds: float = 3.0,
    *,
    settle: float | None = None,
    on_found: Callable[[list[PartyAd]], None] | None = None,
) -> list[PartyAd]:
    """The parties announced within ``seconds`` on ``bind``'s interface, by name. With
    ``settle``, it ends ``settle`` seconds after the last party found, if sooner;
    ``on_found`` is told the parties (by name) each time one is found or goes."""
    azc = make_zeroconf(bind)
    found: dict[str, PartyAd] = {}
    tasks: set[asyncio.Task[None]] = set()
    changed = asyncio.Event()

    def told() -> None:
        changed.set()
        if on_found is not None:
            on_found(_by_name(found))

    async def look_up(name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if await info.async_request(azc.zeroconf, 3000):
            ad = party_from_info(info)
            if ad is not None and found.get(name) != ad:
                found[name] = ad
                told()

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            if found.pop(name, None) is not None:
                told()
            return
        task = asyncio.ensure_future(look_up(name))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    loop = asyncio.get_running_loop()
    browser = AsyncServiceBrowser(azc.zeroconf, [SERVICE_TYPE], handlers=[on_change])
    try:
        end = loop.time() + seconds
        while (left := end - loop.time()) > 0:
            quiet = left if settle is None or not found else min(left, settle)
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), quiet)
            except TimeoutError:
                if found and settle is not None:
                    break
        while tasks:
            await asyncio.wait(set(tasks))
    finally:
        await browser.async_cancel()
        for task in list(tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await azc.async_close()
    return _by_name(found)


def _by_name(found: dict[str, PartyAd]) -> list[PartyAd]:
    return sorted(found.values(), key=lambda ad: (ad.name, ad.address, ad.port))
