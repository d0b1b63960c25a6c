"""The pause against the computer, and the "back in a minute" mark (protocol section 18).

On the socket-free harness: a player alone with the AIs stops the game's clock (the AIs'
answers wait, no timer moves the game, the room says paused) and resuming plays on the very
game an unpaused table would have played; at a table with another human the pause is
refused and the player can only set a mark the others see.
"""

from __future__ import annotations

from typing import Any

from harness import FakeLink, Harness

from engine import GameLog, Take
from host import HostConfig
from host.table import Incoming
from protocol import Act, BackSoon, Pause, Ready, Rejected, Start


def _table(**options: Any) -> Harness:
    config = {"seats": 3, "ai": ("random", "random"), "seed": 5, "announce": False}
    return Harness(HostConfig(**{"fair_wait": 0, **config, **options}))


def _unsettled(pair: Harness, link: FakeLink, message: Any) -> None:
    """Hand the table ``message`` without settling: the AIs asked meanwhile have their
    answers ready but not yet handed back (as while they think)."""
    pair.table.handle(Incoming(link, message))
    link.release()


def _play_until_the_ais_think(pair: Harness, anna: FakeLink) -> None:
    """Anna plays her first legal moves until one leaves the AIs thinking."""
    _unsettled(pair, anna, Start(next(anna.refs)))
    while not pair.scheduler.answers:
        pair.settle()
        view = anna.view
        assert view is not None and view.result is None, "the AIs never had to think"
        if view.legal:
            _unsettled(pair, anna, Act(next(anna.refs), view.legal[0]))
        else:
            pair.advance(pair.scheduler.pending()[0] - pair.scheduler.clock)


def _finished(pair: Harness) -> GameLog:
    assert pair.table.logs, "the game did not end"
    return pair.table.logs[-1]


def test_a_paused_game_stands_still_and_resumes_as_it_would_have_gone() -> None:
    plain = _table(turn_timer=5)
    anna = plain.join("Anna")
    _play_until_the_ais_think(plain, anna)
    plain.settle()
    plain.play_game([anna])
    unpaused = _finished(plain)

    pair = _table(turn_timer=5)
    anna = pair.join("Anna")
    wanda = pair.join("Wanda", role="watch")
    _play_until_the_ais_think(pair, anna)
    seq, jobs = pair.table.seq, pair.scheduler.jobs
    assert pair.command(anna, lambda ref: Pause(ref, True)).ref  # an ack
    assert anna.room.paused and wanda.room.paused
    pair.advance(600)  # ten minutes behind the dialog: the AIs' answers and the timer wait
    assert pair.table.seq == seq and pair.scheduler.jobs == jobs
    assert not pair.scheduler.pending()  # no turn timer runs
    refused = pair.command(anna, lambda ref: Act(ref, Take()))  # (whatever the move)
    assert isinstance(refused, Rejected) and refused.reason == "paused"
    pair.command(anna, lambda ref: Pause(ref, False))
    assert not anna.room.paused and not wanda.room.paused
    assert pair.table.seq > seq or pair.scheduler.pending()  # the game moves on
    pair.play_game([anna])
    assert _finished(pair).actions == unpaused.actions and pair.table.errors == 0


def test_another_human_at_the_table_means_no_pause() -> None:
    pair = _table(seats=3, ai=("random",))
    anna, boris = pair.join("Anna"), pair.join("Boris")
    lobby = pair.command(anna, lambda ref: Pause(ref, True))
    assert isinstance(lobby, Rejected) and lobby.reason == "no_game"
    pair.command(boris, lambda ref: Ready(ref, True))
    pair.command(anna, lambda ref: Start(ref))
    refused = pair.command(anna, lambda ref: Pause(ref, True))
    assert isinstance(refused, Rejected) and refused.reason == "not_alone"
    assert not anna.room.paused and not pair.table.pause.on


def test_a_pause_ends_when_its_player_drops_out_and_the_game_goes_on() -> None:
    pair = _table(hold=0)
    anna = pair.join("Anna")
    wanda = pair.join("Wanda", role="watch")
    _play_until_the_ais_think(pair, anna)
    pair.command(anna, lambda ref: Pause(ref, True))
    assert wanda.room.paused
    pair.gone(anna)  # her window closed: a stand-in plays on at once (no hold)
    assert not wanda.room.paused
    while not pair.table.logs:
        assert pair.scheduler.pending(), "the game stands still without its player"
        pair.advance(pair.scheduler.pending()[0] - pair.scheduler.clock)
    assert pair.table.errors == 0


def test_back_in_a_minute_is_seen_by_the_others_and_cleared_by_a_move() -> None:
    pair = _table(seats=2, ai=())
    anna, boris = pair.join("Anna"), pair.join("Boris")
    early = pair.command(anna, lambda ref: BackSoon(ref, True))
    assert isinstance(early, Rejected) and early.reason == "no_game"
    wanda = pair.join("Wanda", role="watch")
    refused = pair.command(wanda, lambda ref: BackSoon(ref, True))
    assert isinstance(refused, Rejected) and refused.reason == "watching"
    pair.command(boris, lambda ref: Ready(ref, True))
    pair.command(anna, lambda ref: Start(ref))
    pair.command(anna, lambda ref: BackSoon(ref, True))
    assert boris.room.seats[0].back_soon and not boris.room.seats[1].back_soon
    mover = anna if anna.view is not None and anna.view.legal else boris
    pair.command(mover, lambda ref: Act(ref, mover.view.legal[0]))
    assert boris.room.seats[0].back_soon == (mover is boris)  # only her own move clears it
    pair.command(anna, lambda ref: BackSoon(ref, False))
    assert not boris.room.seats[0].back_soon


def test_back_in_a_minute_goes_when_the_player_comes_back() -> None:
    pair = _table(seats=2, ai=(), hold=60)
    anna, boris = pair.join("Anna"), pair.join("Boris")
    pair.command(boris, lambda ref: Ready(ref, True))
    pair.command(anna, lambda ref: Start(ref))
    pair.command(anna, lambda ref: BackSoon(ref, True))
    pair.gone(anna)  # her Wi-Fi went; the seat is held for her, the mark stays
    assert boris.room.seats[0].back_soon and boris.room.seats[0].status == "away"
    back = pair.join("Anna", token=anna.token)
    assert back.seat == 0 and not boris.room.seats[0].back_soon
