"""The phones' door: the host serves the browser page and its WebSocket on a port of its
own, so a guest with only a phone scans a code and plays (docs/protocol.md section 19).

One port carries both, and every connection to it is asked at the door first, as a TCP
connection to the table is (``DoorConnection``): a page's plain GET holds a socket too,
so a flood of them is turned away by the door's slots and rates before it can use up the
host's open files. A plain GET is a file of the page (``PageFiles``: a flat folder
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

A browser sends its page's ``Origin`` with every WebSocket: one that is not a page of this
machine's own (a hostile page on another site, opening a socket to the LAN) is refused
before the handshake (403). The same host on another port is this machine's: a party's
page plays each round at a table whose door is a port of its own. A client without a
browser sends none and is let in, like a TCP one. The name a request was sent to (its
``Host``) must be one a LAN can have: an IP address, a name of one label, or one under a
local domain (``.local``, ``.lan``, ``.home``, ``.internal``, ``.home.arpa``...). A
public name is refused (403): a page of another site whose name its owner points at a LAN
address (DNS rebinding) would otherwise pass for this machine's own.

Why ``websockets``: one well-kept library (BSD-3, no dependencies, wheels for the three
systems) serves plain GETs (``process_request``) and WebSockets on the running loop; the
handshake, framing and close are its, our door and protocol are ours.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gzip
import ipaddress
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

from protocol import BAD_FRAME, HEADER_SIZE, MAX_FRAME, ProtocolError

from .admission import Admit
from .doorway import Doorway, listening_socket
from .link import LINGER, address_of, local_of

__all__ = [
    "PARTY_WEB_PORT",
    "WEB_PORT",
    "DoorConnection",
    "PageFiles",
    "WebDoor",
    "WsWire",
    "lan_name",
    "page_files",
]

log = logging.getLogger("durak.host")
WEB_PORT = 45656  # a table's page, unless told otherwise
PARTY_WEB_PORT = 45657  # a party's page, unless told otherwise
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
# a port another program holds (Windows answers WSAEACCES where it holds it exclusively)
TAKEN = {
    code
    for name in ("EADDRINUSE", "WSAEADDRINUSE", "WSAEACCES")
    if (code := getattr(errno, name, None)) is not None
}
OPEN_TIMEOUT = 5.0  # seconds for a request (and a WebSocket's handshake) to arrive


class DoorConnection(ServerConnection):
    """A connection to the web port, let in by the doorway (``door``, set on the class a
    ``WebDoor`` makes) before its request is read, and its slot freed when it closes."""

    door: Doorway[Any]
    admit: Admit[Hashable] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.admit = self.door.arrive(self, address_of(peer), self.transport.abort)
        if self.admit is None:  # (no goodbye: nothing has been said on HTTP yet)
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.door.left(self)


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
        """Listen on ``port``, or on any free port where another program has that one (a
        second table on this machine): the page's address is shown wherever it is."""
        try:
            sock = listening_socket(bind, port)
        except OSError as exc:
            if not port or exc.errno not in TAKEN:
                raise
            log.warning("the web port %d is taken: the page is on another one", port)
            sock = listening_socket(bind, 0)
        self.port = sock.getsockname()[1]
        admitted = type("DoorConnection", (DoorConnection,), {"door": self.doorway})
        self._server = await serve(
            self._serve,
            sock=sock,
            create_connection=admitted,
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
        """A WebSocket: a link of the doorway, on the slot its connection was given."""
        admit = ws.admit if isinstance(ws, DoorConnection) else None
        if admit is None:
            return
        await self.doorway.serve(ws, WsWire(ws), admit)

    def _request(self, ws: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        host = request.headers.get("Host", "")
        if not lan_name(_hostname(host)):
            log.info("refusing a request for the name %s", host[:100])
            return _plain(HTTPStatus.FORBIDDEN, "Open the page at the address the host shows.")
        if path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and _hostname(origin.removeprefix("http://")) != _hostname(host):
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


LOCAL_DOMAINS = (".local", ".lan", ".home", ".internal", ".localdomain", ".home.arpa")


def lan_name(name: str) -> bool:
    """Whether ``name`` (a ``Host`` without its port) is one a LAN can have: an IP
    address, a name of one label (``localhost``, ``mypc``), or one under a local domain."""
    bare = name.strip("[]").rstrip(".").lower()
    if not bare:
        return False
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return "." not in bare or bare.endswith(LOCAL_DOMAINS)
    return True


def _hostname(host: str) -> str:
    """The name or address of a ``Host`` header's value (or an origin's), without its port."""
    if host.startswith("["):  # an IPv6 address
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def _policy(host: str) -> str:
    """Everything from this page's own origin alone, and WebSockets to this machine (a
    party's tables have ports of their own)."""
    name = _hostname(host)
    plain = name and all(c.isalnum() or c in ".-[]:" for c in name)
    socket = f" ws://{name}:*" if plain else ""
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
