"""The window's tests open a new window (an ``App``, with assets of its own) for nearly
every test, and each drew the cards it showed afresh: drawing card faces and backs took a
fifth of tests/client/test_table.py. The card art is a pure function of the card and its
height (the game's own fonts), so a module's windows share what was drawn; each window's
image caches stay its own, so what a test counts as made by its window is unchanged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from client.ui import cardart


def _once(draw: Callable[..., Any], key: Callable[..., tuple[object, ...]]) -> Callable[..., Any]:
    drawn: dict[tuple[object, ...], Any] = {}

    def shared(*args: Any) -> Any:
        at = key(*args)
        if at not in drawn:
            drawn[at] = draw(*args)
        return drawn[at]

    return shared


def _face_key(card: object, height: int, _fonts: object) -> tuple[object, ...]:
    return (card, height)


@pytest.fixture(scope="module", autouse=True)
def card_art_drawn_once() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cardart, "draw_face", _once(cardart.draw_face, _face_key))
        patch.setattr(cardart, "draw_back", _once(cardart.draw_back, lambda height: (height,)))
        patch.setattr(cardart, "halo", _once(cardart.halo, lambda *args: args))
        yield
