"""Short table talk for the toasts: what just happened, with names, and "you" for us."""

from __future__ import annotations

from client.i18n import ENGLISH, Translator
from engine import (
    Covered,
    Event,
    FirstAttacker,
    GameEnded,
    Taking,
    Transferred,
    TrumpTurned,
    WentOut,
)

__all__ = ["ordinal", "toast_for"]


def ordinal(n: int, tr: Translator = ENGLISH) -> str:
    return tr.ordinal(n)


def toast_for(
    event: Event, names: tuple[str, ...], me: int, tr: Translator = ENGLISH
) -> str | None:
    """A line worth showing for a moment, or None for events the table shows by itself."""
    match event:
        case TrumpTurned(card, holder) if holder is not None:
            if holder == me:
                return tr("toast.trump_you", card=card.pretty)
            return tr("toast.trump", card=card.pretty, name=names[holder])
        case FirstAttacker(seat, shown):
            if shown:
                if seat == me:
                    return tr("toast.first_you_shown", card=shown.pretty)
                return tr("toast.first_shown", name=names[seat], card=shown.pretty)
            return tr("toast.first_you") if seat == me else tr("toast.first", name=names[seat])
        case Transferred(seat, card, to, shown):
            if seat == me:
                return tr(
                    "toast.transfer_you_show" if shown else "toast.transfer_you_add",
                    card=card.pretty,
                    target=names[to],
                )
            if to == me:
                return tr(
                    "toast.transfer_show_to_you" if shown else "toast.transfer_add_to_you",
                    name=names[seat],
                    card=card.pretty,
                )
            return tr(
                "toast.transfer_show" if shown else "toast.transfer_add",
                name=names[seat],
                card=card.pretty,
                target=names[to],
            )
        case Taking(seat):
            return tr("toast.take_you") if seat == me else tr("toast.take", name=names[seat])
        case WentOut(seat, place):
            if seat == me:
                return tr("toast.out_you", place=tr.ordinal(place))
            return tr("toast.out", name=names[seat], place=tr.ordinal(place))
        case GameEnded(result):
            if result.durak is None:
                return tr("toast.draw")
            if result.durak == me:
                return tr("toast.durak_you")
            return tr("toast.durak", name=names[result.durak])
        case Covered():
            return None
    return None
