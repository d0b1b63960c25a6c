"""``durak conformance --party HOST:PORT``: check a party host against docs/protocol.md
section 17.

Against a fresh party nobody has joined (``durak party --bind 127.0.0.1 --no-announce
--no-save``), it joins as three players and a board and checks, in order: the handshake
(``joined``, the organiser, the token), the goodbyes of bad input (a bad frame, a frame
too large, a first message that is not ``join``, another version, a second ``join``, a
token of nobody, a name taken, a board with a token), the frames before a bad one answered
first, the heartbeat (a silent connection is asked, and an ``alive`` keeps it), a board's
refusals, the organiser's
requests and their refusals (``not_organiser``, ``bad_rules``, ``unknown_level``,
``too_few``), leaving and coming back, and one whole round of a one-round night at tables
of two: each player's ``party_table``, its seat held by its token at the table, the game
played there, and its result scored in the ``party`` that follows (then ``over``). Its
lines and exit status are the host suite's (``report``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TextIO

import msgpack  # type: ignore[import-untyped]

from client.cli.bot_player import BotPlayer
from client.cli.conformance.report import Check, Failed, Record
from client.net.client import HostClosed, NetClient
from client.net.party import PartyClient
from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Alive,
    Goodbye,
    Heartbeat,
    Join,
    Party,
    PartyAck,
    PartyConnection,
    PartyMessage,
    PartyTable,
    PartyUpdate,
    Ping,
    Pong,
    ProtocolError,
    Rejected,
    UnplayableRules,
    frame,
    party_encode,
)

__all__ = ["PartySuite"]

WAIT = 10.0  # seconds for any one answer
HEARTBEAT_WAIT = 4.0 + 2.0  # a third of the party's silence (12 s), and some slack
GAME_WAIT = 120.0  # seconds for the round's game


class PartySuite:
    def __init__(self, host: str, port: int, out: TextIO | None = None) -> None:
        self.host, self.port = host, port
        self.record = Record(out)
        self.clients: list[PartyClient] = []

    async def run(self) -> list[Check]:
        """Every check in order; ``OSError`` if the party cannot be reached at all."""
        _, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), WAIT)
        writer.close()
        try:
            await self._checks()
        except (Failed, HostClosed, TimeoutError) as exc:
            self.check("every step was answered", False, f"{exc}; the checks after it did not run")
        finally:
            for client in self.clients:
                await client.close()
        return self.record.results

    def check(self, name: str, passed: bool, detail: str = "") -> bool:
        return self.record.check(f"party: {name}", passed, detail)

    async def join(self, name: str, token: str | None = None, board: bool = False) -> PartyClient:
        client = await asyncio.wait_for(
            PartyClient.connect(self.host, self.port, name, token=token, board=board), WAIT
        )
        self.clients.append(client)
        return client

    async def raw(self, *payloads: bytes) -> list[PartyMessage]:
        """What a fresh connection is sent for ``payloads``, up to the close."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        conn = PartyConnection(host=False)
        writer.write(b"".join(payloads))
        out: list[PartyMessage] = []
        with contextlib.suppress(ConnectionError, TimeoutError):
            while data := await asyncio.wait_for(reader.read(65536), WAIT):
                conn.receive_data(data)
                while (message := conn.next_message()) is not None:
                    out.append(message)
        writer.close()
        return out

    async def goodbye(self, name: str, code: str, *payloads: bytes) -> None:
        answer = await self.raw(*payloads)
        last = answer[-1] if answer else None
        ok = isinstance(last, Goodbye) and last.code == code
        self.check(f"{name}: goodbye {code}", ok, f"got {last!r}")

    async def answer(self, client: PartyClient, ref: int) -> PartyAck | Rejected:
        """The ack or the rejection of request ``ref`` (other messages are skipped)."""
        while True:
            message = await asyncio.wait_for(client.receive(), WAIT)
            if isinstance(message, PartyAck | Rejected) and message.ref == ref:
                return message

    async def refused(self, client: PartyClient, ref: int, reason: str, name: str) -> None:
        answer = await self.answer(client, ref)
        ok = isinstance(answer, Rejected) and answer.reason == reason and bool(answer.text)
        self.check(f"{name}: rejected {reason}", ok, f"got {answer!r}")

    async def party_where(self, client: PartyClient, holds: object) -> Party:
        """The first ``party`` that ``holds`` (the latest known one included)."""
        party = client.party
        while not holds(party):  # type: ignore[operator]
            message = await asyncio.wait_for(client.receive(), GAME_WAIT)
            if isinstance(message, PartyUpdate):
                party = message.party
        return party

    async def _checks(self) -> None:
        anna = await self.join("Anna")
        party = anna.party
        self.check(
            "joined: the first player is player 0, the organiser, with a token",
            anna.player == 0 and party.organiser == 0 and anna.token is not None,
            f"player {anna.player}, organiser {party.organiser}",
        )
        self.check("a fresh party is gathering", party.status == "gathering", party.status)
        await self._bad_input()
        board = await self.join("Board", board=True)
        self.check("a board has no player and no token", board.player is None and not board.token)
        await self.refused(board, board.start(), "board", "a board's party_start")
        boris, carl = await self.join("Boris"), await self.join("Carl")
        await self.refused(boris, boris.start(), "not_organiser", "party_start from a player")
        asked = Rules(players=2).to_dict() | {"players": 6, "deck_size": 24}
        ref = anna.set_up(UnplayableRules(tuple(asked.items()), ""), 1, None, False, "random")
        await self.refused(anna, ref, "bad_rules", "unplayable rules")
        ref = anna.set_up(Rules(players=2), 1, None, False, "no-such-level")
        await self.refused(anna, ref, "unknown_level", "an unknown AI level")
        ref = anna.set_up(Rules(players=2), 1, None, False, "random")
        answer = await self.answer(anna, ref)
        party = await self.party_where(anna, lambda p: p.setup.rules.players == 2)
        self.check("the organiser's setup is acked and shown", isinstance(answer, PartyAck))
        await self.refused(anna, anna.start(), "too_few", "3 players at tables of 2 unfilled")
        ping = anna.ping()
        pong = await asyncio.wait_for(anna.receive(), WAIT)
        while not isinstance(pong, Pong):
            pong = await asyncio.wait_for(anna.receive(), WAIT)
        self.check("ping is answered with pong", pong.ref == ping, repr(pong))
        await self._leaving(carl)
        await self._round(anna, boris)

    async def _bad_input(self) -> None:
        join = party_encode(Join(PROTOCOL_VERSION, "Zed", None, "board"))  # (no player)
        await self.goodbye("a byte msgpack never uses", "bad_frame", frame(b"\xc1"))
        await self.goodbye("a frame of 1 MiB", "frame_too_large", (1 << 20).to_bytes(4, "big"))
        start = frame(msgpack.packb({"type": "party_start", "ref": 1}))
        await self.goodbye("party_start before join", "bad_message", start)
        await self.goodbye("a version 4 join", "version_mismatch", party_encode(Join(4, "Old")))
        await self.goodbye("a second join", "bad_message", join, join)
        await self.goodbye(
            "a field too many",
            "bad_message",
            frame(
                msgpack.packb(
                    {
                        "type": "join",
                        "version": PROTOCOL_VERSION,
                        "name": "X",
                        "token": None,
                        "role": "play",
                        "extra": 1,
                    }
                )
            ),
        )
        await self.goodbye(
            "a token of nobody", "bad_token", party_encode(Join(PROTOCOL_VERSION, "Y", "f" * 32))
        )
        await self.goodbye(
            "a name taken", "name_taken", party_encode(Join(PROTOCOL_VERSION, "anna"))
        )
        board = party_encode(Join(PROTOCOL_VERSION, "TV", "0" * 32, "board"))
        await self.goodbye("a board with a token", "bad_token", board)
        tv = party_encode(Join(PROTOCOL_VERSION, "TV", None, "board"))
        ping = frame(msgpack.packb({"type": "ping", "ref": 7}))
        answered = await self.raw(tv, ping, ping, (1 << 20).to_bytes(4, "big"))
        kinds = [type(m).__name__ for m in answered]
        self.check(
            "the frames before a frame too large are answered first",
            kinds[-3:] == ["Pong", "Pong", "Goodbye"],
            ", ".join(kinds),
        )
        await self._heartbeat()

    async def _heartbeat(self) -> None:
        """A board that says nothing after its join is sent ``heartbeat`` within a third of
        the silence (12 s); its ``alive`` keeps it, as a ``ping`` answered then shows."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        conn = PartyConnection(host=False)
        writer.write(party_encode(Join(PROTOCOL_VERSION, "Wall", None, "board")))

        async def next_message() -> PartyMessage:
            while (message := conn.next_message()) is None:
                data = await reader.read(65536)
                if not data:
                    raise ConnectionError("the party host closed the connection")
                conn.receive_data(data)
            return message

        try:
            async with asyncio.timeout(HEARTBEAT_WAIT):
                while not isinstance(message := await next_message(), Heartbeat):
                    pass
            self.check("a silent connection is sent heartbeat", True)
            writer.write(party_encode(Alive(message.ref)) + party_encode(Ping(9)))
            async with asyncio.timeout(WAIT):
                while not isinstance(pong := await next_message(), Pong):
                    pass
            self.check("alive keeps the connection", pong.ref == 9, repr(pong))
        except (TimeoutError, ConnectionError, ProtocolError) as exc:
            self.check("a silent connection is sent heartbeat", False, repr(exc))
        finally:
            writer.close()

    async def _leaving(self, carl: PartyClient) -> None:
        token, ref = carl.token, carl.leave()
        answer = await self.answer(carl, ref)
        try:
            while True:
                await asyncio.wait_for(carl.receive(), WAIT)
        except HostClosed as exc:
            gone = exc.code
        self.check(
            "party_leave: ack, then goodbye left",
            isinstance(answer, PartyAck) and gone == "left",
            gone,
        )
        assert token is not None
        self.carl_token = token

    async def _round(self, anna: PartyClient, boris: PartyClient) -> None:
        ref = anna.start()
        answer = await self.answer(anna, ref)
        self.check(
            "the organiser's party_start is acked", isinstance(answer, PartyAck), repr(answer)
        )
        tables = [await self._table(client) for client in (anna, boris)]
        names = {t.names[t.seat] for t in tables}
        self.check(
            "each player is sent their party_table at one table of two",
            names == {"Anna", "Boris"} and tables[0].port == tables[1].port,
            repr(tables),
        )
        carl = await self.join("Carl", token=self.carl_token)
        me = next(p for p in carl.party.players if p.id == carl.player)
        self.check(
            "who left comes back with the token, unseated", me.status == "here" and me.table is None
        )
        results = await asyncio.wait_for(
            asyncio.gather(
                *(self._play(t, n) for t, n in zip(tables, ("Anna", "Boris"), strict=True))
            ),
            GAME_WAIT,
        )
        party = await self.party_where(anna, lambda p: p.status == "over")
        done = party.tables[0] if party.tables else None
        self.check(
            "the table's result is scored in the party (then over)",
            done is not None and done.status == "done" and done.places == results[0].places,
            repr(done),
        )
        durak = results[0].durak
        scored = {p.name: (p.wins, p.losses, p.games) for p in party.players}
        loser = None if durak is None else tables[0].names[durak]
        self.check(
            "the standings count the game: the Durak's loss",
            (loser is None or scored[loser][1] == 1)
            and scored["Anna"][2] == scored["Boris"][2] == 1,
            repr(scored),
        )
        await self.refused(anna, anna.start(), "over", "party_start after the night")

    async def _table(self, client: PartyClient) -> PartyTable:
        while True:
            message = await asyncio.wait_for(client.receive(), WAIT)
            if isinstance(message, PartyTable):
                return message

    async def _play(self, table: PartyTable, name: str):  # type: ignore[no-untyped-def]
        client = await NetClient.connect(table.address, table.port, name, token=table.token)
        try:
            seat = client.welcome.seat if client.welcome else None
            self.check(f"{name}'s token holds seat {table.seat} at the table", seat == table.seat)
            played = await BotPlayer(client, "random", 1, 26).play()
        finally:
            await client.close()
        return played.results[0]
