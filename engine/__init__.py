"""The rules of Durak: pure, deterministic (seeded), standard library only.

The public surface: cards and rules; ``new_game`` and ``GameState`` (``legal_actions``,
``check``, ``apply``); the actions; ``observe`` for the only per-seat view that leaves the
engine (``observe_public`` for a watcher's), with ``trim`` for per-seat events; game logs;
the series tally.

A ``Position`` (the cards' places and the bout, which legality and the notation read) reads
and writes as one line of text (``to_text``/``from_text``, the notation of
``engine.notation``) and prints as code that rebuilds it; a ``GameState`` is a position in
play, whose line adds its history. Every game ends: a repeated position
(``REPETITION_LIMIT``), the move cap (``MAX_MOVES``) or ``GameState.declare_draw`` ends it
as a draw (see ``engine.state``).
"""

from .actions import Action, Attack, Beat, Pass, ShowTrump, Take, ThrowIn, Transfer, parse_action
from .cards import CARDS, Card, Suit
from .events import (
    Attacked,
    BoutStarted,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    FirstAttacker,
    GameEnded,
    GameResult,
    Passed,
    PickedUp,
    Taking,
    ThrewIn,
    Transferred,
    TrumpTurned,
    WentOut,
    trim,
)
from .log import GameLog, GameLogError
from .notation import PositionError
from .phase import Phase
from .position import Position
from .reasons import IllegalAction, Reason
from .rules import DECK_SIZES, HAND_SIZE, Rules, RulesError
from .rules import ThrowIn as ThrowInRule
from .series import Series
from .state import MAX_MOVES, REPETITION_LIMIT, GameState, new_game
from .view import PublicView, SeatView, observe, observe_public

__all__ = [
    "CARDS",
    "DECK_SIZES",
    "HAND_SIZE",
    "MAX_MOVES",
    "REPETITION_LIMIT",
    "Action",
    "Attack",
    "Attacked",
    "Beat",
    "BoutStarted",
    "Card",
    "Covered",
    "Dealt",
    "Discarded",
    "Drew",
    "Event",
    "FirstAttacker",
    "GameEnded",
    "GameLog",
    "GameLogError",
    "GameResult",
    "GameState",
    "IllegalAction",
    "Pass",
    "Passed",
    "Phase",
    "PickedUp",
    "Position",
    "PositionError",
    "PublicView",
    "Reason",
    "Rules",
    "RulesError",
    "SeatView",
    "Series",
    "ShowTrump",
    "Suit",
    "Take",
    "Taking",
    "ThrewIn",
    "ThrowIn",
    "ThrowInRule",
    "Transfer",
    "Transferred",
    "TrumpTurned",
    "WentOut",
    "new_game",
    "observe",
    "observe_public",
    "parse_action",
    "trim",
]
