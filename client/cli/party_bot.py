"""``durak bot --party HOST:PORT``: a headless player for a whole party night.

It joins the party with its name, and for each round's ``party_table`` it plays that
table's game as ``durak bot`` plays one (``BotPlayer``: the same AI levels, the same
checks of each deal), with the seat's token, while it keeps listening to the party. It
leaves when the night is over (``leave_after``: as soon as its game of that round ends,
to test a party's seating without a player). A lost party connection (a party host
killed and resumed) is joined again with the party's token, and a lost table connection
is taken up again with the table's token, as ``durak bot`` does (exponential backoff
with jitter).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from client.net.client import Backoff, HostClosed, NetClient, come_back, parse_address
from client.net.party import PartyClient
from engine import GameResult, Rules
from engine.ai import make_bot
from protocol import Party, PartyTable, PartyUpdate

from .bot_player import BotPlayer, BotReport, counted

__all__ = ["PartyReport", "play_party", "run_party"]

GRACE = 10.0  # seconds the night's end waits for a table's last messages (its reveal)


@dataclass(slots=True)
class PartyReport:
    """What one bot saw of a party: its tables, its games' results, the last party."""

    name: str
    player: int | None = None
    tables: list[PartyTable] = field(default_factory=list)
    results: dict[int, tuple[int, GameResult]] = field(default_factory=dict)  # round: seat, result
    party: Party | None = None
    rejoins: int = 0
    unfair: int = 0  # deals that could not be verified
    rtts: dict[tuple[int, int], list[float]] = field(default_factory=dict)  # (round, table)
    told: int = 0  # results the bot never saw at its table, taken from the party's table map

    def lines(self) -> list[str]:
        out = []
        for table in self.tables:
            seat_result = self.results.get(table.round)
            if seat_result is None:
                how = "no result"
            else:
                seat, result = seat_result
                how = "the Durak" if result.durak == seat else f"place {result.places[seat]}"
            out.append(f"round {table.round}: table {table.table + 1}, seat {table.seat}: {how}")
        if self.party is not None and self.player is not None:
            me = next(p for p in self.party.players if p.id == self.player)
            out.append(
                f"{self.name}: rank {me.rank}, score {me.score}"
                f" ({counted(me.wins, 'win')}, {counted(me.losses, 'time')} the Durak)"
            )
        return out


async def _play_table(
    table: PartyTable,
    name: str,
    level: str,
    seed: int,
    report: PartyReport,
    played_one: Callable[[int], None],
    think: float,
) -> None:
    """Play the round's game at ``table`` (gone quietly if the table closes first), then
    say so (``played_one(round)``)."""
    try:
        client = await NetClient.connect(
            table.address, table.port, name, token=table.token, reconnect=Backoff()
        )
    except (HostClosed, OSError):
        return
    player = BotPlayer(client, level, 1, seed, think)
    try:
        played: BotReport = await player.play()
    except HostClosed:
        played = player.report
    finally:
        await client.close()
    report.rtts[table.round, table.table] = played.rtts
    if played.results:
        report.results[table.round] = (played.seat, played.results[0])
    report.unfair += sum(1 for deal in played.deals if not deal.ok)
    played_one(table.round)


async def play_party(
    address: str,
    port: int,
    name: str,
    level: str = "random",
    *,
    seed: int | None = None,
    token: str | None = None,
    leave_after: int | None = None,
    backoff: Backoff | None = None,
    think: float = 0.0,
) -> PartyReport:
    """Join the party at ``address:port`` as ``name`` and play until the night is over
    (or ``leave_after`` rounds); the report of it. ``think``: up to that many seconds
    before each action (``BotPlayer``)."""
    make_bot(level, 0, Rules(), 0)  # ValueError for an unknown level, before connecting
    backoff = backoff or Backoff()
    rng = random.Random(seed)
    report = PartyReport(name)
    client = await PartyClient.connect(address, port, name, token=token)
    report.player, report.party = client.player, client.party
    games: dict[int, asyncio.Task[None]] = {}
    leaving: list[bool] = []

    def played_one(round_number: int) -> None:
        """Our game of that round is over: leave now if that was the last one we play
        (before the round ends, so the next seating is decided without us)."""
        if leave_after is not None and round_number >= leave_after and not leaving:
            leaving.append(True)
            client.leave()

    try:
        while True:
            try:
                message = await client.receive()
            except HostClosed as exc:
                if exc.code != "closed" or client.token is None:
                    raise
                await _rejoin(client, exc, backoff, rng)
                report.rejoins += 1
                message = PartyUpdate(client.party)
            report.party = client.party
            if isinstance(message, PartyTable) and message.round not in games:
                report.tables.append(message)
                table_seed = rng.getrandbits(32)
                job = _play_table(message, name, level, table_seed, report, played_one, think)
                games[message.round] = asyncio.create_task(job)
            if client.party.status == "over":  # no table comes after this
                report.party = client.party
                await _finish(games, report)
                break
    except HostClosed as exc:
        if exc.code != "left":
            raise
    finally:
        for task in games.values():
            if not task.done():
                task.cancel()
        await client.close()
    return report


async def _finish(games: dict[int, asyncio.Task[None]], report: PartyReport) -> None:
    """The night is over: each table's game ends (a moment for its reveal); one that waits
    on a table that is gone (it closed, or a restarted party did not open it again) stops,
    and a result it never saw is the party's (the table map of that round)."""
    pending = [task for task in games.values() if not task.done()]
    if pending:
        _, late = await asyncio.wait(pending, timeout=GRACE)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
    party = report.party
    if party is None:
        return
    for table in report.tables:  # (the party's tables are its last round's)
        if table.round == party.round and table.round not in report.results:
            done = next((t for t in party.tables if t.table == table.table), None)
            if done is not None and done.places is not None:
                report.results[table.round] = (table.seat, GameResult(done.places, done.durak))
                report.told += 1


async def _rejoin(
    client: PartyClient, lost: HostClosed, backoff: Backoff, rng: random.Random
) -> None:
    """Join again with our token until the party answers (``backoff.give_up`` at most),
    the way the window's party link comes back (``come_back``); a goodbye ends it."""
    await client.close()
    try:
        await come_back(client.rejoin, backoff, lost, lambda closed: closed.goodbye, rng)
    except HostClosed as exc:
        if exc.goodbye:
            raise
        raise HostClosed("closed", "The party host did not come back.") from None


def run_party(args: argparse.Namespace) -> int:
    """``durak bot --party HOST:PORT``: play a party's night (``client.cli.party_bot``)."""
    try:
        address, port = parse_address(args.party)
        report = asyncio.run(
            play_party(
                address,
                port,
                args.name or f"{args.level.capitalize()} bot",
                args.level,
                seed=args.seed,
                think=args.think,
            )
        )
    except ValueError as exc:
        print(f"durak bot: {exc}")
        return 2
    except HostClosed as exc:
        print(f"durak bot: the party closed the connection ({exc.code}): {exc.text}")
        return 1
    except OSError as exc:
        print(f"durak bot: cannot connect to {args.party}: {exc.strerror or exc}")
        return 1
    for line in report.lines():
        print(line, flush=True)
    return 0 if not report.unfair else 1
