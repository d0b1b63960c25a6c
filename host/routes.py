"""Which of a table's addresses a joiner uses: ranked, then raced (happy eyeballs).

A host machine at a LAN party often has more than the party's network: a VPN, a virtual
machine's or a container's bridge, a second Wi-Fi. Its announcement names an address on
each, and zeroconf's answer lists them in no fixed order; the browser used to take the
first, and a player on the LAN saw the table at the unreachable address in 7 of 11 runs
(issue 22: a host with 10.0.0.1/16 beside the LAN's 10.99.5.1/24). So every joiner (the
window's Join list, ``durak list``, ``durak bot``, an invite link) goes through ``race``:

- ``rank`` puts the addresses on one of the joiner's own subnets first (the party's LAN,
  when the joiner is on it), the other routed ones next and link-local (169.254/16, an
  adapter that got no address from DHCP) last, each group in the order announced; an
  address that is the joiner's own (two machines' container bridges are both 172.17.0.1)
  is left out unless it is all the table has (then the table is on this machine).
- ``race`` starts an attempt on the first, then one more every ``STAGGER`` seconds, or at
  once when one fails (RFC 8305's happy eyeballs: a dead address costs a quarter of a
  second, not a TCP timeout), and keeps the first that completes the handshake.

Connecting runs in parallel; the handshake does not: one connected attempt at a time
says hello, the others wait their turn connected, and are closed unused once one has
won. Two addresses of the same host (a LAN cable and Wi-Fi) would otherwise both be
welcomed and take two seats. An attempt moves on to the next address on ``OSError``
(refused, unreachable, timed out) and on ``NoAnswer`` (the peer there is not a Durak
host: it closed, said nothing, or spoke another protocol); any other error is the
table's own answer (a refusal, a wrong password) and ends the race at once.

Nothing here opens a socket: the caller passes its ``connect``, ``greet`` and ``close``,
so the race is tested with fake connectors and used over TCP by ``tcp_probe`` and the
client's ``NetClient.connect``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = [
    "STAGGER",
    "NoAnswer",
    "Unreached",
    "Won",
    "own_interfaces",
    "race",
    "rank",
    "tcp_probe",
]

STAGGER = 0.25  # seconds between two attempts' starts (RFC 8305 recommends 0.25)
LINK_LOCAL = ipaddress.IPv4Network("169.254.0.0/16")

L = TypeVar("L")  # a connected link (e.g. a reader and writer)
R = TypeVar("R")  # what a completed handshake gives


class NoAnswer(Exception):
    """The peer at an address is not a table (it closed, fell silent or spoke another
    protocol): the race tries the next address."""


class Unreached(OSError):
    """No address completed the handshake: ``errors`` says what each one did."""

    def __init__(self, port: int, errors: dict[str, BaseException]) -> None:
        self.port = port
        self.errors = errors
        if errors:
            why = "; ".join(f"{a}:{port} {_why(e)}" for a, e in errors.items())
        else:
            why = "no address to try"
        super().__init__(why)


def _why(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "did not answer in time"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


@dataclass(frozen=True, slots=True)
class Won(Generic[R]):
    """The address whose handshake completed first, and what the handshake gave."""

    address: str
    result: R


def own_interfaces() -> tuple[ipaddress.IPv4Interface, ...]:
    """This machine's IPv4 addresses with their subnets (loopback's included)."""
    import ifaddr  # a dependency of zeroconf

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                with contextlib.suppress(ValueError):
                    found.append(ipaddress.IPv4Interface(f"{ip.ip}/{ip.network_prefix}"))
    return tuple(found)


def rank(
    addresses: Iterable[str], interfaces: Sequence[ipaddress.IPv4Interface]
) -> tuple[str, ...]:
    """``addresses`` without repeats, the ones on the subnets of ``interfaces`` (ours)
    first and link-local ones last (each group in the given order); names and IPv6
    addresses go with the routed. An address of ours (loopback aside) is left out where
    the table has others: a host's container bridge (172.17.0.1) is often ours too, and
    there we would reach our own machine, perhaps a table of our own on the same port."""
    ours = {str(interface.ip) for interface in interfaces if not interface.is_loopback}
    networks = [interface.network for interface in interfaces]

    def group(text: str) -> int:
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            return 1
        if address in LINK_LOCAL:
            return 2
        return 0 if any(address in network for network in networks) else 1

    unique = list(dict.fromkeys(addresses))
    theirs = [address for address in unique if address not in ours] or unique
    return tuple(sorted(theirs, key=group))  # (sorted is stable)


async def race(
    addresses: Sequence[str],
    port: int,
    connect: Callable[[str], Awaitable[L]],
    greet: Callable[[str, L], Awaitable[R]],
    close: Callable[[L], None],
    *,
    stagger: float = STAGGER,
    timeout: float | None = None,
) -> Won[R]:
    """The first of ``addresses`` (in this order of starting) whose ``connect`` and then
    ``greet`` complete; ``Unreached`` when none does within ``timeout`` seconds. A link
    whose handshake fails or never gets its turn is given to ``close``."""
    errors: dict[str, BaseException] = {}
    turn = asyncio.Lock()  # one handshake at a time
    won: list[Won[R]] = []  # and none after one has completed

    async def attempt(address: str) -> Won[R]:
        try:
            link = await connect(address)
        except (OSError, NoAnswer) as exc:
            errors[address] = exc
            raise
        try:
            async with turn:
                if won:  # (its turn came as the winner's ended)
                    raise NoAnswer("another address answered first")
                result = Won(address, await greet(address, link))
                won.append(result)
                return result
        except BaseException as exc:
            if isinstance(exc, OSError | NoAnswer):
                errors[address] = exc
            close(link)
            raise

    waiting = list(addresses)
    running: dict[asyncio.Task[Won[R]], str] = {}
    deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
    try:
        while waiting or running:
            if waiting:
                address = waiting.pop(0)
                running[asyncio.ensure_future(attempt(address))] = address
            left = None if deadline is None else deadline - asyncio.get_running_loop().time()
            if left is not None and left <= 0:
                break
            wait = left if not waiting else stagger if left is None else min(stagger, left)
            done, _ = await asyncio.wait(
                set(running), timeout=wait, return_when=asyncio.FIRST_COMPLETED
            )
            if not done and not waiting:
                break  # the deadline passed
            for task in done:
                del running[task]
                error = task.exception()
                if error is None:
                    return task.result()
                if not isinstance(error, OSError | NoAnswer):
                    raise error
        for address in [*running.values(), *waiting]:
            errors.setdefault(address, TimeoutError())
        raise Unreached(port, {a: errors[a] for a in addresses if a in errors})
    finally:
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(BaseException):
                await task


async def tcp_probe(
    addresses: Sequence[str], port: int, timeout: float = 2.0, stagger: float = STAGGER
) -> str:
    """The first of ``addresses`` that accepts a TCP connection on ``port`` (closed at once):
    where a listed table answers. ``Unreached`` if none does within ``timeout``."""

    async def connect(address: str) -> asyncio.StreamWriter:
        return (await asyncio.open_connection(address, port))[1]

    async def greet(address: str, writer: asyncio.StreamWriter) -> None:
        writer.close()

    won = await race(
        addresses, port, connect, greet, lambda w: w.close(), stagger=stagger, timeout=timeout
    )
    return won.address
