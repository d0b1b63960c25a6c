"""The owner runs the room, on the socket-free harness: a kicked player's seat is freed and
their token is gone (in a game an AI plays the seat to the end), any seat goes to an AI at
any time, a player can leave a game for good, an unready player is freed after the room's
idle time, and the owner can end a game as a draw. Clients that always take end in a draw.
(``durak host --idle`` is read at the end.)"""

from __future__ import annotations

import pytest
from harness import FakeLink, Harness, command_line

from engine import Action, Pass, SeatView, Take
from host import HostConfig
from protocol import Ack, Draw, Kick, Leave, Ready, Rejected, Replace, SetOptions, Update


def always_take(view: SeatView) -> Action:
    """A colluder: the defender always takes, everyone else passes when they may."""
    for action in (Take(), Pass()):
        if action in view.legal:
            return action
    return view.legal[0]


def table(**options: object) -> Harness:
    config = HostConfig(**{"announce": False, "seats": 3, "fair_wait": 0, **options})  # type: ignore[arg-type]
    return Harness(config)


def seated(pair: Harness, *names: str) -> list[FakeLink]:
    links = [pair.join(name) for name in names]
    assert all(link.seat is not None for link in links)
    return links


def test_the_owner_kicks_a_squatter_out_of_the_lobby() -> None:
    pair = table()
    anna, boris = seated(pair, "Anna", "Boris")  # Boris never says he is ready
    token = boris.token
    refused = pair.command(boris, lambda ref: Kick(ref, 0))
    assert isinstance(refused, Rejected) and refused.reason == "not_owner"
    assert isinstance(pair.command(anna, lambda ref: Kick(ref, 1)), Ack)
    assert boris.closed == "kicked"
    assert anna.room.seats[1].kind == "empty"
    again = pair.join("Boris", token=token)  # the token went with the seat
    assert again.closed == "bad_token"
    cleo = pair.join("Cleo")
    assert cleo.seat == 1


def test_a_player_kicked_from_a_game_is_played_by_an_ai_to_its_end() -> None:
    pair = table(ai=("random",), autostart=True, max_games=1, hold=60)
    anna, boris = seated(pair, "Anna", "Boris")
    host = pair.table
    assert host.playing
    token = boris.token
    assert isinstance(pair.command(anna, lambda ref: Kick(ref, 1)), Ack)
    assert boris.closed == "kicked"
    assert host.seats[1].kind == "ai" and 1 in host.bots
    assert pair.join("Boris", token=token).closed == "bad_token"
    [result] = pair.play_game([anna])  # nobody waits for Boris: the AI plays his seat
    assert len(result.places) == 3
    assert not host.playing
    assert host.seats[1].kind == "empty"  # after the game the seat is free
    assert host.seats[2].kind == "ai"  # (the table's own AI stays)


def test_the_owner_gives_a_seat_to_an_ai_in_the_middle_of_a_game() -> None:
    pair = table(ai=("random",), autostart=True, max_games=1)
    anna, boris = seated(pair, "Anna", "Boris")
    assert pair.table.playing
    refused = pair.command(anna, lambda ref: Replace(ref, 1, "grandmaster"))
    assert isinstance(refused, Rejected) and refused.reason == "unknown_level"
    assert isinstance(pair.command(anna, lambda ref: Replace(ref, 1, "easy")), Ack)
    assert boris.closed == "kicked"
    assert isinstance(pair.command(anna, lambda ref: Replace(ref, 2, "easy")), Ack)
    pair.play_game([anna])
    assert not pair.table.playing
    seats = pair.table.room().seats
    assert [(s.kind, s.level) for s in seats[1:]] == [("ai", "easy"), ("ai", "easy")]


def test_a_player_leaves_a_game_for_good() -> None:
    pair = table(ai=("random",), autostart=True, max_games=1, hold=60)
    anna, boris = seated(pair, "Anna", "Boris")
    assert pair.table.playing
    assert isinstance(pair.command(boris, lambda ref: Leave(ref)), Ack)
    assert boris.closed == "left"
    room = anna.room
    assert room.seats[1].kind == "ai" and room.seats[1].status == "ai"
    pair.play_game([anna])  # the game does not wait the hold for him: an AI plays on
    assert pair.scheduler.clock == 0  # (no time passed: nobody waited for the hold)
    assert not pair.table.playing and pair.table.seats[1].kind == "empty"


def test_the_owner_leaving_a_game_hands_the_room_on() -> None:
    pair = table(ai=("random",), autostart=True, max_games=1)
    anna, boris = seated(pair, "Anna", "Boris")
    assert pair.table.playing
    assert isinstance(pair.command(anna, lambda ref: Leave(ref)), Ack)
    assert anna.closed == "left"
    assert pair.table.owner == 1
    pair.play_game([boris])


def test_an_unready_player_is_freed_after_the_rooms_idle_time() -> None:
    pair = table(seats=4)
    anna, boris, cleo = seated(pair, "Anna", "Boris", "Cleo")
    pair.command(cleo, lambda ref: Ready(ref, True))
    assert pair.table.seats[2].ready
    assert isinstance(pair.command(anna, lambda ref: SetOptions(ref, 0, None, idle_ms=200)), Ack)
    assert anna.room.idle_ms == 200
    pair.advance(0.2)
    assert boris.closed == "idle"  # never ready
    assert pair.table.seats[1].kind == "empty"
    # The owner (whose start is their readiness) and a ready player stay; a player who
    # takes the mark back is watched again.
    assert [s.kind for s in pair.table.seats] == ["human", "empty", "human", "empty"]
    pair.command(cleo, lambda ref: Ready(ref, False))
    assert cleo.closed is None
    pair.advance(0.2)
    assert cleo.closed == "idle"
    assert pair.table.seats[0].link is not None and anna.closed is None


def test_the_owner_ends_a_game_as_a_draw_for_everyone() -> None:
    pair = table(ai=("random",), autostart=True, max_games=1)
    anna, boris = seated(pair, "Anna", "Boris")
    assert pair.table.playing
    refused = pair.command(boris, lambda ref: Draw(ref))
    assert isinstance(refused, Rejected) and refused.reason == "not_owner"
    ack = pair.command(anna, lambda ref: Draw(ref))
    assert isinstance(ack, Ack) and ack.seq is None  # (no act became the draw's update)
    end = anna.last(Update)  # after the ack: the update with the next seq and its end alone
    assert anna.sent.index(ack) < anna.sent.index(end) and len(end.events) == 1
    results = pair.play_game([anna, boris])
    assert results[0] == results[1] and results[0].durak is None
    assert not pair.table.playing
    assert pair.table.series.draws == 1
    refused = pair.command(anna, lambda ref: Draw(ref))
    assert isinstance(refused, Rejected) and refused.reason == "no_game"


def test_colluding_clients_that_always_take_end_in_a_draw() -> None:
    pair = table(autostart=True, max_games=1, seed=5)
    clients = seated(pair, "Anna", "Boris", "Cleo")
    results = pair.play_game(clients, always_take)
    assert len(results) == 3 and all(r == results[0] for r in results)
    assert results[0].durak is None
    assert not pair.table.playing
    assert pair.table.series.draws == 1


def test_durak_host_idle_frees_an_unready_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """``durak host --idle`` (its ``main``, in this process) gives the table that idle time."""
    pair = Harness(command_line(monkeypatch, "--seats", "3", "--idle", "0.3"))
    anna, boris = seated(pair, "Anna", "Boris")
    assert anna.room.idle_ms == 300
    pair.advance(0.3)
    assert boris.closed == "idle" and anna.closed is None
