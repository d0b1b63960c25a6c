"""The start screen: play against the computer (opponents, levels, rules), settings, LAN.

Every choice is a row whose value changes when tapped (or with the arrow keys) and is
written to the remembered settings at once.
"""

from __future__ import annotations

import math

import pygame

from client.i18n import N_
from client.screens.choices import ai_names, chosen_rules, levels, rule_rows
from client.ui.confirm import ConfirmScene
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_backdrop, draw_panel, draw_text, ellipsize, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, Row, cycle, draw_stepper, step_at
from engine import Rules

__all__ = ["StartScene"]


class StartScene(ButtonScene):
    tallest_button = 60

    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets = app.assets
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
                s.levels[i] = str(cycle(offered, s.levels[i], step))

            name = ai_names(self.app.tr)[i]
            return Row(name, value, change, 0, lambda: i < s.opponents, plain=True)

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

    @property
    def scale(self) -> float:
        """How much larger than 1280x720 the window is (1 at most that size): the caps on
        the rows, the title and the buttons grow with it, so a big screen is filled."""
        w, h = self.size
        return max(1.0, min(w / 1280, h / 720))

    def button_h(self) -> int:
        return round(max(26, min(self.tallest_button * self.scale, self.size[1] * 0.075)))

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, h = size
        k = self.scale
        self.columns = 2 if w > h * 1.15 else 1
        left = [r for r in self.rows if r.column == 0]
        right = [r for r in self.rows if r.column == 1]
        per_column = max(len(left), len(right)) if self.columns == 2 else len(self.rows)
        title_h = min(h * 0.16, 120 * k)
        bh = self.button_h()
        footer = bh * 5.9  # Play, three rows of two buttons and Party, with their gaps
        # the rows; a panel's padding above and below them (0.35 of a row each); the line
        # between the panels and Play that says why the rules cannot be played (0.65)
        self.row_h = max(15.0, min(50.0 * k, (h - title_h - footer) / (per_column + 1.35)))
        self.title_h = title_h
        self.pad = max(6, round(self.row_h * 0.35))  # inside a panel, around its rows
        self.gutter = 2 * self.pad + 16  # between the rows of two columns (two panels)
        room = w - 2 * (self.pad + 12) - self.gutter * (self.columns - 1)
        self.col_w = min(room / self.columns, 520 * k)
        self.px = max(11, round(self.row_h * 0.42))
        self.gap = round(max(bh * 0.3, self.px * 1.5))  # from the panels to Play
        self.top = 0  # the whole screen a little lower where the window is taller than it
        self.top = max(0, round((h - self.buttons()[-1].rect.bottom - bh * 0.3) * 0.4))

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
            y = self.top + self.title_h + self.pad + k * self.row_h
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

    def buttons(self) -> list[Button]:
        w = self.size[0]
        tr = self.app.tr
        panels = self.panels()
        bottom = max(panel.bottom for panel in panels)
        bh = self.button_h()
        play = pygame.Rect(0, 0, round(min(w * 0.6, bh * 7)), bh)
        play.midtop = (w // 2, bottom + self.gap)
        span = panels[-1].right - panels[0].left  # the pairs no wider than the panels
        pair_w = round(min(w * 0.44, bh * 5.5, (span - 16) / 2))
        found = [Button(play, "play", tr("menu.play"), style="primary")]
        top = play.bottom
        for (left, left_label), (right, right_label) in (
            (("settings", tr("menu.settings")), ("howto", tr("menu.howto"))),
            (("host", tr("menu.host")), ("join", tr("menu.join"))),
            (("stats", tr("menu.stats")), ("past", tr("menu.past"))),
        ):
            a = pygame.Rect(0, 0, pair_w, round(bh * 0.8))
            b = a.copy()
            a.topright = (w // 2 - 8, top + round(bh * 0.3))
            b.topleft = (w // 2 + 8, top + round(bh * 0.3))
            found += [Button(a, left, left_label), Button(b, right, right_label)]
            top = a.bottom
        party = pygame.Rect(0, 0, pair_w, round(bh * 0.8))
        party.midtop = (w // 2, top + round(bh * 0.3))
        return [*found, Button(party, "party", tr("menu.party"))]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event.key)
            return
        if event.kind == "step":  # a right-click or the wheel over a row
            self._step(event.pos, event.step)
        elif not self.press(event):
            self._step(event.pos, None)

    def _step(self, pos: tuple[float, float], step: int | None) -> None:
        """Step the row at ``pos`` by ``step`` (None: as far as a tap on its value says)."""
        for i, rect in enumerate(self._row_rects()):
            row = self.rows[i]
            if rect.collidepoint(pos) and row.change is not None and row.enabled():
                self.focus = i
                value = self.row_parts(i, rect)[3]
                row.change(step_at(value, pos[0]) if step is None else step)
                self.app.save_settings()
                return

    def _key(self, key: int) -> None:
        active = self._active()
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate("play")
        elif key == pygame.K_ESCAPE:
            self.app.push(self._quit_question())
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
            self.app.start_game(rules)
        elif name in ("host", "join"):
            self.app.show_named(name)  # the first table asks the player's name
        elif name in ("settings", "howto", "stats", "past", "party"):
            self.app.show(name)

    def _quit_question(self) -> ConfirmScene:
        tr = self.app.tr
        return ConfirmScene(
            self.app,
            question=tr("quit.question"),
            detail=tr("quit.detail"),
            yes=tr("quit.yes"),
            no=tr("quit.no"),
            on_yes=self.app.quit,
        )

    # --- drawing --------------------------------------------------------------------------

    def next_frame(self) -> float:
        return math.inf  # only input changes it

    def draw(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        title_px = round(min(self.title_h * 0.5, w * 0.1))
        tr = self.app.tr
        at = (w / 2, self.top + self.title_h * 0.42)
        draw_backdrop(surface, self.assets, tr("menu.title"), title_px, at)
        draw_text(
            surface,
            self.assets,
            tr("menu.subtitle"),
            round(title_px * 0.32),
            (w / 2, self.top + self.title_h * 0.78),
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
            changed = enabled and row.changed()
            colour = GOLD if changed else (255, 255, 255) if enabled else (120, 140, 128)
            label, label_px, where, value = self.row_parts(i, rect)
            draw_text(surface, self.assets, label, label_px, where.midleft, "midleft", colour)
            if changed:  # set away from the usual rules: a gold dot before the label
                dot = (rect.left + px * 0.45, rect.centery)
                draw_text(surface, self.assets, "•", label_px, dot, colour=GOLD)
            focus = i == self.focus
            hover = self.hover is not None and rect.collidepoint(self.hover)
            style = "chosen" if focus else "secondary"
            text = row.value() if enabled else "—"
            draw_stepper(surface, self.assets, value, text, style, hover, enabled)
        self.draw_buttons(surface, self.assets)
        rules = self.rules()
        if isinstance(rules, str):
            play = self.buttons()[0].rect
            warn_px = fit_px(self.assets, rules, px, w - 16)
            at = (w / 2, play.top - self.gap / 2)  # between the panels and Play
            draw_text(surface, self.assets, rules, warn_px, at, colour=(255, 170, 150))
