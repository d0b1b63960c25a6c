"""What the table shows of a game once it is over, and the heading of the log: pure
functions of what the window saw (``history.History``), the board and the last view.

The host sends no hands at the end. The Durak's cards are named from what every player
at the table could count: each card of the deck that is in no discard the window saw and
in nobody else's hand. A window that came in late (a reconnect) missed some discards; it
names the cards the view says are known to be in that hand and shows backs for the rest.
"""

from __future__ import annotations

import pygame

from client.i18n import ENGLISH, Translator
from client.net.session import GameOver
from client.screens.table.board import Board, deck_of
from client.screens.table.history import History
from client.screens.table.hud import EndShow
from client.screens.table.layout import OPPONENT_SCALE, Layout, Pose
from client.ui.assets import Assets
from client.ui.render import SOFT, draw_text, fit_px
from engine import Card, SeatView

__all__ = [
    "END_SCALE",
    "draw_end_table",
    "durak_card_rects",
    "durak_cards",
    "durak_fan",
    "end_show",
    "face_up_seat",
    "log_heading",
]

END_SCALE = 1.2  # the Durak's cards at the end, to their backs' size


def durak_cards(
    over: GameOver, board: Board, view: SeatView | None, history: History
) -> tuple[Card | None, ...]:
    """The Durak's cards, sorted as a hand, None for each one the window cannot name."""
    durak = over.result.durak
    if durak is None:
        return ()
    if durak == board.seat:
        return tuple(board.hand)
    count = view.hand_sizes[durak] if view is not None else board.counts[durak]
    discards = view.discard_size if view is not None else board.discard
    elsewhere = set(board.hand) | {c for pair in board.table for c in pair if c is not None}
    named = history.durak_cards(deck_of(board.rules), discards, elsewhere)
    if len(named) == count:
        return tuple(sorted(named, key=board.hand_key))
    known = view.known[durak] if view is not None else ()
    return (*sorted(known, key=board.hand_key), *[None] * max(0, count - len(known)))


def end_show(
    over: GameOver,
    cards: tuple[Card | None, ...],
    history: History,
    names: tuple[str, ...],
    me: int,
    tr: Translator = ENGLISH,
    party: str = "",
) -> EndShow:
    """The end's extras: the game's numbers, the Durak's ``cards``, the last bout (and
    ``party``: a party table's round and table)."""
    numbers = " · ".join(
        (
            tr.plural("end.bouts", len(history.bouts)),
            tr.plural("end.taken", history.cards_taken),
            tr.plural("end.trumps", history.trumps_played),
        )
    )
    durak = over.result.durak
    caption = ""
    if durak is not None and cards:
        caption = (
            tr("end.durak_cards_you") if durak == me else tr("end.durak_cards", name=names[durak])
        )
    bouts = [b for b in history.bouts if b.pairs]
    last = tuple(bouts[-1].pairs) if bouts else ()
    return EndShow(caption, cards, tr("end.last_bout") if last else "", last, numbers, party)


def draw_end_table(
    surface: pygame.Surface, assets: Assets, board: Board, durak: int | None, show: EndShow
) -> None:
    """The end's panel hidden: the last bout in the middle of the table, dimmed, and the
    Durak's cards face up (``durak_fan``), so that the table is never an empty cloth."""
    layout = board.layout
    if not board.table:
        count = len(show.last_bout)
        for i, (attack, defence) in enumerate(show.last_bout):
            for card, pose in (
                (attack, layout.attack_pose(i, count)),
                (defence, layout.defence_pose(i, count)),
            ):
                if card is not None:
                    image = assets.card(card, round(layout.card_h), "dim", round(pose.angle))
                    surface.blit(image, image.get_rect(center=(round(pose.x), round(pose.y))))
    if face_up_seat(board, durak, show) is None:
        return
    for rect, image in durak_card_rects(assets, layout, show.durak_cards):
        surface.blit(image, rect)
    text, w = show.durak_caption, layout.size[0]  # whose they are, over them
    y = layout.hand_y - layout.card_h * OPPONENT_SCALE * END_SCALE * 0.62
    px = fit_px(assets, text, layout.font_px, w * 0.9)
    draw_text(surface, assets, text, px, (w / 2, y), "midbottom", SOFT)


def durak_fan(layout: Layout, count: int) -> list[Pose]:
    """Where the end shows ``count`` cards of the Durak face up, a little larger than
    their backs (which the board leaves out: ``draw_board``'s ``face_up``): in our hand's
    place, which is empty when another seat is the Durak, fanned across the window.
    (Under their plate, they lay over the trump's tag and the stock, and in a tall window
    over the row of piles and the Log button: the row lies under the plates.)"""
    if count <= 0:
        return []
    scale = OPPONENT_SCALE * END_SCALE
    card_w, card_h = layout.card_w * scale, layout.card_h * scale
    room = layout.size[0] - 2 * layout.margin - card_w * 1.5
    step = min(card_w * 0.6, room / max(count - 1, 1))
    spread = min(3.0, 30.0 / count)
    poses = []
    for i in range(count):
        k = i - (count - 1) / 2
        y = layout.hand_y + min(abs(k) ** 2 * 0.3, card_h * 0.08)  # (a gentle arc)
        poses.append(Pose(layout.size[0] / 2 + k * step, y, -k * spread, scale))
    return poses


def durak_card_rects(
    assets: Assets, layout: Layout, cards: tuple[Card | None, ...]
) -> list[tuple[pygame.Rect, pygame.Surface]]:
    """Each of the Durak's ``cards`` as the end table draws it: where, and its image."""
    height = round(layout.card_h * OPPONENT_SCALE * END_SCALE)
    drawn = []
    for pose, card in zip(durak_fan(layout, len(cards)), cards, strict=True):
        image = assets.card(card, height, "plain", round(pose.angle))
        drawn.append((image.get_rect(center=(round(pose.x), round(pose.y))), image))
    return drawn


def face_up_seat(board: Board, durak: int | None, show: EndShow) -> int | None:
    """The seat whose cards the end shows face up under its plate: the Durak's, if the
    window can show them (ours are face up in our hand already)."""
    return None if durak is None or durak == board.seat or not show.durak_cards else durak


def log_heading(
    history: History,
    names: tuple[str, ...],
    beaten: bool,
    tr: Translator = ENGLISH,
    me: int = -1,
) -> tuple[str, list[tuple[Card, Card | None]]]:
    """The bout the log shows as cards, and its heading: the last beaten bout (``beaten``:
    the log was opened from the discard pile), else the bout on now, else the last one.
    Our seat ``me`` is "you"."""

    def name(seat: int) -> str:
        return tr("end.you") if seat == me >= 0 else names[seat]

    bout = history.last_finished("beaten") if beaten else None
    if bout is None:
        current = history.current
        bout = current if current is not None and current.pairs else history.last_finished()
    if bout is None:
        return "", []
    heading = tr("history.last_beaten" if beaten else "history.last_bout")
    heading += " · " + tr(
        "history.bout", n=bout.number, attacker=name(bout.attacker), defender=name(bout.defender)
    )
    if bout.end == "beaten":
        heading += " · " + tr("history.beaten")
    elif bout.end == "taken":
        taken = tr("history.taken_you") if bout.taker == me >= 0 else None
        heading += " · " + (taken or tr("history.taken", name=names[bout.taker]))
    return heading, bout.pairs
