"""The conformance suite (``durak conformance``) against a real ``durak host`` on
127.0.0.1: our host passes every check, a host that breaks the document is caught, and the
reference client ``durak bot`` plays whole games the host never refuses."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from client.bot import play_bot
from client.conformance import Check, Suite
from host import Host, HostConfig
from host.table import Table

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def durak(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_durak_host_passes_every_check_of_durak_conformance() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save"],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        line = next(line for line in host.stdout if "listening on" in line)
        address = line.rsplit(" ", 1)[1].strip()
        run = durak("conformance", address)
    finally:
        if sys.platform == "win32":
            host.kill()
        else:
            host.send_signal(signal.SIGINT)
        host.communicate(timeout=30)
    lines = run.stdout.splitlines()
    failed = [line for line in lines if line.startswith("FAIL")]
    assert run.returncode == 0 and not failed, "\n".join(failed) or run.stderr
    summary = re.fullmatch(r"(\d+) passed, 0 failed", lines[-1])
    assert summary is not None and int(summary[1]) == len(lines) - 1 >= 100


def test_a_bad_address_is_a_clear_error() -> None:
    run = durak("conformance", "nowhere")
    assert run.returncode == 2 and "HOST:PORT" in run.stderr
    run = durak("conformance", "127.0.0.1:1")  # nothing listens there
    assert run.returncode == 2 and "cannot reach" in run.stderr


async def _suite_against(config: HostConfig) -> list[Check]:
    async with Host(config) as host:
        return await Suite("127.0.0.1", host.port).run()


def test_a_table_with_a_password_passes_too() -> None:
    """With ``--password`` the suite also checks that a missing or wrong one is refused."""
    config = HostConfig(bind="127.0.0.1", port=0, announce=False, save_dir=None, password="pw")

    async def body() -> list[Check]:
        async with Host(config) as host:
            return await Suite("127.0.0.1", host.port, "pw").run()

    results = asyncio.run(body())
    assert [r for r in results if not r.passed] == []
    assert {"a hello with the password None is bad_password", "room.password says whether "
            "hello needs one"} <= {r.name for r in results}  # fmt: skip


def test_a_host_that_breaks_the_document_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that relays every emote (the document drops one within 2 s of the last) and
    sends the room after every ready in the lobby (the document: only when a mark
    changed) fails exactly the checks of those rules."""

    def emote_always(self: Table, index: int, code: str) -> None:
        from protocol import Emoted

        self._broadcast(Emoted(index, code))

    original = Table._ready

    def ready_and_room(self: Table, link: object, message: object) -> None:
        original(self, link, message)  # type: ignore[arg-type]
        if not self.playing:
            self._room_changed()

    monkeypatch.setattr(Table, "_emote", emote_always)
    monkeypatch.setattr(Table, "_ready", ready_and_room)
    config = HostConfig(bind="127.0.0.1", port=0, announce=False, save_dir=None)
    results = asyncio.run(_suite_against(config))
    failed = {r.name for r in results if not r.passed}
    assert failed == {
        "a second emote within 2 seconds is dropped without a word",
        "ready is ack (seq nil), then room with the mark, to everyone",
        "ready that changes no mark is ack alone",
    }
    assert len(results) >= 100


def test_the_reference_bot_speaks_only_what_the_host_accepts() -> None:
    """``durak bot`` against a host AI: every message it sends is one the host accepts (a
    protocol error would close its connection), and it plays whole games."""
    config = HostConfig(
        bind="127.0.0.1", port=0, announce=False, save_dir=None, seats=2, ai=("random",), seed=3
    )

    async def body() -> None:
        async with Host(config) as host:
            report = await play_bot("127.0.0.1", host.port, "normal", 3, seed=5)
            assert len(report.results) == 3 and host.table.errors == 0

    asyncio.run(body())


@pytest.mark.xfail(
    strict=True,
    reason="client/bot.py acts on the view before an ack's update (docs/protocol.md section "
    "8 says to decide on the update with the ack's seq), so some of its actions are refused",
)
def test_the_reference_bot_plays_whole_games_without_a_refused_action() -> None:
    """Against a host AI at two seats nothing else can change the bout between a view and
    the bot's answer to it, so a bot that follows section 8 is never refused."""
    config = HostConfig(
        bind="127.0.0.1", port=0, announce=False, save_dir=None, seats=2, ai=("random",), seed=3
    )

    async def body() -> None:
        async with Host(config) as host:
            report = await play_bot("127.0.0.1", host.port, "normal", 3, seed=5)
            assert len(report.results) == 3 and report.rejected == 0
            assert host.table.errors == 0

    asyncio.run(body())
