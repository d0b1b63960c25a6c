"""The table's overlays that come and go during play: the pause, the log, the reactions
picker; each a scene pushed over the table (``client.ui.scene``: not opaque, so the table
under it still shows and moves).

An overlay gets what it needs from the table passed in (what to read, what to call) and
never imports the table back. Its buttons map to their handlers through one table
(``actions``). It names the parts of the table it covers (``hides``): the table leaves
those out of its own picture, as it always has while such a panel was open. A panel that
covers the buttons of the scene under it lends that scene its own (``lent``): the scene
draws them in place of its own, so they show faintly through the panel's glass, as they
always have (the frames are the same, pixel for pixel).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from client.i18n import N_
from client.screens.table.ending import log_heading
from client.screens.table.history import History
from client.screens.table.hud import draw_buttons
from client.screens.table.keymap import ClosePicker, KeyState, Press, Scroll, command_for
from client.screens.table.narrate import line_text
from client.screens.table.overlays import (
    LogPanel,
    PauseKind,
    draw_log,
    draw_pause,
    log_buttons,
    log_panel,
    pause_buttons,
)
from client.ui.pointer import Input, Key, Pointer
from client.ui.scene import Director, Scene, Stack
from client.ui.widgets import Button

__all__ = [
    "EMOTE_KEYS",
    "Covers",
    "LogScene",
    "Overlay",
    "PauseScene",
    "PickerScene",
    "picker_rects",
]

# the quick reactions (``protocol.EMOTES``) and their words
EMOTE_KEYS = {
    "nice": N_("emote.nice"),
    "oops": N_("emote.oops"),
    "hurry": N_("emote.hurry"),
    "well_played": N_("emote.well_played"),
    "ha": N_("emote.ha"),
}

Handle = Callable[[Input], None]


class Overlay(Scene):
    """A panel over the table: its buttons (pressed through ``actions``), the pointer's
    hover, and what of the table it covers. The pointer's moves go on to the table (its
    cards follow the pointer under a panel as they always have)."""

    opaque = False
    # the parts of the table's picture it covers: "words" (the seats' words), "digits"
    # (the hand's keys), "buttons" (the table's), "hud" (status, toasts, hint bubble),
    # "reactions", "end_table" (the end's cards), "banner", "log" (the log's button)
    hides: frozenset[str] = frozenset()

    def __init__(self, app: Director, stack: Stack, under: Handle) -> None:
        self.app = app
        self.assets = app.assets
        self.stack = stack
        self.under = under  # the table's input
        self.hover: tuple[float, float] | None = None
        self.actions: dict[str, Callable[[], None]] = {}
        self.buttons: list[Button] = []

    def layout(self) -> list[Button]:
        """The buttons as the window is now."""
        return []

    def enter(self) -> None:
        self.buttons = self.layout()

    def update(self, dt: float) -> None:
        self.buttons = self.layout()

    def next_frame(self) -> float:
        return math.inf  # still: the table under it asks for the frames it needs

    def close(self) -> None:
        """Take this overlay off (it is on top whenever its input closes it)."""
        self.stack.pop()

    def own_buttons(self) -> list[Button]:
        """The buttons to draw as this overlay's: its own, or those lent by one over it."""
        lent = Covers(self.stack, self).lent()
        return self.buttons if lent is None else lent

    def press(self, name: str) -> None:
        action = self.actions.get(name)
        if action is not None:
            action()

    def button_at(self, pos: tuple[float, float]) -> Button | None:
        for button in reversed(self.buttons):
            if button.rect.collidepoint(pos):
                return button
        return None

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self.key(event)
            return
        if event.kind == "move":
            self.hover = event.pos if event.pointer < 0 else None
            self.move(event)
            return
        if event.kind == "down":
            button = self.button_at(event.pos)
            if button is not None:
                self.press(button.name)
            else:
                self.tap(event)
        else:
            self.release(event)

    def key(self, event: Key) -> None:
        """A key press."""

    def move(self, event: Pointer) -> None:
        self.under(event)

    def tap(self, event: Pointer) -> None:
        """A press beside the buttons."""

    def release(self, event: Pointer) -> None:
        """A release (or a wheel step)."""


class Covers:
    """The overlays over one scene (``under``) on its ``stack``: which are open, what of the
    scene they hide, and putting a new one in its place among them."""

    def __init__(self, stack: Stack, under: Scene) -> None:
        self.stack, self.under = stack, under

    def open(self) -> list[Overlay]:
        """The overlays open now, the lowest first."""
        return [scene for scene in self.stack.above(self.under) if isinstance(scene, Overlay)]

    def hidden(self) -> frozenset[str]:
        """The parts of the scene's picture that the open overlays cover."""
        return frozenset().union(*(scene.hides for scene in self.open()))

    def lent(self) -> list[Button] | None:
        """The buttons of the topmost overlay that covers the scene's buttons (None: none
        does), which the scene draws in place of its own."""
        covering = [scene for scene in self.open() if "buttons" in scene.hides]
        return covering[-1].buttons if covering else None

    def push(self, scene: Overlay) -> None:
        """Open ``scene`` on top (an open picker closes first)."""
        self.restack(drop=PickerScene)
        self.stack.push(scene)

    def restack(self, under: Scene | None = None, drop: type[Scene] | None = None) -> None:
        """Take the overlays off, and put back those not of the kind ``drop``, with
        ``under`` (if any) beneath them."""
        kept = []
        for scene in reversed(self.stack.above(self.under)):
            self.stack.pop()
            if drop is None or not isinstance(scene, drop):
                kept.append(scene)
        for back in [under, *reversed(kept)]:
            if back is not None:
                self.stack.push(back)


class PauseScene(Overlay):
    """The pause: Resume, Leave and (for the owner of a LAN table) End as a draw, and the
    table's keys. Alone with the AIs (``alone``, asked as it opens) the game's clock stops
    while it is open (``hold``: the session's pause); at a table with other players the
    game goes on and Back in a minute (``mark``: the session's) shows at our seat until
    we resume or act (a watcher, ``watching``, has neither). ``lan``: leaving hands the
    seat to an AI; ``owner``: asked each frame (the room may change); ``leave`` and
    ``draw``: what the table does for them."""

    hides = frozenset({"buttons", "digits"})

    def __init__(
        self,
        app: Director,
        stack: Stack,
        under: Handle,
        *,
        lan: bool,
        alone: bool,
        watching: bool = False,
        owner: Callable[[], bool],
        leave: Callable[[], None],
        draw: Callable[[], None],
        hold: Callable[[bool], None],
        mark: Callable[[bool], None],
    ) -> None:
        super().__init__(app, stack, under)
        self.lan, self.alone, self.watching = lan, alone and not watching, watching
        self.owner = owner
        self.hold, self.mark = hold, mark
        self.holding = False  # the host was asked to stop the game's clock
        self.marked = False  # our seat says "back in a minute"

        def end_as_draw() -> None:
            self.resume()
            draw()

        self.actions = {
            "resume": self.resume,
            "leave": leave,
            "draw": end_as_draw,
            "mark": self.toggle_mark,
        }

    def kind(self) -> PauseKind:
        owner = self.owner()
        mark = not self.alone and not self.watching
        return PauseKind(self.alone, self.lan, owner, mark, self.marked, self.watching)

    def enter(self) -> None:
        if self.alone and not self.holding:
            self.holding = True
            self.hold(True)
        super().enter()

    def resume(self) -> None:
        """Back to the game: its clock runs again, our mark goes."""
        if self.holding:
            self.holding = False
            self.hold(False)
        if self.marked:
            self.toggle_mark()
        self.close()

    def toggle_mark(self) -> None:
        self.marked = not self.marked
        self.mark(self.marked)
        self.buttons = self.layout()

    def layout(self) -> list[Button]:
        return pause_buttons(self.app.size, self.app.tr, self.kind())

    def key(self, event: Key) -> None:
        command = command_for(event.key, KeyState(overlay="pause"))
        if isinstance(command, Press):
            self.press(command.name)

    def draw(self, surface: pygame.Surface) -> None:
        draw_pause(surface, self.assets, self.kind(), self.app.tr)
        draw_buttons(surface, self.assets, self.buttons, self.hover)


class LogScene(Overlay):
    """The game's log: the bout (``beaten``: the last beaten one, as the discard pile was
    tapped) as cards, then every line, scrolled back by the arrows, the buttons or a drag;
    a tap beside it closes it. ``history``: the game's as the table has it now."""

    hides = frozenset({"buttons", "digits"})

    def __init__(
        self,
        app: Director,
        stack: Stack,
        under: Handle,
        *,
        history: Callable[[], History],
        names: tuple[str, ...],
        beaten: bool,
        me: int = -1,
    ) -> None:
        """``me``: our seat, "you" in the log (-1: a watcher's log, names only)."""
        super().__init__(app, stack, under)
        self.history = history
        self.names = names
        self.beaten = beaten
        self.me = me
        self.scroll = 0  # lines scrolled back from the newest
        self.scroll_from: tuple[float, int] | None = None  # a drag: (y, scroll)
        self.actions = {
            "log": self.close,
            "scroll_up": lambda: self.scroll_by(-3),
            "scroll_down": lambda: self.scroll_by(3),
        }

    def panel(self, size: tuple[int, int] | None = None) -> LogPanel:
        """Where the log draws now (its lines higher while no bout has cards to show)."""
        _, pairs = log_heading(self.history(), self.names, self.beaten, self.app.tr, self.me)
        return log_panel(size or self.app.size, self.assets, bool(pairs))

    def layout(self) -> list[Button]:
        return log_buttons(self.panel())

    def scroll_by(self, lines: int) -> None:
        """Scroll (less than 0: back to older lines), within what there is."""
        rows = self.panel().rows
        most = max(0, len(self.history().lines) - rows)
        self.scroll = max(0, min(most, self.scroll - lines))

    def key(self, event: Key) -> None:
        command = command_for(event.key, KeyState(overlay="log"))
        if isinstance(command, Press):
            self.press(command.name)
        elif isinstance(command, Scroll):
            self.scroll_by(command.lines)

    def tap(self, event: Pointer) -> None:
        if self.panel().rect.collidepoint(event.pos):
            self.scroll_from = (event.y, self.scroll)  # a drag scrolls it
        else:
            self.close()

    def move(self, event: Pointer) -> None:
        if self.scroll_from is None:
            self.under(event)
            return
        y, scroll = self.scroll_from
        panel = self.panel()
        self.scroll = scroll
        self.scroll_by(-round((event.y - y) / (panel.lines.h / panel.rows)))

    def release(self, event: Pointer) -> None:
        self.scroll_from = None

    def draw(self, surface: pygame.Surface) -> None:
        tr, history = self.app.tr, self.history()
        heading, pairs = log_heading(history, self.names, self.beaten, tr, self.me)
        lines = [
            (line_text(line, self.names, tr, self.me), line.kind == "bout")
            for line in history.lines
        ]
        panel = self.panel(surface.get_size())
        draw_log(surface, self.assets, panel, heading, pairs, lines, self.scroll, tr)
        draw_buttons(surface, self.assets, self.buttons, self.hover)


class PickerScene(Overlay):
    """The quick reactions, a column above the React button (``react``: where it is now,
    and the table's margin). A reaction picked (by tap or digit) is sent with ``emote``; a
    tap beside the picker closes it and goes on to the table, unless it hits one of the
    table's buttons (``on_button``); the keys the picker does not take go to the table."""

    hides = frozenset({"log"})  # the log's button by the discard pile

    def __init__(
        self,
        app: Director,
        stack: Stack,
        under: Handle,
        *,
        react: Callable[[], tuple[pygame.Rect, int] | None],
        on_button: Callable[[tuple[float, float]], bool],
        emote: Callable[[str], None],
    ) -> None:
        super().__init__(app, stack, under)
        self.react = react
        self.on_button = on_button

        def pick(code: str) -> Callable[[], None]:
            def picked() -> None:
                self.close()
                emote(code)

            return picked

        self.actions = {"emote:" + code: pick(code) for code in EMOTE_KEYS}

    def layout(self) -> list[Button]:
        spot = self.react()
        if spot is None:
            return []
        react, margin = spot
        # numbered as their keys are, 1 at the top, the digit shown on each
        picks = picker_rects(react, len(EMOTE_KEYS), self.app.size, margin)[::-1]
        tr = self.app.tr
        return [
            Button(pick, "emote:" + code, f"{k + 1}  {tr(key)}", style="primary")
            for k, ((code, key), pick) in enumerate(zip(EMOTE_KEYS.items(), picks, strict=True))
        ]

    def key(self, event: Key) -> None:
        command = command_for(event.key, KeyState(picking=True, reactions=tuple(EMOTE_KEYS)))
        if isinstance(command, Press) and command.name in self.actions:
            self.press(command.name)
        elif isinstance(command, ClosePicker) or command == Press("emote"):
            self.close()
        elif command is not None:  # (a digit past the reactions does nothing)
            self.under(event)

    def tap(self, event: Pointer) -> None:
        if not self.on_button(event.pos):
            self.close()  # a tap elsewhere closes the picker ...
        self.under(event)  # ... and still does what it does on the table

    def release(self, event: Pointer) -> None:
        self.under(event)

    def draw(self, surface: pygame.Surface) -> None:
        draw_buttons(surface, self.assets, self.buttons, self.hover)


def picker_rects(
    anchor: pygame.Rect, count: int, size: tuple[int, int], margin: int
) -> list[pygame.Rect]:
    """The emote picker's ``count`` buttons: a column above ``anchor`` (the React button),
    the first nearest it, right-aligned with it; side by side columns when the window is
    too short for one, and always inside the window."""
    w, h = size
    gap = max(2, margin // 2)
    room = anchor.top - gap - margin  # between the window's top margin and the button
    rows = max(1, min(count, (room + gap) // (anchor.h + gap)))
    cols = math.ceil(count / rows)
    rows = math.ceil(count / cols)  # as even as the columns allow
    width = max(1, min(round(anchor.h * 4.2), (w - 2 * margin - (cols - 1) * gap) // cols))
    block = pygame.Rect(0, 0, cols * width + (cols - 1) * gap, rows * anchor.h + (rows - 1) * gap)
    block.bottomright = (anchor.right, anchor.top - gap)
    block.clamp_ip(pygame.Rect(0, 0, w, h).inflate(-2 * margin, -2 * margin))
    rects = []
    for i in range(count):
        col, row = divmod(i, rows)
        x = block.right - (col + 1) * width - col * gap
        y = block.bottom - (row + 1) * anchor.h - row * gap
        rects.append(pygame.Rect(x, y, width, anchor.h))
    return rects
