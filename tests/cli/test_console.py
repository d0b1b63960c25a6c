"""``durak host`` in a terminal that stops reading, and on a loop without signal
handlers (Windows): the table goes on while its output waits, and Ctrl-C closes it with
a goodbye instead of a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import signal
import socket
import threading
from dataclasses import replace

import pytest

from client.cli.console import Console
from client.cli.host import serve
from client.net.client import HostClosed, NetClient
from host import HostConfig

CONFIG = HostConfig(bind="127.0.0.1", port=0, announce=False, seats=2)


class HeldTerminal(io.StringIO):
    """A terminal whose writes wait while it is held (a click in a Windows console:
    QuickEdit's selection; Ctrl-S elsewhere)."""

    def __init__(self) -> None:
        super().__init__()
        self.free = threading.Event()

    def write(self, text: str) -> int:
        self.free.wait(30)
        return super().write(text)


def test_lines_come_out_in_order_and_saying_never_waits() -> None:
    terminal = HeldTerminal()
    console = Console(terminal)
    for n in range(100):
        console.say(f"line {n}")  # returns at once: the terminal is held
    assert terminal.getvalue() == ""
    terminal.free.set()
    console.close()
    assert terminal.getvalue().splitlines() == [f"line {n}" for n in range(100)]


async def _listening(terminal: io.StringIO) -> int:
    while not (found := re.search(r"listening on 127\.0\.0\.1:(\d+)", terminal.getvalue())):
        await asyncio.sleep(0.02)
    return int(found.group(1))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _goodbye(client: NetClient) -> HostClosed:
    """The host's goodbye, once everything sent before it is read."""
    with pytest.raises(HostClosed) as closed:
        while True:
            await asyncio.wait_for(client.receive(), 30)
    return closed.value


async def test_the_table_seats_players_while_its_terminal_is_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = HeldTerminal()
    monkeypatch.setattr("sys.stdout", terminal)
    port = _free_port()
    serving = asyncio.create_task(serve(replace(CONFIG, port=port)))
    for _ in range(200):  # the table starts; every line it says waits for the terminal
        with contextlib.suppress(OSError):
            anna = await NetClient.connect("127.0.0.1", port, "Anna")
            break
        await asyncio.sleep(0.05)
    assert anna.welcome is not None and anna.welcome.seat == 0
    assert terminal.getvalue() == ""  # seated while the host's first line still waits
    terminal.free.set()
    await _listening(terminal)
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.wait_for(serving, 30)
    assert (await _goodbye(anna)).code == "shutdown"
    assert terminal.getvalue().splitlines()[-1] == "durak host: closed"


async def test_without_signal_handlers_ctrl_c_closes_the_table_with_a_goodbye(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()

    def not_here(*args: object) -> None:
        raise NotImplementedError  # as asyncio's loops on Windows

    monkeypatch.setattr(loop, "add_signal_handler", not_here)
    terminal = io.StringIO()
    monkeypatch.setattr("sys.stdout", terminal)
    before = signal.getsignal(signal.SIGINT)
    serving = asyncio.create_task(serve(CONFIG))
    port = await _listening(terminal)
    anna = await NetClient.connect("127.0.0.1", port, "Anna")
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C
    await asyncio.wait_for(serving, 30)  # ends: no KeyboardInterrupt
    assert (await _goodbye(anna)).code == "shutdown"
    lines = terminal.getvalue().splitlines()
    assert lines[-2:] == ["durak host: closing the table", "durak host: closed"]
    assert signal.getsignal(signal.SIGINT) is before  # put back as it was
