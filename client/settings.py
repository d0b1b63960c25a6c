"""The choices a player makes once and finds again: game setup, animation speed, hints, sound.

Stored as JSON in the user's config folder (``platformdirs``); a missing, unreadable or
outdated file gives the defaults, and unknown or wrongly typed keys are ignored.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from engine import Rules, RulesError

__all__ = ["ANIMATION_SPEEDS", "Settings", "default_path"]

# name -> factor on every animation's speed
ANIMATION_SPEEDS: dict[str, float] = {"slow": 0.6, "normal": 1.0, "fast": 1.8}


def default_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("lan-durak", appauthor=False)) / "settings.json"


@dataclass
class Settings:
    name: str = "You"
    opponents: int = 2
    levels: list[str] = field(default_factory=lambda: ["normal"] * 5)
    rules: dict[str, Any] = field(default_factory=lambda: Rules().to_dict())
    animation: str = "normal"
    hints: bool = True
    muted: bool = False
    fullscreen: bool = False
    window: list[int] = field(default_factory=lambda: [1280, 720])

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
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return settings
        if not isinstance(data, dict):
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
        if self.animation not in ANIMATION_SPEEDS:
            self.animation = defaults.animation
        try:
            self.game_rules(players=2)
        except RulesError:
            self.rules = defaults.rules
        if not (len(self.window) == 2 and all(isinstance(v, int) and v > 0 for v in self.window)):
            self.window = defaults.window

    def save(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
        except OSError:
            pass  # remembering is a convenience; a read-only home must not stop the game
