"""The table's port is its own, and a client that resets before it is accepted costs the
door nothing: only a machine out of files or buffers makes the accept loop pause."""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Callable
from typing import Any

import pytest
from live import serving

from client.net.client import NetClient
from host.doorway import listening_socket


def test_another_program_cannot_listen_on_the_tables_port() -> None:
    table = listening_socket("127.0.0.1", 0)
    try:
        port = table.getsockname()[1]
        thief = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        thief.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with pytest.raises(OSError), thief:
            thief.bind(("127.0.0.1", port))
            thief.listen()
    finally:
        table.close()


def _failing_accepts(
    loop: asyncio.AbstractEventLoop, failures: list[OSError]
) -> Callable[[socket.socket], Any]:
    """``loop.sock_accept`` that raises ``failures`` first, then accepts."""
    real = loop.sock_accept

    async def sock_accept(listener: socket.socket) -> tuple[socket.socket, Any]:
        if failures:
            raise failures.pop(0)
        return await real(listener)

    return sock_accept


@pytest.mark.parametrize(
    ("error", "pauses"),
    [(errno.ECONNABORTED, 0), (errno.EINVAL, 0), (errno.EMFILE, 20)],
    ids=["reset-before-accept", "winerror-64-like", "out-of-files"],
)
async def test_only_exhaustion_pauses_the_door(
    monkeypatch: pytest.MonkeyPatch, error: int, pauses: int
) -> None:
    loop = asyncio.get_running_loop()
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay: float, result: object = None) -> object:
        waits.append(delay)
        return await real_sleep(min(delay, 0.001), result)

    monkeypatch.setattr("host.server.asyncio.sleep", sleep)
    failures = [OSError(error, "accept failed") for _ in range(20)]
    monkeypatch.setattr(loop, "sock_accept", _failing_accepts(loop, failures))
    async with serving(seats=2) as host:
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        assert anna.welcome is not None and not failures
        assert waits.count(0.1) == pauses
        await anna.close()
