"""The room's rules as pure checks (``host.lobby``), without a table or a socket: what each
seat may ask for in the lobby and during a game, and the code of every refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Rules, Series
from host.lobby import REFUSALS, check, known_level, refusal_text, waiting
from protocol import (
    Draw,
    Kick,
    Leave,
    Ready,
    Replace,
    Room,
    SeatInfo,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
    UnplayableRules,
)

ANNA = SeatInfo("human", "Anna", None, True, ready=False)  # the owner (seat 0)
BORIS = SeatInfo("human", "Boris", None, True, ready=False)
READY = SeatInfo("human", "Cleo", None, True, ready=True)
AI = SeatInfo("ai", "Easy", "easy", True, ready=True)
EMPTY = SeatInfo("empty")


def room(*seats: SeatInfo, status: str = "lobby") -> Room:
    return Room(
        name="Kitchen",
        status=status,
        owner=0,
        seats=seats,
        rules=Rules(players=len(seats)),
        password=False,
        autostart=False,
        series=Series.new(len(seats)),
        game=0,
    )


UNPLAYABLE = UnplayableRules(
    tuple({**Rules().to_dict(), "players": 6, "deck_size": 24}.items()), "too few cards"
)


@pytest.mark.parametrize(
    ("seats", "status", "who", "message", "code"),
    [
        # only the owner sets the room up, and only in the lobby
        ((ANNA, BORIS), "lobby", 1, SetSeat(1, 1, None), "not_owner"),
        ((ANNA, EMPTY), "playing", 0, SetSeat(1, 1, "easy"), "game_running"),
        ((ANNA, EMPTY), "lobby", 0, SetSeat(1, 2, "easy"), "no_such_seat"),
        ((ANNA, BORIS), "lobby", 0, SetSeat(1, 1, "easy"), "seat_taken"),
        ((ANNA, EMPTY), "lobby", 0, SetSeat(1, 1, "grandmaster"), "unknown_level"),
        ((ANNA, AI), "lobby", 0, SetSeat(1, 1, None), None),
        ((ANNA, EMPTY), "lobby", 0, SetSeat(1, 1, "hard"), None),
        ((ANNA, BORIS), "lobby", 1, SetRules(1, Rules(players=2)), "not_owner"),
        ((ANNA, BORIS), "lobby", 0, SetRules(1, UNPLAYABLE), "bad_rules"),
        ((ANNA, AI, BORIS), "lobby", 0, SetRules(1, Rules(players=2)), "seat_taken"),
        ((ANNA, BORIS, AI), "lobby", 0, SetRules(1, Rules(players=2)), None),
        ((ANNA, BORIS), "playing", 0, SetOptions(1, 0, None, idle_ms=60000), "game_running"),
        ((ANNA, BORIS), "lobby", 1, SetOptions(1, 0, None, idle_ms=60000), "not_owner"),
        ((ANNA, BORIS), "lobby", 0, SetOptions(1, 0, None, idle_ms=60000), None),
        # the start waits for every seat and every other player's ready mark
        ((ANNA, EMPTY), "lobby", 0, Start(1), "seats_empty"),
        ((ANNA, BORIS), "lobby", 0, Start(1), "not_ready"),
        ((ANNA, READY, AI), "lobby", 0, Start(1), None),
        ((ANNA, READY), "lobby", 1, Start(1), "not_owner"),
        ((ANNA, READY), "playing", 0, Start(1), "game_running"),
        ((ANNA, BORIS), "lobby", 1, Ready(1, True), None),
        ((ANNA, BORIS), "playing", 1, Ready(1, True), "game_running"),
        # the owner runs the room: kick and replace at any time, draw during a game
        ((ANNA, BORIS), "lobby", 1, Kick(1, 0), "not_owner"),
        ((ANNA, BORIS), "lobby", 0, Kick(1, 2), "no_such_seat"),
        ((ANNA, BORIS), "lobby", 0, Kick(1, 1), None),
        ((ANNA, BORIS), "playing", 0, Kick(1, 1), None),
        ((ANNA, AI), "lobby", 0, Kick(1, 1), None),  # the AI's seat is emptied
        ((ANNA, AI), "playing", 0, Kick(1, 1), "game_running"),  # not mid-game
        ((ANNA, BORIS), "playing", 0, Kick(1, 0), None),  # the owner leaves
        ((ANNA, BORIS), "playing", 1, Replace(1, 0, "easy"), "not_owner"),
        ((ANNA, BORIS), "playing", 0, Replace(1, 3, "easy"), "no_such_seat"),
        ((ANNA, BORIS), "playing", 0, Replace(1, 1, "grandmaster"), "unknown_level"),
        ((ANNA, BORIS), "playing", 0, Replace(1, 1, "normal"), None),
        ((ANNA, EMPTY), "lobby", 0, Replace(1, 1, "normal"), None),
        ((ANNA, AI), "playing", 0, Replace(1, 1, "hard"), None),
        ((ANNA, BORIS), "lobby", 1, Leave(1), None),
        ((ANNA, BORIS), "playing", 1, Leave(1), None),
        ((ANNA, BORIS), "playing", 1, Draw(1), "not_owner"),
        ((ANNA, BORIS), "lobby", 0, Draw(1), "no_game"),
        ((ANNA, BORIS), "playing", 0, Draw(1), None),
    ],
)
def test_each_command_is_refused_with_its_code_or_allowed(
    seats: tuple[SeatInfo, ...], status: str, who: int, message: object, code: str | None
) -> None:
    assert check(room(*seats, status=status), who, message) == code  # type: ignore[arg-type]


def test_the_start_waits_for_every_other_human_only() -> None:
    assert waiting(room(ANNA, BORIS, READY, AI, EMPTY)) == [1]
    assert waiting(replace(room(ANNA, BORIS), owner=1)) == [0]
    assert waiting(room(ANNA, READY)) == []


def test_every_refusal_has_a_text() -> None:
    assert refusal_text("bad_rules", SetRules(1, UNPLAYABLE)) == (
        "Those rules cannot be played: too few cards."
    )
    assert "normal" in refusal_text("unknown_level", Replace(1, 1, "grandmaster"))
    assert refusal_text("seat_taken", SetRules(1, Rules())) == "A player sits in a seat to remove."
    assert refusal_text("seat_taken", SetSeat(1, 1, "easy")) == REFUSALS["seat_taken"]
    assert all(text.endswith(".") for text in REFUSALS.values())


def test_known_levels() -> None:
    assert known_level("easy") and known_level("hard:0.2")
    assert not known_level("grandmaster") and not known_level("")
