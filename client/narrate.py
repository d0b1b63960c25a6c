"""Short table talk for the toasts: what just happened, with names, and "you" for us."""

from __future__ import annotations

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


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def toast_for(event: Event, names: tuple[str, ...], me: int) -> str | None:
    """A line worth showing for a moment, or None for events the table shows by itself."""

    def who(seat: int) -> str:
        return "You" if seat == me else names[seat]

    match event:
        case TrumpTurned(card, holder) if holder is not None:
            return f"Trump {card.pretty}: the last card dealt, held by {who(holder)}"
        case FirstAttacker(seat, shown):
            verb = "attack" if seat == me else "attacks"
            why = f" (lowest trump {shown.pretty})" if shown else ""
            return f"{who(seat)} {verb} first{why}"
        case Transferred(seat, card, to, shown):
            if seat == me:
                how, passes = ("show", "pass") if shown else ("add", "pass")
            else:
                how, passes = ("shows", "passes") if shown else ("adds", "passes")
            target = "you" if to == me else names[to]
            return f"{who(seat)} {how} {card.pretty} and {passes} the attack to {target}"
        case Taking(seat):
            return "You take" if seat == me else f"{who(seat)} takes"
        case WentOut(seat, place):
            return f"{'You are' if seat == me else who(seat) + ' is'} out — {ordinal(place)} place"
        case GameEnded(result):
            if result.durak is None:
                return "A draw: nobody is the Durak"
            return (
                "You are the Durak!" if result.durak == me else f"{who(result.durak)} is the Durak"
            )
        case Covered():
            return None
    return None
