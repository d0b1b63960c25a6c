"""Files reach the disk for certain on each system: F_FULLFSYNC on macOS (fsync there
leaves the data in the drive's cache), and a rename over a file another program holds
for a moment (a virus scanner on Windows) waits for it instead of failing the save."""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

import pytest

from host import durable


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durable, "RETRY_S", 0.0)


def _fcntl_calls(monkeypatch: pytest.MonkeyPatch, fails: bool) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(fcntl, "F_FULLFSYNC", 51, raising=False)  # macOS's number

    def fake(fd: int, command: int, *args: object) -> int:
        calls.append(command)
        if fails:
            raise OSError(45, "Operation not supported")  # e.g. a network share
        return 0

    monkeypatch.setattr(fcntl, "fcntl", fake)
    return calls


@pytest.mark.parametrize("fails", [False, True], ids=["full", "falls-back"])
def test_macos_asks_the_drive_to_write_its_cache_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: bool
) -> None:
    calls = _fcntl_calls(monkeypatch, fails)
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    monkeypatch.setattr(sys, "platform", "darwin")
    with open(tmp_path / "journal", "wb") as out:
        durable.full_fsync(out.fileno())
        assert calls == [51]
        assert synced == ([out.fileno()] if fails else [])


def test_elsewhere_fsync_is_the_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fcntl_calls(monkeypatch, fails=False)
    monkeypatch.setattr(sys, "platform", "win32")
    with open(tmp_path / "journal", "wb") as out:
        durable.full_fsync(out.fileno())
    assert calls == []


def _held(monkeypatch: pytest.MonkeyPatch, failures: int) -> list[str]:
    calls: list[str] = []
    real = os.replace

    def replace(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) <= failures:
            raise PermissionError(13, "The process cannot access the file")
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    return calls


def test_a_save_over_a_file_held_for_a_moment_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "table-45654.json"
    target.write_bytes(b"old")
    calls = _held(monkeypatch, failures=3)
    durable.write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and len(calls) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table-45654.json"]


def test_a_file_held_for_good_fails_the_save_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "table-45654.json"
    target.write_bytes(b"old")
    calls = _held(monkeypatch, failures=10**6)
    with pytest.raises(PermissionError):
        durable.write_atomically(target, b"new")
    assert len(calls) == durable.TRIES
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table-45654.json"]  # no temp left


def test_a_disk_that_takes_none_of_the_bytes_fails_the_save_instead_of_spinning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "table-45654.json"
    target.write_bytes(b"old")
    monkeypatch.setattr(os, "write", lambda fd, data: 0)  # a full disk
    with pytest.raises(OSError, match="took none"):
        durable.write_atomically(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table-45654.json"]
