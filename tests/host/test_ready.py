"""The players' ready marks at the host, on the socket-free harness: the owner's
start waits for every other player, AI seats are always ready, and a mark lasts only for
the next game of the player who set it."""

from __future__ import annotations

import random

from harness import FakeLink, Harness

from engine import Rules
from host import HostConfig
from host.lobby import REFUSALS
from protocol import (
    Ack,
    Act,
    Message,
    Ready,
    Rejected,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
)


def table_of(seats: int, *ai: str) -> Harness:
    return Harness(HostConfig(seats=seats, ai=ai, announce=False, seed=7, fair_wait=0))


def join(table: Harness, name: str) -> FakeLink:
    link = table.join(name)
    assert link.seat is not None
    return link


def ask(table: Harness, link: FakeLink, message: Message) -> Message:
    """What the table answers ``link`` (its ack or rejection)."""
    answer: Message = table.ask(link, message)
    return answer


def marks(link: FakeLink) -> list[bool]:
    """The ready marks of the room this link heard last."""
    return [seat.ready for seat in link.room.seats]


def test_the_start_waits_for_every_other_player_and_a_mark_can_be_taken_back() -> None:
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
    assert table.table.playing and marks(boris) == [False, False, True]  # marks are spent
    assert ask(table, boris, Ready(7, True)) == Rejected(
        7, "game_running", REFUSALS["game_running"]
    )
    assert not table.table.seats[1].ready


def test_with_only_computer_players_the_owner_starts_at_once() -> None:
    table = table_of(3, "random", "random")
    anna = join(table, "Anna")
    assert marks(anna) == [False, True, True]
    assert ask(table, anna, Start(1)) == Ack(1, None)


def test_a_mark_is_cleared_when_the_game_ends() -> None:
    table = table_of(2)
    anna, boris = join(table, "Anna"), join(table, "Boris")
    links = {0: anna, 1: boris}
    ask(table, boris, Ready(1, True))
    ask(table, anna, Start(2))
    rng = random.Random(3)
    ref = 10
    while table.table.state is not None:  # random legal moves until the game ends
        state = table.table.state
        seat, action = rng.choice([(s, a) for s in range(2) for a in state.legal_actions(s)])
        ref += 1
        assert ask(table, links[seat], Act(ref, action)) == Ack(ref, table.table.seq)
    room = anna.room
    assert room.status == "lobby" and room.series.games == 1
    assert marks(anna) == [False, False]  # a rematch needs everyone ready again
    assert ask(table, anna, Start(1)).reason == "not_ready"  # type: ignore[attr-defined]
    ask(table, boris, Ready(2, True))
    assert ask(table, anna, Start(3)) == Ack(3, None) and table.table.game == 2


def test_a_seat_that_changes_hands_or_rules_is_not_ready() -> None:
    table = table_of(3, "random")
    anna, boris = join(table, "Anna"), join(table, "Boris")
    ask(table, boris, Ready(1, True))
    table.gone(boris)  # Boris leaves the lobby; Cleo takes his seat
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
    table.gone(dmitri)  # and leaves again
    assert marks(anna) == [False, True, False]
    assert ask(table, anna, SetSeat(8, 2, "random")) == Ack(8, None)
    assert marks(anna) == [False, True, True]
    # new rules: everyone agrees to them again (the same rules change nothing)
    assert ask(table, anna, SetRules(4, table.table.rules)) == Ack(4, None)
    assert marks(anna) == [False, True, True]
    assert ask(table, anna, SetRules(5, Rules(players=3, transfer=True))) == Ack(5, None)
    assert marks(anna) == [False, False, True]
