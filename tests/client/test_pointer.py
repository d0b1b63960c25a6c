"""The pointer model: mouse and fingers become one stream of Pointer events."""

from __future__ import annotations

import pygame
import pytest

from client.ui.pointer import MOUSE, InputMapper, Key, Pointer


def mouse(
    kind: int, pos: tuple[int, int], button: int = 1, touch: bool = False
) -> pygame.event.Event:
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0), touch=touch)
    return pygame.event.Event(kind, pos=pos, button=button, touch=touch)


def finger(kind: int, x: float, y: float, finger_id: int = 1) -> pygame.event.Event:
    return pygame.event.Event(
        kind, x=x, y=y, dx=0.0, dy=0.0, finger_id=finger_id, touch_id=0, pressure=1.0
    )


def test_a_click_is_down_then_up() -> None:
    mapper = InputMapper((800, 600))
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (10, 20))) == Pointer("down", (10.0, 20.0))
    assert mapper.map(mouse(pygame.MOUSEMOTION, (15, 25))) == Pointer("move", (15.0, 25.0))
    assert mapper.map(mouse(pygame.MOUSEBUTTONUP, (15, 25))) == Pointer("up", (15.0, 25.0))


def test_other_mouse_buttons_are_ignored() -> None:
    mapper = InputMapper((800, 600))
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (10, 20), button=2)) is None
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (10, 20), button=4)) is None
    assert mapper.map(mouse(pygame.MOUSEBUTTONUP, (10, 20), button=3)) is None


def test_a_right_click_steps_back_where_it_is() -> None:
    mapper = InputMapper((800, 600))
    step = mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (10, 20), button=3))
    assert step == Pointer("step", (10.0, 20.0), MOUSE, -1)
    assert mapper.active is None  # no pointer is held down by it


@pytest.mark.parametrize(("y", "flipped", "step"), [(1, False, 1), (-2, False, -1), (1, True, -1)])
def test_the_wheel_steps_where_the_mouse_was_last_seen(y: int, flipped: bool, step: int) -> None:
    mapper = InputMapper((800, 600))
    mapper.map(mouse(pygame.MOUSEMOTION, (300, 40)))
    wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=flipped, touch=False)
    assert mapper.map(wheel) == Pointer("step", (300.0, 40.0), MOUSE, step)


def test_fingers_are_scaled_to_the_window() -> None:
    mapper = InputMapper((800, 600))
    down = mapper.map(finger(pygame.FINGERDOWN, 0.5, 0.25))
    assert down == Pointer("down", (400.0, 150.0), 1)
    assert mapper.map(finger(pygame.FINGERMOTION, 0.75, 0.5)) == Pointer("move", (600.0, 300.0), 1)
    assert mapper.map(finger(pygame.FINGERUP, 1.0, 1.0)) == Pointer("up", (800.0, 600.0), 1)


def test_the_mouse_events_of_a_touch_are_dropped() -> None:
    mapper = InputMapper((800, 600))
    assert mapper.map(finger(pygame.FINGERDOWN, 0.5, 0.5)) is not None
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (400, 300), touch=True)) is None
    assert mapper.map(mouse(pygame.MOUSEMOTION, (400, 300), touch=True)) is None
    assert mapper.map(mouse(pygame.MOUSEBUTTONUP, (400, 300), touch=True)) is None
    assert mapper.map(finger(pygame.FINGERUP, 0.5, 0.5)) is not None


def test_a_second_finger_is_ignored_while_the_first_is_down() -> None:
    mapper = InputMapper((100, 100))
    assert mapper.map(finger(pygame.FINGERDOWN, 0.1, 0.1, finger_id=1)) is not None
    assert mapper.map(finger(pygame.FINGERDOWN, 0.9, 0.9, finger_id=2)) is None
    assert mapper.map(finger(pygame.FINGERMOTION, 0.9, 0.9, finger_id=2)) is None
    assert mapper.map(finger(pygame.FINGERUP, 0.9, 0.9, finger_id=2)) is None
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (5, 5))) is None
    assert mapper.map(finger(pygame.FINGERUP, 0.1, 0.1, finger_id=1)) == Pointer(
        "up", (10.0, 10.0), 1
    )
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (5, 5))) == Pointer("down", (5.0, 5.0), MOUSE)


def test_an_up_without_a_down_is_ignored() -> None:
    mapper = InputMapper((100, 100))
    assert mapper.map(mouse(pygame.MOUSEBUTTONUP, (5, 5))) is None


def test_keys_pass_through() -> None:
    mapper = InputMapper((100, 100))
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t")
    assert mapper.map(event) == Key(pygame.K_t, 0, "t")


@pytest.mark.parametrize("kind", [pygame.KEYUP, pygame.WINDOWFOCUSLOST, pygame.MOUSEWHEEL])
def test_other_events_map_to_nothing(kind: int) -> None:
    assert InputMapper((100, 100)).map(pygame.event.Event(kind, key=0, x=0, y=0)) is None


def _swipe(mapper: InputMapper, now: list[float], amounts: list[float]) -> list[int]:
    """The steps a stream of smooth scroll events 50 ms apart makes."""
    steps = []
    for amount in amounts:
        now[0] += 0.05
        event = pygame.event.Event(
            pygame.MOUSEWHEEL, x=0, y=round(amount), precise_y=amount, flipped=False
        )
        mapped = mapper.map(event)
        steps.append(0 if mapped is None else mapped.step)
    return steps


def test_a_trackpad_swipe_steps_once_and_the_next_swipe_again() -> None:
    now = [0.0]
    mapper = InputMapper((800, 600), clock=lambda: now[0])
    swipe = [0.4, 0.7, 1.6, 2.2, 1.4, 0.9, 0.5, 0.2]  # a swipe and its momentum
    assert _swipe(mapper, now, swipe) == [0, 1, 0, 0, 0, 0, 0, 0]
    now[0] += 0.5  # the finger rests, then swipes the other way
    assert [s for s in _swipe(mapper, now, [-0.6, -1.3, -0.8]) if s] == [-1]


def test_notches_of_a_wheel_each_step_however_fast() -> None:
    now = [0.0]
    mapper = InputMapper((800, 600), clock=lambda: now[0])
    assert _swipe(mapper, now, [1.0, 1.0, 1.0, -1.0]) == [1, 1, 1, -1]


@pytest.mark.parametrize(
    ("platform", "key", "mod", "full"),
    [
        ("win32", pygame.K_F11, 0, True),
        ("linux", pygame.K_F11, 0, True),
        ("linux", pygame.K_f, pygame.KMOD_LMETA | pygame.KMOD_LCTRL, False),
        ("darwin", pygame.K_f, pygame.KMOD_LMETA | pygame.KMOD_LCTRL, True),
        ("darwin", pygame.K_f, pygame.KMOD_RMETA | pygame.KMOD_LCTRL, True),
        ("darwin", pygame.K_f, pygame.KMOD_LMETA, False),
        ("darwin", pygame.K_f, 0, False),
    ],
)
def test_full_screen_is_f11_and_cmd_ctrl_f_on_macos(
    platform: str, key: int, mod: int, full: bool
) -> None:
    mapper = InputMapper((800, 600), platform=platform)
    event = pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="")
    assert mapper.is_fullscreen_key(event) is full


def test_mouse_points_become_pixels_on_a_high_dpi_window() -> None:
    mapper = InputMapper((2560, 1440), scale=2.0)  # a Retina window of 1280x720 points
    assert mapper.map(mouse(pygame.MOUSEBUTTONDOWN, (640, 360))) == Pointer("down", (1280.0, 720.0))
    assert mapper.map(mouse(pygame.MOUSEBUTTONUP, (641, 360))) == Pointer("up", (1282.0, 720.0))
    assert mapper.map(finger(pygame.FINGERDOWN, 0.5, 0.5)) == Pointer("down", (1280.0, 720.0), 1)
