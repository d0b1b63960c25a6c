"""The start screen: play against the computer (opponents, levels, rules), settings, LAN.

Every choice is a row whose value changes when tapped (or with the arrow keys) and is
written to the remembered settings at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from client.i18n import N_, Translator
from client.net.session import AI_NAMES
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_button, draw_panel, draw_text, ellipsize, fit_px
from client.ui.scene import ButtonScene, Director
from engine import Rules, RulesError
from engine.ai import LEVELS

__all__ = ["Row", "StartScene", "chosen_rules", "levels", "rule_rows"]


def levels() -> list[str]:
    """The AI levels offered, easiest first."""
    known: list[str] = [level for level in ("easy", "normal", "hard") if level in LEVELS]
    return known or list(LEVELS)


def _cycle(options: list[Any], value: object, step: int = 1) -> Any:
    index = options.index(value) if value in options else -1
    return options[(index + step) % len(options)]


@dataclass
class Row:
    label: str
    value: Callable[[], str]
    change: Callable[[int], None] | None = None  # None: a heading
    column: int = 0
    enabled: Callable[[], bool] = lambda: True
    plain: bool = False  # the label is shown as it is (a name), not looked up

    def text(self, tr: Translator) -> str:
        return self.label if self.plain else tr(self.label)


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

    def rule_row(key: str, label: str) -> Row:
        return Row(label, lambda: on_off(rule(key)), lambda step: set_rule(key, not rule(key)), 1)

    return [
        Row(N_("menu.rules"), str, None, 1),
        Row(
            N_("menu.deck"),
            lambda: app.tr.plural("menu.deck_value", int(str(rule("deck_size")))),
            lambda step: set_rule("deck_size", _cycle([24, 36, 52], rule("deck_size"), step)),
            1,
        ),
        Row(
            N_("menu.throw_in"),
            lambda: tr(
                "menu.throw_in.all" if rule("throw_in") == "all" else "menu.throw_in.neighbours"
            ),
            lambda step: set_rule(
                "throw_in", _cycle(["all", "neighbours"], rule("throw_in"), step)
            ),
            1,
        ),
        rule_row("first_bout_five", N_("menu.first_bout_five")),
        rule_row("transfer", N_("menu.transfer")),
        Row(
            N_("menu.transfer_show_trump"),
            lambda: on_off(rule("transfer_show_trump")),
            lambda step: set_rule("transfer_show_trump", not rule("transfer_show_trump")),
            1,
            lambda: bool(rule("transfer")),
        ),
        rule_row("durak_defends_first", N_("menu.durak_defends_first")),
    ]


class StartScene(ButtonScene):
    tallest_button = 60

    def __init__(self, app: Director, start_game: Callable[[Rules], None]) -> None:
        self.app = app
        self.assets = app.assets
        self.start_game = start_game
        self.rows = self._rows()
        self.focus = 0
        self.hover = None
        self.hits: list[tuple[pygame.Rect, str | int]] = []
        self.resize(app.size)

    # --- the rows -------------------------------------------------------------------------

    def _rows(self) -> list[Row]:
        s = self.app.settings
        offered = levels()

        def tr(key: str, **fmt: object) -> str:
            return self.app.tr(key, **fmt)

        def level_row(i: int) -> Row:
            def value() -> str:
                level = s.levels[i] if s.levels[i] in offered else offered[0]
                return tr("level." + level)

            def change(step: int) -> None:
                s.levels[i] = str(_cycle(offered, s.levels[i], step))

            return Row(AI_NAMES[i], value, change, 0, lambda: i < s.opponents, plain=True)

        rows = [
            Row(N_("menu.computer"), str),
            Row(N_("menu.opponents"), lambda: str(s.opponents), self._change_opponents),
            *[level_row(i) for i in range(5)],
            *rule_rows(self.app),
        ]
        return rows

    def _change_opponents(self, step: int) -> None:
        s = self.app.settings
        s.opponents = (s.opponents - 1 + step) % 5 + 1

    def _active(self) -> list[int]:
        return [i for i, row in enumerate(self.rows) if row.change is not None and row.enabled()]

    def rules(self) -> Rules | str:
        """The rules chosen, or why they cannot be played."""
        return chosen_rules(self.app)

    # --- geometry -------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, h = size
        self.columns = 2 if w > h * 1.15 else 1
        left = [r for r in self.rows if r.column == 0]
        right = [r for r in self.rows if r.column == 1]
        per_column = max(len(left), len(right)) if self.columns == 2 else len(self.rows)
        title_h = min(h * 0.16, 120)
        bh = self.button_h()
        footer = bh * 3.7  # Play, Settings and How to play, the LAN row, gaps
        # the rows; a panel's padding above and below them (0.35 of a row each); the line
        # between the panels and Play that says why the rules cannot be played (0.65)
        self.row_h = max(15.0, min(50.0, (h - title_h - footer) / (per_column + 1.35)))
        self.title_h = title_h
        self.pad = max(6, round(self.row_h * 0.35))  # inside a panel, around its rows
        self.gutter = 2 * self.pad + 16  # between the rows of two columns (two panels)
        room = w - 2 * (self.pad + 12) - self.gutter * (self.columns - 1)
        self.col_w = min(room / self.columns, 520)
        self.px = max(11, round(self.row_h * 0.42))
        self.gap = round(max(bh * 0.3, self.px * 1.5))  # from the panels to Play

    def _row_rects(self) -> list[pygame.Rect]:
        w, _ = self.size
        rects = []
        counts = [0, 0]
        total_w = self.col_w * self.columns + self.gutter * (self.columns - 1)
        x0 = (w - total_w) / 2
        for row in self.rows:
            col = row.column if self.columns == 2 else 0
            k = counts[col]
            counts[col] += 1
            x = x0 + col * (self.col_w + self.gutter)
            y = self.title_h + self.pad + k * self.row_h
            rects.append(
                pygame.Rect(round(x), round(y), round(self.col_w), round(self.row_h * 0.9))
            )
        return rects

    def panels(self) -> list[pygame.Rect]:
        """One panel a column, round its rows with room to spare."""
        rects = self._row_rects()
        panels = []
        for col in range(self.columns):
            mine = [
                r
                for r, row in zip(rects, self.rows, strict=True)
                if (row.column if self.columns == 2 else 0) == col
            ]
            panel = mine[0].unionall(mine)
            panel.h = round(len(mine) * self.row_h)  # the last row's full height
            panels.append(panel.inflate(2 * self.pad, 2 * self.pad))
        return panels

    def row_parts(self, i: int, rect: pygame.Rect) -> tuple[str, int, pygame.Rect, pygame.Rect]:
        """A row's label, its size in pixels, where it is drawn and the value button: the
        label shrinks (or, in a tiny window, is shortened) to keep a gap of its own size
        before the button."""
        px = self.px
        label = self.rows[i].text(self.app.tr)
        value = pygame.Rect(0, 0, round(min(rect.w * 0.36, px * 7.5)), round(rect.h * 0.86))
        value.midright = (rect.right, rect.centery)
        room = value.left - rect.left - 2 * px
        label_px = fit_px(self.assets, label, px, room)
        label = ellipsize(self.assets, label, label_px, room)  # a tiny window: shortened
        where = pygame.Rect((0, 0), self.assets.font(label_px).size(label))
        where.midleft = (rect.left + px, rect.centery)
        return label, label_px, where, value

    def buttons(self) -> list[tuple[pygame.Rect, str, str, bool]]:
        w = self.size[0]
        tr = self.app.tr
        bottom = max(panel.bottom for panel in self.panels())
        bh = self.button_h()
        play = pygame.Rect(0, 0, round(min(w * 0.6, bh * 7)), bh)
        play.midtop = (w // 2, bottom + self.gap)
        pair_w = round(min(w * 0.44, bh * 5.5))
        found = [(play, "play", tr("menu.play"), True)]
        top = play.bottom
        for (left, left_label, left_on), (right, right_label, right_on) in (
            (("settings", tr("menu.settings"), True), ("howto", tr("menu.howto"), True)),
            (("host", tr("menu.host"), True), ("join", tr("menu.join"), True)),
        ):
            a = pygame.Rect(0, 0, pair_w, round(bh * 0.8))
            b = a.copy()
            a.topright = (w // 2 - 8, top + round(bh * 0.3))
            b.topleft = (w // 2 + 8, top + round(bh * 0.3))
            found += [(a, left, left_label, left_on), (b, right, right_label, right_on)]
            top = a.bottom
        return found

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event.key)
            return
        if self.press(event):
            return
        for i, rect in enumerate(self._row_rects()):
            row = self.rows[i]
            if rect.collidepoint(event.pos) and row.change is not None and row.enabled():
                self.focus = i
                row.change(1)
                self.app.save_settings()
                return

    def _key(self, key: int) -> None:
        active = self._active()
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate("play")
        elif key == pygame.K_ESCAPE:
            self.app.quit()
        elif key in (pygame.K_DOWN, pygame.K_UP) and active:
            k = active.index(self.focus) if self.focus in active else -1
            self.focus = active[(k + (1 if key == pygame.K_DOWN else -1)) % len(active)]
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and self.focus in active:
            change = self.rows[self.focus].change
            assert change is not None
            change(1 if key == pygame.K_RIGHT else -1)
            self.app.save_settings()

    def activate(self, name: str) -> None:
        rules = self.rules()
        if name == "play" and isinstance(rules, Rules):
            self.app.save_settings()
            self.start_game(rules)
        elif name == "settings":
            from client.screens.settings import SettingsScene

            self.app.push(SettingsScene(self.app))
        elif name == "howto":
            from client.screens.howto import HowToScene

            self.app.push(HowToScene(self.app))
        elif name == "host":
            from client.screens.host import HostScene

            self.app.push(HostScene(self.app))
        elif name == "join":
            from client.screens.join import JoinScene

            self.app.push(JoinScene(self.app))

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(self.assets.felt((w, h)), (0, 0))
        title_px = round(min(self.title_h * 0.5, w * 0.1))
        tr = self.app.tr
        draw_text(
            surface,
            self.assets,
            tr("menu.title"),
            title_px,
            (w / 2, self.title_h * 0.42),
            bold=True,
            colour=GOLD,
        )
        draw_text(
            surface,
            self.assets,
            tr("menu.subtitle"),
            round(title_px * 0.32),
            (w / 2, self.title_h * 0.78),
            colour=SOFT,
        )
        rects = self._row_rects()
        for panel in self.panels():
            draw_panel(surface, self.assets, panel, 150, radius=self.pad)
        px = self.px
        for i, (row, rect) in enumerate(zip(self.rows, rects, strict=True)):
            if row.change is None:
                heading = row.text(tr)
                heading_px = fit_px(self.assets, heading, round(px * 1.05), rect.w - px, bold=True)
                draw_text(
                    surface,
                    self.assets,
                    heading,
                    heading_px,
                    (rect.left + px * 0.5, rect.centery),
                    "midleft",
                    GOLD,
                    True,
                )
                continue
            enabled = row.enabled()
            colour = (255, 255, 255) if enabled else (120, 140, 128)
            label, label_px, where, value = self.row_parts(i, rect)
            draw_text(surface, self.assets, label, label_px, where.midleft, "midleft", colour)
            focus = i == self.focus
            hover = self.hover is not None and rect.collidepoint(self.hover)
            style = "chosen" if focus else "secondary"
            draw_button(
                surface, self.assets, value, row.value() if enabled else "—", style, hover, enabled
            )
        for rect, _name, label, enabled in self.buttons():
            hover = self.hover is not None and rect.collidepoint(self.hover)
            draw_button(
                surface,
                self.assets,
                rect,
                label,
                "primary" if _name == "play" else "secondary",
                hover,
                enabled,
            )
        rules = self.rules()
        if isinstance(rules, str):
            play = self.buttons()[0][0]
            warn_px = fit_px(self.assets, rules, px, w - 16)
            at = (w / 2, play.top - self.gap / 2)  # between the panels and Play
            draw_text(surface, self.assets, rules, warn_px, at, colour=(255, 170, 150))
