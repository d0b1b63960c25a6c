"""The values that cross processes (a host's AI workers, the window's review) pickle and
come back equal, whether the engine runs pure or compiled (.ci/run runs this module
against the compiled engine too: there a frozen value did not unpickle at all)."""

from __future__ import annotations

import pickle
import random

from engine import GameState, Rules, new_game, observe, observe_public, trim
from engine.line import History
from engine.playout import random_move


def round_trip(value: object) -> None:
    back = pickle.loads(pickle.dumps(value))
    assert type(back) is type(value) and back == value, value


def test_rules_cards_actions_events_and_views_pickle() -> None:
    rules = Rules(players=3, transfer=True, transfer_show_trump=True)
    state = new_game(rules, 4)
    rng = random.Random(4)
    round_trip(rules)
    for event in state.opening:
        round_trip(event)
        round_trip(trim(event, 0))
    while not state.is_over:
        seat, action = random_move(state, rng)
        round_trip(action)
        for event in state.apply(seat, action):
            round_trip(event)
        round_trip(observe(state, seat))
    round_trip(observe_public(state))
    round_trip(state.result)
    round_trip(state.to_line())
    round_trip(History(state.moves, state.seen))
    back = pickle.loads(pickle.dumps(state))
    assert type(back) is GameState and back == state
