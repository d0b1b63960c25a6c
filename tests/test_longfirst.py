"""The order the suite is handed to pytest-xdist (tests/longfirst.py): every test once,
each worker's share starting with its long tests, the long work spread evenly."""

from __future__ import annotations

from longfirst import LONG, UNTIMED_SLOW, deal, shares, timed


def test_the_shares_are_xdists_even_split() -> None:
    assert shares(10, 2) == [5, 5]
    assert shares(11, 2) == [5, 6]
    assert shares(10, 3) == [3, 3, 4]
    assert shares(10, 1) == [10]


def test_each_share_starts_with_its_long_tests_longest_first_and_loses_none() -> None:
    names = [f"t{i}" for i in range(10)]
    cost = [0.1, 30.0, 0.2, 20.0, 0.1, 12.0, 10.0, 0.3, 0.1, 9.0]
    order = deal(names, cost, 2)
    assert sorted(order) == sorted(names)
    first, second = order[:5], order[5:]
    # LPT: 30 | 20, then 12 to the 20 (32), 10 to the 30 (40), 9 to the 32 (41)
    assert first == ["t1", "t6", "t0", "t2", "t4"]
    assert second == ["t3", "t5", "t9", "t7", "t8"]


def test_a_share_takes_no_more_long_tests_than_it_has_room_for() -> None:
    # "a" alone outweighs the rest, but the second share has room for only three
    order = deal(["a", "b", "c", "d", "e"], [10.0, 1.0, 1.0, 1.0, 1.0], 2)
    assert order[:2] == ["a", "e"] and order[2:] == ["b", "c", "d"]


def test_without_workers_or_long_tests_the_collected_order_stays() -> None:
    names = ["a", "b", "c", "d"]
    assert deal(names, [9.0, 0.0, 9.0, 0.0], 1) == names
    assert deal(names, [0.0] * 4, 2) == names


def test_a_test_never_timed_here_is_long_if_it_is_marked_slow() -> None:
    durations = {"x::quick": 0.2, "x::slow": 0.3}
    assert timed("x::slow", True, durations) == 0.3 < LONG  # its own time wins
    assert timed("x::new", True, durations) == UNTIMED_SLOW >= LONG
    assert timed("x::new", False, durations) == 0.0
