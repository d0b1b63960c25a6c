"""Hypothesis against the decoder and the host's message handling.

The decoder: random bytes cut into random chunks, and valid messages with one field
replaced by a wrong value, give a message or a ``ProtocolError`` and nothing else. The
table (sans-I/O: fake links instead of sockets): random sequences of hellos with good and
bad tokens and passwords, legal and illegal actions, owner commands from anyone, pings and
departures never make it fail, every message it sends decodes on the client side and goes
only to its seat, and the game stays valid: every card is somewhere exactly once and the
log replays to the same state."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from functools import partial
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import host.dealer
from engine import (
    CARDS,
    Attack,
    Beat,
    Pass,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
    new_game,
    observe,
)
from host import HostConfig
from host.scheduler import LoopScheduler
from host.table import Gone, Incoming, Table, Thought
from protocol import (
    CLIENT_MESSAGES,
    EMOTES,
    PROTOCOL_VERSION,
    Act,
    Connection,
    Contribute,
    Emote,
    Hello,
    Message,
    Ping,
    ProtocolError,
    Ready,
    Rejected,
    Role,
    RoomUpdate,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Snapshot,
    Start,
    UnplayableRules,
    Update,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
    encode,
    frame,
    from_wire,
    to_wire,
)


class InlineExecutor(Executor):
    """Runs the AI players' thinking at once, in order: the examples are reproducible."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


EXECUTOR = InlineExecutor()

# --- the decoder ------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.lists(st.integers(1, 50), max_size=10))
def test_random_bytes_in_random_chunks_give_only_protocol_errors(
    data: bytes, cuts: list[int]
) -> None:
    conn = Connection(Role.HOST)
    try:
        at = 0
        for cut in cuts:
            conn.receive_data(data[at : at + cut] or b"x")
            at += cut
            while conn.next_message() is not None:
                pass
        conn.receive_data(data[at:] or b"y")
        while conn.next_message() is not None:
            pass
    except ProtocolError:
        pass


_WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.text(max_size=40),
    st.sampled_from(["6h", "10h", "6H", "Xx", "", " Anna", "f" * 32, "F" * 32, "take"]),
    st.lists(st.sampled_from(["6h", "6h", "As", 7, None]), max_size=8),
    st.dictionaries(st.sampled_from(["verb", "card", "cards", "target", "x"]), st.text(max_size=4)),
)
_GOOD: list[Message] = [
    Hello(PROTOCOL_VERSION, "Anna", None, None),
    Hello(PROTOCOL_VERSION, "Anna", "pw", "0123456789abcdef0123456789abcdef"),
    Act(1, Attack((CARDS[4], CARDS[17]))),
    Act(2, Beat(CARDS[5], CARDS[4])),
    Act(3, Take()),
    SetRules(4, Rules(players=3, transfer=True)),
    SetOptions(8, 60000, None),
    SetOptions(9, 0, 5),
    SetSeat(5, 1, "normal"),
    Start(6),
    Ready(10, True),
    Ping(7),
]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_GOOD), st.data())
def test_a_wrong_value_in_a_well_shaped_message_is_a_protocol_error(
    message: Message, data: st.DataObject
) -> None:
    wire = to_wire(message)
    field = data.draw(st.sampled_from(sorted(wire)))
    wire[field] = data.draw(_WRONG)
    try:
        decoded = from_wire(msgpack.unpackb(msgpack.packb(wire)), CLIENT_MESSAGES)
    except ProtocolError:
        return
    assert to_wire(decoded) == wire  # accepted only if it is a valid message after all


# --- the table ------------------------------------------------------------------------


class FakeLink:
    """A client as the table sees it; records what it is sent and why it was closed."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.seat: int | None = None
        self.watching = False
        self.address = "127.0.0.1"
        self.sent: list[Message] = []
        self.closed: str | None = None
        self.greeted = False
        self.gone = False
        self.decoder = Connection(Role.CLIENT)

    def send(self, message: Message) -> None:
        assert self.closed is None or self.closed == "replaced"
        self.sent.append(message)

    def close(self, code: str, text: str) -> None:
        self.closed = self.closed or code

    def release(self) -> None:
        pass


def welcomed(link: FakeLink) -> str:
    """The token the table gave ``link`` (the table itself keeps only its hash)."""
    return next(m.token for m in link.sent if isinstance(m, Welcome))


_ACTIONS = st.one_of(
    st.builds(
        Attack, st.lists(st.sampled_from(CARDS), min_size=1, max_size=3, unique=True).map(tuple)
    ),
    st.builds(ThrowIn, st.sampled_from(CARDS)),
    st.builds(Beat, st.sampled_from(CARDS), st.sampled_from(CARDS)),
    st.builds(Transfer, st.sampled_from(CARDS)),
    st.builds(ShowTrump, st.sampled_from(CARDS)),
    st.just(Take()),
    st.just(Pass()),
)
_RULES = st.one_of(
    st.builds(Rules, players=st.integers(2, 6), deck_size=st.just(52), transfer=st.booleans()),
    # well-typed options that cannot be played together (refused bad_rules, no goodbye)
    st.builds(
        lambda players, deck: UnplayableRules(
            tuple({**Rules().to_dict(), "players": players, "deck_size": deck}.items()), "deal"
        ),
        st.integers(5, 6),
        st.just(24),
    ),
)
_STEP = st.sampled_from(
    [
        "hello",
        "hello",
        *["legal"] * 8,
        "act",
        "rules",
        "seat",
        "options",
        "start",
        "ready",
        "ping",
        "sit",
        "emote",
        "gone",
        "tick",
        "contribute",
        "contribute",
    ]
)


def check_sent(link: FakeLink, start: int) -> None:
    """What the table sent since ``start`` decodes as the client would decode it, and is
    for the link's seat only."""
    new = link.sent[start:]
    if new:  # (no bytes would mean the end of the stream)
        link.decoder.receive_data(b"".join(encode(m) for m in new))
    received = []
    while (message := link.decoder.next_message()) is not None:
        received.append(message)
    assert len(received) == len(new)
    for message in new:
        if isinstance(message, Update | Snapshot):
            assert message.view.seat == link.seat or link.closed is not None
        if isinstance(message, WatchUpdate | WatchSnapshot):  # for watchers only
            assert link.watching or link.closed is not None
        if isinstance(message, Welcome):
            assert len(message.token) == 32


def check_table(table: Table) -> None:
    assert table.errors == 0
    assert isinstance(table.rules, Rules) and table.rules.players == len(table.seats)
    tokens = [s.token_hash for s in table.seats if s.kind == "human"]  # never the token itself
    assert all(t is not None and len(t) == 64 for t in tokens)
    assert len(set(tokens)) == len(tokens)
    for index, seat in enumerate(table.seats):
        if seat.link is not None:
            assert seat.kind == "human" and seat.link.seat == index
    for link, name in table.audience.names.items():
        assert link.watching and link.seat is None and name
    state = table.state
    if state is None:
        return
    assert not any(s.ready for s in table.seats)  # marks are for the next game, in the lobby
    n = state.players
    seen: set[int] = set()
    for seat in range(n):
        hand = {c.index for c in state.hand(seat)}
        assert not hand & seen
        seen |= hand
    view = observe(state, 0)
    on_table = sum(1 + (d is not None) for _, d in state.table)
    total = sum(view.hand_sizes) + view.stock_size + view.discard_size + on_table
    assert total == state.rules.deck_size
    assert table.log is not None and len(table.log.actions) == table.seq


class FakeTimer:
    """A timer the example fires itself (a ``tick`` step): real time plays no part."""

    def __init__(self, callback: Callable[[], None], pending: list[FakeTimer]) -> None:
        self.callback = callback
        self.cancelled = False
        pending.append(self)

    def cancel(self) -> None:
        self.cancelled = True


class TickScheduler(LoopScheduler):
    """The loop's executor, but timers that wait for the example's ``tick``."""

    def __init__(self, executor: Executor) -> None:
        super().__init__(executor)
        self.timers: list[FakeTimer] = []

    def later(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        return FakeTimer(callback, self.timers)


async def settle(table: Table) -> None:
    """Handle everything queued, letting the AI players think, until the table is idle."""
    for _ in range(2000):
        while not table.queue.empty():
            table.handle(table.queue.get_nowait())
        if not any(slot.thinking for slot in table.bots.values()):
            return
        await asyncio.sleep(0.0005)


async def drive(data: st.DataObject, password: str | None) -> None:
    seed = data.draw(st.integers(0, 2**32), label="seed")
    hold = data.draw(st.sampled_from([0.0, 1.0]), label="hold")
    turn = data.draw(st.sampled_from([None, 1.0]), label="turn_timer")
    config = HostConfig(
        seats=3,
        ai=("random",),
        password=password,
        announce=False,
        seed=seed,
        hold=hold,
        turn_timer=turn,
    )
    scheduler = TickScheduler(EXECUTOR)
    # Hypothesis replays an example to shrink it: the deals' secrets must repeat too.
    table = Table(config, scheduler=scheduler, entropy=random.Random(seed).randbytes)
    timers = scheduler.timers
    links: list[FakeLink] = []
    marks: dict[int, int] = {}
    try:
        if data.draw(st.integers(0, 3), label="prelude"):  # mostly: two players and a game
            for name in ("Anna", "Boris"):
                links.append(FakeLink(len(links)))
                table.handle(Incoming(links[-1], Hello(PROTOCOL_VERSION, name, password, None)))
            table.handle(Incoming(links[1], Ready(1, True)))
            table.handle(Incoming(links[0], Start(2)))
            await settle(table)
        for _ in range(data.draw(st.integers(5, 60), label="steps")):
            step = data.draw(_STEP, label="step")
            live = [link for link in links if link.closed is None and not link.gone]
            if step == "tick":  # every timer set so far runs out
                due, timers[:] = list(timers), []
                before = (table.seq, len(table.bots))
                for timer in due:
                    if not timer.cancelled:
                        timer.callback()
                        table.handle(table.queue.get_nowait())
                if (table.seq, len(table.bots)) != before:
                    event("a timer moved the game on")
            elif step == "hello" or not live:
                link = FakeLink(len(links))
                links.append(link)
                known = [m.token for k in links for m in k.sent if isinstance(m, Welcome)]
                token = data.draw(
                    st.sampled_from([None, None, "0123456789abcdef" * 2, *known]), label="token"
                )
                given_pw = data.draw(st.sampled_from([None, password, "wrong"]), label="pw")
                role = data.draw(st.sampled_from(["play", "play", "watch"]), label="role")
                hello = Hello(PROTOCOL_VERSION, f"P{link.number}", given_pw, token, role)
                table.handle(Incoming(link, hello))
            else:
                link = data.draw(st.sampled_from(live), label="link")
                if step == "gone":
                    link.gone = True
                    table.handle(Gone(link))
                else:
                    table.handle(Incoming(link, _message(step, link, table, data)))
            for other in links:  # the server reports every closed connection as gone
                if other.closed is not None and not other.gone:
                    other.gone = True
                    table.handle(Gone(other))
            await settle(table)
            check_table(table)
            for other in links:
                check_sent(other, marks.get(other.number, 0))
                marks[other.number] = len(other.sent)
        event(f"games started: {min(table.game, 2)}")
        if table.state is not None:
            event(f"a game at seq >= 10: {table.seq >= 10}")
            state = table.log.replay() if table.log is not None else None
            assert state is not None
            for seat in range(state.players):
                assert state.hand(seat) == table.state.hand(seat)
    finally:
        table.close()
        for slot in table.bots.values():
            slot.job += 1
        await settle(table)


def _message(step: str, link: FakeLink, table: Table, data: st.DataObject) -> Message:
    ref = data.draw(st.integers(0, 2**31 - 1), label="ref")
    if step == "legal" and table.state is not None and link.seat is not None:
        legal = table.state.legal_actions(link.seat)
        if legal:
            return Act(ref, data.draw(st.sampled_from(legal), label="legal"))
        return Act(ref, data.draw(_ACTIONS, label="action"))
    if step in ("act", "legal"):
        return Act(ref, data.draw(_ACTIONS, label="action"))
    if step == "rules":
        return SetRules(ref, data.draw(_RULES, label="rules"))
    if step == "seat":
        level = data.draw(st.sampled_from([None, "random", "bogus"]), label="level")
        return SetSeat(ref, data.draw(st.integers(0, 5), label="seat"), level)
    if step == "options":  # small times: the timers fire within the example
        hold = data.draw(st.integers(0, 5), label="hold_ms")
        turn = data.draw(st.none() | st.integers(1, 5), label="turn_ms")
        return SetOptions(ref, hold, turn, watchers=data.draw(st.integers(0, 2), label="watchers"))
    if step == "start":
        return Start(ref)
    if step == "ready":
        return Ready(ref, data.draw(st.booleans(), label="ready"))
    if step == "contribute":  # to the deal waiting (or not), good or malformed
        game = data.draw(st.sampled_from([table.game, table.game + 1]), label="game")
        value = data.draw(st.sampled_from(["ab" * 32, "AB" * 32, "ab", 7, None]), label="value")
        return Contribute(ref, game, value)
    if step == "sit":
        return Sit(ref)
    if step == "emote":
        return Emote(data.draw(st.sampled_from(EMOTES), label="emote"))
    return Ping(ref)


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data(), st.sampled_from([None, "secret"]))
def test_random_sequences_never_break_the_table(data: st.DataObject, password: str | None) -> None:
    asyncio.run(drive(data, password))


def test_the_host_refuses_what_it_should_in_a_known_sequence() -> None:
    """A sanity check of the fake-link driver itself: a refused token, a replaced seat."""

    async def body() -> None:
        table = Table(
            HostConfig(seats=2, announce=False, fair_wait=0), scheduler=LoopScheduler(EXECUTOR)
        )
        anna, thief, again = FakeLink(0), FakeLink(1), FakeLink(2)
        table.handle(Incoming(anna, Hello(PROTOCOL_VERSION, "Anna")))
        token = welcomed(anna)
        table.handle(Incoming(thief, Hello(PROTOCOL_VERSION, "Thief", None, "0" * 32)))
        assert thief.closed == "bad_token"
        table.handle(Incoming(again, Hello(PROTOCOL_VERSION, "Anna", None, token)))
        assert anna.closed == "replaced" and again.seat == 0
        table.close()

    asyncio.run(body())


def test_frames_from_the_fuzz_are_what_the_wire_carries() -> None:
    payload: Any = msgpack.packb(to_wire(Ping(3)))
    assert encode(Ping(3)) == frame(payload)


class HeldExecutor(Executor):
    """Keeps every AI job until the test runs it: answers arrive in the order it chooses."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        if isinstance(fn, partial):  # (the table's job: ``_decide`` and its arguments)
            fn, args = fn.func, fn.args + args
        self.jobs.append((future, fn, args))
        return future

    def seat_jobs(self, seat: int) -> list[tuple[Future[Any], Any, tuple[Any, ...]]]:
        return [job for job in self.jobs if job[2][2].seat == seat]  # (bot, events, view)


async def _answer(table: Table, job: tuple[Future[Any], Any, tuple[Any, ...]]) -> Thought:
    future, fn, args = job
    future.set_result(fn(*args))
    for _ in range(100):  # the answer reaches the queue through the event loop
        if not table.queue.empty():
            break
        await asyncio.sleep(0)
    item = table.queue.get_nowait()
    assert isinstance(item, Thought)
    return item


def test_a_late_answer_of_an_old_stand_in_is_not_taken_for_the_new_ones() -> None:
    """Anna drops (stand-in S1 starts thinking), returns, drops again (stand-in S2): S1's
    late answer must not count as S2's, nor make the table ask S2 a second time."""

    async def body() -> None:
        for seed in range(100):  # a deal where Anna (seat 0) is to act first
            executor = HeldExecutor()
            config = HostConfig(
                seats=2, ai=("random",), announce=False, hold=0.0, seed=seed, fair_wait=0
            )
            table = Table(config, scheduler=LoopScheduler(executor))
            anna = FakeLink(0)
            table.handle(Incoming(anna, Hello(PROTOCOL_VERSION, "Anna")))
            table.handle(Incoming(anna, Start(1)))
            assert table.state is not None
            if table.state.legal_actions(0):
                break
            table.close()
        token = welcomed(anna)
        table.handle(Gone(anna))
        first = table.bots[0]
        assert first.thinking and len(executor.seat_jobs(0)) == 1
        again = FakeLink(1)
        table.handle(Incoming(again, Hello(PROTOCOL_VERSION, "Anna", None, token)))
        assert 0 not in table.bots
        table.handle(Gone(again))
        second = table.bots[0]
        assert second is not first and second.thinking and len(executor.seat_jobs(0)) == 2
        old, new = executor.seat_jobs(0)
        assert old[2][0] is first.bot and new[2][0] is second.bot

        table.handle(await _answer(table, old))  # S1's answer, late: thrown away
        assert table.log is not None and table.log.actions == []
        assert second.thinking and len(executor.seat_jobs(0)) == 2  # S2 is not asked twice
        table.handle(await _answer(table, new))  # S2's answer is played
        assert [seat for seat, _ in table.log.actions] == [0]
        assert table.errors == 0
        table.close()

    asyncio.run(body())


def test_ai_seats_wait_while_the_defender_has_to_answer() -> None:
    """A human defends: after the AI attacker's lead no AI is asked to throw in until the
    defender has answered (the bots are built for defender-first play)."""

    async def body() -> bool:
        for seed in range(200):
            executor = HeldExecutor()
            config = HostConfig(
                seats=3, ai=("random", "random"), announce=False, seed=seed, fair_wait=0
            )
            table = Table(config, scheduler=LoopScheduler(executor))
            anna = FakeLink(0)
            table.handle(Incoming(anna, Hello(PROTOCOL_VERSION, "Anna")))
            table.handle(Incoming(anna, Start(1)))
            state = table.state
            assert state is not None
            if state.defender != 0:
                table.close()
                continue
            [lead] = executor.jobs
            table.handle(await _answer(table, lead))
            assert state.legal_actions(0)  # Anna has to beat or take
            could_throw = [s for s in (1, 2) if state.legal_actions(s)]
            asked = [job[2][2].seat for job in executor.jobs[1:]]
            table.close()
            if could_throw:
                assert asked == []
                return True
        return False

    assert asyncio.run(body()), "no deal where an AI could throw in while the human defends"


def test_host_ais_never_get_the_shuffle_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Players never learn the seed (RULES.md): an AI seeded with it could rebuild every
    hand and the stock. Their seeds come from the table's own seeds, so --seed still makes
    a run reproducible."""
    real = host.dealer.make_bot

    async def body() -> tuple[int, list[int]]:
        given: dict[int, int] = {}

        def spy(level: str, seat: int, rules: Rules, seed: int) -> Any:
            given[seat] = seed
            return real(level, seat, rules, seed)

        monkeypatch.setattr(host.dealer, "make_bot", spy)
        config = HostConfig(seats=3, ai=("random",) * 3, announce=False, seed=11, fair_wait=0)
        table = Table(config, scheduler=LoopScheduler(HeldExecutor()))
        given.clear()
        table._start_game()
        assert table.log is not None and table.state is not None
        shuffle = table.log.seed
        for seat, seed in given.items():
            assert seed not in (shuffle, shuffle + seat)
            rebuilt = new_game(table.rules, seed - seat, table.log.previous)
            assert rebuilt.stock != table.state.stock
        table.close()
        return shuffle, [given[i] for i in range(3)]

    first = asyncio.run(body())
    assert asyncio.run(body()) == first  # the same --seed, the same game and bots


def test_rules_that_cannot_be_played_are_refused_and_the_owner_keeps_the_seat() -> None:
    async def body() -> None:
        table = Table(
            HostConfig(seats=3, announce=False, fair_wait=0), scheduler=LoopScheduler(EXECUTOR)
        )
        owner, guest = FakeLink(0), FakeLink(1)
        table.handle(Incoming(owner, Hello(PROTOCOL_VERSION, "Olga")))
        table.handle(Incoming(guest, Hello(PROTOCOL_VERSION, "Gleb")))
        before, sent = table.room(), len(guest.sent)
        options = {**Rules().to_dict(), "players": 6, "deck_size": 24}
        unplayable = UnplayableRules(tuple(options.items()), "at most 4")
        table.handle(Incoming(owner, SetRules(7, unplayable)))
        reply = owner.sent[-1]
        assert isinstance(reply, Rejected) and (reply.ref, reply.reason) == (7, "bad_rules")
        assert "at most 4" in reply.text
        assert owner.closed is None and owner.seat == 0 and table.owner == 0
        assert table.room() == before and len(guest.sent) == sent  # nothing changed
        assert not any(isinstance(m, RoomUpdate) for m in guest.sent[sent:])
        table.handle(Incoming(owner, SetRules(8, Rules(players=4))))  # good rules still work
        assert isinstance(table.rules, Rules) and len(table.seats) == 4
        table.close()

    asyncio.run(body())
