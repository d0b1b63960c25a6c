"""The window's frames while the coach reviews a game beside it (a worker process): the
review screen of a heads-up game at 1280x720 with the dummy driver, one frame after the
other until the review is done. Prints the frame times' p50/p95/max in ms and the
review's duration; last line ``frame_p95_ms= frame_max_ms= review_s=``.

    python tests/benchmarks/review_frames.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def main() -> None:
    from client.app import App
    from client.net.gamefile import GameFile, steps_from_log
    from client.screens.review import ReviewScene
    from client.settings import Settings
    from engine import GameLog, Rules
    from engine.ai import next_actor
    from engine.ai.hard import policy_action

    sys.setswitchinterval(0.002)  # as the window sets it (client.app.run)
    log = GameLog(Rules(players=2), 11)
    state = log.start()
    rng = random.Random(11)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        odd = rng.random() < 0.1
        action = legal[rng.randrange(len(legal))] if odd else policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    steps = steps_from_log(log, 0)
    game = GameFile(
        log.rules, 0, ("You", "Boris"), steps, state.result, "2026-12-01T10:00:00Z", "computer", log
    )
    folder = Path(tempfile.mkdtemp())
    app = App(Settings(), None, size=(1280, 720), sound=False, games=folder)
    app.show("review", game=game)
    scene = app.stack[-1]
    assert isinstance(scene, ReviewScene) and scene.job is not None
    frames: list[float] = []
    started = time.perf_counter()
    while not scene.job.done:
        t = time.perf_counter()
        app.step(1 / 60)
        frames.append((time.perf_counter() - t) * 1000)
        time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - t)))  # as the 60 fps clock waits
    took = time.perf_counter() - started
    first, frames = frames[0], sorted(frames[1:])  # the first draws every text and the felt
    p95 = frames[int(len(frames) * 0.95)]
    print(
        f"{len(frames) + 1} frames during a review of {scene.job.total} decisions in {took:.1f} s"
    )
    print(f"first frame {first:.1f} ms (not counted below: it renders every text once)")
    print(
        f"frame p50 {statistics.median(frames):.1f} ms, p95 {p95:.1f} ms, max {frames[-1]:.1f} ms"
    )
    print(f"frame_p95_ms={p95:.1f} frame_max_ms={frames[-1]:.1f} review_s={took:.1f}")


if __name__ == "__main__":
    main()
