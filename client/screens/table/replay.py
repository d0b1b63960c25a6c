"""Watching a kept game again: the real table screen, fed by a replay session, under a
small bar of controls.

The table (``TableScene``) is shown a ``client.net.replay.ReplaySession`` exactly as it is
shown a live game: stepping forward tells it the next step, whose cards fly as they did;
stepping back, by a bout or to the start puts a fresh table at that step at once. The bar:
back a bout, back a move, play/pause, a move on, a bout on, and — when the file holds the
full log — "all hands", which lays every opponent's cards face up on their seat.
Keys: Space play/pause, ←/→ a move, ↑/↓ (or PgUp/PgDn) a bout, Home/End, A all hands,
Esc back.

The table's overlays (its pause, log, end panel...) go on this scene's own small stack
(``push``, ``pop``, ``above``), drawn over the table and under the bar.

Opened from a line of the coach's review, it pauses before that move and shows the
coach's advice there: its words at the top, the better move's cards ringed in gold in the
hand (and, for a beat, the card it beats), until the replay moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pygame

from client.i18n import N_
from client.net.gamefile import GameFile, GameFileError
from client.net.replay import Replay, ReplaySession
from client.screens.table.hand import cards_of
from client.screens.table.screen import TableScene
from client.screens.table.where import Where
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_button, draw_panel, draw_text, fit_px, wrap
from client.ui.scene import Director, Scene
from client.ui.widgets import Button
from engine import Action, Beat

__all__ = ["ReplayScene"]

PAUSE = 0.45  # seconds between moves while playing, at normal animation speed
SETTLE = 10.0  # seconds of animation a jump plays out at once (every tween ends sooner)
CONTROLS = (
    ("bout_back", N_("replay.bout_back")),
    ("back", N_("replay.back")),
    ("play", N_("replay.play")),
    ("forward", N_("replay.forward")),
    ("bout_forward", N_("replay.bout_forward")),
)


class ReplayScene(Scene):
    def __init__(
        self,
        app: Director,
        game: GameFile | None = None,
        path: Path | None = None,
        at: int | None = None,
        advice: Sequence[str] = (),
        better: Action | None = None,
    ):
        """The game ``game``, or the file at ``path`` (a file that cannot be read says why);
        with ``at``, paused once ``at`` steps are shown (the coach's review opens a move);
        ``advice``: the coach's words on that move, shown while the replay is there, and
        ``better``: the move it advised (None: the move made was the best)."""
        self.app = app
        self.advice = (at, tuple(advice), better) if at is not None and advice else None
        self.assets = app.assets
        self.problem: str | None = None
        self.hover: tuple[float, float] | None = None
        if game is None and path is not None:
            try:
                game = GameFile.load(path)
            except GameFileError as exc:
                self.problem = str(exc)
        self.replay = Replay(game) if game is not None else None
        self.playing = self.replay is not None
        self.all_hands = False
        self.delay = PAUSE
        self.session: ReplaySession | None = None
        self.table: TableScene | None = None
        self.overlays: list[Scene] = []  # the table's, over it and under the bar
        if self.replay is not None:
            self.session = ReplaySession(self.replay)
            self._jump(at or 0)
            self.playing = at is None

    # --- moving through the game ------------------------------------------------------------

    @property
    def shown(self) -> int:
        return self.session.shown if self.session is not None else 0

    @property
    def at_end(self) -> bool:
        return self.replay is not None and self.shown >= len(self.replay)

    def _jump(self, shown: int) -> None:
        """A fresh table at ``shown`` steps, every card already in its place."""
        assert self.session is not None
        told = self.session.seek(shown)
        while self.overlays:  # (they were the old table's)
            self.pop()
        self.table = TableScene(
            self.app, self.session, backlog=told, overlays=self, where=Where.REPLAY
        )
        self.table.update(SETTLE)
        self.delay = PAUSE

    def go(self, name: str) -> None:
        """A control of the bar (or its key)."""
        replay, table = self.replay, self.table
        if replay is None or table is None:
            return
        if name == "play":
            if self.at_end:
                self._jump(0)
            self.playing = not self.playing
            return
        self.playing = False
        if name == "forward":
            if table.idle:
                assert self.session is not None
                self.session.advance()
            else:
                self._jump(self.shown + 1)
        elif name == "back":
            self._jump(self.shown - 1)
        elif name in ("bout_back", "bout_forward"):
            self._jump(replay.bout_start(self.shown, -1 if name == "bout_back" else 1))
        elif name == "start":
            self._jump(0)
        elif name == "end":
            self._jump(len(replay))
        elif name == "hands" and replay.hands is not None:
            self.all_hands = not self.all_hands

    # --- the table's overlays ----------------------------------------------------------------

    def push(self, scene: Scene) -> None:
        self.overlays.append(scene)
        scene.enter()

    def pop(self) -> None:
        self.overlays.pop().exit()

    def above(self, scene: Scene) -> list[Scene]:
        return list(self.overlays) if scene is self.table else []

    # --- scene ------------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        for scene in [self.table, *self.overlays]:
            if scene is not None:
                scene.resize(size)

    def exit(self) -> None:
        while self.overlays:
            self.pop()
        if self.table is not None:
            self.table.exit()

    def update(self, dt: float) -> None:
        table, session = self.table, self.session
        if table is None or session is None:
            return
        if session.restart:  # the end panel's "watch again"
            session.restart = False
            self._jump(0)
            self.playing = True
            return
        table.update(dt)
        for scene in list(self.overlays):
            scene.update(dt)
        if self.playing and table.idle and not self.at_end:
            self.delay -= dt * self.app.settings.speed
            if self.delay <= 0:
                session.advance()
                self.delay = PAUSE
        if self.at_end and table.idle:
            self.playing = False

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind == "move":
            self.hover = event.pos if event.pointer < 0 else None
        if event.kind == "down":
            for button in self.buttons():
                if button.rect.collidepoint(event.pos):
                    if button.name == "leave":
                        self.app.pop()
                    else:
                        self.go(button.name)
                    return
        top = self.overlays[-1] if self.overlays else self.table
        if top is not None:
            top.handle(event)

    def _key(self, event: Key) -> None:
        keys = {
            pygame.K_SPACE: "play",
            pygame.K_LEFT: "back",
            pygame.K_RIGHT: "forward",
            pygame.K_UP: "bout_back",
            pygame.K_PAGEUP: "bout_back",
            pygame.K_DOWN: "bout_forward",
            pygame.K_PAGEDOWN: "bout_forward",
            pygame.K_HOME: "start",
            pygame.K_END: "end",
            pygame.K_a: "hands",
        }
        if event.key == pygame.K_ESCAPE or self.table is None:
            self.app.pop()
        elif event.key in keys:
            self.go(keys[event.key])
        elif event.key in (pygame.K_m, pygame.K_h):  # sound, hints: the table's own keys
            (self.overlays[-1] if self.overlays else self.table).handle(event)

    # --- the bar ----------------------------------------------------------------------------

    def bar(self) -> pygame.Rect:
        """The bar of controls: in the row of the table's buttons, between Menu and Sound
        (a replay offers no move, so no action button needs the room, and no React); in a
        window too narrow for that, below the opponents' name plates."""
        w, h = self.app.size
        table = self.table
        corners = {b.name: b.rect for b in table.buttons} if table is not None else {}
        layout = table.layout if table is not None else None
        if layout is not None and "menu" in corners and "sound" in corners:
            m = round(layout.margin)
            left, right = corners["menu"].right + m, corners["sound"].left - m
            row = corners["menu"]
            if right - left >= row.h * 14:
                width = min(right - left, round(row.h * 24))
                bar = pygame.Rect(0, 0, width, row.h + 2 * max(3, row.h // 8))
                bar.center = ((left + right) // 2, row.centery)
                return bar
        bh = round(max(24, min(40, h * 0.05)))
        top = round(h * 0.01)
        if layout is not None and layout.seats:
            top = max(top, max(s.plate[1] + s.plate[3] for s in layout.seats.values()) + 6)
        width = min(w - 16, round(bh * 22))
        return pygame.Rect((w - width) // 2, top, width, bh + 2 * max(3, bh // 8))

    def _slots(self) -> tuple[pygame.Rect, list[tuple[str, pygame.Rect]]]:
        """Where the caption and each control sit in the bar."""
        assert self.replay is not None
        bar = self.bar()
        gap = max(3, bar.h // 10)
        bh = bar.h - 2 * gap
        names = [n for n, _ in CONTROLS] + (["hands"] if self.replay.hands is not None else [])
        widths = {n: 2.2 for n in names} | {"play": 2.6, "hands": 3.0}
        units = sum(widths.values()) + 4.2  # the caption's share
        unit = (bar.w - gap * (len(names) + 2)) / units
        caption = pygame.Rect(bar.x + gap, bar.y + gap, round(unit * 4.2), bh)
        x = caption.right + gap
        slots = []
        for name in names:
            width = round(unit * widths[name])
            slots.append((name, pygame.Rect(round(x), bar.y + gap, width, bh)))
            x += width + gap
        return caption, slots

    def buttons(self) -> list[Button]:
        tr = self.app.tr
        if self.replay is None:
            w, h = self.app.size
            bh = round(max(26, min(56, h * 0.075)))
            return [
                Button(
                    pygame.Rect(w // 2 - bh * 2, h * 3 // 4, bh * 4, bh),
                    "leave",
                    tr("replay.leave"),
                )
            ]
        label = {n: tr(key) for n, key in CONTROLS}
        label["play"] = tr("replay.pause" if self.playing else "replay.play")
        label["hands"] = tr("replay.hands")
        found = []
        for name, rect in self._slots()[1]:
            style = "primary" if name == "play" else "secondary"
            if name == "hands" and self.all_hands:
                style = "chosen"
            enabled = not (name in ("back", "bout_back") and self.shown <= 1) and not (
                name in ("forward", "bout_forward") and self.at_end
            )
            found.append(Button(rect, name, label[name], enabled, style))
        return found

    def caption(self) -> str:
        """Where the replay is: the bout and the move of the game."""
        assert self.replay is not None
        tr = self.app.tr
        moves = len(self.replay) - 1  # the deal is not a move
        return tr(
            "replay.where",
            bout=self.replay.bout_at(self.shown),
            bouts=len(self.replay.bouts),
            move=max(0, self.shown - 1),
            moves=moves,
        )

    # --- drawing ----------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        if self.table is None:
            self._draw_problem(surface)
            return
        self.table.draw(surface)
        for scene in self.overlays:
            scene.draw(surface)
        if self.all_hands:
            self._draw_hands(surface)
        if self.advice is not None and self.shown == self.advice[0]:
            self._draw_advice(surface, self.advice[1], self.advice[2])
        bar = self.bar()
        draw_panel(surface, self.assets, bar, alpha=215, radius=bar.h // 4)
        buttons = self.buttons()
        px = min(
            fit_px(self.assets, b.label, round(b.rect.h * 0.42), b.rect.w * 0.86, True)
            for b in buttons
        )
        for b in buttons:
            hover = self.hover is not None and b.rect.collidepoint(self.hover)
            draw_button(surface, self.assets, b.rect, b.label, b.style, hover, b.enabled, px)
        slot = self._slots()[0]
        text = self.caption()
        px = fit_px(self.assets, text, round(slot.h * 0.4), slot.w - 6)
        draw_text(surface, self.assets, text, px, slot.center, colour=SOFT)

    def _draw_advice(
        self, surface: pygame.Surface, advice: tuple[str, ...], better: Action | None
    ) -> None:
        """The coach's words at the top of the table, the better move's cards ringed."""
        table = self.table
        board = table.board if table is not None else None
        if board is None:
            return
        layout = board.layout
        w = layout.size[0]
        marked = [*cards_of(better), *([better.target] if isinstance(better, Beat) else [])]
        for card in marked:
            sprite = board.cards.get(card)
            if sprite is None:
                continue
            ring = pygame.Rect(0, 0, round(layout.card_w) + 8, round(layout.card_h) + 8)
            ring.center = (round(sprite.pose.x), round(sprite.pose.y - sprite.lift))
            pygame.draw.rect(surface, GOLD, ring, max(3, round(layout.card_w / 24)), 8)
        px = max(12, round(layout.font_px))
        width = min(w - 16, px * 40)
        lines = [
            line for text in advice for line in wrap(self.assets.font(px), text, width - 2 * px)
        ][:4]
        panel = pygame.Rect(0, 0, width, round(px * (1.45 * len(lines) + 0.9)))
        if self.bar().centery < layout.size[1] / 2:  # a narrow window: the bar is up there
            # above the prompt and the last bout's line, clear of the stock up there
            panel.midbottom = (w // 2, round(layout.status_y - layout.font_px * 2.4))
        else:  # under the opponents' plates
            plates = [
                pygame.Rect(s.plate).bottom for i, s in layout.seats.items() if i != board.seat
            ]
            panel.midtop = (w // 2, max(plates, default=0) + round(layout.margin))
        draw_panel(surface, self.assets, panel, alpha=235, radius=px)
        y = panel.top + px * 1.15
        for i, line in enumerate(lines):
            colour = GOLD if i == 0 else SOFT
            draw_text(surface, self.assets, line, px, (panel.centerx, round(y)), colour=colour)
            y += px * 1.45

    def _draw_hands(self, surface: pygame.Surface) -> None:
        """Every opponent's cards face up over their seat (a replay with the full log)."""
        table, replay = self.table, self.replay
        assert table is not None and replay is not None and replay.hands is not None
        board = table.board
        if board is None:
            return
        hands = replay.hands[min(self.shown, len(replay.hands)) - 1] if self.shown else ()
        layout = board.layout
        height = round(layout.card_h * 0.5)
        for seat, hand in enumerate(hands):
            if seat == table.seat or seat not in layout.seats or not hand:
                continue
            # over the backs of the seat's fan, but above its name plate
            plate_top = layout.seats[seat].plate[1]
            for card, pose in zip(hand, layout.opponent_fan(seat, len(hand)), strict=False):
                y = max(height / 2 + 2, min(pose.y, plate_top - height * 0.42))
                image = self.assets.card(card, height, "plain", round(pose.angle))
                surface.blit(image, image.get_rect(center=(round(pose.x), round(y))))

    def _draw_problem(self, surface: pygame.Surface) -> None:
        surface.blit(self.assets.felt(surface.get_size()), (0, 0))
        w, h = surface.get_size()
        tr = self.app.tr
        panel = pygame.Rect(0, 0, min(w - 24, 760), h // 2)
        panel.center = (w // 2, h * 2 // 5)
        draw_panel(surface, self.assets, panel)
        px = max(12, h // 34)
        title = tr("replay.unreadable")
        title_px = fit_px(self.assets, title, round(px * 1.3), panel.w - 2 * px, bold=True)
        draw_text(
            surface, self.assets, title, title_px, (panel.centerx, panel.top + px * 2), bold=True
        )
        font = self.assets.font(px)
        y = panel.top + px * 4
        for line in wrap(font, self.problem or "", panel.w - 2 * px):
            draw_text(surface, self.assets, line, px, (panel.centerx, y), colour=SOFT)
            y += round(px * 1.4)
        for b in self.buttons():
            hover = self.hover is not None and b.rect.collidepoint(self.hover)
            draw_button(surface, self.assets, b.rect, b.label, b.style, hover)
