"""Pages served for the browser tests from a temporary folder: the driver's own test page
and a hostile page of another site. Served with ``websockets`` as the host's door serves
its page, under the door's kind of Content-Security-Policy."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from browser import LAN_NAME
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

__all__ = ["page_site", "static_site"]

# The page's own origin and WebSockets anywhere on the LAN (a hostile page tries the door).
CSP = "default-src 'self'; connect-src 'self' ws: ; img-src 'self' data:; style-src 'self'"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


@asynccontextmanager
async def static_site(folder: Path) -> AsyncIterator[int]:
    """Serves the folder's files (and ``/ws``, an echo) on 127.0.0.1; yields the port."""

    def respond(connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/ws":
            return None  # on to the WebSocket handshake
        file = folder / (request.path.lstrip("/") or "index.html")
        if file.parent != folder or not file.is_file():
            return connection.respond(404, "not found\n")
        body = file.read_bytes()
        headers = Headers(
            {
                "Content-Type": TYPES[file.suffix],
                "Content-Length": str(len(body)),
                "Content-Security-Policy": CSP,
                "Cache-Control": "no-cache",
            }
        )
        return Response(200, "OK", headers, body)

    async def echo(socket: ServerConnection) -> None:
        async for message in socket:
            await socket.send(message)

    async with serve(
        echo, "127.0.0.1", 0, process_request=respond, ping_interval=None, close_timeout=1
    ) as server:
        yield server.sockets[0].getsockname()[1]


@asynccontextmanager
async def page_site(folder: Path, index: str, script: str) -> AsyncIterator[str]:
    """A page, ``index`` (its HTML) with ``script`` as its ``app.js``, served from
    ``folder``: yields its address under the LAN name the browser maps to 127.0.0.1."""
    (folder / "index.html").write_text(index, encoding="utf-8")
    (folder / "app.js").write_text(script, encoding="utf-8")
    async with static_site(folder) as port:
        yield f"http://{LAN_NAME}:{port}/"
