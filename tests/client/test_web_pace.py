"""The phones' page moves at the player's chosen speed, as the window does: the shipped
bundle, run under node on a clock the test turns by hand (frames of 16 ms), flies a card
in exactly as many frames as its flight divided by the speed's factor takes; the choice is
kept on the phone, and a stored speed the page does not know is Normal."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from client.settings import ANIMATION_SPEEDS

BUNDLE = Path(__file__).resolve().parents[2] / "assets" / "web" / "static" / "app.js"
NODE = shutil.which("node")
FRAME_MS = 16

# A clock and animation frames of the test's own, a localStorage in memory, and elements
# with only what a card's sprite touches. For each case: the frames a flight of
# `seconds` after `delay` takes at the stored speed, the speed the page took, and the
# speeds it offers (slowest first).
SCRIPT = """
let now = 1000;
const frames = [];
globalThis.performance = {now: () => now};
globalThis.requestAnimationFrame = (callback) => frames.push(callback);
const kept = new Map();
globalThis.localStorage = {
  getItem: (key) => (kept.has(key) ? kept.get(key) : null),
  setItem: (key, value) => kept.set(key, String(value)),
  removeItem: (key) => kept.delete(key),
};
const node = () => ({style: {}, remove() {}, appendChild() {}});
require(process.argv[1]);
const {Animator, Pace} = globalThis.durakPace;
const speeds = JSON.parse(process.argv[2]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  kept.clear();
  if (c.stored !== null) localStorage.setItem("durak.animation", c.stored);
  const pace = new Pace(speeds);
  const animator = new Animator(node(), () => pace.factor);
  const sprite = animator.add("AS", node(), {x: 0, y: 0, r: 0, s: 1, o: 1});
  animator.move(sprite, {x: 300, y: 0, r: 0, s: 1, o: 1}, c.seconds, c.delay);
  let count = 0;
  while (sprite.motion) {
    now += Number(process.argv[3]);
    count += 1;
    frames.splice(0).forEach((callback) => callback(now));
  }
  return {frames: count, x: sprite.pose.x, speed: pace.speed, names: pace.names};
});
process.stdout.write(JSON.stringify(out));
"""


def _run(cases: list[dict[str, object]]) -> list[dict[str, object]]:
    if NODE is None:
        pytest.skip("node is not installed (the page's bundle is checked under node)")
    result = subprocess.run(
        [NODE, "-e", SCRIPT, str(BUNDLE), json.dumps(ANIMATION_SPEEDS), str(FRAME_MS)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    out: list[dict[str, object]] = json.loads(result.stdout)
    return out


def test_a_flight_takes_its_time_divided_by_the_chosen_speed() -> None:
    cases = [
        {"stored": stored, "seconds": seconds, "delay": delay}
        for stored in ("slow", "normal", "fast")
        for seconds, delay in ((0.45, 0.0), (0.32, 0.1))
    ]
    for case, got in zip(cases, _run(cases), strict=True):
        factor = ANIMATION_SPEEDS[str(case["stored"])]
        assert isinstance(case["seconds"], float) and isinstance(case["delay"], float)
        ms = (case["seconds"] + case["delay"]) * 1000 / factor
        assert got["frames"] == math.ceil(ms / FRAME_MS - 1e-9), (case, got)
        assert got["x"] == 300  # and it lands where it was sent
        assert got["speed"] == case["stored"]


def test_a_speed_not_known_is_normal_and_the_three_are_offered_slowest_first() -> None:
    (unknown, none) = _run(
        [
            {"stored": "warp", "seconds": 0.45, "delay": 0.0},
            {"stored": None, "seconds": 0.45, "delay": 0.0},
        ]
    )
    for got in (unknown, none):
        assert got["speed"] == "normal"
        assert got["frames"] == math.ceil(450 / FRAME_MS)
        assert got["names"] == sorted(ANIMATION_SPEEDS, key=ANIMATION_SPEEDS.__getitem__)
