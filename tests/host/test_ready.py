"""The players' ready marks at the host, sans-I/O (the table with fake links): the owner's
start waits for every other player, AI seats are always ready, and a mark lasts only for
the next game of the player who set it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from test_fuzz import InlineExecutor

from engine import Rules
from host import HostConfig
from host.lobby import REFUSALS
from host.table import Gone, Incoming, Table
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Hello,
    Message,
    Ready,
    Rejected,
    RoomUpdate,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
)


class Link:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.watching = False
        self.address = "127.0.0.1"
        self.sent: list[Message] = []
        self.closed: str | None = None

    def send(self, message: Message) -> None:
        self.sent.append(message)

    def close(self, code: str, text: str) -> None:
        self.closed = code

    def release(self) -> None:
        pass

    def last(self, kind: type) -> Any:
        return next(m for m in reversed(self.sent) if isinstance(m, kind))


def on_table(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(body())


def table_of(seats: int, *ai: str) -> Table:
    config = HostConfig(seats=seats, ai=ai, announce=False, seed=7, fair_wait=0)
    return Table(config, executor=InlineExecutor())


def join(table: Table, name: str) -> Link:
    link = Link()
    table.handle(Incoming(link, Hello(PROTOCOL_VERSION, name)))
    assert link.seat is not None
    return link


def ask(table: Table, link: Link, message: Message) -> Message:
    """What the table answers ``link`` (its ack or rejection)."""
    table.handle(Incoming(link, message))
    return link.last(Ack | Rejected)  # type: ignore[arg-type]


def marks(link: Link) -> list[bool]:
    """The ready marks of the room this link heard last."""
    return [seat.ready for seat in link.last(RoomUpdate).room.seats]


def test_the_start_waits_for_every_other_player_and_a_mark_can_be_taken_back() -> None:
    async def body() -> None:
        table = table_of(3, "random")
        anna, boris = join(table, "Anna"), join(table, "Boris")
        assert marks(anna) == [False, False, True]  # the AI seat is always ready
        assert ask(table, anna, Start(1)) == Rejected(1, "not_ready", REFUSALS["not_ready"])
        assert ask(table, boris, Ready(2, True)) == Ack(2, None)
        assert marks(anna) == [False, True, True]
        assert ask(table, boris, Ready(3, False)) == Ack(3, None)
        assert marks(anna) == [False, False, True]
        assert ask(table, anna, Start(4)).reason == "not_ready"  # type: ignore[attr-defined]
        ask(table, boris, Ready(5, True))
        assert ask(table, anna, Start(6)) == Ack(6, None)  # the owner's Start is his mark
        assert table.playing and marks(boris) == [False, False, True]  # marks are spent
        assert ask(table, boris, Ready(7, True)) == Rejected(
            7, "game_running", REFUSALS["game_running"]
        )
        assert not table.seats[1].ready
        table.close()

    on_table(body)


def test_with_only_computer_players_the_owner_starts_at_once() -> None:
    async def body() -> None:
        table = table_of(3, "random", "random")
        anna = join(table, "Anna")
        assert marks(anna) == [False, True, True]
        assert ask(table, anna, Start(1)) == Ack(1, None)
        table.close()

    on_table(body)


def test_a_mark_is_cleared_when_the_game_ends() -> None:
    async def body() -> None:
        table = table_of(2)
        anna, boris = join(table, "Anna"), join(table, "Boris")
        links = {0: anna, 1: boris}
        ask(table, boris, Ready(1, True))
        ask(table, anna, Start(2))
        rng = random.Random(3)
        ref = 10
        while table.state is not None:  # random legal moves until the game ends
            state = table.state
            seat, action = rng.choice([(s, a) for s in range(2) for a in state.legal_actions(s)])
            ref += 1
            assert ask(table, links[seat], Act(ref, action)) == Ack(ref, table.seq)
        room = anna.last(RoomUpdate).room
        assert room.status == "lobby" and room.series.games == 1
        assert marks(anna) == [False, False]  # a rematch needs everyone ready again
        assert ask(table, anna, Start(1)).reason == "not_ready"  # type: ignore[attr-defined]
        ask(table, boris, Ready(2, True))
        assert ask(table, anna, Start(3)) == Ack(3, None) and table.game == 2
        table.close()

    on_table(body)


def test_a_seat_that_changes_hands_or_rules_is_not_ready() -> None:
    async def body() -> None:
        table = table_of(3, "random")
        anna, boris = join(table, "Anna"), join(table, "Boris")
        ask(table, boris, Ready(1, True))
        table.handle(Gone(boris))  # Boris leaves the lobby; Cleo takes his seat
        cleo = join(table, "Cleo")
        assert cleo.seat == 1 and marks(anna) == [False, False, True]
        assert ask(table, anna, Start(2)).reason == "not_ready"  # type: ignore[attr-defined]
        ask(table, cleo, Ready(3, True))
        assert marks(anna) == [False, True, True]
        # Cleo's mark is hers: the owner changing the AI seat or the options keeps it
        assert ask(table, anna, SetSeat(6, 2, None)) == Ack(6, None)
        assert marks(anna) == [False, True, False]
        dmitri = join(table, "Dmitri")  # someone joins beside her: she stays ready
        assert dmitri.seat == 2 and marks(anna) == [False, True, False]
        assert ask(table, anna, SetOptions(7, 5000, None)) == Ack(7, None)
        table.handle(Gone(dmitri))  # and leaves again
        assert marks(anna) == [False, True, False]
        assert ask(table, anna, SetSeat(8, 2, "random")) == Ack(8, None)
        assert marks(anna) == [False, True, True]
        # new rules: everyone agrees to them again (the same rules change nothing)
        assert ask(table, anna, SetRules(4, table.rules)) == Ack(4, None)
        assert marks(anna) == [False, True, True]
        assert ask(table, anna, SetRules(5, Rules(players=3, transfer=True))) == Ack(5, None)
        assert marks(anna) == [False, False, True]
        table.close()

    on_table(body)
