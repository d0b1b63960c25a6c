"""Tweens: a value moving from a start to an end over a duration, through an easing curve.

Time is in seconds and only advances through ``update(dt)``, so a test drives a tween with
a synthetic ``dt`` and never waits. Values are floats or equal-length tuples of floats.
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = [
    "EASINGS",
    "Easing",
    "Tween",
    "ease_in_out_cubic",
    "ease_out_back",
    "ease_out_cubic",
    "lerp",
    "linear",
]

Easing = Callable[[float], float]
Value = float | tuple[float, ...]


def linear(t: float) -> float:
    return t


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in_out_cubic(t: float) -> float:
    return 4 * t**3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    """Overshoots a little and settles: for cards landing."""
    c1 = 1.3
    return 1 + (c1 + 1) * (t - 1) ** 3 + c1 * (t - 1) ** 2


def ease_out_sine(t: float) -> float:
    return math.sin(t * math.pi / 2)


EASINGS: dict[str, Easing] = {
    "linear": linear,
    "out_cubic": ease_out_cubic,
    "in_out_cubic": ease_in_out_cubic,
    "out_back": ease_out_back,
    "out_sine": ease_out_sine,
}


def lerp(a: Value, b: Value, t: float) -> Value:
    if isinstance(a, tuple):
        assert isinstance(b, tuple)
        return tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))
    assert not isinstance(b, tuple)
    return a + (b - a) * t


class Tween:
    """``start`` to ``end`` in ``duration`` seconds after ``delay`` seconds, eased."""

    __slots__ = ("delay", "duration", "ease", "elapsed", "end", "start")

    def __init__(
        self,
        start: Value,
        end: Value,
        duration: float,
        ease: Easing = ease_out_cubic,
        delay: float = 0.0,
    ) -> None:
        self.start = start
        self.end = end
        self.duration = max(0.0, duration)
        self.ease = ease
        self.delay = max(0.0, delay)
        self.elapsed = 0.0

    def update(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def progress(self) -> float:
        """0 until the delay is over, then up to 1 (linear time, before easing)."""
        t = self.elapsed - self.delay
        if self.duration <= 0:
            return 1.0 if t >= 0 else 0.0
        if t <= 0:
            return 0.0
        if t >= self.duration:
            return 1.0
        return t / self.duration

    @property
    def started(self) -> bool:
        return self.elapsed > self.delay

    @property
    def done(self) -> bool:
        return self.progress >= 1.0

    @property
    def remaining(self) -> float:
        return max(0.0, self.delay + self.duration - self.elapsed)

    @property
    def value(self) -> Value:
        p = self.progress
        if p >= 1.0:
            return self.end
        return lerp(self.start, self.end, self.ease(p))
