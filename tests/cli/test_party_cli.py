"""``durak party`` and ``durak bot --party`` on the command line: a night of two bots,
and command lines that cannot run said so."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from client.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def durak(*args: str) -> list[str]:
    return [sys.executable, "-m", "client", *args]


@pytest.mark.slow
def test_two_command_line_bots_play_a_night_of_two_rounds() -> None:
    party = subprocess.Popen(
        durak("party", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--no-save",
              "--size", "2", "--rounds", "2", "--start-with", "2", "--break", "0.2",
              "--ai", "random", "--seed", "3"),
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert party.stdout is not None
        line = next(line for line in party.stdout if "listening on" in line)
        address = line.rsplit(" ", 1)[1].strip()
        bots = [
            subprocess.Popen(
                durak("bot", "--party", address, "--name", f"Bot {i}", "--seed", str(i)),
                cwd=ROOT,
                env=ENV,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in range(2)
        ]
        outs = [bot.communicate(timeout=60)[0] for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0], outs
        for i, out in enumerate(outs):
            assert "round 1: table 1" in out and "round 2: table 1" in out, out
            assert f"Bot {i}: rank " in out
    finally:
        party.send_signal(signal.SIGINT)
        rest, _ = party.communicate(timeout=30)
    assert party.returncode == 0
    assert "round 2 (the final)" in rest and "the night is over" in rest and "closed" in rest


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("party", "--rounds", "2", "--minutes", "30"), "not allowed with"),
        (("party", "--size", "7"), "seats must be 2 to 6"),
        (("party", "--ai", "nobody", "--no-save"), "unknown AI level"),
        (("party", "--resume", "--no-save"), "--resume takes up the party saved for a port"),
        (("bot", "--party", "nowhere"), "HOST:PORT"),
    ],
)
def test_a_command_line_that_cannot_run_says_why(
    args: tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """In this process (a ``durak`` process each took 0.5-1.5 s of the quick suite; the
    night above runs the command as a program)."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    said = capsys.readouterr()
    assert code == 2
    assert words in said.out + said.err
