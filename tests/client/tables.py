"""A table scene in tests: a stacked deal, the window at it, frames until it is at rest."""

from __future__ import annotations

from client.app import App
from client.net.scripted import ScriptedSession
from client.screens.table.board import deck_of
from client.screens.table.panels import Overlay
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import Card, GameState, Rules

SIZE = (1280, 720)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def deal(rules: Rules, *hands: str, trump: str = "Ks") -> GameState:
    """A stacked deal: these hands, the rest of the deck in the stock, ``trump`` at its bottom."""
    dealt = [cards(h) for h in hands]
    used = {c for hand in dealt for c in hand} | {Card.parse(trump)}
    rest = [c for c in deck_of(rules) if c not in used]
    return GameState.from_deal(rules, dealt, [*rest, Card.parse(trump)])


def start(
    state: GameState, settings: Settings | None = None, size=SIZE
) -> tuple[App, ScriptedSession]:
    session = ScriptedSession(state, names=["You", "Boris", "Vera", "Oleg"][: state.players])
    app = App(
        settings or Settings(), None, size=size, sound=False, session_factory=lambda r, s: session
    )
    app.start_game(state.rules)
    settle(app)
    return app, session


def scene(app: App) -> TableScene:
    """The table, under its overlays if any are open."""
    for top in reversed(app.stack):
        if isinstance(top, TableScene):
            return top
        assert isinstance(top, Overlay)
    raise AssertionError("no table")


def showing(app: App) -> type | None:
    """The kind of the overlay open over the table (None: none)."""
    top = app.stack[-1]
    return type(top) if isinstance(top, Overlay) else None


def settle(app: App, limit: int = 400, dt: float = 0.25) -> None:
    """Step frames of ``dt`` seconds until every message is shown and every card has
    landed. Quarter-second frames reach the same rest in a third of the frames that
    twentieths of a second took (each frame draws the whole table); a test that watches
    an animation or a message on its way steps its own frames."""
    for _ in range(limit):
        app.step(dt)
        table = scene(app)
        if table.idle and table.board is not None and not table.board.busy:
            app.step(dt)
            return
    raise AssertionError("the table never came to rest")
