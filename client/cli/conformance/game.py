"""Sections 4, 5, 6 and 8 over whole games: our seats start a game (the commitment, the
contributions, the first update), play random legal actions one at a time as section 8
says, and check the end (the room back in the lobby, the series, the places). ``Games``
keeps what lasts from game to game: the series, the random choices, the updates' checks."""

from __future__ import annotations

import asyncio
import random

from client.cli.conformance.fairdeal import bad_contributions, verify_deals
from client.cli.conformance.peer import WAIT, Peer, answers, kinds
from client.cli.conformance.public import GAME_REASONS
from client.cli.conformance.report import Failed
from client.cli.conformance.session import Session, settle
from client.cli.conformance.updates import Player, Updates
from client.cli.conformance.watchers import watched
from engine import CARDS, Action, Rules, Series, ThrowIn
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Commit,
    Hello,
    Ready,
    Rejected,
    RoomUpdate,
    SetRules,
    Sit,
    Start,
    Update,
    WatchSnapshot,
    action_to_wire,
    encode,
)

MAX_SEQ = 20_000  # a game this long has not ended (every game ends: see docs/rules.md)


class Games:
    """Starts, plays and ends the suite's games at our seats."""

    def __init__(self, session: Session) -> None:
        self.session, self.record = session, session.record
        self.updates = Updates(session.record)
        self.rng = random.Random(17)
        self.series = Series.new(2)  # the series as the game being played began
        self.contributions_checked = False  # the refusals of bad contributions (once)

    async def start_game(self, players: list[Player]) -> None:
        """Our other seats ready, Anna (the owner) starts: the commitment, every seat's
        contribution (the bad ones once), the room playing and the first update."""
        anna = players[0].peer
        for p in players[1:]:
            await p.peer.ask(lambda r: Ready(r, True))
        await settle(anna, lambda r: all(s.ready for s in r.seats[1:]))
        for p in players:
            p.seq, p.ended, p.first_bout, p.view, p.revealed = -1, None, True, None, False
            p.peer.hook = lambda m, p=p: self.updates.observe(p, m)
        if anna.room is None:
            raise Failed("no room before the start")
        self.series = anna.room.series
        previous, game = self.series.last, anna.room.game + 1
        ref = anna.ref()
        anna.send(Start(ref))
        seen = [await anna.next() for _ in range(2)]
        commit = seen[1]
        self.record.check(
            "start is ack (seq nil), then the commitment to the next game's deal",
            seen[0] == Ack(ref, None) and isinstance(commit, Commit) and commit.game == game,
            kinds(m for m in seen if m),
        )
        if not isinstance(commit, Commit):
            raise Failed("no commitment before the deal")
        if not self.contributions_checked:
            self.contributions_checked = True
            await bad_contributions(self.record, anna, game)
        else:
            anna.contribute(game)
            await anna.wait_for(Ack)
        for p in players[1:]:  # (an update before its commit fails the wait)
            await p.peer.wait_for(Commit, lambda m: m.game == game)
            p.peer.contribute(game)
        seen = [await anna.next() for _ in range(2)]
        self.record.check(
            "once every seat contributed: room playing, then update seq 0",
            isinstance(seen[0], RoomUpdate)
            and seen[0].room.status == "playing"
            and isinstance(seen[1], Update)
            and seen[1].seq == 0,
            kinds(m for m in seen if m),
        )
        first = seen[1]
        if not isinstance(first, Update):
            raise Failed("no game started")
        self.updates.opening(players[0], first)
        self.updates.first_attacker(first, previous)

    async def play(self, players: list[Player]) -> None:
        """Play random legal actions for our seats, one at a time, until the game ends."""
        while True:
            for p in players:
                while not p.peer.inbox.empty():
                    if p.peer.deliver(p.peer.inbox.get_nowait()) is None:
                        raise Failed(f"the host closed seat {p.peer.seat}'s connection")
            if all(p.ended for p in players):
                return
            if any(p.seq > MAX_SEQ for p in players):
                raise Failed(f"a game went on for more than {MAX_SEQ} actions")
            movers = [p for p in players if p.view and p.view.legal and not p.ended]
            if not movers:
                await self.wait_any(players, WAIT)
                continue
            mover = self.rng.choice(movers)
            assert mover.view is not None
            action = self.rng.choice(mover.view.legal)
            await self.act(mover, action)

    async def wait_any(self, players: list[Player], timeout: float) -> None:
        waits = {asyncio.ensure_future(p.peer.inbox.get()): p for p in players}
        done, pending = await asyncio.wait(
            waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        if not done:
            raise Failed(f"the game stalled: nothing happened for {timeout:g} s")
        for task in done:
            if waits[task].peer.deliver(task.result()) is None:
                raise Failed(f"the host closed seat {waits[task].peer.seat}'s connection")

    async def act(self, player: Player, action: Action) -> None:
        """Send one action; wait for its ack and the update it became (section 8: decide
        again only on that update), or for its refusal."""
        peer, decided = player.peer, player.seq
        self.updates.seen.add(action_to_wire(action)["verb"])
        ref = peer.ref()
        peer.send(Act(ref, action))
        applied: int | None = None
        while applied is None or player.seq < applied:
            message = await peer.next()
            if message is None:
                raise Failed(f"the host closed seat {peer.seat}'s connection")
            if isinstance(message, Ack) and message.ref == ref:
                self.record.invariant(
                    "an ack names the seq of the update that follows it",
                    message.seq == player.seq + 1,
                    f"ack seq {message.seq} after update {player.seq}",
                )
                applied = player.seq + 1 if message.seq is None else message.seq
            elif isinstance(message, Rejected) and message.ref == ref:
                self.record.invariant(
                    "a legal action is refused only after the game moved on",
                    player.seq > decided and message.reason in GAME_REASONS,
                    f"seat {peer.seat} game {player.game}: {action!r} decided on seq "
                    f"{decided}: {message.reason}",
                )
                return

    async def game_end(self, players: list[Player]) -> None:
        """The room back in the lobby: every seat verifies the deal, the series counts the
        game, the result places every seat."""
        anna = players[0].peer
        await settle(anna, lambda r: r.status == "lobby")
        room, ended = anna.room, players[0].ended
        for p in players:
            p.peer.hook = None
        if ended is None or room is None:
            raise Failed("the game did not end")
        result, before = ended.result, self.series
        everyone_first = all(place == 1 for place in result.places)
        expected = (
            tuple(
                w + (p == 1 and not everyone_first)
                for w, p in zip(before.wins, result.places, strict=True)
            ),
            tuple(n + (s == result.durak) for s, n in enumerate(before.losses)),
            before.games + 1,
            before.draws + (result.durak is None),
            result,
        )
        for p in players[1:]:  # what came before the lobby, the reveal too, taken in order
            await p.peer.sync()
        verify_deals(self.record, players)
        got = room.series
        self.record.check(
            "after game_ended the room is back in the lobby and counts the game in the series",
            (got.wins, got.losses, got.games, got.draws, got.last) == expected,
            f"{got!r}, expected {expected!r}",
        )
        places = sorted(result.places)
        self.record.check(
            "the result gives every seat a place; the Durak has the last, alone",
            all(1 <= p <= len(places) for p in places)
            and (result.durak is None or result.places[result.durak] == places[-1] > places[-2]),
            repr(result),
        )


async def game(games: Games, anna: Peer, boris: Peer, wanda: Peer) -> None:
    """A game of three (Anna, Boris and a host AI) with transfers, watched by Wanda."""
    s = games.session
    rules = Rules(players=3, transfer=True, transfer_show_trump=True)
    await anna.ask(lambda r: SetRules(r, rules))
    players = [Player(anna), Player(boris)]
    await games.start_game(players)
    await in_game_refusals(s, players)
    await games.play(players)
    await games.game_end(players)
    await watched(s, anna, wanda, players[0].game)


async def in_game_refusals(s: Session, players: list[Player]) -> None:
    """What the room refuses while the game is played, and a newcomer's welcome then."""
    anna = players[0].peer
    await s.refusal(anna, "ready during a game", lambda r: Ready(r, True), "game_running")
    await s.refusal(
        anna, "set_rules during a game", lambda r: SetRules(r, Rules(players=3)), "game_running"
    )
    await s.refusal(anna, "start during a game", Start, "game_running")
    await s.refused(
        "a new player during a game is game_in_progress",
        encode(Hello(PROTOCOL_VERSION, "Late", s.password)),
        "game_in_progress",
    )
    late = await s.peer()
    await late.watch("Late", s.password)
    snapshot = await late.next()
    s.record.check(
        "a watcher who comes during a game is sent watch_snapshot",
        isinstance(snapshot, WatchSnapshot) and snapshot.game == players[0].game,
        type(snapshot).__name__,
    )
    await s.refusal(late, "sit during a game", Sit, "game_running")
    await late.close()
    view = players[0].view
    assert view is not None
    stranger = next(c for c in CARDS if c not in view.hand)
    seen = await anna.ask(lambda r: Act(r, ThrowIn(stranger)))
    got = [getattr(m, "reason", type(m).__name__) for m in answers(seen)]
    s.record.check(
        "an action with a card not in the hand is rejected with a game reason",
        len(got) == 1 and got[0] in GAME_REASONS,
        repr(got),
    )
