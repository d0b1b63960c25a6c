"""A guest at the table with a phone: joins from the page and plays by taps only.

The page's test hook ``window.durakTest`` (assets/web/src/main.ts) says what the guest
would see (the screen, the seat, the hand, the legal actions, whether cards still move);
everything the guest does is a tap on what the page shows (a card of the hand, a card on
the table, a button found by its English words from the page's own catalogue). A tap
that does nothing the page should do (a wrong element, a covered card) leaves the page
unchanged and the next wait fails, naming the state it waited in."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from browser import Page

__all__ = ["STATE", "Phone", "State", "choose", "hoard", "words"]

ROOT = Path(__file__).resolve().parents[2]
STRINGS = ROOT / "assets" / "web" / "static" / "strings.json"

# What the guest sees, as one value (the end panel is on screen when a game is over).
STATE = """(() => {
  const t = window.durakTest;
  if (!t) return null;
  return {screen: t.screen, seat: t.seat, hand: t.hand, legal: t.legal, idle: t.idle,
          link: t.link, deal: t.deal, ended: document.querySelector(".sheet.end") !== null,
          key: JSON.stringify([t.legal, t.hand]), player: t.player, party: t.party,
          called: t.called};
})()"""

Action = dict[str, Any]


@cache
def words(language: str = "en") -> dict[str, str]:
    """The page's words in one language (its catalogue, exported from the window's)."""
    texts: dict[str, dict[str, str]] = json.loads(STRINGS.read_text(encoding="utf-8"))["texts"]
    return texts[language]


@dataclass(frozen=True)
class State:
    """What ``window.durakTest`` said at one moment."""

    screen: str
    seat: int | None
    hand: list[str]
    legal: list[Action]
    idle: bool
    link: str
    deal: str | None
    ended: bool
    key: str  # the legal actions and the hand as one string: a move changes it
    player: int | None  # our id in the party (a party's page)
    party: str | None  # the party's status
    called: bool  # the party calls us to a table we have not joined yet

    @property
    def my_turn(self) -> bool:
        return self.screen == "table" and self.idle and bool(self.legal) and not self.ended


def card(code: str) -> str:
    """The selector of a card shown face up (in the hand or on the table)."""
    return f'.card.face[data-card="{code}"]'


def choose(legal: list[Action]) -> Action:
    """The guest's move: beat when it can, lead one card, else end the bout (pass, take),
    else throw in (a defender may always take, so it never needs to transfer). Short
    games, every kind of tap."""
    by_verb: dict[str, list[Action]] = {}
    for action in legal:
        by_verb.setdefault(action["verb"], []).append(action)
    singles = [a for a in by_verb.get("attack", []) if len(a["cards"]) == 1]
    for verb in ("beat", "single", "pass", "take", "throw"):
        options = singles if verb == "single" else by_verb.get(verb)
        if options:
            return options[0]
    raise AssertionError(f"no move to choose among {legal}")


def hoard(legal: list[Action]) -> Action:
    """The move of a guest who keeps cards: take whenever attacked, end the bout when it
    can, else lead one card. The hand grows by each bout taken: the biggest hands."""
    by_verb: dict[str, list[Action]] = {}
    for action in legal:
        by_verb.setdefault(action["verb"], []).append(action)
    singles = [a for a in by_verb.get("attack", []) if len(a["cards"]) == 1]
    for verb in ("take", "pass", "single", "throw", "beat"):
        options = singles if verb == "single" else by_verb.get(verb)
        if options:
            return options[0]
    raise AssertionError(f"no move to choose among {legal}")


class Phone:
    """One page at the table, as one guest."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.words = words()
        self.actions = 0  # moves made by taps

    async def state(self) -> State:
        return State(**await self.page.evaluate(STATE))

    async def wait(self, condition: str, timeout: float = 20.0) -> State:
        """The state once ``condition`` (JavaScript over ``t``, the state) holds."""
        try:
            value = await self.page.wait_for(
                f"(() => {{ const t = {STATE}; return t && ({condition}) ? t : null; }})()",
                timeout,
            )
        except TimeoutError:
            shown = await self.page.evaluate("document.body.innerText.slice(0, 400)")
            raise AssertionError(
                f"{condition} did not come within {timeout} s; the page is at"
                f" {await self.page.evaluate(STATE)} and shows {shown!r};"
                f" its errors: {self.page.errors}"
            ) from None
        return State(**value)

    async def tap_button(self, *keys: str) -> None:
        """Taps the button showing the words of one of ``keys`` (the first one shown)."""
        labels = [self.words[key] for key in keys]
        shown = await self.page.evaluate(
            f"[...document.querySelectorAll('button')].map((b) => b.textContent.trim())"
            f".filter((text) => {json.dumps(labels)}.includes(text))"
        )
        if not shown:
            raise AssertionError(f"no button says any of {labels}; state: {await self.state()}")
        await self.page.tap("button", shown[0])

    async def join(self, name: str) -> int:
        """Opens the page, types the name, continues: the seat the room gives."""
        await self.page.goto(self.url)
        await self.wait("t.screen === 'name'")
        await self.page.tap("#name-input")
        await self.page.type_text(name)
        await self.tap_button("name.continue")
        state = await self.wait("t.screen === 'room' && t.seat !== null")
        assert state.seat is not None
        return state.seat

    async def join_party(self, name: str) -> int:
        """Opens a party's page, types the name, continues: our id in the party."""
        await self.page.goto(self.url)
        await self.wait("t.screen === 'name'")
        await self.page.tap("#name-input")
        await self.page.type_text(name)
        await self.tap_button("name.continue")
        state = await self.wait("t.screen === 'party' && t.player !== null")
        assert state.player is not None
        return state.player

    async def ready(self) -> None:
        await self.tap_button("room.ready_button")

    async def start(self) -> None:
        """(The owner) Starts the game once the room lets it."""
        await self.tap_button("room.start")
        await self.wait("t.screen === 'table'")

    async def play(self, action: Action, chosen_in: State | None = None) -> bool:
        """The taps that make ``action``: its card (again, to lead one of several possible
        leads; then the card it beats, when it beats one of several), or its button.

        ``chosen_in`` is the state the move was chosen in. Others play meanwhile (AI seats,
        other guests): when a move's button is gone by the time of the tap and the state
        has moved on since, the move is no longer offered and it is dropped (False), as a
        player's finger finds nothing to press; without ``chosen_in`` that fails."""
        verb = action["verb"]
        if verb in ("take", "pass"):
            keys = ("table.take",) if verb == "take" else ("table.pass", "table.beaten")
            try:
                await self.tap_button(*keys)
            except AssertionError:
                if chosen_in is None or (await self.state()).key == chosen_in.key:
                    raise
                return False
            return True
        state = await self.state()
        code = action["cards"][0] if verb == "attack" else action["card"]
        await self.page.tap(card(code))
        mine = [a for a in state.legal if a.get("card") == code or code in a.get("cards", [])]
        again = verb == "attack" and len([a for a in mine if a["verb"] == "attack"]) > 1
        if not again and not (verb == "beat" and len(mine) > 1):
            return True
        # the first tap chose the card: the second once it has risen (as a player sees it
        # rise; a tap where it was, on a busy machine, can land on its neighbour)
        await self.wait("t.idle")
        if again:
            await self.page.tap(card(code))  # the second tap leads it
        else:
            await self.page.tap(card(action["target"]))  # then the card it beats
        return True

    async def play_game(self, stop_after: int | None = None) -> State:
        """Plays by taps until the game's end panel shows (or ``stop_after`` moves): the
        state then. After each move, waits for the page to show its outcome."""
        while stop_after is None or self.actions < stop_after:
            state = await self.wait("t.ended || (t.screen === 'table' && t.idle && t.legal.length)")
            if state.ended:
                return state
            if await self.play(choose(state.legal), state):
                self.actions += 1
            await self.wait(f"t.ended || t.key !== {json.dumps(state.key)}")
        return await self.state()
