"""Every frame every client receives, across hundreds of games, shows only what its seat
may know at that moment — and every frame a watcher receives, only what anyone may see.

Bot clients record each decoded frame. Afterwards each game is replayed from the host's
log with the engine, and at every step each frame is checked three ways: no card in it
(anywhere) is outside what the seat has held or has seen face up; its view equals
``observe`` of the replayed state; its events equal the trimmed events of that step. The
fair deal's ``reveal`` (the secret, the seed and every action, docs/protocol.md section
15) comes only after the update that ended its game, and reveals exactly that game. A
watcher's frames are checked the same way against the cards seen face up alone, its view
against ``observe_public`` and its events against ``trim(event, None)``.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

import pytest
from live import serving

from client.cli.bot import watch_bot
from client.cli.bot_player import play_bot
from engine import (
    CARDS,
    Attacked,
    Card,
    Covered,
    Discarded,
    Event,
    FirstAttacker,
    PickedUp,
    Rules,
    ThrewIn,
    Transferred,
    TrumpTurned,
    observe,
    observe_public,
    trim,
)
from host import Host
from protocol import action_to_wire, event_from_wire, public_view_from_wire, view_from_wire

CARD_TEXT = {str(card): card for card in CARDS}
GAMES = 40

# (seats, bot clients, rules): host AI players fill the other seats.
TABLES = [
    (2, 2, Rules()),
    (2, 1, Rules(deck_size=24, transfer=True)),
    (3, 2, Rules(transfer=True, transfer_show_trump=True)),
    (4, 2, Rules(deck_size=52, throw_in="neighbours")),
    (5, 2, Rules(first_bout_five=False)),
    (6, 3, Rules(durak_defends_first=True)),
]


def cards_in(data: Any) -> set[Card]:
    """Every card named anywhere in a decoded frame."""
    found: set[Card] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_TEXT:
                found.add(CARD_TEXT[item])
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def face_up(event: Event) -> tuple[Card, ...]:
    """The cards an event shows to everyone."""
    if isinstance(event, Attacked | Discarded | PickedUp):
        return event.cards
    if isinstance(event, ThrewIn | Transferred | TrumpTurned):
        return (event.card,)
    if isinstance(event, Covered):
        return (event.card, event.target)
    if isinstance(event, FirstAttacker) and event.shown is not None:
        return (event.shown,)
    return ()


def check_frames(host: Host, frames: dict[int, list[dict[str, Any]]]) -> int:
    """Replay every game and check every recorded frame; return how many were checked."""
    by_step: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
    revealed: dict[tuple[int, int], list[Any]] = defaultdict(list)  # (seat, game) -> actions
    checked = 0
    for seat, payloads in frames.items():
        ended: set[int] = set()  # the games whose last update this seat was sent
        for payload in payloads:
            if payload["type"] in ("update", "snapshot"):
                by_step[(seat, payload["game"], payload["seq"])].append(payload)
                if payload["view"]["result"] is not None:
                    ended.add(payload["game"])
            elif payload["type"] == "reveal":  # the whole game, once it is over
                assert payload["game"] in ended, f"seat {seat}: a reveal before the end"
                revealed[(seat, payload["game"])] += payload["actions"]
            else:  # lobby and acknowledgements never carry a card
                assert not cards_in(payload), payload
                checked += 1
    for game, game_log in enumerate(host.table.logs, 1):
        state = game_log.start()
        events: list[Event] = list(state.opening)
        public: set[Card] = set()
        held: list[set[Card]] = [set() for _ in range(state.players)]
        for seq in range(len(game_log.actions) + 1):
            if seq:
                seat, action = game_log.actions[seq - 1]
                events = state.apply(seat, action)
            for event in events:
                public.update(face_up(event))
            for seat in range(state.players):
                held[seat].update(state.hand(seat))
                for payload in by_step.pop((seat, game, seq), ()):
                    leaked = cards_in(payload) - public - held[seat]
                    assert not leaked, f"seat {seat} saw {leaked} at game {game} step {seq}"
                    assert view_from_wire(payload["view"]) == observe(state, seat)
                    if payload["type"] == "update":
                        told = [event_from_wire(e) for e in payload["events"]]
                        assert told == [trim(e, seat) for e in events]
                    checked += 1
        assert state.is_over
        actions = [[s, action_to_wire(a)] for s, a in game_log.actions]
        for seat in frames:
            assert revealed.pop((seat, game)) == actions
            checked += 1
    assert not by_step, "frames for steps that never happened"
    assert not revealed, "reveals of games that never happened"
    return checked


def check_watcher_frames(host: Host, payloads: list[dict[str, Any]]) -> int:
    """Replay every game and check every frame a watcher was sent; how many were checked."""
    by_step: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    checked = 0
    for payload in payloads:
        if payload["type"] in ("watch_update", "watch_snapshot"):
            by_step[(payload["game"], payload["seq"])].append(payload)
        else:  # the room, reactions: never a card
            assert not cards_in(payload), payload
            checked += 1
    for game, game_log in enumerate(host.table.logs, 1):
        state = game_log.start()
        events: list[Event] = list(state.opening)
        public: set[Card] = set()
        for seq in range(len(game_log.actions) + 1):
            if seq:
                seat, action = game_log.actions[seq - 1]
                events = state.apply(seat, action)
            for event in events:
                public.update(face_up(event))
            for payload in by_step.pop((game, seq), ()):
                leaked = cards_in(payload) - public
                assert not leaked, f"a watcher saw {leaked} at game {game} step {seq}"
                assert public_view_from_wire(payload["view"]) == observe_public(state)
                if payload["type"] == "watch_update":
                    told = [event_from_wire(e) for e in payload["events"]]
                    assert told == [trim(e, None) for e in events]
                checked += 1
    assert not by_step, "watcher frames for steps that never happened"
    return checked


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "clients", "rules"), TABLES, ids=[f"{s}seats-{c}clients" for s, c, _ in TABLES]
)
async def test_no_frame_ever_shows_a_hidden_card(seats: int, clients: int, rules: Rules) -> None:
    frames: dict[int, list[dict[str, Any]]] = defaultdict(list)
    recorders: list[list[dict[str, Any]]] = [[] for _ in range(clients)]
    ai = ("random",) * (seats - clients)
    options = {"seats": seats, "ai": ai, "rules": rules, "autostart": True, "max_games": GAMES}
    watched: list[dict[str, Any]] = []
    async with serving(seed=seats * 100 + clients, **options) as host:
        # the watcher is in before the first seat is taken: it sees every game whole
        watching = asyncio.ensure_future(
            watch_bot("127.0.0.1", host.port, GAMES, on_payload=watched.append, say=lambda _: None)
        )
        while not host.table.audience:
            await asyncio.sleep(0.005)
        reports = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_bot(
                        "127.0.0.1",
                        host.port,
                        "random",
                        GAMES,
                        seed=i,
                        on_payload=rec.append,
                    )
                    for i, rec in enumerate(recorders)
                )
            ),
            120,
        )
        watch_report = await asyncio.wait_for(watching, 60)
        assert len(host.table.logs) == GAMES
        assert watch_report.results == [game_log.replay().result for game_log in host.table.logs]
    for report, payloads in zip(reports, recorders, strict=True):
        frames[report.seat] = payloads
    checked = check_frames(host, frames)
    assert checked >= GAMES * clients * 20
    assert check_watcher_frames(host, watched) >= GAMES * 20
