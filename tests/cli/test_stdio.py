"""The command line survives the standard streams of Windows: none at all (pythonw, a
windowed app) and a piped stdout in the ANSI code page, which cannot encode a suit."""

from __future__ import annotations

import os
import subprocess
import sys

RUN_DEMO = "from client.cli.main import main; raise SystemExit(main(['demo', '--seed', '1']))"


def _run(code: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env},
        capture_output=True,
        timeout=120,
    )


def test_the_demo_piped_in_a_code_page_without_suits_writes_question_marks() -> None:
    result = _run(RUN_DEMO, PYTHONIOENCODING="cp1252")
    assert result.returncode == 0, result.stderr.decode("cp1252")
    text = result.stdout.decode("cp1252")
    assert "the game is over" in text or "ends in a draw" in text
    assert "seat 0 is dealt 6 cards: " in text
    assert "?" in text.splitlines()[1]  # the suits of the dealt hand
    assert not result.stderr


def test_the_demo_runs_with_no_standard_streams() -> None:
    code = "import sys\nsys.stdout = sys.stderr = None\n" + RUN_DEMO
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"" and result.stderr == b""


def test_sdl_output_is_captured_with_no_stderr() -> None:
    code = (
        "import os, sys\n"
        "from client.ui.assets import native_stderr_captured\n"
        "sys.stderr = None\n"
        "with native_stderr_captured() as captured:\n"
        "    os.write(2, b'ALSA lib noise')\n"
        "print(captured.getvalue().decode())\n"
    )
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().strip() == "ALSA lib noise"
    assert result.stderr == b""
