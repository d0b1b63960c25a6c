"""Game logs: a kept game is rules + seed + actions, and a bad log is refused with why."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import (
    GameLog,
    GameLogError,
    GameResult,
    Rules,
    ThrowInRule,
    new_game,
    observe,
    parse_action,
)
from engine.playout import random_move

RULES = Rules(players=3, throw_in=ThrowInRule.NEIGHBOURS, transfer=True, durak_defends_first=True)
PREVIOUS = GameResult((2, 3, 1), durak=1)


def played_log(
    rules: Rules = RULES, seed: int = 11, previous: GameResult | None = PREVIOUS
) -> GameLog:
    state = new_game(rules, seed, previous)
    rng = random.Random(seed)
    log = GameLog(rules, seed, previous)
    while not state.is_over:
        seat, action = random_move(state, rng)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


@pytest.fixture(scope="module")
def log() -> GameLog:
    return played_log()


@pytest.fixture
def good(log: GameLog) -> dict[str, Any]:
    """A valid log as the JSON mapping a file holds (a fresh copy for each test)."""
    data: dict[str, Any] = json.loads(json.dumps(log.to_dict()))
    return data


def encoded(content: bytes | dict[str, Any] | list[Any]) -> bytes:
    return content if isinstance(content, bytes) else json.dumps(content).encode()


def refused(raw: bytes, *fragments: str) -> str:
    with pytest.raises(GameLogError) as error:
        GameLog.from_bytes(raw)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message
    return message


def test_a_log_round_trips_through_its_bytes(log: GameLog) -> None:
    loaded = GameLog.from_bytes(log.to_bytes())
    assert loaded == log
    final, again = log.replay(), loaded.replay()
    assert final.is_over and final.result == again.result
    for seat in range(RULES.players):
        assert observe(again, seat) == observe(final, seat)


def test_the_bytes_are_the_documented_json(log: GameLog) -> None:
    data = json.loads(log.to_bytes().decode("utf-8"))
    assert data["format"] == "durak-game-log" and data["version"] == 1
    assert data["rules"] == RULES.to_dict() and data["seed"] == 11
    assert data["previous"] == {"places": [2, 3, 1], "durak": 1}
    seat, text = data["actions"][0]
    assert (seat, parse_action(text)) == log.actions[0]


def test_a_log_without_previous_game_or_actions() -> None:
    empty = GameLog(Rules(players=5, deck_size=52), 2**70)
    loaded = GameLog.from_bytes(empty.to_bytes())
    assert loaded == empty and loaded.actions == [] and loaded.previous is None
    assert not loaded.replay().is_over


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b'{"format": "durak-game-log", "version": 1, "rules": {',
        b"not json at all",
        b"[" * 100_000,  # nested too deep for the decoder
        b'{"format": "durak-game-log", "version": 1, "seed": ' + b"9" * 5000 + b"}",
    ],
)
def test_corrupt_json(content: bytes) -> None:
    refused(encoded(content), "not a game log", "corrupt JSON")


def test_a_truncated_log(log: GameLog) -> None:
    data = log.to_bytes()
    refused(data[: len(data) // 2], "truncated or corrupt JSON")


def test_not_utf8(good: dict[str, Any]) -> None:
    data = json.dumps(good).encode().replace(b'"durak-game-log"', b'"durak-game-log\xff"')
    refused(encoded(data), "not UTF-8")
    refused(encoded(b"\xfe\xff\x00{"), "not UTF-8")


@pytest.mark.parametrize(
    "content",
    [
        {"seed": 1, "actions": []},
        {"format": "chess-pgn", "version": 1},
        [1, 2, 3],
        "durak-game-log",
        None,
    ],
)
def test_foreign_json(content: Any) -> None:
    refused(encoded(json.dumps(content).encode()), "not a Durak game log", "format tag")


@pytest.mark.parametrize("version", [2, 0, "1", None, True, 1.0])
def test_wrong_version(good: dict[str, Any], version: Any) -> None:
    good["version"] = version
    refused(encoded(good), f"version {version!r} is not supported")


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"players": 9}, "2 to 6 players, not 9"),
        ({"players": 5, "deck_size": 24}, "cannot deal 6 cards to 5 players"),
        ({"players": 2, "jokers": True}, "unknown rules option(s): jokers"),
        ({"players": "2"}, "'players' must be int"),
        ({"throw_in": "everybody"}, "everybody"),
        ([2, 36], "rules must be a mapping"),
        (None, "rules must be a mapping"),
    ],
)
def test_bad_rules(good: dict[str, Any], rules: Any, fragment: str) -> None:
    good["rules"] = rules
    refused(encoded(good), "bad rules", fragment)


@pytest.mark.parametrize("seed", [None, "7", 1.5, True])
def test_bad_seed(good: dict[str, Any], seed: Any) -> None:
    good["seed"] = seed
    refused(encoded(good), "'seed' must be an integer")


@pytest.mark.parametrize(
    ("previous", "fragment"),
    [
        ("Durak", "'previous' must be a mapping or null"),
        ({"places": [1, 2], "durak": 1}, "'previous.places'"),
        ({"places": [1, 2, 9], "durak": 1}, "'previous.places'"),
        ({"places": [2, 3, 1], "durak": 3}, "'previous.durak' must be a seat"),
        ({"places": [2, 3, 1], "durak": "1"}, "'previous.durak' must be a seat"),
    ],
)
def test_bad_previous_game(good: dict[str, Any], previous: Any, fragment: str) -> None:
    good["previous"] = previous
    refused(encoded(good), fragment)


@pytest.mark.parametrize("seat", [3, -1, 99])
def test_a_seat_that_is_not_at_the_table(good: dict[str, Any], seat: int) -> None:
    good["actions"][4][0] = seat
    refused(encoded(good), "action 4", f"seat {seat} is not at a 3-player table")


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ([0], "action 2 is not a [seat, text] pair"),
        ({"seat": 0, "action": "take"}, "action 2 is not a [seat, text] pair"),
        ([True, "take"], "action 2 is not a [seat, text] pair"),
        (["0", "take"], "action 2 is not a [seat, text] pair"),
        ([0, 7], "action 2 is not a [seat, text] pair"),
        ([0, "dance"], "action 2: not an action: 'dance'"),
        ([0, "attack 1x"], "not a card: '1x'"),
        ([0, "attack 6h 6h"], "the same card twice"),
    ],
)
def test_a_malformed_action(good: dict[str, Any], entry: Any, fragment: str) -> None:
    good["actions"][2] = entry
    refused(encoded(good), fragment)


def test_actions_must_be_a_list(good: dict[str, Any]) -> None:
    good["actions"] = {"0": "take"}
    refused(encoded(good), "'actions' must be a list")


def test_an_illegal_action_in_the_log(good: dict[str, Any], log: GameLog) -> None:
    defender = log.start().defender
    good["actions"].insert(0, [defender, "take"])  # nothing has been led yet
    refused(encoded(good), f"action 0 (seat {defender}: take) is illegal: must_lead_first")


def test_an_action_after_the_end_of_the_game(good: dict[str, Any]) -> None:
    good["actions"].append([0, "pass"])
    number = len(good["actions"]) - 1
    refused(encoded(good), f"action {number} (seat 0: pass) is illegal: game_over")


def test_the_same_log_with_another_seed_does_not_replay(good: dict[str, Any]) -> None:
    good["seed"] += 1
    refused(encoded(good), "is illegal")


def test_replay_without_a_file_names_the_action(log: GameLog) -> None:
    seat, lead = log.actions[0]
    broken = GameLog(log.rules, log.seed, log.previous, [(seat, lead), (seat, lead)])
    with pytest.raises(GameLogError) as error:
        broken.replay()
    assert str(error.value) == f"action 1 (seat {seat}: {lead}) is illegal: bout_in_progress"


def test_a_huge_bad_action_gives_a_short_message() -> None:
    """Input may be hostile: the error quotes only the start of a bad action."""
    log = GameLog(Rules(), 1).to_dict()
    log["actions"] = [[0, "beat " + "x" * 300_000]]
    with pytest.raises(GameLogError, match="action 0: not an action") as error:
        GameLog.from_bytes(json.dumps(log).encode())
    assert len(str(error.value)) < 300
