"""A small Chromium driver over the DevTools protocol, for the tests of the phones' page.

No selenium or playwright: the DevTools endpoint is a WebSocket, and ``websockets`` (a
dependency of the game for the host's web door) is all it takes. A browser process
(``Chromium``) serves one ``Browser`` after another, each a WebSocket to it on its
test's event loop; each page is a flattened session on that socket
(``Target.attachToTarget(flatten=True)``) in a browser context of its own (its own
storage, like another phone's), so a test can hold two pages at one table.

What a phone gets, not what a developer's machine gets:
- the page is loaded from ``http://durak.lan:PORT/``, a name the browser maps to 127.0.0.1
  (``--host-resolver-rules``): a page from 127.0.0.1 is a secure context (``crypto.subtle``,
  wake lock, service workers) and one from a LAN address is not (``stranger.lan`` is
  mapped too, another site for a hostile page);
- a phone's viewport (CSS pixels, device scale 2, ``mobile``) and touch: taps are touch
  events at an element's centre, and a tap fails when another element covers that point.

Every exception the page throws and every error it logs (console, network, CSP) is kept in
``Page.errors``; the tests' fixtures fail a test that leaves any. A browser's pages and
their contexts are closed on leaving ``Browser.attached``, and a browser of its own is
killed and its profile folder removed on leaving ``Browser.launch``, however the test
ended."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

__all__ = [
    "LAN_NAME",
    "OTHER_NAME",
    "PHONE",
    "Browser",
    "DevToolsError",
    "Page",
    "PageError",
    "Rect",
    "Viewport",
    "find_chromium",
]

# Before a page's own script: the animation speed its player chose, unless one is kept
# already (about:blank has no storage of its own, hence the try)
SPEED = """try {
  if (localStorage.getItem("durak.animation") === null) {
    localStorage.setItem("durak.animation", "%s");
  }
} catch (error) {}"""
LAN_NAME = "durak.lan"  # the page's host name, mapped to 127.0.0.1 in the browser only
OTHER_NAME = "stranger.lan"  # another site's, mapped likewise (a hostile page's origin)

# Where Chromium or Chrome is found: names on PATH (Debian's ``chromium``, Ubuntu's and
# the CI images' others), then the usual install places on macOS and Windows.
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
_PLACES = (
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
)
_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")
_START_TIMEOUT = 30.0  # seconds for the browser to open its DevTools socket (a loaded machine)
_CALL_TIMEOUT = 30.0  # seconds for one DevTools call
_POLL = 0.05  # seconds between two looks of ``Page.wait_for``


def find_chromium() -> str | None:
    """The Chromium (or Chrome) to drive: ``DURAK_CHROMIUM`` if set, else the first found."""
    chosen = os.environ.get("DURAK_CHROMIUM")
    if chosen:
        return chosen
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    return next((place for place in _PLACES if Path(place).is_file()), None)


class DevToolsError(Exception):
    """A DevTools call failed, or the browser went away."""


class PageError(AssertionError):
    """The page's script threw while the test evaluated an expression in it."""


@dataclass(frozen=True)
class Viewport:
    """A device's screen in CSS pixels (``scale`` device pixels to one)."""

    width: int
    height: int
    scale: int = 2
    mobile: bool = True

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def landscape(self) -> bool:
        return self.width > self.height


PHONE = Viewport(390, 844)


@dataclass(frozen=True)
class Rect:
    """An element's box in CSS pixels of the viewport (``getBoundingClientRect``)."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height

    @property
    def centre(self) -> tuple[float, float]:
        return self.left + self.width / 2, self.top + self.height / 2

    def overlaps(self, other: Rect) -> bool:
        """Whether the two boxes share an area (touching edges do not count)."""
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def inside(self, width: float, height: float) -> bool:
        """Whether the box lies within (0, 0)-(width, height)."""
        return self.left >= 0 and self.top >= 0 and self.right <= width and self.bottom <= height

    def inset(self, by: float) -> Rect:
        """The box made ``by`` pixels smaller on each side (negative: larger)."""
        return Rect(self.left + by, self.top + by, self.width - 2 * by, self.height - 2 * by)


# A point where the element is the one a finger would touch: its centre when nothing covers
# it, else the first of a 9 x 9 grid over its box that shows the element or a child of it.
_VISIBLE_POINT = """(selector, text) => {
  const all = [...document.querySelectorAll(selector)];
  const e = all.find((n) => text === null || n.textContent.trim() === text);
  if (!e) return `none of ${all.length} matching shows that text`;
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "hidden";
  const shows = (x, y) => { const top = document.elementFromPoint(x, y);
    return top !== null && (top === e || e.contains(top)); };
  const points = [[r.left + r.width / 2, r.top + r.height / 2]];
  for (let i = 1; i < 10; i++)
    for (let j = 1; j < 10; j++)
      points.push([r.left + (r.width * j) / 10, r.top + (r.height * i) / 10]);
  const point = points.find(([x, y]) => shows(x, y));
  if (point) return point;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return "covered by " + (top ? top.outerHTML.slice(0, 120) : "nothing (off screen)");
}"""

Listener = Callable[[str, dict[str, Any]], None]


@dataclass
class _Link:
    """The one WebSocket to the browser: calls matched to their answers by id, events
    handed to the listeners of their session (``None``: the browser's own)."""

    socket: ClientConnection
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    waiting: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    listeners: dict[str | None, list[Listener]] = field(default_factory=dict)
    closed: str | None = None

    async def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        if self.closed is not None:
            raise DevToolsError(f"{method}: the browser is gone ({self.closed})")
        number = next(self.ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        answer = asyncio.get_running_loop().create_future()
        self.waiting[number] = answer
        try:
            await self.socket.send(json.dumps(message))
            return await asyncio.wait_for(answer, _CALL_TIMEOUT)
        finally:
            self.waiting.pop(number, None)

    async def read(self) -> None:
        """Until the socket closes: answers to their callers, events to their listeners."""
        try:
            async for raw in self.socket:
                self._dispatch(json.loads(raw))
            self.closed = "the DevTools socket closed"
        except Exception as error:  # the reader must outlive any one bad message
            self.closed = repr(error)
        for answer in self.waiting.values():
            if not answer.done():
                answer.set_exception(DevToolsError(self.closed))

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message:
            answer = self.waiting.get(message["id"])
            if answer is None or answer.done():
                return
            if "error" in message:
                answer.set_exception(DevToolsError(json.dumps(message["error"])))
            else:
                answer.set_result(message.get("result", {}))
            return
        for listener in self.listeners.get(message.get("sessionId"), []):
            listener(message["method"], message.get("params", {}))


class Chromium:
    """One headless Chromium process: its profile folder, its DevTools address and the last
    lines of its log, read by a thread of its own. It belongs to no event loop, so one
    process can serve the tests of a whole session, each test a ``Browser`` of its own
    on its own loop (``Browser.attached``). ``Chromium.start``, then ``stop``."""

    def __init__(self, process: subprocess.Popen[bytes], profile: Path) -> None:
        self.process = process
        self.profile = profile  # the browser's own profile folder, removed by ``stop``
        self.tail: list[str] = []  # the browser's last lines of log, for a failure's report
        self.address: str | None = None  # the browser's DevTools WebSocket, once it listens
        self._listening = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def start(cls, executable: str) -> Chromium:
        """The browser started, listening on its DevTools address; stopped again if it
        does not start."""
        profile = Path(tempfile.mkdtemp(prefix="durak-chromium-"))
        try:
            process = subprocess.Popen(
                [
                    executable,
                    "--headless=new",
                    "--no-sandbox",  # CI runs as root, where the sandbox refuses to start
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--no-first-run",
                    "--no-default-browser-check",
                    "--disable-background-networking",
                    "--disable-extensions",
                    "--disable-sync",
                    "--mute-audio",
                    "--remote-debugging-port=0",
                    f"--user-data-dir={profile}",
                    f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1, MAP {OTHER_NAME} 127.0.0.1",
                    "about:blank",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                # its temporary files (a folder for its single-instance socket, left behind
                # in /tmp by every run) go into the profile, removed with it
                env={**os.environ, "TMPDIR": str(profile)},
            )
        except BaseException:
            shutil.rmtree(profile, ignore_errors=True)
            raise
        started = cls(process, profile)
        if not started._listening.wait(_START_TIMEOUT) or started.address is None:
            started.stop()
            raise DevToolsError("Chromium did not listen:\n" + "\n".join(started.tail[-20:]))
        return started

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self) -> None:
        """Keeps reading the browser's log (a full pipe would stop it), its last lines
        kept, the DevTools address taken from the line that says it listens."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            text = line.decode(errors="replace").rstrip()
            self.tail.append(text)
            del self.tail[:-50]
            found = _LISTENING.search(text)
            if found and self.address is None:
                self.address = found.group(1)
                self._listening.set()
        self._listening.set()  # (the browser exited: nobody waits for its address in vain)

    def stop(self) -> None:
        """The browser stopped (asked to, then killed if it does not go within 5 seconds)
        and its profile removed. Chromium's helpers may still hold a file for a moment
        (and Windows refuses to delete an open file), so a few tries."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
        for _ in range(20):
            shutil.rmtree(self.profile, ignore_errors=True)
            if not self.profile.exists():
                return
            time.sleep(0.1)
        shutil.rmtree(self.profile)  # the last try reports what stayed


class Browser:
    """One connection to a headless Chromium, and the pages opened through it: ``async
    with Browser.launch(path) as browser`` for a browser of its own, or ``async with
    Browser.attached(chromium) as browser`` to a running one, whose pages (each in a
    browser context of its own) are closed on leaving."""

    def __init__(self, link: _Link, chromium: Chromium, speed: str | None = None) -> None:
        self._link = link
        self.chromium = chromium
        self.speed = speed  # the animation speed a new page starts with (None: the page's)
        self.pages: list[Page] = []
        self._contexts: list[str] = []  # the browser contexts of this browser's pages

    @property
    def process(self) -> subprocess.Popen[bytes]:
        return self.chromium.process

    @property
    def profile(self) -> Path:
        return self.chromium.profile

    @classmethod
    @asynccontextmanager
    async def launch(cls, executable: str, speed: str | None = None) -> AsyncIterator[Browser]:
        """A browser of its own, stopped and its profile removed on leaving, however the
        test ended. ``speed``: as for ``attached``."""
        chromium = await asyncio.to_thread(Chromium.start, executable)
        try:
            async with cls.attached(chromium, speed) as browser:
                yield browser
        finally:
            await asyncio.to_thread(chromium.stop)

    @classmethod
    @asynccontextmanager
    async def attached(cls, chromium: Chromium, speed: str | None = None) -> AsyncIterator[Browser]:
        """``speed``: the page's animation speed each new page starts with, as if its player
        had chosen it ("slow", "normal", "fast"; kept by the page like a player's choice,
        which a test may still change)."""
        assert chromium.address is not None
        socket = await connect(chromium.address, max_size=None, ping_interval=None, proxy=None)
        async with socket:
            link = _Link(socket)
            reader = asyncio.create_task(link.read())
            browser = cls(link, chromium, speed)
            try:
                yield browser
            finally:
                for context in browser._contexts:
                    with contextlib.suppress(DevToolsError):
                        await link.call(
                            "Target.disposeBrowserContext", {"browserContextId": context}
                        )
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)

    async def new_page(self, viewport: Viewport = PHONE) -> Page:
        """A fresh tab showing about:blank, as the given device, with touch: a phone of
        its own, in a browser context of its own (its own storage, so its own seat's
        token) and a window of its own (shown: a tab behind another is hidden, and a hidden
        page gets no animation frames)."""
        context = await self._link.call("Target.createBrowserContext")
        self._contexts.append(context["browserContextId"])
        target = await self._link.call(
            "Target.createTarget",
            {"url": "about:blank", "browserContextId": context["browserContextId"]},
        )
        attached = await self._link.call(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        page = Page(self._link, attached["sessionId"], target["targetId"])
        await page.start(viewport)
        if self.speed is not None:
            await page.send("Page.addScriptToEvaluateOnNewDocument", source=SPEED % self.speed)
        self.pages.append(page)
        return page


class Page:
    """One tab: evaluate script, wait for a condition, tap, change the device or network."""

    def __init__(self, link: _Link, session: str, target: str) -> None:
        self._link = link
        self._session = session
        self.target = target
        self.errors: list[str] = []  # exceptions thrown and errors logged, in order
        self._loaded: asyncio.Event = asyncio.Event()
        link.listeners[session] = [self._on_event]

    def listen(self, method: str) -> list[dict[str, Any]]:
        """A list that the parameters of every later event ``method`` are added to."""
        heard: list[dict[str, Any]] = []

        def hear(name: str, params: dict[str, Any]) -> None:
            if name == method:
                heard.append(params)

        self._link.listeners[self._session].append(hear)
        return heard

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools call in this page's session."""
        return await self._link.call(method, params, self._session)

    async def start(self, viewport: Viewport) -> None:
        for domain in ("Page", "Runtime", "Log", "Network"):
            await self.send(f"{domain}.enable")
        await self.set_viewport(viewport)
        await self.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    def _on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Page.loadEventFired":
            self._loaded.set()
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            thrown = details.get("exception", {}).get("description") or details.get("text", "")
            self.errors.append(f"exception: {thrown}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            words = [str(arg.get("value", arg.get("description", ""))) for arg in params["args"]]
            self.errors.append(f"console.{params['type']}: {' '.join(words)}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"{entry['source']}: {entry['text']} {entry.get('url', '')}")

    async def set_viewport(self, viewport: Viewport) -> None:
        orientation = (
            {"type": "landscapePrimary", "angle": 90}
            if viewport.landscape
            else {"type": "portraitPrimary", "angle": 0}
        )
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=viewport.width,
            height=viewport.height,
            deviceScaleFactor=viewport.scale,
            mobile=viewport.mobile,
            screenOrientation=orientation,
        )

    async def goto(self, url: str) -> None:
        """Navigates and waits for the page's load event."""
        self._loaded.clear()
        answer = await self.send("Page.navigate", url=url)
        if "errorText" in answer:
            raise DevToolsError(f"{url}: {answer['errorText']}")
        await asyncio.wait_for(self._loaded.wait(), _CALL_TIMEOUT)

    async def reload(self) -> None:
        """Reloads as a user would (the cache kept) and waits for the load event."""
        self._loaded.clear()
        await self.send("Page.reload")
        await asyncio.wait_for(self._loaded.wait(), _CALL_TIMEOUT)

    async def evaluate(self, expression: str) -> Any:
        """The expression's value (awaited when a promise), as JSON brings it over."""
        answer = await self.send(
            "Runtime.evaluate",
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
            userGesture=True,
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            thrown = details.get("exception", {}).get("description") or details.get("text")
            raise PageError(f"{expression!r} threw: {thrown}")
        return answer["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        """The expression's first truthy value, looked at every 50 ms; fails after
        ``timeout`` seconds with its last value and the page's errors."""
        value: Any = None
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            with contextlib.suppress(PageError):  # e.g. a page still loading its script
                value = await self.evaluate(expression)
                if value:
                    return value
            if loop.time() > end:
                raise TimeoutError(
                    f"{expression!r} still {value!r} after {timeout} s; page errors: {self.errors}"
                )
            await asyncio.sleep(_POLL)

    async def rect(self, selector: str) -> Rect | None:
        """The first matching element's box, or None when no element matches."""
        box = await self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height]; })()"
        )
        return None if box is None else Rect(*box)

    async def tap(self, selector: str, text: str | None = None) -> None:
        """A finger's tap on the first element matching ``selector`` (and whose text is
        ``text``, if given): at its centre, or where the element shows when others cover
        its centre (a card of a fanned hand). Fails when no such element is shown, or
        when other elements cover all of it."""
        found = await self.evaluate(
            f"({_VISIBLE_POINT})({json.dumps(selector)}, {json.dumps(text)})"
        )
        if not isinstance(found, list):
            raise AssertionError(f"cannot tap {selector} {text or ''}: {found}")
        await self.tap_at(*found)

    async def tap_at(self, x: float, y: float) -> None:
        """A finger down and up at (x, y) in CSS pixels of the viewport."""
        point = {"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}
        await self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=[point])
        await self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def type_text(self, text: str) -> None:
        """Types into the focused element, as a phone's keyboard would."""
        await self.send("Input.insertText", text=text)

    async def online(self, online: bool) -> None:
        """Cuts the page off the network (its sockets close) or brings it back."""
        await self.send(
            "Network.emulateNetworkConditions",
            offline=not online,
            latency=0,
            downloadThroughput=-1,
            uploadThroughput=-1,
        )

    async def sleep(self) -> None:
        """The phone locked: its tab hidden, then frozen (no script runs; its sockets stay
        open, unanswered, as a sleeping phone's do)."""
        await self._window("minimized")
        await self.send("Page.setWebLifecycleState", state="frozen")

    async def wake(self) -> None:
        """The phone unlocked: the tab thawed and shown again."""
        await self.send("Page.setWebLifecycleState", state="active")
        await self._window("normal")

    async def _window(self, state: str) -> None:
        window = await self._link.call("Browser.getWindowForTarget", {"targetId": self.target})
        await self._link.call(
            "Browser.setWindowBounds",
            {"windowId": window["windowId"], "bounds": {"windowState": state}},
        )

    async def throttle(self, rate: float) -> None:
        """Runs the page's script ``rate`` times slower (1: full speed), a slower phone."""
        await self.send("Emulation.setCPUThrottlingRate", rate=rate)

    async def reduce_motion(self, reduce: bool) -> None:
        """Emulates a system set to less motion (``prefers-reduced-motion: reduce``), or
        one with no preference."""
        value = "reduce" if reduce else "no-preference"
        await self.send(
            "Emulation.setEmulatedMedia",
            features=[{"name": "prefers-reduced-motion", "value": value}],
        )

    async def screenshot(self, path: Path) -> Path:
        """The viewport as a PNG file (device pixels)."""
        shot = await self.send("Page.captureScreenshot", format="png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    async def close(self) -> None:
        with contextlib.suppress(DevToolsError):
            await self._link.call("Target.closeTarget", {"targetId": self.target})
