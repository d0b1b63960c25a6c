"""A small progress bar for long command-line runs, written to stderr.

It stays silent for the first ``delay`` seconds (a quick run prints nothing) and when
stderr is not a terminal, so logs and piped output stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(
        self, total: int, label: str = "", *, delay: float = 0.5, stream: TextIO | None = None
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.delay = delay
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty()
        self.started = time.perf_counter()
        self.last_draw = 0.0
        self.drawn = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.started < self.delay or (now - self.last_draw < 0.1 and done < self.total):
            return
        self.last_draw = now
        width = 30
        filled = width * done // self.total
        elapsed = now - self.started
        eta = elapsed / done * (self.total - done) if done else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done}/{self.total} {elapsed:5.1f}s eta {eta:5.1f}s"
        )
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
