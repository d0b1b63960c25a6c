"""A kept game file for the commands that read one (``durak review``, the standalone app)."""

from __future__ import annotations

import random
from pathlib import Path

from client.net.gamefile import GameFile, steps_from_log
from engine import GameLog, Rules
from engine.ai import next_actor
from engine.ai.hard import policy_action


def kept(tmp_path: Path, *, with_log: bool) -> Path:
    # Seed 6: seat 1 (Boris) loses a heads-up ending the solver proves he could have won,
    # a mark that does not hang on the coach's samples.
    log = GameLog(Rules(players=2), 6)
    state = log.start()
    rng = random.Random(6)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        odd = rng.random() < 0.1
        action = legal[rng.randrange(len(legal))] if odd else policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    game = GameFile(
        log.rules,
        0,
        ("Ann", "Boris"),
        steps_from_log(log, 0),
        state.result,
        "2026-12-01T10:00:00Z",
        "computer",
        log if with_log else None,
    )
    path = tmp_path / "game.durakgame"
    path.write_bytes(game.to_bytes())
    return path
