"""Whole games for the game-file, replay and coach tests: played by Normal's policy on the
engine (a pinch of random moves, from a seed), as a log and as the messages a session
tells one seat."""

from __future__ import annotations

import random

from client.net.session import GameOver, Happened, Message, Seated, Snapshot
from engine import GameLog, Rules, Series, observe, trim
from engine.ai import next_actor
from engine.ai.hard import policy_action


def played_log(rules: Rules, seed: int) -> GameLog:
    """A finished game: every seat plays Normal's policy, one move in ten at random."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        action = legal[rng.randrange(len(legal))] if rng.random() < 0.1 else None
        action = action or policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def told(log: GameLog, seat: int, names: tuple[str, ...]) -> list[Message]:
    """What a session tells ``seat`` of the game ``log``: seated, each step's trimmed
    events and view, the end."""
    state = log.start()
    messages: list[Message] = [Seated(seat, names, log.rules)]
    messages += [Happened(tuple(trim(e, seat) for e in state.opening))]
    messages += [Snapshot(observe(state, seat))]
    for actor, action in log.actions:
        events = state.apply(actor, action)
        messages += [Happened(tuple(trim(e, seat) for e in events))]
        messages += [Snapshot(observe(state, seat))]
    assert state.result is not None
    messages.append(GameOver(state.result, Series.new(log.rules.players).record(state.result)))
    return messages
