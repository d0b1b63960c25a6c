"""``durak`` (``durak play``): the game window.

The app owns the display, the clock, the one asset loader, the remembered settings and
the stack of scenes; it maps every input device to the game's input events once
(``client.ui.pointer``) and hands them to the top scene. A game against the computer is a
session like any other (``client.net.session``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from client.i18n import Translator, translator
from client.net.gamefile import GameRecorder, GameStore, default_games_dir
from client.net.session import GameOver, Session
from client.settings import Settings, Unreadable, default_path
from client.stats import Stats
from client.ui.chores import Chores
from engine import Card, Rules

if TYPE_CHECKING:
    from client.ui.scene import Scene

__all__ = ["REST", "App", "FrameClock", "add_arguments", "display_problem", "run"]

REST = 1.0  # seconds the loop rests at most at a time while no scene needs a frame
# Seconds between two looks at the window's input while resting: input waits no longer
# than it would for the next frame at 60 fps. (``pygame.event.wait`` looks every
# millisecond inside: 1.5 % of a core measured for doing nothing, 0.3 % this way.)
DOZE = 1 / 60
# Of a frame's time (from its start), what its chores may take once it is drawn; a frame
# that took longer still gives them a piece of CHORE_LEAST seconds, so that they end.
CHORE_SHARE = 0.5 / 60
CHORE_LEAST = 0.001

SessionFactory = Callable[[Rules, Settings], Session]

# SDL's video drivers that show nothing: SDL falls back to "offscreen" when it finds no
# display (on Linux: no X11 or Wayland; on macOS and Windows: no desktop session), and
# "dummy" is only ever asked for (tests and CI set SDL_VIDEODRIVER=dummy).
HEADLESS_DRIVERS = ("offscreen", "dummy")


def crisp_on_windows() -> None:
    """Before SDL's display starts: on Windows a program that does not declare itself DPI
    aware is drawn at 96 dpi and stretched by the system, blurry at 125-200 % scaling. The
    window lays itself out from its size in pixels, so it can take the real pixels (SDL's
    per-monitor hint; an environment that sets the hint itself keeps its choice)."""
    if sys.platform == "win32":
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")


def _why_headless(driver: str) -> str:
    """Why SDL fell back to ``driver`` (a headless one): the display it was told of could
    not be reached, or it was told of none."""
    if sys.platform in ("win32", "darwin"):
        return "no desktop session"
    named = [
        f"{name}={os.environ[name]!r}"
        for name in ("DISPLAY", "WAYLAND_DISPLAY")
        if os.environ.get(name)
    ]
    if not named:
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    return f"the display {' / '.join(named)} could not be opened"


def display_problem() -> str | None:
    """Why the window cannot be shown, or None: SDL found no display at all, or only one of
    the headless drivers that nobody asked for in SDL_VIDEODRIVER."""
    import pygame

    from client.ui.assets import native_stderr_captured

    crisp_on_windows()
    with native_stderr_captured() as noise:  # e.g. Wayland's "XDG_RUNTIME_DIR is invalid"
        try:
            pygame.display.init()
        except pygame.error as error:
            return f"no display to open the window on ({error})"
    driver = pygame.display.get_driver()
    asked = {name.strip().lower() for name in os.environ.get("SDL_VIDEODRIVER", "").split(",")}
    if driver in HEADLESS_DRIVERS and driver not in asked:
        pygame.display.quit()
        why = _why_headless(driver)
        return f"no display to open the window on ({why}; SDL's {driver!r} driver shows nothing)"
    if noise.getvalue():  # a display after all: what SDL said may matter
        os.write(2, noise.getvalue())
    return None


class FrameClock(Protocol):
    def tick(self, framerate: int = 0, /) -> int:
        """Milliseconds since the last tick, after waiting so that at most ``framerate``
        ticks happen a second (``pygame.time.Clock``)."""
        ...


def computer_game(rules: Rules, settings: Settings) -> Session:
    """The player against ``rules.players - 1`` AI players: a host on 127.0.0.1 in its own
    thread, joined through the protocol like any other table."""
    from client.i18n import translator
    from client.net.remote import computer_game as hosted
    from client.screens.choices import ai_names, chosen_levels

    tr = translator(settings.language)
    name = settings.name or tr("settings.default_name")
    levels = chosen_levels(settings, rules.players)
    return hosted(rules, name, levels, ai_names(tr), settings.look)


@cache
def screens() -> dict[str, Callable[..., Scene]]:
    """Every screen by the name a screen asks for it with (``Director.show``): the one
    place that knows them all, so that no screen imports another. Imported when the
    window opens, not when a command-line tool loads this module."""
    from client.screens.host import HostScene
    from client.screens.howto import HowToScene
    from client.screens.join.screen import JoinScene
    from client.screens.name import NameScene
    from client.screens.party.between import BetweenScene
    from client.screens.party.board import BoardScene
    from client.screens.party.menu import PartyHostScene, PartyJoinScene, PartyMenuScene
    from client.screens.past import PastScene
    from client.screens.review import ReviewScene
    from client.screens.room.screen import RoomScene
    from client.screens.settings import SettingsScene
    from client.screens.start import StartScene
    from client.screens.stats import StatsScene
    from client.screens.table.replay import ReplayScene
    from client.screens.table.screen import TableScene
    from client.screens.table.where import Where

    def table(where: Where) -> Callable[..., Scene]:
        """The table at ``where``, keeping the games it shows (``client.net.gamefile``),
        whose end offers the coach's review of the game just kept."""

        def make(app: App, session: Session, **options: Any) -> Scene:
            recorder = app.recorder(session)
            return TableScene(
                app,
                session,
                record=recorder.take,
                kept=lambda: recorder.last,
                where=where,
                **options,
            )

        return make

    return {
        "start": StartScene,
        "settings": SettingsScene,
        "howto": HowToScene,
        "host": HostScene,
        "join": JoinScene,
        "name": NameScene,
        "room": RoomScene,
        "table": table(Where.COMPUTER),
        "lan_table": table(Where.LAN),
        "party_table": table(Where.PARTY),
        "stats": StatsScene,
        "past": PastScene,
        "replay": ReplayScene,
        "review": ReviewScene,
        "party": PartyMenuScene,
        "party_host": PartyHostScene,
        "party_join": PartyJoinScene,
        "party_night": BetweenScene,
        "party_board": BoardScene,
    }


class App:
    def __init__(
        self,
        settings: Settings,
        settings_path: Path | None = None,
        *,
        size: tuple[int, int] | None = None,
        fullscreen: bool | None = None,
        sound: bool = True,
        session_factory: SessionFactory = computer_game,
        invite: str | None = None,
        watch: bool = False,
        games: Path | None = None,
        saves: Path | None = None,
    ) -> None:
        """``games``: the folder the finished games are kept in (by default the user's
        data folder, or ``DURAK_GAMES``); ``saves``: where a party hosted here is saved
        (by default where ``durak party`` saves one, so that ``--resume`` finds it)."""
        import pygame

        from client.ui.assets import Assets
        from client.ui.pointer import InputMapper
        from client.ui.window import GameWindow

        self.pygame = pygame
        self.settings = settings
        self.settings_path = settings_path
        self.stats_path = None if settings_path is None else settings_path.with_name("stats.json")
        self.stats = Stats()
        if self.stats_path is not None:
            try:
                self.stats = Stats.load(self.stats_path)
            except Unreadable:  # left alone, not overwritten by this session's counts
                self.stats_path = None
        self.session_factory = session_factory
        self.games = GameStore(games if games is not None else default_games_dir())
        if saves is None:
            from host.save import default_save_dir

            saves = default_save_dir()
        self.saves = saves
        crisp_on_windows()
        pygame.display.init()
        pygame.font.init()
        width, height = size or settings.window
        self.fullscreen = settings.fullscreen if fullscreen is None else fullscreen
        self.window = GameWindow(pygame, (width, height), self.fullscreen)
        self.screen = self.window.surface
        self.assets = Assets(sound=sound)
        self.assets.set_sound(settings.effects_level, settings.music_level)
        self.window.set_icon(self.assets.card(Card.parse("As"), 64))
        self.mapper = InputMapper(self.size, scale=self.window.scale)
        self.stack: list[Scene] = []
        self.running = True
        self.frames = 0
        self.woken = threading.Event()  # set by other threads: see ``wake``
        self.chores = Chores()  # work done between frames (keeping a finished game)
        self.show("start")
        if invite is not None:  # ``durak durak://HOST:PORT``: straight to joining (watching)
            self.show_named("join", invite=invite, browse=False, watch=watch)

    @property
    def tr(self) -> Translator:
        """The words of the language chosen now (a switch shows on the next frame)."""
        return translator(self.settings.language)

    # --- the display ----------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.screen.get_size()
        return width, height

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self.settings.fullscreen = self.fullscreen
        self.window.set_fullscreen(self.fullscreen)
        self._resized()
        self.save_settings()

    def _resized(self) -> None:
        self.window.refresh()
        self.screen = self.window.surface
        if min(self.size) < 16:
            return  # minimised: keep the layout until the window comes back
        self.mapper.size = self.size
        self.mapper.scale = self.window.scale
        if not self.fullscreen:
            self.settings.window = list(self.window.points)
        for scene in self.stack:
            scene.resize(self.size)

    # --- scenes ---------------------------------------------------------------------------

    def push(self, scene: Scene) -> None:
        self.stack.append(scene)
        scene.enter()

    def show(self, name: str, **options: Any) -> None:
        """Open the screen called ``name`` (a key of ``screens()``) on top."""
        self.push(screens()[name](self, **options))

    def show_named(self, name: str, **options: Any) -> None:
        """Open ``name``, first asking the player's name if they were never asked (the
        first time they host or join a table)."""
        if self.settings.named:
            self.show(name, **options)
        else:
            self.show("name", then=name, **options)

    def pop(self) -> None:
        """Take the top scene off. The scenes that show again are laid out and entered
        afresh; under an overlay (a scene that is not opaque) they showed all along."""
        from client.ui.scene import shown

        scene = self.stack.pop()
        scene.exit()
        if not self.stack:
            self.running = False
        elif scene.opaque:
            for under in shown(self.stack):
                under.resize(self.size)
                under.enter()

    def above(self, scene: Scene) -> list[Scene]:
        """The scenes over ``scene``, the lowest first."""
        return self.stack[self.stack.index(scene) + 1 :] if scene in self.stack else []

    def start_game(self, rules: Rules) -> None:
        from client.screens.choices import chosen_levels

        lineup = chosen_levels(self.settings, rules.players)

        def tally(over: GameOver, seat: int) -> GameOver:
            return self.record_game(over, seat, lineup)

        session = self.session_factory(rules, self.settings)
        self.show("table", session=session, tally=tally)

    def record_game(self, over: GameOver, seat: int, lineup: Sequence[str] | None) -> GameOver:
        """Count a finished game in the statistics (``lineup`` None: at a LAN table); the
        end to show, with the series against this line-up of computer opponents as it
        stands across restarts of the window."""
        series = self.stats.record(over.result, seat, lineup)
        if self.stats_path is not None:
            self.stats.save(self.stats_path)
        return over if series is None else replace(over, series=series)

    def recorder(self, session: Session) -> GameRecorder:
        """What keeps the games played through ``session``: what the seat saw, with the seed
        and log its host revealed with a verified deal (or, against the computer, the log
        of the host that runs here)."""
        from client.net.remote import NetSession

        logs = session.host_logs if isinstance(session, NetSession) else None
        where = "lan" if logs is None else "computer"
        return GameRecorder(self.games, where, logs, later=self.chores.add)

    def save_settings(self) -> None:
        """Remember the settings (and play at their volume from now on)."""
        self.assets.set_sound(self.settings.effects_level, self.settings.music_level)
        if self.settings_path is not None:
            self.settings.save(self.settings_path)

    def quit(self) -> None:
        self.running = False

    # --- the loop -------------------------------------------------------------------------

    def wake(self) -> None:
        """End the loop's rest (from any thread): a session calls it when a message
        arrives (``client.net.session.Inbox``), so the message is drawn on the next frame."""
        self.woken.set()

    def step(self, dt: float, events: list[Any] | None = None) -> None:
        """One frame: input (``events`` first, then what is queued), update by ``dt``
        seconds, draw; then the chores, in what is left of the frame's share."""
        from client.ui.scene import shown

        pygame = self.pygame
        started = time.perf_counter()
        for event in [*(events or ()), *pygame.event.get()]:
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                if self.size != self.mapper.size:
                    self._resized()
            elif self.mapper.is_fullscreen_key(event):
                self.toggle_fullscreen()
            elif self.stack:
                mapped = self.mapper.map(event)
                if mapped is not None:
                    self.stack[-1].handle(mapped)
        if not self.stack:
            return
        for scene in shown(self.stack):
            scene.update(dt)
        for scene in shown(self.stack):  # (an update may have opened or closed an overlay)
            scene.draw(self.screen)
        self.window.flip()
        self.frames += 1
        if self.chores:
            self.chores.run(max(started + CHORE_SHARE, time.perf_counter() + CHORE_LEAST))

    def rest(self, limit: float = REST) -> list[Any] | None:
        """Rest while no scene that shows needs a frame: until input arrives, ``wake`` is
        called or the soonest ``next_frame`` comes, for ``limit`` seconds at most. The
        input that ended the rest (empty for a wake or the scene's time), or None when
        nothing happened and no frame is due. The chores are done in the rest's time."""
        from client.ui.scene import shown

        if not self.stack:
            return []
        due = min(scene.next_frame() for scene in shown(self.stack))
        if due <= 0:
            return []
        pygame = self.pygame
        until = time.perf_counter() + min(due, limit)
        while True:
            events: list[Any] = pygame.event.get()
            if events:
                return events
            if self.woken.is_set():
                self.woken.clear()
                return []
            now = time.perf_counter()
            left = until - now
            if left <= 0:
                return [] if due <= limit else None
            if self.chores:  # instead of sleeping (a wake is seen as soon)
                self.chores.run(now + min(CHORE_LEAST, left))
            else:
                self.woken.wait(min(DOZE, left))

    def turn(self, clock: FrameClock, rate: int = 60, limit: float = REST) -> bool:
        """One pass of the loop: rest while nothing is due (see ``rest``), then a frame
        (``clock.tick(rate)`` paces it and gives its ``dt``). True if a frame was drawn."""
        woke = self.rest(limit)
        if woke is None:
            return False
        self.step(min(clock.tick(rate) / 1000, 0.1), woke)
        return True

    def run(self, frames: int | None = None) -> None:
        """Frames at the display's rate while the top scene needs them, else asleep until
        input, a session's message or the scene's next timer; ``frames``: that many frames,
        drawn one after another, and then the end."""
        pygame = self.pygame
        clock = pygame.time.Clock()
        rate = self.window.refresh_rate() or 60
        self.settle()
        while self.running and (frames is None or self.frames < frames):
            if frames is None:
                self.turn(clock, rate)
            else:  # a counted run (``--frames``: tests, start-up timing): a frame each pass
                self.step(min(clock.tick(rate) / 1000, 0.1))
        self.close()

    def settle(self) -> None:
        """Set what is alive once the window is up (the modules, the assets: some 40,000
        objects) aside from Python's cyclic collector (``gc.freeze``). A full collection
        over them took 16-19 ms of CPU at 1920x1080, in whatever frame it fell (once or
        twice a game: ``tests/benchmarks/client_fps.py --whole``); what the tables make
        later is still collected. ``close`` gives them back."""
        gc.freeze()

    def close(self) -> None:
        while self.stack:
            self.stack.pop().exit()
        self.chores.finish()
        self.save_settings()
        gc.unfreeze()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("invite", nargs="?", default=None, help="join durak://HOST:PORT")
    parser.add_argument(
        "--watch", action="store_true", help="watch the invited table instead of taking a seat"
    )
    parser.add_argument(
        "--bind", default=None, help="LAN play on this address only (default: every interface)"
    )
    parser.add_argument("--size", default=None, help="window size, e.g. 1280x720")
    parser.add_argument("--fullscreen", action="store_true", default=None, help="start full screen")
    parser.add_argument("--mute", action="store_true", help="no sound")
    parser.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace, first: tuple[str, dict[str, Any]] | None = None) -> int:
    """The window on its start screen (``first``: a screen by name and its options over
    it, as ``durak replay`` opens the replay)."""
    started = time.perf_counter()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    problem = display_problem()
    if problem is not None:
        print(
            f"durak: {problem}.\nStart it in a desktop session, or set SDL_VIDEODRIVER=dummy to"
            " run it without one. 'durak simulate', 'host', 'bot' and 'list' need no display.",
            file=sys.stderr,
        )
        return 1
    if args.watch and args.invite is None:
        print("durak: --watch needs the table: durak durak://HOST:PORT --watch", file=sys.stderr)
        return 2
    found = Path(os.environ["DURAK_SETTINGS"]) if "DURAK_SETTINGS" in os.environ else default_path()
    path: Path | None = found
    try:
        settings = Settings.load(found)
    except Unreadable as exc:  # held by another program: left alone, not overwritten
        print(f"durak: {exc}; playing with the defaults, saving nothing", file=sys.stderr)
        settings, path = Settings(), None
    if args.bind is not None:
        settings.lan_bind = args.bind
    size = None
    if args.size:
        w, _, h = args.size.lower().partition("x")
        size = (int(w), int(h))
    app = App(
        settings,
        path,
        size=size,
        fullscreen=args.fullscreen,
        sound=not args.mute,
        invite=args.invite,
        watch=args.watch,
    )
    if first is not None:
        app.show(first[0], **first[1])
    app.step(0.0)
    if os.environ.get("DURAK_TIMING"):  # for measuring start-up (see the README)
        print(f"first_frame_s={time.perf_counter() - started:.3f} first_frame_at={time.time():.3f}")
    app.run(args.frames)
    return 0
