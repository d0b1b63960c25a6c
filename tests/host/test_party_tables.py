"""A party's table on the socket-free harness: seats held by token, the start once
everyone is there (or after the gathering time, the missing held and stood in for), and
the result the party scores."""

from __future__ import annotations

import random
from typing import Any

from harness import FakeLink, Harness, ManualScheduler

from engine import GameLog, Rules, new_game
from engine.playout import random_move
from host import HostConfig
from host.credentials import hash_token
from host.party.tables import party_policy
from host.policy import Finished, Reserved, went_out
from host.table import Table
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Draw,
    Hello,
    Kick,
    Leave,
    Pause,
    Ready,
    Rejected,
    Start,
    Welcome,
    pause_refusal,
    room_refusal,
)

TOKENS = [f"{i:032x}" for i in range(1, 5)]


class PartyHarness(Harness):
    """The harness around a table with the party's policy (opened, as its host's task
    would)."""

    def __init__(self, config: HostConfig, **table: Any) -> None:
        self.scheduler = ManualScheduler()
        self.table = Table(config, scheduler=self.scheduler, policy=party_policy(**table))
        self.links: list[FakeLink] = []
        self.table.open()
        self.settle()


def a_table(humans: int = 3, seats: int = 4, gather: float = 20.0, hold: float = 5.0):  # type: ignore[no-untyped-def]
    results: list[Finished] = []
    config = HostConfig(
        seats=seats,
        ai=("random",) * (seats - humans),
        autostart=True,
        max_games=1,
        rules=Rules(players=seats),
        announce=False,
        seed=4,
        hold=hold,
        fair_wait=0,
        stand_in="random",
    )
    reserved = [Reserved(f"P{i}", hash_token(TOKENS[i])) for i in range(humans)]
    harness = PartyHarness(config, reserved=reserved, on_result=results.append, gather=gather)
    return harness, results


def come(harness: PartyHarness, index: int) -> FakeLink:
    return harness.join(f"P{index}", token=TOKENS[index])


def test_each_seat_is_its_players_by_token_and_nobody_elses() -> None:
    harness, _ = a_table()
    assert [s.kind for s in harness.table.seats] == ["human", "human", "human", "ai"]
    stranger = harness.join("Stranger")
    assert stranger.closed == "table_full"
    second = come(harness, 1)
    assert second.last(Welcome).seat == 1 and not harness.table.playing


def test_the_game_starts_when_everyone_is_there_and_its_result_is_reported() -> None:
    harness, results = a_table()
    links = [come(harness, i) for i in range(3)]
    assert harness.table.playing
    played = harness.play_game(links)
    assert len(results) == 1
    finished = results[0]
    assert finished.result == played[0]
    durak = finished.result.durak
    assert durak is not None and finished.out_after[durak] is None
    first = finished.result.places.index(1)
    assert finished.out_after[first] is not None and finished.out_after[first] <= finished.actions
    assert finished.actions == len(harness.table.logs[-1].actions)


def test_a_player_who_never_comes_is_held_then_stood_in_for() -> None:
    harness, results = a_table(gather=20.0, hold=5.0)
    links = [come(harness, i) for i in range(2)]
    harness.advance(19.0)
    assert not harness.table.playing  # still gathering
    harness.advance(1.0)
    assert harness.table.playing  # dealt without P2
    assert links[0].room.seats[2].status == "away"
    harness.advance(5.0)
    assert links[0].room.seats[2].status == "stand_in"
    harness.play_game(links)
    assert len(results) == 1
    late = come(harness, 2)  # the game is over: the seat was freed with it
    assert late.closed == "bad_token"


def test_a_player_who_drops_in_the_lobby_keeps_their_seat() -> None:
    harness, _ = a_table()
    first = come(harness, 0)
    harness.gone(first)
    assert harness.table.seats[0].kind == "human"  # an ordinary lobby would free it
    back = come(harness, 0)
    assert back.last(Welcome).seat == 0


def test_a_seat_left_in_the_lobby_is_played_by_a_stand_in() -> None:
    harness, results = a_table(humans=2, seats=3, gather=10.0)
    links = [come(harness, i) for i in range(2)]
    assert harness.table.playing  # (every seat was there)
    harness.play_game(links)
    assert len(results) == 1
    harness2, results2 = a_table(humans=3, seats=3, gather=10.0)
    stay = [come(harness2, i) for i in range(2)]
    leaver = come(harness2, 2)
    harness2.send(leaver, Leave(1))
    harness2.advance(10.0)
    assert harness2.table.playing and harness2.table.seats[2].kind == "ai"
    harness2.play_game(stay)
    assert len(results2) == 1


def test_went_out_counts_the_actions_until_each_seat_is_out() -> None:
    rules = Rules(players=3)
    state = new_game(rules, 11)
    log = GameLog(rules, 11)
    rng = random.Random(2)
    while state.result is None:
        seat, action = random_move(state, rng)
        state.apply(seat, action)
        log.actions.append((seat, action))
    actions, out = went_out(log)
    assert actions == len(log.actions)
    result = state.result
    assert out[result.durak] is None if result.durak is not None else True
    outs = [(out[s], result.places[s]) for s in range(3) if out[s] is not None]
    assert [place for _, place in sorted(outs)] == sorted(place for _, place in outs)


def test_the_hello_a_version_4_client_sends_takes_its_seat() -> None:
    harness, _ = a_table()
    link = FakeLink("P0")
    harness.links.append(link)
    harness.send(link, Hello(4, "P0", None, TOKENS[0]))
    assert link.last(Welcome).seat == 0
    assert link.last(Welcome).version == PROTOCOL_VERSION


def test_the_party_runs_its_tables_nobody_owns_them() -> None:
    """The room says so (``run_by``, no owner), and the owner's commands and the pause are
    refused as the shared room rules say (the window asks the same rules)."""
    harness, _ = a_table()
    links = [come(harness, i) for i in range(2)]
    first = links[0]
    assert (first.room.owner, first.room.run_by) == (None, "party")
    for make in (lambda ref: Kick(ref, 1), lambda ref: Start(ref), lambda ref: Draw(ref)):
        answer = harness.command(first, make)
        assert isinstance(answer, Rejected) and answer.reason == "party_table"
        message = make(0)
        assert room_refusal(first.room, 0, message, lambda level: True) == "party_table"
    assert harness.table.seats[1].kind == "human" and not harness.table.playing
    assert isinstance(harness.command(links[1], lambda ref: Ready(ref, True)), Ack)


def test_nobody_pauses_a_party_table_even_alone_with_the_ai() -> None:
    """A party's clock is everyone's: a player seated alone with an AI could otherwise
    stall the whole round (61 s and counting, with no limit)."""
    harness, _ = a_table(humans=1, seats=2)
    alone = come(harness, 0)
    assert harness.table.playing
    answer = harness.command(alone, lambda ref: Pause(ref, True))
    assert isinstance(answer, Rejected) and answer.reason == "party_table"
    assert not harness.table.pause.on and not alone.room.paused
    assert pause_refusal(alone.room, 0) == "party_table"
