"""The overlays the table opens over itself during play, each handed what it needs.

Menu opens the pause while a game is on (``panels.PauseScene``: leave, resume, and at a
LAN table the owner's end as a draw); the log's button, or a tap on the discard pile once
a bout has been beaten off, opens the log (``panels.LogScene``); React opens the reactions
picker beside its button, and a second tap on it closes the picker (``panels.PickerScene``).
What the table knows now (whose seat, the room, this game's history, its buttons) is asked
for as each opens, through the callables the table gives here.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.net.session import Session
from client.screens.table.finale import Seating
from client.screens.table.history import History
from client.screens.table.layout import Layout
from client.screens.table.panels import Covers, Handle, LogScene, PauseScene, PickerScene
from client.screens.table.row import button_at
from client.screens.table.where import Where, may_pause
from client.ui.scene import Director
from client.ui.widgets import Button
from protocol import Room

__all__ = ["Dialogs"]


class Dialogs:
    def __init__(
        self,
        app: Director,
        covers: Covers,
        under: Handle,
        session: Session,
        *,
        seating: Callable[[], Seating],
        where: Callable[[], Where],
        room: Callable[[], Room | None],
        history: Callable[[], History],
        buttons: Callable[[], list[Button]],
        layout: Callable[[], Layout | None],
        owner: Callable[[], bool],
        leave: Callable[[], None],
    ) -> None:
        """``covers``: the table's overlays; ``under``: the table's input; ``session``:
        where the pause and the picker send what is chosen; ``seating``: whose table it
        is; ``where``: where the table is; ``room``: the room as last heard; ``history``:
        this game's; ``buttons`` and ``layout``: the table's own now; ``owner``: we may end
        the game as a draw; ``leave``: leave the game and the table."""
        self.app, self.covers, self.under, self.session = app, covers, under, session
        self.seating, self.where, self.room = seating, where, room
        self.history, self.buttons, self.layout = history, buttons, layout
        self.owner, self.leave = owner, leave

    def pause(self) -> PauseScene:
        seating, where = self.seating(), self.where()
        return PauseScene(
            self.app,
            self.covers.stack,
            self.under,
            lan=where.hands_over,
            alone=may_pause(where, self.room(), seating.seat),
            watching=seating.watching,  # no seat: nothing to pause, no mark to show
            owner=self.owner,
            leave=self.leave,
            draw=self.session.draw,  # the owner ends the LAN game as a draw for everyone
            hold=self.session.pause,  # alone with the AIs: the game's clock stops
            mark=self.session.back_soon,  # with other players: "back in a minute"
        )

    def toggle_picker(self) -> None:
        if any(isinstance(scene, PickerScene) for scene in self.covers.open()):
            self.covers.restack(drop=PickerScene)
            return
        picker = PickerScene(
            self.app,
            self.covers.stack,
            self.under,
            react=self._react_spot,
            on_button=lambda pos: button_at(self.buttons(), pos) is not None,
            emote=self.session.emote,
        )
        self.covers.push(picker)

    def react(self) -> pygame.Rect | None:
        """Where the React button is (None: not shown)."""
        return next((b.rect for b in self.buttons() if b.name == "emote"), None)

    def _react_spot(self) -> tuple[pygame.Rect, int] | None:
        """The React button and the table's margin (where the picker opens)."""
        layout, react = self.layout(), self.react()
        return None if react is None or layout is None else (react, round(layout.margin))

    def open_log(self, beaten: bool) -> None:
        seating = self.seating()
        log = LogScene(
            self.app,
            self.covers.stack,
            self.under,
            history=self.history,
            names=seating.names,
            beaten=beaten,
            me=-1 if seating.watching else seating.seat,
        )
        self.covers.push(log)
