"""Short table talk: the toasts (what just happened, with names, and "you" for us), and
the word a seat says by its plate when it acts (``seat_note``)."""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import ENGLISH, N_, Translator
from client.screens.table.history import Bout, Line
from engine import (
    Attacked,
    Covered,
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
)
from protocol import Room

__all__ = ["Note", "line_text", "note_text", "ordinal", "recap_text", "seat_note", "toast_for"]


@dataclass(frozen=True, slots=True)
class Note:
    """What a seat says by its plate: what it did (a key of ``SAID``, or "draws" and
    "picks_up", which count ``n`` cards)."""

    seat: int
    kind: str
    n: int = 0


SAID = {
    "leads": N_("said.leads"),
    "throws_in": N_("said.throws_in"),
    "beats": N_("said.beats"),
    "transfers": N_("said.transfers"),
    "shows": N_("said.shows"),
    "takes": N_("said.takes"),
    "passes": N_("said.passes"),
}


def seat_note(event: Event, me: int) -> Note | None:
    """The word another seat's action puts by its plate ("throws in", "beats"...); None
    for our own actions and for events that are no seat's doing."""
    match event:
        case Attacked(seat, _):
            note = Note(seat, "leads")
        case ThrewIn(seat, _):
            note = Note(seat, "throws_in")
        case Covered(seat, _, _):
            note = Note(seat, "beats")
        case Transferred(seat, _, _, shown):
            note = Note(seat, "shows" if shown else "transfers")
        case Taking(seat):
            note = Note(seat, "takes")
        case Passed(seat):
            note = Note(seat, "passes")
        case PickedUp(seat, cards):
            note = Note(seat, "picks_up", len(cards))
        case Drew(seat, count, _) if count:
            note = Note(seat, "draws", count)
        case _:
            return None
    return note if note.seat != me else None


def note_text(note: Note, tr: Translator = ENGLISH) -> str:
    """A seat's word in the player's language."""
    if note.kind == "draws":
        return tr.plural("said.draws", note.n)
    if note.kind == "picks_up":
        return tr.plural("said.picks_up", note.n)
    key = SAID[note.kind]
    return tr(key)


def line_text(line: Line, names: tuple[str, ...], tr: Translator = ENGLISH, me: int = -1) -> str:
    """One line of the game's log in the player's language; our seat ``me`` is "you"."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else tr("table.seat", n=seat + 1)

    who, cards = name(line.seat), " ".join(c.pretty for c in line.cards)
    ours = line.seat == me >= 0
    to_us = line.other == me >= 0
    match line.kind:
        case "bout":
            if ours:
                return tr("log.bout_you_attack", n=line.n, defender=name(line.other))
            if to_us:
                return tr("log.bout_attacks_you", n=line.n, attacker=who)
            return tr("log.bout", n=line.n, attacker=who, defender=name(line.other))
        case "led":
            return tr("log.led_you", cards=cards) if ours else tr("log.led", name=who, cards=cards)
        case "threw_in":
            if ours:
                return tr("log.threw_in_you", card=cards)
            return tr("log.threw_in", name=who, card=cards)
        case "beat":
            card, target = line.cards
            if ours:
                return tr("log.beat_you", card=card.pretty, target=target.pretty)
            return tr("log.beat", name=who, card=card.pretty, target=target.pretty)
        case "transferred":
            if ours:
                return tr("log.transferred_you", card=cards, target=name(line.other))
            if to_us:
                return tr("log.transferred_to_you", name=who, card=cards)
            return tr("log.transferred", name=who, card=cards, target=name(line.other))
        case "showed":
            if ours:
                return tr("log.showed_you", card=cards, target=name(line.other))
            if to_us:
                return tr("log.showed_to_you", name=who, card=cards)
            return tr("log.showed", name=who, card=cards, target=name(line.other))
        case "took":
            if ours:
                return tr.plural("log.took_you", line.n)
            return tr.plural("log.took", line.n, name=who)
        case "beaten":
            return tr.plural("log.beaten", line.n)
        case "drew":
            if ours:
                return tr.plural("log.drew_you", line.n)
            return tr.plural("log.drew", line.n, name=who)
        case "out":
            if ours:
                return tr("log.out_you", place=tr.ordinal(line.n))
            return tr("log.out", name=who, place=tr.ordinal(line.n))
        case "durak":
            return tr("log.durak_you") if ours else tr("log.durak", name=who)
    return tr("log.draw")


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


def recap_text(bout: Bout, names: tuple[str, ...], tr: Translator = ENGLISH, me: int = -1) -> str:
    """What a finished bout did, in one line ("Vera took 3: 9♦ 10♠ J♣"): every card the
    taker picked up, or the attack cards the defender beat off; "" for a bout not over."""
    if bout.end == "taken":
        cards = [card for pair in bout.pairs for card in pair if card is not None]
        who, key, mine = bout.taker, "recap.took", "recap.took_you"
    elif bout.end == "beaten":
        cards = [attack for attack, _ in bout.pairs]
        who, key, mine = bout.defender, "recap.beaten", "recap.beaten_you"
    else:
        return ""
    shown = " ".join(card.pretty for card in cards)
    if who == me >= 0:
        return tr(mine, n=len(cards), cards=shown)
    name = names[who] if 0 <= who < len(names) else tr("table.seat", n=who + 1)
    return tr(key, name=name, n=len(cards), cards=shown)


def owner_toast(
    before: Room | None, after: Room, me: int | None, tr: Translator = ENGLISH
) -> str | None:
    """Who runs the room now, once it passed on (the owner left or stayed away: everyone
    is told who has it); None when it did not (``me``: our seat, None for a watcher)."""
    owner = after.owner
    if before is None or owner is None or owner == before.owner or owner >= len(after.seats):
        return None
    if owner == me:
        return tr("toast.owner_you")
    return tr("toast.owner", name=after.seats[owner].name)
