"""Tweens and card flights, driven by a synthetic clock (no waiting, no timing)."""

from __future__ import annotations

import pytest

from client.screens.table.board import Sprite
from client.screens.table.layout import Pose
from client.ui.tween import EASINGS, Tween, ease_out_back, lerp


@pytest.mark.parametrize("name", sorted(EASINGS))
def test_easings_start_at_zero_and_end_at_one(name: str) -> None:
    ease = EASINGS[name]
    assert ease(0.0) == pytest.approx(0.0, abs=1e-9)
    assert ease(1.0) == pytest.approx(1.0, abs=1e-9)


def test_ease_out_back_overshoots_then_settles() -> None:
    assert max(ease_out_back(t / 100) for t in range(101)) > 1.0


def test_a_tween_moves_with_the_time_it_is_given() -> None:
    tween = Tween(0.0, 10.0, duration=2.0, ease=EASINGS["linear"])
    assert tween.value == 0.0 and not tween.done
    tween.update(0.5)
    assert tween.value == pytest.approx(2.5)
    tween.update(1.0)
    assert tween.value == pytest.approx(7.5)
    assert tween.remaining == pytest.approx(0.5)
    tween.update(5.0)
    assert tween.done and tween.value == 10.0


def test_a_delayed_tween_waits_then_runs() -> None:
    tween = Tween((0.0, 0.0), (4.0, 8.0), duration=1.0, ease=EASINGS["linear"], delay=0.5)
    tween.update(0.4)
    assert not tween.started and tween.value == (0.0, 0.0)
    tween.update(0.6)
    assert tween.started and tween.value == pytest.approx((2.0, 4.0))


def test_a_zero_length_tween_is_done_at_once() -> None:
    tween = Tween(1.0, 3.0, duration=0.0)
    tween.update(0.0)
    assert tween.done and tween.value == 3.0


def test_lerp_of_tuples() -> None:
    assert lerp((0.0, 10.0), (10.0, 20.0), 0.5) == (5.0, 15.0)


def test_a_sprite_flies_to_its_pose_and_turns_face_up() -> None:
    sprite = Sprite(None, Pose(0, 0, 0, 1.0), face=0.0)
    sprite.fly(Pose(100, 50, 90, 0.5), 1.0, duration=0.5)
    landed = [sprite.update(0.1) for _ in range(5)]
    assert landed == [False, False, False, False, True]
    assert sprite.pose == Pose(100, 50, 90, 0.5) and sprite.face == 1.0
    assert not sprite.moving


def test_a_retargeted_sprite_keeps_its_pending_start() -> None:
    sprite = Sprite(None, Pose(0, 0), face=0.0)
    sprite.fly(Pose(100, 0), 1.0, duration=0.2, delay=0.3)
    sprite.update(0.1)
    sprite.fly(Pose(0, 100), 1.0, duration=0.2)
    assert sprite.motion is not None and sprite.motion.delay == pytest.approx(0.2)
    sprite.update(0.15)
    assert sprite.pose == Pose(0, 0)  # still waiting: nothing jumped


def test_a_sprite_turns_the_short_way_round() -> None:
    sprite = Sprite(None, Pose(0, 0, 170), face=1.0)
    sprite.fly(Pose(0, 0, -170), 1.0, duration=1.0)
    sprite.update(0.5)
    assert abs(sprite.pose.angle) > 170  # via 180, not through 0
