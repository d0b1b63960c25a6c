"""The party's messages (docs/protocol.md section 17): each round-trips, the largest party
fits a frame, and malformed input is only ever a ``ProtocolError`` with a clear text."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from engine import Rules
from protocol import (
    MAX_FRAME,
    MAX_PLAYERS,
    MAX_TABLES,
    PROTOCOL_VERSION,
    Goodbye,
    Join,
    Joined,
    LongestGame,
    Night,
    Party,
    PartyAck,
    PartyConnection,
    PartyFigures,
    PartyLeave,
    PartyMessage,
    PartyPlayer,
    PartySetup,
    PartyStart,
    PartyTable,
    PartyUpdate,
    Ping,
    Pong,
    ProtocolError,
    Rejected,
    RoundTable,
    frame,
    party_encode,
    party_message_to_wire,
)

TOKEN = "0123456789abcdef" * 2


def a_party(players: int = 5, tables: int = 2) -> Party:
    people = tuple(
        PartyPlayer(
            i, f"Player {i}", ("here", "away", "left")[i % 3], i + 1, 3, 1, 1, 500, -2, i % tables
        )
        for i in range(players)
    )
    seats = [tuple(range(t, players, tables))[:6] for t in range(tables)]
    round_tables = tuple(
        RoundTable(t, 40000 + t, (*seats[t], None)[:6], "done" if t else "playing",
                   tuple(range(1, len((*seats[t], None)[:6]) + 1)) if t else None, 0 if t else None)
        for t in range(tables)
    )  # fmt: skip
    return Party(
        name="Friday night",
        status="playing",
        organiser=0 if players else None,
        setup=Night(Rules(players=4), rounds=3),
        round=2,
        final=False,
        round_ms=61_000,
        left_ms=None,
        next_ms=None,
        players=people,
        tables=round_tables,
        figures=PartyFigures((1, 2), 2, LongestGame(1, 0, 140), (3, 22))
        if players > 3
        else PartyFigures(),
    )


CLIENT = [
    Join(PROTOCOL_VERSION, "Anna"),
    Join(PROTOCOL_VERSION, "Anna", TOKEN, "play"),
    Join(PROTOCOL_VERSION, "Big screen", None, "board"),
    PartySetup(1, Rules(players=4, transfer=True), 3, None, True, "normal"),
    PartySetup(2, Rules(players=6), None, 90, False, "hard"),
    PartyStart(3),
    PartyLeave(4),
    Ping(5),
]
HOST = [
    Joined(PROTOCOL_VERSION, 0, TOKEN, a_party()),
    Joined(PROTOCOL_VERSION, None, None, a_party(0, 0)),
    PartyUpdate(a_party(12, 3)),
    PartyTable(2, 1, "192.168.1.20", 45700, TOKEN, 2, ("Anna", "Oleg", "Vera", None)),
    PartyAck(1),
    Rejected(1, "not_organiser", "Only the organiser sets the night up."),
    Pong(5),
    Goodbye("left", "You left the party."),
]


def decode(host: bool, *messages: Any) -> list[PartyMessage]:
    """``messages`` (messages or raw maps) as the host (or a client) reads them."""
    conn = PartyConnection(host)
    for message in messages:
        data = message if isinstance(message, dict) else party_message_to_wire(message)
        conn.receive_data(frame(msgpack.packb(data)))
    out = []
    while (message := conn.next_message()) is not None:
        out.append(message)
    return out


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: type(m).__name__)
def test_every_client_message_round_trips(message: PartyMessage) -> None:
    first = CLIENT[0] if not isinstance(message, Join) else message
    assert decode(True, *dict.fromkeys([first, message]))[-1] == message


@pytest.mark.parametrize("message", HOST, ids=lambda m: type(m).__name__)
def test_every_host_message_round_trips(message: PartyMessage) -> None:
    first = HOST[0] if not isinstance(message, Joined | Goodbye) else message
    assert decode(False, *dict.fromkeys([first, message]))[-1] == message


def test_the_largest_party_fits_a_frame_with_room_to_spare() -> None:
    size = len(party_encode(PartyUpdate(a_party(MAX_PLAYERS, MAX_TABLES // 3))))
    assert size < MAX_FRAME // 8, size  # about 7 KiB of 64


def bad(host: bool, data: dict[str, Any], first: bool = False) -> ProtocolError:
    before = [] if first else [CLIENT[0] if host else HOST[0]]
    with pytest.raises(ProtocolError) as info:
        decode(host, *before, data)
    return info.value


def wire(message: PartyMessage, **changes: Any) -> dict[str, Any]:
    return party_message_to_wire(message) | changes


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (wire(CLIENT[3], rounds=3, minutes=60), "exactly one of rounds and minutes"),
        (wire(CLIENT[3], rounds=None, minutes=None), "exactly one of rounds and minutes"),
        (wire(CLIENT[3], rounds=0), "rounds"),
        (wire(CLIENT[3], rounds=51), "rounds"),
        (wire(CLIENT[3], fill=1), "fill"),
        (wire(CLIENT[3], ai="no such level!"), "ai"),
        (wire(CLIENT[3], rules={"players": 4}), "rules"),
        (wire(CLIENT[5], extra=1), "exactly the fields"),
        (wire(CLIENT[5], ref=-1), "ref"),
        (wire(CLIENT[5], ref=1.0), "ref"),
        ({"type": "start"}, "unknown message type"),
        (wire(CLIENT[0]), "a second join"),
        (party_message_to_wire(HOST[4]), "unknown message type"),  # the wrong direction
    ],
)
def test_a_malformed_client_message_is_a_bad_message(data: dict[str, Any], words: str) -> None:
    error = bad(True, data)
    assert error.code == "bad_message" and words in error.text


def test_unplayable_rules_are_the_hosts_to_refuse_not_a_protocol_error() -> None:
    data = wire(CLIENT[3], rules=Rules(players=4).to_dict() | {"players": 6, "deck_size": 24})
    (_, setup) = decode(True, CLIENT[0], data)
    assert isinstance(setup, PartySetup) and not isinstance(setup.rules, Rules)


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (wire(CLIENT[3]), "bad_message", "the first message must be join"),
        (wire(CLIENT[0], version=5), "version_mismatch", "party speaks protocol version 6"),
        (wire(CLIENT[0], version="5"), "bad_message", "version"),
        (wire(CLIENT[0], name=" Anna"), "bad_message", "name"),
        (wire(CLIENT[0], name="x" * 25), "bad_message", "name"),
        (wire(CLIENT[0], name="A\x07"), "bad_message", "name"),
        (wire(CLIENT[0], token="ABC"), "bad_message", "token"),
        (wire(CLIENT[0], role="watch"), "bad_message", "join role"),
    ],
)
def test_a_bad_join_is_refused(data: dict[str, Any], code: str, words: str) -> None:
    error = bad(True, data, first=True)
    assert error.code == code and words in error.text


def party_wire(**changes: Any) -> dict[str, Any]:
    data = party_message_to_wire(PartyUpdate(a_party()))
    data["party"] |= changes
    return data


def test_a_party_state_that_does_not_hold_together_is_refused() -> None:
    good = party_message_to_wire(PartyUpdate(a_party()))["party"]
    player = dict(good["players"][0])
    table = dict(good["tables"][0])
    cases = [
        (party_wire(status="late"), "party status"),
        (party_wire(organiser=59), "organiser must be a player"),
        (party_wire(players=[player, player]), "an id twice"),
        (party_wire(players=[player | {"wins": 4}]), "wins"),
        (party_wire(players=[player | {"place": 1001}]), "place"),
        (party_wire(players=[player | {"status": "gone"}]), "player status"),
        (party_wire(tables=[table | {"seats": [0, 0]}]), "each at most once"),
        (party_wire(tables=[table | {"seats": [0, 58]}]), "a player of the party"),
        (party_wire(tables=[table | {"seats": [0]}]), "2 to 6 seats"),
        (party_wire(tables=[table | {"status": "done"}]), "places once it is done"),
        (party_wire(tables=[table | {"durak": 1}]), "Durak only once it is done"),
        (party_wire(tables=[table | {"port": 0}]), "port"),
        (party_wire(round_ms=1.5), "ms"),
        (party_wire(figures=good["figures"] | {"fastest": [58, 3]}), "name players"),
        (party_wire(setup=good["setup"] | {"rounds": None}), "exactly one of rounds"),
    ]
    for data, words in cases:
        error = bad(False, data)
        assert error.code == "bad_message" and words in error.text, (words, error.text)


def test_a_party_table_must_be_a_real_address_and_seats() -> None:
    for changes, words in [
        ({"address": "evil host"}, "address"),
        ({"names": ["Anna"]}, "2 to 6 seats"),
        ({"seat": 6}, "seat"),
        ({"round": 0}, "round"),
        ({"token": None}, "token"),
    ]:
        error = bad(False, wire(HOST[3], **changes))
        assert error.code == "bad_message" and words in error.text


def test_the_first_message_a_client_reads_is_joined_or_goodbye() -> None:
    error = bad(False, wire(HOST[2]), first=True)
    assert "the first message must be joined or goodbye" in error.text
    assert decode(False, HOST[-1]) == [HOST[-1]]


def test_errors_stick_and_a_side_sends_only_its_own_messages() -> None:
    conn = PartyConnection(True)
    conn.receive_data(frame(msgpack.packb({"type": "party_start", "ref": 1})))
    with pytest.raises(ProtocolError):
        conn.next_message()
    with pytest.raises(ProtocolError):
        conn.receive_data(party_encode(CLIENT[0]))
    with pytest.raises(TypeError, match="a party host does not send Join"):
        conn.send(CLIENT[0])
    assert PartyConnection(False).send(CLIENT[0]) == party_encode(CLIENT[0])


def test_random_bytes_are_only_ever_a_protocol_error() -> None:
    rng = random.Random(26)
    for _ in range(300):
        for host in (True, False):
            conn = PartyConnection(host)
            blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
            try:
                conn.receive_data(frame(blob))
                while conn.next_message() is not None:
                    pass
            except ProtocolError:
                pass
