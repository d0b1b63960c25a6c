"""A party night from phones: the party's page (``durak party``'s web door) in headless
Chromium under a LAN name. Guests join the night with their name, the organiser starts it
from the page, each page goes to the table the party seats it at (a WebSocket to that
table's web port, on the name the page was loaded from), plays by taps, comes back to the
standings, and is called to the next table; a reload mid-night is the same player."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from browser import Browser
from phone import Phone
from web_tables import SHORT, WebParty, web_party

from engine import Rules
from protocol import Night

pytestmark = pytest.mark.slow

# Two players a table, two rounds of the 24-card deck; the break waits for the organiser
# (as long as the test), so that the pages are seen back at the standings.
NIGHT = Night(Rules(players=2, deck_size=SHORT.deck_size), rounds=2, fill=True, ai="easy")

# each row of the standings shown: its rank, name and games
STANDINGS = """[...document.querySelectorAll('.standings tr')].slice(1).map((row) =>
  [row.cells[0].textContent, row.querySelector('.name').textContent,
   row.cells[row.cells.length - 1].textContent])"""


@pytest.fixture
async def party() -> AsyncIterator[WebParty]:
    """Asked for before ``browser``, it is torn down after it."""
    async with web_party(NIGHT, break_s=3600.0) as running:
        yield running


async def test_two_phones_play_a_party_round_and_come_back_to_the_standings(
    party: WebParty, browser: Browser
) -> None:
    anna = Phone(await browser.new_page(), party.url)
    boris = Phone(await browser.new_page(), party.url)
    first = await anna.join_party("Anna")
    second = await boris.join_party("Boris")
    assert (first, second) == (0, 1) and party.party().organiser == first
    await anna.wait("t.party === 'gathering'")
    # a name that reads as a player's: said, and the name asked again
    other = Phone(await browser.new_page(), party.url)
    await other.page.goto(party.url)
    await other.wait("t.screen === 'name'")
    await other.page.tap("#name-input")
    await other.page.type_text("anna")
    await other.tap_button("name.continue")
    await other.wait("t.screen === 'gone'")
    shown = await other.page.evaluate("document.body.innerText")
    assert other.words["web.party_name_taken"] in shown
    await other.tap_button("web.join_again")
    await other.wait("t.screen === 'name'")
    await other.page.close()
    # the organiser's page starts the night; a guest's has no such button
    assert anna.words["party.begin"] not in await boris.page.evaluate("document.body.innerText")
    await anna.tap_button("party.begin")
    await boris.wait("t.called")
    await boris.tap_button("party.go_now")  # Anna's page goes by itself a moment later
    await anna.wait("t.screen === 'table'")
    await boris.wait("t.screen === 'table'")
    table = party.host.tables.hosts[(1, 0)]
    assert table.web_port is not None and table.web_port != party.host.web_port
    assert sorted(seat.name for seat in table.table.room().seats) == ["Anna", "Boris"]

    async def anna_reloads_mid_game() -> None:
        await anna.play_game(stop_after=3)
        before = await anna.wait("t.idle && t.legal.length")
        await anna.page.reload()
        after = await anna.wait("t.screen === 'table' && t.idle && t.legal.length", 30)
        assert (after.player, after.seat, sorted(after.hand)) == (
            first,
            before.seat,
            sorted(before.hand),
        )
        await anna.play_game()

    await asyncio.gather(anna_reloads_mid_game(), boris.play_game())
    assert anna.actions and boris.actions
    # Boris taps his way back; Anna's page goes back by itself after a few seconds
    await boris.tap_button("party.standings")
    back = "t.screen === 'party' && t.party === 'break'"
    states = [await phone.wait(back) for phone in (anna, boris)]
    assert [state.player for state in states] == [first, second]
    night = party.party()
    assert [(p.name, p.games) for p in sorted(night.players, key=lambda p: p.id)] == [
        ("Anna", 1),
        ("Boris", 1),
    ]
    for phone in (anna, boris):
        rows = await phone.page.evaluate(STANDINGS)
        assert sorted((name, games) for _, name, games in rows) == [("Anna", "1"), ("Boris", "1")]
        assert {rank for rank, _, _ in rows} <= {"1", "2"}
    # the organiser's next round: both pages are called to their next table and go
    await anna.tap_button("party.next_round")
    for phone in (anna, boris):
        await phone.wait("t.screen === 'table' && t.link === 'open'", 30)
    assert party.party().round == 2
