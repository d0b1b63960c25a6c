"""What the table says for a moment and then lets go: the toasts under the opponents, each
seat's word for what it just did, the seats' reactions, the thinking cue of a seat the
table waits for, the celebration of the game's first player out (``flourish``), and the
sounds still to play. Each holds the seconds it has left; time is
only the ``dt`` given to ``update`` (a test passes its own). ``told`` and ``react`` turn
what the table shows into these.
"""

from __future__ import annotations

import math

import pygame

from client.i18n import ENGLISH, Translator
from client.net.session import Cheered, Emoted
from client.screens.table.draw import draw_seat_word
from client.screens.table.flourish import SECONDS as CHEER_SECONDS
from client.screens.table.flourish import draw_flourish
from client.screens.table.hud import TOAST_SECONDS, draw_toast
from client.screens.table.layout import Layout
from client.screens.table.narrate import Note, note_text, seat_note, toast_for
from client.screens.table.pacing import THINK_DELAY, reading_time
from client.screens.table.panels import EMOTE_KEYS
from client.ui.assets import Assets
from client.ui.render import draw_bubble
from engine import BoutStarted, Discarded, Event, PickedUp, Taking, Transferred, WentOut

__all__ = ["DOT_STEP", "EMOTE_SECONDS", "NOTE_SECONDS", "Cues"]

DOT_STEP = 1 / 3  # seconds between two steps of the thinking cue's dots
EMOTE_SECONDS = 2.0  # how long a seat's reaction shows by the seat
NOTE_SECONDS = 1.8  # how long a seat's word for its action shows (at the normal pace)
BOUT_ENDS = (Discarded, PickedUp, BoutStarted)  # the toasts of a bout go with these


class Cues:
    def __init__(self) -> None:
        self.toasts: list[tuple[str, float, bool]] = []  # (text, seconds left, of the bout)
        self.emotes: dict[int, tuple[str, float]] = {}  # seat -> (emote, seconds left)
        self.notes: dict[int, tuple[Note, float]] = {}  # seat -> (its word, seconds left)
        self.deciding: tuple[int, ...] = ()  # the other seats the table waits for ...
        self.deciding_for = 0.0  # ... and for how long (seconds)
        self.sounds: list[tuple[float, str]] = []  # (seconds until it plays, its name)
        self.cheers: dict[int, tuple[float, float]] = {}  # first out -> (seconds left, of)

    def toast(self, text: str, bout: bool = False) -> None:
        """A toast for a moment (``bout``: it speaks of the bout on, and goes with it)."""
        self.toasts.append((text, TOAST_SECONDS, bout))

    def emote(self, seat: int, code: str) -> None:
        """``seat`` reacted (an unknown reaction shows nothing)."""
        if code in EMOTE_KEYS:
            self.emotes[seat] = (code, EMOTE_SECONDS)

    def react(self, message: Emoted | Cheered, tr: Translator = ENGLISH) -> None:
        """A reaction: a player's by its seat, a watcher's as a toast."""
        if isinstance(message, Cheered):
            key = EMOTE_KEYS.get(message.code)
            if key is not None:
                self.toast(f"{message.name}: {tr(key)}")
        else:
            self.emote(message.seat, message.code)

    def told(
        self,
        event: Event,
        me: int,
        names: tuple[str, ...],
        hold: float,
        speed: float,
        tr: Translator = ENGLISH,
    ) -> float:
        """``event`` is shown at our seat ``me``: its seat's word by the plate and its toast.
        The seconds it takes to read (``hold``: its animation's; ``speed``: the pace)."""
        read = reading_time(event, me) / speed
        note = seat_note(event, me)
        if note is not None:
            self.notes[note.seat] = (note, max(NOTE_SECONDS / speed, hold, read))
        if isinstance(event, WentOut) and event.place == 1:  # the game's first out
            self.cheers[event.seat] = (CHEER_SECONDS / speed, CHEER_SECONDS / speed)
            self.sounds.append((0.0, "cheer"))
        if isinstance(event, BOUT_ENDS):  # "You take" says nothing of the next bout
            self.toasts = [toast for toast in self.toasts if not toast[2]]
        text = toast_for(event, names, me, tr)
        if text:
            self.toast(text, isinstance(event, Taking | Transferred))
            read = max(read, 0.5 / speed)
        return read

    def update(self, dt: float, deciding: tuple[int, ...]) -> list[str]:
        """Let ``dt`` seconds pass, the table now waiting for the seats ``deciding``; the
        sounds due now."""
        self.toasts = [(t, ttl - dt, bout) for t, ttl, bout in self.toasts if ttl > dt][-2:]
        self.emotes = {s: (code, ttl - dt) for s, (code, ttl) in self.emotes.items() if ttl > dt}
        self.notes = {s: (note, ttl - dt) for s, (note, ttl) in self.notes.items() if ttl > dt}
        self.cheers = {s: (ttl - dt, of) for s, (ttl, of) in self.cheers.items() if ttl > dt}
        if deciding != self.deciding:
            self.deciding, self.deciding_for = deciding, 0.0
        else:
            self.deciding_for += dt
        due = [(t - dt, name) for t, name in self.sounds]
        self.sounds = [(t, n) for t, n in due if t > 0]
        return [name for t, name in due if t <= 0]

    @property
    def busy(self) -> bool:
        """Something counts down (the thinking cue aside: see ``next_step``)."""
        return bool(self.toasts or self.emotes or self.notes or self.sounds or self.cheers)

    def next_step(self) -> float:
        """Seconds until the thinking cue shows, or its dots step (``math.inf``: none)."""
        if not self.deciding:
            return math.inf
        if self.deciding_for < THINK_DELAY:
            return THINK_DELAY - self.deciding_for
        return DOT_STEP - (self.deciding_for - THINK_DELAY) % DOT_STEP

    def thinking(self) -> tuple[int, ...]:
        """The seats shown as thinking: the table has waited a moment for them."""
        return self.deciding if self.deciding_for >= THINK_DELAY else ()

    def note_shown(self, seat: int) -> str | None:
        """What ``seat``'s word by its plate says it did ("throws in"...), if one shows."""
        shown = self.notes.get(seat)
        return shown[0].kind if shown is not None else None

    def emote_shown(self, seat: int) -> str | None:
        """The reaction showing by ``seat`` now, if any."""
        shown = self.emotes.get(seat)
        return shown[0] if shown is not None else None

    def draw_words(
        self, surface: pygame.Surface, assets: Assets, layout: Layout, tr: Translator = ENGLISH
    ) -> None:
        """By each opponent's plate: its word for what it just did, else that it thinks."""
        thinking = self.thinking()
        for seat in layout.seats:
            shown = self.notes.get(seat)
            if shown is not None:
                note, ttl = shown
                draw_seat_word(surface, assets, layout, seat, note_text(note, tr), ttl / 0.3)
            elif seat in thinking:
                dots = 1 + int((self.deciding_for - THINK_DELAY) / DOT_STEP) % 3
                text = tr("said.thinking") + "." * dots + " " * (3 - dots)
                draw_seat_word(surface, assets, layout, seat, text, thinking=True)

    def draw_cheers(
        self, surface: pygame.Surface, assets: Assets, layout: Layout, tr: Translator = ENGLISH
    ) -> None:
        """The first player out's celebration, by their plate (ours at our hand)."""
        for seat, (ttl, of) in sorted(self.cheers.items()):
            draw_flourish(surface, assets, layout, seat, tr.ordinal(1), 1.0 - ttl / of)

    def draw_toasts(self, surface: pygame.Surface, assets: Assets, layout: Layout) -> None:
        for k, (text, ttl, _) in enumerate(reversed(self.toasts)):
            draw_toast(surface, assets, layout, text, ttl, k)

    def draw_emotes(
        self,
        surface: pygame.Surface,
        assets: Assets,
        layout: Layout,
        me: int,
        react: pygame.Rect | None,
        tr: Translator = ENGLISH,
    ) -> None:
        """Each seat's reaction in a bubble by the seat (ours, ``me``, by the React button
        ``react``)."""
        px = round(layout.font_px * 1.05)
        for seat, (code, _) in sorted(self.emotes.items()):
            key = EMOTE_KEYS[code]
            draw_bubble(surface, assets, tr(key), emote_anchor(layout, seat, me, react), px)


def emote_anchor(
    layout: Layout, seat: int, me: int, react: pygame.Rect | None
) -> tuple[float, float]:
    """Where ``seat``'s reaction shows: under its plate; our own (``me``) comes from the
    React button ``react``, above the row of buttons."""
    spot = layout.seats.get(seat) if seat != me else None
    if spot is None:
        if react is not None:
            return (react.centerx, react.top - 2)
        return (layout.size[0] - layout.margin * 4, layout.buttons_y - layout.button_h)
    x, y, w, h = spot.plate
    return (x + w / 2, y + h + layout.font_px * 4)
