"""The table's keys: what a key press asks the table to do, as data and one pure function.

``command_for(key, at)`` looks only at the key (a pygame key constant: an int) and at what
the table shows (``KeyState``); the screen carries the command out. Keys that stand for a
button press it, so they are refused exactly when the button is.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

__all__ = [
    "BUTTON_KEYS",
    "END_KEYS",
    "ClearChoice",
    "ClosePicker",
    "Command",
    "Digit",
    "Focus",
    "KeyState",
    "Press",
    "Scroll",
    "Tap",
    "ToggleHints",
    "command_for",
]

END_KEYS = {  # while the end of the game shows
    pygame.K_RETURN: "rematch",
    pygame.K_r: "rematch",
    pygame.K_SPACE: "rematch",
    pygame.K_ESCAPE: "menu",
}
BUTTON_KEYS = {  # during the game: the buttons' keys
    pygame.K_t: "take",
    pygame.K_p: "pass",
    pygame.K_b: "pass",
    pygame.K_r: "transfer",
    pygame.K_s: "show",
    pygame.K_m: "sound",
}
PICKER_KEY = pygame.K_e  # opens and closes the emote picker
HINTS_KEY = pygame.K_h
LOG_KEY = pygame.K_l  # opens and closes the log of the game
PAUSE_KEYS = {  # while the pause asks whether to leave
    pygame.K_ESCAPE: "resume",
    pygame.K_SPACE: "resume",
    pygame.K_RETURN: "resume",
    pygame.K_q: "leave",
}
SCROLL_KEYS = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -8, pygame.K_PAGEDOWN: 8}
FOCUS_STEPS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}  # the keyboard focus along the hand
PLAY_KEYS = (pygame.K_RETURN, pygame.K_UP, pygame.K_SPACE)  # play the focused card
# the digits pick the reactions while the picker is open, else a card of the hand by the
# number it was given for the bout (0 is the tenth; the arrows reach every card)
DIGITS = range(pygame.K_1, pygame.K_9 + 1)
TENTH = pygame.K_0


@dataclass(frozen=True, slots=True)
class KeyState:
    """What the table shows, as far as the keys care."""

    overlay: str = ""  # a panel over the table: "pause" (leave or resume) or "log"
    ending: bool = False  # the end of the game shows (its ranking and Rematch)
    closed: bool = False  # the session ended
    picking: bool = False  # the emote picker is open
    reactions: tuple[str, ...] = ()  # the picker's reactions, in order
    hand: int = 0  # cards in our hand
    digits: frozenset[int] = frozenset()  # the keys (0-9: 1 to 9, then 0) that name a card
    focus: int | None = None  # the card of the hand with the keyboard focus
    choosing: bool = False  # a card or a transfer chosen, or a card focused


@dataclass(frozen=True, slots=True)
class Press:
    """As a click on the button named ``name``."""

    name: str


@dataclass(frozen=True, slots=True)
class Tap:
    """As a tap on the card at ``index`` in our hand."""

    index: int


@dataclass(frozen=True, slots=True)
class Digit:
    """As a tap on the card of our hand that key ``index`` names (0: the 1 key ... 9: the
    0 key); the keys name the cards for a whole bout (``choice.Choice.numbers``)."""

    index: int


@dataclass(frozen=True, slots=True)
class Focus:
    """The keyboard focus moves to the card at ``index`` in our hand."""

    index: int


@dataclass(frozen=True, slots=True)
class Scroll:
    """The log scrolls by ``lines`` (less than 0: back to older lines)."""

    lines: int


@dataclass(frozen=True, slots=True)
class ClosePicker:
    """The emote picker closes, nothing picked."""


@dataclass(frozen=True, slots=True)
class ClearChoice:
    """Forget the card or the transfer chosen and the keyboard focus."""


@dataclass(frozen=True, slots=True)
class ToggleHints:
    """Hints (why a card may not be played) on or off."""


Command = Press | Tap | Digit | Focus | Scroll | ClosePicker | ClearChoice | ToggleHints


def command_for(key: int, at: KeyState) -> Command | None:
    """What ``key`` asks of the table as it is now (``None``: nothing)."""
    if at.overlay == "pause":
        name = PAUSE_KEYS.get(key)
        return Press(name) if name is not None else None
    if at.overlay == "log":
        if key in (LOG_KEY, pygame.K_ESCAPE):
            return Press("log")
        return Scroll(SCROLL_KEYS[key]) if key in SCROLL_KEYS else None
    if key == LOG_KEY and not at.closed:
        return Press("log")
    if at.ending:
        name = END_KEYS.get(key)
        return Press(name) if name is not None else None
    if key == PICKER_KEY and not at.closed:
        return Press("emote")
    digit = key - pygame.K_1 if key in DIGITS else 9 if key == TENTH else None
    if at.picking and (digit is not None or key == pygame.K_ESCAPE):
        if digit is None:
            return ClosePicker()
        return Press("emote:" + at.reactions[digit]) if digit < len(at.reactions) else None
    if key == pygame.K_SPACE and at.focus is None:
        return Press("pass")
    if key in BUTTON_KEYS:
        return Press(BUTTON_KEYS[key])
    if key == HINTS_KEY:
        return ToggleHints()
    if key == pygame.K_ESCAPE:
        return ClearChoice() if at.choosing else Press("menu")
    if key in FOCUS_STEPS and at.hand:
        step = FOCUS_STEPS[key]
        if at.focus is None:
            return Focus(at.hand - 1 if step < 0 else 0)
        return Focus((at.focus + step) % at.hand)
    if key in PLAY_KEYS and at.focus is not None and at.hand:
        return Tap(min(at.focus, at.hand - 1))
    if digit is not None and digit in at.digits:
        return Digit(digit)
    return None
