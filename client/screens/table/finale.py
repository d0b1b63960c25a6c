"""The end of a game at the table, from the host's word that it is over to the end panel.

The table hands the end here as it shows it (``begin``): the result is counted
(``tally``: the statistics), then comes the moment (``moment``: the Durak's stamp and
sting, as long at a fast pace as at the normal one), and once it has passed (``update``),
the end panel opens over the table (``panel``: ``notices.EndScene``), the stamp gliding
from the table onto the panel. A draw has no moment, nor has a game whose end the
table's overlays already cover: the panel opens at once.

Drawn whole for the first time, the panel took 22-25 ms of CPU at 1920x1080, all in the
frame it opened in, and the moment's first frame drew its images for the first time too.
So the end is drawn ahead on a scratch surface, a few milliseconds a frame: from when the
board shows the game's last event (``GameEnded``, held for half a second) and the host's
word that it is over waits to be shown (``coming``: it came with that event), the table's
end, the moment's first frame and the panel (``foresee``, with the end as the host told
it: ``tally`` may tell the series otherwise); during the moment, the panel again
(``EndScene.ahead``).

Under the panel the table shows what ``ending`` draws of the end (the last bout, the
Durak's cards face up, the stamp on the Durak's plate). The panel's buttons do what the
table gives for them (``actions``); Review opens the game just kept (``kept``) in the
coach. The next deal clears it all (``clear``). Time is only the ``dt`` passed to
``update``; drawing changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pygame

from client.net.gamefile import GameFile
from client.net.session import GameOver
from client.screens.table.board import Board
from client.screens.table.ending import draw_end_table, face_up_seat
from client.screens.table.hud import EndShow, draw_buttons
from client.screens.table.moment import SECONDS, Moment, Stamp, draw_durak_stamp, stamp_for
from client.screens.table.notices import EndScene
from client.screens.table.panels import Covers, Handle, PickerScene
from client.screens.table.warm import run_parts
from client.ui.scene import Director
from client.ui.widgets import Button

__all__ = ["Finale", "Seating"]

PANEL_ACTIONS = ("menu", "rematch", "review", "log")  # the end panel's, the table's own


@dataclass(frozen=True, slots=True)
class Seating:
    """Whose table it is: our ``seat``, every seat's ``names``, and whether we only watch."""

    seat: int
    names: tuple[str, ...]
    watching: bool


class Finale:
    def __init__(
        self,
        app: Director,
        covers: Covers,
        under: Handle,
        *,
        seating: Callable[[], Seating],
        show: Callable[[GameOver], EndShow],
        actions: dict[str, Callable[[], None]],
        coming: Callable[[], GameOver | None] = lambda: None,
        buttons: Callable[[], list[Button]] = list,
        tally: Callable[[GameOver, int], GameOver] | None = None,
        kept: Callable[[], GameFile | None] | None = None,
    ) -> None:
        """``covers``: the table's overlays; ``under``: the table's input; ``seating``:
        whose table it is; ``show``: the extras of an end as the table has them now;
        ``actions``: what the table does for the panel's buttons (``PANEL_ACTIONS``);
        ``coming``: the end the table has heard of and not shown yet; ``buttons``: the
        table's own at the end; ``tally``: counts the end for our seat and gives the end
        to show; ``kept``: the game kept last."""
        self.app, self.covers, self.under = app, covers, under
        self.seating, self.show, self.actions = seating, show, actions
        self.coming, self.buttons, self.tally, self.kept = coming, buttons, tally, kept
        self.over: GameOver | None = None
        self.moment: Moment | None = None  # the end's moment, before its panel
        self.ahead: Iterator[None] | None = None  # the panel drawn ahead (see the docstring)
        self.foreseen: GameOver | None = None  # the end it was drawn ahead for, once coming

    def begin(self, over: GameOver) -> Moment | None:
        """The game is over: the moment that begins (None: none, the panel is open)."""
        seating = self.seating()
        self.over = over if self.tally is None else self.tally(over, seating.seat)
        durak = over.result.durak
        if durak is None or self.covers.hidden() & {"end_table"}:
            self.ahead = None  # (its images are made: drawn ahead since it was coming)
            self.panel()
            return None
        ours = durak == seating.seat and not seating.watching
        # a fast pace hurries the cards, not the end: the moment is never shorter
        length = SECONDS / min(self.app.settings.speed, 1.0)
        self.moment = Moment(durak, ours, seating.watching, length)
        self.ahead = self._scene(self.over).ahead()
        return self.moment

    def clear(self) -> None:
        """A new game: no end, no panel."""
        self.over = self.foreseen = None
        self.moment = None
        self.ahead = None
        self.covers.restack(drop=EndScene)

    def update(self, dt: float, board: Board | None = None) -> None:
        """A few milliseconds a frame, the end is drawn ahead: from when it is coming (on
        ``board``), the table's end, the moment's first frame and the panel (``foresee``),
        and during the moment the panel again (``EndScene.ahead``), so that neither begins
        with a long frame; once the moment has passed, the panel opens."""
        ending = board is not None and all(board.places)  # its last event is shown
        coming = self.coming() if self.over is None and ending else None
        if coming is not None and coming is not self.foreseen and board is not None:
            self.foreseen, self.ahead = coming, self.foresee(coming, board)
        moment = self.moment
        # (not in the moment's first frame, which draws its stamp for the first time)
        due = self.over is None or (moment is not None and moment.elapsed > 0)
        if self.ahead is not None and due and not run_parts(self.ahead):
            self.ahead = None
        if moment is None:
            return
        moment.update(dt)
        if moment.done:
            self.moment = self.ahead = None
            # the stamp goes from the table onto the panel
            tr, layout = self.app.tr, None if board is None else board.layout
            self.panel(None if layout is None else stamp_for(layout, moment.durak, moment.ours, tr))

    def foresee(self, over: GameOver, board: Board) -> Iterator[None]:
        """The first frames of the end ``over`` drawn on a scratch surface, a part at each
        step, for the images and words they make: the table's end (with its buttons) and
        the moment as it begins, then the panel."""
        assets, seating, durak = self.app.assets, self.seating(), over.result.durak
        surface = pygame.Surface(self.app.size)
        yield
        draw_end_table(surface, assets, board, durak, self.show(over))
        yield
        draw_buttons(surface, assets, self.buttons(), None)
        if durak is not None:
            yield
            ours = durak == seating.seat and not seating.watching
            moment = Moment(durak, ours, seating.watching)
            yield from moment.ahead(surface, assets, board.layout, self.app.tr)
        yield from self._scene(over).ahead()

    def panel(self, stamp_from: Stamp | None = None) -> None:
        """The end panel, under the pause or the log if one is open (the picker closes);
        ``stamp_from``: the moment's stamp on the table, which glides onto the panel."""
        if self.over is not None:
            scene = self._scene(self.over, stamp_from)
            self.covers.restack(under=scene, drop=PickerScene)

    def _scene(self, over: GameOver, stamp_from: Stamp | None = None) -> EndScene:
        seating = self.seating()
        return EndScene(
            self.app,
            self.covers.stack,
            self.under,
            over=over,
            names=seating.names,
            seat=seating.seat,
            watching=seating.watching,
            show=lambda: self.show(over),
            review=lambda: self.kept_game() is not None,
            actions={name: self.actions[name] for name in PANEL_ACTIONS if name in self.actions},
            stamp_from=stamp_from,
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
        return face_up_seat(board, self.over.result.durak, self.show(self.over))

    def stamped(self, board: Board, hidden: frozenset[str]) -> int | None:
        """The opponent whose plate the end stamps (``draw``): the Durak, once over."""
        if self.over is None or "end_table" in hidden:
            return None
        durak = self.over.result.durak
        return durak if durak in board.layout.seats else None

    def draw(self, surface: pygame.Surface, board: Board, hidden: frozenset[str]) -> None:
        """What the table shows of the end (and before the panel, the moment), unless the
        overlays open (``hidden``: what they cover) cover it."""
        if self.over is None or "end_table" in hidden:
            return
        assets, layout, tr = self.app.assets, board.layout, self.app.tr
        durak = self.over.result.durak
        draw_end_table(surface, assets, board, durak, self.show(self.over))
        if self.moment is not None:
            self.moment.draw(surface, assets, layout, tr)
        elif durak in layout.seats:
            draw_durak_stamp(surface, assets, layout, durak, tr)
