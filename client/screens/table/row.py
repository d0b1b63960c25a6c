"""The table's row of buttons: the actions the view offers (Take, Transfer, Show, Pass or
Beaten) in the middle, Menu (and, after a game, Rematch) on the left, React and Sound on
the right, and the log's button by the discard pile.

Pure layout: what to offer is given (the table decides from its view), these place it;
``table_buttons`` says which words each shows.
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from client.i18n import ENGLISH, Translator
from client.screens.table.layout import Layout
from client.ui.assets import Assets
from client.ui.render import button_w, label_px
from client.ui.widgets import Button
from engine import Action, Pass, SeatView, ShowTrump, Take, Transfer

__all__ = ["action_specs", "button_at", "row_buttons", "table_buttons"]

Spec = tuple[str, str, str]  # a button's name, words and style
LEAST = {"menu": 2.6, "sound": 2.4, "rematch": 3.6, "emote": 2.4}  # widths, in heights


def action_specs(legal: list[Action], taking: bool, tr: Translator = ENGLISH) -> list[Spec]:
    """The buttons for the kinds of action among ``legal`` (``taking``: the defender
    takes, so a pass lets them take rather than beats the bout)."""

    def offered(kind: type) -> bool:
        return any(isinstance(a, kind) for a in legal)

    found: list[Spec] = []
    if offered(Take):
        found.append(("take", tr("table.take"), "danger"))
    if offered(Transfer):
        found.append(("transfer", tr("table.transfer"), "secondary"))
    if offered(ShowTrump):
        found.append(("show", tr("table.show"), "secondary"))
    if offered(Pass):
        found.append(("pass", tr("table.pass" if taking else "table.beaten"), "primary"))
    return found


def table_buttons(
    layout: Layout,
    assets: Assets,
    view: SeatView | None,
    *,
    over: bool,
    muted: bool,
    watching: bool,
    log: bool,
    tr: Translator = ENGLISH,
    react: bool = True,
    rematch: bool = True,
) -> list[Button]:
    """The table's row: what ``view`` offers (None: nothing now) or, once the game is
    ``over``, the way back to its result; the corners (React only if ``react``: a replay
    has nobody to react to; Rematch once it is over, if ``rematch``: not at a party's
    table); the log's button if ``log``."""
    specs = action_specs(list(view.legal), view.taking, tr) if view is not None else []
    if over:  # the end's panel hidden: the table, and a way back
        specs = [("result", tr("table.result"), "primary")]
    words = {
        "menu": tr("table.menu"),
        "sound": tr("table.sound_off" if muted else "table.sound_on"),
        "rematch": tr("table.next_game" if watching else "table.rematch"),
        "emote": tr("table.emote"),
    }
    if not over or not rematch:
        del words["rematch"]
    if not react:
        del words["emote"]
    return row_buttons(layout, assets, specs, words, tr("table.log") if log else None)


def button_at(buttons: list[Button], pos: tuple[float, float]) -> Button | None:
    """The button under ``pos`` (the topmost: the last drawn)."""
    for button in reversed(buttons):
        if button.rect.collidepoint(pos):
            return button
    return None


def row_buttons(
    layout: Layout,
    assets: Assets,
    specs: list[Spec],
    words: dict[str, str],
    log: str | None,
) -> list[Button]:
    """``specs`` in the middle of the row, the corners of ``words`` (menu, sound, emote and,
    if there, rematch) around them, and the log's button (``log``: its words) if any."""
    px = label_px(layout.button_h)  # the size their labels are set at, where they fit
    rects = layout.button_rects([label for _, label, _ in specs], px * 0.62)
    buttons = [
        Button(pygame.Rect(rect), name, label, style=style)
        for (name, label, style), rect in zip(specs, rects, strict=True)
    ]
    h = round(layout.button_h * 0.85)
    m = round(layout.margin)
    y = round(layout.buttons_y - h / 2)
    corners = _corner_rects(layout, assets, words, h, m, y, buttons)
    for name, rect in corners.items():
        style = "primary" if name == "rematch" else "secondary"
        buttons.append(Button(rect, name, words[name], style=style))
    if log is not None:
        buttons.append(Button(pygame.Rect(layout.log_rect()), "log", log))
    return buttons


def _corner_rects(
    layout: Layout,
    assets: Assets,
    words: dict[str, str],
    h: int,
    m: int,
    y: int,
    actions: list[Button],
) -> dict[str, pygame.Rect]:
    """Menu (and Rematch) on the left, React and Sound on the right of the row, wide
    enough for their words where the row has room (at least their usual width); the
    action buttons between them move aside if a corner would cover them, and up over the
    row, in its middle, where even the usual widths leave them no room (a narrow window
    at the end of a game: Menu, Rematch, Result, React, Sound)."""
    w = layout.size[0]
    middle = actions[0].rect.unionall([b.rect for b in actions[1:]]) if actions else None
    for full in (True, False):  # full words, else the usual widths (smaller words)
        width = {
            n: button_w(assets, words[n], h, round(h * LEAST[n])) if full else round(h * LEAST[n])
            for n in words
        }
        rects = {"menu": pygame.Rect(m, y, width["menu"], h)}
        if "rematch" in width:
            rects["rematch"] = pygame.Rect(rects["menu"].right + m, y, width["rematch"], h)
        rects["sound"] = pygame.Rect(w - m - width["sound"], y, width["sound"], h)
        if "emote" in width:
            right = rects["sound"].left - m - width["emote"]
            rects["emote"] = pygame.Rect(right, y, width["emote"], h)
        left = max(r.right for n, r in rects.items() if n in ("menu", "rematch")) + m
        span = rects.get("emote", rects["sound"]).left - m - left
        if middle is None or middle.w <= span or not full:
            break
    if middle is not None and middle.w > span:
        dx, dy = w // 2 - middle.centerx, y - m // 2 - middle.bottom
        actions[:] = [replace(b, rect=b.rect.move(dx, dy)) for b in actions]
    elif middle is not None and (middle.left < left or middle.right > left + span):
        shift = left + (span - middle.w) // 2 - middle.left
        actions[:] = [replace(b, rect=b.rect.move(shift, 0)) for b in actions]
    return rects
