"""The phones' door (host/web.py): the page's files and nothing else, its own origin's
WebSocket only, and a WebSocket link that is a link like a TCP one (the door, the
heartbeat, bad input), each phone with its own address."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import secrets
import socket
from pathlib import Path
from typing import Any

import msgpack
import pytest
from live import serving
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from host import Host
from host.web import WsWire, lan_name, page_files
from protocol import PROTOCOL_VERSION

PAGE = {
    "index.html": b"<!doctype html><title>Durak</title><script src=app.js></script>",
    "app.js": b"console.log('durak')",
    "notes.md": b"# not a kind we serve",
}


@pytest.fixture
def page(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    for name, body in PAGE.items():
        (folder / name).write_bytes(body)
    (tmp_path / "secret.txt").write_text("the host's own file")
    return folder


async def get(port: int, path: str, headers: str = "") -> tuple[int, dict[str, str], bytes]:
    """A raw HTTP/1.1 GET of ``path`` exactly as written (no client normalises it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: durak.lan:{port}\r\n{headers}\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    lines = head.decode().split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    fields = {key.lower(): value for key, value in fields.items()}
    body = await reader.readexactly(int(fields.get("content-length", "0")))
    writer.close()
    return int(lines[0].split()[1]), fields, body


def hello(name: str = "Anna", token: str | None = None) -> bytes:
    return msgpack.packb(
        {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": name,
            "password": None,
            "token": token,
            "role": "play",
            "look": None,
        }
    )


async def receive(ws: ClientConnection) -> dict[str, Any]:
    data = await asyncio.wait_for(ws.recv(), 10)
    assert isinstance(data, bytes)
    message = msgpack.unpackb(data)
    assert isinstance(message, dict)
    return message


def served(host: Host, page: Path) -> int:
    assert host.web is not None
    host.web.page = page_files(page)
    return host.web.port


async def test_the_page_is_served_with_its_types_and_its_own_origin_alone(page: Path) -> None:
    async with serving(web_port=0) as host:
        port = served(host, page)
        status, fields, body = await get(port, "/")
        assert (status, body) == (200, PAGE["index.html"])
        assert fields["content-type"] == "text/html; charset=utf-8"
        assert fields["x-content-type-options"] == "nosniff"
        policy = fields["content-security-policy"]
        assert "default-src 'self'" in policy and "ws://durak.lan:*" in policy
        status, fields, body = await get(port, "/app.js?v=2")
        assert (status, body) == (200, PAGE["app.js"])
        assert fields["content-type"].startswith("text/javascript")
        status, fields, _ = await get(port, "/door.json")
        assert status == 200
        assert json.loads(_) == {
            "kind": "table",
            "protocol": PROTOCOL_VERSION,
            "name": host.config.name,
        }


async def test_a_browser_that_takes_gzip_gets_the_page_compressed(page: Path) -> None:
    async with serving(web_port=0) as host:
        port = served(host, page)
        _, fields, body = await get(port, "/app.js", "Accept-Encoding: gzip, br\r\n")
        assert fields["content-encoding"] == "gzip"
        assert gzip.decompress(body) == PAGE["app.js"]


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/..%2fsecret.txt",
        "/static/../secret.txt",
        "//etc/passwd",
        "/etc/passwd",
        "/C:/Windows/win.ini",
        "/notes.md",
        "/index.html/",
        "/.",
    ],
)
async def test_no_path_reaches_beyond_the_pages_files(page: Path, path: str) -> None:
    async with serving(web_port=0) as host:
        status, _, body = await get(served(host, page), path)
        assert status == 404
        assert b"the host's own file" not in body and b"#" not in body


async def test_a_phone_plays_a_whole_game_over_a_websocket_as_a_link_of_its_own(
    page: Path,
) -> None:
    """One message a binary WebSocket message, the game from the deal to its end; the
    link has the phone's own address and port, not a bridge's."""
    async with serving(web_port=0, seats=2, ai=("random",), autostart=True, seed=3) as host:
        port = served(host, page)
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send(hello())
            welcome = await receive(ws)
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            (link,) = host.links
            assert isinstance(link.wire, WsWire)
            mine = ws.local_address
            assert link.peer == f"{mine[0]}:{mine[1]}" and link.address == "127.0.0.1"
            refs = iter(range(1, 10_000))
            acted_at = -1
            while True:
                message = await receive(ws)
                if message["type"] == "commit":
                    value = secrets.token_hex(32)
                    await ws.send(
                        msgpack.packb(
                            {
                                "type": "contribute",
                                "ref": next(refs),
                                "game": message["game"],
                                "value": value,
                            }
                        )
                    )
                if message["type"] not in ("update", "snapshot"):
                    continue
                view = message["view"]
                if view["result"] is not None:
                    break
                if view["legal"] and message["seq"] > acted_at:
                    acted_at = message["seq"]
                    act = {"type": "act", "ref": next(refs), "action": view["legal"][0]}
                    await ws.send(msgpack.packb(act))
        assert host.table.series.games == 1


async def test_a_page_of_another_origin_is_refused(page: Path) -> None:
    async with serving(web_port=0) as host:
        port = served(host, page)
        url = f"ws://127.0.0.1:{port}/ws"
        with pytest.raises(InvalidStatus) as refused:
            await connect(url, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        own = f"http://127.0.0.1:{port}"
        async with connect(url, origin=own) as ws:  # type: ignore[arg-type]
            await ws.send(hello())
            assert (await receive(ws))["type"] == "welcome"


async def goodbye_and_close(ws: ClientConnection) -> tuple[dict[str, Any], int | None]:
    goodbye = await receive(ws)
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 5)
    return goodbye, ws.close_code


async def test_a_text_message_is_a_bad_frame(page: Path) -> None:
    async with serving(web_port=0) as host:
        async with connect(f"ws://127.0.0.1:{served(host, page)}/ws") as ws:
            await ws.send('{"type": "hello"}')
            goodbye, code = await goodbye_and_close(ws)
        assert (goodbye["type"], goodbye["code"], code) == ("goodbye", "bad_frame", 1000)


async def test_a_message_with_a_length_prefix_is_no_message(page: Path) -> None:
    """A WebSocket message is one frame's payload already: a TCP frame sent as is fails."""
    async with serving(web_port=0) as host:
        async with connect(f"ws://127.0.0.1:{served(host, page)}/ws") as ws:
            payload = hello()
            await ws.send(len(payload).to_bytes(4, "big") + payload)
            goodbye, _ = await goodbye_and_close(ws)
        assert goodbye["code"] in ("bad_frame", "bad_message")


async def test_an_oversized_message_closes_the_connection(page: Path) -> None:
    async with (
        serving(web_port=0) as host,
        connect(f"ws://127.0.0.1:{served(host, page)}/ws", max_size=None) as ws,
    ):
        await ws.send(hello())
        await receive(ws)
        await ws.send(b"\x80" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == 1009


async def test_a_silent_phone_is_asked_then_cut_by_the_protocols_heartbeat(page: Path) -> None:
    """No WebSocket pings: a page that answers none of the protocol's heartbeats is gone
    after the silence (and one that answers stays)."""
    async with serving(web_port=0, seats=3, silence=0.6) as host:
        port = served(host, page)
        async with (
            connect(f"ws://127.0.0.1:{port}/ws") as asleep,
            connect(f"ws://127.0.0.1:{port}/ws") as awake,
        ):
            await asleep.send(hello("Anna"))
            await awake.send(hello("Boris"))
            for ws in (asleep, awake):
                assert (await receive(ws))["type"] == "welcome"
            beats = 0
            deadline = asyncio.get_running_loop().time() + 3
            while asyncio.get_running_loop().time() < deadline:
                message = await receive(awake)
                if message["type"] == "heartbeat":
                    beats += 1
                    await awake.send(msgpack.packb({"type": "alive", "ref": message["ref"]}))
            assert beats >= 2
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(asleep.recv(), 5)
            seats = host.table.room().seats
            assert [seats[0].connected, seats[1].connected] == [False, True]


async def test_a_flood_of_websockets_from_one_address_waits_in_the_reserve(page: Path) -> None:
    """The web door is the table's door: over its rate an address is not seated without a
    seat's token."""
    async with serving(web_port=0, connect_burst=2, connect_rate=0.01) as host:
        port = served(host, page)
        url = f"ws://127.0.0.1:{port}/ws"
        async with connect(url) as first, connect(url) as second, connect(url) as third:
            await third.send(hello("Vera"))
            goodbye, _ = await goodbye_and_close(third)
            assert goodbye["code"] == "busy"
            await first.send(hello("Anna"))
            assert (await receive(first))["type"] == "welcome"
            del second


def test_a_missing_page_folder_serves_no_page() -> None:
    assert page_files(Path("/nonexistent/durak/static")) == {}


def test_the_web_port_is_free_after_the_host_stops(page: Path) -> None:
    async def run() -> int:
        async with serving(web_port=0) as host:
            return served(host, page)

    port = asyncio.run(run())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


@pytest.mark.parametrize(
    ("name", "lan"),
    [
        ("192.168.1.20", True),
        ("[fe80::1%eth0]", True),
        ("10.0.0.7", True),
        ("localhost", True),
        ("annas-laptop", True),
        ("annas-laptop.local", True),
        ("durak.lan", True),
        ("box.home.arpa", True),
        ("evil.example.com", False),
        ("attacker.net", False),
        ("", False),
    ],
)
def test_a_lan_name_is_an_address_or_a_local_name(name: str, lan: bool) -> None:
    assert lan_name(name) is lan


async def test_a_page_asked_for_under_a_public_name_is_refused(page: Path) -> None:
    """DNS rebinding: another site's page whose name its owner points at the host's LAN
    address is its own origin to the browser; the door refuses the public name, for the
    page and for the WebSocket alike."""
    async with serving(web_port=0) as host:
        port = served(host, page)
        upgrade = (
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Origin: http://rebind.example.com:{port}\r\n"
        )
        for path, extra in (("/", ""), ("/ws", upgrade)):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            request = f"GET {path} HTTP/1.1\r\nHost: rebind.example.com:{port}\r\n{extra}\r\n"
            writer.write(request.encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.split()[1] == b"403", (path, head)
            writer.close()
        status, _, _ = await get(port, "/")  # (sent as durak.lan: a LAN name)
        assert status == 200


async def test_a_flood_of_idle_connections_to_the_web_port_meets_the_tables_door(
    page: Path,
) -> None:
    """Every connection to the web port (a page's GET too) takes a slot of the table's
    door: past its slots an address's idle connections push out its oldest ones, which
    are closed at once, and the page still loads."""
    async with serving(web_port=0, max_connections=8, connect_rate=1000.0) as host:
        port = served(host, page)
        opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(36)]
        await asyncio.sleep(0.3)
        assert host.door.count <= host.door.limits.limit
        closed = 0
        for reader, _ in opened:
            with contextlib.suppress(TimeoutError, ConnectionError):
                if await asyncio.wait_for(reader.read(1), 0.05) == b"":
                    closed += 1
        assert closed >= len(opened) - host.door.limits.limit
        status, _, body = await get(port, "/")
        assert (status, body) == (200, PAGE["index.html"])
        for _, writer in opened:
            writer.close()
