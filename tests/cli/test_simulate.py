"""``durak simulate`` and ``durak demo``: headless games from the command line."""

from __future__ import annotations

import random
import re

import pytest

from client.cli.main import main
from engine import (
    Attacked,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    FirstAttacker,
    PickedUp,
    Rules,
    ThrewIn,
    Transferred,
    TrumpTurned,
    new_game,
)
from engine.playout import random_move


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    return captured.out.splitlines()


def durak_counts(lines: list[str], players: int) -> list[int]:
    counts = []
    for seat in range(players):
        line = next(x for x in lines if x.startswith(f"seat {seat} was the Durak"))
        counts.append(int(line.split()[5]))
    return counts


def test_simulate_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(
        capsys, "simulate", "--players", "2", "--games", "30", "--seed", "4", "--deck", "24"
    )
    assert lines[0] == "30 games, 2 players, 24 cards, throw-in all, first bout 5, seed 4"
    assert re.fullmatch(r"actions per game: mean [\d.]+, min \d+, max \d+", lines[1])
    draws = int(re.fullmatch(r"draws: (\d+) \([\d.]+%\)", lines[2]).group(1))  # type: ignore[union-attr]
    assert sum(durak_counts(lines, 2)) + draws == 30
    assert re.fullmatch(r"\d+ games/s, \d+ actions/s", lines[-1])


def test_simulate_six_players_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--players",
        "6",
        "--games",
        "12",
        "--seed",
        "9",
        "--deck",
        "52",
        "--throw-in",
        "neighbours",
        "--no-first-bout-five",
        "--transfer",
        "--show-trump",
        "--durak-defends-first",
    ]
    lines = run(capsys, *argv)
    assert lines[0] == (
        "12 games, 6 players, 52 cards, throw-in neighbours, transfer (show trump), "
        "Durak defends first, seed 9"
    )
    draws = int(lines[2].split()[1])
    assert sum(durak_counts(lines, 6)) + draws == 12
    # The same seed plays the same games (only the speed line may differ).
    again = run(capsys, *argv)
    assert again[:-1] == lines[:-1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--players", "5", "--deck", "24"], "durak: a 24-card deck cannot deal 6 cards to 5"),
        (["--players", "7"], "durak: Durak is played by 2 to 6 players, not 7"),
        (["--show-trump"], "durak: transfer by showing a trump needs the transfer variant"),
    ],
)
def test_simulate_refuses_rules_that_cannot_be_played(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--games", "1", *options])
    assert str(exit_.value.code).startswith(message)
    assert capsys.readouterr().out == ""  # nothing was played


@pytest.mark.parametrize("options", [["--deck", "40"], ["--games", "0"], ["--throw-in", "some"]])
def test_simulate_refuses_bad_options(
    capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", *options])
    assert exit_.value.code == 2
    assert "durak simulate: error" in capsys.readouterr().err


def demo_events(seed: int, players: int) -> list[Event]:
    """The events of the game ``durak demo`` plays for this seed, untrimmed."""
    state = new_game(Rules(players=players), seed)
    rng = random.Random(seed)
    events = list(state.opening)
    while not state.is_over:
        seat, action = random_move(state, rng)
        events += state.apply(seat, action)
    return events


def public_cards(event: Event) -> tuple[Card, ...]:
    """The cards an event shows face up to everybody."""
    if isinstance(event, Attacked | PickedUp | Discarded):
        return event.cards
    if isinstance(event, ThrewIn | Covered | Transferred | TrumpTurned):
        return (event.card,)
    if isinstance(event, FirstAttacker) and event.shown is not None:
        return (event.shown,)
    return ()


def test_demo_narrates_a_whole_game_without_other_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = run(capsys, "demo", "--seed", "1", "--players", "3")
    assert "A 3-player game" in lines[0] and "seed 1" in lines[0]
    assert re.fullmatch(r"seat 0 is dealt 6 cards: (\S+ ){5}\S+", lines[1])
    assert lines[2:4] == ["seat 1 is dealt 6 cards", "seat 2 is dealt 6 cards"]
    assert re.fullmatch(
        r"the game is over: seat \d is the Durak|the game ends in a draw", lines[-1]
    )
    assert any(line.startswith("seat 0 draws") for line in lines)
    for line in lines:
        if re.match(r"seat [12] (is dealt|draws)", line):
            assert ":" not in line, line
    # One line per event: no line names a card of another hand before it is face up.
    events = demo_events(1, 3)
    assert len(lines) == 1 + len(events)
    secret: set[Card] = set()
    checked = 0
    for event, line in zip(events, lines[1:], strict=True):
        if isinstance(event, Dealt | Drew) and event.seat != 0:
            secret.update(event.cards or ())
        secret.difference_update(public_cards(event))
        words = set(line.split())
        assert not words & {card.pretty for card in secret}, line
        checked += len(secret)
    assert checked  # some cards were secret while the story was told
    # Narrating the same seed again tells the same story.
    assert run(capsys, "demo", "--seed", "1", "--players", "3") == lines
