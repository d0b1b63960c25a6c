"""Tables and journals as the host writes them, for the journal's tests."""

from __future__ import annotations

from pathlib import Path

from engine import GameLog, Rules, Series
from host.journal import MAGIC, action_record, header_record
from host.save import SavedSeat, TableSave

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
