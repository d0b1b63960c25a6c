"""The window's chores: work done a short piece at a time between frames, so that a big
job (keeping a finished game) never makes a frame late."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest

from client.ui.chores import Chores


def pieces(done: list[str], name: str, count: int) -> Iterator[None]:
    for number in range(count):
        done.append(f"{name}{number}")
        yield


def test_chores_run_in_order_a_piece_at_a_time_until_the_time_is_up() -> None:
    done: list[str] = []
    chores = Chores()
    chores.add(pieces(done, "a", 3))
    chores.add(pieces(done, "b", 2))
    chores.run(0.0)  # the time is up at once: still one piece
    assert done == ["a0"] and chores
    chores.run(time.perf_counter() + 60)
    assert done == ["a0", "a1", "a2", "b0", "b1"] and not chores


def test_a_failing_chore_is_logged_and_dropped_and_the_others_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> Iterator[None]:
        yield
        raise ValueError("a bug")

    done: list[str] = []
    chores = Chores()
    chores.add(broken())
    chores.add(pieces(done, "b", 2))
    with caplog.at_level(logging.ERROR, logger="client.ui.chores"):
        chores.finish()
    assert done == ["b0", "b1"] and not chores
    assert "a chore failed" in caplog.text and "a bug" in caplog.text
