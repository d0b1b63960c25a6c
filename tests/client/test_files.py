"""The settings and statistics files survive what other programs do to them on Windows: a
virus scanner, an indexer or a backup tool holds a file open for a moment, so reading or
replacing it fails for a while. Neither may reset the player's settings or statistics."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
import pytest

from client.settings import Settings, Unreadable, default_path
from client.stats import Stats
from host import durable


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durable, "RETRY_S", 0.0)


def _held_for(monkeypatch: pytest.MonkeyPatch, name: str, failures: int) -> list[int]:
    """Make ``name`` (``read_text`` of Path, or ``replace`` of os) fail ``failures`` times
    as a file held by another program does on Windows; the list counts the calls."""
    calls: list[int] = []
    target = Path if name == "read_text" else os
    real = getattr(target, name)

    def held(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) <= failures:
            raise PermissionError(13, "The process cannot access the file")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, held)
    return calls


def test_a_file_held_for_a_moment_is_read_once_it_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"name": "Anna", "language": "ru"}), encoding="utf-8")
    calls = _held_for(monkeypatch, "read_text", failures=3)
    settings = Settings.load(path)
    assert (settings.name, settings.language) == ("Anna", "ru")
    assert len(calls) == 4


def test_a_file_that_stays_unreadable_is_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "stats.json"
    Stats().save(path)
    before = path.read_bytes()
    _held_for(monkeypatch, "read_text", failures=10**6)
    with pytest.raises(Unreadable, match=r"stats\.json cannot be read"):
        Stats.load(path)
    with pytest.raises(Unreadable):
        Settings.load(tmp_path / "stats.json")
    assert path.read_bytes() == before
    assert not (tmp_path / "stats.json.broken").exists()


def test_a_save_over_a_file_held_for_a_moment_still_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    Settings(name="Old").save(path)
    calls = _held_for(monkeypatch, "replace", failures=2)
    Settings(name="Vera").save(path)
    assert len(calls) == 3
    assert json.loads(path.read_text(encoding="utf-8"))["name"] == "Vera"


def test_the_settings_of_the_folders_old_name_come_along(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        platformdirs, "user_config_dir", lambda name, appauthor=None: str(tmp_path / name)
    )
    old = tmp_path / "lan-durak"
    old.mkdir()
    Settings(name="Oleg").save(old / "settings.json")
    (old / "stats.json").write_text("{}", encoding="utf-8")
    path = default_path()
    assert path == tmp_path / "durak" / "settings.json"
    assert Settings.load(path).name == "Oleg"
    assert (path.parent / "stats.json").is_file()
    Settings(name="Ivan").save(path)
    assert Settings.load(default_path()).name == "Ivan"  # copied once, not again
    assert Settings.load(old / "settings.json").name == "Oleg"


def test_the_window_keeps_statistics_it_cannot_read_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from window import open_app

    stats = tmp_path / "stats.json"
    stats.write_text(json.dumps({"total": {"games": 7}}), encoding="utf-8")
    before = stats.read_bytes()
    real = Path.read_text

    def held(path: Path, *args: object, **kwargs: object) -> str:
        if path.name == "stats.json":
            raise PermissionError(13, "The process cannot access the file")
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", held)
    app = open_app(tmp_path / "settings.json")
    assert app.stats_path is None  # this session's games are not written over the file
    assert stats.read_bytes() == before
