"""The table's keys: what each key asks of the table in each situation (a pure function of
the key and what the table shows; the screen carries it out, see test_table)."""

from __future__ import annotations

import pygame
import pytest

from client.screens.table.keymap import (
    ClearChoice,
    ClosePicker,
    Digit,
    Focus,
    KeyState,
    Press,
    Scroll,
    Tap,
    ToggleHints,
    command_for,
)

REACTIONS = ("nice", "oops", "hurry", "well_played", "ha")
PLAYING = KeyState(reactions=REACTIONS, hand=6, digits=frozenset(range(6)))


@pytest.mark.parametrize(
    ("key", "name"),
    [
        (pygame.K_t, "take"),
        (pygame.K_p, "pass"),
        (pygame.K_b, "pass"),
        (pygame.K_r, "transfer"),
        (pygame.K_s, "show"),
        (pygame.K_m, "sound"),
        (pygame.K_e, "emote"),
        (pygame.K_SPACE, "pass"),  # with no card focused
        (pygame.K_ESCAPE, "menu"),  # with nothing chosen
    ],
)
def test_a_buttons_key_presses_it(key: int, name: str) -> None:
    assert command_for(key, PLAYING) == Press(name)


def test_at_the_end_enter_r_and_space_ask_for_a_rematch_and_esc_leaves() -> None:
    end = KeyState(ending=True, hand=3, focus=1)
    for key in (pygame.K_RETURN, pygame.K_r, pygame.K_SPACE):
        assert command_for(key, end) == Press("rematch")
    assert command_for(pygame.K_ESCAPE, end) == Press("menu")
    for key in (pygame.K_t, pygame.K_1, pygame.K_e, pygame.K_RIGHT, pygame.K_h):
        assert command_for(key, end) is None  # the game's keys rest


def test_the_picker_takes_the_digits_and_esc_while_open() -> None:
    picking = KeyState(picking=True, reactions=REACTIONS, hand=6, focus=2, choosing=True)
    assert command_for(pygame.K_1, picking) == Press("emote:nice")
    assert command_for(pygame.K_4, picking) == Press("emote:well_played")
    assert command_for(pygame.K_6, picking) is None  # no sixth reaction: no sixth card either
    assert command_for(pygame.K_ESCAPE, picking) == ClosePicker()  # and keeps the choice
    assert command_for(pygame.K_e, picking) == Press("emote")  # E closes it too
    assert command_for(pygame.K_t, picking) == Press("take")  # other keys work on


def test_e_opens_no_picker_once_the_session_has_ended() -> None:
    assert command_for(pygame.K_e, KeyState(closed=True, reactions=REACTIONS)) is None


def test_esc_first_forgets_the_choice_then_leaves() -> None:
    assert command_for(pygame.K_ESCAPE, KeyState(hand=6, choosing=True)) == ClearChoice()
    assert command_for(pygame.K_ESCAPE, KeyState(hand=6)) == Press("menu")


def test_the_arrows_move_the_focus_around_the_hand() -> None:
    assert command_for(pygame.K_RIGHT, PLAYING) == Focus(0)  # from no focus: the first
    assert command_for(pygame.K_LEFT, PLAYING) == Focus(5)  # ... or the last
    at_end = KeyState(hand=6, focus=5, choosing=True)
    assert command_for(pygame.K_RIGHT, at_end) == Focus(0)  # round again
    assert command_for(pygame.K_LEFT, KeyState(hand=6, focus=0)) == Focus(5)
    assert command_for(pygame.K_LEFT, KeyState(hand=6, focus=3)) == Focus(2)
    assert command_for(pygame.K_RIGHT, KeyState(hand=0)) is None  # an empty hand


def test_enter_up_and_space_play_the_focused_card() -> None:
    focused = KeyState(hand=6, focus=2, choosing=True)
    for key in (pygame.K_RETURN, pygame.K_UP, pygame.K_SPACE):
        assert command_for(key, focused) == Tap(2)
    # the hand got shorter since the focus was set: its last card
    assert command_for(pygame.K_RETURN, KeyState(hand=2, focus=4)) == Tap(1)
    assert command_for(pygame.K_RETURN, PLAYING) is None  # nothing focused
    assert command_for(pygame.K_UP, PLAYING) is None


def test_the_digits_play_the_cards_they_name() -> None:
    assert command_for(pygame.K_1, PLAYING) == Digit(0)
    assert command_for(pygame.K_6, PLAYING) == Digit(5)
    assert command_for(pygame.K_7, PLAYING) is None  # six cards
    twelve = KeyState(hand=12, digits=frozenset(range(10)))
    assert command_for(pygame.K_9, twelve) == Digit(8)  # 9 digits, no more


def test_a_digit_whose_card_was_played_this_bout_names_nothing() -> None:
    played = KeyState(hand=5, digits=frozenset({1, 2, 3, 4, 5}))
    assert command_for(pygame.K_1, played) is None
    assert command_for(pygame.K_6, played) == Digit(5)


def test_h_switches_the_hints_and_other_keys_do_nothing() -> None:
    assert command_for(pygame.K_h, PLAYING) == ToggleHints()
    for key in (pygame.K_a, pygame.K_0, pygame.K_DOWN, pygame.K_F1, pygame.K_TAB):
        assert command_for(key, PLAYING) is None


def test_zero_plays_the_tenth_card_and_the_arrows_reach_every_card() -> None:
    twelve = KeyState(reactions=REACTIONS, hand=12, digits=frozenset(range(10)))
    assert command_for(pygame.K_0, twelve) == Digit(9)
    assert command_for(pygame.K_0, PLAYING) is None  # six cards: no tenth
    at = KeyState(hand=12, focus=10, choosing=True)
    assert command_for(pygame.K_RIGHT, at) == Focus(11)
    assert command_for(pygame.K_RETURN, KeyState(hand=12, focus=11)) == Tap(11)


def test_while_the_pause_asks_esc_resumes_and_only_its_keys_count() -> None:
    paused = KeyState(overlay="pause", reactions=REACTIONS, hand=6)
    assert command_for(pygame.K_ESCAPE, paused) == Press("resume")
    assert command_for(pygame.K_RETURN, paused) == Press("resume")
    assert command_for(pygame.K_q, paused) == Press("leave")
    for other in (pygame.K_t, pygame.K_1, pygame.K_l, pygame.K_e):
        assert command_for(other, paused) is None


def test_l_opens_the_log_and_while_it_shows_the_arrows_scroll_it() -> None:
    assert command_for(pygame.K_l, PLAYING) == Press("log")
    log = KeyState(overlay="log", hand=6)
    assert command_for(pygame.K_l, log) == Press("log")
    assert command_for(pygame.K_ESCAPE, log) == Press("log")
    assert command_for(pygame.K_UP, log) == Scroll(-1)
    assert command_for(pygame.K_PAGEDOWN, log) == Scroll(8)
    assert command_for(pygame.K_t, log) is None
