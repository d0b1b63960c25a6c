"""A party night on the manual clock (tests/host/night_harness.py): the real party host and
its round tables, no socket and no waiting. Every timer of the night (the gathering, a
seat's hold, the break, the heartbeat, the linger before a table closes) fires when the
test moves the clock, so each is checked to the second."""

from __future__ import annotations

from night_harness import EPOCH, NightHarness

from engine import Rules
from host.party.server import PartyConfig
from protocol import PROTOCOL_VERSION, Join, Night, PartyLeave, PartyTable


def config(**changes: object) -> PartyConfig:
    base = {
        "setup": Night(Rules(players=3), rounds=2),
        "seed": 26,
        "break_s": 30.0,
        "gather": 20.0,
        "hold": 60.0,
        "linger": 1.0,
        "ai_processes": False,
        "fair_wait": 0.0,
        "silence": 9.0,
    } | changes
    return PartyConfig(**base)  # type: ignore[arg-type]


async def test_a_night_of_two_rounds_runs_its_break_to_the_second() -> None:
    """Five guests at tables of three (one AI fill) play two rounds; the second is seated
    by the break's end and not a moment before, and the standings count every game."""
    night = NightHarness(config(start_with=5))
    await night.start()
    try:
        guests = [await night.join(f"Guest {i}") for i in range(5)]
        assert night.party.night.status == "playing"
        assert all(g.table is not None and g.table.round == 1 for g in guests)
        assert sorted(len(t.table.seats) for t in night.tables.running()) == [3, 3]
        await night.play_round(guests)
        party = guests[0].party
        assert party.status == "break" and party.round == 1
        assert party.next_ms is not None
        break_ends = night.party.night.next_at
        assert break_ends is not None
        await night.advance(break_ends - EPOCH - night.scheduler.clock - 0.5)
        assert night.party.night.status == "break"  # half a second to go
        await night.advance(0.5)
        assert night.party.night.status == "playing" and guests[0].party.round == 2
        assert all(g.table is not None and g.table.round == 2 for g in guests)
        await night.play_round(guests)
        final = guests[0].party
        assert final.status == "over" and final.final
        assert [p.games for p in final.players] == [2] * 5
        assert sum(p.losses for p in final.players) <= 4  # a Durak per game at most
        assert len(night.party.night.games) == 4
    finally:
        await night.stop()


async def test_round_tables_close_a_linger_after_their_game() -> None:
    night = NightHarness(config(start_with=3, setup=Night(Rules(players=3), rounds=2)))
    await night.start()
    try:
        guests = [await night.join(f"Guest {i}") for i in range(3)]
        [table] = night.tables.running()
        await night.play_round(guests)
        assert table in night.tables.running()  # the players read the end meanwhile
        await night.advance(1.0)
        assert table.stopped and not night.tables.running()
    finally:
        await night.stop()


async def test_a_guest_who_never_comes_is_held_then_stood_in_and_the_game_scored() -> None:
    """The table deals after the gathering time without the missing guest, holds the seat
    for the hold, then a stand-in plays it; the party scores that game for the guest."""
    night = NightHarness(config(start_with=3, gather=20.0, hold=60.0))
    await night.start()
    try:
        here = [await night.join(f"Guest {i}") for i in range(2)]
        absent = await night.join("Asleep")
        [opened] = night.tables.running()
        for guest in here:
            await night.sit_down(guest)
        await night.advance(19.0)
        assert not opened.table.playing  # still gathering
        await night.advance(1.0)
        assert opened.table.playing
        seat = absent.table.seat if absent.table is not None else -1
        await night.advance(59.0)
        assert seat not in opened.table.bots  # held
        await night.advance(1.0)
        assert seat in opened.table.bots  # stood in for
        await night.play_round(here)
        asleep = next(p for p in here[0].party.players if p.name == "Asleep")
        assert asleep.games == 1
    finally:
        await night.stop()


async def test_a_silent_guest_is_away_within_the_silence_and_the_organiser_hands_on() -> None:
    """A laptop that drops off the Wi-Fi without closing its connection: asked after a third
    of the silence (heartbeat), taken for gone at the silence, and the next player here
    organises the night; one who answers stays for as long as it answers."""
    night = NightHarness(config())
    await night.start()
    try:
        anna = await night.join("Anna")
        boris = await night.join("Boris")
        organiser = night.party.view().organiser
        assert organiser == anna.party.players[0].id
        anna.wire.mute = True
        await night.advance(8.0)
        assert night.party.view().organiser == organiser  # not yet
        await night.advance(1.5)
        party = night.party.view()
        assert party.organiser == boris.party.players[1].id
        assert [p.status for p in party.players] == ["away", "here"]
        await night.advance(60.0)  # Boris answers every heartbeat
        assert [p.status for p in night.party.view().players] == ["away", "here"]
        assert boris.goodbye is None
    finally:
        await night.stop()


async def test_a_break_with_too_few_players_left_waits_for_the_organiser() -> None:
    night = NightHarness(
        config(setup=Night(Rules(players=2), rounds=3, fill=False), start_with=2, break_s=5.0)
    )
    await night.start()
    try:
        stays, goes = [await night.join(name) for name in ("Stays", "Goes")]
        await night.play_round([stays, goes])
        goes.send(PartyLeave(1))
        await night.settle()
        assert goes.goodbye is not None and goes.goodbye.code == "left"
        await night.advance(5.0)
        party = night.party.view()
        assert party.status == "break" and party.round == 1 and party.next_ms is None
        assert [p.status for p in party.players] == ["here", "left"]
    finally:
        await night.stop()


async def test_a_seated_guest_who_drops_is_told_their_table_again_on_return() -> None:
    night = NightHarness(config(setup=Night(Rules(players=2), rounds=1), start_with=2))
    await night.start()
    try:
        anna, _ = [await night.join(name) for name in ("Anna", "Boris")]
        first = anna.table
        token = next(m.token for m in anna.received if hasattr(m, "token") and m.token)
        anna.wire.abort()  # dropped, not left: still seated, the seat held
        await night.settle()
        back = await night.connect("Anna")
        back.send(Join(PROTOCOL_VERSION, "Anna", token))
        await night.settle()
        assert isinstance(first, PartyTable) and back.table == first
        assert [p.status for p in back.party.players] == ["here", "here"]
    finally:
        await night.stop()
