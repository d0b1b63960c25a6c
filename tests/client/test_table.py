"""The table scene: posted mouse and finger events play cards, drags drop on targets, the
buttons and hints follow the seat's view. Headless (SDL dummy drivers), stacked deals."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from tables import cards, deal, scene, settle, showing, start
from window import click, key

from client.app import App
from client.net.session import Emoted, RoomChanged, Snapshot
from client.screens.table.board import Board, deck_of
from client.screens.table.hud import end_lines
from client.screens.table.layout import Layout
from client.screens.table.notices import EndScene
from client.screens.table.panels import Overlay, PauseScene, PickerScene
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import (
    Attack,
    Beat,
    Card,
    Dealt,
    Drew,
    Pass,
    Rules,
    Series,
    Take,
    ThrowIn,
    Transfer,
    TrumpTurned,
)
from protocol import DealCheck, Room, SeatInfo

SIZE = (1280, 720)


pytestmark = pytest.mark.usefixtures("headless")


def where(app: App, card: Card) -> tuple[int, int]:
    board = scene(app).board
    assert board is not None
    sprite = board.cards[card]
    return round(sprite.pose.x), round(sprite.pose.y - sprite.lift)


def tap(app: App, pos: tuple[int, int]) -> None:
    w, h = app.size
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(
            pygame.event.Event(
                kind,
                x=pos[0] / w,
                y=pos[1] / h,
                dx=0.0,
                dy=0.0,
                finger_id=3,
                touch_id=0,
                pressure=1.0,
            )
        )
    app.step(0.02)


def drag(app: App, start: tuple[int, int], end: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False))
    app.step(0.02)
    for k in range(1, 6):
        x = start[0] + (end[0] - start[0]) * k // 5
        y = start[1] + (end[1] - start[1]) * k // 5
        pygame.event.post(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0), touch=False
            )
        )
        app.step(0.02)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1, touch=False))
    app.step(0.02)


def button(app: App, name: str) -> tuple[int, int] | None:
    """Where the button ``name`` of the top scene (the table, or its overlay) is."""
    top = app.stack[-1]
    assert isinstance(top, TableScene | Overlay)
    for b in top.buttons:
        if b.name == name:
            return b.rect.center
    return None


# --- attacking ------------------------------------------------------------------------------

ATTACK = ("6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh")  # we hold the lowest trump: we lead


def test_the_deal_puts_our_cards_in_our_hand_and_backs_at_the_opponent() -> None:
    app, _ = start(deal(Rules(), *ATTACK))
    board = scene(app).board
    assert board is not None
    assert sorted(board.hand) == sorted(cards(ATTACK[0]))
    assert board.counts[1] == 6 and board.stock == 36 - 12
    assert board.trump_card == Card.parse("Ks")


def test_a_click_on_a_glowing_card_leads_it() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    assert scene(app).looks()[Card.parse("7h")] == "glow"
    click(app, where(app, Card.parse("7h")))
    assert session.sent == [Attack.of("7h")]
    settle(app)
    assert scene(app).board.table == [[Card.parse("7h"), None]]  # type: ignore[union-attr]


def test_a_finger_tap_plays_like_a_click() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    tap(app, where(app, Card.parse("9d")))
    assert session.sent == [Attack.of("9d")]


def test_keyboard_plays_the_focused_card() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    hand = list(scene(app).board.hand)  # type: ignore[union-attr]
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RETURN)
    assert session.sent == [Attack((hand[0],))]


def test_a_dimmed_card_explains_itself_and_the_pass_button_appears() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    click(app, where(app, Card.parse("7h")))
    settle(app)
    assert button(app, "pass") is None  # nothing beaten yet
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    looks = scene(app).looks()
    assert looks[Card.parse("9d")] == "glow" and looks[Card.parse("8h")] == "dim"
    click(app, where(app, Card.parse("8h")))
    bubble = scene(app).choice.bubble
    assert bubble is not None and bubble[0] == "Its rank is not on the table."
    assert session.sent == [Attack.of("7h")]
    assert button(app, "take") is None
    assert [b.label for b in scene(app).buttons if b.name == "pass"] == ["Beaten"]
    click(app, where(app, Card.parse("9d")))
    assert session.sent[-1] == ThrowIn(Card.parse("9d"))
    settle(app)
    session.play(1, Beat(Card.parse("Td"), Card.parse("9d")))
    settle(app)
    click(app, button(app, "pass"))  # type: ignore[arg-type]
    assert session.sent[-1] == Pass()
    settle(app)
    board = scene(app).board
    assert board is not None and board.table == [] and board.discard == 4


def test_hints_off_means_no_bubble() -> None:
    settings = Settings()
    settings.hints = False
    app, session = start(deal(Rules(), *ATTACK), settings)
    click(app, where(app, Card.parse("7h")))
    settle(app)
    click(app, where(app, Card.parse("Jc")))
    assert scene(app).choice.bubble is None and session.sent == [Attack.of("7h")]


def test_h_switches_the_hints_and_says_so() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    key(app, pygame.K_h)
    bubble = scene(app).choice.bubble
    assert not app.settings.hints and bubble is not None and bubble[0] == "Hints off."
    click(app, where(app, Card.parse("7h")))
    settle(app)
    click(app, where(app, Card.parse("Jc")))  # a dimmed card: no word about it now
    assert scene(app).choice.bubble is None and session.sent == [Attack.of("7h")]
    key(app, pygame.K_h)
    bubble = scene(app).choice.bubble
    assert app.settings.hints and bubble is not None and bubble[0] == "Hints on."


# --- defending ------------------------------------------------------------------------------

DEFEND = ("7h 9h Ts 8d Jc Qc", "6s 6h 6d 8c Qd Kh")  # they hold the lowest trump: they lead


def test_a_tap_beats_the_only_card_it_can_beat() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    settle(app)
    assert button(app, "take") is not None and button(app, "pass") is None
    click(app, where(app, Card.parse("9h")))
    assert session.sent == [Beat(Card.parse("9h"), Card.parse("6h"))]
    settle(app)
    board = scene(app).board
    assert board is not None and board.table == [[Card.parse("6h"), Card.parse("9h")]]
    # the beating card lies across the card it beats
    attack, defence = board.cards[Card.parse("6h")].pose, board.cards[Card.parse("9h")].pose
    assert defence.x > attack.x and defence.y > attack.y and abs(defence.angle) > 8


def test_a_card_with_two_targets_highlights_them_and_a_tap_on_one_beats_it() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    click(app, where(app, Card.parse("Ts")))  # a trump: beats either
    table = scene(app)
    assert session.sent == [] and table.choice.selected == Card.parse("Ts")
    looks = table.looks()
    assert looks[Card.parse("6h")] == "target" and looks[Card.parse("6d")] == "target"
    click(app, where(app, Card.parse("6d")))
    assert session.sent == [Beat(Card.parse("Ts"), Card.parse("6d"))]


def test_esc_first_drops_the_chosen_card_then_asks_whether_to_leave() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    table = scene(app)
    click(app, where(app, Card.parse("Ts")))  # two cards it could beat: it is chosen
    assert table.choice.selected == Card.parse("Ts")
    key(app, pygame.K_ESCAPE)
    assert table.choice.selected is None and app.stack[-1] is table and session.sent == []
    key(app, pygame.K_ESCAPE)
    assert showing(app) is PauseScene and app.stack[-2] is table
    key(app, pygame.K_ESCAPE)  # a second Esc resumes: it never quits from the table
    assert app.stack[-1] is table and app.running


def test_a_card_dragged_onto_an_attack_card_beats_it() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    drag(app, where(app, Card.parse("Ts")), where(app, Card.parse("6h")))
    assert session.sent == [Beat(Card.parse("Ts"), Card.parse("6h"))]


def test_a_drag_dropped_back_on_the_hand_plays_nothing() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    settle(app)
    start_pos = where(app, Card.parse("9h"))
    drag(app, start_pos, (start_pos[0] + 60, start_pos[1]))
    assert session.sent == []
    settle(app)
    assert scene(app).board.dragged is None  # type: ignore[union-attr]


def test_take_by_button_and_by_key() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    settle(app)
    key(app, pygame.K_t)
    assert session.sent == [Take()]
    settle(app)
    assert button(app, "take") is None
    session.play(1, Pass())
    settle(app)
    board = scene(app).board
    assert board is not None and Card.parse("6h") in board.hand and board.table == []


def test_a_rejected_action_is_explained() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    reason = session.state.check(0, Pass())
    assert reason is not None
    scene(app).send(Pass())  # not ours to say: the host refuses
    assert scene(app).pending == Pass()
    settle(app)
    table = scene(app)
    assert table.pending is None
    assert table.choice.bubble is not None and table.choice.bubble[0] == reason.text


def test_transfer_from_our_seat() -> None:
    rules = Rules(players=3, transfer=True)
    # seat 2 holds the lowest trump (6s) and attacks seat 0 (us)
    state = deal(rules, "7d 9h Ts 8d Jc Qc", "8c 9c Tc Td Jd Qh", "6s 7h 6h Qd Kh 9d")
    app, session = start(state)
    assert state.attacker == 2 and state.defender == 0
    session.play(2, Attack.of("7h"))
    settle(app)
    assert button(app, "transfer") is not None
    click(app, button(app, "transfer"))  # type: ignore[arg-type]
    assert session.sent == [Transfer(Card.parse("7d"))]
    settle(app)
    board = scene(app).board
    assert board is not None and board.defender == 1 and len(board.table) == 2


# --- the end --------------------------------------------------------------------------------


def test_the_end_shows_the_ranking_and_offers_a_rematch() -> None:
    rules = Rules(deck_size=24)
    # a 24-card deck: 12 cards in the stock; play it out quickly with scripted moves
    state = deal(rules, "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state)
    while session.state.result is None:
        st = session.state
        for seat in (1, 0):
            legal = st.legal_actions(seat)
            if legal:
                action = next((a for a in legal if isinstance(a, Take)), legal[0])
                if seat == 0:
                    scene(app).send(action)
                else:
                    session.play(seat, action)
                break
        settle(app)
    table, end = scene(app), app.stack[-1]
    assert isinstance(end, EndScene) and table.over is not None
    title, rows, games = end_lines(table.over, table.names, table.seat)
    assert "Durak" in title and len(rows) == 2 and games.startswith("Series: 1 game")
    # the line on the deal, above the buttons: calm when verified, loud (red) when not
    over, buttons = table.over, [b for b in end.buttons if b.name in ("menu", "rematch")]
    top = min(b.rect.top for b in buttons)
    band = pygame.Rect(0, top - buttons[0].rect.h, app.screen.get_width(), buttons[0].rect.h)
    for check, loud in ((DealCheck("", "deal verified"), False), (DealCheck("seed", "?"), True)):
        end.over = dataclasses.replace(over, deal=check)
        table.draw(app.screen)
        end.draw(app.screen)
        red = sum(
            1
            for x in range(band.left, band.right, 2)
            for y in range(band.top, band.bottom)
            if (c := app.screen.get_at((x, y))).r >= 240 and 80 <= c.g <= 140 and c.b <= 125
        )
        assert (red > 10) == loud, (check, red)
    end.over = over
    click(app, button(app, "rematch"))  # type: ignore[arg-type]
    assert session.rematches == 1 and app.stack[-1] is table


def test_a_resize_relays_the_table_without_losing_cards() -> None:
    app, _ = start(deal(Rules(), *ATTACK))
    app.window.window.size = (720, 1280)  # as the system resizes it: SDL posts the event
    settle(app)
    board = scene(app).board
    assert board is not None and board.layout.size == (720, 1280) and board.layout.mode == "tall"
    assert len([c for c in board.hand if c in board.cards]) == 6


# --- snapshots and speed --------------------------------------------------------------------


def test_a_snapshot_that_differs_glides_cards_instead_of_jumping() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    table = scene(app)
    board = table.board
    assert board is not None and table.view is not None
    before = {c: board.cards[c].pose for c in board.hand}
    gone, new = Card.parse("7h"), Card.parse("Ah")
    hand = tuple(sorted([c for c in table.view.hand if c != gone] + [new]))
    session.inbox.put(Snapshot(dataclasses.replace(table.view, hand=hand)))
    app.step(0.01)
    for card in hand:
        if card in before:  # every card still starts where it was: no jump
            pose = board.cards[card].pose
            assert abs(pose.x - before[card].x) < 0.2 * board.layout.card_w
    assert board.cards[new].pose != board.home(new)  # it flies in from the stock
    settle(app)
    for card in hand:
        home = board.home(card)
        assert home is not None and board.cards[card].pose == home
    assert gone not in board.cards  # swept off to the discard pile


def test_the_animation_speed_setting_shortens_every_flight() -> None:
    layout = Layout(SIZE, 2)
    slow, fast = Board(layout, 0, Rules(), speed=0.6), Board(layout, 0, Rules(), speed=1.8)
    event = Dealt(0, 6, tuple(cards("6s 7h 8h 9d Tc Jc")))
    assert fast.apply(Dealt(1, 6, None)) == 0.0 == slow.apply(Dealt(1, 6, None))
    assert fast.apply(event) * 3 == pytest.approx(slow.apply(event))


def test_an_opponents_lead_flies_from_their_seat_and_turns_face_up() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    table = scene(app)
    table.pacer.drain()
    while table.pacer.waiting:  # each shown at once, before any animation has played
        table._show(table.pacer.waiting.popleft())
    sprite = table.board.cards[Card.parse("6h")]  # type: ignore[union-attr]
    seat = table.board.layout.seats[1].fan  # type: ignore[union-attr]
    assert sprite.face == 0.0 and abs(sprite.pose.y - seat.y) < table.board.layout.card_h  # type: ignore[union-attr]
    settle(app)
    assert sprite.face == 1.0 and sprite.pose == table.board.home(Card.parse("6h"))  # type: ignore[union-attr]


def test_the_snapshot_after_an_opponents_lead_waits_until_its_card_has_flown() -> None:
    """The card starts to fly at once; the view that lets us beat it comes with the
    snapshot behind it, once the flight has been shown (synthetic frames, no clock)."""
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    before = table.view
    session.play(1, Attack.of("6h"))
    app.step(0.02)
    assert table.board is not None and Card.parse("6h") in table.board.cards
    assert table.view is before and table.behind and button(app, "take") is None
    frames = 0
    while table.view is before and frames < 100:
        app.step(0.02)
        frames += 1
    assert frames > 1  # held back while the card flew
    assert table.view is not None and table.view.table == ((Card.parse("6h"), None),)
    assert not table.behind and table.idle
    settle(app)
    assert button(app, "take") is not None


def test_dragging_a_card_lights_up_what_it_can_beat() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    start_pos = where(app, Card.parse("9h"))  # beats 6h only
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start_pos, button=1, touch=False)
    )
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION,
            pos=(start_pos[0], start_pos[1] - 80),
            rel=(0, 0),
            buttons=(1, 0, 0),
            touch=False,
        )
    )
    app.step(0.02)
    looks = scene(app).looks()
    assert looks.get(Card.parse("6h")) == "target" and Card.parse("6d") not in looks
    assert scene(app).board.dragged == Card.parse("9h")  # type: ignore[union-attr]


def test_sounds_follow_the_play_and_mute_silences_them(monkeypatch: pytest.MonkeyPatch) -> None:
    app, session = start(deal(Rules(), *DEFEND))
    played: list[str] = []
    monkeypatch.setattr(app.assets, "play", lambda name, volume=1.0: played.append(name))
    session.play(1, Attack.of("6h"))
    settle(app)
    assert "play" in played and "turn" in played  # a card lands; it is our turn to defend
    click(app, where(app, Card.parse("9h")))
    settle(app)
    assert "beat" in played
    played.clear()
    key(app, pygame.K_m)
    assert app.settings.muted
    session.play(1, ThrowIn(Card.parse("6d")))
    settle(app)
    assert played == []


@pytest.mark.parametrize("size", [24, 36, 52])
def test_deck_of_matches_the_engine(size: int) -> None:
    from engine.cards import deck_mask

    assert sum(1 << c.index for c in deck_of(Rules(deck_size=size))) == deck_mask(size)


def _dealt_board() -> tuple[Board, Card]:
    board = Board(Layout(SIZE, 2), 0, Rules(deck_size=24))
    board.apply(Dealt(0, 6, tuple(cards("9s Th Jh Qh Kh Ah"))))
    board.apply(Dealt(1, 6, None))
    trump = Card.parse("As")
    board.apply(TrumpTurned(trump, None))
    for _ in range(100):
        board.update(0.05)
    assert board.stock == 12 and board.cards[trump].pose == board.layout.trump_pose()
    board.stock = 1  # as if the stock had been drawn down to the trump card
    return board, trump


def test_the_trump_card_is_the_last_card_drawn_by_an_opponent() -> None:
    board, trump = _dealt_board()
    board.apply(Drew(1, 1, None))
    sprite = board.cards[trump]
    assert sprite.vanish and sprite.dest == ("seat", 1) and not sprite.in_stock
    for _ in range(100):
        board.update(0.05)
    assert trump not in board.cards and board.counts[1] == 7 and board.stock == 0


def test_the_trump_card_drawn_by_us_flies_from_under_the_stock_into_the_hand() -> None:
    board, trump = _dealt_board()
    start = board.cards[trump].pose
    board.apply(Drew(0, 1, (trump,)))
    sprite = board.cards[trump]
    assert sprite.pose == start and not sprite.in_stock and not sprite.vanish
    for _ in range(100):
        board.update(0.05)
    assert trump in board.hand and sprite.pose == board.home(trump)


def test_a_finger_drag_onto_an_attack_card_beats_it() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    (sx, sy), (ex, ey) = where(app, Card.parse("Ts")), where(app, Card.parse("6d"))
    w, h = app.size
    steps = [(pygame.FINGERDOWN, sx, sy)]
    steps += [
        (pygame.FINGERMOTION, sx + (ex - sx) * k / 4, sy + (ey - sy) * k / 4) for k in (1, 2, 3, 4)
    ]
    steps += [(pygame.FINGERUP, ex, ey)]
    for kind, x, y in steps:
        pygame.event.post(
            pygame.event.Event(
                kind, x=x / w, y=y / h, dx=0.0, dy=0.0, finger_id=7, touch_id=0, pressure=1.0
            )
        )
        # the mouse events SDL makes from a touch: they must not play a second time
        mouse = {
            pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN,
            pygame.FINGERUP: pygame.MOUSEBUTTONUP,
        }.get(kind)
        if mouse is not None:
            pygame.event.post(
                pygame.event.Event(mouse, pos=(round(x), round(y)), button=1, touch=True)
            )
        app.step(0.02)
    assert session.sent == [Beat(Card.parse("Ts"), Card.parse("6d"))]


def _room(rules: Rules, *statuses: str) -> RoomChanged:
    seats = tuple(
        SeatInfo("ai", "normal", "normal")
        if s == "ai"
        else SeatInfo("human", f"P{i}", None, s == "connected", s)
        for i, s in enumerate(statuses)
    )
    room = Room("T", "playing", 0, seats, rules, False, False, Series.new(rules.players), 1)
    return RoomChanged(room)


def test_each_opponents_seat_shows_its_connection_status() -> None:
    rules = Rules(players=3)
    app, session = start(deal(rules, "6h 7h 8h 9h Th Jh", "6c 7c 8c 9c Tc Jc", "6d 7d 8d 9d Td Jd"))
    table = scene(app)
    assert table.seat_status(1) is None  # nothing known of the room yet
    session.inbox.put(_room(rules, "connected", "away", "connected"))
    settle(app)
    assert table.seat_status(1) == "seat_status.away"
    assert table.seat_status(2) == "seat_status.connected"
    session.inbox.put(_room(rules, "connected", "stand_in", "ai"))
    settle(app)
    assert table.seat_status(1) == "seat_status.stand_in"
    assert table.seat_status(2) is None  # a host AI seat is just a player
    app.step(0.05)  # draws the labels and the dots


def test_an_emote_picked_shows_by_our_seat_and_others_show_by_theirs() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    table = scene(app)
    assert button(app, "emote:ha") is None  # the picker is closed
    at = button(app, "emote")
    assert at is not None
    click(app, at)
    assert showing(app) is PickerScene
    pick = button(app, "emote:ha")
    assert pick is not None
    click(app, pick)  # the scripted session relays it back, as the host does
    assert showing(app) is None and table.emote_shown(0) == "ha"
    session.inbox.put(Emoted(1, "well_played"))
    app.step(0.05)
    assert table.emote_shown(1) == "well_played"
    app.step(0.05)  # both bubbles draw
    for _ in range(60):  # 3 s of frames: the bubbles have gone
        app.step(0.05)
    assert table.emote_shown(0) is None and table.emote_shown(1) is None
    assert session.sent == []  # an emote is no move


def test_e_opens_the_emote_picker_the_digits_pick_and_esc_closes_it() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    table = scene(app)
    key(app, pygame.K_e)
    assert showing(app) is PickerScene and button(app, "emote:nice") is not None
    key(app, pygame.K_ESCAPE)  # closes the picker, and only that
    assert app.stack[-1] is table
    key(app, pygame.K_e)
    key(app, pygame.K_e)  # E again closes it too
    assert showing(app) is None
    key(app, pygame.K_e)
    key(app, pygame.K_9)  # no ninth reaction: nothing, and no card played
    assert showing(app) is PickerScene and session.sent == []
    key(app, pygame.K_2)  # the second reaction, not the second card
    assert showing(app) is None and table.emote_shown(0) == "oops"
    assert session.sent == []
    key(app, pygame.K_2)  # the picker closed: the digits play cards again
    assert len(session.sent) == 1


@pytest.mark.parametrize(
    "size", [(1280, 720), (720, 1280), (480, 360), (360, 640), (320, 240), (240, 160)]
)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_emote_picker_stays_inside_the_window(size: tuple[int, int], language: str) -> None:
    app, _ = start(deal(Rules(), *ATTACK), Settings(language=language), size=size)
    key(app, pygame.K_e)
    table, top = scene(app), app.stack[-1]
    assert isinstance(top, PickerScene)
    picker = [b.rect for b in top.buttons if b.name.startswith("emote:")]
    others = [b.rect for b in table.buttons]
    assert len(picker) == 5
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(rect) for rect in picker), (size, picker)
    assert not any(a.colliderect(b) for i, a in enumerate(picker) for b in picker[i + 1 :])
    if min(size) >= 240:  # room for it above the row of buttons
        assert not any(rect.collidelist(others) >= 0 for rect in picker)
    click(app, picker[-1].center)  # the last one drawn on top is the one clicked
    assert table.emote_shown(0) == "ha"


@pytest.mark.parametrize(
    "size", [(480, 360), (640, 360), (360, 640), (720, 1280), (800, 600), (1280, 720)]
)
@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
def test_our_own_reaction_covers_no_button_and_no_card_of_our_hand(
    size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.screens.table import cues
    from client.ui import render

    bubbles: list[tuple[str, pygame.Rect]] = []

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        bubbles.append((text, render.draw_bubble(surface, assets, text, *args, **kwargs)))
        return bubbles[-1][1]

    monkeypatch.setattr(cues, "draw_bubble", spy)
    app, session = start(deal(Rules(), *DEFEND), Settings(language=language), size=size)
    session.play(1, Attack.of("6h"))
    settle(app)
    assert button(app, "take") is not None  # a button in the middle of the row
    key(app, pygame.K_e)
    key(app, pygame.K_4)  # well played
    table = scene(app)
    assert table.emote_shown(0) == "well_played"
    bubbles.clear()
    app.step(0.02)
    ((text, bubble),) = bubbles
    assert text == app.tr("emote.well_played")
    assert pygame.Rect((0, 0), size).contains(bubble)
    layout = table.layout
    assert layout is not None and table.board is not None
    cards = []
    for card in table.board.hand:
        pose = table.board.cards[card].pose
        rect = pygame.Rect(0, 0, round(layout.card_w), round(layout.card_h))
        rect.center = (round(pose.x), round(pose.y))
        cards.append(rect)
    assert bubble.collidelist([b.rect for b in table.buttons]) < 0, (bubble, table.buttons)
    assert bubble.collidelist(cards) < 0, (bubble, cards)


def test_beaten_waits_for_the_card_thrown_in_to_land() -> None:
    """Buttons that answer the table follow what the player sees: a card another player
    throws in hides Beaten from the frame it starts to fly (the view before it still says
    everything is beaten), and Beaten comes back by the time the card that covers it lands."""
    rules = Rules(players=3)
    # we hold the lowest trump (6s) and attack seat 1; seat 2 may throw in too
    state = deal(rules, "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh", "7d 7c 8d 9c Jd Qh")
    app, session = start(state)
    click(app, where(app, Card.parse("7h")))
    settle(app)
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    assert button(app, "pass") is not None  # all beaten: Beaten
    table, board = scene(app), scene(app).board
    assert board is not None
    session.play(2, ThrowIn(Card.parse("7d")))
    for _ in range(40):  # 0.8 s of frames, synthetic time
        app.step(0.02)
        if Card.parse("7d") in board.cards:  # shown: on its way or down, unbeaten
            assert button(app, "pass") is None
            key(app, pygame.K_b)  # the key waits as the button does
            assert session.sent == [Attack.of("7h")]
    assert table.idle and not board.busy and button(app, "pass") is None
    session.play(1, Beat(Card.parse("Td"), Card.parse("7d")))
    landed = None
    for frame in range(40):
        app.step(0.02)
        sprite = board.cards[Card.parse("Td")]
        if landed is None and sprite.motion is None:
            landed = frame
        if button(app, "pass") is not None:
            break
    else:
        raise AssertionError("Beaten never came back")
    assert landed is None or frame <= landed  # no later than the card is down
    key(app, pygame.K_b)
    assert session.sent[-1] == Pass()


@pytest.mark.parametrize(
    "size", [(480, 360), (640, 360), (360, 640), (720, 1280), (800, 600), (1280, 720)]
)
@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
def test_the_row_of_buttons_fits_the_window_and_each_label_fits_its_button(
    size: tuple[int, int], language: str
) -> None:
    from client.ui.render import button_px, label_px

    app, session = start(deal(Rules(), *DEFEND), Settings(language=language), size=size)
    session.play(1, Attack.of("6h"))
    settle(app)
    table = scene(app)
    assert button(app, "take") is not None
    rects = [b.rect for b in table.buttons]
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(rect) for rect in rects), (size, rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    corner = [b for b in table.buttons if b.name in ("menu", "sound", "emote")]
    for b in corner:  # their words at full size where the window is wide enough
        if size[0] >= 640:
            assert button_px(app.assets, b.rect, b.label) == label_px(b.rect.h), b.label


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (720, 1280)])
def test_the_tray_behind_our_hand_closes_above_the_bottom_of_the_window(
    size: tuple[int, int],
) -> None:
    """On our turn the hand sits on a tray; under the hand the window's last rows show the
    felt, not a tray cut off by the bottom edge (seen at 1920x1080)."""
    state = deal(Rules(players=2), "6s 7h 8h 9h Th Jh", "6d 7c 8c 9c Tc Jc")
    app, _ = start(state, size=size)
    table = scene(app)
    assert table.our_turn()
    table.draw(app.screen)
    felt = app.assets.felt(size)
    w, h = size
    for y in (h - 1, h - 3):
        assert app.screen.get_at((w // 2, y)) == felt.get_at((w // 2, y)), y
