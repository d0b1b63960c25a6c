"""Sections 4 and 13: the room's commands (set_rules, set_seat, set_options, start, ready,
emote) with each of their refusals, and at the end, leaving: who owns the room, a full
table. The owner is the first player of the handshake; the second player who joins here
plays the games after it."""

from __future__ import annotations

from functools import partial

from client.cli.conformance.peer import Peer, kinds
from client.cli.conformance.session import LEVEL, Session, clear_seat, settle
from engine import Pass, Rules
from protocol import (
    PROTOCOL_VERSION,
    VALUE_BYTES,
    Ack,
    Act,
    Contribute,
    Draw,
    Emote,
    Emoted,
    Hello,
    Kick,
    Ready,
    Rejected,
    Replace,
    RoomUpdate,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
    encode,
)


async def lobby(s: Session, anna: Peer) -> Peer:
    """Every lobby command and its refusals, by the owner (Anna) and a second player
    (Boris), who stays for the games."""
    assert anna.room is not None
    for index, info in enumerate(anna.room.seats):  # a table used before may have some
        if info.kind == "ai":
            await anna.ask(partial(clear_seat, index))
    rules = Rules(players=4)
    seen = await anna.ask(lambda r: SetRules(r, rules))
    ack, update = [*seen, None, None][:2]
    s.record.check(
        "set_rules is ack (seq nil), then room with the rules and seats",
        kinds(seen) == "Ack, RoomUpdate"
        and isinstance(ack, Ack)
        and ack.seq is None
        and isinstance(update, RoomUpdate)
        and update.room.rules == rules
        and len(update.room.seats) == 4,
        kinds(seen),
    )
    for what, options in (
        ("24 cards for 6 players", {"players": 6, "deck_size": 24}),
        ("show trump without transfer", {"transfer_show_trump": True}),
    ):
        wire = {**rules.to_dict(), **options}
        ref = anna.ref()
        anna.send_map({"type": "set_rules", "ref": ref, "rules": wire})
        seen = await anna.sync()
        s.record.check(
            f"set_rules with {what} is rejected bad_rules and changes nothing",
            len(seen) == 1
            and isinstance(seen[0], Rejected)
            and seen[0].reason == "bad_rules"
            and seen[0].ref == ref,
            kinds(seen),
        )
    boris = await s.join("Boris")
    s.record.check("the second player gets the next seat", boris.seat == 1, f"seat {boris.seat}")
    await settle(anna, lambda r: r.seats[1].name == "Boris")
    s.record.check("everyone is sent the room when a player joins", True)
    for what, make in (
        ("set_rules", lambda r: SetRules(r, rules)),
        ("set_seat", lambda r: SetSeat(r, 2, LEVEL)),
        ("set_options", lambda r: SetOptions(r, 1000, None)),
        ("start", Start),
    ):
        await s.refusal(boris, f"{what} from a player who is not the owner", make, "not_owner")
    await s.refusal(
        anna, "set_seat of a seat with a player", lambda r: SetSeat(r, 1, LEVEL), "seat_taken"
    )
    await s.refusal(
        anna,
        "set_seat of seat 5 at a 4-seat table",
        lambda r: SetSeat(r, 5, LEVEL),
        "no_such_seat",
    )
    await s.refusal(
        anna,
        "set_seat with an unknown level",
        lambda r: SetSeat(r, 2, "grandmaster"),
        "unknown_level",
    )
    await refusal_order(s, anna, boris)
    seen = await anna.ask(lambda r: Kick(r, 3))
    seat = anna.room.seats[3] if anna.room else None
    s.record.check(
        "kick of an empty seat is ack (seq nil), then room, the seat still empty",
        kinds(seen) == "Ack, RoomUpdate"
        and isinstance(seen[0], Ack)
        and seen[0].seq is None
        and seat is not None
        and seat.kind == "empty",
        f"{kinds(seen)} {seat!r}",
    )
    seen = await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
    seat = anna.room.seats[2] if anna.room else None
    s.record.check(
        "set_seat with a level seats an AI: ack, room with an ai seat, always ready",
        kinds(seen) == "Ack, RoomUpdate"
        and seat is not None
        and (seat.kind, seat.status, seat.ready, seat.level) == ("ai", "ai", True, LEVEL),
        f"{kinds(seen)} {seat!r}",
    )
    seen = await anna.ask(lambda r: SetSeat(r, 2, None))
    seat = anna.room.seats[2] if anna.room else None
    s.record.check(
        "set_seat with ai nil clears the seat",
        kinds(seen) == "Ack, RoomUpdate"
        and seat is not None
        and (seat.kind, seat.status, seat.ready) == ("empty", "empty", False),
        repr(seat),
    )
    cleo = await s.join("Cleo")
    await s.refusal(
        anna,
        "set_rules that would remove a player's seat",
        lambda r: SetRules(r, Rules(players=2)),
        "seat_taken",
    )
    await cleo.close()
    await settle(anna, lambda r: r.seats[2].kind == "empty")
    s.record.check("a player leaving the lobby frees the seat", True)
    seen = await anna.ask(lambda r: SetOptions(r, 60000, None))
    room = anna.room
    s.record.check(
        "set_options is ack, then room with hold_ms and turn_ms",
        kinds(seen) == "Ack, RoomUpdate"
        and room is not None
        and (room.hold_ms, room.turn_ms) == (60000, None),
        kinds(seen),
    )
    await s.refusal(anna, "start with an empty seat", Start, "seats_empty")
    await s.refusal(anna, "act in the lobby", lambda r: Act(r, Pass()), "no_game")
    good = "ab" * VALUE_BYTES
    game = (anna.room.game if anna.room else 0) + 1
    await s.refusal(
        anna,
        "a contribution before any commitment",
        lambda r: Contribute(r, game, good),
        "no_commitment",
    )
    await ready_marks(s, anna, boris)
    await emotes(s, anna, boris)
    return boris


async def refusal_order(s: Session, anna: Peer, boris: Peer) -> None:
    """Section 6's "which refusal wins", where several apply at once (a 4-seat lobby)."""
    nope = "grandmaster"
    for who, what, make, code in (
        (boris, "kick of seat 5 by a non-owner", lambda r: Kick(r, 5), "not_owner"),
        (boris, "draw in the lobby by a non-owner", Draw, "not_owner"),
        (anna, "set_seat of seat 5, level unknown", lambda r: SetSeat(r, 5, nope), "no_such_seat"),
        (anna, "replace of seat 5, level unknown", lambda r: Replace(r, 5, nope), "no_such_seat"),
        (anna, "draw in the lobby", Draw, "no_game"),
    ):  # fmt: skip
        await s.refusal(who, f"{what} (the first refusal of section 6 wins)", make, code)


async def ready_marks(s: Session, anna: Peer, boris: Peer) -> None:
    await anna.ask(lambda r: SetRules(r, Rules(players=3)))
    await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
    await boris.sync()
    await s.refusal(anna, "start while another player is not ready", Start, "not_ready")
    seen = await boris.ask(lambda r: Ready(r, True))
    mark = boris.room.seats[1].ready if boris.room else None
    s.record.check(
        "ready is ack (seq nil), then room with the mark, to everyone",
        kinds(seen) == "Ack, RoomUpdate" and mark is True,
        kinds(seen),
    )
    await settle(anna, lambda r: r.seats[1].ready)
    seen = await boris.ask(lambda r: Ready(r, True))
    s.record.check("ready that changes no mark is ack alone", kinds(seen) == "Ack", kinds(seen))
    await anna.ask(lambda r: SetOptions(r, 30000, None))
    await settle(boris, lambda r: r.hold_ms == 30000)
    s.record.check(
        "set_options keeps the ready marks",
        bool(boris.room and boris.room.seats[1].ready),
        "Boris's mark was cleared",
    )
    await anna.ask(lambda r: SetRules(r, Rules(players=3, transfer=True)))
    await settle(boris, lambda r: r.rules.transfer)
    s.record.check(
        "set_rules with new rules clears the ready marks",
        bool(boris.room and not boris.room.seats[1].ready),
        "Boris is still ready",
    )


async def emotes(s: Session, anna: Peer, boris: Peer) -> None:
    anna.send(Emote("nice"))
    seen = await anna.sync()
    s.record.check(
        "an emote is relayed to the sender as emoted, without an answer",
        seen == [Emoted(0, "nice")],
        kinds(seen),
    )
    got = await boris.wait_for(Emoted)
    s.record.check("an emote is relayed to every seat", got == Emoted(0, "nice"), repr(got))
    anna.send(Emote("ha"))
    seen = await anna.sync()
    s.record.check(
        "a second emote within 2 seconds is dropped without a word", seen == [], kinds(seen)
    )


async def leaving(s: Session, anna: Peer) -> None:
    """Sections 3, 4 and 13 at the end: a freed seat taken, a full table, a new number of
    seats, and the owner leaving."""
    await anna.ask(lambda r: SetSeat(r, 2, None))
    dora = await s.join("Dora")
    s.record.check("a new player takes the free seat", dora.seat == 1, f"seat {dora.seat}")
    await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
    await s.refused(
        "a hello at a table with every seat taken is table_full",
        encode(Hello(PROTOCOL_VERSION, "Extra", s.password)),
        "table_full",
    )
    seen = await anna.ask(lambda r: SetRules(r, Rules(players=4)))
    room = anna.room
    s.record.check(
        "set_rules with another number of seats restarts the series",
        "Ack" in kinds(seen)
        and room is not None
        and room.series.games == 0
        and len(room.series.wins) == 4,
        repr(room.series if room else None),
    )
    await anna.close()
    await settle(dora, lambda r: r.seats[0].kind == "empty")
    owner = dora.room.owner if dora.room else None
    s.record.check(
        "when the owner leaves the lobby the next connected human owns the room",
        owner == dora.seat,
        f"owner {owner}",
    )
