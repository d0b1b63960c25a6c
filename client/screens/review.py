"""The coach's review of a kept game: one line a decision, filled in as the coach works
(``client.review.ReviewJob``, in a worker process: the frame never waits), the costly
moves marked and said in the player's language with the reason under each, a progress
bar until it is done. Under the lines, in smaller type, how to open a move and what the
percentages assume (everyone, the player too, playing like the Normal computer player
from that move on): without it a careless player reads them as a promise and a strong
one as a verdict.

The list opens at its top (the game's first move), stays there while the verdicts come
in, and scrolls by the wheel, by dragging the lines (a finger or the mouse), by the
scroll bar at its right (drag its thumb, or tap the track to move a page), and by
↑/↓, PgUp/PgDn, Home/End. A tap or click on a line that did not drag opens the replay at
that move, the table as it was just before it. Esc or Back returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from client.net.gamefile import GameFile, GameFileError
from client.review import ReviewJob, decisions, verdict_text, why_text
from client.ui.pointer import MOUSE, Input, Key, Pointer
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
from engine.ai.coach import Verdict

__all__ = ["ReviewScene"]

COSTLY = (236, 120, 100)
REASON = (238, 200, 170)
SLOP = 8  # pixels a press may move and still be a tap, not a drag
WHEEL_LINES = 3  # lines a notch of the wheel scrolls


@dataclass(frozen=True, slots=True)
class Row:
    """A verdict's place in the list: its top (from the list's top) and its height, its
    sentence's lines (two at most: a narrow window wraps it rather than cut off the
    percentages) and the reason's lines under a costly move."""

    verdict: Verdict
    top: int
    height: int
    text: tuple[str, ...]
    reason: tuple[str, ...]


@dataclass(slots=True)
class Grab:
    """A press being followed: on the lines (a tap or a drag) or on the bar's thumb."""

    on_bar: bool
    y: float
    offset: int
    moved: bool = False


class ReviewScene(ButtonScene):
    def __init__(
        self,
        app: Director,
        path: Path | None = None,
        game: GameFile | None = None,
        job: ReviewJob | None = None,
    ):
        """The review of ``game`` (or the file at ``path``); ``job``: the coach's work on
        its decisions when it has already begun (by default it starts here)."""
        self.app = app
        self.assets = app.assets
        self.size = app.size
        self.hover = None
        self.problem: str | None = None
        self.offset = 0  # pixels of the list scrolled past its top
        self.grab: Grab | None = None
        self.job: ReviewJob | None = None
        self._rows: tuple[tuple[object, ...], list[Row]] | None = None
        try:
            if game is None:
                assert path is not None
                game = GameFile.load(path)
            self.game: GameFile | None = game
            self.job = ReviewJob(decisions(game)) if job is None else job
        except (GameFileError, ValueError) as exc:
            self.game, self.problem = None, str(exc)

    def exit(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.offset = min(self.offset, self.most())

    def update(self, dt: float) -> None:
        if self.job is not None:
            self.job.take()

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
        """How many plain lines the list shows at once."""
        return max(1, self.area().h // self.line_h())

    def bar_w(self) -> int:
        return max(8, round(self.line_h() * 0.3))

    def area(self) -> pygame.Rect:
        """Where the lines are drawn: the panel above the note, left of the scroll bar."""
        panel = self.panel()
        return pygame.Rect(
            panel.left + 10,
            panel.top + 10,
            panel.w - 30 - self.bar_w(),
            panel.h - 14 - self.note_h(),
        )

    def bar(self) -> pygame.Rect:
        """The scroll bar's track, at the right of the lines, clear of the panel's corner."""
        area = self.area()
        inset = max(4, self.panel().h // 36)
        return pygame.Rect(area.right + 6, area.top + inset, self.bar_w(), area.h - 2 * inset)

    def thumb(self) -> pygame.Rect | None:
        """The bar's thumb (None while every line fits)."""
        total, shown = self.content_h(), self.area().h
        if total <= shown:
            return None
        track = self.bar()
        h = max(track.w * 3, round(track.h * shown / total))
        top = track.top + round((track.h - h) * self.offset / max(1, self.most()))
        return pygame.Rect(track.left, top, track.w, h)

    def note(self) -> tuple[int, list[str]]:
        """What the percentages assume: its size in pixels and its lines, wrapped to the
        panel (none while there is nothing to review)."""
        if self.job is None:
            return 0, []
        px = max(11, round(self.line_h() * 0.42))
        font = self.assets.font(px)
        return px, wrap(font, self.app.tr("review.assumes"), self.panel().w - 40)

    def hint(self) -> list[str]:
        """How to open a move, above the note, at the note's size."""
        px, _ = self.note()
        if not px:
            return []
        return wrap(self.assets.font(px, True), self.app.tr("review.open"), self.panel().w - 40)

    def note_h(self) -> int:
        """The hint's and the note's height, with room under them for the panel's corners."""
        px, note = self.note()
        corner = max(6, self.panel().h // 18) // 2  # half the panel's corner radius
        step = line_h(self.assets, px) if px else 0
        return (len(note) + len(self.hint())) * step + 10 + max(6, corner) if note else 0

    def text_px(self) -> int:
        return round(self.line_h() * 0.5)

    def reason_px(self) -> int:
        return max(11, round(self.line_h() * 0.42))

    def rows(self) -> list[Row]:
        """Every verdict's row so far, laid out for the window's size (cached)."""
        verdicts = self.job.verdicts if self.job is not None else []
        key = (len(verdicts), self.size, self.app.tr.language)
        if self._rows is not None and self._rows[0] == key:
            return self._rows[1]
        lh, px, rpx = self.line_h(), self.text_px(), self.reason_px()
        step = line_h(self.assets, rpx)
        room = self.area().w - 88
        names = self.game.names if self.game is not None else ()
        rows, top = [], 0
        for verdict in verdicts:
            bold = verdict.costly
            text = self._lines(verdict_text(verdict, self.app.tr), px, room, bold)
            reason: tuple[str, ...] = ()
            if verdict.why is not None:
                reason = self._lines(why_text(verdict.why, self.app.tr, names), rpx, room)
            height = lh + (len(text) - 1) * line_h(self.assets, px, bold)
            height += len(reason) * step + (6 if reason else 0)
            rows.append(Row(verdict, top, height, text, reason))
            top += height
        self._rows = (key, rows)
        return rows

    def _lines(self, text: str, px: int, room: int, bold: bool = False) -> tuple[str, ...]:
        """``text`` wrapped to ``room``, two lines at most (the second cut short)."""
        lines = wrap(self.assets.font(px, bold), text, room)
        if len(lines) > 2:
            lines = [lines[0], ellipsize(self.assets, " ".join(lines[1:]), px, room, bold)]
        return tuple(lines)

    def content_h(self) -> int:
        rows = self.rows()
        return rows[-1].top + rows[-1].height if rows else 0

    def most(self) -> int:
        """The furthest the list scrolls."""
        return max(0, self.content_h() - self.area().h)

    def scroll_to(self, offset: float) -> None:
        self.offset = round(min(self.most(), max(0.0, offset)))

    def row_at(self, pos: tuple[float, float]) -> Row | None:
        area = self.area()
        if not area.collidepoint(pos):
            return None
        y = pos[1] - area.top + self.offset
        return next((r for r in self.rows() if r.top <= y < r.top + r.height), None)

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

    def open(self, row: Row) -> None:
        """The replay at the row's move: the table as it was just before it, with what the
        coach said of it (its sentence, its reason, the better move ringed)."""
        if self.game is not None:
            verdict = row.verdict
            better = verdict.best if verdict.best != verdict.decision.action else None
            words = [t for t in (" ".join(row.text), " ".join(row.reason)) if t]
            at = verdict.decision.number + 1
            self.app.show("replay", game=self.game, at=at, advice=words, better=better)

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind == "step":
            if self.panel().collidepoint(event.pos):
                self.scroll_to(self.offset - event.step * WHEEL_LINES * self.line_h())
            return
        if event.kind == "move":
            self.hover = event.pos if event.pointer == MOUSE else None
            self._drag(event)
            return
        if event.kind == "up":
            self._release(event)
            return
        if self.press(event):
            return
        grip = self.bar().inflate(self.bar_w() * 3, 0)
        thumb = self.thumb()
        if thumb is not None and grip.collidepoint(event.pos):
            if not thumb.inflate(self.bar_w() * 3, 0).collidepoint(event.pos):
                page = self.area().h * (1 if event.y > thumb.centery else -1)
                self.scroll_to(self.offset + page)  # the track: a page towards the press
            self.grab = Grab(True, event.y, self.offset)
        elif self.area().collidepoint(event.pos):
            self.grab = Grab(False, event.y, self.offset)

    def _drag(self, event: Pointer) -> None:
        grab = self.grab
        if grab is None:
            return
        dy = event.y - grab.y
        if grab.on_bar:
            track, thumb = self.bar(), self.thumb()
            room = track.h - (thumb.h if thumb is not None else 0)
            self.scroll_to(grab.offset + dy * self.most() / max(1, room))
        elif grab.moved or abs(dy) > SLOP:
            grab.moved = True
            self.scroll_to(grab.offset - dy)

    def _release(self, event: Pointer) -> None:
        grab, self.grab = self.grab, None
        if grab is not None and not grab.on_bar and not grab.moved:
            row = self.row_at(event.pos)
            if row is not None:
                self.open(row)

    def _key(self, event: Key) -> None:
        lh, page = self.line_h(), self.area().h - self.line_h()
        step = {
            pygame.K_UP: -lh,
            pygame.K_DOWN: lh,
            pygame.K_PAGEUP: -page,
            pygame.K_PAGEDOWN: page,
        }
        if event.key == pygame.K_ESCAPE:
            self.app.pop()
        elif event.key in step:
            self.scroll_to(self.offset + step[event.key])
        elif event.key == pygame.K_HOME:
            self.scroll_to(0)
        elif event.key == pygame.K_END:
            self.scroll_to(self.most())

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
            self._draw_rows(surface)
            self._draw_bar(surface)
            self._draw_note(surface, panel)
        self.draw_buttons(surface, assets)

    def _draw_rows(self, surface: pygame.Surface) -> None:
        assets = self.assets
        area = self.area()
        lh, px, rpx = self.line_h(), self.text_px(), self.reason_px()
        step = line_h(assets, rpx)
        lit = self.row_at(self.hover) if self.hover is not None and self.grab is None else None
        clip = surface.get_clip()
        surface.set_clip(area)
        for row in self.rows():
            top = area.top + row.top - self.offset
            if top + row.height < area.top or top > area.bottom:
                continue
            verdict = row.verdict
            if row is lit:
                box = pygame.Rect(area.left, top, area.w, row.height)
                rounded_box(surface, assets, box, (255, 255, 255, 28), max(4, lh // 5))
            y = top + lh / 2
            costly = verdict.costly
            colour = COSTLY if costly else SOFT
            number = f"{verdict.decision.number + 1}"
            draw_text(surface, assets, number, px, (area.left + 44, y), "midright", colour)
            if costly:
                draw_text(surface, assets, "!", px, (area.left + 62, y), "center", COSTLY, True)
            more = line_h(assets, px, costly)
            for k, line in enumerate(row.text):
                at = (area.left + 78, y + k * more)
                draw_text(surface, assets, line, px, at, "midleft", colour, costly)
            below = top + lh + (len(row.text) - 1) * more
            for k, line in enumerate(row.reason):
                at = (area.left + 78, below + k * step)
                draw_text(surface, assets, line, rpx, at, "topleft", REASON)
        surface.set_clip(clip)

    def _draw_bar(self, surface: pygame.Surface) -> None:
        thumb = self.thumb()
        if thumb is None:
            return
        track, radius = self.bar(), self.bar_w() // 2
        rounded_box(surface, self.assets, track, (0, 0, 0, 110), radius, (255, 255, 255, 40))
        held = self.grab is not None and self.grab.on_bar
        rounded_box(surface, self.assets, thumb, (236, 190, 84, 255 if held else 200), radius)

    def _draw_note(self, surface: pygame.Surface, panel: pygame.Rect) -> None:
        px, note = self.note()
        step = line_h(self.assets, px)
        top = panel.bottom - self.note_h()
        pygame.draw.line(surface, (122, 150, 128), (panel.left + 20, top), (panel.right - 20, top))
        hint = self.hint()
        for k, text in enumerate([*hint, *note]):
            pos = (panel.left + 20, top + 6 + k * step)
            colour, bold = (GOLD, True) if k < len(hint) else (SOFT, False)
            draw_text(surface, self.assets, text, px, pos, "topleft", colour, bold)

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
