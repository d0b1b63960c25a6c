"""The protocol, sans-I/O: every message round-trips, and bad input is only ever a
``ProtocolError`` (random bytes, truncated and oversized frames, wrong fields, unknown
types, wrong direction, wrong version)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    Attack,
    Beat,
    GameResult,
    GameState,
    Pass,
    Rules,
    Series,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    new_game,
    observe,
    observe_public,
    trim,
)
from engine.playout import random_move
from protocol import (
    CLIENT_MESSAGES,
    EMOTES,
    HOST_MESSAGES,
    LOOKS,
    MAX_FRAME,
    MAX_SILENCE_MS,
    MAX_WATCHERS,
    MIN_SILENCE_MS,
    PROTOCOL_VERSION,
    Ack,
    Act,
    Alive,
    BackSoon,
    Commit,
    Connection,
    Contribute,
    Draw,
    Emote,
    Emoted,
    FrameDecoder,
    Goodbye,
    Heartbeat,
    Hello,
    Kick,
    Leave,
    Message,
    Pause,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Rejected,
    Replace,
    Reveal,
    Role,
    Room,
    RoomUpdate,
    SeatInfo,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Snapshot,
    Start,
    UnplayableRules,
    Update,
    WatcherEmoted,
    Watching,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
    card_from_wire,
    encode,
    frame,
    to_wire,
)

TOKEN = "0123456789abcdef" * 2
FIRST = ("hello", "welcome", "watching")  # the messages that open a connection


def _looks(players: int) -> tuple[SeatInfo, ...]:
    """Seats with looks and a "back in a minute" mark (section 18)."""
    return (
        SeatInfo("human", "Anna", None, True, ready=True, look=LOOKS - 1, back_soon=True),
        SeatInfo("human", "Boris", None, False, ready=False, look=0),
    ) + (SeatInfo("ai", "Random", "random", True, ready=True),) * (players - 2)


def _room(players: int = 3) -> Room:
    series = Series.new(players).record(
        GameResult(
            (1, 3, 2)[:players] if players == 3 else tuple(range(1, players + 1)), players - 1
        )
    )
    return Room(
        name="Küche",
        status="lobby",
        owner=0,
        seats=(
            SeatInfo("human", "Anna", None, True, ready=True),
            SeatInfo("ai", "Random", "random", True, ready=True),
        )
        + (SeatInfo("empty"),) * (players - 2),
        rules=Rules(players=players, transfer=True),
        password=True,
        autostart=False,
        series=series,
        game=1,
    )


def _examples() -> dict[str, list[Message]]:
    state = new_game(Rules(players=3), 7)
    view = observe(state, 1)
    return {
        "hello": [
            Hello(PROTOCOL_VERSION, "Anna"),
            Hello(PROTOCOL_VERSION, "Боря", "secret", TOKEN),
            Hello(PROTOCOL_VERSION, "Vera", "secret", role="watch"),
            Hello(PROTOCOL_VERSION, "Olga", look=0),
            Hello(PROTOCOL_VERSION, "Oleg", None, TOKEN, look=LOOKS - 1),
        ],
        "act": [
            Act(1, Attack.of("6h", "6s")),
            Act(2, Beat(CARDS[20], CARDS[10])),
            Act(3, ThrowIn(CARDS[5])),
            Act(4, Transfer(CARDS[6])),
            Act(5, ShowTrump(CARDS[7])),
            Act(6, Take()),
            Act(2**31 - 1, Pass()),
        ],
        "set_rules": [
            SetRules(1, Rules(players=4, deck_size=52, throw_in="neighbours")),
            SetRules(
                2,
                UnplayableRules(
                    tuple({**Rules().to_dict(), "players": 6, "deck_size": 24}.items()),
                    "a 24-card deck cannot deal 6 cards to 6 players (at most 4)",
                ),
            ),
        ],
        "set_seat": [SetSeat(1, 2, "random"), SetSeat(2, 5, None)],
        "set_options": [
            SetOptions(1, 60000, None),
            SetOptions(2, 0, 86400000, MIN_SILENCE_MS, idle_ms=1),
            SetOptions(3, 5, 1, MAX_SILENCE_MS, idle_ms=86400000),
            SetOptions(4, 0, None, watchers=0),
            SetOptions(5, 0, None, watchers=MAX_WATCHERS),
        ],
        "sit": [Sit(3)],
        "pause": [Pause(1, True), Pause(2, False)],
        "back_soon": [BackSoon(3, True), BackSoon(4, False)],
        "kick": [Kick(1, 0), Kick(2, 5)],
        "replace": [Replace(1, 1, "random"), Replace(2, 5, "hard:0.2")],
        "leave": [Leave(7)],
        "draw": [Draw(8)],
        "start": [Start(0)],
        "ready": [Ready(3, True), Ready(4, False)],
        "ping": [Ping(9)],
        "emote": [Emote(code) for code in EMOTES],
        "alive": [Alive(0), Alive(2**31 - 1)],
        "welcome": [Welcome(PROTOCOL_VERSION, 0, TOKEN, _room())],
        "room": [
            RoomUpdate(_room(2)),
            RoomUpdate(_room(6)),
            RoomUpdate(replace(_room(3), hold_ms=60000, turn_ms=1, idle_ms=300000)),
            RoomUpdate(replace(_room(2), watchers=2, watching=("Vera", "Oleg"))),
            RoomUpdate(replace(_room(2), paused=True, seats=_looks(2))),
        ],
        "watching": [Watching(PROTOCOL_VERSION, replace(_room(), watching=("Vera",)))],
        "watch_snapshot": [WatchSnapshot(1, 0, observe_public(state))],
        "watch_update": [
            WatchUpdate(1, 3, tuple(trim(e, None) for e in state.opening), observe_public(state))
        ],
        "watcher_emoted": [WatcherEmoted("Vera", "ha")],
        "snapshot": [Snapshot(1, 0, view)],
        "update": [Update(1, 0, tuple(trim(e, 1) for e in state.opening), view)],
        "ack": [Ack(1, 5), Ack(2, None)],
        "rejected": [Rejected(1, "not_your_turn", "It is not your turn.")],
        "pong": [Pong(9)],
        "emoted": [Emoted(0, "nice"), Emoted(5, "well_played")],
        "heartbeat": [Heartbeat(0), Heartbeat(77)],
        "goodbye": [Goodbye("shutdown", "The host closed the table.")],
        "contribute": [
            Contribute(1, 2, "ab" * 32),
            Contribute(2, 2, "not hex"),
            Contribute(3, 2, 17),
            Contribute(4, 2, None),
        ],
        "commit": [Commit(2, "0f" * 32, 2000)],
        "reveal": [
            Reveal(2, "11" * 32, ((0, "22" * 32), (2, "33" * 32)), 2**63 - 1, 0, (), False, True),
            Reveal(3, "11" * 32, (), 0, 512, ((0, Attack.of("6h")), (1, Take())), True, False),
        ],
    }


def _decode_as(role: Role, data: bytes, greeted: bool = True) -> Message | None:
    """Decode bytes as ``role`` would; the handshake is skipped unless ``greeted`` is False."""
    conn = Connection(role)
    if greeted:
        first = (
            encode(Hello(PROTOCOL_VERSION, "x"))
            if role is Role.HOST
            else encode(Welcome(PROTOCOL_VERSION, 0, TOKEN, _room()))
        )
        conn.receive_data(first)
        assert conn.next_message() is not None
    conn.receive_data(data)
    return conn.next_message()


def test_examples_cover_every_message_type() -> None:
    assert set(_examples()) == set(CLIENT_MESSAGES) | set(HOST_MESSAGES)


@pytest.mark.parametrize("name", sorted(set(CLIENT_MESSAGES) | set(HOST_MESSAGES)))
def test_every_message_round_trips(name: str) -> None:
    role = Role.HOST if name in CLIENT_MESSAGES else Role.CLIENT
    for message in _examples()[name]:
        data = encode(message)
        assert int.from_bytes(data[:4], "big") == len(data) - 4
        assert to_wire(message)["type"] == name
        decoded = _decode_as(role, data, greeted=name not in FIRST)
        assert decoded == message


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(players=3, transfer=True, transfer_show_trump=True),
        Rules(players=4, deck_size=52, throw_in="neighbours"),
        Rules(players=6, first_bout_five=False),
    ],
    ids=str,
)
@pytest.mark.slow
def test_views_and_events_of_whole_games_round_trip(rules: Rules) -> None:
    for seed in range(4):
        state = new_game(rules, seed)
        rng = random.Random(seed)
        events = list(state.opening)
        seq = 0
        while True:
            for seat in range(rules.players):
                message = Update(1, seq, tuple(trim(e, seat) for e in events), observe(state, seat))
                assert _decode_as(Role.CLIENT, encode(message)) == message
            if state.is_over:
                break
            seat, action = random_move(state, rng)
            assert _decode_as(Role.HOST, encode(Act(seq, action))) == Act(seq, action)
            events = state.apply(seat, action)
            seq += 1


def test_the_largest_view_fits_a_frame() -> None:
    """A 52-card game where one seat holds 40 cards with six cards to beat."""
    rules = Rules(players=2, deck_size=52)
    deck = list(CARDS)
    state = GameState.from_deal(rules, [deck[:40], deck[40:46]], deck[46:])
    for seat in (0, 1):
        size = len(encode(Snapshot(1, 0, observe(state, seat))))
        assert size < MAX_FRAME // 4


def test_frames_split_anywhere_and_joined() -> None:
    messages = [m for ms in _examples().values() for m in ms if type(m).__name__ in _HOST_NAMES]
    stream = b"".join(encode(m) for m in messages)
    for chunk in (1, 3, 7, 1000, len(stream)):
        conn = Connection(Role.CLIENT)
        got = []
        for i in range(0, len(stream), chunk):
            conn.receive_data(stream[i : i + chunk])
            while (m := conn.next_message()) is not None:
                got.append(m)
        assert got == messages


_HOST_NAMES = {
    "Welcome",
    "RoomUpdate",
    "Snapshot",
    "Update",
    "Ack",
    "Rejected",
    "Pong",
    "Emoted",
    "Goodbye",
    "WatchSnapshot",
    "WatchUpdate",
    "WatcherEmoted",
}


def test_an_oversized_frame_is_refused_from_its_header_alone() -> None:
    decoder = FrameDecoder(max_frame=1000)
    with pytest.raises(ProtocolError) as info:
        decoder.receive_data((1001).to_bytes(4, "big"))  # no payload sent at all
    assert info.value.code == "frame_too_large"
    conn = Connection(Role.HOST)
    with pytest.raises(ProtocolError):
        conn.receive_data((2**32 - 1).to_bytes(4, "big") + b"x")
    with pytest.raises(ProtocolError):  # dead after an error
        conn.next_message()


def test_the_frames_before_a_bad_header_are_read_however_the_stream_was_cut() -> None:
    """Frames are cut out as they are read: the messages before an oversized header are
    taken, then it is refused, whether they came in one write or several (a flood of tiny
    frames costs only the ones read)."""
    pings = encode(Ping(1)) + encode(Ping(2))
    for stream in ([pings + (70_000).to_bytes(4, "big")], [pings, (70_000).to_bytes(4, "big")]):
        conn = Connection(Role.HOST)
        conn.receive_data(encode(Hello(PROTOCOL_VERSION, "Anna")))
        assert isinstance(conn.next_message(), Hello)
        for data in stream:
            conn.receive_data(data)
        assert [conn.next_message(), conn.next_message()] == [Ping(1), Ping(2)]
        with pytest.raises(ProtocolError) as info:
            conn.next_message()
        assert info.value.code == "frame_too_large"


def test_truncated_and_empty_frames() -> None:
    data = encode(Hello(PROTOCOL_VERSION, "Anna"))
    for cut in range(1, len(data)):
        conn = Connection(Role.HOST)
        conn.receive_data(data[:cut])
        assert conn.next_message() is None
        conn.receive_data(b"")  # the peer closed
        with pytest.raises(ProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame"
    with pytest.raises(ProtocolError):
        Connection(Role.HOST).receive_data(b"\0\0\0\0")
    conn = Connection(Role.HOST)
    conn.receive_data(b"")
    assert conn.next_message() is None and conn.eof


def test_a_truncated_payload_inside_a_whole_frame() -> None:
    payload = msgpack.packb({"type": "ping", "ref": 1})
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(payload[:-1]))
    assert info.value.code == "bad_frame"
    with pytest.raises(ProtocolError):  # trailing bytes
        _decode_as(Role.HOST, frame(payload + b"\xc0"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.booleans(), st.sampled_from([Role.HOST, Role.CLIENT]))
def test_random_bytes_give_only_protocol_errors(data: bytes, prefixed: bool, role: Role) -> None:
    conn = Connection(role, max_frame=4096)
    try:
        conn.receive_data(frame(data) if prefixed and data else data)
        while conn.next_message() is not None:
            pass
        conn.receive_data(b"")
        conn.next_message()
    except ProtocolError:
        pass


_JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["6h", "Th", "attack", "take", "beat", "lead", "all", "random", TOKEN]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([*sorted(set(CLIENT_MESSAGES) | set(HOST_MESSAGES)), "nonsense"]),
    st.dictionaries(
        st.sampled_from(
            [
                "ref",
                "action",
                "seat",
                "ai",
                "rules",
                "version",
                "name",
                "password",
                "token",
                "room",
                "game",
                "seq",
                "view",
                "events",
                "reason",
                "text",
                "code",
                "extra",
            ]
        ),
        _JUNK,
        max_size=6,
    ),
)
@pytest.mark.slow
def test_wrong_fields_give_only_protocol_errors(name: str, fields: dict[str, Any]) -> None:
    role = Role.HOST if name in CLIENT_MESSAGES else Role.CLIENT
    data = frame(msgpack.packb({"type": name, **fields}))
    try:
        message = _decode_as(role, data, greeted=name not in FIRST)
    except ProtocolError:
        return
    assert message is not None and encode(message) is not None


def _mutations(value: Any) -> list[Any]:
    forbidden = [1.5, 2.0, b"\x00", msgpack.ExtType(5, b"x"), msgpack.Timestamp(1)]
    return [None, True, -1, 2**40, "x", "", [], {}, [value], {"a": value}, *forbidden]


@pytest.mark.parametrize("name", sorted(set(CLIENT_MESSAGES) | set(HOST_MESSAGES)))
def test_each_field_of_the_wrong_type(name: str) -> None:
    role = Role.HOST if name in CLIENT_MESSAGES else Role.CLIENT
    for message in _examples()[name]:
        _mutate_each_field(role, name, to_wire(message))


def _mutate_each_field(role: Role, name: str, wire: dict[str, Any]) -> None:
    for field, value in wire.items():
        if field == "type":
            continue
        for bad in _mutations(value):
            data = frame(msgpack.packb({**wire, field: bad}, use_bin_type=True))
            try:
                decoded = _decode_as(role, data, greeted=name not in FIRST)
            except ProtocolError as exc:  # a wrong type is never a frame or version error
                assert exc.code == "bad_message", (field, bad, exc)
                continue
            # Only nil (for an optional field) or a value of the right type may pass; and a
            # contribution's value of a wrong scalar type, which the host refuses
            # (``bad_contribution``: tests/host/test_fair.py).
            assert decoded is not None
            carried = (name, field) == ("contribute", "value") and type(bad) in (int, bool, str)
            assert bad is None or value is None or type(bad) is type(value) or carried
            assert _decode_as(role, encode(decoded), greeted=name not in FIRST)


@pytest.mark.parametrize("code", ["wave", "NICE", "", "nice ", 1, None, ["nice"]])
def test_an_emote_outside_the_set_is_refused(code: Any) -> None:
    for role, data in (
        (Role.HOST, {"type": "emote", "code": code}),
        (Role.CLIENT, {"type": "emoted", "seat": 1, "code": code}),
    ):
        with pytest.raises(ProtocolError) as info:
            _decode_as(role, frame(msgpack.packb(data)))
        assert info.value.code == "bad_message"


@pytest.mark.parametrize(
    "data",
    [
        {"type": "ready", "ref": 1},  # the mark is missing
        {"type": "ready", "ref": 1, "ready": 1},  # not a boolean
        {"type": "ready", "ref": 1, "ready": "yes"},
        {"type": "ready", "ref": 1, "ready": None},
        {"type": "ready", "ref": -1, "ready": True},
        {"type": "ready", "ready": True},
        {"type": "ready", "ref": 1, "ready": True, "seat": 2},  # always for one's own seat
    ],
)
def test_a_malformed_ready_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(data)))
    assert info.value.code == "bad_message"


def test_every_seat_of_the_room_carries_a_consistent_ready_mark() -> None:
    wire = to_wire(RoomUpdate(_room(3)))
    seats = wire["room"]["seats"]
    assert [s["ready"] for s in seats] == [True, True, False]
    for index, mark in ((0, False), (0, None), (1, False), (2, True), (2, "no")):
        changed = [dict(s) for s in seats]
        if mark is None:
            del changed[index]["ready"]
        else:
            changed[index]["ready"] = mark
        data = {**wire, "room": {**wire["room"], "seats": changed}}
        if (index, mark) == (0, False):  # a human may well not be ready
            assert _decode_as(Role.CLIENT, frame(msgpack.packb(data))) is not None
            continue
        with pytest.raises(ProtocolError) as info:  # AI always ready, empty never; a bool
            _decode_as(Role.CLIENT, frame(msgpack.packb(data)))
        assert info.value.code == "bad_message"


def test_missing_extra_and_unknown() -> None:
    for data in (
        {"type": "ping"},
        {"type": "ping", "ref": 1, "seat": 2},  # no seat field: a client acts for its own seat
        {"type": "teleport", "ref": 1},
        {"ref": 1},
        [1, 2],
        {1: 2},
    ):
        with pytest.raises(ProtocolError) as info:
            _decode_as(Role.HOST, frame(msgpack.packb(data)))
        assert info.value.code == "bad_message"


_PING = b"\xa4type\xa4ping\xa3ref\x01"  # the two pairs of {"type": "ping", "ref": 1}


@pytest.mark.parametrize(
    "payload",
    [
        b"\x83" + _PING + b"\x01\x02",  # an integer key
        b"\x83" + _PING + b"\xc4\x01x\x01",  # a binary key
        b"\x83" + _PING + b"\x91\x01\x01",  # an array key
        b"\x83" + _PING + b"\xc0\x01",  # a nil key
        b"\x83" + _PING + b"\xa3ref\x02",  # a key twice
        b"\x83\xa3ref\x02" + _PING,
        b"\x82\xa4type\xa4ping\xa3ref\xcb" + b"?\xf0" + bytes(6),  # ref 1.0, a float
        b"\x82\xa4type\xa4ping\xa3ref\xc4\x01\x01",  # binary
        b"\x82\xa4type\xa4ping\xa3ref\xd4\x05\x01",  # an extension type
        b"\x82\xa4type\xc4\x04ping" + b"\xa3ref\x01",  # the type as binary
        b"\x91" * 5000 + b"\xc0",  # nested deeper than msgpack decodes
    ],
)
def test_forbidden_msgpack_content_is_a_bad_message(payload: bytes) -> None:
    """Well-formed msgpack that section 1 forbids (keys that are not strings, a key twice,
    floats, binary, extension types) is ``bad_message``, as is any well-formed payload that
    is not a valid message; ``bad_frame`` is kept for bytes that are not msgpack at all."""
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(payload))
    assert info.value.code == "bad_message"


def test_a_duplicate_key_is_refused_even_with_the_same_value() -> None:
    hello = b"\xa4type\xa5hello\xa7version" + bytes([PROTOCOL_VERSION]) + b"\xa4name\xa4Anna"
    rest = b"\xa8password\xc0\xa5token\xc0\xa4role\xa4play\xa4look\xc0"
    assert isinstance(_decode_as(Role.HOST, frame(b"\x87" + hello + rest), greeted=False), Hello)
    twice = b"\x88" + hello + b"\xa4name\xa4Anna" + rest
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(twice), greeted=False)
    assert info.value.code == "bad_message" and "twice" in info.value.text


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",  # a byte msgpack never uses
        b"\xa5ab",  # a string cut short
        b"\x81\xa4type",  # a map cut short
        b"\xc0\xc0",  # two objects
        b"\xa2\xff\xfe",  # a string that is not UTF-8
    ],
)
def test_bytes_that_are_not_one_msgpack_object_are_a_bad_frame(payload: bytes) -> None:
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(payload))
    assert info.value.code == "bad_frame"


def test_direction_and_handshake_order() -> None:
    with pytest.raises(ProtocolError) as info:  # a host does not accept host messages
        _decode_as(Role.HOST, encode(Pong(1)))
    assert info.value.code == "bad_message"
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, encode(Ping(1)), greeted=False)
    assert info.value.code == "hello_expected"
    with pytest.raises(ProtocolError):
        _decode_as(Role.HOST, encode(Hello(PROTOCOL_VERSION, "again")))
    with pytest.raises(ProtocolError):
        _decode_as(Role.CLIENT, encode(Pong(1)), greeted=False)
    with pytest.raises(TypeError):
        Connection(Role.CLIENT).send(Pong(1))  # type: ignore[arg-type]


def test_a_watcher_is_welcomed_to_a_seat_once() -> None:
    """``watching`` opens a watcher's connection; one ``welcome`` may follow (it took a
    seat), a second one may not, nor a ``watching`` after the first message."""
    room = _room()
    conn = Connection(Role.CLIENT)
    conn.receive_data(encode(Watching(PROTOCOL_VERSION, room)))
    assert conn.next_message() == Watching(PROTOCOL_VERSION, room)
    conn.receive_data(encode(Welcome(PROTOCOL_VERSION, 2, TOKEN, room)))
    assert isinstance(conn.next_message(), Welcome)
    conn.receive_data(encode(Welcome(PROTOCOL_VERSION, 2, TOKEN, room)))
    with pytest.raises(ProtocolError) as info:
        conn.next_message()
    assert info.value.code == "bad_message"
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.CLIENT, encode(Watching(PROTOCOL_VERSION, room)))
    assert info.value.code == "bad_message"


@pytest.mark.parametrize("value", ["referee", None, 1])
def test_a_hello_with_a_bad_role_is_a_protocol_error(value: Any) -> None:
    data = to_wire(Hello(PROTOCOL_VERSION, "Anna"))
    data["role"] = value
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(data)), greeted=False)
    assert info.value.code == "bad_message"


def test_a_room_allows_at_most_max_watchers() -> None:
    data = to_wire(RoomUpdate(_room()))
    for watchers in (-1, MAX_WATCHERS + 1, True):
        data["room"]["watchers"] = watchers
        with pytest.raises(ProtocolError):
            _decode_as(Role.CLIENT, frame(msgpack.packb(data)))
    data["room"]["watchers"] = 1
    data["room"]["watching"] = ["Vera"] * (MAX_WATCHERS + 1)
    with pytest.raises(ProtocolError):
        _decode_as(Role.CLIENT, frame(msgpack.packb(data)))


def test_a_version_mismatch_names_both_versions() -> None:
    data = frame(msgpack.packb({"type": "hello", "version": 99, "name": "Future", "extra": 1}))
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, data, greeted=False)
    assert info.value.code == "version_mismatch"
    assert f"version {PROTOCOL_VERSION}" in info.value.text and "version 99" in info.value.text


@pytest.mark.parametrize(
    "version",
    [str(PROTOCOL_VERSION), True, None, float(PROTOCOL_VERSION), -1, 2**31, [PROTOCOL_VERSION]],
)
def test_a_wrong_typed_version_is_a_bad_message_not_a_mismatch(version: Any) -> None:
    data = {"type": "hello", "version": version, "name": "Anna", "password": None, "token": None}
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(data)), greeted=False)
    assert info.value.code == "bad_message" and "version" in info.value.text
    del data["version"]  # missing altogether
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(data)), greeted=False)
    assert info.value.code == "bad_message"


def test_a_version_5_client_is_told_version_mismatch() -> None:
    """Who runs the room came with version 6: a version 5 client (which would not read a
    room's ``run_by``, nor know why a party's table refuses its pause) is refused at its
    hello, with both versions named."""
    hello = {"type": "hello", "version": 5, "name": "Old", "password": None, "token": None}
    hello |= {"role": "play", "look": None}
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(hello)), greeted=False)
    assert PROTOCOL_VERSION == 6 and info.value.code == "version_mismatch"
    assert "version 6" in info.value.text and "version 5" in info.value.text


@pytest.mark.parametrize("look", [-1, LOOKS, "red", 1.0, True])
def test_a_look_out_of_range_is_refused(look: object) -> None:
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Anna", "password": None}
    hello |= {"token": None, "role": "play", "look": look}
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(hello)), greeted=False)
    assert info.value.code == "bad_message" and "look" in info.value.text


@pytest.mark.parametrize("silence", [MIN_SILENCE_MS - 1, MAX_SILENCE_MS + 1, None, 1.5])
def test_a_silence_out_of_range_is_refused(silence: object) -> None:
    data = to_wire(SetOptions(1, 0, None))
    data["silence_ms"] = silence
    with pytest.raises(ProtocolError) as info:
        _decode_as(Role.HOST, frame(msgpack.packb(data)))
    assert info.value.code == "bad_message" and "silence_ms" in info.value.text


def test_heartbeats_go_one_way_and_are_answered_the_other() -> None:
    with pytest.raises(ProtocolError):  # a client does not send heartbeats
        _decode_as(Role.HOST, encode(Heartbeat(1)))
    with pytest.raises(ProtocolError):  # nor does the host answer them
        _decode_as(Role.CLIENT, encode(Alive(1)))


def test_cards_travel_as_canonical_text() -> None:
    for card in CARDS:
        assert card_from_wire(str(card)) is card
    for bad in ("10h", "6H", "th", "6x", "", "6", 6, None, "6hh", "1h"):
        with pytest.raises(ProtocolError):
            card_from_wire(bad)


def test_names_are_checked() -> None:
    for name in ("", " Anna", "x" * 25, "a\nb", 5):
        data = frame(
            msgpack.packb(
                {
                    "type": "hello",
                    "version": PROTOCOL_VERSION,
                    "name": name,
                    "password": None,
                    "token": None,
                }
            )
        )
        with pytest.raises(ProtocolError):
            _decode_as(Role.HOST, data, greeted=False)


def _set_rules(**options: Any) -> bytes:
    rules = {**Rules().to_dict(), **options}
    return frame(msgpack.packb({"type": "set_rules", "ref": 5, "rules": rules}))


def test_rules_that_cannot_be_played_together_reach_the_host_but_bad_options_do_not() -> None:
    """Each option is checked by the protocol; a well-typed combination that cannot be dealt
    or played is not a protocol error (the owner would lose the seat) but ``UnplayableRules``,
    which the table refuses with ``bad_rules``."""
    for options, why in (
        ({"players": 6, "deck_size": 24}, "cannot deal 6 cards to 6 players"),
        ({"players": 5, "deck_size": 24}, "cannot deal 6 cards to 5 players"),
        ({"transfer": False, "transfer_show_trump": True}, "needs the transfer variant"),
    ):
        message = _decode_as(Role.HOST, _set_rules(**options))
        assert isinstance(message, SetRules) and message.ref == 5
        assert isinstance(message.rules, UnplayableRules) and why in message.rules.reason
        assert message.rules.to_dict() == {**Rules().to_dict(), **options}
        assert _decode_as(Role.HOST, encode(message)) == message  # and it round-trips
    for options in (
        {"players": 7},
        {"players": 1},
        {"players": True},
        {"deck_size": 40},
        {"deck_size": "36"},
        {"throw_in": "everyone"},
        {"transfer": 1},
    ):
        with pytest.raises(ProtocolError) as info:
            _decode_as(Role.HOST, _set_rules(**options))
        assert info.value.code == "bad_message"
    good = _decode_as(Role.HOST, _set_rules(players=4, deck_size=36))
    assert isinstance(good, SetRules) and good.rules == Rules(players=4)
    # What the host sends (room, welcome, snapshot) is never unplayable: still refused there.
    room = to_wire(RoomUpdate(_room(2)))
    room["room"]["rules"] = {**Rules().to_dict(), "transfer_show_trump": True}
    with pytest.raises(ProtocolError):
        _decode_as(Role.CLIENT, frame(msgpack.packb(room)))
