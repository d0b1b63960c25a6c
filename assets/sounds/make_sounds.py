"""Synthesise the game's sounds (standard library only): ``python assets/sounds/make_sounds.py``.

Every sound is filtered noise and a few decaying sine partials, seeded, so running this
again writes the same bytes. The .wav files beside this script are its output.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050


def _noise(rng: random.Random, seconds: float, cutoff: float) -> list[float]:
    """White noise through a one-pole low-pass filter (cutoff in Hz)."""
    alpha = 1 - math.exp(-2 * math.pi * cutoff / RATE)
    out, level = [], 0.0
    for _ in range(int(seconds * RATE)):
        level += alpha * (rng.uniform(-1, 1) - level)
        out.append(level)
    return out


def _envelope(samples: list[float], attack: float, decay: float) -> list[float]:
    out = []
    for i, s in enumerate(samples):
        t = i / RATE
        gain = t / attack if t < attack else math.exp(-(t - attack) / decay)
        out.append(s * gain)
    return out


def _tone(seconds: float, freq: float, decay: float) -> list[float]:
    return [
        math.sin(2 * math.pi * freq * i / RATE) * math.exp(-i / RATE / decay)
        for i in range(int(seconds * RATE))
    ]


def _mix(*tracks: tuple[float, list[float], float]) -> list[float]:
    """(start seconds, samples, gain) ... summed."""
    length = max(int(start * RATE) + len(s) for start, s, _ in tracks)
    out = [0.0] * length
    for start, samples, gain in tracks:
        offset = int(start * RATE)
        for i, s in enumerate(samples):
            out[offset + i] += s * gain
    return out


def _normalise(samples: list[float], peak: float) -> list[float]:
    top = max(abs(s) for s in samples) or 1.0
    return [s * peak / top for s in samples]


def _write(path: Path, samples: list[float]) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        frames = b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32767)) for s in samples)
        wav.writeframes(frames)


def deal(rng: random.Random) -> list[float]:
    """A card sliding off the deck: a soft, short swish."""
    swish = _envelope(_noise(rng, 0.12, 3500), 0.03, 0.025)
    return _normalise(swish, 0.45)


def play(rng: random.Random) -> list[float]:
    """A card put down on felt: a dull slap with a low thump."""
    slap = _envelope(_noise(rng, 0.10, 2200), 0.004, 0.018)
    thump = _tone(0.10, 140, 0.025)
    return _normalise(_mix((0, slap, 1.0), (0, thump, 0.5)), 0.6)


def beat(rng: random.Random) -> list[float]:
    """A card slapped onto another: brighter and snappier than ``play``."""
    snap = _envelope(_noise(rng, 0.09, 6000), 0.002, 0.012)
    body = _envelope(_noise(rng, 0.12, 1500), 0.004, 0.03)
    return _normalise(
        _mix((0, snap, 1.0), (0.004, body, 0.6), (0, _tone(0.08, 220, 0.02), 0.3)), 0.7
    )


def take(rng: random.Random) -> list[float]:
    """Cards swept together: a few overlapping swishes."""
    tracks = [
        (start, _envelope(_noise(rng, 0.14, 2800), 0.02, 0.03), 1.0 - k * 0.15)
        for k, start in enumerate((0.0, 0.05, 0.11, 0.16))
    ]
    return _normalise(_mix(*tracks), 0.55)


def turn(rng: random.Random) -> list[float]:
    """Your turn: a soft two-note chime."""
    first = _tone(0.5, 660, 0.12)
    second = _tone(0.5, 990, 0.15)
    return _normalise(_mix((0, first, 1.0), (0.09, second, 0.8)), 0.25)


SOUNDS = (deal, play, beat, take, turn)


def main(folder: Path | None = None) -> None:
    """Write every sound into ``folder`` (this script's own folder by default)."""
    folder = folder or Path(__file__).resolve().parent
    for seed, make in enumerate(SOUNDS):
        _write(folder / f"{make.__name__}.wav", make(random.Random(seed)))


if __name__ == "__main__":
    main()
