"""A game the rule that every game ends stops as a draw (3,000 actions, or a position
come back a third time): its last update tells the end and nothing else. Before, the last
view showed the roles of a bout that never began (and no ``bout_started`` for it), which a
client written from docs/protocol.md took for a host out of step with its own events."""

from __future__ import annotations

import random

import pytest
from harness import FakeLink, Harness

from client.cli.conformance.public import Public
from engine import MAX_MOVES, Action, Attack, BoutStarted, GameEnded, Pass, SeatView, Take
from host import HostConfig
from protocol import Act, DealWitness, Update, WatchSnapshot, WatchUpdate


def colluders_move(view: SeatView, rng: random.Random) -> Action | None:
    """A colluder's move: take, pass, or lead a random single card; never throw in."""
    for action in (Take(), Pass()):
        if action in view.legal:
            return action
    leads = [a for a in view.legal if isinstance(a, Attack) and len(a.cards) == 1]
    return rng.choice(leads) if leads else None


def play_colluders(pair: Harness, links: list[FakeLink], seed: int) -> None:
    """The colluders play until the game ends, the defender first (so that it takes
    before anyone could throw in)."""
    rng = random.Random(seed)
    while pair.table.playing:
        views = [link.view for link in links]
        first = views[0]
        assert first is not None
        order = sorted(range(len(links)), key=lambda i: i != first.defender)
        for index in order:
            view = views[index]
            action = None if view is None else colluders_move(view, rng)
            if action is not None:
                link = links[index]
                pair.send(link, Act(next(link.refs), action))
                break
        else:
            raise AssertionError("the colluders have nothing to do")


def explained(public: Public, updates: list[Update] | list[WatchUpdate]) -> list[str]:
    """What of each view its update's events (and those before, from ``public`` on) do not
    explain, as ``durak conformance`` checks it."""
    problems = []
    for update in updates:
        for event in update.events:
            public.apply(event)
        problems += [f"seq {update.seq}: {p}" for p in public.differences(update.view)]
    return problems


@pytest.mark.slow
def test_a_game_drawn_at_the_move_cap_ends_with_its_last_bouts_roles() -> None:
    config = HostConfig(announce=False, seats=3, fair_wait=0, autostart=True, max_games=1, seed=5)
    pair = Harness(config)
    links = [pair.join(name) for name in ("Anna", "Boris", "Cleo")]
    vera = pair.join("Vera", role="watch")
    play_colluders(pair, links, seed=1)
    assert pair.table.series.draws == 1 and pair.table.seq > MAX_MOVES
    for link in links:
        last = link.of(Update)[-1]
        assert last.events[-1] == GameEnded(last.view.result)
        assert last.view.result.durak is None
        assert not any(isinstance(e, BoutStarted) for e in last.events)
        assert explained(Public.before_deal(pair.table.rules), link.of(Update)) == []
        witness = DealWitness()
        verdicts = [v for m in link.sent if (v := witness.see(m)) is not None]
        assert [v.ok for v in verdicts] == [True], verdicts
    arrived = vera.last(WatchSnapshot).view  # (the game started as the last seat filled)
    watched = vera.of(WatchUpdate)
    assert watched[-1].seq == pair.table.seq and explained(Public.of(arrived), watched) == []


def always_take(view: SeatView) -> Action:
    for action in (Take(), Pass()):
        if action in view.legal:
            return action
    return view.legal[0]


def test_a_game_drawn_by_repetition_ends_with_its_last_bouts_roles() -> None:
    config = HostConfig(announce=False, seats=3, fair_wait=0, autostart=True, max_games=1, seed=5)
    pair = Harness(config)
    links = [pair.join(name) for name in ("Anna", "Boris", "Cleo")]
    results = pair.play_game(links, always_take)
    assert results[0].durak is None and pair.table.seq < MAX_MOVES
    for link in links:
        last = link.of(Update)[-1]
        assert [type(e) for e in last.events][-2:] != [BoutStarted, GameEnded]
        assert explained(Public.before_deal(pair.table.rules), link.of(Update)) == []
