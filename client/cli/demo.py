"""``durak demo``: one headless game between random players, narrated.

Every seat plays random legal moves; the narration is what seat 0 is told, so the other
hands stay hidden exactly as they would at a real table.
"""

from __future__ import annotations

import argparse
import random

from client.cli.options import add_rules_options, rules_from_args
from engine import (
    Attacked,
    BoutStarted,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    FirstAttacker,
    GameEnded,
    Passed,
    PickedUp,
    Taking,
    ThrewIn,
    Transferred,
    TrumpTurned,
    WentOut,
    new_game,
    trim,
)
from engine.playout import random_move


def _cards(cards: tuple[object, ...] | None) -> str:
    return " ".join(getattr(c, "pretty", "?") for c in cards or ())


def describe(event: Event) -> str:
    """One line of narration for an event (as trimmed for the reader)."""
    match event:
        case Dealt(seat, count, cards):
            return f"seat {seat} is dealt {count} cards" + (f": {_cards(cards)}" if cards else "")
        case TrumpTurned(card, holder):
            where = "under the stock" if holder is None else f"in seat {holder}'s hand"
            return f"trump: {card.pretty} ({where})"
        case FirstAttacker(seat, shown):
            why = f" with the lowest trump {shown.pretty}" if shown else ""
            return f"seat {seat} attacks first{why}"
        case BoutStarted(attacker, defender, limit):
            return f"-- seat {attacker} attacks seat {defender} (up to {limit} cards)"
        case Attacked(seat, cards):
            return f"seat {seat} leads {_cards(cards)}"
        case ThrewIn(seat, card):
            return f"seat {seat} throws in {card.pretty}"
        case Covered(seat, card, target):
            return f"seat {seat} beats {target.pretty} with {card.pretty}"
        case Transferred(seat, card, to, shown):
            how = "shows" if shown else "adds"
            return f"seat {seat} {how} {card.pretty} and transfers to seat {to}"
        case Taking(seat):
            return f"seat {seat} takes"
        case Passed(seat):
            return f"seat {seat} passes"
        case Discarded(cards):
            return f"beaten: {_cards(cards)} to the discard pile"
        case PickedUp(seat, cards):
            return f"seat {seat} picks up {_cards(cards)}"
        case Drew(seat, count, cards):
            return f"seat {seat} draws {count}" + (f": {_cards(cards)}" if cards else "")
        case WentOut(seat, place):
            return f"seat {seat} is out (place {place})"
        case GameEnded(result):
            if result.durak is None:
                return "the game ends in a draw"
            return f"the game is over: seat {result.durak} is the Durak"
    raise TypeError(f"unknown event {event!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=3, help="2 to 6 (default 3)")
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh one")
    add_rules_options(parser)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args, args.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    state = new_game(rules, seed)
    rng = random.Random(seed)
    print(f"A {rules.players}-player game ({rules.summary}), seed {seed}; told as seat 0 hears it.")
    for event in state.opening:
        print(describe(trim(event, 0)))
    while not state.is_over:
        seat, action = random_move(state, rng)
        for event in state.apply(seat, action):
            print(describe(trim(event, 0)))
    return 0
