"""AI seats in worker processes (``host.workers``): a bot there decides as it would in
the host, a worker that dies is replaced and its seats play on, and a whole game at a
host with worker processes ends normally."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from live import ROOT

from engine import Rules, new_game, observe, trim
from engine.ai import make_bot, next_actor
from host import Host, HostConfig
from host import workers as workers_module
from host.workers import ATTEMPTS, Workers

LOCAL = HostConfig(bind="127.0.0.1", port=0, announce=False)


def test_a_bot_in_a_worker_decides_as_the_same_bot_here() -> None:
    """Seeded levels are as deterministic in a worker as in the host: a whole game, each
    seat asked both, gives the same decision every time."""
    rules = Rules(players=3)
    levels = ("normal", "easy", "random")
    workers = Workers(2)
    try:
        remote = [workers.bot(level, seat, rules, 40 + seat) for seat, level in enumerate(levels)]
        local = [make_bot(level, seat, rules, 40 + seat) for seat, level in enumerate(levels)]
        state = new_game(rules, 7)
        told = [list(trim(e, seat) for e in state.opening) for seat in range(3)]
        seen = [0, 0, 0]
        decisions = 0
        while (turn := next_actor(state)) is not None:
            seat = turn[0]
            view = observe(state, seat)
            for bots in (remote, local):
                for event in told[seat][seen[seat] :]:
                    bots[seat].see(event)
            seen[seat] = len(told[seat])
            action = local[seat].decide(view)
            assert remote[seat].decide(view) == action
            decisions += 1
            events = state.apply(seat, action)
            for i in range(3):
                told[i].extend(trim(e, i) for e in events)
        assert decisions > 20 and state.result is not None
    finally:
        workers.close()


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="no SIGSTOP on Windows")
def test_a_hung_worker_is_replaced_once_its_patience_runs_out() -> None:
    """A worker that stops answering (here: stopped by a signal) is given up ``stuck``
    seconds past the bot's budget; the decision is made by a new worker."""
    rules = Rules(players=2)
    state = new_game(rules, 3)
    seat = next(s for s in range(2) if state.legal_actions(s))
    view = observe(state, seat)
    workers = Workers(1, stuck=0.5)
    try:
        bot = workers.bot("random", seat, rules, 9)
        first = bot.decide(view)
        [stopped] = workers.processes()
        os.kill(stopped.pid, signal.SIGSTOP)  # type: ignore[arg-type]
        assert bot.decide(view) in view.legal and first in view.legal
        [fresh] = workers.processes()
        assert fresh.pid != stopped.pid and not stopped.is_alive()
    finally:
        workers.close()


def exits_at_once(conn: object, niceness: int | None = None) -> None:
    """A worker process that cannot run (it exits before it says it started)."""
    raise SystemExit(3)


@pytest.mark.slow  # (three processes started, each importing this module: 9 s)
def test_workers_that_cannot_start_leave_the_seats_thinking_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When no worker process can start, the pool gives up on them after ``ATTEMPTS``:
    the seat's decisions are its own bot's, made in this process (not a random move),
    and no decision starts any more processes."""
    monkeypatch.setattr(workers_module, "serve", exits_at_once)
    rules = Rules(players=2)
    state = new_game(rules, 3)
    seat = next(s for s in range(2) if state.legal_actions(s))
    workers = Workers(1)
    try:
        bot = workers.bot("normal", seat, rules, 9)
        same = make_bot("normal", seat, rules, 9)
        for event in state.opening:
            bot.see(trim(event, seat))
            same.see(trim(event, seat))
        view = observe(state, seat)
        assert bot.decide(view) == same.decide(view)
        assert workers.broken and workers.spawned == ATTEMPTS
        assert bot.decide(view) == same.decide(view) and workers.spawned == ATTEMPTS
    finally:
        workers.close()


def test_a_system_that_refuses_processes_counts_as_workers_that_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(name: str) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(workers_module, "Worker", refused)
    rules = Rules(players=2)
    state = new_game(rules, 3)
    seat = next(s for s in range(2) if state.legal_actions(s))
    workers = Workers(1)
    bot = workers.bot("random", seat, rules, 9)
    assert bot.decide(observe(state, seat)) in state.legal_actions(seat) and workers.broken
    workers.close()


def test_an_unknown_level_is_refused_before_any_worker_starts() -> None:
    workers = Workers(1)
    with pytest.raises(ValueError, match="unknown AI level"):
        workers.bot("grandmaster", 1, Rules(), 1)
    assert workers.processes() == []
    workers.close()


@pytest.mark.slow
async def test_a_worker_killed_mid_thought_is_replaced_and_the_game_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Both AI seats share one worker; it is killed while Hard thinks. A new worker takes
    over, each seat's bot is rebuilt from the seat's events, and the game ends normally."""
    config = replace(LOCAL, seats=2, ai=("hard:0.1", "normal"), autostart=True, max_games=1, seed=3)
    config = replace(config, ai_workers=1)
    host = Host(config)
    await host.start()
    try:
        workers = host.workers
        assert workers is not None
        killed = None
        for _ in range(20_000):  # until a decision is in flight in the worker (bounded)
            started = workers.processes()
            hard = host.table.bots.get(0)
            if started and hard is not None and hard.thinking and host.table.seq > 2:
                killed = started[0]
                killed.kill()
                break
            await asyncio.sleep(0.001)
        assert killed is not None, "no decision was ever in flight"
        for _ in range(3000):  # the game plays on to its end (bounded)
            if host.table.logs:
                break
            await asyncio.sleep(0.01)
        assert len(host.table.logs) == 1
        assert host.table.errors == 0
        assert host.table.logs[0].replay().result is not None
        assert all(p.pid != killed.pid for p in workers.processes())
        assert any("died" in r.getMessage() for r in caplog.records)  # and was replaced
    finally:
        await host.stop()
    assert workers.processes() == []


@pytest.mark.skipif(os.name != "posix", reason="a Ctrl-C to a process group is POSIX's")
@pytest.mark.parametrize("after", [0.5, 1.0])
def test_durak_party_stopped_with_ctrl_c_at_once_prints_no_worker_traceback(after: float) -> None:
    """A Ctrl-C reaches the terminal's whole process group, the AI workers too, while they
    may still be starting (importing): the party closes, and no worker prints a traceback
    (a KeyboardInterrupt in its imports or its pipe, a BrokenPipeError)."""
    party = subprocess.Popen(
        [sys.executable, "-m", "client", "party", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    assert party.stdout is not None
    seen = []
    for line in party.stdout:
        seen.append(line)
        if "listening on" in line:
            break
    time.sleep(after)  # (the workers start with the party: a second or so to import)
    os.killpg(party.pid, signal.SIGINT)
    rest, _ = party.communicate(timeout=60)
    output = "".join(seen) + rest
    assert "closed" in output and "Traceback" not in output, output
