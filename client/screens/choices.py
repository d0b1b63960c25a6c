"""The choices of a game that several screens offer: the AI levels, and the rules rows the
start screen and the host screen share (written to the remembered settings)."""

from __future__ import annotations

from collections.abc import Callable

from client.i18n import N_, Translator
from client.settings import Settings
from client.ui.scene import Director
from client.ui.widgets import Row, cycle
from engine import Rules, RulesError
from engine.ai import LEVELS

__all__ = ["ai_names", "chosen_levels", "chosen_rules", "levels", "rule_rows"]

AI_NAME_KEYS = (N_("ai_name.1"), N_("ai_name.2"), N_("ai_name.3"), N_("ai_name.4"), N_("ai_name.5"))


def ai_names(tr: Translator) -> tuple[str, ...]:
    """The first names the window gives the AI players, in the player's script."""
    return tuple(tr(key) for key in AI_NAME_KEYS)


def levels() -> list[str]:
    """The AI levels offered, easiest first."""
    known: list[str] = [level for level in ("easy", "normal", "hard") if level in LEVELS]
    return known or list(LEVELS)


def chosen_levels(settings: Settings, players: int) -> list[str]:
    """The levels of the ``players - 1`` computer opponents chosen (an unknown one: the
    easiest offered)."""
    offered = levels()
    return [lv if lv in offered else offered[0] for lv in settings.levels[: players - 1]]


def chosen_rules(app: Director, players: int | None = None) -> Rules | str:
    """The rules chosen (``app.settings.rules``) for ``players`` (by default the start
    screen's opponents and us), or why they cannot be played."""
    settings = app.settings
    try:
        return settings.game_rules(players)
    except RulesError as exc:
        deck, players = int(settings.rules.get("deck_size", 36)), players or settings.opponents + 1
        if players * 6 > deck:
            return app.tr("menu.deck_too_small", deck=deck, players=players, most=deck // 6)
        return str(exc).capitalize()


def rule_rows(app: Director) -> list[Row]:
    """The "Rules" heading and a row for every rule, written to ``app.settings.rules``
    (the start screen and the host screen share them)."""
    s = app.settings

    def tr(key: str, **fmt: object) -> str:
        return app.tr(key, **fmt)

    def on_off(value: object) -> str:
        return tr("on") if value else tr("off")

    def rule(key: str) -> object:
        return s.rules.get(key, getattr(Rules(), key))

    def set_rule(key: str, value: object) -> None:
        s.rules = dict(s.rules, **{key: value})

    def changed(key: str) -> Callable[[], bool]:
        return lambda: rule(key) != getattr(Rules(), key)

    def switch(key: str, label: str, enabled: Callable[[], bool] = lambda: True) -> Row:
        def flip(step: int) -> None:
            set_rule(key, not rule(key))

        return Row(label, lambda: on_off(rule(key)), flip, 1, enabled, changed=changed(key))

    def transferring() -> bool:
        return bool(rule("transfer"))

    return [
        Row(N_("menu.rules"), str, None, 1),
        Row(
            N_("menu.deck"),
            lambda: app.tr.plural("menu.deck_value", int(str(rule("deck_size")))),
            lambda step: set_rule("deck_size", cycle([24, 36, 52], rule("deck_size"), step)),
            1,
            changed=changed("deck_size"),
        ),
        Row(
            N_("menu.throw_in"),
            lambda: tr(
                "menu.throw_in.all" if rule("throw_in") == "all" else "menu.throw_in.neighbours"
            ),
            lambda step: set_rule("throw_in", cycle(["all", "neighbours"], rule("throw_in"), step)),
            1,
            changed=changed("throw_in"),
        ),
        switch("first_bout_five", N_("menu.first_bout_five")),
        switch("transfer", N_("menu.transfer")),
        switch(
            "transfer_show_trump", N_("menu.transfer_show_trump"), lambda: bool(rule("transfer"))
        ),
        switch("durak_defends_first", N_("menu.durak_defends_first")),
    ]
