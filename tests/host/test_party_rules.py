"""Party mode's rules without a table: the standings of a night and the Swiss seating."""

from __future__ import annotations

import pytest

from engine import GameResult
from host.party import Game, figures, seat_round, standings, table_sizes


def game(
    seats: tuple[str | None, ...], places: tuple[int, ...], durak: int | None, **kw: object
) -> Game:
    return Game(1, 0, seats, GameResult(places, durak), **kw)  # type: ignore[arg-type]


def test_the_first_out_wins_the_durak_loses_and_the_rest_score_nothing() -> None:
    played = [game(("a", "b", "c", "d"), (1, 2, 3, 4), 3)]
    table = {s.player: s for s in standings(["a", "b", "c", "d"], played)}
    assert [(table[p].wins, table[p].losses, table[p].score) for p in "abcd"] == [
        (1, 0, 1), (0, 0, 0), (0, 0, 0), (0, 1, -1),
    ]  # fmt: skip
    assert [table[p].place for p in "abcd"] == [0.0, 1 / 3, 2 / 3, 1.0]


def test_shared_first_places_both_win_and_a_draw_scores_nothing() -> None:
    played = [
        game(("a", "b", "c"), (1, 1, 3), 2),  # a and b went out in the same bout
        game(("a", "b", "c"), (1, 1, 1), None),  # a draw
    ]
    table = {s.player: s for s in standings(["a", "b", "c"], played)}
    assert (table["a"].wins, table["b"].wins, table["c"].losses) == (1, 1, 1)
    assert all(s.games == 2 for s in table.values())
    assert table["a"].rank == table["b"].rank == 1 and table["c"].rank == 3


def test_ai_seats_are_not_ranked_and_a_stranger_is_an_error() -> None:
    played = [game(("a", None, "b", None), (2, 1, 3, 4), 3)]
    assert [s.player for s in standings(["a", "b"], played)] == ["a", "b"]
    assert standings(["a", "b"], played)[0].wins == 0  # the AI went out first
    with pytest.raises(ValueError, match="'z', who is not a player"):
        standings(["a", "b"], [game(("a", "z"), (1, 2), 1)])


def test_ties_break_on_durak_then_wins_then_place_then_opponents_then_joining() -> None:
    played = [
        game(("a", "b"), (1, 2), 1),  # a +1, b -1
        game(("c", "d"), (1, 2), 1),  # c +1, d -1
        game(("b", "e"), (1, 2), 1),  # b back to 0 (1 win, 1 loss); e -1
        game(("f", "g", "h"), (1, 1, 1), None),  # f, g, h: 0 with no loss and no win
    ]
    order = [s.player for s in standings(list("abcdefgh"), played)]
    # a and c lead (1 win each; a's opponent b scored 0, c's opponent d -1: a first);
    # f, g, h (score 0, never the Durak) before b (score 0, once the Durak); then d and e
    # (-1 each: d's only opponent c scored 1, e's opponent b 0).
    assert order == ["a", "c", "f", "g", "h", "b", "d", "e"]
    ranks = {s.player: s.rank for s in standings(list("abcdefgh"), played)}
    assert ranks["f"] == ranks["g"] == ranks["h"] == 3 and ranks["b"] == 6


def test_players_level_on_every_tie_break_share_a_rank_whatever_order_games_ended_in() -> None:
    """x and y were the Durak twice and second once at tables of four: the same average
    place, however their games' places are summed (as floats 1 + 1/3 + 1 and 1 + 1 + 1/3
    differ in the last bit, and which table finished first once decided the rank)."""
    durak, second = (4, 1, 2, 3), (2, 1, 3, 4)

    def alone(who: str, places: tuple[int, ...]) -> Game:
        return game((who, None, None, None), places, places.index(4))

    played = [alone("x", durak), alone("x", second), alone("x", durak)]
    played += [alone("y", durak), alone("y", durak), alone("y", second)]
    for games in (played, played[::-1]):
        table = standings(["x", "y"], games)
        assert [(s.player, s.rank) for s in table] == [("x", 1), ("y", 1)]
        assert table[0].place == table[1].place == pytest.approx(7 / 9)


def test_the_nights_figures_name_the_durak_the_longest_game_and_the_fastest_out() -> None:
    played = [
        game(("a", "b", "c"), (1, 2, 3), 2, actions=80, out_after=(30, 55, None)),
        game(("a", "b", "c"), (2, 1, 3), 2, actions=120, out_after=(70, 22, None)),
        game(("a", None, "b"), (1, 3, 2), 1, actions=40, out_after=(10, None, 31)),
    ]
    found = figures(played)
    assert (found.most_durak, found.durak_times) == (("c",), 2)
    assert found.longest is played[1]
    assert found.fastest == ("a", 10)
    assert figures([]).longest is None and figures([]).most_durak == ()


@pytest.mark.parametrize(
    ("players", "size", "fill", "shapes"),
    [
        (12, 4, True, ((4, 4), (4, 4), (4, 4))),
        (10, 4, True, ((4, 4), (3, 4), (3, 4))),  # two AI players fill the short tables
        (10, 4, False, ((4, 4), (3, 3), (3, 3))),
        (7, 6, False, ((4, 4), (3, 3))),
        (1, 4, True, ((1, 4),)),  # one player against three AI players
    ],
)
def test_tables_are_as_few_and_as_even_as_the_size_allows(
    players: int, size: int, fill: bool, shapes: tuple[tuple[int, int], ...]
) -> None:
    assert table_sizes(players, size, fill) == shapes


def test_a_table_of_one_human_needs_ai_fill_and_the_size_is_checked() -> None:
    with pytest.raises(ValueError, match="do not make tables of 2"):
        table_sizes(3, 2, False)
    with pytest.raises(ValueError, match="2 to 6 seats"):
        table_sizes(8, 7, True)


def test_the_first_round_is_drawn_from_the_seed() -> None:
    players = [f"p{i}" for i in range(12)]
    first = seat_round(players, [], 1, 4, fill=True, seed=5)
    assert first == seat_round(players, [], 1, 4, fill=True, seed=5)
    assert first != seat_round(players, [], 1, 4, fill=True, seed=6)
    seated = [who for seats in first.tables for who in seats]
    assert sorted(seated) == sorted(players)  # everyone once, no AI at full tables
    assert first.tables[0] != tuple(players[:4])  # not simply the joining order


def test_later_rounds_seat_similar_scores_together_and_new_opponents() -> None:
    ranked = [f"p{i}" for i in range(8)]  # the standings after round 1, best first
    # p0 and p1 shared a table in round 1; p2 has met nobody at the top yet.
    played = [game(("p0", "p1", "p5", "p7"), (1, 2, 3, 4), 3)]
    second = seat_round(ranked, played, 2, 4, fill=True, seed=5)
    top, bottom = second.tables
    assert top[0] == "p0"  # the leader heads the first table
    assert "p1" not in top  # met p0 already: the next players in standing come instead
    assert set(top) == {"p0", "p2", "p3", "p4"}
    assert set(bottom) == {"p1", "p5", "p6", "p7"}


def test_a_final_round_puts_the_top_players_at_the_first_table() -> None:
    ranked = [f"p{i}" for i in range(8)]
    played = [game(("p0", "p1", "p2", "p3"), (1, 2, 3, 4), 3)]
    final = seat_round(ranked, played, 3, 4, fill=True, seed=5, final=True)
    assert final.tables[0] == ("p0", "p1", "p2", "p3")  # however often they met
    assert final.table_of("p7") == 1 and final.table_of("nobody") is None


def test_a_night_of_three_rounds_seats_each_player_once_a_round() -> None:
    players = [f"p{i}" for i in range(10)]
    played: list[Game] = []
    for round_number in (1, 2, 3):
        ranked = [s.player for s in standings(players, played)]
        seating = seat_round(ranked, played, round_number, 4, fill=True, seed=9)
        seated = [who for seats in seating.tables for who in seats if who is not None]
        assert sorted(seated) == sorted(players)
        assert all(len(seats) == 4 for seats in seating.tables)
        for index, seats in enumerate(seating.tables):
            places = tuple(range(1, len(seats) + 1))
            played.append(Game(round_number, index, seats, GameResult(places, len(seats) - 1)))
