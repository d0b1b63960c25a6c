"""The room's rules (``protocol.room_rules``) and their refusal codes: docs/protocol.md
section 6 lists exactly the codes of ``Refusal`` (and of the engine's ``Reason``), the
wire values are the strings the document names, and the questions a room screen asks
(may we start? may we sit?) are answered as the command checks answer them."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine import Reason, Rules, Series
from protocol import (
    HEADER_SIZE,
    HOST_MESSAGES,
    Draw,
    Kick,
    Leave,
    Ready,
    Refusal,
    Rejected,
    Replace,
    Room,
    SeatInfo,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
    all_seated,
    decode_payload,
    encode,
    pause_refusal,
    room_refusal,
    sit_refusal,
    start_refusal,
    waiting_for,
)
from protocol.wire import UnplayableRules

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def section(number: int) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n## {number}. ")
    return text[start : text.index("\n## ", start + 1)]


def test_section_6_lists_every_refusal_code_of_the_host_and_no_other() -> None:
    codes = section(6).split("**Which refusal wins.**")[0]
    rows = re.findall(r"^\| `([a-z_]+)` \|", codes, re.MULTILINE)
    assert len(rows) == len(set(rows))
    assert set(rows) == {refusal.value for refusal in Refusal}


def test_section_6_lists_every_reason_code_of_the_engine_and_no_other() -> None:
    text = section(6)
    prose = text[text.index("reason codes:") : text.index("The same codes appear in")]
    assert set(re.findall(r"`([a-z_]+)`", prose)) == {reason.value for reason in Reason}


def test_a_refusal_goes_on_the_wire_as_its_code_and_has_an_english_text() -> None:
    for refusal in Refusal:
        wire = encode(Rejected(7, refusal, refusal.text))[HEADER_SIZE:]
        got = decode_payload(wire, HOST_MESSAGES)
        assert isinstance(got, Rejected)
        assert got.reason == refusal.value and type(got.reason) is str
        assert refusal.text.endswith(".") and refusal.text[0].isupper()
    assert not {r.value for r in Refusal} & {r.value for r in Reason}


HUMAN = SeatInfo("human", "Anna", None, True)
READY = SeatInfo("human", "Boris", None, True, ready=True)
AI = SeatInfo("ai", "Easy", "easy", True, ready=True)
EMPTY = SeatInfo("empty")


def rooms() -> list[Room]:
    """Every room of 2 or 3 seats of those kinds, each seat the owner (or none), in the
    lobby and playing; and those of a party's table (no owner)."""
    found = []
    for n in (2, 3):
        for seats in itertools.product((HUMAN, READY, AI, EMPTY), repeat=n):
            for owner, status in itertools.product((*range(n), None), ("lobby", "playing")):
                series = Series.new(n)
                room = Room("T", status, owner, seats, Rules(players=n), False, False, series, 0)
                found.append(room)
                if owner is None:
                    found.append(replace(room, run_by="party"))
    return found


def test_what_a_start_and_a_sit_wait_for() -> None:
    """Against the rules as docs/protocol.md sections 4, 6 and 16 state them, every room."""
    for room in rooms():
        full = all(s.kind != "empty" for s in room.seats)
        unready = [i for i, s in enumerate(room.seats) if s == HUMAN and i != room.owner]
        assert all_seated(room) == full
        assert waiting_for(room) == unready
        for seat in range(len(room.seats)):
            expected = (
                Refusal.PARTY_TABLE if room.run_by == "party"
                else Refusal.NOT_OWNER if seat != room.owner
                else Refusal.GAME_RUNNING if room.status == "playing"
                else Refusal.SEATS_EMPTY if not full
                else Refusal.NOT_READY if unready
                else None
            )  # fmt: skip
            assert start_refusal(room, seat) == expected
            assert room_refusal(room, seat, Start(1), lambda _: True) == expected
        playing = room.status == "playing"
        expected = Refusal.GAME_RUNNING if playing else Refusal.NO_OPEN_SEAT if full else None
        assert sit_refusal(room) == expected


def test_who_may_pause_as_section_18_says() -> None:
    """In a game, not at a party's table, and only a player alone with the AIs."""
    for room in rooms():
        for seat in range(len(room.seats)):
            others = [s for i, s in enumerate(room.seats) if i != seat]
            expected = (
                Refusal.NO_GAME if room.status != "playing"
                else Refusal.PARTY_TABLE if room.run_by == "party"
                else Refusal.NOT_ALONE if any(s.kind == "human" for s in others)
                else None
            )  # fmt: skip
            assert pause_refusal(room, seat) == expected


def documented_order() -> dict[str, list[str]]:
    """Section 6's "Which refusal wins" table: each room command's checks, in order."""
    text = section(6).split("**Which refusal wins.**")[1]
    order = {}
    for command, checks in re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", text, re.MULTILINE):
        order[command] = re.findall(r"`([a-z_]+)`", checks)
    return order


def known(level: str) -> bool:
    return level == "easy"


def holds(code: str, room: Room, seat: int, message: Any) -> bool:
    """Whether the condition behind ``code`` holds, as section 6 describes it (written
    apart from ``protocol.room_rules``, which is what is checked)."""
    target = getattr(message, "seat", None)
    exists = target is not None and target < len(room.seats)
    kind = room.seats[target].kind if exists else None
    rules = getattr(message, "rules", None)
    if code == "party_table":
        return room.run_by == "party"
    if code == "not_owner":
        return seat != room.owner
    if code == "game_running":
        playing = room.status == "playing"
        return playing and (not isinstance(message, Kick) or (exists and kind != "human"))
    if code == "no_game":
        return room.status != "playing"
    if code == "no_such_seat":
        return target is not None and not exists
    if code == "seat_taken":
        if isinstance(message, SetRules):
            playable = isinstance(rules, Rules)
            return playable and any(s.kind == "human" for s in room.seats[rules.players :])
        return kind == "human"
    if code == "unknown_level":
        return getattr(message, "ai", None) is not None and not known(message.ai)
    if code == "bad_rules":
        return isinstance(rules, UnplayableRules)
    if code == "seats_empty":
        return any(s.kind == "empty" for s in room.seats)
    if code == "not_ready":
        return any(
            s.kind == "human" and i != room.owner and not s.ready for i, s in enumerate(room.seats)
        )
    raise AssertionError(f"section 6 orders an unknown check: {code}")


def commands() -> list[Any]:
    unplayable = UnplayableRules((("players", 3), ("deck_size", 24)), "no")
    made: list[Any] = [SetOptions(1, 0, None, 12000, None, 8), Start(1), Ready(1, True)]
    made += [Draw(1), Leave(1), SetRules(1, Rules(players=2)), SetRules(1, Rules(players=3))]
    made.append(SetRules(1, unplayable))
    for target in range(4):
        made += [Kick(1, target), SetSeat(1, target, None)]
        made += [SetSeat(1, target, level) for level in ("easy", "nonesuch")]
        made += [Replace(1, target, level) for level in ("easy", "nonesuch")]
    return made


NAMES = {
    SetRules: "set_rules", SetSeat: "set_seat", SetOptions: "set_options", Start: "start",
    Ready: "ready", Kick: "kick", Replace: "replace", Draw: "draw", Leave: "leave",
}  # fmt: skip


def test_the_first_refusal_of_the_documented_order_wins() -> None:
    order = documented_order()
    assert set(NAMES.values()) - {"leave"} <= order.keys()
    checked = 0
    for room in rooms():
        for seat, message in itertools.product(range(len(room.seats)), commands()):
            checks = order.get(NAMES[type(message)], [])
            expected = next((c for c in checks if holds(c, room, seat, message)), None)
            assert room_refusal(room, seat, message, known) == expected, (room, seat, message)
            checked += expected is not None
    assert checked > 10_000  # (most combinations are refused: the order decides them)
