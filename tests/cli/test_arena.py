"""``durak arena``: seatings, the statistics on a constructed result, and a real run."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from pathlib import Path

import pytest

from client.cli.arena import (
    Deal,
    SeatResult,
    bot_names,
    bot_stats,
    make_deals,
    percentile,
    play_deal,
    seatings,
    summarize,
)
from client.cli.main import main
from engine import Rules


def test_heads_up_deals_are_played_twice_with_the_seats_swapped() -> None:
    assert seatings(2) == [(0, 1), (1, 0)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_bot_sits_in_every_seat_equally_often(players: int) -> None:
    found = seatings(players)
    assert len(set(found)) == len(found)
    for seat in range(players):
        column = Counter(seating[seat] for seating in found)
        assert column[0] == column[1]
    assert sum(s.count(0) for s in found) == sum(s.count(1) for s in found)


def seat(bot: int, outcome: float, *times: float) -> SeatResult:
    return SeatResult(bot, outcome, times)


def test_statistics_of_a_constructed_result() -> None:
    # Three heads-up deals, each played twice (bot 0 = A, bot 1 = B):
    deals = [
        [[seat(0, 1.0, 0.010), seat(1, 0.0, 0.001)], [seat(1, 1.0, 0.002), seat(0, 0.0, 0.020)]],
        [[seat(0, 1.0, 0.030, 0.040), seat(1, 0.0)], [seat(1, 0.0, 0.003), seat(0, 1.0)]],
        [[seat(0, 0.5), seat(1, 0.5, 0.004)], [seat(1, 0.0), seat(0, 1.0, 0.050)]],
    ]
    a = bot_stats(deals, 0)
    assert (a.games, a.wins, a.durak, a.draws) == (6, 4, 1, 1)
    assert a.score == pytest.approx(4.5 / 6)
    per_deal = [0.5, 1.0, 0.75]  # A's mean score in each deal
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(3)
    assert a.ci95 == pytest.approx((0.75 - half, min(1.0, 0.75 + half)))
    assert a.mean_ms == pytest.approx(30.0)  # 10, 20, 30, 40, 50 ms
    assert a.p95_ms == pytest.approx(50.0)
    b = bot_stats(deals, 1)
    assert (b.games, b.wins, b.durak, b.draws) == (6, 1, 4, 1)
    assert b.score == pytest.approx(1.5 / 6)
    assert a.score + b.score == pytest.approx(1.0)
    assert b.mean_ms == pytest.approx(2.5)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0
    assert percentile([3.0, 1.0, 2.0], 0.95) == 3.0
    assert percentile([], 0.95) == 0.0


def test_summary_names_and_shape() -> None:
    assert bot_names(["hard:0.2", "normal"]) == ["hard", "normal"]
    assert bot_names(["easy", "Easy"]) == ["easy#1", "easy#2"]
    deals = [[[seat(0, 1.0, 0.001), seat(1, 0.0, 0.001)], [seat(1, 1.0), seat(0, 0.0)]]]
    summary = summarize(["easy", "easy"], deals)
    assert summary["deals"] == 1
    assert set(summary["bots"]) == {"easy#1", "easy#2"}
    stats = summary["bots"]["easy#1"]
    assert set(stats) == {"games", "wins", "durak", "draws", "score", "ci95", "mean_ms", "p95_ms"}
    assert stats["ci95"] == [0.0, 1.0]  # one deal: nothing known about the spread


def test_a_deal_is_played_in_every_seating_reproducibly() -> None:
    rules = Rules(players=3)
    deal = make_deals(("easy", "random"), rules, 1, seed=4)[0]
    games = play_deal(deal)
    assert len(games) == len(seatings(3))
    assert [[s.bot for s in g] for g in games] == [list(s) for s in seatings(3)]
    again = play_deal(Deal(deal.index, deal.seed, deal.specs, deal.rules))
    assert [[s.outcome for s in g] for g in again] == [[s.outcome for s in g] for g in games]
    # Exactly one Durak (or a draw) per game.
    for game in games:
        assert [s.outcome for s in game].count(0.0) <= 1


def test_the_command_prints_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arena.json"
    code = main(["arena", "easy", "random", "--deals", "4", "--jobs", "2", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "easy" in text and "random" in text and "95% CI" in text
    data = json.loads(out.read_text())
    assert data["deals"] == 4
    assert data["bots"]["easy"]["games"] == data["bots"]["random"]["games"] == 8
    lo, hi = data["bots"]["easy"]["ci95"]
    assert 0.0 <= lo <= data["bots"]["easy"]["score"] <= hi <= 1.0


def test_the_command_is_reproducible_with_a_seed(tmp_path: Path) -> None:
    results = []
    for run in range(2):
        out = tmp_path / f"run{run}.json"
        args = ["arena", "normal", "normal", "--deals", "6", "--jobs", "1", "--seed", "9"]
        assert main([*args, "--transfer", "--json", str(out)]) == 0
        bots = json.loads(out.read_text())["bots"]
        results.append({name: (s["wins"], s["durak"], s["draws"]) for name, s in bots.items()})
    assert results[0] == results[1]
    assert set(results[0]) == {"normal#1", "normal#2"}


def test_the_command_refuses_unknown_levels() -> None:
    with pytest.raises(SystemExit):
        main(["arena", "easy", "genius"])
