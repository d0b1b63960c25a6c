"""The one place that decides legality.

``check`` returns the reason an action is refused, or None, and ``card_reason`` explains
why a card in a hand cannot be played right now (the client's hint for a dimmed card).
The position lists the same actions from bit masks (``Position.legal_actions``, the move
generator, a method so that a search's every call is one call): it must never disagree
with ``check``, and the property tests compare them over every card and target.

Every rule used here depends only on the acting seat's own hand and public information,
so the answers can be sent to that seat without leaking anything. And only on the position
(``engine.position``), never on the play's history: ``engine.state`` builds on this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .actions import (
    BEATS,
    SHOWS,
    SINGLE_ATTACKS,
    THROW_INS,
    TRANSFERS,
    Action,
    Attack,
    Beat,
    Pass,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from .cards import BEATERS, CARDS, SAME_RANK, Card
from .phase import Phase
from .position import Position
from .reasons import Reason

__all__ = ["CHECKS", "beat_reason", "card_reason", "check"]


def beat_reason(card: Card, target: Card, trump: int) -> Reason | None:
    """Why ``card`` does not beat ``target`` (None if it does)."""
    if target.suit == trump:
        if card.suit == trump and card.rank > target.rank:
            return None
        return Reason.TRUMP_BEATS_ONLY_HIGHER
    if card.suit == target.suit:
        return None if card.rank > target.rank else Reason.DOES_NOT_BEAT
    return None if card.suit == trump else Reason.WRONG_SUIT


def _limit_reason(state: Position) -> Reason:
    if state.defender_start < state.bout_max:
        return Reason.DEFENDER_HAND_LIMIT
    return Reason.TABLE_FULL


_LEAD: Final = Phase.LEAD
_OPEN: Final = Phase.OPEN
_OVER: Final = Phase.OVER


def check(state: Position, seat: int, action: Action) -> Reason | None:
    """Why ``seat`` may not do ``action`` now, or None if it may."""
    if state.phase is _OVER:
        return Reason.GAME_OVER
    if not 0 <= seat < state.players:
        return Reason.NOT_YOUR_TURN
    if state.places[seat]:
        return Reason.PLAYER_OUT
    checker = CHECKS.get(type(action))
    if checker is None:
        raise TypeError(f"not an action: {action!r}")
    return checker(state, seat, action)


def _check_attack(state: Position, seat: int, action: Attack) -> Reason | None:
    if seat != state.attacker:
        return Reason.NOT_ATTACKER if seat == state.defender else Reason.NOT_YOUR_TURN
    if state.phase is _OPEN:
        return Reason.BOUT_IN_PROGRESS
    mask = action.mask
    if mask & ~state.hands[seat]:
        return Reason.CARD_NOT_IN_HAND
    if mask & ~SAME_RANK[action.cards[0].index]:
        return Reason.NOT_SAME_RANK
    if len(action.cards) > state.limit:
        return _limit_reason(state)
    return None


def _defending(state: Position, seat: int) -> Reason | None:
    """What every defence (beat, take, transfer) needs first."""
    if seat != state.defender:
        return Reason.NOT_DEFENDER
    if state.phase is not _OPEN:
        return Reason.MUST_LEAD_FIRST
    if state.taking:
        return Reason.ALREADY_TAKING
    return None


def _check_beat(state: Position, seat: int, action: Beat) -> Reason | None:
    reason = _defending(state, seat)
    if reason is not None:
        return reason
    card, target = action.card, action.target
    if not state.hands[seat] & card.bit:
        return Reason.CARD_NOT_IN_HAND
    try:
        slot = state.attacks.index(target.index)
    except ValueError:
        return Reason.NOTHING_TO_BEAT
    if state.defences[slot] >= 0:
        return Reason.ALREADY_BEATEN
    if BEATERS[state.trump][target.index] & card.bit:
        return None
    return beat_reason(card, target, state.trump)


def _check_take(state: Position, seat: int, action: Take) -> Reason | None:
    reason = _defending(state, seat)
    if reason is None and -1 not in state.defences:
        return Reason.ALREADY_BEATEN
    return reason


def _check_transfer(state: Position, seat: int, action: Transfer | ShowTrump) -> Reason | None:
    shown = type(action) is ShowTrump
    rules = state.rules
    if seat == state.defender and not (rules.transfer and (rules.transfer_show_trump or not shown)):
        return Reason.TRANSFER_NOT_ALLOWED
    reason = _defending(state, seat)
    if reason is not None:
        return reason
    card = action.card
    if not state.hands[seat] & card.bit:
        return Reason.CARD_NOT_IN_HAND
    if any(d >= 0 for d in state.defences):
        return Reason.TRANSFER_AFTER_BEAT
    if card.rank != CARDS[state.attacks[0]].rank:
        return Reason.NOT_SAME_RANK
    if shown:
        if card.suit != state.trump:
            return Reason.NOT_A_TRUMP
        if state.shown >> seat & 1:
            return Reason.ALREADY_SHOWN
    count = len(state.attacks) + (0 if shown else 1)
    if count > state.bout_max:
        return Reason.TABLE_FULL
    if state.next_hand_size(seat) < count:
        return Reason.NEXT_PLAYER_TOO_FEW_CARDS
    return None


def _adding(state: Position, seat: int) -> Reason | None:
    """What throwing in and passing need first."""
    if seat == state.defender:
        return Reason.NOT_ATTACKER
    if state.phase is not _OPEN:
        return Reason.MUST_LEAD_FIRST
    if not state.throwers >> seat & 1:
        return Reason.NEIGHBOURS_ONLY
    return None


def _check_pass(state: Position, seat: int, action: Pass) -> Reason | None:
    reason = _adding(state, seat)
    if reason is not None:
        return reason
    if state.passed >> seat & 1:
        return Reason.ALREADY_PASSED
    if not state.taking and -1 in state.defences:
        return Reason.NOT_ALL_BEATEN
    return None


def _check_throw_in(state: Position, seat: int, action: ThrowIn) -> Reason | None:
    reason = _adding(state, seat)
    if reason is not None:
        return reason
    card = action.card
    if not state.hands[seat] & card.bit:
        return Reason.CARD_NOT_IN_HAND
    if not state.table_ranks & card.bit:
        return Reason.RANK_NOT_ON_TABLE
    if len(state.attacks) >= state.limit:
        return _limit_reason(state)
    return None


# The checker of each kind of action (``check`` calls it after its seat tests).
CHECKS: Final[dict[type, Callable[[Position, int, Any], Reason | None]]] = {
    Attack: _check_attack,
    Beat: _check_beat,
    Take: _check_take,
    Transfer: _check_transfer,
    ShowTrump: _check_transfer,
    ThrowIn: _check_throw_in,
    Pass: _check_pass,
}


def card_reason(state: Position, seat: int, card: Card) -> Reason | None:
    """Why ``card`` in ``seat``'s hand cannot be played now (None if some move plays it)."""
    candidates: list[Action]
    if not state.is_open or seat != state.defender:
        candidates = [THROW_INS[card.index] if state.is_open else SINGLE_ATTACKS[card.index]]
    else:
        open_targets = [t for t, d in zip(state.attacks, state.defences, strict=True) if d < 0]
        candidates = [BEATS[card.index][t] for t in open_targets] or [BEATS[card.index][card.index]]
        if state.rules.transfer:
            candidates.append(TRANSFERS[card.index])
            if state.rules.transfer_show_trump:
                candidates.append(SHOWS[card.index])
    first: Reason | None = None
    for action in candidates:
        reason = check(state, seat, action)
        if reason is None:
            return None
        first = first or reason
    return first
