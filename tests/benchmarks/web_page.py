"""The phones' page in headless Chromium as a phone (run by hand, not by CI).

A host in this process on 127.0.0.1 (six seats: the phone and five Easy AIs, the 36-card
deck) serves the page at its web door; Chromium loads it under a LAN name at 390 x 844
CSS pixels, twice the pixels, with touch (tests/web/browser.py). Three figures, with
the issue's targets:

- ``page_kb_gzip``: every file the page loads from the door, each gzip-compressed (level
  9), summed (<= 150 KB); ``page_kb`` uncompressed.
- ``table_ms``: from asking for the page to the table drawn (its screen on and a card
  face shown), for a guest whose seat's token the page kept (the median of ``--loads``
  loads; <= 1000 ms). Measured in the page against its navigation start.
- ``frame_work_p95_ms``: the page's own work per animation frame while cards move, the
  phone playing by taps, under 4x CPU throttling (a mid-range phone; <= 16.7 ms, one
  frame of a 60 Hz screen), for ``--seconds`` of play (or to the game's end): from the
  frame's start to its main thread done with it (its scripts, style, layout and paint,
  and whatever task held the frame back). ``frame_script_p95_ms`` is the part of it in
  the page's own frame callbacks (the tweens).
- ``dropped_frames``: the frames the screen's clock ticked without one from the page,
  while cards moved (a gap of two ticks is one dropped), and ``dropped_pct`` of the
  ticks; ``long_frames`` those the browser itself reports over 50 ms.
- ``frame_gap_p95_ms``: the time between two animation frames while cards move, and
  ``idle_gap_p95_ms`` with nothing moving and no throttling: the 60 Hz clock itself
  (16.7 ms) when no frame is dropped, so it says only whether frames were dropped, not by
  how much the page's work falls short of the frame or fits in it.

    python tests/benchmarks/web_page.py [--loads N] [--seconds S] [--throttle R]

The last line is ``page_kb_gzip=... table_ms=... frame_work_p95_ms=... ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from browser import LAN_NAME, Browser, find_chromium  # noqa: E402
from phone import Phone, choose  # noqa: E402
from web_tables import web_table  # noqa: E402

# Installed before the page's own script on every load (``window.bench``): the moment the
# table is drawn; and for each animation frame, from its start (the time requestAnimationFrame
# hands its callbacks) to the page's main thread done with it (a message posted in the frame
# runs once its scripts, style, layout and paint have run: ``work``), the time in the page's
# own frame callbacks (``script``), and the time since the last frame (``gap``), kept apart
# while cards move and while nothing does. ``long`` counts the frames the browser reports
# as long (Long Animation Frames: over 50 ms).
PROBE = """
window.bench = {drawn: null, moving: [], still: [], long: 0};
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  let script = 0;
  window.requestAnimationFrame = (callback) => raf((now) => {
    const start = performance.now();
    try { callback(now); } finally { script += performance.now() - start; }
  });
  const after = new MessageChannel();
  const pending = [];
  after.port1.onmessage = () => {
    const [now, gap, list] = pending.shift();
    list.push({gap, work: performance.now() - now, script});
    script = 0;
  };
  let last = null;
  const frame = (now) => {
    const t = window.durakTest;
    if (bench.drawn === null && t && t.screen === "table" && document.querySelector(".card.face"))
      bench.drawn = now;
    if (last !== null && t) {
      pending.push([now, now - last, t.idle ? bench.still : bench.moving]);
      after.port2.postMessage(null);
    }
    last = now;
    raf(frame);
  };
  raf(frame);
  new PerformanceObserver((found) => {
    if (window.durakTest && !durakTest.idle) bench.long += found.getEntries().length;
  }).observe({type: "long-animation-frame"});
})();
"""
VSYNC_MS = 1000 / 60  # headless Chromium's frame clock (idle_gap_p95_ms shows it)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def frame_figures(frames: list[dict[str, float]]) -> dict[str, float]:
    """The figures of the frames measured while cards moved (``bench.moving``)."""
    work = [f["work"] for f in frames]
    dropped = sum(max(0, round(f["gap"] / VSYNC_MS) - 1) for f in frames)
    return {
        "frame_work_p50_ms": round(statistics.median(work), 1),
        "frame_work_p95_ms": round(p95(work), 1),
        "frame_work_max_ms": round(max(work), 1),
        "frame_script_p95_ms": round(p95([f["script"] for f in frames]), 2),
        "frames": len(frames),
        "dropped_frames": dropped,
        "dropped_pct": round(100 * dropped / (len(frames) + dropped), 1),
        "frame_gap_p95_ms": round(p95([f["gap"] for f in frames]), 1),
    }


def compressed_sizes(urls: set[str], port: int) -> tuple[int, int]:
    """The files' sizes as they are and gzip-compressed, fetched again from the door on
    127.0.0.1 (their bodies exactly, without the browser's caching)."""
    plain = packed = 0
    for url in sorted(urls):
        path = url.split(f":{port}", 1)[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
            body = response.read()
        plain += len(body)
        packed += len(gzip.compress(body, 9))
    return plain, packed


async def measure(loads: int, seconds: float, throttle: float) -> dict[str, float]:
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no Chromium (apt-get install chromium, or set DURAK_CHROMIUM)")
    async with (
        web_table(seats=6, ai=("easy",) * 5, hold=60) as table,
        Browser.launch(chromium) as browser,
    ):
        page = await browser.new_page()
        await page.send("Page.addScriptToEvaluateOnNewDocument", source=PROBE)
        responses = page.listen("Network.responseReceived")
        phone = Phone(page, table.url)
        await phone.join("Anna")
        port = table.host.web_port
        assert port is not None
        urls = {
            r["response"]["url"]
            for r in responses
            if r["response"]["url"].startswith(f"http://{LAN_NAME}:{port}/")
            and not r["response"]["url"].endswith("/door.json")
        }
        plain, packed = await asyncio.to_thread(compressed_sizes, urls, port)  # the door is here
        await phone.start()
        await phone.wait("t.idle && t.hand.length")  # dealt

        drawn = []
        for _ in range(loads):
            await page.goto(table.url)
            drawn.append(await page.wait_for("window.bench && bench.drawn", 10))
        await phone.wait("t.screen === 'table' && t.idle")
        await page.evaluate("new Promise((done) => setTimeout(done, 1000))")
        still = await page.evaluate("bench.still")

        await page.throttle(throttle)
        await page.evaluate("bench.moving = []; bench.long = 0")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            state = await phone.wait(
                "t.ended || (t.screen === 'table' && t.idle && t.legal.length)", 60
            )
            if state.ended:
                break
            await phone.play(choose(state.legal), state)
            await phone.wait(f"t.ended || t.key !== {json.dumps(state.key)}", 60)
        moving = await page.evaluate("bench.moving")
        long_frames = await page.evaluate("bench.long")
        await page.throttle(1)
    return {
        "page_kb": round(plain / 1024, 1),
        "page_kb_gzip": round(packed / 1024, 1),
        "files": len(urls),
        "table_ms": round(statistics.median(drawn)),
        **frame_figures(moving),
        "idle_gap_p95_ms": round(p95([f["gap"] for f in still]), 1),
        "long_frames": long_frames,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="page loads timed (default 5)")
    parser.add_argument("--seconds", type=float, default=20, help="seconds of play timed")
    parser.add_argument("--throttle", type=float, default=4, help="CPU slow-down (default 4)")
    args = parser.parse_args()
    figures = asyncio.run(measure(args.loads, args.seconds, args.throttle))
    if hasattr(os, "getloadavg"):
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
