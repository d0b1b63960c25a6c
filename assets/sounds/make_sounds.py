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


def _horn(seconds: float, freq: float, glide: float = 0.0) -> list[float]:
    """A brassy note: odd and even partials that fade in a little, a slow vibrato, and a
    pitch that slides by ``glide`` (a fraction of ``freq``) over the note."""
    out, phase = [], 0.0
    n = int(seconds * RATE)
    for i in range(n):
        t = i / RATE
        f = freq * (1 + glide * t / seconds) * (1 + 0.006 * math.sin(2 * math.pi * 5.5 * t))
        phase += 2 * math.pi * f / RATE
        bright = min(1.0, t / 0.05)
        tone = sum(math.sin(k * phase) / k * (bright if k > 1 else 1.0) for k in range(1, 6))
        gain = min(1.0, t / 0.015) * min(1.0, (n - i) / (0.04 * RATE))
        out.append(tone * gain)
    return out


def sting(rng: random.Random) -> list[float]:
    """Somebody else is the Durak: a short rising fanfare over a brush on the felt."""
    notes = ((0.0, 0.14, 392.0), (0.13, 0.14, 523.3), (0.26, 0.6, 659.3))
    tracks = [(start, _horn(length, freq), 1.0) for start, length, freq in notes]
    tracks.append((0.26, _tone(0.9, 1318.5, 0.25), 0.25))  # a bell over the last note
    tracks.append((0.0, _envelope(_noise(rng, 0.3, 5000), 0.01, 0.08), 0.4))
    return _normalise(_mix(*tracks), 0.5)


def sting_you(rng: random.Random) -> list[float]:
    """You are the Durak: the falling wah-wah of a muted horn, the last note sagging."""
    notes = ((0.0, 0.24, 311.1, 0.0), (0.26, 0.24, 293.7, 0.0), (0.52, 0.24, 277.2, 0.0))
    tracks = [(start, _horn(length, freq, glide), 1.0) for start, length, freq, glide in notes]
    tracks.append((0.78, _horn(0.62, 261.6, -0.06), 1.0))
    tracks.append((0.0, _envelope(_noise(rng, 0.2, 900), 0.01, 0.06), 0.3))
    return _normalise(_mix(*tracks), 0.45)


def cheer(rng: random.Random) -> list[float]:
    """The game's first player out: a quick rising arpeggio of bells and a glitter of
    high noise, brighter and shorter than the end's fanfare."""
    notes = ((0.0, 1046.5), (0.07, 1318.5), (0.14, 1568.0), (0.21, 2093.0))
    tracks = [
        (start, _tone(0.6, freq, 0.16), 1.0 - k * 0.1) for k, (start, freq) in enumerate(notes)
    ]
    tracks += [(start, _tone(0.5, freq * 2.01, 0.08), 0.2) for start, freq in notes]
    tracks.append((0.18, _envelope(_noise(rng, 0.45, 9000), 0.02, 0.12), 0.25))
    return _normalise(_mix(*tracks), 0.4)


SOUNDS = (deal, play, beat, take, turn, sting, sting_you, cheer)


def main(folder: Path | None = None) -> None:
    """Write every sound into ``folder`` (this script's own folder by default)."""
    folder = folder or Path(__file__).resolve().parent
    for seed, make in enumerate(SOUNDS):
        _write(folder / f"{make.__name__}.wav", make(random.Random(seed)))


if __name__ == "__main__":
    main()
