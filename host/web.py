"""The phones' door: the host serves the browser page and its WebSocket on a port of its
own, so a guest with only a phone scans a code and plays (docs/protocol.md section 19).

One port carries both. A plain GET is a file of the page (``PageFiles``: a flat folder
read once at start, each file served only under its exact name, so no path reaches beyond
it) or ``/door.json`` (what the page is at: a table or a party, the protocol version, the
name). A GET of ``/ws`` that asks for a WebSocket becomes a link of the host's doorway
(``host.doorway``), through the same door, limits, password throttle and heartbeat as a TCP
connection, with the phone's own address: never a bridge through 127.0.0.1, which would
make every phone one address to the door. Each binary WebSocket message is one frame's
payload (the protocol's message without its length prefix); a text message is a
``bad_frame``, a message over the frame maximum closes the connection (code 1009). The
protocol's own heartbeat keeps a link alive, not WebSocket pings, which a browser answers
even while a backgrounded page's script is frozen.

A browser sends its page's ``Origin`` with every WebSocket: one that is not this port's own
page (a hostile page on another site, opening a socket to the LAN) is refused before the
handshake (403). A client without a browser sends none and is let in, like a TCP one.

Why ``websockets``: one well-kept library (BSD-3, no dependencies, wheels for the three
systems) serves plain GETs (``process_request``) and WebSockets on the running loop; the
handshake, framing and close are its, our door and protocol are ours.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from http import HTTPStatus
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from protocol import BAD_FRAME, BUSY, HEADER_SIZE, MAX_FRAME, Goodbye, ProtocolError, encode

from .doorway import Doorway, listening_socket
from .link import LINGER, address_of, local_of

__all__ = ["WEB_PORT", "PageFiles", "WebDoor", "WsWire", "page_files"]

log = logging.getLogger("durak.host")
WEB_PORT = 45656  # a table's page, unless told otherwise (the party's: its port + 2)
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
OPEN_TIMEOUT = 5.0  # seconds for a request (and a WebSocket's handshake) to arrive


class WsWire:
    """A link over a WebSocket: one frame's payload a binary message."""

    whole = True

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        peer = ws.remote_address
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = address_of(peer)
        local = ws.local_address
        self.local = local_of(local[0] if isinstance(local, tuple) else None)

    async def read(self) -> bytes:
        try:
            message = await self.ws.recv()
        except ConnectionClosed:
            return b""
        if isinstance(message, str):
            raise ProtocolError(BAD_FRAME, "a text message: the protocol's messages are binary")
        return message

    def write(self, framed: bytes) -> None:
        """Send one message (what the outbox framed, without its length prefix), now:
        the sans-I/O protocol of the connection, then its transport."""
        if self.ws.protocol.state.name != "OPEN":
            return
        self.ws.protocol.send_binary(framed[HEADER_SIZE:])
        self.ws.send_data()

    def buffered(self) -> int:
        return self.ws.transport.get_write_buffer_size()

    def abort(self) -> None:
        self.ws.transport.abort()

    def finish(self, framed: bytes, abrupt: bool) -> None:
        """The goodbye, then the WebSocket's close (the peer reads both in order)."""
        self.write(framed)
        if self.ws.protocol.state.name == "OPEN":
            self.ws.protocol.send_close(1000, "goodbye")
            self.ws.send_data()

    async def linger(self) -> None:
        """Wait for the peer to answer the close, a moment at most."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(LINGER):
                await self.ws.wait_closed()

    async def close(self) -> None:
        await self.ws.close()


@dataclass(frozen=True, slots=True)
class PageFile:
    body: bytes
    packed: bytes  # gzip, for a browser that takes it
    kind: str


PageFiles = dict[str, PageFile]


def page_files(folder: Traversable | None = None) -> PageFiles:
    """The page's files by name: every file of ``folder`` (the installed page by default)
    whose kind we serve. A missing folder serves no page (the WebSocket still works)."""
    folder = folder or files("lan_durak_assets").joinpath("web", "static")
    found: PageFiles = {}
    if not folder.is_dir():
        return found
    for item in folder.iterdir():
        kind = TYPES.get("." + item.name.rsplit(".", 1)[-1]) if "." in item.name else None
        if item.is_file() and kind is not None:
            body = item.read_bytes()
            found[item.name] = PageFile(body, gzip.compress(body, mtime=0), kind)
    return found


class WebDoor:
    """The page and the WebSocket of one host (``doorway``): ``about`` says what the page
    is at (``door.json``)."""

    def __init__(
        self,
        doorway: Doorway[Any],
        about: Callable[[], dict[str, Any]],
        page: PageFiles | None = None,
    ) -> None:
        self.doorway = doorway
        self.about = about
        self.page = page_files() if page is None else page
        self.port = 0
        self._server: Server | None = None

    async def start(self, bind: str, port: int) -> None:
        sock = listening_socket(bind, port)
        self.port = sock.getsockname()[1]
        self._server = await serve(
            self._serve,
            sock=sock,
            process_request=self._request,
            max_size=MAX_FRAME,
            compression=None,
            ping_interval=None,
            open_timeout=OPEN_TIMEOUT,
            close_timeout=LINGER,
            server_header=None,
        )

    async def stop(self) -> None:
        """Close the port and whatever connection is still open (after the doorway's
        goodbyes: ``Host.stop``)."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2 * LINGER):
                    await self._server.wait_closed()

    async def _serve(self, ws: ServerConnection) -> None:
        wire = WsWire(ws)
        key: Hashable = ws
        admit = self.doorway.arrive(key, wire.address)
        if admit is None:
            wire.finish(encode(Goodbye(BUSY, self.doorway.busy_text)), True)
            await wire.linger()
            return
        await self.doorway.serve(key, wire, admit)

    def _request(self, ws: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        host = request.headers.get("Host", "")
        if path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and origin != f"http://{host}":
                log.info("refusing a WebSocket from the page of %s", origin[:100])
                return _plain(HTTPStatus.FORBIDDEN, "Another page's connection.")
            return None  # the WebSocket's handshake goes on
        if path == "/door.json":
            body = json.dumps(self.about()).encode()
            return _response(HTTPStatus.OK, body, TYPES[".json"], host)
        name = "index.html" if path == "/" else path[1:]
        found = self.page.get(name)
        if found is None:
            return _plain(HTTPStatus.NOT_FOUND, "Not found.")
        packed = "gzip" in request.headers.get("Accept-Encoding", "")
        return _response(
            HTTPStatus.OK, found.packed if packed else found.body, found.kind, host, packed
        )


def _response(
    status: HTTPStatus, body: bytes, kind: str, host: str, packed: bool = False
) -> Response:
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", _policy(host)),
            ("Vary", "Accept-Encoding"),
        ]
    )
    if packed:
        headers["Content-Encoding"] = "gzip"
    return Response(status.value, status.phrase, headers, body)


def _policy(host: str) -> str:
    """Everything from this page's own origin alone (its socket included)."""
    socket = f" ws://{host}" if host and all(c.isalnum() or c in ".:-[]" for c in host) else ""
    return (
        "default-src 'self'; "
        f"connect-src 'self'{socket}; "
        "img-src 'self' data:; "
        "style-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def _plain(status: HTTPStatus, text: str) -> Response:
    body = (text + "\n").encode()
    headers = Headers(
        [
            ("Content-Type", TYPES[".txt"]),
            ("Content-Length", str(len(body))),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)
