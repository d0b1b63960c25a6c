"""The DevTools driver (browser.py) itself, against a small page served from a temporary
folder (pages.py: HTTP and a WebSocket echo, with ``websockets`` as the host's door uses
it): green without the game's page, so a browser test that fails later fails on the
page, not on the harness."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from browser import LAN_NAME, PHONE, Browser, Page, Viewport
from pages import page_site

pytestmark = pytest.mark.slow

INDEX = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<script src="app.js" defer></script></head>
<body>
<button id="play">Play</button>
<button id="under">Under</button>
<div id="cover"></div>
<button id="boom">Boom</button>
<div><button class="pick">One</button><button class="pick">Two</button></div>
<input id="name" type="text">
</body></html>
"""

# Counts taps as clicks and touches; keeps one WebSocket open, opening a new one a moment
# after the last one closed; `#cover` is laid over `#under` from script (CSP forbids style
# attributes in the HTML).
APP = """
window.seen = {clicks: 0, touches: 0, opened: 0, closed: 0, echo: null, picked: null};
document.getElementById("play").addEventListener("click", () => { seen.clicks += 1; });
for (const pick of document.querySelectorAll(".pick"))
  pick.addEventListener("click", () => { seen.picked = pick.textContent; });
document.addEventListener("touchstart", () => { seen.touches += 1; });
document.getElementById("boom").addEventListener("click", () => { throw new Error("boom"); });
const under = document.getElementById("under").getBoundingClientRect();
Object.assign(document.getElementById("cover").style, {
  position: "fixed", left: under.left + "px", top: under.top + "px",
  width: under.width + "px", height: under.height + "px", background: "rgba(0,0,0,0.5)",
});
// the left half of "Play" covered, as the next card of a fanned hand covers a card
const play = document.getElementById("play").getBoundingClientRect();
const half = document.createElement("div");
Object.assign(half.style, {
  position: "fixed", left: play.left + "px", top: play.top + "px",
  width: play.width / 2 + 2 + "px", height: play.height + "px",
});
document.body.append(half);
function open() {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  window.socket = socket;
  socket.onopen = () => { seen.opened += 1; socket.send("hello"); };
  socket.onmessage = (event) => { seen.echo = event.data; };
  socket.onclose = () => { seen.closed += 1; setTimeout(open, 100); };
}
open();
"""


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[str]:
    """The little page's address under the LAN name the browser maps to 127.0.0.1."""
    async with page_site(tmp_path, INDEX, APP) as address:
        yield address


async def opened(browser: Browser, site: str, viewport: Viewport = PHONE) -> Page:
    page = await browser.new_page(viewport)
    await page.goto(site)
    await page.wait_for("window.seen && seen.echo === 'hello'")
    return page


async def test_the_page_is_a_phone_on_a_lan_address(site: str, browser: Browser) -> None:
    """What a phone at the party gets: a LAN name (not a secure context, so no
    ``crypto.subtle``), a 390 px wide viewport at twice the pixels, touch and a coarse
    pointer."""
    page = await opened(browser, site)
    assert await page.evaluate("location.hostname") == LAN_NAME
    assert await page.evaluate("window.isSecureContext") is False
    assert await page.evaluate("typeof crypto.subtle") == "undefined"
    assert await page.evaluate("[innerWidth, innerHeight, devicePixelRatio]") == [390, 844, 2]
    assert await page.evaluate("navigator.maxTouchPoints") > 0
    assert await page.evaluate("matchMedia('(pointer: coarse)').matches") is True


async def test_a_tap_is_a_touch_and_a_click_on_the_element(site: str, browser: Browser) -> None:
    """On the part of the element that shows (its left half is covered), on the element
    of the given text, and into a text field as a phone's keyboard types."""
    page = await opened(browser, site)
    await page.tap("#play")
    await page.wait_for("seen.clicks === 1")
    assert await page.evaluate("seen.touches") == 1
    await page.tap(".pick", "Two")
    await page.wait_for("seen.picked === 'Two'")
    with pytest.raises(AssertionError, match="none of 2"):
        await page.tap(".pick", "Three")
    await page.tap("#name")
    await page.type_text("Anna")
    assert await page.evaluate("document.getElementById('name').value") == "Anna"


async def test_a_covered_or_missing_element_cannot_be_tapped(site: str, browser: Browser) -> None:
    page = await opened(browser, site)
    with pytest.raises(AssertionError, match="covered by <div"):
        await page.tap("#under")
    with pytest.raises(AssertionError, match="none"):
        await page.tap("#absent")
    assert await page.evaluate("seen.touches") == 0


async def test_page_errors_are_collected(site: str, browser: Browser) -> None:
    """An exception in a handler, console.error, a missing file and a CSP refusal all land
    in ``page.errors`` (the fixture fails a test that leaves any there)."""
    page = await opened(browser, site)
    await page.tap("#boom")
    await page.evaluate("console.error('logged')")
    await page.evaluate(
        "new Promise(done => { const s = document.createElement('script');"
        " s.src = 'missing.js'; s.onerror = done; document.body.append(s); })"
    )
    await page.evaluate(
        "new Promise(done => { document.addEventListener('securitypolicyviolation', done);"
        " const s = document.createElement('script'); s.textContent = 'window.x = 1';"
        " document.body.append(s); })"
    )
    await page.wait_for("true")  # the events' round trip
    text = "\n".join(page.errors)
    assert "Error: boom" in text
    assert "console.error: logged" in text
    assert "missing.js" in text and "404" in text
    assert "Content Security Policy" in text
    page.errors.clear()


async def test_offline_holds_the_network_until_online(site: str, browser: Browser) -> None:
    """Offline as a phone in a dead spot: the open socket stays open but nothing passes
    (no close event: the page must notice by the protocol's heartbeat), nothing new
    connects; back online, what was held goes through."""
    page = await opened(browser, site)
    await page.online(False)
    assert await page.evaluate("navigator.onLine") is False
    await page.evaluate("seen.echo = null; socket.send('held')")
    failed = await page.evaluate(
        "fetch('app.js', {cache: 'no-store'}).then(() => false, () => true)"
    )
    assert failed is True
    await page.evaluate("new Promise(done => setTimeout(done, 300))")
    assert await page.evaluate("[seen.echo, socket.readyState, seen.closed]") == [None, 1, 0]
    await page.online(True)
    await page.wait_for("seen.echo === 'held'")
    assert await page.evaluate("navigator.onLine") is True
    # the browser logs the refused fetch; nothing else is expected
    assert all("ERR_INTERNET_DISCONNECTED" in error for error in page.errors), page.errors
    page.errors.clear()


async def test_reload_keeps_local_storage(site: str, browser: Browser) -> None:
    page = await opened(browser, site)
    await page.evaluate("localStorage.setItem('token', 'abc'); window.mark = 1")
    responses = page.listen("Network.responseReceived")
    await page.reload()
    await page.wait_for("window.seen && seen.echo === 'hello'")
    assert await page.evaluate("[typeof window.mark, localStorage.getItem('token')]") == [
        "undefined",
        "abc",
    ]
    assert {r["response"]["url"].rsplit("/", 1)[1] for r in responses} >= {"", "app.js"}


async def test_viewports_screenshots_and_throttling(
    site: str, browser: Browser, tmp_path: Path
) -> None:
    landscape = Viewport(844, 390)
    page = await opened(browser, site, landscape)
    assert await page.evaluate("[innerWidth, innerHeight]") == [844, 390]
    assert await page.evaluate("matchMedia('(orientation: landscape)').matches") is True
    shot = await page.screenshot(tmp_path / "shots" / "landscape.png")
    assert png_size(shot) == (844 * 2, 390 * 2)
    await page.set_viewport(Viewport(360, 640))
    assert await page.evaluate("[innerWidth, innerHeight]") == [360, 640]
    await page.throttle(4)
    assert await page.evaluate("1 + 1") == 2
    await page.throttle(1)


async def test_two_pages_are_two_phones(site: str, browser: Browser) -> None:
    """Each shown (animation frames run in both) and with storage of its own."""
    first, second = await opened(browser, site), await opened(browser, site)
    await first.evaluate("localStorage.setItem('token', 'first')")
    await second.tap("#play")
    await second.wait_for("seen.clicks === 1")
    assert await first.evaluate("seen.clicks") == 0
    assert await second.evaluate("localStorage.getItem('token')") is None
    frames = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    for page in (first, second):
        assert await page.evaluate("document.visibilityState") == "visible"
        await asyncio.wait_for(page.evaluate(frames), 5)


async def test_the_browser_and_its_profile_go_even_when_a_test_fails(
    chromium: str, site: str
) -> None:
    with pytest.raises(RuntimeError, match="the test failed"):
        async with Browser.launch(chromium) as browser:
            await opened(browser, site)
            process, profile = browser.process, browser.profile
            assert profile.is_dir()
            raise RuntimeError("the test failed")
    assert process.returncode is not None
    assert not profile.exists()


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height
