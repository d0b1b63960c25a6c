"""How to play, page 3: its picture shows 6♠ beating 8♣, which means nothing unless the
page says that spades are trump there (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from window import open_app

from client.screens import howto
from client.screens.howto import HowToScene

pytestmark = pytest.mark.usefixtures("headless")


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (720, 1280)])
def test_the_picture_of_a_trump_beating_says_which_suit_is_trump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], language: str
) -> None:
    app = open_app(tmp_path / "settings.json", size=size, language=language)
    app.show("howto")
    scene = app.stack[-1]
    assert isinstance(scene, HowToScene)
    said: list[tuple[str, tuple[float, float]]] = []
    real = howto.draw_text

    def spy(surface, assets, text, px, at, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append((text, at))
        return real(surface, assets, text, px, at, *args, **kwargs)

    monkeypatch.setattr(howto, "draw_text", spy)
    scene.page = 2
    scene.draw(app.screen)
    caption = app.tr("howto.3.picture")
    lines = [(text, at) for text, at in said if text in caption and "♠" in caption]
    shown = " ".join(text for text, _ in lines)
    assert shown == caption  # whole, in one or two lines
    picture = scene.picture()
    assert all(picture.collidepoint(at) for _, at in lines)
    said.clear()
    scene.page = 1  # a page whose picture needs no words
    scene.draw(app.screen)
    assert not [text for text, _ in said if "♠" in text]
    pygame.image.save(app.screen, tmp_path / "howto3.png")
