"""The zeroconf (mDNS/DNS-SD) announcement of a table: ``_durak._tcp.local.``.

With a specific ``bind`` address only that interface is used (``--bind 127.0.0.1`` keeps
everything on this machine); with the default (all interfaces) zeroconf's default
interfaces are used and every IPv4 address of the machine is announced. The TXT
properties are updated when the room changes and the service is withdrawn on shutdown,
awaiting the unregistration fully so that browsers see the table vanish at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from protocol import PROTOCOL_VERSION, Room

__all__ = [
    "RULE_FLAGS",
    "SERVICE_TYPE",
    "Announcer",
    "instance_name",
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


def _local_ipv4() -> list[str]:
    import ifaddr  # a dependency of zeroconf

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append(ip.ip)
    return found or ["127.0.0.1"]


class Announcer:
    def __init__(self, bind: str, port: int, name: str) -> None:
        self.bind = bind
        self.port = port
        self.name = f"{instance_name(name)}.{SERVICE_TYPE}"
        self.server = f"durak-{secrets.token_hex(4)}.local."
        self.addresses = [bind] if bind and bind not in ("0.0.0.0", "::") else _local_ipv4()
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._wanted: dict[str, str] = {}
        self._dirty = asyncio.Event()
        self._updater: asyncio.Task[None] | None = None

    def _make_info(self, properties: dict[str, str]) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            self.name,
            port=self.port,
            properties=properties,
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
