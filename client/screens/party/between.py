"""Each player's window between a party's rounds: the standings, what comes next, and the
way to the next table, taken by itself.

When the party calls the player to a table ("Round 3: table 2 with Anna, Oleg and Vera")
the screen says so and, after ``GO_AFTER`` seconds to read it (or at Go now), joins the
table and opens the table screen over itself. A small overlay (``Homing``) rides above
the table: it hands every input to the scene under it (the table, or the table's panel
open over it: the end, the pause, the log) and, ``BACK_AFTER`` seconds after the game's
end, takes the player back here to the standings, where the next call will find them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from client.i18n import Translator
from client.i18n.refusals import PARTY_REFUSAL_KEYS
from client.net.session import GameOver
from client.screens.party.model import Feed, PartyView, Stage, TableCall
from client.screens.party.paint import Plan, label, paint
from client.screens.party.ranking import plan_standings
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_button
from client.ui.scene import ButtonScene, Director, Scene
from client.ui.widgets import Button

__all__ = ["BACK_AFTER", "GO_AFTER", "BetweenScene", "Homing", "named"]

GO_AFTER = 4.0  # seconds to read where the next table is before the window goes there
REFUSED_FOR = 6.0  # seconds the party's refusal of a request shows
BACK_AFTER = 8.0  # seconds the end of a game shows before the standings come back


def named(tr: Translator, names: Sequence[str]) -> str:
    """``Anna, Oleg and Vera``."""
    if len(names) < 2:
        return "".join(names)
    return tr("party.and", names=", ".join(names[:-1]), last=names[-1])


class BetweenScene(ButtonScene):
    """The standings and the next table for ``me`` (this window's player's name)."""

    def __init__(self, app: Director, feed: Feed, me: str, invite: str | None = None) -> None:
        """``invite``: where the others join the party (we host it), shown as it gathers."""
        self.app = app
        self.feed = feed
        self.me = me
        self.invite = invite
        self.view: PartyView | None = None
        self.call: TableCall | None = None  # the table we are called to, not yet joined
        self.going = 0.0  # seconds left before we go there
        self.played: list[GameOver] = []  # this window's games of the night
        self.homing: Homing | None = None  # above the table while we play
        self.refused = ""  # the party's refusal of our last request, in our words
        self.refused_for = 0.0
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def enter(self) -> None:
        self.feed.listen(self.app.wake)
        if not self.app.above(self):  # back from a table the player left themselves
            self.homing = None

    def exit(self) -> None:
        self.feed.close()

    # --- the night ------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        fresh = self.feed.poll()
        if fresh is not None:
            self.view = fresh
        code = self.feed.refusal()
        if code is not None:
            key = PARTY_REFUSAL_KEYS.get(code)
            self.refused, self.refused_for = self.app.tr(key) if key else code, REFUSED_FOR
        elif self.refused_for > 0:
            self.refused_for -= dt
            if self.refused_for <= 0:
                self.refused = ""
        call = self.feed.call()
        if call is not None:
            self.call, self.going = call, GO_AFTER
        elif self.call is not None:
            self.going -= dt
            if self.going <= 0:
                self.go()

    def go(self) -> None:
        """Join the table we are called to, its screen over this one."""
        call, self.call = self.call, None
        if call is None:
            return
        at = self.app.tr("party.at_table", round=call.round, table=call.table)
        self.app.show("party_table", session=call.join(), tally=self.tally, party=at)
        table = self.app.above(self)[-1]
        self.homing = Homing(self.app, self, table)
        self.app.push(self.homing)

    def tally(self, over: GameOver, seat: int) -> GameOver:
        """A party game counts in the statistics as a LAN game does; then home."""
        self.played.append(over)
        if self.homing is not None:
            self.homing.left = BACK_AFTER
        return self.app.record_game(over, seat, None)

    def home(self) -> None:
        """Off the table and back to the standings (the table's overlays first)."""
        while self.app.above(self):
            self.app.pop()
        self.homing = None

    def next_frame(self) -> float:
        if self.call is not None:
            return 0.0
        return self.refused_for if self.refused else math.inf  # (the feed wakes the window)

    # --- input ----------------------------------------------------------------------------

    def buttons(self) -> list[Button]:
        w, h = self.size
        tr = self.app.tr
        bh = self.button_h()
        leave = pygame.Rect(0, 0, round(min((w - 48) / 2, bh * 6)), bh)
        leave.bottom = h - bh // 2
        view = self.view
        go: Button | None = None
        if self.call is not None:
            go = Button(leave.copy(), "go", tr("party.go_now"), style="primary")
        elif view is not None and view.organiser and view.stage in (Stage.GATHERING, Stage.BETWEEN):
            key = "party.begin" if view.stage is Stage.GATHERING else "party.next_round"
            go = Button(leave.copy(), "start", tr(key), style="primary")
        if go is None:
            leave.centerx = w // 2
            return [Button(leave, "leave", tr("party.leave"), style="danger")]
        leave.right, go.rect.left = w // 2 - 8, w // 2 + 8
        return [Button(leave, "leave", tr("party.leave"), style="danger"), go]

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.call is not None:
                self.go()
            elif event.key == pygame.K_ESCAPE:
                self.activate("leave")
            return
        self.press(event)

    def activate(self, name: str) -> None:
        if name == "go":
            self.go()
        elif name == "start":
            self.feed.start()
        elif name == "leave":  # (only closing the window's link would leave us seated)
            self.feed.leave()
            self.app.pop()

    # --- drawing --------------------------------------------------------------------------

    def plan(self) -> Plan:
        """What the screen shows: the headline, the next table and the standings."""
        w, h = self.size
        tr, assets = self.app.tr, self.app.assets
        unit = min(h / 720, w / (1280 if w > h else 720))
        margin = max(8, round(20 * unit))
        view = self.view
        head = pygame.Rect(margin, margin // 2, w - 2 * margin, max(30, round(60 * unit)))
        plan: Plan = []
        if view is None:
            text = (
                tr("party.gone", why=self.feed.problem)
                if self.feed.problem
                else tr("party.connecting")
            )
            return [label(assets, text, max(14, h // 24), pygame.Rect(0, 0, w, h), "center", SOFT)]
        plan.append(label(assets, view.name, round(head.h * 0.6), head, "center", GOLD, True, 0.7))
        news = pygame.Rect(margin, head.bottom, w - 2 * margin, round(head.h * 1.6))
        plan += self._news(view, news)
        bottom = self.buttons()[-1].rect.top - margin
        rows = pygame.Rect(0, news.bottom + margin // 2, min(w - 2 * margin, round(900 * unit)), 0)
        rows.h = bottom - rows.top
        rows.centerx = w // 2
        plan += plan_standings(assets, tr, view.standings, rows, max(18, round(36 * unit)), True)
        return plan

    def _news(self, view: PartyView, rect: pygame.Rect) -> Plan:
        """What comes next, in two lines."""
        tr, assets = self.app.tr, self.app.assets
        px = max(14, round(rect.h * 0.3))
        top = pygame.Rect(rect.left, rect.top, rect.w, rect.h // 2)
        low = pygame.Rect(rect.left, top.bottom, rect.w, rect.h - top.h)
        place = next((row for row in view.standings if row.me or row.name == self.me), None)
        standing = (
            ""
            if place is None
            else tr("party.you_place", place=tr.ordinal(place.rank), n=len(view.standings))
        )
        if self.call is not None:
            first = tr(
                "party.next",
                round=self.call.round,
                table=self.call.table,
                names=named(tr, self.call.others),
            )
            second = tr.plural("party.going", math.ceil(max(0.0, self.going)))
        elif view.stage is Stage.OVER:
            first, second = tr("party.night_over"), standing
        elif view.stage is Stage.PLAYING:
            first, second = tr("party.wait_next"), standing
        elif view.stage is Stage.GATHERING:
            first = tr.plural("party.gathering", len(view.standings))
            invite = tr("party.invite", address=self.invite) if self.invite else ""
            second = invite or tr("party.waiting_start")  # (a guest: what comes next)
        else:
            first, second = tr("party.seating"), standing
        colour = SOFT
        if self.refused:
            second, colour = self.refused, (255, 170, 150)
        elif view.unsaved:
            second, colour = tr("party.unsaved"), (255, 170, 150)
        return [
            label(assets, first, px, top, "center", (255, 255, 255), True, 0.6),
            label(assets, second, round(px * 0.8), low, "center", colour, shrink=0.7),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        assets = self.app.assets
        surface.blit(assets.felt(surface.get_size()), (0, 0))
        paint(surface, assets, self.plan())
        if self.view is not None:
            self.draw_buttons(surface, assets)


class Homing(Scene):
    """Over a party's table: each input goes to the scene under it (the table, or one of
    the table's panels) as if we were not there, and once the game is over (``left`` is
    set) it counts down to the standings (not while a screen opened from the table, the
    coach's review, covers it)."""

    opaque = False

    def __init__(self, app: Director, home: BetweenScene, table: Scene) -> None:
        self.app = app
        self.home = home
        self.table = table
        self.left: float | None = None  # seconds until home, once the game is over

    def handle(self, event: Input) -> None:
        """Off the stack while the input is handled: the table's panels are scenes on the
        stack that take themselves off its top when they close. Back on top after, while
        the table is still there."""
        self.app.pop()
        under = self.app.above(self.home)
        if under:
            under[-1].handle(event)
        if self.table in self.app.above(self.home):
            self.app.push(self)

    def _covered(self) -> bool:
        """A screen opened from the table covers it (the review)."""
        above = self.app.above(self.table)
        return any(scene.opaque for scene in above if scene is not self)

    def update(self, dt: float) -> None:
        if self.table not in self.app.above(self.home):  # the player left the table
            self.home.home()
        elif self.left is not None and not self._covered():
            self.left -= dt
            if self.left <= 0:
                self.home.home()

    def next_frame(self) -> float:
        return math.inf if self.left is None else max(0.0, self.left % 1.0)

    def draw(self, surface: pygame.Surface) -> None:
        if self.left is None or self._covered():
            return
        w, h = surface.get_size()
        tr, assets = self.app.tr, self.app.assets
        text = tr.plural("party.back_soon", math.ceil(max(0.0, self.left)))
        pill = pygame.Rect(0, 0, min(w - 16, max(200, w // 3)), max(22, h // 26))
        pill.midtop = (w // 2, 4)  # above the cards of the seat across the table
        draw_button(surface, assets, pill, text, "secondary")
