"""The end of a game at the table, from the host's word that it is over to the end panel.

The table hands the end here as it shows it (``begin``): the result is counted
(``tally``: the statistics), then comes the moment (``moment``: the Durak's stamp and
sting), and once ``update`` says it has passed, the table opens the end panel over itself
(``panel``: ``notices.EndScene``), drawn ahead a few milliseconds a frame during the
moment (``EndScene.ahead``: drawn whole for the first time, it took 22-25 ms of CPU at
1920x1080, all in the frame it opened in). A draw has no moment, nor has a game whose
end the table's overlays already cover: the panel opens at once. Under the panel the
table shows what ``ending`` draws of the end (the last bout, the Durak's cards face up,
the stamp on the Durak's plate). The panel's buttons do what the table gives for them (``actions``);
Review opens the game just kept (``kept``) in the coach. The next deal clears it all
(``clear``). Time is only the ``dt`` passed to ``update``; drawing changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame

from client.net.gamefile import GameFile
from client.net.session import GameOver
from client.screens.table.board import Board
from client.screens.table.ending import draw_end_table, face_up_seat
from client.screens.table.hud import EndShow
from client.screens.table.moment import SECONDS, Moment, draw_durak_stamp
from client.screens.table.notices import EndScene
from client.screens.table.panels import Covers, Handle, PickerScene
from client.screens.table.warm import run_parts
from client.ui.scene import Director

__all__ = ["Finale"]

PANEL_ACTIONS = ("menu", "rematch", "review", "log")  # the end panel's, the table's own


class Finale:
    def __init__(
        self,
        app: Director,
        covers: Covers,
        under: Handle,
        *,
        show: Callable[[], EndShow],
        actions: dict[str, Callable[[], None]],
        tally: Callable[[GameOver, int], GameOver] | None = None,
        kept: Callable[[], GameFile | None] | None = None,
    ) -> None:
        """``covers``: the table's overlays; ``under``: the table's input; ``show``: the
        end's extras as the table has them now; ``actions``: what the table does for the
        panel's buttons (``PANEL_ACTIONS``); ``tally``: counts the end for our seat and
        gives the end to show; ``kept``: the game kept last."""
        self.app, self.covers, self.under = app, covers, under
        self.show, self.actions = show, actions
        self.tally, self.kept = tally, kept
        self.over: GameOver | None = None
        self.moment: Moment | None = None  # the end's moment, before its panel
        self.ahead: Iterator[None] | None = None  # the panel drawn ahead during the moment

    def begin(
        self, over: GameOver, seat: int, names: tuple[str, ...], watching: bool
    ) -> Moment | None:
        """The game is over, for ``seat`` (``watching``: a watcher's table): the moment
        that begins (None: none, the panel is open)."""
        self.over = over if self.tally is None else self.tally(over, seat)
        durak = over.result.durak
        if durak is None or self.covers.hidden() & {"end_table"}:
            self.panel(seat, names, watching)
            return None
        ours = durak == seat and not watching
        self.moment = Moment(durak, ours, watching, SECONDS / self.app.settings.speed)
        self.ahead = self._scene(seat, names, watching).ahead()
        return self.moment

    def clear(self) -> None:
        """A new game: no end, no panel."""
        self.over = None
        self.moment = None
        self.ahead = None
        self.covers.restack(drop=EndScene)

    def update(self, dt: float) -> bool:
        """Whether the moment has just passed: the panel is due. Meanwhile, a few
        milliseconds a frame, the panel is drawn ahead (``EndScene.ahead``), so that it
        opens without a long frame."""
        if self.moment is None:
            return False
        # (not in the moment's first frame, which draws its stamp for the first time)
        if self.ahead is not None and self.moment.elapsed > 0 and not run_parts(self.ahead):
            self.ahead = None
        self.moment.update(dt)
        if self.moment.done:
            self.moment = self.ahead = None
        return self.moment is None

    def panel(self, seat: int, names: tuple[str, ...], watching: bool) -> None:
        """The end panel, under the pause or the log if one is open (the picker closes)."""
        if self.over is not None:
            self.covers.restack(under=self._scene(seat, names, watching), drop=PickerScene)

    def _scene(self, seat: int, names: tuple[str, ...], watching: bool) -> EndScene:
        assert self.over is not None
        return EndScene(
            self.app,
            self.covers.stack,
            self.under,
            over=self.over,
            names=names,
            seat=seat,
            watching=watching,
            show=self.show,
            review=lambda: self.kept_game() is not None,
            actions={name: self.actions[name] for name in PANEL_ACTIONS if name in self.actions},
        )

    def review(self) -> None:
        """The coach goes over the game just kept."""
        game = self.kept_game()
        if game is not None:
            self.app.show("review", game=game)

    def kept_game(self) -> GameFile | None:
        """The game just ended as it was kept (None: not kept, or not yet)."""
        return None if self.kept is None else self.kept()

    def face_up(self, board: Board, hidden: frozenset[str]) -> int | None:
        """The seat whose cards the end shows face up (its fan of backs is not drawn)."""
        if self.over is None or "end_table" in hidden:
            return None
        return face_up_seat(board, self.over.result.durak, self.show())

    def draw(self, surface: pygame.Surface, board: Board, hidden: frozenset[str]) -> None:
        """What the table shows of the end (and before the panel, the moment), unless the
        overlays open (``hidden``: what they cover) cover it."""
        if self.over is None or "end_table" in hidden:
            return
        assets, layout, tr = self.app.assets, board.layout, self.app.tr
        durak = self.over.result.durak
        draw_end_table(surface, assets, board, durak, self.show())
        if self.moment is not None:
            self.moment.draw(surface, assets, layout, tr)
        elif durak in layout.seats:
            draw_durak_stamp(surface, assets, layout, durak, tr)
