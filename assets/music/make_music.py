"""Compose and synthesise the window's music (standard library only):
``python assets/music/make_music.py`` writes ``lounge.wav`` beside it.

A calm loop for the evening, not a tune to listen to: four slow chords (A minor, F, C,
G: 4 seconds each, 16 seconds in all) as soft pads, and under them a music-box arpeggio
that walks each chord's notes. Every note is written into the loop modulo its length, so
the last chord's tail sounds over the first and the loop has no seam. The notes' small
differences of timing and loudness come from a seeded generator, so running this again
writes the same bytes. 11025 samples a second, mono, 16 bits (about 350 KB): the pads and
the arpeggio have nothing above 3 kHz that a higher rate would keep.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

Voice = Callable[[float], float]  # a note's sample at t seconds after it starts

RATE = 11025
BEAT = 1.0  # seconds: 60 beats a minute
CHORD_BEATS = 4
# each chord's notes as MIDI numbers: a low root, then the pad's three notes
CHORDS = (
    (45, (57, 60, 64)),  # A minor
    (41, (57, 60, 65)),  # F (A C F)
    (48, (55, 60, 64)),  # C (G C E)
    (43, (55, 59, 62)),  # G (G B D)
)
ARPEGGIO = (0, 1, 2, 1, 2, 0, 1, 2)  # which pad note each eighth plays, an octave up
PEAK = 0.45  # of full scale: quiet beside the sounds of the cards


def _freq(note: int) -> float:
    return 440.0 * 2 ** ((note - 69) / 12)


def _add(loop: list[float], start: float, seconds: float, voice: Voice) -> None:
    """Add ``voice(t)`` for ``seconds`` from ``start`` into ``loop``, wrapping round."""
    first, n = round(start * RATE), len(loop)
    for i in range(int(seconds * RATE)):
        loop[(first + i) % n] += voice(i / RATE)


def _pad(freq: float, length: float, gain: float) -> Voice:
    """A soft pad note: two slightly detuned sines and a quiet octave, a slow swell."""

    def voice(t: float) -> float:
        swell = min(1.0, t / 1.2) * min(1.0, max(0.0, (length - t) / 1.8))
        wave_ = (
            math.sin(2 * math.pi * freq * t)
            + 0.6 * math.sin(2 * math.pi * freq * 1.003 * t)
            + 0.18 * math.sin(4 * math.pi * freq * t)
        )
        return gain * swell * wave_

    return voice


def _pluck(freq: float, gain: float) -> Voice:
    """A music-box note: a quick attack, a long decay, a faint bell-like overtone."""

    def voice(t: float) -> float:
        envelope = min(1.0, t / 0.01) * math.exp(-t / 0.55)
        return (
            gain
            * envelope
            * (math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(2 * math.pi * freq * 3.01 * t))
        )

    return voice


def compose(seed: int = 24) -> list[float]:
    rng = random.Random(seed)
    chord_s = CHORD_BEATS * BEAT
    loop = [0.0] * round(len(CHORDS) * chord_s * RATE)
    for k, (root, pad) in enumerate(CHORDS):
        start = k * chord_s
        length = chord_s + 1.8  # into the next chord: the pads cross-fade
        _add(loop, start, length, _pad(_freq(root), length, 0.16))
        for note in pad:
            _add(loop, start, length, _pad(_freq(note), length, 0.08))
        for step, which in enumerate(ARPEGGIO):
            at = start + step * BEAT / 2 + rng.uniform(-0.012, 0.012)
            gain = 0.07 * rng.uniform(0.8, 1.0) * (1.0 if step % 4 == 0 else 0.75)
            _add(loop, at, 2.0, _pluck(_freq(pad[which] + 12), gain))
    peak = max(abs(s) for s in loop) or 1.0
    return [s * PEAK / peak for s in loop]


def write(path: Path, samples: list[float]) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", round(s * 32767)) for s in samples))


if __name__ == "__main__":
    write(Path(__file__).with_name("lounge.wav"), compose())
