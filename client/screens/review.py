"""The coach's review of a kept game: one line a decision, filled in as the coach works
(``client.review.ReviewJob``, in a worker process: the frame never waits), the costly
moves marked and said in the player's language, a progress bar until it is done. Under
the lines, in smaller type, what the percentages assume (everyone, the player too, playing
like the Normal computer player from that move on): without it a careless player reads
them as a promise and a strong one as a verdict.
↑/↓ (or the wheel of pages: PgUp/PgDn) scroll, Esc or Back returns.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from client.net.gamefile import GameFile, GameFileError
from client.review import ReviewJob, decisions, verdict_text
from client.ui.pointer import Input, Key
from client.ui.render import (
    GOLD,
    SOFT,
    draw_backdrop,
    draw_panel,
    draw_text,
    ellipsize,
    line_h,
    rounded_box,
    wrap,
)
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["ReviewScene"]

COSTLY = (236, 120, 100)


class ReviewScene(ButtonScene):
    def __init__(self, app: Director, path: Path | None = None, game: GameFile | None = None):
        self.app = app
        self.assets = app.assets
        self.size = app.size
        self.hover = None
        self.problem: str | None = None
        self.scroll = 0  # the first line shown
        self.follow = True  # keep the newest verdict in sight until the player scrolls
        self.job: ReviewJob | None = None
        try:
            if game is None:
                assert path is not None
                game = GameFile.load(path)
            self.game: GameFile | None = game
            self.job = ReviewJob(decisions(game))
        except (GameFileError, ValueError) as exc:
            self.game, self.problem = None, str(exc)

    def exit(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def update(self, dt: float) -> None:
        if self.job is not None and self.job.take() and self.follow:
            self.scroll = max(0, len(self.job.verdicts) - self.lines())

    # --- geometry -------------------------------------------------------------------------

    def panel(self) -> pygame.Rect:
        w, h = self.size
        top = round(min(h * 0.2, 140))
        panel = pygame.Rect(0, 0, round(min(w - 24, 1100)), round(h - top - self.button_h() * 1.9))
        panel.midtop = (w // 2, top)
        return panel

    def line_h(self) -> int:
        return round(max(22, min(40, self.size[1] * 0.05)))

    def lines(self) -> int:
        return max(1, (self.panel().h - 20 - self.note_h()) // self.line_h())

    def note(self) -> tuple[int, list[str]]:
        """What the percentages assume: its size in pixels and its lines, wrapped to the
        panel (none while there is nothing to review)."""
        if self.job is None:
            return 0, []
        px = max(11, round(self.line_h() * 0.42))
        font = self.assets.font(px)
        return px, wrap(font, self.app.tr("review.assumes"), self.panel().w - 40)

    def note_h(self) -> int:
        """The note's height, with room under it for the panel's rounded corners."""
        px, note = self.note()
        corner = max(6, self.panel().h // 18) // 2  # half the panel's corner radius
        return len(note) * line_h(self.assets, px) + 8 + max(6, corner) if note else 0

    def buttons(self) -> list[Button]:
        w, h = self.size
        bh = self.button_h()
        back = pygame.Rect(0, 0, round(bh * 3.2), bh)
        back.midbottom = (w // 2, h - round(bh * 0.35))
        return [Button(back, "back", self.app.tr("past.back"))]

    # --- input ----------------------------------------------------------------------------

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -8, pygame.K_PAGEDOWN: 8}
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in step and self.job is not None:
                most = max(0, len(self.job.verdicts) - self.lines())
                self.scroll = min(most, max(0, self.scroll + step[event.key]))
                self.follow = self.scroll == most
            return
        self.press(event)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        assets, tr = self.assets, self.app.tr
        w, h = self.size
        panel = self.panel()
        title_px = round(min(h * 0.06, 46))
        draw_backdrop(surface, assets, tr("review.title"), title_px, (w / 2, panel.top * 0.32))
        draw_panel(surface, assets, panel)
        job = self.job
        small = max(11, round(h / 40))
        if job is None:
            text = ellipsize(assets, self.problem or "", small, panel.w - 30)
            draw_text(surface, assets, text, small, panel.center, colour=SOFT)
        else:
            self._draw_progress(
                surface,
                job,
                pygame.Rect(panel.x, round(panel.top * 0.62), panel.w, round(panel.top * 0.26)),
            )
            lh, px = self.line_h(), round(self.line_h() * 0.5)
            shown = job.verdicts[self.scroll : self.scroll + self.lines()]
            for k, verdict in enumerate(shown):
                y = panel.top + 10 + k * lh + lh / 2
                colour = COSTLY if verdict.costly else SOFT
                mark = "!" if verdict.costly else ""
                draw_text(
                    surface,
                    assets,
                    f"{verdict.decision.number + 1}",
                    px,
                    (panel.left + 54, y),
                    "midright",
                    colour,
                )
                draw_text(
                    surface, assets, mark, px, (panel.left + 72, y), "center", COSTLY, bold=True
                )
                text = ellipsize(
                    assets, verdict_text(verdict, tr), px, panel.w - 110, bold=verdict.costly
                )
                draw_text(
                    surface,
                    assets,
                    text,
                    px,
                    (panel.left + 88, y),
                    "midleft",
                    colour,
                    bold=verdict.costly,
                )
            self._draw_note(surface, panel)
        self.draw_buttons(surface, assets)

    def _draw_note(self, surface: pygame.Surface, panel: pygame.Rect) -> None:
        px, note = self.note()
        step = line_h(self.assets, px)
        top = panel.bottom - self.note_h()
        pygame.draw.line(surface, (122, 150, 128), (panel.left + 20, top), (panel.right - 20, top))
        for k, text in enumerate(note):
            pos = (panel.left + 20, top + 6 + k * step)
            draw_text(surface, self.assets, text, px, pos, "topleft", SOFT)

    def _draw_progress(self, surface: pygame.Surface, job: ReviewJob, area: pygame.Rect) -> None:
        tr, assets = self.app.tr, self.assets
        done = len(job.verdicts)
        px = max(11, round(area.h * 0.45))
        if job.done:
            costly = sum(v.costly for v in job.verdicts)
            text = tr("review.done", count=costly, total=done) if costly else tr("review.none")
            draw_text(surface, assets, text, px, area.center, colour=GOLD, bold=True)
            return
        bar = pygame.Rect(0, 0, round(area.w * 0.5), max(8, round(area.h * 0.32)))
        bar.midright = (area.right - 8, area.centery)
        rounded_box(surface, assets, bar, (0, 0, 0, 120), bar.h // 2, (255, 255, 255, 60))
        if done:
            filled = bar.copy()
            filled.w = max(bar.h, round(bar.w * done / max(job.total, 1)))
            rounded_box(surface, assets, filled, (236, 190, 84, 230), bar.h // 2)
        text = tr("review.thinking", done=done, total=job.total)
        draw_text(surface, assets, text, px, (area.left + 8, area.centery), "midleft", SOFT)
