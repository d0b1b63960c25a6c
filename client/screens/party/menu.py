"""The window's Party menu: host a party, join one, or show a party's board.

"Host a party" sets the night up (the table size, rounds or a time, whether AI players
fill short tables, and the start screen's rules), starts ``host.party``'s host beside the
window (``client.net.party_thread``, in a helper thread: announcing it takes a moment the
window must not wait for) and joins it as its first player, the organiser. The party is
saved where ``durak party`` saves one (the window's ``saves``), with the organiser's
token beside it (``client.net.party_saves``): while a night saved there is unfinished
(the window was closed, the machine restarted), the menu offers to resume it, on its
port, the organiser back as the same player. "Join" and "Board" take the party's address
(``HOST:PORT``, the port 45655 when it is left out). Hosting and joining first ask who
the player is tonight: the name screen with its badges (``client.screens.name``).
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from client.i18n import N_
from client.net.lan import invite_link
from client.net.party_link import PARTY_PORT, PartyFinder, party_address
from client.net.party_saves import Unfinished, keep_player, unfinished
from client.net.session import drain
from client.screens.choices import chosen_rules, rule_rows
from client.screens.party.feed import open_board, open_night
from client.ui.form import FormScene, draw_title
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, Row, cycle
from engine import Rules

if TYPE_CHECKING:
    from client.net.party_thread import PartyHandle
    from host.party import PartyAd, PartyConfig

__all__ = [
    "LENGTHS",
    "PARTY_PORT",
    "PartyHostScene",
    "PartyJoinScene",
    "PartyMenuScene",
    "party_address",
]

# a night's length: so many rounds, or so many minutes; each a control of its own, so that
# a tap on the length never turns 3 rounds into 180 minutes
LENGTHS = {"rounds": (2, 3, 4, 5, 6), "minutes": (60, 90, 120, 180)}
NAME_MAX = 24  # a party's player name (section 17)
MAX_FOUND = 4  # parties listed at once


class Starting:
    """A party host being started beside the window, in a helper thread (announcing it
    takes a moment the window must not wait for): each of ``configs`` in turn until one
    listens (the next: another port). ``result()``: None until it is up (a
    ``PartyHandle``) or could not be (the error: ``OSError``, or ``PartySaveError`` for a
    save that cannot be resumed)."""

    def __init__(self, configs: Sequence[PartyConfig]) -> None:
        self._found: queue.Queue[PartyHandle | Exception] = queue.Queue()
        threading.Thread(
            target=self._serve, args=(list(configs),), name="durak-party-start", daemon=True
        ).start()

    def _serve(self, configs: list[PartyConfig]) -> None:
        from client.net.party_thread import host_party
        from host.party.store import PartySaveError

        error: Exception = OSError("no port to listen on")
        for config in configs:
            try:
                self._found.put(host_party(config))
                return
            except PartySaveError as exc:
                self._found.put(exc)
                return
            except OSError as exc:
                error = exc
        self._found.put(error)

    def result(self) -> PartyHandle | Exception | None:
        try:
            return self._found.get_nowait()
        except queue.Empty:
            return None


def join_hosted(app: Director, handle: PartyHandle, player: str, token: str | None = None) -> None:
    """Join the party this window hosts (``handle``) as ``player`` (``token``: as the
    player it names), the token kept beside the party's save."""
    bind = app.settings.lan_bind
    address = bind if bind and bind not in ("0.0.0.0", "::") else "127.0.0.1"
    invite = invite_link(bind, handle.port).removeprefix("durak://")
    saves, port = app.saves, handle.port

    def write(token: str) -> None:
        with contextlib.suppress(OSError):  # (the night goes on: only a resume needs it)
            keep_player(saves, port, player, token)

    def keep(token: str) -> None:  # (off the window's thread: the file is fsynced)
        threading.Thread(target=write, args=(token,), name="durak-party-keep").start()

    open_night(app, address, port, player, stop=handle.stop, invite=invite, token=token, keep=keep)


class PartyMenuScene(ButtonScene):
    """Resume (while a night this window hosted is unfinished), Host, Join, Board, Back:
    one column of large buttons."""

    def __init__(self, app: Director) -> None:
        self.app = app
        self.size = app.size
        self.saved: Unfinished | None = None
        self.starting: Starting | None = None
        self.message = ""

    def enter(self) -> None:
        self.saved = unfinished(self.app.saves)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def lowered(self) -> float:
        """How far title, hint and buttons are set down: 0.35 of the height they leave."""
        h = self.size[1]
        bh = self._button_h()
        below = h - (min(h * 0.15, 110) + h * 0.12) - bh * (1.35 * len(self._specs()) - 0.2)
        return max(0.0, below * 0.35)

    def _specs(self) -> list[tuple[str, str, str]]:
        """(name, label, style) of each button, top to bottom."""
        tr = self.app.tr
        specs = [
            ("host", tr("party.host"), "primary"),
            ("join", tr("party.join"), "secondary"),
            ("board", tr("party.board"), "secondary"),
            ("back", tr("party.back"), "secondary"),
        ]
        saved = self.saved
        if saved is not None:
            key = "party.resume_round" if saved.round else "party.resume"
            specs.insert(0, ("resume", tr(key, name=saved.name, round=saved.round), "primary"))
            specs[1] = ("host", tr("party.host"), "secondary")
        return specs

    def _button_h(self) -> int:
        """72 pixels tall at most, in proportion on a wide window taller than 720."""
        w, h = self.size
        return round(max(32, min(72 * max(1.0, h / 720 if w > h else 1.0), h * 0.09)))

    def buttons(self) -> list[Button]:
        w, h = self.size
        bh = self._button_h()
        bw = round(min(w - 48, bh * 7))
        top = round(self.lowered() + min(h * 0.15, 110) + h * 0.12)
        found = []
        for i, (name, label, style) in enumerate(self._specs()):
            rect = pygame.Rect(0, 0, bw, bh if name != "back" else round(bh * 0.8))
            rect.midtop = (w // 2, top + round(i * bh * 1.35) + (bh // 3 if name == "back" else 0))
            found.append(Button(rect, name, label, self.starting is None, style))
        return found

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            return
        self.press(event)

    def activate(self, name: str) -> None:
        if self.starting is not None:
            return
        if name == "resume":
            self.resume()
        elif name in ("host", "join"):  # who we are tonight first, then the form
            self.app.show("name", then=f"party_{name}", title="party.who")
        elif name == "board":
            self.app.show("party_join", board=True)
        elif name == "back":
            self.app.pop()

    def resume(self) -> None:
        """Take the unfinished night up again, on its port, and sit down in it."""
        from host.party.server import PartyConfig
        from host.web import PARTY_WEB_PORT

        saved = self.saved
        if saved is None:
            return
        bind = self.app.settings.lan_bind or "0.0.0.0"
        config = PartyConfig(
            name=saved.name,
            bind=bind,
            port=saved.port,
            web_port=PARTY_WEB_PORT,
            save_dir=str(self.app.saves),
            resume=True,
            **PartyHostScene.options,
        )
        self.starting = Starting([config])
        self.message = self.app.tr("party.starting")

    def update(self, dt: float) -> None:
        result = None if self.starting is None else self.starting.result()
        if result is None:
            return
        self.starting = None
        if isinstance(result, Exception):
            self.message = self.app.tr("party.failed", error=str(result))
            return
        self.message = ""
        saved = self.saved
        name = self.app.settings.name or self.app.tr("settings.default_name")
        player = saved.player if saved is not None and saved.player else name[:NAME_MAX]
        join_hosted(self.app, result, player, saved.token if saved is not None else None)

    def next_frame(self) -> float:
        return 0.0 if self.starting is not None else math.inf

    def draw(self, surface: pygame.Surface) -> None:
        lowered = self.lowered()
        title_h = draw_title(surface, self.app, "party.menu_title", lowered)
        w, h = surface.get_size()
        hint = self.message or self.app.tr("party.menu_hint")
        px = fit_px(self.app.assets, hint, max(12, round(h * 0.03)), w - 32)
        at = (w / 2, lowered + title_h + h * 0.05)
        colour = (255, 170, 150) if self.message and self.starting is None else SOFT
        draw_text(surface, self.app.assets, hint, px, at, colour=colour)
        self.draw_buttons(surface, self.app.assets)


class PartyHostScene(FormScene):
    """The night's setup and the rules; Start hosts the party and joins it. ``ports``:
    the ports tried in turn; ``options``: more of ``PartyConfig`` (tests: no AI worker
    processes, no announcement)."""

    ports: tuple[int, ...] = (PARTY_PORT, 0)  # the party's port, or any when it is taken
    options: dict[str, Any] = {}  # noqa: RUF012 (read, never changed, by the scene)

    def __init__(self, app: Director) -> None:
        super().__init__(app)
        player = app.settings.name or app.tr("settings.default_name")
        self.fields = {N_("party.name"): app.tr("party.default_name", name=player)[:63]}
        self.seats = min(6, max(2, app.settings.opponents + 1))
        self.lasts = "rounds"  # what the night's length counts
        self.length = {"rounds": 3, "minutes": 90}  # the length of each kind, as last set
        self.fill = True
        self.starting: Starting | None = None
        self.rows = self._rows()

    def _rows(self) -> list[Row]:
        tr = self.app.tr

        def seats(step: int) -> None:
            self.seats = int(cycle([2, 3, 4, 5, 6], self.seats, step))

        def lasts(step: int) -> None:
            self.lasts = "minutes" if self.lasts == "rounds" else "rounds"

        def length(step: int) -> None:
            kind = self.lasts
            self.length[kind] = cycle(list(LENGTHS[kind]), self.length[kind], step)

        def length_text() -> str:
            key = "party.rounds_n" if self.lasts == "rounds" else "party.minutes_n"
            return tr.plural(key, self.length[self.lasts])

        def fill(step: int) -> None:
            self.fill = not self.fill

        return [
            Row(N_("party.night"), str),
            Row(N_("party.name"), lambda: self.fields["party.name"], self.edit("party.name")),
            Row(N_("party.size"), lambda: str(self.seats), seats),
            Row(
                N_("party.lasts"),
                lambda: tr(
                    "party.lasts_rounds" if self.lasts == "rounds" else "party.lasts_minutes"
                ),
                lasts,
            ),
            Row(N_("party.length"), length_text, length),
            Row(N_("party.fill"), lambda: tr("party.yes" if self.fill else "party.no"), fill),
            *rule_rows(self.app),
        ]

    def rules(self) -> Rules | str:
        return chosen_rules(self.app, self.seats)

    def buttons(self) -> list[Button]:
        ok = not isinstance(self.rules(), str) and self.starting is None
        return self.pair("start", self.app.tr("party.start"), ok)

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
        elif name == "start":
            self.start()

    def start(self) -> None:
        from host.party.server import PartyConfig
        from host.web import PARTY_WEB_PORT
        from protocol import Night

        rules = self.rules()
        if isinstance(rules, str) or self.starting is not None:
            return
        self.app.save_settings()
        kind, n = self.lasts, self.length[self.lasts]
        night = Night(
            rules, n if kind == "rounds" else None, n if kind == "minutes" else None, self.fill
        )
        bind = self.app.settings.lan_bind or "0.0.0.0"
        name = self.fields["party.name"].strip() or self.app.tr("party.default_name", name="Durak")
        saves = str(self.app.saves)
        self.starting = Starting(
            [
                PartyConfig(
                    name=name,
                    bind=bind,
                    port=port,
                    web_port=PARTY_WEB_PORT,
                    setup=night,
                    save_dir=saves,
                    **self.options,
                )
                for port in self.ports
            ]
        )
        self.message = self.app.tr("party.starting")

    def next_frame(self) -> float:
        return 0.0 if self.starting is not None else math.inf

    def update(self, dt: float) -> None:
        result = None if self.starting is None else self.starting.result()
        if result is None:
            return
        self.starting = None
        if isinstance(result, Exception):
            self.message = self.app.tr("party.failed", error=str(result))
            return
        self.message = ""
        player = (self.app.settings.name or self.app.tr("settings.default_name"))[:NAME_MAX]
        join_hosted(self.app, result, player)

    def draw(self, surface: pygame.Surface) -> None:
        rules = self.rules()
        if isinstance(rules, str) and self.starting is None:
            self.message = rules
        self.draw_form(surface, "party.host_title")


class PartyJoinScene(FormScene):
    """The parties found on the LAN (a tap fills in the address) and a party's address;
    Join (as the name and badge just chosen) or Board."""

    def __init__(self, app: Director, board: bool = False) -> None:
        super().__init__(app)
        self.board = board
        self.fields = {N_("join.address"): ""}
        self.rows = [
            Row(N_("party.where"), str),
            Row(N_("join.address"), lambda: self.fields["join.address"], self.edit("join.address")),
        ]
        self.editing = "join.address"
        self.found: list[PartyAd] = []
        self.finder: PartyFinder | None = None

    def enter(self) -> None:
        if self.finder is None:
            self.finder = PartyFinder(self.app.settings.lan_bind)
            self.finder.inbox.on_put = self.app.wake

    def exit(self) -> None:
        if self.finder is not None:
            self.finder.close()
            self.finder = None

    def update(self, dt: float) -> None:
        if self.finder is not None:
            for found in drain(self.finder.inbox):
                self.found = found[:MAX_FOUND]

    def found_rects(self) -> list[pygame.Rect]:
        """Where each party found is listed: under the form, above the buttons."""
        rows = self.row_rects()
        top = rows[-1].bottom + rows[-1].h
        bottom = self.buttons_top() - rows[-1].h // 2
        h = max(24, min(rows[-1].h, (bottom - top) // max(1, MAX_FOUND)))
        return [
            pygame.Rect(rows[0].left, top + h + i * h, rows[0].w, round(h * 0.86))
            for i in range(len(self.found))
            if top + h + (i + 1) * h <= bottom
        ]

    def buttons_top(self) -> int:
        return self.size[1] - round(self.button_h() * 1.3)

    def buttons(self) -> list[Button]:
        tr = self.app.tr
        found = [
            Button(
                rect,
                f"found:{i}",
                tr.plural("party.ad", ad.players, name=ad.name, size=ad.size),
            )
            for i, (ad, rect) in enumerate(zip(self.found, self.found_rects(), strict=False))
        ]
        if self.board:
            return [*found, *self.pair("board", tr("party.show_board"), True)]
        return [*found, *self.pair("join", tr("party.join_go"), True)]

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
            return
        if name.startswith("found:"):
            ad = self.found[int(name.removeprefix("found:"))]
            self.fields["join.address"] = f"{ad.address}:{ad.port}"
            self.editing = None
            if self.board:
                self.activate("board")
            return
        try:
            address, port = party_address(self.fields["join.address"])
        except ValueError:
            self.message = self.app.tr("party.bad_address")
            return
        if name == "board":
            open_board(self.app, address, port)
            return
        player = (self.app.settings.name or self.app.tr("settings.default_name"))[:NAME_MAX]
        open_night(self.app, address, port, player)

    def next_frame(self) -> float:
        return math.inf  # (the finder wakes the window)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_form(surface, "party.board" if self.board else "party.join_title")
        rows = self.row_rects()
        heading = pygame.Rect(rows[0].left, rows[-1].bottom + rows[-1].h, rows[0].w, rows[-1].h)
        finder = self.finder
        key = "party.found" if self.found else "party.searching"
        if finder is not None and finder.failed:
            key = "join.no_network"
        text = self.app.tr(key)
        px = fit_px(self.app.assets, text, self.text_px(rows[-1]), heading.w, True)
        colour = GOLD if self.found else SOFT
        draw_text(surface, self.app.assets, text, px, heading.midleft, "midleft", colour, True)
