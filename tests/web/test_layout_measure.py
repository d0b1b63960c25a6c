"""The layout tests' own measure of a hand (layout.py), against a page of cards laid out
by hand: each card of the hand must show a 44 px square, and the measure says which do
not and how much they show instead, whether the square lies where the measure looks
first (a fan's card, its left strip showing) or elsewhere (a badge over a card's top
left corner), on a tilted card (whose box has empty corners), and when all that covers
a card is a dot in its middle, clear of every side of the squares looked at first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from browser import Browser
from layout import TARGET, measure
from pages import page_site

pytestmark = pytest.mark.slow

INDEX = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="app.js" defer></script></head><body></body></html>
"""

# (CSP forbids style attributes in the HTML: the cards are placed from script.) Cards of
# 70 x 100 px, each drawn after, and so over, the one before:
# - 6h, 7h, 8h, 9h, a fan: 6h shows a strip 40 px wide, 7h 52 px, 8h 58 px under the
#   tilted 9h, which shows whole;
# - Th under a 20 px badge at its top left: its squares lie lower down;
# - Jh under two covers that leave it a strip 30 px wide down its left side and a band
#   40 px high along its bottom: no 44 px square;
# - Kh, 48 px square, under a dot of 4 px at its centre: no 44 px square either, the
#   largest on the grid 22 px (in the 11 rows of points above the dot).
APP = """
const place = (element, left, top, width, height, turn = 0) => {
  Object.assign(element.style, {
    position: "absolute", left: left + "px", top: top + "px", width: width + "px",
    height: height + "px", background: "white", border: "0", margin: "0",
    transform: turn ? `rotate(${turn}deg)` : "",
  });
  document.body.append(element);
  return element;
};
const card = (code, left, top, turn = 0, width = 70, height = 100) => {
  const element = document.createElement("div");
  element.className = "card face";
  element.dataset.card = code;
  return place(element, left, top, width, height, turn);
};
const cover = (left, top, width, height) =>
  place(document.createElement("div"), left, top, width, height);
card("6h", 20, 100);
card("7h", 60, 100);
card("8h", 112, 100);
card("9h", 170, 100, 3);
card("Th", 20, 300);
cover(20, 300, 20, 20);
card("Jh", 120, 300);
cover(150, 300, 40, 60);
card("Kh", 230, 300, 0, 48, 48);
cover(252, 322, 4, 4);
window.durakTest = {screen: "table", hand: ["6h", "7h", "8h", "9h", "Th", "Jh", "Kh"]};
"""


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[str]:
    async with page_site(tmp_path, INDEX, APP) as address:
        yield address


async def test_the_measure_finds_each_cards_square_or_says_what_shows(
    site: str, browser: Browser
) -> None:
    page = await browser.new_page()
    await page.goto(site)
    await page.wait_for("window.durakTest")
    found = await measure(page)
    squares = {code: square for code, _, _, square in found.hand}
    # a square found is reported at the target (the measure looks no further); one not
    # found, at the largest on the 2-pixel grid: a strip 40 px wide, a band 40 px high
    assert squares == {
        "6h": 40,
        "7h": TARGET,
        "8h": TARGET,
        "9h": TARGET,
        "Th": TARGET,
        "Jh": 40,
        "Kh": 22,
    }
    short = [fault for fault in found.fingers() if "shows no" in fault]
    assert [fault.split()[2] for fault in short] == ["6h", "Jh", "Kh"], short
    showing = {code: area for code, _, area, _ in found.hand}
    assert showing["6h"] == 40 * 100  # every point of the strip, nothing under 7h
    assert showing["Jh"] == 30 * 100 + 40 * 40  # the strip and the band's other 40 px
