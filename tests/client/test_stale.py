"""Small states that must not go stale (issue 42): a player with no card and none to
draw reads "out", not "0 cards"."""

from __future__ import annotations

import pygame
import pytest
from tables import scene, settle, start

from client.screens.table import draw
from engine import Attack, GameState

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
