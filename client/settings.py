"""The choices a player makes once and finds again: name and badge, language, game setup,
animation speed, hints, sound and music, full screen.

Stored as JSON in the user's config folder (``platformdirs``, the folder ``durak`` as for
the saves and kept games); a missing or outdated file gives the defaults for what it lacks,
and unknown or wrongly typed keys are ignored. A file that is not JSON at all is moved aside
(``settings.json.broken``) before the defaults are used, and every save replaces the file
in one step, so a crash never leaves half a file.

A file that is there but cannot be read, or replaced, for a moment is no broken file: on
Windows a virus scanner, an indexer or a backup tool holds files open for a while. Reading
and replacing are tried again for a moment (``host.durable.held``); a file that still cannot
be read raises ``Unreadable``, and its owner then plays with the defaults and saves nothing,
so the player's file is found as it was next time.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import shutil
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from engine import Rules, RulesError
from host.durable import held, replace
from protocol import LOOKS

__all__ = [
    "ANIMATION_SPEEDS",
    "LANGUAGES",
    "NAME_MAX",
    "Settings",
    "Unreadable",
    "clean_name",
    "default_path",
    "read_json",
    "system_name",
    "write_json",
]

# name -> factor on every animation's speed
ANIMATION_SPEEDS: dict[str, float] = {"slow": 0.6, "normal": 1.0, "fast": 1.8}
LANGUAGES: tuple[str, ...] = ("en", "de", "nl", "ru")  # the catalogues of ``client.i18n``
NAME_MAX = 16  # characters of a player's name
OLD_FOLDER = "lan-durak"  # the config folder's name before it was "durak" (0.1.0)


class Unreadable(OSError):
    """A file that is there but could not be read (held by another program, no access)."""


def default_path() -> Path:
    """The settings file in the user's config folder. The first time, the settings and
    statistics of the folder's older name are copied over (the old files stay)."""
    from platformdirs import user_config_dir

    folder = Path(user_config_dir("durak", appauthor=False))
    old = Path(user_config_dir(OLD_FOLDER, appauthor=False))
    for name in ("settings.json", "stats.json"):
        if (old / name).is_file() and not (folder / name).exists():
            with contextlib.suppress(OSError):
                folder.mkdir(parents=True, exist_ok=True)
                shutil.copy2(old / name, folder / name)
    return folder / "settings.json"


@dataclass
class Settings:
    name: str = ""  # empty: the language's word for "Player"
    language: str = "en"
    opponents: int = 2
    levels: list[str] = field(default_factory=lambda: ["normal"] * 5)
    rules: dict[str, Any] = field(default_factory=lambda: Rules().to_dict())
    animation: str = "normal"
    hints: bool = True
    muted: bool = False
    volume: int = 80  # the sounds' loudness, 0-100 (``muted`` silences them all)
    music: int = 0  # the music's loudness, 0-100 of ``volume``; 0: no music (the default)
    look: int = 0  # the badge the others see beside our name (``client.ui.looks``)
    named: bool = False  # the player was asked for their name (the first host or join)
    fullscreen: bool = False
    window: list[int] = field(default_factory=lambda: [1280, 720])
    lan_bind: str = ""  # the address LAN play binds to ("": every interface)

    @property
    def effects_level(self) -> float:
        """How loud a sound plays, 0-1."""
        return 0.0 if self.muted else self.volume / 100

    @property
    def music_level(self) -> float:
        """How loud the music plays, 0-1 (0: it does not play)."""
        return self.effects_level * self.music / 100

    @property
    def speed(self) -> float:
        return ANIMATION_SPEEDS.get(self.animation, 1.0)

    def game_rules(self, players: int | None = None) -> Rules:
        """The remembered rules for ``opponents + 1`` players (``RulesError`` if unplayable)."""
        data = dict(self.rules, players=players or self.opponents + 1)
        if not data.get("transfer"):
            data["transfer_show_trump"] = False  # the sub-option is kept for next time
        return Rules.from_dict(data)

    @classmethod
    def load(cls, path: Path) -> Settings:
        settings = cls()
        data = read_json(path)
        if data is None:
            return settings
        for f in fields(cls):
            value = data.get(f.name)
            default = getattr(settings, f.name)
            if value is not None and type(value) is type(default):
                setattr(settings, f.name, value)
        settings._repair()
        return settings

    def _repair(self) -> None:
        defaults = Settings()
        self.opponents = min(5, max(1, self.opponents))
        levels = [lv for lv in self.levels if isinstance(lv, str)]
        self.levels = (levels + defaults.levels)[:5]
        self.name = clean_name(self.name)
        self.volume = min(100, max(0, self.volume))
        self.music = min(100, max(0, self.music))
        self.look = self.look if 0 <= self.look < LOOKS else defaults.look
        if self.language not in LANGUAGES:
            self.language = defaults.language
        if self.animation not in ANIMATION_SPEEDS:
            self.animation = defaults.animation
        try:
            self.game_rules(players=2)
        except RulesError:
            self.rules = defaults.rules
        if not (len(self.window) == 2 and all(isinstance(v, int) and v > 0 for v in self.window)):
            self.window = defaults.window

    def save(self, path: Path) -> None:
        write_json(path, asdict(self))


def clean_name(name: str) -> str:
    """A name as shown to others: printable, single-spaced, at most ``NAME_MAX`` characters."""
    printable = "".join(ch if ch.isprintable() else " " for ch in name)
    return " ".join(printable.split())[:NAME_MAX].rstrip()


def system_name() -> str:
    """The name the system knows the player by (their login), as a first guess at what
    the others should call them; "" where there is none (no login name, or one that is
    no name, as "root")."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name (a container, Windows service)
        return ""
    name = clean_name(login.replace("_", " ").replace(".", " "))
    if name.lower() in ("root", "admin", "administrator", "user", "guest"):
        return ""
    return name[:1].upper() + name[1:] if name.islower() else name


def read_json(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; None when there is none. A file that is not a JSON
    object is kept for a look (``NAME.broken``), out of the way of the next save; one that
    cannot be read raises ``Unreadable`` and is left as it is."""
    try:
        text = held(lambda: path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        text = ""
    except OSError as exc:
        raise Unreadable(f"{path} cannot be read ({exc.strerror or exc})") from exc
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return data
    with contextlib.suppress(OSError):
        os.replace(path, path.with_name(path.name + ".broken"))
    return None


def write_json(path: Path, data: object) -> None:
    """``data`` into ``path`` in one step (a crash never leaves half a file); a folder that
    cannot be written is no error: remembering is a convenience, not a reason to stop."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".tmp")
        partial.write_text(json.dumps(data, indent=2), encoding="utf-8")
        replace(partial, path)
    except OSError:
        pass
