"""The table's overlays that end a game or the session: the end panel (the ranking, the
series, the Durak's cards, the verdict on the deal; Menu, Rematch, Review, Table; the
Durak's stamp on its top edge, come from the table) and the notice that the table is
closed. Scenes over the table (``panels.Overlay``), given what
they show and what their buttons do; they never import the table back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame

from client.net.session import GameOver
from client.screens.table.hud import (
    EndShow,
    closed_buttons,
    draw_closed,
    draw_end,
    end_buttons,
    end_panel,
    end_parts,
)
from client.screens.table.keymap import KeyState, Press, command_for
from client.screens.table.moment import Stamp, stamp_image
from client.screens.table.overlays import draw_deal_check
from client.screens.table.panels import Covers, Handle, Overlay
from client.ui.pointer import Key
from client.ui.scene import Director, Scene, Stack
from client.ui.widgets import Button

__all__ = ["GLIDE", "ClosedScene", "EndScene"]

GLIDE = 0.45  # seconds the stamp takes from the table onto the panel


class EndScene(Overlay):
    """The end of the game ``over``, for ``seat`` (``watching``: a watcher's, whose
    Rematch is Next game). ``show``: the extras as the table has them now; ``review``:
    whether the game has been kept (so the coach can go over it); ``actions``: what the
    table does for Menu, Rematch, Review and the log's key (Table, "hide", only takes the
    panel off); without "rematch" (a party's table) the panel offers none."""

    hides = frozenset({"words", "digits", "buttons", "hud", "reactions", "end_table"})

    def __init__(
        self,
        app: Director,
        stack: Stack,
        under: Handle,
        *,
        over: GameOver,
        names: tuple[str, ...],
        seat: int,
        watching: bool,
        show: Callable[[], EndShow],
        review: Callable[[], bool],
        actions: dict[str, Callable[[], None]],
        stamp_from: Stamp | None = None,
    ) -> None:
        super().__init__(app, stack, under)
        self.over = over
        self.stamp_from = stamp_from
        self.opened = 0.0  # seconds since it opened
        self.names, self.seat, self.watching = names, seat, watching
        self.show = show
        self.review = review
        self.actions = {**actions, "hide": self.close}
        rematch = actions.get("rematch")
        if rematch is not None:

            def again() -> None:
                self.close()
                rematch()

            self.actions["rematch"] = again

    def layout(self) -> list[Button]:
        show = self.show()
        return end_buttons(
            self.app.size,
            self.over,
            self.app.tr,
            show,
            self.review(),
            self.watching,
            "rematch" in self.actions,
        )

    def update(self, dt: float) -> None:
        super().update(dt)
        self.opened += dt

    def next_frame(self) -> float:
        """Frames while the stamp glides onto the panel."""
        return 0.0 if self.stamp_from is not None and self.opened < GLIDE else super().next_frame()

    def stamp(self) -> Stamp | None:
        """The Durak's stamp on the panel (None for a draw): "DURAK", pressed over the
        panel's top right corner, clear of the title's middle (which says who)."""
        if self.over.result.durak is None:
            return None
        text = self.app.tr("end.stamp")
        panel, px = end_panel(self.app.size, self.over, self.show())
        height, room = px * 2.3, panel.w * 0.3
        w = stamp_image(self.assets, text, height, room).get_width()
        return Stamp(text, (panel.right - w * 0.42, panel.top + px * 0.2), height, room)

    def key(self, event: Key) -> None:
        command = command_for(event.key, KeyState(ending=True))
        if isinstance(command, Press):
            self.press(command.name)

    def draw(self, surface: pygame.Surface) -> None:
        tr, over, buttons = self.app.tr, self.over, self.own_buttons()
        draw_end(surface, self.assets, over, self.names, self.seat, buttons, tr, self.show())
        draw_deal_check(surface, self.assets, over.deal, buttons, tr)
        stamp = self.stamp()
        if stamp is not None:
            stamp.glide(surface, self.assets, self.stamp_from, self.opened / GLIDE)

    def ahead(self) -> Iterator[None]:
        """Its picture, a part at each step, on a scratch surface of the window's size:
        drawn through before it opens (``finale``), it opens with its images and words
        made."""
        surface = pygame.Surface(self.app.size)
        yield
        tr, over, buttons = self.app.tr, self.over, self.layout()
        show = self.show()
        yield from end_parts(surface, self.assets, over, self.names, self.seat, buttons, tr, show)
        draw_deal_check(surface, self.assets, over.deal, buttons, tr)
        stamp = self.stamp()
        if stamp is not None:
            yield
            stamp.draw(surface, self.assets)


class ClosedScene(Overlay):
    """The session ended (``text``: why); its one button, Menu, leaves the table
    (``leave``), as Esc does. It takes the place of the overlays that were open, and
    covers what they covered of ``kept`` (the seats' words, the hand's keys)."""

    hides = frozenset({"buttons", "hud", "reactions", "end_table", "banner"})

    kept = frozenset({"words", "digits"})

    def __init__(
        self,
        app: Director,
        stack: Stack,
        under: Handle,
        *,
        text: str,
        leave: Callable[[], None],
        replaced: frozenset[str] = frozenset(),
        label: str = "",
    ) -> None:
        """``label``: the words of its button where leaving leads elsewhere than the menu
        (a party's table: back to the standings)."""
        super().__init__(app, stack, under)
        self.text, self.label = text, label
        self.actions = {"menu": leave}
        self.hides = self.hides | (replaced & self.kept)

    @classmethod
    def cover(
        cls,
        covers: Covers,
        app: Director,
        under: Handle,
        *,
        text: str,
        leave: Callable[[], None],
        label: str = "",
    ) -> None:
        """Open the notice in the place of every overlay open over the table."""
        replaced = covers.hidden()
        covers.restack(drop=Scene)
        notice = cls(
            app, covers.stack, under, text=text, leave=leave, replaced=replaced, label=label
        )
        covers.push(notice)

    def layout(self) -> list[Button]:
        return closed_buttons(self.app.size, self.app.tr, self.label)

    def key(self, event: Key) -> None:
        command = command_for(event.key, KeyState(closed=True))
        if command == Press("menu"):
            self.press("menu")

    def draw(self, surface: pygame.Surface) -> None:
        draw_closed(surface, self.assets, self.text, self.buttons)
