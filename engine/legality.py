"""The one place that decides legality.

``check`` returns the reason an action is refused, or None. ``legal_actions`` lists the
same actions from bit masks (it must never disagree with ``check``: the property tests
compare them over every card and target), and ``card_reason`` explains why a card in a
hand cannot be played right now (the client's hint for a dimmed card).

Every rule used here depends only on the acting seat's own hand and public information,
so the answers can be sent to that seat without leaking anything. And only on the position
(``engine.position``), never on the play's history: ``engine.state`` builds on this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .actions import (
    BEATS,
    PASS,
    SHOWS,
    SINGLE_ATTACKS,
    TAKE,
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
    attack_of_mask,
)
from .cards import CARDS, SAME_RANK, SUIT_MASKS, Card, beaters_mask, bits
from .phase import Phase
from .position import Position
from .reasons import Reason
from .rules import MAX_ATTACKS

__all__ = ["CHECKS", "beat_reason", "card_reason", "check", "legal_actions"]


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
    if _BEATERS[state.trump][target.index] & card.bit:
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
    if _next_hand_size(state, seat) < count:
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


def _next_hand_size(state: Position, seat: int) -> int:
    """How many cards the player a transfer would go to holds (0: there is nobody)."""
    target = state.next_in_play(seat)
    return 0 if target is None else state.hands[target].bit_count()


def legal_actions(state: Position, seat: int) -> list[Action]:
    """Every action ``check`` allows ``seat`` right now (shared, interned values)."""
    # The attacker and the defender are always in the game, and ``throwers`` holds only
    # seats in the game: no other test of the seat is needed.
    actions: list[Action]
    if state.phase is _OPEN:
        if seat == state.defender:
            # Each beat of an unbeaten card (lowest card first), take, then the transfers.
            defences = state.defences
            if state.taking or -1 not in defences:
                return []
            actions = []
            hand = state.hands[seat]
            beaters_of = _BEATERS[state.trump]
            for slot, target in enumerate(state.attacks):
                if defences[slot] < 0 and (beaters := hand & beaters_of[target]):
                    beats = _BEATS_OF[target]
                    while beaters:
                        low = beaters & -beaters
                        actions.append(beats[low.bit_length() - 1])
                        beaters ^= low
            actions.append(TAKE)
            if state.rules.transfer and all(d < 0 for d in defences):
                _add_transfers(state, seat, actions)
            return actions
        if seat < 0 or not state.throwers >> seat & 1:
            return []
        actions = []
        if len(state.attacks) < state.limit:
            playable = state.hands[seat] & state.table_ranks
            while playable:
                low = playable & -playable
                actions.append(THROW_INS[low.bit_length() - 1])
                playable ^= low
        if not state.passed >> seat & 1 and (state.taking or -1 not in state.defences):
            actions.append(PASS)
        return actions
    if seat != state.attacker or state.phase is _OVER:
        return []
    # The leads: for each rank in the hand (by its lowest card), its cards' every subset.
    hand = rest = state.hands[seat]
    known = _GROUP_LEADS[state.limit]
    leads: list[Action] = []
    while rest:
        group = hand & SAME_RANK[(rest & -rest).bit_length() - 1]
        rest ^= group
        try:
            leads += known[group]
        except KeyError:
            leads += known.setdefault(group, _group_leads(group, state.limit))
    return leads


def _group_leads(group: int, limit: int) -> tuple[Attack, ...]:
    """Every lead from the cards of one rank in ``group``: each subset of at most ``limit``."""
    if group & (group - 1) == 0:
        return (SINGLE_ATTACKS[group.bit_length() - 1],)
    leads = []
    sub = group
    while sub:
        if sub.bit_count() <= limit:
            leads.append(attack_of_mask(sub))
        sub = (sub - 1) & group
    return tuple(leads)


# The leads of one rank's cards in a hand, by the limit, then by the cards' mask (at most
# 13 * 16 masks for each of the limits 0 to 6).
_GROUP_LEADS: Final[tuple[dict[int, tuple[Attack, ...]], ...]] = tuple(
    {} for _ in range(MAX_ATTACKS + 1)
)


def _add_transfers(state: Position, seat: int, actions: list[Action]) -> None:
    """The defender's transfers, and shown trumps, before any card is beaten."""
    hand = state.hands[seat]
    attacks = state.attacks
    same_rank = hand & SAME_RANK[attacks[0]]
    count = len(attacks)
    next_size = _next_hand_size(state, seat)
    if count + 1 <= state.bout_max and next_size >= count + 1:
        actions.extend(TRANSFERS[i] for i in bits(same_rank))
    if state.rules.transfer_show_trump and not state.shown >> seat & 1 and next_size >= count:
        actions.extend(SHOWS[i] for i in bits(same_rank & SUIT_MASKS[state.trump]))


# BEATS by target: ``_BEATS_OF[target][card]`` is ``Beat(card, target)``.
_BEATS_OF: Final = tuple(tuple(BEATS[card][target] for card in range(52)) for target in range(52))
_BEATERS: Final = tuple(
    tuple(beaters_mask(trump, target) for target in range(52)) for trump in range(4)
)


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
