"""Every text box of the window is the name screen's (issue 42: the party's join and host
forms had white boxes of their own): one widget, ``widgets.draw_field``, on every screen
that takes typing (the host screens and the party's join screen through their one form,
``client.ui.form``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from window import open_app

from client.screens import name
from client.screens.join import screen as join
from client.ui import form

pytestmark = pytest.mark.usefixtures("headless")


@pytest.mark.parametrize(
    ("module", "screen", "options"),
    [
        (name, "name", {}),
        (form, "host", {}),
        (join, "join", {"browse": False}),
        (form, "party_join", {}),
        (form, "party_host", {}),
    ],
)
def test_each_text_box_is_the_one_widget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: object, screen: str, options: dict
) -> None:
    app = open_app(tmp_path / "settings.json", language="en")
    app.show(screen, **options)
    boxes: list[str] = []
    monkeypatch.setattr(module, "draw_field", lambda s, a, rect, text, *r: boxes.append(text))
    app.stack[-1].draw(app.screen)
    assert boxes, f"the {screen} screen draws no text box through widgets.draw_field"
