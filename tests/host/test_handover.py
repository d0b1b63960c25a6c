"""A room always has an owner who can act, and no game waits for ever on one person
(issue 23, item 6), on the socket-free harness: the room passes to the connected player
seated longest when its owner leaves or stays away from a game past the hold, and a table
without a turn timer plays a waited-on seat's default move after ``PATIENCE``."""

from __future__ import annotations

from harness import FakeLink, Harness

from host import HostConfig
from host.game import default_move
from host.room import PATIENCE
from protocol import Ack, Act, Draw, Kick, Leave, Ready, Rejected, Start, Welcome


def table(**options: object) -> Harness:
    config = HostConfig(**{"announce": False, "seats": 4, "fair_wait": 0, **options})  # type: ignore[arg-type]
    return Harness(config)


def newcomer_in_a_lower_seat(pair: Harness) -> list[FakeLink]:
    """Anna (seat 0, the owner), Dmitri (seat 1, who came last) and Cleo (seat 2, who sat
    down before him): Boris left seat 1 to Dmitri."""
    anna, boris, cleo = (pair.join(name) for name in ("Anna", "Boris", "Cleo"))
    assert isinstance(pair.command(boris, lambda ref: Leave(ref)), Ack)
    dmitri = pair.join("Dmitri")
    assert (anna.seat, dmitri.seat, cleo.seat) == (0, 1, 2)
    return [anna, dmitri, cleo]


def test_the_owner_leaving_the_lobby_hands_the_room_to_who_sat_longest() -> None:
    pair = table()
    anna, dmitri, cleo = newcomer_in_a_lower_seat(pair)
    assert isinstance(pair.command(anna, lambda ref: Leave(ref)), Ack)
    assert dmitri.room.owner == cleo.room.owner == 2  # Cleo, not the lower seat
    assert isinstance(pair.command(cleo, lambda ref: Kick(ref, 1)), Ack)
    assert dmitri.closed == "kicked"


def test_an_owner_away_past_the_hold_hands_the_room_on_to_everyone() -> None:
    pair = table(hold=30, ai=("random",))
    anna, dmitri, cleo = newcomer_in_a_lower_seat(pair)
    wanda = pair.join("Wanda", role="watch")
    for player in (dmitri, cleo):
        assert isinstance(pair.command(player, lambda ref: Ready(ref, True)), Ack)
    assert isinstance(pair.command(anna, lambda ref: Start(ref)), Ack)
    assert pair.table.playing
    pair.gone(anna)
    pair.advance(29)  # the owner's seat is held for her, and the room with it
    assert pair.table.owner == 0 and cleo.room.seats[0].status == "away"
    refused = pair.command(cleo, lambda ref: Draw(ref))
    assert isinstance(refused, Rejected) and refused.reason == "not_owner"
    pair.advance(1)  # the hold is over: a stand-in plays her seat, Cleo runs the room
    assert pair.table.playing and cleo.room.seats[0].status == "stand_in"
    assert [link.room.owner for link in (dmitri, cleo, wanda)] == [2, 2, 2]
    refused = pair.command(dmitri, lambda ref: Draw(ref))
    assert isinstance(refused, Rejected) and refused.reason == "not_owner"
    assert isinstance(pair.command(cleo, lambda ref: Draw(ref)), Ack)
    assert not pair.table.playing and pair.table.series.draws == 1
    back = pair.join("Anna")  # her seat was freed at the game's end: she is a newcomer
    assert back.seat == 0 and back.room.owner == 2


def test_with_no_hold_an_owner_who_drops_from_a_game_hands_the_room_on_at_once() -> None:
    pair = table(seats=3, ai=("random",), autostart=True, max_games=1, hold=0)
    anna, boris = pair.join("Anna"), pair.join("Boris")
    assert pair.table.playing and boris.room.owner == 0
    pair.gone(anna)
    assert boris.room.seats[0].status == "stand_in" and boris.room.owner == 1
    assert isinstance(pair.command(boris, lambda ref: Draw(ref)), Ack)
    assert pair.join("Anna", token=anna.token).closed == "bad_token"  # freed at the end


def test_a_table_without_a_turn_timer_plays_for_a_player_who_never_acts() -> None:
    """Boris owns the room and never acts: nobody else may draw or kick him, yet the
    game goes on, the default move played for him after ``PATIENCE`` seconds each time."""
    pair = table(seats=3, ai=("random",), autostart=True, max_games=1, seed=3)
    boris, anna = pair.join("Boris"), pair.join("Anna")
    assert pair.table.playing and anna.room.turn_ms is None and anna.room.owner == 0
    refused = pair.command(anna, lambda ref: Kick(ref, 0))
    assert isinstance(refused, Rejected) and refused.reason == "not_owner"
    for _ in range(10_000):
        state = pair.table.state
        if state is None:
            break
        view = anna.view
        if view is not None and view.legal:
            pair.send(anna, Act(next(anna.refs), view.legal[0]))
            continue
        move, seq, log = default_move(state, 0), pair.table.seq, pair.table.log
        assert move is not None and log is not None  # the game waits on Boris alone
        pair.advance(PATIENCE - 1)
        assert pair.table.seq == seq  # a minute is his to think
        pair.advance(1)
        assert log.actions[seq] == (0, move)
    assert not pair.table.playing and pair.table.series.games == 1
    assert len(boris.results()) == 1 and boris.closed is None


def test_a_player_away_when_the_game_ends_gets_the_seat_back_in_the_room() -> None:
    """A phone put away during a game: its player keeps the seat for the rest of the hold
    (the token is still theirs), and only after the hold is the seat free again."""
    for back_after in (19, 21):
        pair = table(hold=30, seats=2)
        anna, boris = pair.join("Anna"), pair.join("Boris")
        token = boris.last(Welcome).token
        assert isinstance(pair.command(boris, lambda ref: Ready(ref, True)), Ack)
        assert isinstance(pair.command(anna, lambda ref: Start(ref)), Ack)
        pair.gone(boris)
        pair.advance(10)
        assert isinstance(pair.command(anna, lambda ref: Draw(ref)), Ack)  # the game ends
        assert not pair.table.playing and anna.room.seats[1].status == "away"
        pair.advance(back_after - 1)
        back = pair.join("Boris", token=token)
        if back_after < 20:  # within the hold: the seat is his, in the room
            assert back.last(Welcome).seat == 1 and back.room.seats[1].status == "connected"
        else:  # the hold is over: the seat went with it
            assert back.closed == "bad_token" and anna.room.seats[1].kind == "empty"
