"""The one place that decides legality.

``check`` returns the reason an action is refused, or None. ``legal_actions`` lists the
same actions from bit masks (it must never disagree with ``check``: the property tests
compare them over every card and target), and ``card_reason`` explains why a card in a
hand cannot be played right now (the client's hint for a dimmed card).

Every rule used here depends only on the acting seat's own hand and public information,
so the answers can be sent to that seat without leaking anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from .cards import CARDS, RANK_MASKS, SAME_RANK, SUIT_MASKS, Card, beaters_mask, bits
from .phase import Phase
from .reasons import Reason

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["beat_reason", "card_reason", "check", "legal_actions"]


def beat_reason(card: Card, target: Card, trump: int) -> Reason | None:
    """Why ``card`` does not beat ``target`` (None if it does)."""
    if target.suit == trump:
        if card.suit == trump and card.rank > target.rank:
            return None
        return Reason.TRUMP_BEATS_ONLY_HIGHER
    if card.suit == target.suit:
        return None if card.rank > target.rank else Reason.DOES_NOT_BEAT
    return None if card.suit == trump else Reason.WRONG_SUIT


def _limit_reason(state: GameState) -> Reason:
    if state.defender_start < state.bout_max:
        return Reason.DEFENDER_HAND_LIMIT
    return Reason.TABLE_FULL


def check(state: GameState, seat: int, action: Action) -> Reason | None:
    """Why ``seat`` may not do ``action`` now, or None if it may."""
    if state.phase is Phase.OVER:
        return Reason.GAME_OVER
    if not 0 <= seat < state.players:
        return Reason.NOT_YOUR_TURN
    if state.places[seat]:
        return Reason.PLAYER_OUT
    kind = type(action)
    if kind is Attack:
        return _check_attack(state, seat, action)  # type: ignore[arg-type]
    if kind is Beat or kind is Take or kind is Transfer or kind is ShowTrump:
        return _check_defence(state, seat, action)
    if kind is ThrowIn or kind is Pass:
        return _check_adding(state, seat, action)
    raise TypeError(f"not an action: {action!r}")


def _check_attack(state: GameState, seat: int, action: Attack) -> Reason | None:
    if seat != state.attacker:
        return Reason.NOT_ATTACKER if seat == state.defender else Reason.NOT_YOUR_TURN
    if state.phase is Phase.OPEN:
        return Reason.BOUT_IN_PROGRESS
    mask = 0
    for card in action.cards:
        mask |= 1 << card.index
    if mask & ~state.hands[seat]:
        return Reason.CARD_NOT_IN_HAND
    if mask & ~RANK_MASKS[action.cards[0].rank]:
        return Reason.NOT_SAME_RANK
    if len(action.cards) > state.limit:
        return _limit_reason(state)
    return None


def _check_defence(state: GameState, seat: int, action: Action) -> Reason | None:
    if seat != state.defender:
        return Reason.NOT_DEFENDER
    rules = state.rules
    kind = type(action)
    if (kind is Transfer and not rules.transfer) or (
        kind is ShowTrump and not (rules.transfer and rules.transfer_show_trump)
    ):
        return Reason.TRANSFER_NOT_ALLOWED
    if state.phase is not Phase.OPEN:
        return Reason.MUST_LEAD_FIRST
    if state.taking:
        return Reason.ALREADY_TAKING
    if kind is Take:
        return None if -1 in state.defences else Reason.ALREADY_BEATEN
    card: Card = action.card  # type: ignore[union-attr]
    if not state.hands[seat] >> card.index & 1:
        return Reason.CARD_NOT_IN_HAND
    if kind is Beat:
        target: Card = action.target  # type: ignore[union-attr]
        try:
            slot = state.attacks.index(target.index)
        except ValueError:
            return Reason.NOTHING_TO_BEAT
        if state.defences[slot] >= 0:
            return Reason.ALREADY_BEATEN
        return beat_reason(card, target, state.trump)
    return _check_transfer(state, seat, card, shown=kind is ShowTrump)


def _check_transfer(state: GameState, seat: int, card: Card, *, shown: bool) -> Reason | None:
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


def _check_adding(state: GameState, seat: int, action: Action) -> Reason | None:
    if seat == state.defender:
        return Reason.NOT_ATTACKER
    if state.phase is not Phase.OPEN:
        return Reason.MUST_LEAD_FIRST
    if not state.throwers >> seat & 1:
        return Reason.NEIGHBOURS_ONLY
    if type(action) is Pass:
        if state.passed >> seat & 1:
            return Reason.ALREADY_PASSED
        if not state.taking and -1 in state.defences:
            return Reason.NOT_ALL_BEATEN
        return None
    card: Card = action.card  # type: ignore[union-attr]
    if not state.hands[seat] >> card.index & 1:
        return Reason.CARD_NOT_IN_HAND
    if not state.table_ranks >> card.index & 1:
        return Reason.RANK_NOT_ON_TABLE
    if len(state.attacks) >= state.limit:
        return _limit_reason(state)
    return None


def _next_hand_size(state: GameState, seat: int) -> int:
    """How many cards the player a transfer would go to holds (0: there is nobody)."""
    target = state.next_in_play(seat)
    return 0 if target is None else state.hands[target].bit_count()


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``check`` allows ``seat`` right now (shared, interned values)."""
    phase = state.phase
    if phase is Phase.OVER or not 0 <= seat < state.players or state.places[seat]:
        return []
    hand = state.hands[seat]
    if phase is Phase.LEAD:
        return _leads(hand, state.limit) if seat == state.attacker else []
    if seat == state.defender:
        return _defences(state, seat, hand)
    if not state.throwers >> seat & 1:
        return []
    actions: list[Action] = []
    if len(state.attacks) < state.limit:
        playable = hand & state.table_ranks
        while playable:
            low = playable & -playable
            actions.append(THROW_INS[low.bit_length() - 1])
            playable ^= low
    if not state.passed >> seat & 1 and (state.taking or -1 not in state.defences):
        actions.append(PASS)
    return actions


def _leads(hand: int, limit: int) -> list[Action]:
    actions: list[Action] = []
    rest = hand
    while rest:
        low = rest & -rest
        index = low.bit_length() - 1
        group = hand & SAME_RANK[index]
        if group == low:
            actions.append(SINGLE_ATTACKS[index])
            rest ^= low
            continue
        rest &= ~group
        sub = group
        while sub:
            if sub.bit_count() <= limit:
                actions.append(attack_of_mask(sub))
            sub = (sub - 1) & group
    return actions


def _defences(state: GameState, seat: int, hand: int) -> list[Action]:
    if state.taking or -1 not in state.defences:
        return []
    actions: list[Action] = []
    trump = state.trump
    beaten_any = False
    for target, cover in zip(state.attacks, state.defences, strict=True):
        if cover >= 0:
            beaten_any = True
            continue
        beaters = hand & beaters_mask(trump, target)
        while beaters:
            low = beaters & -beaters
            actions.append(BEATS[low.bit_length() - 1][target])
            beaters ^= low
    actions.append(TAKE)
    rules = state.rules
    if rules.transfer and not beaten_any:
        same_rank = hand & RANK_MASKS[CARDS[state.attacks[0]].rank]
        count = len(state.attacks)
        next_size = _next_hand_size(state, seat)
        if count + 1 <= state.bout_max and next_size >= count + 1:
            actions.extend(TRANSFERS[i] for i in bits(same_rank))
        if rules.transfer_show_trump and not state.shown >> seat & 1 and next_size >= count:
            actions.extend(SHOWS[i] for i in bits(same_rank & SUIT_MASKS[trump]))
    return actions


def card_reason(state: GameState, seat: int, card: Card) -> Reason | None:
    """Why ``card`` in ``seat``'s hand cannot be played now (None if some move plays it)."""
    candidates: list[Action]
    if not state.is_open or seat != state.defender:
        candidates = [Attack((card,)) if not state.is_open else THROW_INS[card.index]]
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
