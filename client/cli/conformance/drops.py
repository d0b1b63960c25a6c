"""Section 10: drops, returns, stand-ins and the turn timer, in two games. A dropped
player's seat is held and given back with a snapshot, a second connection with the
seat's token replaces the first, the turn timer makes the default move, a host AI stands
in at once under hold_ms 0, and a seat stood in for at the end is freed (its token refused)."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from client.cli.conformance.game import Games
from client.cli.conformance.peer import Peer, kinds
from client.cli.conformance.report import Failed
from client.cli.conformance.session import Session, fill_seat, packed, settle
from client.cli.conformance.updates import Player
from engine import Attacked, Passed, Phase, Rules, SeatView, Taking, ThrowInRule, Transferred
from protocol import RoomUpdate, SetOptions, SetRules, Snapshot, Update


async def drops(games: Games, anna: Peer, boris: Peer) -> None:
    """Boris drops and returns during a game (twice: the second connection replaces the
    first), then at a table of six drops for good."""
    s = games.session
    rules = Rules(
        players=3, throw_in=ThrowInRule.NEIGHBOURS, first_bout_five=False,
        durak_defends_first=True,
    )  # fmt: skip
    await anna.ask(lambda r: SetRules(r, rules))
    await anna.ask(lambda r: SetOptions(r, 60000, 1000))
    players = [Player(anna), Player(boris)]
    await games.start_game(players)
    await turn_timer(s, players)
    token = boris.token
    await boris.close()
    room = await anna.wait_for(RoomUpdate, lambda m: m.room.seats[1].status != "connected")
    seat = room.room.seats[1]
    s.record.check(
        "a dropped player's seat is away and held",
        (seat.status, seat.connected) == ("away", False),
        repr(seat),
    )
    players = players[:1]
    back = await s.peer()
    back.witness = boris.witness  # (the same player: it remembers the deal it saw)
    await back.hello("Boris", s.password, token)
    snap = await back.next()
    s.record.check(
        "a returning player gets welcome with the same seat, then a snapshot",
        back.seat == 1
        and isinstance(snap, Snapshot)
        and snap.view.seat == 1
        and snap.game == players[0].game,
        kinds([snap] if snap else []),
    )
    await settle(anna, lambda r: r.seats[1].status == "connected")
    s.record.check("everyone is sent the room with the seat connected again", True)
    again = await s.peer()
    again.witness = back.witness
    await again.hello("Boris", s.password, token)
    goodbye = await back.end()
    s.record.check(
        "the same seat joining again replaces the old connection",
        goodbye is not None and goodbye.code == "replaced",
        repr(goodbye),
    )
    snap = await again.next()
    if not isinstance(snap, Snapshot):
        raise Failed("no snapshot after welcome during a game")
    player = Player(again, seq=snap.seq, game=snap.game, view=snap.view, first_bout=False)
    again.hook = lambda m: games.updates.observe(player, m)
    players.append(player)
    await games.play(players)
    await games.game_end(players)
    await stand_in_and_away_at_the_end(games, anna, again)


async def turn_timer(s: Session, players: list[Player]) -> None:
    """Our seats do nothing: once turn_ms passes, the host makes the default move of
    section 10 for one of them (an update without an ack)."""
    name = "the turn timer makes the default move for a seat it waits on"
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while loop.time() < end:
        for p in players:
            while not p.peer.inbox.empty():
                message = p.peer.inbox.get_nowait()
                before = p.view
                if isinstance(message, Update):
                    moves = [
                        e
                        for e in message.events
                        if getattr(e, "seat", -1) == p.peer.seat
                        and isinstance(e, Attacked | Passed | Taking | Transferred)
                    ]
                    if moves and before is not None:
                        p.peer.deliver(message)
                        s.record.check(name, moves[0] == default_move(before), repr(moves[0]))
                        return
                if p.peer.deliver(message) is None:
                    raise Failed(f"the host closed seat {p.peer.seat}'s connection")
        await asyncio.sleep(0.05)
    s.record.check(name, False, "no move within 10 s")


async def stand_in_and_away_at_the_end(games: Games, anna: Peer, boris: Peer) -> None:
    """At a table of six (every card dealt) under hold_ms 0, Boris drops for good."""
    s = games.session
    await anna.ask(lambda r: SetRules(r, Rules(players=6)))  # 36 cards: all dealt
    for index in range(3, 6):
        await anna.ask(partial(fill_seat, index))
    await anna.ask(lambda r: SetOptions(r, 0, None))
    players = [Player(anna), Player(boris)]
    await games.start_game(players)
    token = boris.token
    await boris.close()
    room = await anna.wait_for(RoomUpdate, lambda m: m.room.seats[1].status != "connected")
    s.record.check(
        "with hold_ms 0 a host AI stands in for a dropped player at once",
        room.room.seats[1].status == "stand_in",
        repr(room.room.seats[1]),
    )
    await games.play(players[:1])
    await settle(anna, lambda r: r.status == "lobby")
    seat = anna.room.seats[1] if anna.room else None
    s.record.check(
        "a seat stood in for (its hold over) when the game ends is freed",
        seat is not None and seat.kind == "empty",
        repr(seat),
    )
    await s.refused("its token then gets bad_token", packed(s.hello_map(token=token)), "bad_token")


def default_move(view: SeatView) -> Any:
    """The event section 10's default move for this seat makes, from its view before."""
    seat = view.seat
    if seat == view.defender and view.phase is Phase.OPEN:
        return Taking(seat)
    if view.phase is Phase.LEAD and seat == view.attacker:
        low = min(view.hand, key=lambda c: (c.suit == view.trump, c.rank, c.suit))
        return Attacked(seat, (low,))
    return Passed(seat)
