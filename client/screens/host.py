"""Host a LAN table: its name, seats (2-6), rules (the start screen's rows) and password.

"Host" starts ``host.run_in_thread`` in a helper thread (announcing the table with
zeroconf takes a moment, which the window must not wait for), then joins the table as
its owner and opens the room screen with the invite link ``durak://IP:PORT``, which is
also put on the clipboard when the platform has one.
"""

from __future__ import annotations

import math
import queue
import threading
from typing import TYPE_CHECKING

import pygame

from client.i18n import N_
from client.net.lan import invite_link, page_address
from client.screens.choices import ai_names, chosen_rules, rule_rows
from client.ui.form import WARN, FormScene
from client.ui.render import SOFT
from client.ui.scene import Director
from client.ui.widgets import Button, Row, cycle
from engine import Rules

if TYPE_CHECKING:
    from host import HostHandle

__all__ = ["HostScene", "copy_to_clipboard"]

NAME_MAX = 32


def copy_to_clipboard(text: str) -> bool:
    """Put ``text`` on the clipboard; False where there is none (e.g. SDL's dummy driver)."""
    try:
        import pygame.scrap as scrap  # pygame-ce 2.2+: SDL's clipboard, no init needed

        scrap.put_text(text)
    except (pygame.error, AttributeError, NotImplementedError, OSError):
        return False
    return True


class HostScene(FormScene):
    """The table's name, seats, password and rules; Host starts the table and joins it."""

    field_max = NAME_MAX
    placeholders = {N_("host.password"): N_("host.no_password")}  # noqa: RUF012 (read only)
    back_key = "join.back"

    def __init__(self, app: Director) -> None:
        super().__init__(app)
        s = app.settings
        player = s.name or app.tr("settings.default_name")
        name = app.tr("host.default_name", name=player)[:NAME_MAX]
        self.fields = {N_("host.name"): name, N_("host.password"): ""}
        self.seats = min(6, max(2, s.opponents + 1))
        self.rows = self._rows()
        self.starting: queue.Queue[HostHandle | OSError | RuntimeError] | None = None
        self.host: object | None = None  # the host we started (``host.HostHandle``)

    @property
    def name(self) -> str:
        """The table's name, as typed."""
        return self.fields["host.name"]

    @property
    def password(self) -> str:
        """The table's password, as typed ("": none)."""
        return self.fields["host.password"]

    @password.setter
    def password(self, text: str) -> None:
        self.fields["host.password"] = text

    def _rows(self) -> list[Row]:
        def seats(step: int) -> None:
            self.seats = int(cycle([2, 3, 4, 5, 6], self.seats, step))

        return [
            Row(N_("host.table"), str),
            Row(N_("host.name"), lambda: self.name, self.edit("host.name")),
            Row(N_("host.seats"), lambda: str(self.seats), seats),
            Row(N_("host.password"), lambda: "•" * len(self.password), self.edit("host.password")),
            *rule_rows(self.app),
        ]

    def rules(self) -> Rules | str:
        """The rules for this many seats, or why they cannot be played."""
        return chosen_rules(self.app, self.seats)

    # --- hosting --------------------------------------------------------------------------

    def start(self) -> None:
        from host import HostConfig, run_in_thread
        from host.config import LAN_HOLD
        from host.web import WEB_PORT

        rules = self.rules()
        if isinstance(rules, str) or self.starting is not None:
            return
        self.app.save_settings()
        config = HostConfig(
            name=self.name.strip() or self.app.tr("host.default_name", name="Durak"),
            bind=self.app.settings.lan_bind,
            seats=self.seats,
            rules=rules,
            password=self.password or None,
            announce=True,
            web_port=WEB_PORT,
            hold=LAN_HOLD,  # (a phone asleep a minute keeps its seat)
        )
        found: queue.Queue[HostHandle | OSError | RuntimeError] = queue.Queue()

        def serve() -> None:
            try:
                found.put(run_in_thread(config))
            except (OSError, RuntimeError) as exc:
                found.put(exc)

        self.starting = found
        self.message = ""
        threading.Thread(target=serve, name="durak-host-start", daemon=True).start()

    def next_frame(self) -> float:
        return 0.0 if self.starting is not None else math.inf  # (the host starts in a moment)

    def update(self, dt: float) -> None:
        if self.starting is None:
            return
        try:
            result = self.starting.get_nowait()
        except queue.Empty:
            return
        self.starting = None
        if isinstance(result, BaseException):
            self.message = self.app.tr("host.failed", error=str(result))
            return
        self._join(result)

    def _join(self, handle: HostHandle) -> None:
        from client.net.remote import NetSession

        self.host = handle
        bind = self.app.settings.lan_bind
        address = bind if bind and bind not in ("0.0.0.0", "::") else "127.0.0.1"
        player = self.app.settings.name or self.app.tr("settings.default_name")
        session = NetSession(
            address,
            handle.port,
            player,
            password=self.password or None,
            rooms=True,
            on_close=handle.stop,
            ai_names=ai_names(self.app.tr),
            look=self.app.settings.look,
        )
        link = invite_link(bind, handle.port)
        note = self.app.tr("room.copied") if copy_to_clipboard(link) else ""
        web = None if handle.host is None else handle.host.web_port
        page = "" if web is None else page_address(bind, web)
        self.app.show("room", session=session, invite=link, note=note, page=page)

    # --- the form -----------------------------------------------------------------------

    def buttons(self) -> list[Button]:
        ok = not isinstance(self.rules(), str) and self.starting is None
        return self.pair("host", self.app.tr("host.start"), ok)

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
        elif name == "host":
            self.start()

    def notice(self) -> tuple[str, tuple[int, int, int]]:
        if self.starting is not None:
            return self.app.tr("host.starting"), SOFT
        rules = self.rules()
        return rules if isinstance(rules, str) else self.message, WARN

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_form(surface, "host.title")
