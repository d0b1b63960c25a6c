"""The zeroconf (mDNS/DNS-SD) announcement of a table: ``_durak._tcp.local.``.

With a specific ``bind`` address only that interface is used (``--bind 127.0.0.1`` keeps
everything on this machine); with the default (all interfaces) zeroconf's default
interfaces are used. The TXT properties are updated when the room changes and the
service is withdrawn on shutdown, awaiting the unregistration fully so that browsers see
the table vanish at once.

Each announcement carries a revision (``rev``, counting the updates), so that its TXT
record is one no browser has cached: python-zeroconf (0.154) reports a service Updated
only for a record it does not hold, and it holds a superseded TXT record for its whole TTL
when the next came within a second (RFC 6762 10.2 expires only older ones), or until its
cache is swept (every 10 s). Without it, seats going 1/3, 2/3 and back to 1/3 as the
owner sent a player away stayed "2/3" in every Join list.

Which addresses: ``lan_addresses``, those a LAN peer can use. Loopback never (a peer
reaching 127.0.0.1 reaches itself), unless it is all there is (a host bound to
127.0.0.1, as in the tests), so that this machine still finds its own table. Link-local
(169.254/16) stays: two laptops on a cable without DHCP have nothing else, and the
joiner tries it last (``routes.rank``).

Not per interface, although a peer on one network can use only that network's address:
python-zeroconf (0.154) puts every address of a ``ServiceInfo`` in every answer, on every
interface (``QueryHandler`` answers with ``_dns_addresses`` whatever socket the query came
on; an upstream change to answer per interface, PR #180, was closed unmerged). The one
way left is an ``AsyncZeroconf`` per interface, each announcing its own address, and it
is worse. Measured in network namespaces (a host with 10.0.0.1/16 towards one peer and
10.99.5.1/24 towards the LAN's player, a browser run 3 times on each side): one instance
with both addresses was listed on the LAN with both, 3 of 3; an instance per interface
was listed twice, as "Kitchen" at 10.0.0.1 and "Kitchen-2" at 10.99.5.1, 3 of 3 (each
instance's wildcard listening socket hears the other interface's queries and answers
them, and the two probed the same name); with ``IP_MULTICAST_ALL`` turned off on those
sockets by hand (an internal of the library), the LAN's player saw the table at 10.0.0.1
only and the other peer saw no address at all. So one instance announces every LAN
address, and the joiner races them (``routes.race``): a listed table is joined at the
address that answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import socket
from collections.abc import Sequence

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from protocol import PROTOCOL_VERSION, Room

__all__ = [
    "RULE_FLAGS",
    "SERVICE_TYPE",
    "Announcer",
    "instance_name",
    "lan_addresses",
    "make_zeroconf",
    "txt_properties",
]

SERVICE_TYPE = "_durak._tcp.local."
# The on/off rules named in the ``flags`` TXT key (as in the protocol's ``rules`` map).
RULE_FLAGS = ("first_bout_five", "transfer", "transfer_show_trump", "durak_defends_first")


def txt_properties(room: Room) -> dict[str, str]:
    """The TXT properties of a table (each value well under 255 bytes): the rules both as
    an English summary (``rules``) and as values a browser can show in its own language
    (``deck``, ``throw_in`` and ``flags``, the rules that are on)."""
    taken = sum(1 for s in room.seats if s.kind != "empty")
    rules = room.rules
    return {
        "name": room.name[:63],
        "version": str(PROTOCOL_VERSION),
        "seats": f"{taken}/{len(room.seats)}",
        "rules": rules.summary[:200],
        "deck": str(rules.deck_size),
        "throw_in": rules.throw_in.value,
        "flags": ",".join(flag for flag in RULE_FLAGS if getattr(rules, flag)),
        "status": room.status,
        "password": "yes" if room.password else "no",
    }


def instance_name(name: str) -> str:
    """A DNS-SD instance label: no dots, at most 63 bytes of UTF-8."""
    label = "".join(c if c.isprintable() and c != "." else " " for c in name).strip() or "Durak"
    while len(label.encode()) > 63:
        label = label[:-1]
    return label


def make_zeroconf(bind: str) -> AsyncZeroconf:
    """Zeroconf on the interface of ``bind``, or on the default ones for all interfaces."""
    if bind and bind not in ("0.0.0.0", "::"):
        return AsyncZeroconf(interfaces=[bind], ip_version=IPVersion.V4Only)
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # a name
        return address == "localhost"


def _route_address() -> str | None:
    """The address this machine's default route leaves by (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
        except OSError:
            return None
        return str(probe.getsockname()[0])


def lan_addresses(bind: str = "") -> tuple[str, ...]:
    """The IPv4 addresses a LAN peer can reach a host listening on ``bind`` at: ``bind``
    itself, or for every interface ("") each adapter's, the default route's first; never
    loopback, so () for a host only this machine can reach."""
    if bind and bind not in ("0.0.0.0", "::"):
        return () if _is_loopback(bind) else (bind,)
    import ifaddr  # a dependency of zeroconf

    found = [
        ip.ip
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback
    ]
    first = _route_address()
    return tuple(dict.fromkeys([first, *found] if first in found else found))


class Announcer:
    """The table's announcement, at ``addresses`` (default: ``lan_addresses(bind)``)."""

    def __init__(
        self,
        bind: str,
        port: int,
        name: str,
        addresses: Sequence[str] | None = None,
        service_type: str = SERVICE_TYPE,  # a party has its own (host.party.server)
    ) -> None:
        self.bind = bind
        self.port = port
        self.service_type = service_type
        self.name = f"{instance_name(name)}.{service_type}"
        self.server = f"durak-{secrets.token_hex(4)}.local."
        # Where a LAN peer can reach us, or (only loopback: a test, a host kept to this
        # machine) loopback itself, so that a browser on this machine still finds it.
        loopback = bind if bind and _is_loopback(bind) else "127.0.0.1"
        found = lan_addresses(bind) if addresses is None else addresses
        self.addresses = list(found) or [loopback]
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._wanted: dict[str, str] = {}
        self._revision = 0
        self._dirty = asyncio.Event()
        self._updater: asyncio.Task[None] | None = None

    def _make_info(self, properties: dict[str, str]) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            self.service_type,
            self.name,
            port=self.port,
            properties={**properties, "rev": str(self._revision)},
            server=self.server,
            parsed_addresses=self.addresses,
        )

    async def start(self, properties: dict[str, str]) -> None:
        self._azc = make_zeroconf(self.bind)
        self._wanted = properties
        self._info = self._make_info(properties)
        await (await self._azc.async_register_service(self._info, allow_name_change=True))
        self.name = self._info.name  # it may have been renamed to avoid a clash
        self._updater = asyncio.create_task(self._update_loop(), name="durak-announce")

    def update(self, properties: dict[str, str]) -> None:
        """Announce new TXT properties (coalesced: only the latest is sent)."""
        if properties != self._wanted:
            self._wanted = properties
            self._dirty.set()

    async def _update_loop(self) -> None:
        assert self._azc is not None
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            self._revision += 1
            self._info = self._make_info(self._wanted)
            await (await self._azc.async_update_service(self._info))

    async def close(self) -> None:
        if self._updater is not None:
            self._updater.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._updater
        if self._azc is not None:
            if self._info is not None:
                await (await self._azc.async_unregister_service(self._info))
            await self._azc.async_close()
            self._azc = None
