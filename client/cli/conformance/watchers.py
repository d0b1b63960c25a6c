"""Section 16, watching a table: a watcher's hello and the room that lists it, everything
but a reaction refused (a contribution too; a seated player's sit is refused as well), the
room's limit on watchers, and after the game what the watcher saw: every seq in order, no
hand, each view explained by its events, no card that was not face up."""

from __future__ import annotations

from client.cli.conformance.peer import Peer
from client.cli.conformance.public import Public, cards_in, event_name
from client.cli.conformance.session import Session, packed, settle
from engine import Card, Dealt, Drew, Pass
from protocol import (
    Act,
    Contribute,
    Emote,
    Ready,
    SetOptions,
    Sit,
    Start,
    WatcherEmoted,
    WatchUpdate,
    event_to_wire,
)


async def watching(s: Session, anna: Peer) -> Peer:
    """A watcher at the full lobby: the room lists it, it is refused everything but a
    reaction, and the room's limit keeps the next one out. It stays for the game: the
    watcher (Wanda) is returned."""
    wanda = await s.peer()
    first = await wanda.watch("Wanda", s.password)
    s.record.check(
        "a watcher's hello is answered watching, with the room listing it",
        "Wanda" in first.room.watching,
        repr(first.room.watching),
    )
    await settle(anna, lambda r: "Wanda" in r.watching)
    s.record.check("everyone is sent the room when a watcher comes", True)
    for what, make in (
        ("ready", lambda r: Ready(r, True)),
        ("start", Start),
        ("set_options", lambda r: SetOptions(r, 1000, None)),
        ("act", lambda r: Act(r, Pass())),
        ("contribute", lambda r: Contribute(r, 1, "ab" * 32)),
    ):
        await s.refusal(wanda, f"{what} from a watcher", make, "watching")
    await s.refusal(wanda, "sit at a table with every seat taken", Sit, "no_open_seat")
    await s.refusal(anna, "sit from a player with a seat", Sit, "seated")
    wanda.send(Emote("oops"))
    got = await anna.wait_for(WatcherEmoted)
    s.record.check(
        "a watcher's emote reaches the seats as watcher_emoted",
        got == WatcherEmoted("Wanda", "oops"),
        repr(got),
    )
    room = anna.room
    assert room is not None
    options = (room.hold_ms, room.turn_ms, room.silence_ms, room.idle_ms)
    await anna.ask(lambda r: SetOptions(r, *options, watchers=1))
    await s.refused(
        "a watcher beyond room.watchers is watchers_full",
        packed(s.hello_map(name="Extra", role="watch")),
        "watchers_full",
    )
    await anna.ask(lambda r: SetOptions(r, *options, watchers=room.watchers))
    return wanda


async def watched(s: Session, anna: Peer, wanda: Peer, game: int) -> None:
    """What the watcher saw of the game: every seq in order, no drawn card, each view
    explained by its events, and no card that was not face up."""
    seen = [m for m in await wanda.sync() if isinstance(m, WatchUpdate)]
    seqs = [m.seq for m in seen if m.game == game]
    s.record.check(
        "a watcher is sent watch_update for every seq of the game, in order",
        bool(seqs) and seqs == list(range(len(seqs))),
        f"{seqs[:5]}...",
    )
    if not seen:
        return
    public = Public.before_deal(seen[0].view.rules)
    face_up: set[Card] = set()
    problems: list[str] = []
    for message in seen:
        for event in message.events:
            public.apply(event)
            if isinstance(event, Dealt | Drew) and event.cards is not None:
                problems.append(f"{event_name(event)} with cards at seq {message.seq}")
            face_up.update(cards_in(event_to_wire(event)))
        view = message.view
        shown = {c for pair in view.table for c in pair if c is not None}
        shown |= {c for cards in view.known for c in cards} | {view.trump_card}
        problems += [f"seq {message.seq}: {d}" for d in public.differences(view)]
        problems += [f"seq {message.seq}: {c} was never face up" for c in shown - face_up]
    s.record.check(
        "a watcher's events and views hide every hand and explain every public field",
        not problems,
        "; ".join(problems[:3]),
    )
    await wanda.close()
    await settle(anna, lambda r: "Wanda" not in r.watching)
    s.record.check("a watcher who leaves is gone from the room at once", True)
