"""The phones' page in a real browser (headless Chromium as a phone: 390 x 844 CSS
pixels, touch, a LAN name, so not a secure context), at a real host's web door: guests
join by typing their name and play by taps only, come back after a reload, a dead spot
or the host's crash, and a page of another site gets nowhere.

Each test opens its own host in this process (web_tables.py, through the ``tables`` fixture,
asked for before ``browser`` so that the browser goes first at teardown), or, to kill it,
as a ``durak host`` process. Games use the 24-card deck: half the moves of a 36-card game,
every kind of move all the same."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import msgpack
import pytest
from browser import LAN_NAME, OTHER_NAME, Browser, Viewport
from layout import Layout, measure
from pages import static_site
from phone import ROOT, Phone, choose, hoard, words
from web_tables import SHORT, OpenTable, WebTable

pytestmark = pytest.mark.slow


async def seated(browser: Browser, table: WebTable, name: str) -> tuple[Phone, int]:
    """A new page of the browser that joined the table as ``name``; and its seat."""
    phone = Phone(await browser.new_page(), table.url)
    return phone, await phone.join(name)


async def test_a_guest_joins_and_plays_a_whole_game_by_taps(
    tables: OpenTable, browser: Browser
) -> None:
    """Against an AI seat, to the end panel, the deal checked by the page itself (it
    has no crypto.subtle: the page is not a secure context, as on a phone at the party)."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT)
    phone, seat = await seated(browser, table, "Anna")
    assert await phone.page.evaluate("window.isSecureContext") is False
    assert table.room().seats[seat].name == "Anna"
    await phone.start()
    end = await phone.play_game()
    assert end.ended and end.deal == "verified"
    assert phone.actions >= 3
    room = await table.until(lambda room: room.series.games == 1)
    assert room.seats[seat].status == "connected"


async def test_two_pages_and_a_desktop_bot_play_one_game(
    tables: OpenTable, browser: Browser
) -> None:
    """The owner on one phone, a guest on another who taps Ready, and `durak bot` from a
    desktop: the owner starts once everyone is ready, and all three play to the end."""
    table = await tables(seats=3, rules=SHORT)
    owner, first = await seated(browser, table, "Anna")
    guest, second = await seated(browser, table, "Boris")
    bot = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "client",
            "bot",
            "--connect",
            f"127.0.0.1:{table.host.port}",
            "--level",
            "easy",
            "--games",
            "1",
            "--name",
            "Desk",
            "--no-reconnect",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
    )
    try:
        await guest.ready()
        # (an empty seat is never ready; the owner starts rather than says ready)
        ready = await table.until(lambda room: all(s.ready for s in room.seats[1:]))
        await owner.start()
        ends = await asyncio.gather(owner.play_game(), guest.play_game())
        assert all(end.ended for end in ends)
        assert owner.actions and guest.actions
        assert await asyncio.to_thread(bot.wait, 60) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert [seat.name for seat in ready.seats] == ["Anna", "Boris", "Desk"]
    assert (first, second, ready.owner) == (0, 1, 0)
    assert table.room().series.games == 1


async def test_a_reload_mid_game_is_back_in_the_seat(tables: OpenTable, browser: Browser) -> None:
    """The page keeps the seat's token: reloaded, it sits down again at once (no name
    asked), its hand as it was, and plays on."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT, hold=60)
    phone, seat = await seated(browser, table, "Anna")
    await phone.start()
    await phone.play_game(stop_after=3)
    before = await phone.wait("t.idle && t.legal.length")
    await phone.page.reload()
    after = await phone.wait("t.screen === 'table' && t.idle && t.legal.length")
    assert (after.seat, sorted(after.hand), after.legal) == (
        seat,
        sorted(before.hand),
        before.legal,
    )
    room = await table.until(lambda room: room.seats[seat].status == "connected")
    assert [s.name for s in room.seats if s.kind == "human"] == ["Anna"]
    await phone.play_game(stop_after=phone.actions + 2)


# Two quick taps on one card in one task of the page (so the host's answer to the first
# cannot arrive in between): whether the page was idle right after them, and how many
# refusals it showed. A mouse's pointer (id 1) is always there to be captured.
DOUBLE_TAP = """((code) => {
  const node = document.querySelector(`.card.face[data-card="${code}"]`);
  const box = node.getBoundingClientRect();
  const at = {bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2,
              pointerId: 1, pointerType: "mouse", isPrimary: true};
  for (let i = 0; i < 2; i++) {
    node.dispatchEvent(new PointerEvent("pointerdown", at));
    node.dispatchEvent(new PointerEvent("pointerup", at));
  }
  return window.durakTest.idle;
})"""


async def test_a_double_tap_plays_the_card_once(tables: OpenTable, browser: Browser) -> None:
    """A card whose one move a tap makes, tapped twice before the host answers: the move
    is sent once (no refusal shown for a second), and the page waits for the answer
    before it counts as idle or takes another move."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT)
    phone, seat = await seated(browser, table, "Anna")
    await phone.start()
    while True:
        state = await phone.wait("t.screen === 'table' && t.idle && t.legal.length")
        moves: dict[str, list[dict[str, object]]] = {}
        for action in state.legal:
            for code in action.get("cards", [action.get("card")]):
                if code is not None:  # (Take and Pass name no card)
                    moves.setdefault(code, []).append(action)
        once = [code for code, mine in moves.items() if len(mine) == 1]
        once = [code for code in once if moves[code][0]["verb"] != "transfer"]
        if once:
            break
        await phone.play_game(stop_after=phone.actions + 1)
    code = once[0]
    toasts = "[...document.querySelectorAll('.toast')].map((n) => n.textContent)"
    earlier = await phone.page.evaluate(toasts)  # the game's first toasts may still show
    idle = await phone.page.evaluate(f"({DOUBLE_TAP})({json.dumps(code)})")
    assert idle is False
    after = await phone.wait(f"t.idle && t.key !== {json.dumps(state.key)}")
    assert code not in after.hand
    await asyncio.sleep(0.5)  # a refusal of a second move would be shown by now
    assert [text for text in await phone.page.evaluate(toasts) if text not in earlier] == []
    assert table.room().seats[seat].status == "connected"


async def test_offline_then_online_is_back_in_the_seat(tables: OpenTable, browser: Browser) -> None:
    """A dead spot: the page goes off the network until the host's heartbeat gives up on
    it (the seat held), then comes back online and reconnects to the same seat."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT, hold=60, silence=3)
    phone, seat = await seated(browser, table, "Anna")
    await phone.start()
    await phone.play_game(stop_after=2)
    await phone.page.online(False)
    await table.until(lambda room: room.seats[seat].status == "away")
    await phone.page.online(True)
    await table.until(lambda room: room.seats[seat].status == "connected")
    state = await phone.wait("t.link === 'open' && t.screen === 'table'")
    assert state.seat == seat
    await phone.play_game(stop_after=phone.actions + 2)
    # while offline the browser logs each reconnection it could not make; nothing else
    offline = [e for e in phone.page.errors if "ERR_INTERNET_DISCONNECTED" in e]
    assert phone.page.errors == offline
    phone.page.errors.clear()


async def test_a_phone_asleep_past_the_silence_wakes_up_in_its_seat(
    tables: OpenTable, browser: Browser
) -> None:
    """The phone goes into a pocket: its tab hidden and frozen, no script runs and the
    browser drops its socket (as iOS does a sleeping page's); the seat is away. Woken, the
    page sits down again with its token, its hand as it was, and plays on."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT, hold=60, silence=3)
    phone, seat = await seated(browser, table, "Anna")
    await phone.start()
    await phone.play_game(stop_after=2)
    before = await phone.wait("t.idle && t.legal.length")
    await phone.page.sleep()
    await table.until(lambda room: room.seats[seat].status == "away")
    await phone.page.wake()
    await table.until(lambda room: room.seats[seat].status == "connected")
    after = await phone.wait("t.link === 'open' && t.idle && t.legal.length")
    assert (after.screen, after.seat, sorted(after.hand)) == ("table", seat, sorted(before.hand))
    await phone.play_game(stop_after=phone.actions + 2)
    dropped = "failed: Page entered Back-Forward Cache"  # the browser's word, not the page's
    assert [error for error in phone.page.errors if dropped not in error] == []
    phone.page.errors.clear()


HOSTILE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="hostile.js" defer></script></head><body></body></html>
"""
# Another site's page, open on a guest's phone, tries the table's door on the LAN.
HOSTILE_JS = """
window.outcome = {opened: false, closed: null};
const socket = new WebSocket(`ws://durak.lan:${location.hash.slice(1)}/ws`);
socket.onopen = () => { outcome.opened = true; };
socket.onclose = (event) => { outcome.closed = event.code; };
"""


async def test_a_page_of_another_site_cannot_reach_the_table(
    tables: OpenTable, browser: Browser, tmp_path: Path
) -> None:
    """Its WebSocket to the door is refused before the handshake (403, for its Origin),
    and the guest at the table plays on as if nothing happened."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT)
    phone, seat = await seated(browser, table, "Anna")
    await phone.start()
    (tmp_path / "index.html").write_text(HOSTILE, encoding="utf-8")
    (tmp_path / "hostile.js").write_text(HOSTILE_JS, encoding="utf-8")
    async with static_site(tmp_path) as port:
        hostile = await browser.new_page()
        await hostile.goto(f"http://{OTHER_NAME}:{port}/#{table.host.web_port}")
        closed = await hostile.wait_for("window.outcome && outcome.closed")
    assert closed == 1006 and await hostile.evaluate("outcome.opened") is False
    assert len(hostile.errors) == 1 and "403" in hostile.errors[0], hostile.errors
    hostile.errors.clear()
    await phone.play_game(stop_after=2)
    room = table.room()
    assert [s.name for s in room.seats if s.kind == "human"] == ["Anna"]
    assert room.watching == () and room.seats[seat].status == "connected"


LAYOUTS = [
    Viewport(390, 844),  # a phone held upright
    Viewport(360, 640),  # a small one
    Viewport(844, 390),  # a phone on its side
    Viewport(820, 1180),  # a tablet
    Viewport(1366, 768, scale=1, mobile=False),  # a laptop
]
PHONES = LAYOUTS[:3]
BEATEN = "document.querySelector('.discard .count') !== null"
# The top bar's choice (``select.lang``, ``select.speed``) set to a value, as a player's
# pick does
PICK = """((selector, value) => {
  const choice = document.querySelector(selector);
  choice.value = value;
  choice.dispatchEvent(new Event('change'));
  return true;
})(%s, %s)"""


def pick(selector: str, value: str) -> str:
    return PICK % (json.dumps(selector), json.dumps(value))


# The status line saying ``text`` until the page next draws it (no move comes in between).
SAYS = "(document.querySelector('.table .status').textContent = %s, true)"


def longest_status(language: str) -> str:
    """The longest thing the table's status line says in ``language``: two lines on a
    phone, upright or on its side."""
    texts = words(language)
    return max((texts[k] for k in texts if k.startswith(("status.", "intent."))), key=len)


def roomy(layout: Layout) -> list[str]:
    """What is wrong with the table on a tablet upright, besides the seats' faults: its
    cards sized for the phone, not for the space, as the window's are. The piles' cards
    (nine tenths of a card of the bout; not the trump lying across) are at least a ninth
    of the screen's height, 131 px: a phone's cards measured 115 px there, a tablet's are up
    to 144 px, less as the bout's cards are made to clear the piles, more in a turned back's
    box."""
    faults = layout.seats()
    if (layout.width, layout.height) != (820, 1180):
        return faults
    piles = [(name, r) for name, r, _ in layout.piles if ".under" not in name]
    return faults + [
        f"{name} is small for a tablet: {r}" for name, r in piles if r.height < layout.height / 9
    ]


FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


async def layouts(
    phone: Phone,
    screen: str,
    shots: Path,
    check: Callable[[Layout], list[str]] = Layout.faults,
    sizes: list[Viewport] = LAYOUTS,
    then: str | None = None,
    always: bool = True,
) -> list[str]:
    """The faults (``check``'s) of the page's current screen in each layout of ``sizes``
    (screenshots into ``shots``: of each, or unless ``always`` of those with faults),
    ``then`` (JavaScript) run on it in each before it is looked at; the page left at the
    phone's size again."""
    faults = []
    for viewport in sizes:
        await phone.page.set_viewport(viewport)
        await phone.page.evaluate(FRAMES)
        await phone.wait("t.idle")
        if then is not None:
            await phone.page.evaluate(then)
        found = check(await measure(phone.page))
        if always or found:
            await phone.page.screenshot(shots / f"{screen}-{viewport.name}.png")
        faults += [f"{screen} {viewport.name}: {fault}" for fault in found]
    await phone.page.set_viewport(LAYOUTS[0])
    await phone.page.evaluate(FRAMES)  # (laid out again before the next tap finds its card)
    return faults


async def test_every_layout_leaves_room_for_fingers(
    tables: OpenTable, browser: Browser, tmp_path: Path
) -> None:
    """Phones upright, small and on their side, a tablet and a laptop, at six seats (the
    most the room and the table must place): on the name screen, in the room and at the
    table on the guest's turn (its buttons shown), every tap target is 44 px or more,
    the room's Start on screen on a phone on its side,
    none overlaps another or the hand, the whole hand is on screen at the table, and each
    card of it shows enough to be tapped; no seat's plate is under another seat's plate or
    cards, and the piles' marks keep off the buttons and the plates (looked at again once
    a bout is beaten off: "N beaten" by the buttons of a phone on its side), then again
    in Russian; nothing drawn at the table is past the screen's edge (the piles at the
    sides of a tablet), and the status line keeps clear of the buttons when it says its
    longest (two lines). The screenshots stay in the test's folder."""
    table = await tables(seats=6, ai=("easy",) * 5)
    phone = Phone(await browser.new_page(), table.url)
    await phone.page.goto(table.url)
    await phone.wait("t.screen === 'name'")
    faults = await layouts(phone, "name", tmp_path)
    await phone.page.tap("#name-input")
    await phone.page.type_text("Anna")
    await phone.tap_button("name.continue")
    await phone.wait("t.screen === 'room' && t.seat !== null")
    faults += await layouts(phone, "room", tmp_path)
    await phone.page.set_viewport(LAYOUTS[2])  # Start is tapped on a phone on its side:
    await phone.page.evaluate(FRAMES)  # (the tap fails on a button off the screen)
    await phone.start()
    await phone.wait("t.screen === 'table' && t.idle && t.legal.length")
    faults += await layouts(phone, "table", tmp_path)
    # on, by taps, to a turn of ours with a discard pile and its "N beaten": the plates and
    # the piles' marks again (a hand grown by then is the first turn's check, not this
    # one's). At six seats the stock is empty from the deal, and a deal can put us out
    # with the first bout beaten off, before such a turn: then on into the next game
    while True:
        state = await phone.wait("t.ended || (t.screen === 'table' && t.idle && t.legal.length)")
        if state.ended:
            await phone.tap_button("table.rematch")
            await phone.wait("!t.ended && t.screen === 'table'")
            continue
        if await phone.page.evaluate(BEATEN):
            break
        await phone.play(choose(state.legal), state)
        await phone.wait(f"t.ended || t.key !== {json.dumps(state.key)}")
    faults += await layouts(phone, "beaten", tmp_path, roomy)
    long = SAYS % json.dumps(longest_status("en"))
    faults += await layouts(phone, "status", tmp_path, Layout.seats, then=long)
    # other words: the status and "N beaten" again
    await phone.page.evaluate(pick("select.lang", "ru"))
    faults += await layouts(phone, "beaten-ru", tmp_path, Layout.seats)
    long = SAYS % json.dumps(longest_status("ru"))
    faults += await layouts(phone, "status-ru", tmp_path, Layout.seats, then=long)
    assert not faults, "\n".join([f"screenshots: {tmp_path}", *faults])


# Once some plate has a bubble: for each plate, whether it has one and is marked so.
BUBBLED = """(() => {
  const plates = [...document.querySelectorAll('.table .plate')];
  if (!plates.some((plate) => plate.querySelector('.bubble'))) return null;
  return plates.map((plate) =>
    [!!plate.querySelector('.bubble'), plate.classList.contains('speaking')]);
})()"""

# Every plate at the table saying ``role`` and under a bubble saying ``said``, as the page
# draws them (a plate with a bubble is marked ``speaking``); the stylesheet places them.
SAYING = """(() => {
  for (const plate of document.querySelectorAll('.table .plate')) {
    plate.querySelector('.role').textContent = %s;
    plate.querySelector('.bubble')?.remove();
    const bubble = document.createElement('div');
    bubble.className = 'bubble';
    bubble.textContent = %s;
    plate.append(bubble);
    plate.classList.add('speaking');
  }
  return true;
})()"""


# Every plate at the table saying ``role``, the ``i``-th alone under a bubble saying
# ``said`` (as the page draws them), and at once (before the page next draws its plates)
# what lies over the bubble's words, on a 4-pixel grid inside its padding and rounded
# corners: the seat of each other plate found on top of them.
COVERED = """((i, role, said) => {
  const plates = [...document.querySelectorAll('.table .plate')];
  for (const plate of plates) {
    plate.querySelector('.role').textContent = role;
    plate.querySelector('.bubble')?.remove();
    plate.classList.remove('speaking');
  }
  const bubble = document.createElement('div');
  bubble.className = 'bubble';
  bubble.textContent = said;
  plates[i].append(bubble);
  plates[i].classList.add('speaking');
  const layer = document.querySelector('.table .plates');
  layer.style.pointerEvents = 'auto';  // (plates let taps through: found by none)
  const r = bubble.getBoundingClientRect();
  const over = new Set();
  for (let y = r.top + 4; y <= r.bottom - 4; y += 4) {
    for (let x = r.left + 10; x <= r.right - 10; x += 4) {
      const plate = document.elementFromPoint(x, y)?.closest('.plate');
      if (plate && plate !== plates[i]) over.add(Number(plate.dataset.seat));
    }
  }
  layer.style.pointerEvents = '';
  return [...over];
})(%d, %s, %s)"""


def longest_role(language: str) -> str:
    """The longest thing a seat's plate says under its name in ``language``: a role, a
    status (away, back in a minute, a stand-in) or the place a seat went out in."""
    texts = words(language)
    place = texts["table.out_place"].format(place=texts["ordinal"].format(n=6))
    keys = [k for k in texts if k.startswith(("role.", "seat_status."))]
    return max([texts[k] for k in keys if k != "seat_status.connected"] + [place], key=len)


def longest_bubble(language: str) -> str:
    """The longest thing said in a bubble over a plate in ``language``: what a seat did
    (picking up 18 cards), a reaction, or that it is thinking."""
    texts = words(language)
    keys = [k for k in texts if k.startswith(("said.", "emote.")) or k == "web.thinking"]
    return max((texts[k].format(n=18) for k in keys), key=len)


async def test_plates_say_their_words_whole_and_bubbles_stay_on_screen(
    tables: OpenTable, browser: Browser, tmp_path: Path
) -> None:
    """At six seats, in every language of the page and at every size of screen, each
    plate shows the longest role or status of its language whole (no "отбив…"), and a
    bubble of the longest words said over each plate stays on the screen (a plate at the
    side of a small phone has little room beside it), with all else as the layouts above
    want it. A bubble under one plate lies over the plates beside it (on a phone the
    Russian words under a seat across the top reach down past the side seat's plate). The
    screenshots stay in the test's folder."""
    table = await tables(seats=6, ai=("easy",) * 5)
    phone, _ = await seated(browser, table, "Anna")
    await phone.page.reduce_motion(True)  # (a bubble pops in: measured at its full size)
    await phone.start()
    # the page's own bubbles (what the AIs do after the guest's move): a plate is marked
    # while it has one
    await phone.play_game(stop_after=1)
    marks = await phone.page.wait_for(BUBBLED, 30)
    assert marks and all(bubble == marked for bubble, marked in marks), marks
    await phone.wait("t.screen === 'table' && t.idle && t.legal.length")
    faults: list[str] = []
    for language in ("en", "de", "nl", "ru"):
        await phone.page.evaluate(pick("select.lang", language))
        said = SAYING % (json.dumps(longest_role(language)), json.dumps(longest_bubble(language)))
        faults += await layouts(phone, f"words-{language}", tmp_path, Layout.seats, then=said)
    for viewport in PHONES:
        await phone.page.set_viewport(viewport)
        for plate in range(5):
            said = (json.dumps(longest_role("ru")), json.dumps(longest_bubble("ru")))
            over = await phone.page.evaluate(COVERED % (plate, *said))
            await phone.page.screenshot(tmp_path / f"bubble{plate}-{viewport.name}.png")
            if over:
                faults.append(f"{viewport.name}: the bubble of plate {plate} is under seats {over}")
    assert not faults, "\n".join([f"screenshots: {tmp_path}", *faults])


async def test_a_big_hand_leaves_every_card_a_fingertip(
    tables: OpenTable, browser: Browser, tmp_path: Path
) -> None:
    """A guest who takes every bout (a whole 36-card game against one AI seat) holds the
    biggest hands a game reaches: at each new size of the hand, on a phone upright, small
    and on its side, every card of it shows a 44 px square and everything else holds as
    in the test above. The screenshots (of every sixth size, and of any with a fault)
    stay in the test's folder."""
    table = await tables(seats=2, ai=("easy",))
    phone, _ = await seated(browser, table, "Anna")
    await phone.start()
    faults: list[str] = []
    biggest = 0
    while True:
        state = await phone.wait("t.ended || (t.screen === 'table' && t.idle && t.legal.length)")
        if state.ended:
            break
        if len(state.hand) > biggest:
            biggest = len(state.hand)
            shots = biggest % 6 == 0
            faults += await layouts(phone, f"hand{biggest}", tmp_path, sizes=PHONES, always=shots)
        await phone.play(hoard(state.legal), state)
        await phone.wait(f"t.ended || t.key !== {json.dumps(state.key)}")
    assert biggest >= 18, f"the biggest hand held only {biggest} cards"
    assert not faults, "\n".join([f"screenshots: {tmp_path}", *faults])


# From the page's own origin: one WebSocket to the door, one message sent, then what the
# door answers (binary messages as lists of bytes) and the close's code.
STRAY = """new Promise((done) => {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  socket.binaryType = "arraybuffer";
  const heard = [];
  socket.onopen = () => socket.send(%s);
  socket.onmessage = (event) => heard.push([...new Uint8Array(event.data)]);
  socket.onclose = (event) => done({heard, code: event.code});
})"""


@pytest.mark.parametrize(
    ("message", "goodbye", "code"),
    [
        ('\'{"type": "hello"}\'', "bad_frame", 1000),  # a text message
        ("new Uint8Array(64 * 1024 + 1)", None, 1009),  # over the frame maximum
    ],
    ids=["text", "oversized"],
)
async def test_a_pages_bad_message_gets_the_documented_close(
    tables: OpenTable, browser: Browser, message: str, goodbye: str | None, code: int
) -> None:
    """What the browser itself sees (docs/protocol.md sections 1 and 7): a text message
    is a bad_frame's goodbye, then a normal close; a message over 64 KiB is refused by
    the WebSocket (1009) before a byte of it reaches the protocol. The seated guest's
    page plays on."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT)
    phone, seat = await seated(browser, table, "Anna")
    answer = await phone.page.evaluate(STRAY % message)
    said = [msgpack.unpackb(bytes(data)) for data in answer["heard"]]
    assert [m["code"] for m in said] == ([goodbye] if goodbye else [])
    assert answer["code"] == code
    await phone.start()
    await phone.play_game(stop_after=1)
    assert table.room().seats[seat].status == "connected"


async def test_the_computer_players_have_the_windows_names(
    tables: OpenTable, browser: Browser
) -> None:
    """A host names its AI seats after their levels; the page, like the window, gives them
    first names (three "Normal" plates read alike), in the page's language."""
    table = await tables(seats=4, ai=("normal", "normal", "easy"), rules=SHORT)
    phone, _ = await seated(browser, table, "Anna")
    text = await phone.page.evaluate("document.body.innerText")
    assert all(name in text for name in ("Boris", "Vera", "Oleg")), text


# Each frame, for every card on the table: whether its place changed since the last frame;
# `longest` is the most frames in a row any card moved (a flight: one each frame).
MOTION = """window.motion = (() => {
  const last = new Map(), run = new Map();
  let longest = 0;
  const frame = () => {
    for (const card of document.querySelectorAll('.cards .card')) {
      const place = card.style.transform;
      const moved = last.has(card) && last.get(card) !== place;
      run.set(card, moved ? (run.get(card) ?? 0) + 1 : 0);
      last.set(card, place);
      longest = Math.max(longest, run.get(card));
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return {get longest() { return longest; }, reset() { longest = 0; }};
})(), true"""
SHEET = "getComputedStyle(document.querySelector('.sheet')).animationName"


async def test_less_motion_puts_the_cards_down_without_flights(
    tables: OpenTable, browser: Browser
) -> None:
    """A phone set to less motion (prefers-reduced-motion, emulated) sees each card put
    where it goes at once, where another sees it fly over several frames; and the sheets
    open without their fade. Switched while the page is open, as a player may."""
    table = await tables(seats=2, ai=("easy",), rules=SHORT)
    phone, _ = await seated(browser, table, "Anna")
    await phone.page.evaluate(MOTION)
    await phone.start()
    await phone.wait("t.idle && t.legal.length")
    assert await phone.page.evaluate("motion.longest") >= 4  # the deal flew
    await phone.page.tap("button", "☰")  # the log
    assert await phone.page.evaluate(SHEET) == "fade"
    await phone.tap_button("web.close")
    await phone.page.reduce_motion(True)
    await phone.page.evaluate("motion.reset()")
    await phone.play_game(stop_after=4)
    await phone.wait("t.idle")
    assert await phone.page.evaluate("motion.longest") <= 2
    await phone.page.tap("button", "☰")  # the log
    assert await phone.page.evaluate(SHEET) == "none"


SPEEDS = """(() => {
  const choice = document.querySelector('select.speed');
  return {chosen: choice.value, label: choice.getAttribute('aria-label'),
          offered: [...choice.options].map((option) => [option.value, option.textContent])};
})()"""


async def test_the_animation_speed_is_chosen_in_the_bar_and_kept(
    tables: OpenTable, browser: Browser
) -> None:
    """The bar offers the window's three animation speeds, slowest first, in the page's
    language; the one chosen is kept on the phone over a reload, mid-game. (The tests'
    pages start at Fast, as a player who chose it: tests/web/conftest.py.)"""
    table = await tables(seats=2, ai=("easy",), rules=SHORT, hold=60)
    phone, _ = await seated(browser, table, "Anna")
    await phone.page.evaluate(pick("select.lang", "ru"))
    ru = words("ru")
    shown = await phone.page.evaluate(SPEEDS)
    assert shown == {
        "chosen": "fast",
        "label": ru["settings.animation"],
        "offered": [[name, ru[f"speed.{name}"]] for name in ("slow", "normal", "fast")],
    }
    await phone.page.evaluate(pick("select.lang", "en"))  # the taps find English words
    await phone.start()
    await phone.play_game(stop_after=2)
    await phone.page.evaluate(pick("select.speed", "slow"))
    await phone.page.reload()
    await phone.wait("t.screen === 'table' && t.idle")
    assert (await phone.page.evaluate(SPEEDS))["chosen"] == "slow"
    await phone.play_game(stop_after=phone.actions + 2)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test starts, killed at teardown (asked for before ``browser``, so after
    the browser has gone)."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


async def test_a_host_killed_and_resumed_has_the_page_back_in_its_seat(
    processes: list[subprocess.Popen[str]], browser: Browser, tmp_path: Path
) -> None:
    """The host's laptop dies mid-game (kill -9) and is started again with `--resume` on
    its ports: the page, trying all the while, is back in its seat with the hand it had,
    without a name asked, and plays on."""
    base = [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--no-announce",
            "--seats", "2", "--ai", "easy", "--deck", "24", "--hold", "120",
            "--save-dir", str(tmp_path)]  # fmt: skip

    async def start(*extra: str) -> tuple[int, int]:
        """A host started: its table port and its web port, as it printed them."""
        process = subprocess.Popen(
            [*base, *extra],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(process)
        assert process.stdout is not None
        lines = process.stdout
        port = web = 0
        while not (port and web):
            line = await asyncio.to_thread(lines.readline)
            assert line, f"the host ended: {process.wait()}"
            if "listening on" in line:
                port = int(line.rsplit(":", 1)[1])
            elif "(web port " in line:
                web = int(line.split("(web port ", 1)[1].split(")", 1)[0])
        return port, web

    port, web = await start("--port", "0", "--web-port", "0")
    phone = Phone(await browser.new_page(), f"http://{LAN_NAME}:{web}/")
    seat = await phone.join("Anna")
    await phone.start()
    await phone.play_game(stop_after=3)
    before = await phone.wait("t.idle && t.legal.length")
    processes[0].kill()  # SIGKILL where there are signals: nothing saved on the way out
    processes[0].wait()
    await phone.wait("t.link === 'reconnecting'")
    assert await start("--port", str(port), "--web-port", str(web), "--resume") == (port, web)
    after = await phone.wait("t.link === 'open' && t.idle && t.legal.length", timeout=40)
    assert (after.screen, after.seat, sorted(after.hand), after.legal) == (
        "table",
        seat,
        sorted(before.hand),
        before.legal,
    )
    await phone.play_game(stop_after=phone.actions + 2)
    # while the host was down the browser logged each connection it could not make
    refused = [e for e in phone.page.errors if "ERR_CONNECTION_REFUSED" in e or "WebSocket" in e]
    assert phone.page.errors == refused
    phone.page.errors.clear()
