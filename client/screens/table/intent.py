"""What a gesture on a card means, from the seat's view alone: pure and testable.

A tap plays a card when it can be played one way only; as the defender, a card that could
beat several cards (or also transfer) is chosen first and its targets light up. A drop
beats the card it lands on, or leads, throws in or transfers when it lands on the table.
Every answer is a ``Play`` (send this action), a ``Choose`` (select the card, say why) or
a ``Say`` (explain, play nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import ENGLISH, Translator
from engine import Action, Attack, Beat, Card, SeatView, ShowTrump, ThrowIn, Transfer

__all__ = ["Choose", "Play", "Say", "actions_for", "on_drop", "on_tap", "on_transfer_button"]


@dataclass(frozen=True, slots=True)
class Play:
    action: Action


@dataclass(frozen=True, slots=True)
class Choose:
    card: Card | None  # None: choose a card for the pending transfer
    text: str


@dataclass(frozen=True, slots=True)
class Say:
    text: str


Intent = Play | Choose | Say


def actions_for(view: SeatView, card: Card) -> list[Action]:
    """The legal single-card actions with ``card`` (multi-card leads are not offered)."""
    found: list[Action] = []
    for action in view.legal:
        if isinstance(action, Attack):
            if action.cards == (card,):
                found.append(action)
        elif isinstance(action, ThrowIn | Beat | Transfer | ShowTrump) and action.card == card:
            found.append(action)
    return found


def on_tap(
    view: SeatView,
    card: Card,
    *,
    hints: bool,
    transferring: bool = False,
    tr: Translator = ENGLISH,
) -> Intent:
    """A tap on ``card`` of our hand (``transferring``: the Transfer button asked for one)."""
    acts = actions_for(view, card)
    if transferring:
        transfers = [a for a in acts if isinstance(a, Transfer)]
        if transfers:
            return Play(transfers[0])
    if not acts:
        reason = view.hint(card)
        return Say(tr("reason." + reason.value) if hints and reason is not None else "")
    if len(acts) == 1:
        return Play(acts[0])
    beats = any(isinstance(a, Beat) for a in acts)
    if not any(isinstance(a, Transfer) for a in acts):
        return Choose(card, tr("intent.tap_target"))
    return Choose(
        card, tr("intent.tap_target_or_transfer" if beats else "intent.choose_or_transfer")
    )


def on_drop(
    view: SeatView, card: Card, target: Card | None, on_table: bool, tr: Translator = ENGLISH
) -> Intent:
    """``card`` dropped on the attack card ``target``, or elsewhere on the table, or back."""
    acts = actions_for(view, card)
    if target is not None and Beat(card, target) in acts:
        return Play(Beat(card, target))
    if not on_table:
        return Say("")  # back into the hand
    leads = [a for a in acts if isinstance(a, Attack | ThrowIn | Transfer)]
    beats = [a for a in acts if isinstance(a, Beat)]
    if leads:
        return Play(leads[0])
    if len(beats) == 1:
        return Play(beats[0])
    if beats:
        return Say(tr("intent.drop_on_target"))
    return Say("")


def on_transfer_button(
    view: SeatView, selected: Card | None, show: bool = False, tr: Translator = ENGLISH
) -> Intent:
    """The Transfer (or Show trump) button: with the chosen card, the only one, or ask."""
    kind = ShowTrump if show else Transfer
    options = [a for a in view.legal if isinstance(a, kind)]
    chosen = [a for a in options if a.card == selected]
    if chosen:
        return Play(chosen[0])
    if len(options) == 1:
        return Play(options[0])
    if options:
        return Choose(None, tr("intent.choose_show" if show else "intent.choose_transfer"))
    return Say("")
