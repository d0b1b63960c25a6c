"""What ``durak host`` says in its terminal, and how it is stopped, on every system.

Saying: a line written on the event loop stops the loop whenever the terminal stops
reading. On Windows a click in the console (QuickEdit's selection) holds the next write
until the selection ends, so the whole host froze and its players were dropped; a paused
terminal (Ctrl-S) or a pipe nobody reads does the same elsewhere. ``Console`` writes its
lines from a thread of its own: the loop only puts them in a queue.

Stopping: SIGINT and SIGTERM through the loop's signal handlers where it has them (POSIX).
Where it has none (Windows), Ctrl-C and Ctrl-Break are caught with ``signal.signal`` and
stop the table the same way (before, Ctrl-C closed the table from inside a
KeyboardInterrupt and then printed its traceback twice); and on Windows closing the
console window, logging off, shutting down or ``taskkill`` (a console control event) ask
the table to close and wait for it, up to 4 of the 5 seconds Windows allows, so the
players get their goodbye and the table leaves the LAN list at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from typing import TextIO

__all__ = ["Console", "stop_on_signals"]

CLOSE_WAIT_S = 4.0  # of the 5 s Windows gives a console control handler


class Console:
    """Lines for the terminal, written by a thread of their own in the order said."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write, name="durak-console", daemon=True)
        self._writer.start()

    def say(self, line: str) -> None:
        self._lines.put(line)

    def close(self, timeout: float = 2.0) -> None:
        """Write what is still queued (for ``timeout`` seconds at most), then stop."""
        self._lines.put(None)
        self._writer.join(timeout)

    def _write(self) -> None:
        while (line := self._lines.get()) is not None:
            stream = self.stream or sys.stdout
            with contextlib.suppress(OSError, ValueError):  # a closed or vanished terminal
                stream.write(line + "\n")
                stream.flush()


def stop_on_signals(stop: asyncio.Event, closed: threading.Event) -> Callable[[], None]:
    """Set ``stop`` when the user or the system asks the program to end; ``closed`` is set
    by the caller once the table is closed. Returns what undoes it."""
    loop = asyncio.get_running_loop()
    undo: list[Callable[[], object]] = []

    def undo_all() -> None:
        for step in reversed(undo):
            step()

    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, stop.set)
        except (NotImplementedError, RuntimeError):  # Windows: no signal handlers in a loop
            break
        undo.append(partial(loop.remove_signal_handler, number))
    else:
        return undo_all
    undo_all()
    undo.clear()

    def asked(number: int, frame: object) -> None:
        loop.call_soon_threadsafe(stop.set)

    caught = [signal.SIGINT, signal.SIGTERM]
    if sys.platform == "win32":
        caught.append(signal.SIGBREAK)
    for number in caught:
        undo.append(partial(signal.signal, number, signal.signal(number, asked)))
    if sys.platform == "win32":
        undo.append(_on_console_close(loop, stop, closed))
    return undo_all


def _on_console_close(
    loop: asyncio.AbstractEventLoop, stop: asyncio.Event, closed: threading.Event
) -> Callable[[], object]:
    """Windows: the console window closed, a log-off or a shutdown (or ``taskkill``) close
    the table before the process ends. Returns what undoes it."""
    if sys.platform != "win32":
        return lambda: None
    import ctypes
    from ctypes import wintypes

    close_events = {2, 5, 6}  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT

    def on_event(event: int) -> bool:
        if event not in close_events:
            return False  # Ctrl-C, Ctrl-Break: the signal handlers
        loop.call_soon_threadsafe(stop.set)
        closed.wait(CLOSE_WAIT_S)
        return True

    handler = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)(on_event)
    kernel32 = ctypes.windll.kernel32
    kernel32.SetConsoleCtrlHandler(handler, True)
    return partial(kernel32.SetConsoleCtrlHandler, handler, False)
