"""The fair deal at a real host (127.0.0.1): every player is sent the commitment before the
deal, contributes, and verifies the deal the host reveals at the end; the secret and the
others' contributions are never sent before that; malformed contributions are refused and
change nothing; a player who does not answer is not waited for longer than ``fair_wait``;
and a host restarted mid-game still reveals the deal it committed to. On the socket-free
harness: what arrives while the deal waits is handled after it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from harness import Harness, ManualScheduler
from live import expect, serving

from client.cli.bot_player import play_bot
from client.net.client import NetClient
from host import Host, HostConfig
from host.journal import journal_file
from host.resume import load_table
from host.save import save_file
from protocol import (
    Ack,
    Commit,
    Contribute,
    DealCheck,
    Leave,
    Ready,
    Rejected,
    Reveal,
    RoomUpdate,
    Snapshot,
    Start,
    Update,
)


async def test_every_player_verifies_every_deal_and_nothing_leaks_before_the_reveal() -> None:
    payloads: list[list[Any]] = [[], []]
    async with serving(seats=3, ai=("random",)) as host:
        reports = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_bot("127.0.0.1", host.port, "random", 2, seed=i, on_payload=seen.append)
                    for i, seen in enumerate(payloads)
                )
            ),
            60,
        )
        logs = host.table.logs
    for report in reports:
        assert len(report.deals) == 2 and report.fair
        assert [d.log.seed for d in report.deals if d.log] == [log.seed for log in logs]
        assert [d.log.actions for d in report.deals if d.log] == [log.actions for log in logs]
    for seen in payloads:
        commits = [p for p in seen if p["type"] == "commit"]
        reveals = [p for p in seen if p["type"] == "reveal"]
        assert len(commits) == len(reveals) == 2
        for reveal in reveals:
            secrets = [reveal["secret"], *(v for _, v in reveal["contributions"])]
            assert len(reveal["contributions"]) == 2  # both players' values, none for the AI
            before = repr(seen[: seen.index(reveal)])
            # the host's secret, the other player's value and the seed: first in the reveal
            assert not any(s in before for s in secrets) and str(reveal["seed"]) not in before
            first = seen.index(next(p for p in seen if p.get("game") == reveal["game"]))
            assert seen[first]["type"] == "commit"  # before anything of the game


async def test_malformed_contributions_are_refused_and_change_nothing() -> None:
    async with serving(seats=2, fair_wait=30) as host:
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        boris = await NetClient.connect("127.0.0.1", host.port, "Boris")
        anna.contribute = boris.contribute = False  # (they send theirs by hand here)
        good = "1f" * 32

        async def answer(client: NetClient, ref: int, game: int, value: object) -> object:
            client.send(Contribute(ref, game, value))  # type: ignore[arg-type]
            return await expect(client, Ack | Rejected, lambda m: m.ref == ref)  # type: ignore[attr-defined]

        before = await answer(anna, 1, 1, good)  # before the commitment
        assert isinstance(before, Rejected) and before.reason == "no_commitment"
        boris.ready()
        await expect(anna, RoomUpdate, lambda m: m.room.seats[1].ready)  # type: ignore[attr-defined]
        anna.start()
        commit = await expect(anna, Commit)
        assert isinstance(commit, Commit) and commit.game == 1 and commit.wait_ms == 30000
        for ref, value in enumerate([17, None, True, "ab", "AB" * 32, "g" * 64, good + "0"], 10):
            refused = await answer(anna, ref, 1, value)
            assert isinstance(refused, Rejected) and refused.reason == "bad_contribution"
        wrong_game = await answer(anna, 20, 2, good)
        assert isinstance(wrong_game, Rejected) and wrong_game.reason == "no_commitment"
        assert host.table.state is None and host.table.pending is not None  # still waiting
        assert await answer(anna, 21, 1, good) == Ack(21, None)
        anna.witness.contributed(1, good)
        twice = await answer(anna, 22, 1, "2e" * 32)
        assert isinstance(twice, Rejected) and twice.reason == "contributed"
        assert host.table.state is None  # Boris has not answered yet
        assert await answer(boris, 23, 1, "3d" * 32) == Ack(23, None)
        boris.witness.contributed(1, "3d" * 32)
        await expect(anna, Update)
        late = await answer(boris, 24, 1, "4c" * 32)  # after the deal
        assert isinstance(late, Rejected) and late.reason == "no_commitment"
        deal = host.table.deal
        assert deal is not None
        assert deal.contributions == ((0, bytes.fromhex(good)), (1, bytes.fromhex("3d" * 32)))
        anna.draw()  # the owner ends it: the draw is revealed too
        for client in (anna, boris):
            reveal = await expect(client, Reveal)
            assert isinstance(reveal, Reveal) and reveal.drawn and reveal.done
            assert client.witness.verdict(1).ok
        await anna.close()
        await boris.close()


async def contributed(host: Host, seat: int) -> None:
    """Until the host has taken ``seat``'s contribution to the deal it waits to deal."""
    async with asyncio.timeout(30):
        while (pending := host.table.pending) is None or seat not in pending.values:
            await asyncio.sleep(0.01)


async def test_a_player_who_does_not_answer_is_not_counted() -> None:
    """Boris never contributes: the host deals once ``fair_wait`` is up (on its clock,
    moved by hand), from Anna's value alone, and both verify the deal (Boris knows his
    value was not used: he sent none)."""
    clock = ManualScheduler()
    async with serving(clock, seats=2, fair_wait=0.3) as host:
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        boris = await NetClient.connect("127.0.0.1", host.port, "Boris")
        boris.contribute = False
        boris.ready()
        await expect(anna, RoomUpdate, lambda m: m.room.seats[1].ready)  # type: ignore[attr-defined]
        anna.start()
        await contributed(host, 0)
        clock.advance(0.3)
        await expect(anna, Update)
        deal = host.table.deal
        assert deal is not None and [seat for seat, _ in deal.contributions] == [0]
        anna.draw()
        for client in (anna, boris):
            await expect(client, Reveal, lambda m: m.done)  # type: ignore[attr-defined]
            assert client.witness.verdict(1).ok
        await anna.close()
        await boris.close()


async def test_a_value_that_came_too_late_leaves_the_deal_unverified_for_its_sender() -> None:
    """Boris answers only after the deal: his value is refused (``no_commitment``), so he
    knows it was not used, and his verdict says the deal was not protected by it."""
    clock = ManualScheduler()
    async with serving(clock, seats=2, fair_wait=0.3) as host:
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        boris = await NetClient.connect("127.0.0.1", host.port, "Boris")
        boris.contribute = False
        boris.ready()
        await expect(anna, RoomUpdate, lambda m: m.room.seats[1].ready)  # type: ignore[attr-defined]
        anna.start()
        await contributed(host, 0)
        clock.advance(0.3)  # the wait is up
        await expect(boris, Update)
        boris.witness.contributed(1, "5b" * 32)
        boris.send(Contribute(9, 1, "5b" * 32))
        late = await expect(boris, Rejected)
        assert isinstance(late, Rejected) and late.reason == "no_commitment"
        anna.draw()
        for client in (anna, boris):
            await expect(client, Reveal, lambda m: m.done)  # type: ignore[attr-defined]
        assert anna.witness.verdict(1).ok
        assert boris.witness.verdict(1).problem == "contribution"
        await anna.close()
        await boris.close()


async def play_until(client: NetClient, seq: int, rng: random.Random) -> int:
    """Play random legal actions until an update of ``seq`` or more (or the game's end)."""
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, Update | Snapshot):
            if message.seq >= seq or message.view.result is not None:
                return message.seq
            if message.view.legal:
                client.act(rng.choice(message.view.legal))


async def test_a_resumed_host_reveals_the_deal_it_committed_to(tmp_path: Path) -> None:
    """The secret and the contributions are in the journal with the game (not sent, not in
    a view); a host stopped mid-game and resumed reveals them at the end, and the player
    who was there all along verifies the deal."""
    options = {"seats": 2, "ai": ("random",), "save_dir": str(tmp_path), "hold": 30}
    rng = random.Random(5)
    async with serving(port=0, **options) as host:  # type: ignore[arg-type]
        port = host.port
        anna = await NetClient.connect("127.0.0.1", port, "Anna")
        anna.start()
        await play_until(anna, 6, rng)
        deal = host.table.deal
        assert deal is not None and deal.contributions[0][0] == 0
        await anna.close()
    saved = load_table(save_file(tmp_path, port)).table
    assert journal_file(save_file(tmp_path, port)).exists() and saved.deal == deal
    async with serving(port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        assert host.table.deal == deal
        back = await NetClient.connect("127.0.0.1", port, "Anna", token=anna.token)
        back.witness = anna.witness  # (the same player: it remembers what it was shown)
        back.witness.see(back.welcome)  # type: ignore[arg-type]
        verdict: DealCheck | None = None
        while verdict is None:
            message = await asyncio.wait_for(back.receive(), 30)
            if isinstance(message, Update | Snapshot) and message.view.legal:
                back.act(rng.choice(message.view.legal))
            elif isinstance(message, Reveal) and message.done:
                assert message.secret == deal.secret.hex()
                verdict = back.witness.verdict(message.game)
        assert verdict.ok, verdict
        await back.close()


def test_what_arrives_while_the_deal_waits_is_handled_after_it() -> None:
    """On the harness: a newcomer and a departure that arrive while the deal waits for
    contributions change neither the seats nor the rules the commitment binds; they are
    handled once the game is dealt (``fair_wait`` later, Boris never answering)."""
    pair = Harness(HostConfig(seats=2, fair_wait=5, announce=False))
    anna, boris = pair.join("Anna"), pair.join("Boris")
    pair.command(boris, lambda ref: Ready(ref, True))
    pair.command(anna, lambda ref: Start(ref))
    commit = anna.last(Commit)
    assert commit.game == 1 and commit.wait_ms == 5000 and boris.last(Commit) == commit
    assert pair.table.pending is not None and not pair.table.playing
    good = "1f" * 32
    assert pair.command(anna, lambda ref: Contribute(ref, 1, good)).seq is None  # an ack
    cleo = pair.join("Cleo")  # both wait for the deal
    pair.send(boris, Leave(99))
    assert Ack(99, None) not in boris.sent  # (its answer comes after the deal)
    assert cleo.closed is None and boris.closed is None and pair.table.seats[1].kind == "human"
    pair.advance(4.9)
    assert not pair.table.playing
    pair.advance(0.1)  # the wait is over: the deal, then what waited for it
    deal = pair.table.deal
    assert deal is not None and deal.contributions == ((0, bytes.fromhex(good)),)
    assert cleo.closed == "game_in_progress"  # not "table_full": she came in a game
    assert Ack(99, None) in boris.sent and boris.closed == "left"
    assert pair.table.seats[1].kind == "ai"  # an AI plays his seat to the game's end
    assert anna.of(Update)


def test_a_seed_never_makes_a_secret_a_player_could_know() -> None:
    """``durak host --seed`` (docs/protocol.md section 15): where a player is asked to
    contribute, the host's secret is fresh on every run, so nobody can know it beforehand
    and choose the deal with a value of their own; a deal nobody contributes to (the
    harness's ``fair_wait`` 0) is the seed's alone, the same every run."""

    def commitment(fair_wait: float) -> str:
        pair = Harness(
            HostConfig(seats=2, ai=("random",), seed=5, fair_wait=fair_wait, announce=False)
        )
        anna = pair.join("Anna")
        pair.command(anna, lambda ref: Start(ref))
        return str(anna.last(Commit).commitment)

    assert commitment(2) != commitment(2)
    assert commitment(0) == commitment(0)
