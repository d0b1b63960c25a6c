"""A party night's round flow without a socket or a table (``host.party.night``): who may
join and set up, how rounds are seated, scored and ended, and what is saved."""

from __future__ import annotations

import json

import pytest

from engine import GameResult, Rules
from host.party.night import NightState
from host.party.store import PartySaveError, decode, encode
from protocol import Night, UnplayableRules


def a_night(players: int = 10, size: int = 4, **setup: object) -> NightState:
    night = NightState("Friday", Night(Rules(players=size), **setup), seed=7)  # type: ignore[arg-type]
    for index in range(players):
        joined = night.join(f"Player {index}")
        assert not isinstance(joined, str)
    return night


def play_round(night: NightState, now: float, durak_seat: int = -1) -> bool:
    """Seat and open the next round and give every table a result (seat 0 first out,
    the last seat the Durak); whether the round ended with it."""
    assert night.start_refusal() is None
    seating = night.seat_next(now)
    night.open_round(seating, [40000 + i for i in range(len(seating.tables))], now)
    over = False
    assert night.round is not None
    for slot in night.round.tables:
        n = len(slot.seats)
        result = GameResult(tuple(range(1, n + 1)), n - 1 if durak_seat < 0 else durak_seat)
        over = night.record(slot.index, result, 100, 60.0, (10,) + (None,) * (n - 1), now + 60)
    return over


def test_names_are_the_players_own_and_a_token_brings_them_back() -> None:
    night = a_night(2)
    assert night.join("player 0") == "name_taken"  # (case does not tell two players apart)
    joined = night.join("Oleg")
    assert not isinstance(joined, str)
    player, token = joined
    assert night.holder(token) is player and night.holder("0" * 32) is None
    assert token not in json.dumps(night.to_dict())  # only its hash is kept
    assert night.organiser({1, 2}) == 1 and night.organiser(set()) is None


def test_a_party_is_full_at_sixty() -> None:
    night = a_night(60)
    assert night.join("One more") == "party_full"


def test_the_setup_is_the_organisers_until_the_night_begins() -> None:
    night = a_night(3)
    unplayable = UnplayableRules((("players", 6), ("deck_size", 24)), "too few cards")
    assert night.set_up(unplayable, 3, None, True, "normal") == "bad_rules"
    assert night.set_up(Rules(players=3), 3, None, True, "nobody") == "unknown_level"
    assert night.setup.rules.players == 4
    assert night.set_up(Rules(players=3, transfer=True), 2, None, False, "random") is None
    assert night.setup == Night(Rules(players=3, transfer=True), 2, None, False, "random")
    play_round(night, 0.0)
    assert night.set_up(Rules(players=2), 1, None, True, "random") == "started"


def test_too_few_players_cannot_start_without_fill() -> None:
    night = a_night(1, fill=False)
    refusal = night.start_refusal()
    assert refusal is not None and refusal[0] == "too_few"
    assert night.set_up(Rules(players=4), 3, None, True, "normal") is None
    assert night.start_refusal() is None  # one player against three AI players


def test_a_night_of_rounds_breaks_between_them_and_ends_with_a_final() -> None:
    night = a_night(10, rounds=3)
    assert not play_round(night, 0.0) or night.status == "break"
    assert night.status == "break" and night.next_at == 60.0 + 30.0
    assert night.start_refusal() is None
    assert [len(t.seats) for t in night.round.tables] == [4, 4, 4]  # type: ignore[union-attr]
    assert sum(who is None for t in night.round.tables for who in t.seats) == 2  # type: ignore[union-attr]
    play_round(night, 100.0)
    assert night.next_is_final(200.0)
    top = night.seated()[:4]  # the best four before the final
    play_round(night, 200.0)
    assert night.round is not None and night.round.final and night.status == "over"
    assert night.start_refusal() == ("over", "The night is over.")
    assert night.round.tables[0].seats == tuple(top)  # the final's first table: the best
    assert all(s.games == 3 for s in night.standings())


def test_a_round_in_play_refuses_another_start_and_a_result_counts_once() -> None:
    night = a_night(4, rounds=2)
    seating = night.seat_next(0.0)
    night.open_round(seating, [40000], 0.0)
    assert night.start_refusal() == ("round_running", "A round is being played.")
    result = GameResult((1, 2, 3, 4), 3)
    assert night.record(0, result, 50, 9.0, (5, 9, 20, None), 10.0)
    assert not night.record(0, result, 50, 9.0, (5, 9, 20, None), 10.0)  # already scored
    assert not night.record(3, result, 50, 9.0, (), 10.0)  # no such table
    assert len(night.games) == 1


def test_who_left_is_off_the_next_seating_and_a_latecomer_is_on_it() -> None:
    night = a_night(5, size=3, rounds=3)
    play_round(night, 0.0)
    night.players[2].left = True
    late = night.join("Late")
    assert not isinstance(late, str)
    seated = night.seat_next(100.0)
    everyone = {who for seats in seated.tables for who in seats if who is not None}
    assert "2" not in everyone and str(late[0].id) in everyone and len(everyone) == 5
    assert [s.player for s in night.standings()].count("2") == 1  # the standing stays


def test_a_timed_night_makes_its_last_round_the_final_and_ends_on_time() -> None:
    night = a_night(8, rounds=None, minutes=10)
    play_round(night, 0.0)  # the round took 60 s
    assert not night.next_is_final(100.0) and night.next_is_final(560.0)
    play_round(night, 560.0)
    assert night.round is not None and night.round.final and night.status == "over"
    view = night.view(600.0, set())
    assert view.final and view.left_ms == 0 and view.status == "over"


def test_the_view_shows_the_standings_the_tables_and_the_clocks() -> None:
    night = a_night(6, size=3, rounds=2)
    play_round(night, 1000.0)
    view = night.view(1070.0, here={0, 1})
    assert [p.status for p in sorted(view.players, key=lambda p: p.id)][:3] == [
        "here", "here", "away",
    ]  # fmt: skip
    assert view.round == 1 and view.round_ms == 70_000 and view.next_ms == 20_000
    assert all(t.status == "done" and t.places == (1, 2, 3) for t in view.tables)
    winners = {p.id for p in view.players if p.wins}
    assert winners == {t.seats[0] for t in view.tables}
    assert view.figures.durak_times == 1 and view.figures.fastest is not None


def test_the_saved_night_comes_back_whole_and_a_damaged_save_is_refused() -> None:
    night = a_night(6, size=3, rounds=3)
    play_round(night, 0.0)
    night.open_round(night.seat_next(100.0), [41000, 41001], 100.0)
    raw = encode(night.to_dict(), 5)
    back, generation = decode(raw)
    assert generation == 5 and back.to_dict() == night.to_dict()
    assert back.round is not None and back.round.number == 2 and not back.round.done
    assert back.table_token(2, 1, 3) == night.table_token(2, 1, 3)
    with pytest.raises(PartySaveError, match="checksum"):
        decode(raw.replace(b'"Player 1"', b'"Player X"'))
    with pytest.raises(PartySaveError, match="not a party save"):
        decode(b"\x00garbage")
    tampered = night.to_dict()
    tampered["games"][0]["seats"][0] = "99"
    with pytest.raises(PartySaveError, match="does not hold together"):
        decode(encode(tampered, 6))
