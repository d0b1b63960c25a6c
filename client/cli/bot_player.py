"""One AI player at one table over the network, and what it saw: the player that
``durak bot`` runs at a table (``play_bot``), a party's bot runs at each of its tables
(``client.cli.party_bot``) and the conformance checks run beside their own clients.

A ``BotPlayer`` reads what its ``NetClient`` is told and answers with one of the legal
actions the view carries, decided by an AI level from ``engine.ai.LEVELS``: ready in the
lobby (again after every game), the owner's start once every seat is taken and every other
player is ready, and a check of every deal (docs/protocol.md section 15). Its
``BotReport`` says what happened.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.net.client import Backoff, NetClient
from engine import Action, GameEnded, GameResult, Rules, SeatView
from engine.ai import Bot, make_bot
from protocol import (
    Ack,
    DealCheck,
    Rejected,
    Reveal,
    Room,
    RoomUpdate,
    Snapshot,
    Update,
    Welcome,
)

__all__ = ["BotPlayer", "BotReport", "counted", "play_bot"]

MAX_REJECTIONS = 50  # in a row: a bot that keeps choosing refused actions gives up


def counted(n: int, noun: str) -> str:
    """``n`` and the English ``noun``, plural unless there is one: "1 game", "2 games"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass(slots=True)
class BotReport:
    seat: int
    level: str
    results: list[GameResult] = field(default_factory=list)
    rejected: int = 0
    room: Room | None = None
    reconnects: int = 0
    rtts: list[float] = field(default_factory=list)  # seconds from act to ack (NetClient's)
    deals: list[DealCheck] = field(default_factory=list)  # each game's verdict on its deal

    @property
    def fair(self) -> bool:
        """Whether every deal was verified."""
        return all(deal.ok for deal in self.deals)

    def lines(self) -> list[str]:
        out = []
        for number, result in enumerate(self.results, 1):
            place = result.places[self.seat]
            n = len(result.places)
            if result.durak == self.seat:
                how = "the Durak"
            elif result.durak is None:
                how = f"place {place} of {n} (a draw)"
            else:
                how = f"place {place} of {n}"
            deal = self.deals[number - 1] if number <= len(self.deals) else None
            if deal is None or deal.ok:
                verdict = "deal verified" if deal else "deal not checked"
            else:
                verdict = f"DEAL NOT VERIFIED: {deal.text}"
            out.append(f"game {number}: seat {self.seat} ({self.level}) was {how}; {verdict}")
        wins = sum(1 for r in self.results if r.places[self.seat] == 1 and r.durak != self.seat)
        losses = sum(1 for r in self.results if r.durak == self.seat)
        games = counted(len(self.results), "game")
        out.append(f"{games}: {wins} first out, {counted(losses, 'time')} the Durak")
        return out


class BotPlayer:
    """Plays one seat over a ``NetClient`` until ``games`` games have ended."""

    def __init__(
        self,
        client: NetClient,
        level: str,
        games: int,
        seed: int | None = None,
        think: float = 0.0,
    ) -> None:
        """``think``: before each action the bot waits a random time of up to that many
        seconds, as a player thinks; an update that comes meanwhile is thought over
        again."""
        self.client = client
        self.level = level
        self.games = games
        self.seeds = random.Random(seed)
        self.think = think
        self.pace = random.Random(seed)  # the thinking times (apart from the bots' seeds)
        self.report = BotReport(client.seat, level, rtts=client.round_trips)
        self.bot: Bot | None = None
        self.game = 0
        self.view: SeatView | None = None
        self.view_seq = -1
        self.decided_seq = -1
        self.acked_seq = -1  # our last action became this update: decide on no older view
        self.inflight: int | None = None
        self.start_ref: int | None = None
        self.ready_ref: int | None = None
        self.rejections = 0
        self.unchecked: int | None = None  # the game that ended and awaits its reveal
        assert client.welcome is not None
        self.room: Room = client.welcome.room

    async def play(self) -> BotReport:
        self._maybe_start()
        while len(self.report.results) < self.games or self.unchecked is not None:
            message = await self.client.receive()
            if isinstance(message, Update | Snapshot):
                self._observe(message)
            elif isinstance(message, Ack):
                if message.ref == self.start_ref:
                    self.start_ref = None
                if message.ref == self.ready_ref:
                    self.ready_ref = None
                if message.ref == self.inflight:
                    self.inflight, self.rejections = None, 0
                    if message.seq is not None:
                        self.acked_seq = message.seq
            elif isinstance(message, Rejected):
                if message.ref == self.ready_ref:
                    self.ready_ref = None
                if message.ref == self.start_ref:
                    self.start_ref = None
                elif message.ref == self.inflight:
                    self.inflight, self.decided_seq = None, -1
                    self.report.rejected += 1
                    self.rejections += 1
                    if self.rejections > MAX_REJECTIONS:
                        raise RuntimeError(f"the host refused {MAX_REJECTIONS} actions in a row")
            elif isinstance(message, Reveal) and message.done:
                self._checked(message.game)
            elif isinstance(message, RoomUpdate):
                if self.unchecked is not None and message.room.status == "lobby":
                    self._checked(self.unchecked)  # the game is over and was not revealed
                self.room = self.report.room = message.room
                self._maybe_start()
            elif isinstance(message, Welcome):  # back after a lost connection
                self.report.reconnects += 1
                self.inflight, self.start_ref, self.decided_seq = None, None, -1
                self.acked_seq = -1
                self.ready_ref = None
                self.room = self.report.room = message.room
                self._maybe_start()
            if len(self.report.results) < self.games:
                await self._maybe_act()
        self.report.room = self.room
        return self.report

    def _checked(self, game: int) -> None:
        if game == self.unchecked:
            self.report.deals.append(self.client.witness.verdict(game))
            self.unchecked = None

    def _observe(self, message: Update | Snapshot) -> None:
        view = message.view
        if message.game != self.game or isinstance(message, Snapshot):
            # A new game, or a resync: a bot that missed events starts its memory afresh.
            self.game = message.game
            self.bot = make_bot(self.level, view.seat, view.rules, self.seeds.getrandbits(32))
            self.decided_seq = self.acked_seq = -1
        assert self.bot is not None
        if isinstance(message, Update):
            for event in message.events:
                self.bot.see(event)
                if isinstance(event, GameEnded):
                    self.report.results.append(event.result)
                    self.unchecked = message.game
        self.view, self.view_seq = view, message.seq

    def _maybe_start(self) -> None:
        """In the lobby: mark our seat ready; as the owner, start once everyone is."""
        room, me = self.room, self.client.seat
        if room.status != "lobby" or len(self.report.results) >= self.games:
            return
        if not room.seats[me].ready and self.ready_ref is None:
            self.ready_ref = self.client.ready()
        if (
            room.owner == me
            and not room.autostart
            and self.start_ref is None
            and all(s.kind != "empty" for s in room.seats)
            and all(s.ready or s.kind != "human" or i == me for i, s in enumerate(room.seats))
        ):
            self.start_ref = self.client.start()

    async def _maybe_act(self) -> None:
        view = self.view
        if (
            view is None
            or self.inflight is not None
            or not view.legal
            or self.view_seq <= self.decided_seq
            or self.view_seq < self.acked_seq  # the update of our own action is still coming
            or self.bot is None
        ):
            return
        if self.think > 0:
            await asyncio.sleep(self.pace.uniform(0, self.think))
            if self.client.waiting:  # the game went on meanwhile: think again on the news
                return
        self.decided_seq = self.view_seq
        action = await self._decide(self.bot, view)
        self.inflight = self.client.act(action)

    async def _decide(self, bot: Bot, view: SeatView) -> Action:
        if self.level == "random":
            return bot.decide(view)
        return await asyncio.get_running_loop().run_in_executor(None, bot.decide, view)


async def play_bot(
    address: str | Sequence[str],
    port: int,
    level: str,
    games: int,
    *,
    name: str | None = None,
    password: str | None = None,
    seed: int | None = None,
    on_payload: Callable[[Any], None] | None = None,
    reconnect: Backoff | None = None,
    token: str | None = None,
    think: float = 0.0,
) -> BotReport:
    """Join the table at ``address:port`` and play ``games`` games; the report of them.

    With ``reconnect`` a lost connection is taken up again with the seat's token;
    ``token`` takes a seat held for us (a party's table: docs/protocol.md section 17);
    ``think``: up to that many seconds before each action (``BotPlayer``)."""
    make_bot(level, 0, Rules(), 0)  # ValueError for an unknown level, before connecting
    client = await NetClient.connect(
        address,
        port,
        name or f"{level.capitalize()} bot",
        password=password,
        token=token,
        on_payload=on_payload,
        reconnect=reconnect,
    )
    try:
        return await BotPlayer(client, level, games, seed, think).play()
    finally:
        await client.close()
