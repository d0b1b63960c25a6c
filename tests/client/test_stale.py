"""Small states that must not go stale (issue 42): a player with no card and none to
draw reads "out", not "0 cards"; a lone first line of the log sits under its title; the
trump's label stays over the cards drawn from the stock."""

from __future__ import annotations

import pygame
import pytest
from tables import deal, scene, settle, start

from client.screens.table import draw, overlays
from client.screens.table.panels import LogScene
from engine import Attack, GameState, Rules

pytestmark = pytest.mark.usefixtures("headless")

LAST_CARD = (
    "rules=36 hands=7h8h9d/6h stock=- trump=Ks table=- "
    "discard=6c7c9cQcKcAc6d7d8dJdKdAd8cTdQd9hKh7sThJhQhAh8s9sJsQsAsKsTcJc6sTs "
    "attacker=1 defender=0 leader=1 dealer=0 phase=lead cap=5 held=3 taking=no passed=- "
    "shown=- throwers=1 places=0,0 result=- moves=10 seen=0:5:7h8h9d/6h"
)


def test_a_player_with_no_card_and_an_empty_stock_reads_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, session = start(GameState.from_text(LAST_CARD))
    session.play(1, Attack.of("6h"))  # Boris leads his last card; the stock is gone
    settle(app)
    table = scene(app)
    assert table.board is not None and table.board.counts[1] == 0
    said: list[str] = []
    real = draw.draw_text

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append(text)
        return real(surface, assets, text, *args, **kwargs)

    monkeypatch.setattr(draw, "draw_text", spy)
    table.draw(pygame.Surface(app.size))
    assert app.tr("role.out") in said
    assert app.tr.plural("table.cards", 0) not in said


def test_a_lone_first_line_of_the_log_sits_under_its_title(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before any card is played the log has no bout's cards to show: its first line
    starts under the title, not below an empty band, mid-panel."""
    from tables import deal

    from engine import Rules

    app, _ = start(deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh"))
    table = scene(app)
    table.press_button("log")
    log = app.stack[-1]
    assert isinstance(log, LogScene)
    said: list[tuple[str, float]] = []
    real = overlays.draw_text

    def spy(surface, assets, text, px, at, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append((text, at[1]))
        return real(surface, assets, text, px, at, *args, **kwargs)

    monkeypatch.setattr(overlays, "draw_text", spy)
    log.draw(app.screen)
    panel = log.panel()
    first = next(y for text, y in said if text.startswith("Bout 1"))
    assert first < panel.rect.top + panel.px * 6
    up = next(b.rect for b in log.buttons if b.name == "scroll_up")
    assert abs(up.top - panel.lines.top) <= 1  # the scroll buttons follow the lines


def test_the_trump_label_stays_over_the_cards_drawn_from_the_stock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards flying from the stock at a draw covered the "Trump K♠" label on its edge: the
    label is drawn after every card."""
    app, _ = start(deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh"))
    order: list[str] = []
    sprite, tag = draw.draw_sprite, draw._draw_trump_tag
    monkeypatch.setattr(
        draw, "draw_sprite", lambda *a, **k: (order.append("card"), sprite(*a, **k))[1]
    )
    monkeypatch.setattr(
        draw, "_draw_trump_tag", lambda *a, **k: (order.append("tag"), tag(*a, **k))[1]
    )
    scene(app).draw(pygame.Surface(app.size))
    assert "card" in order and order.count("tag") == 1
    assert order.index("tag") > max(i for i, what in enumerate(order) if what == "card")
