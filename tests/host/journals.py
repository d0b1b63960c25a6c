"""Tables and journals as the host writes them, for the journal's tests."""

from __future__ import annotations

import socket
from pathlib import Path

from engine import GameLog, Rules, Series
from host.credentials import hash_token
from host.journal import MAGIC, action_record, header_record
from host.save import SavedSeat, TableSave
from protocol import DealSecret

PORT = 45998  # the port these tests' saves belong to (never listened on)


def table_at(actions: int, seed: int = 5) -> TableSave:
    """A two-seat table in its first game, ``actions`` actions in."""
    rules = Rules(players=2)
    game = GameLog(rules, seed)
    state = game.start()
    for _ in range(actions):
        seat = next(s for s in range(2) if state.legal_actions(s))
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        game.actions.append((seat, action))
    seats = (SavedSeat("human", "Anna", None, "a" * 64), SavedSeat("ai", "Random", "random", None))
    return TableSave("Kitchen", rules, seats, 0, Series.new(2), 1, game, None)


def write_journal(path: Path, saved: TableSave) -> list[int]:
    """The journal of ``saved``'s game as the host writes it; where each record ends."""
    assert saved.current is not None
    start = TableSave(**{**fields(saved), "current": GameLog(saved.rules, saved.current.seed)})
    data = bytearray(MAGIC + header_record(start))
    ends = [len(data)]
    for seat, action in saved.current.actions:
        data += action_record(seat, action)
        ends.append(len(data))
    path.write_bytes(bytes(data))
    return ends


def fields(saved: TableSave) -> dict[str, object]:
    return {name: getattr(saved, name) for name in TableSave.__dataclass_fields__}


def finished(deal: DealSecret, tokens: tuple[str, str]) -> TableSave:
    """A two-player table whose first game, dealt from ``deal``, was played to its end
    (each turn's first legal action); its seats hold ``tokens`` and are held for 30 s."""
    rules = Rules(players=2)
    game = GameLog(rules, deal.seed(1, rules))
    state = game.start()
    while state.result is None:
        seat = next(s for s in range(2) if state.legal_actions(s))
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        game.actions.append((seat, action))
    seats = tuple(
        SavedSeat("human", name, None, hash_token(token))
        for name, token in zip(("Anna", "Boris"), tokens, strict=True)
    )
    return TableSave("Kitchen", rules, seats, 0, Series.new(2), 1, game, None, 30.0, deal=deal)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
