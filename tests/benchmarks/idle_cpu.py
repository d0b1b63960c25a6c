"""What the game window costs while nothing moves (run by hand, not by CI).

    python tests/benchmarks/idle_cpu.py [--seconds S] [--size WxH] [--video xvfb|dummy]

Starts the window in a process of its own, twice: once on its start screen, once at a
game against one Normal AI (a real host, as ``durak`` plays it) waiting for the player's
move. Each time the window's real loop (``App.run``) runs for S seconds (10) after it has
settled, and the process's CPU time over them (``time.process_time``, measured inside it;
the AI's worker processes are idle then) is printed as a percentage of one core. Under
Xvfb when it is installed (as a player's desktop: an X11 window), else with SDL's dummy
video driver. The last line is exactly ``idle_cpu_pct=<number>``, the larger of the two.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTLE = 2.0  # seconds the window runs before it is measured


def child(mode: str, seconds: float, size: tuple[int, int]) -> None:
    """In the window's process: open it, reach ``mode``, then measure ``App.run``."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from client.app import App
    from client.screens.table.screen import TableScene
    from client.settings import Settings
    from engine import Rules

    settings = Settings(opponents=1)
    app = App(settings, None, size=size, sound=False)
    app.step(0.0)
    if mode == "table":
        app.start_game(Rules(players=2))
        table = app.stack[-1]
        assert isinstance(table, TableScene)
        clock = pygame.time.Clock()
        deadline = time.monotonic() + 60
        while not (
            table.idle
            and table.view is not None
            and table.view.legal
            and table.board is not None
            and not table.board.busy
        ):
            app.step(clock.tick(60) / 1000)
            if time.monotonic() > deadline:
                raise SystemExit("the table never waited for the player's move")

    measured: list[float] = []

    def measure_then_quit() -> None:
        """Settle, then read the process's CPU time over ``seconds``; then close the window."""
        time.sleep(SETTLE)
        cpu, wall, frames = time.process_time(), time.perf_counter(), app.frames
        time.sleep(seconds)
        measured[:] = [time.process_time() - cpu, time.perf_counter() - wall, app.frames - frames]
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    threading.Thread(target=measure_then_quit, daemon=True).start()
    app.run()
    cpu, wall, frames = measured
    print(f"{mode}: frames={frames:.0f} cpu_s={cpu:.3f} wall_s={wall:.2f}")
    print(f"cpu_pct={100 * cpu / wall:.2f}", flush=True)


def measure(mode: str, seconds: float, size: str, video: str) -> float:
    command = [sys.executable, __file__, "--child", mode, "--seconds", str(seconds)]
    command += ["--size", size]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as home:
        env["DURAK_SETTINGS"] = str(Path(home) / "settings.json")
        if video == "xvfb":
            env.pop("SDL_VIDEODRIVER", None)
            w, _, h = size.partition("x")
            command = ["xvfb-run", "-a", "-s", f"-screen 0 {w}x{h}x24", *command]
        else:
            env["SDL_VIDEODRIVER"] = "dummy"
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=seconds + 120
        )
    if done.returncode != 0:
        raise SystemExit(f"{mode}: the window failed:\n{done.stdout}\n{done.stderr}")
    lines = done.stdout.strip().splitlines()
    print(lines[-2])
    return float(lines[-1].partition("=")[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--video", choices=["xvfb", "dummy"], default=None)
    parser.add_argument("--child", choices=["start", "table"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    w, _, h = args.size.partition("x")
    if args.child:
        child(args.child, args.seconds, (int(w), int(h)))
        return
    video = args.video or ("xvfb" if shutil.which("xvfb-run") else "dummy")
    print(f"video={video} size={args.size} seconds={args.seconds}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load is not None:
        print(f"load={load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    results = {mode: measure(mode, args.seconds, args.size, video) for mode in ("start", "table")}
    for mode, pct in results.items():
        print(f"{mode}_cpu_pct={pct:.2f}")
    print(f"idle_cpu_pct={max(results.values()):.2f}")


if __name__ == "__main__":
    main()
