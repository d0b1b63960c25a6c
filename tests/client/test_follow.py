"""A table a person can follow: another seat's action is shown long enough to be seen, the
seat says what it did, a finished bout stays a moment before it is swept away, and a seat
the table waits for shows that it is thinking. The window is stepped with synthetic
frames: every time here is the time those frames add up to, never the wall clock."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from test_table import DEFEND, button, deal, scene, settle, showing, start, where
from window import click, key

from client.app import App
from client.net.scripted import ScriptedSession
from client.net.session import GameOver
from client.screens.table.board import SWEEP_AFTER
from client.screens.table.narrate import line_text
from client.screens.table.notices import EndScene
from client.screens.table.overlays import log_panel
from client.screens.table.pacing import READING, THINK_DELAY
from client.screens.table.panels import LogScene, PauseScene
from client.screens.table.screen import TableScene
from client.screens.table.where import Where
from client.settings import Settings
from engine import Attack, Attacked, Beat, Card, GameResult, Pass, Rules, Series, Take, ThrowIn
from engine.ai.match import next_actor
from protocol import Room, SeatInfo

pytestmark = pytest.mark.usefixtures("headless")

FRAME = 0.02
# seat 1 (Boris) holds the lowest trump and attacks seat 2 (Vera); we watch from seat 0
WATCH = ("7h 9h Ts 8d Jc Qc", "6s 6h 6d 8c Qd Kh", "7s 9c Td Jd Qh Ah")


def watching(settings: Settings | None = None) -> App:
    app, session = start(deal(Rules(players=3), *WATCH), settings)
    assert session.state.attacker == 1 and session.state.defender == 2
    return app


def frames_until(app: App, done: object, limit: int = 600) -> int:
    """Synthetic frames stepped until ``done()`` holds."""
    for frame in range(limit):
        if done():  # type: ignore[operator]
            return frame
        app.step(FRAME)
    raise AssertionError("never happened")


@pytest.mark.parametrize("animation", ["slow", "normal", "fast"])
def test_an_opponents_answer_waits_until_their_lead_could_be_read(animation: str) -> None:
    settings = Settings(animation=animation)
    app = watching(settings)
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    frames_until(app, lambda: table.note_shown(1) is not None)
    assert table.note_shown(1) == "leads"
    board = table.board
    assert board is not None
    waited = frames_until(app, lambda: board.table and board.table[0][1] is not None)
    assert waited * FRAME >= READING[Attacked] / settings.speed - FRAME
    assert table.note_shown(2) == "beats"
    assert [line.kind for line in table.history.lines[-2:]] == ["led", "beat"]


def test_a_beaten_bout_stays_on_the_table_a_moment_before_the_sweep() -> None:
    app = watching()
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    settle(app)
    board = table.board
    assert board is not None
    at = {c: board.cards[c].pose for c in (Card.parse("6h"), Card.parse("7s"))}
    session.play(0, Pass())  # type: ignore[attr-defined]
    session.play(1, Pass())  # type: ignore[attr-defined]  # the bout is beaten
    frames_until(app, lambda: board.discard > 0)
    assert not board.table  # in the model the bout is over ...
    still = frames_until(
        app, lambda: any(board.cards[c].pose != at[c] for c in at if c in board.cards)
    )
    assert still * FRAME >= SWEEP_AFTER["beaten"] - 2 * FRAME  # ... on the cloth it stays
    settle(app)
    assert board.discard == 2 and all(c not in board.cards for c in at)


def test_a_seat_the_table_waits_for_shows_it_is_thinking_after_a_moment() -> None:
    app = watching()
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    asked = frames_until(app, lambda: table.cues.deciding == (2,))  # Vera must answer the lead
    assert table.thinking() == ()  # not at once ...
    shown = frames_until(app, lambda: table.thinking() == (2,))
    assert asked > 0 and shown * FRAME >= THINK_DELAY - FRAME  # ... after a moment
    app.step(FRAME)  # draws the cue
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    app.step(FRAME)
    assert 2 not in table.thinking()  # she answered: no more thinking
    settle(app)
    assert table.history.current is not None
    assert table.history.current.pairs == [(Card.parse("6h"), Card.parse("7s"))]


def test_our_own_actions_are_not_held_back() -> None:
    """Our lead's snapshot (which lets the defender's answer come) is not delayed to be read."""
    app, session = start(deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh"))
    table = scene(app)
    table.send(Attack.of("7h"))
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    board = table.board
    assert board is not None
    waited = frames_until(app, lambda: board.table and board.table[0][1] is not None)
    assert waited * FRAME < READING[Attacked]


# --- leaving ----------------------------------------------------------------------------


def test_menu_mid_game_asks_first_and_resume_goes_back_to_the_game() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    settle(app)
    table = scene(app)
    click(app, button(app, "menu"))  # type: ignore[arg-type]
    pause = app.stack[-1]
    assert isinstance(pause, PauseScene) and app.stack[-2] is table
    assert {b.name for b in pause.buttons} == {"resume", "leave"}  # nothing else to hit
    click(app, where(app, Card.parse("9h")))  # the hand under the panel plays nothing
    key(app, pygame.K_t)
    assert session.sent == []
    click(app, button(app, "resume"))  # type: ignore[arg-type]
    assert app.stack[-1] is table and not session.closed
    key(app, pygame.K_t)
    assert session.sent == [Take()]


@pytest.mark.parametrize("how", ["button", "key"])
def test_leave_leaves_the_table_and_closes_the_session(how: str) -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    key(app, pygame.K_ESCAPE)
    assert showing(app) is PauseScene
    if how == "button":
        click(app, button(app, "leave"))  # type: ignore[arg-type]
    else:
        key(app, pygame.K_q)
    assert app.stack[-1] is not table and session.closed and app.running


@pytest.mark.parametrize("lan", [False, True])
def test_the_leave_question_says_what_becomes_of_the_seat(
    lan: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.screens.table import panels

    told: list[bool] = []
    real = panels.draw_pause
    monkeypatch.setattr(
        panels,
        "draw_pause",
        lambda s, a, kind, tr: told.append(kind.lan) or real(s, a, kind, tr),
    )
    app, _ = start(deal(Rules(), *DEFEND))
    table = scene(app)
    if lan:  # handed over by a LAN room screen
        table.where, table.back = Where.LAN, lambda told: None
    key(app, pygame.K_ESCAPE)
    app.step(FRAME)
    assert told and told[-1] is lan


def test_the_pause_against_the_computer_stops_the_game_until_resumed() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    key(app, pygame.K_ESCAPE)
    app.step(FRAME)
    assert showing(app) is PauseScene and session.paused == [True]
    key(app, pygame.K_ESCAPE)  # Esc again resumes
    app.step(FRAME)
    assert showing(app) is not PauseScene and session.paused == [True, False]
    assert not session.back_soon_marks


def test_at_a_table_with_others_the_pause_offers_back_in_a_minute() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    table.where, table.back = Where.LAN, lambda told: None  # handed over by a LAN room
    room = Room(
        "T",
        "playing",
        0,
        (SeatInfo("human", "Me", connected=True),) * 2,
        Rules(),
        False,
        False,
        Series.new(2),
        1,
    )
    table.room = room
    key(app, pygame.K_ESCAPE)
    app.step(FRAME)
    assert showing(app) is PauseScene and not session.paused  # the game goes on
    click(app, button(app, "mark"))  # type: ignore[arg-type]
    assert session.back_soon_marks == [True]
    click(app, button(app, "resume"))  # type: ignore[arg-type]
    assert session.back_soon_marks == [True, False] and not session.paused


def test_after_the_game_menu_leaves_without_asking() -> None:
    app, _ = start(deal(Rules(), *DEFEND))
    table = scene(app)
    table.over = GameOver(GameResult((1, 0), 1), Series.new(2))
    table.press_button("result")  # the end panel
    app.step(FRAME)
    assert showing(app) is EndScene
    click(app, button(app, "menu"))  # type: ignore[arg-type]
    assert app.stack[-1] is not table


# --- what just happened -------------------------------------------------------------------


def test_l_opens_the_log_of_the_game_in_the_players_language_and_closes_it() -> None:
    app, session = start(deal(Rules(), *DEFEND), Settings(language="de"))
    session.play(1, Attack.of("6h"))
    settle(app)
    click(app, where(app, Card.parse("9h")))
    settle(app)
    table = scene(app)
    key(app, pygame.K_l)
    assert showing(app) is LogScene
    texts = [line_text(line, table.names, app.tr) for line in table.history.lines]
    assert "Boris spielt 6♥ aus" in texts and "You schlägt 6♥ mit 9♥" in texts
    key(app, pygame.K_t)  # the table's keys wait while the log shows
    assert session.sent == [Beat(Card.parse("9h"), Card.parse("6h"))]
    key(app, pygame.K_l)
    assert showing(app) is None
    click(app, button(app, "log"))  # type: ignore[arg-type]  # one tap away too
    assert showing(app) is LogScene
    click(app, button(app, "log"))  # type: ignore[arg-type]  # its ✕ closes it
    assert showing(app) is None


def test_the_log_scrolls_back_by_key_and_button_and_not_past_its_start() -> None:
    app, session = start(deal(Rules(players=3), *WATCH))
    for _ in range(4):  # a few bouts for a long log: Boris leads, Vera takes
        table = scene(app)
        st = session.state
        lead = next(a for a in st.legal_actions(st.attacker) if isinstance(a, Attack))
        session.play(st.attacker, lead)
        session.play(st.defender, Take())
        for seat in range(3):
            if Pass() in session.state.legal_actions(seat):
                session.play(seat, Pass())
    settle(app, dt=0.25)  # (only the log of it is looked at)
    table = scene(app)
    key(app, pygame.K_l)
    log = app.stack[-1]
    assert isinstance(log, LogScene) and log.scroll == 0
    key(app, pygame.K_UP)
    key(app, pygame.K_PAGEUP)
    rows = log_panel(app.size, app.assets).rows
    most = max(0, len(table.history.lines) - rows)
    assert log.scroll == min(most, 9)
    for _ in range(40):
        click(app, button(app, "scroll_up"))  # type: ignore[arg-type]
    assert log.scroll == most
    key(app, pygame.K_DOWN)
    assert log.scroll == max(0, most - 1)
    click(app, (2, 2))  # a tap beside the panel closes it
    assert showing(app) is None


def test_a_tap_on_the_discard_pile_shows_the_last_beaten_bout() -> None:
    app = watching()
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    session.play(0, Pass())  # type: ignore[attr-defined]
    session.play(1, Pass())  # type: ignore[attr-defined]
    settle(app)
    board = table.board
    assert board is not None and board.discard == 2
    x, y = board.layout.discard_pos
    click(app, (round(x), round(y)))
    log = app.stack[-1]
    assert isinstance(log, LogScene) and log.beaten
    bout = table.history.last_finished("beaten")
    assert bout is not None and bout.pairs == [(Card.parse("6h"), Card.parse("7s"))]
    app.step(FRAME)  # draws the bout's cards
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is table


# --- nothing covers a card or the prompt --------------------------------------------------

WINDOWS = [(480, 360), (640, 360), (360, 640), (720, 1280), (800, 600), (1280, 720)]


def drawn_rect(table: TableScene, card: Card) -> pygame.Rect:
    """Where ``card`` of our hand is drawn now (raised as it is)."""
    assert table.board is not None and table.layout is not None
    sprite = table.board.cards[card]
    layout = table.layout
    rect = pygame.Rect(0, 0, round(layout.card_w), round(layout.card_h))
    rect.center = (round(sprite.pose.x), round(sprite.pose.y - sprite.lift))
    return rect


@pytest.mark.parametrize("size", WINDOWS)
def test_a_chosen_card_raised_high_is_under_no_button(size: tuple[int, int]) -> None:
    app, session = start(deal(Rules(), *DEFEND), size=size)
    session.play(1, Attack.of("6h", "6d"))
    settle(app)
    table = scene(app)
    chosen = Card.parse("Ts")  # beats either: chosen first, raised highest
    click(app, where(app, chosen))
    settle(app)
    assert table.choice.selected == chosen and button(app, "take") is not None
    for card in table.board.hand:  # type: ignore[union-attr]
        rect = drawn_rect(table, card)
        hits = [b.name for b in table.buttons if b.rect.colliderect(rect)]
        assert not hits, (card, rect, hits)


@pytest.mark.parametrize("size", WINDOWS)
def test_a_hint_bubble_leaves_the_prompt_line_readable(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.screens.table import choice
    from client.ui import render

    bubbles: list[pygame.Rect] = []

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        bubbles.append(render.draw_bubble(surface, assets, text, *args, **kwargs))
        return bubbles[-1]

    monkeypatch.setattr(choice, "draw_bubble", spy)
    app, session = start(deal(Rules(), *DEFEND), size=size)
    session.play(1, Attack.of("6h"))
    settle(app)
    table = scene(app)
    click(app, where(app, Card.parse("Jc")))  # cannot beat a heart: it says why
    assert table.choice.bubble is not None and table.status()
    bubbles.clear()
    app.step(FRAME)
    layout = table.layout
    assert layout is not None
    prompt_top = layout.status_y - layout.font_px * 0.7
    assert bubbles and bubbles[-1].bottom <= prompt_top, (bubbles[-1], prompt_top)


def test_in_transfer_mode_only_the_cards_that_can_transfer_glow() -> None:
    rules = Rules(players=3, transfer=True)
    state = deal(rules, "7d 7c Ts 8d Jc Qc", "8c 9c Tc Td Jd Qh", "6s 7h 6h Qd Kh 9d")
    app, session = start(state)
    session.play(2, Attack.of("7h"))
    settle(app)
    table = scene(app)
    assert table.looks()[Card.parse("Ts")] == "glow"  # a trump: it beats 7h ...
    click(app, button(app, "transfer"))  # type: ignore[arg-type]  # two sevens: choose
    assert table.choice.transfer_mode and session.sent == []
    looks = table.looks()
    assert looks[Card.parse("7d")] == looks[Card.parse("7c")] == "glow"
    assert looks[Card.parse("Ts")] == "dim"  # ... but cannot transfer


def test_the_prompt_follows_the_table_not_an_older_view() -> None:
    """While the table still shows events the view has not caught up with, the prompt
    says only who attacks whom: no "call it beaten" while a card flies in unbeaten."""
    rules = Rules(players=3)
    state = deal(rules, "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh", "7d 7c 8d 9c Jd Qh")
    app, session = start(state)
    click(app, where(app, Card.parse("7h")))
    settle(app)
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    table = scene(app)
    assert "beaten" in table.status()
    session.play(2, ThrowIn(Card.parse("7d")))
    frames_until(app, lambda: Card.parse("7d") in table.board.cards)  # type: ignore[union-attr]
    assert table.status() == "You attack Boris" and button(app, "pass") is None
    settle(app)
    assert "beaten" not in table.status()


def test_our_turn_shows_and_the_seat_we_wait_for_is_ringed() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    assert not table.our_turn()  # Boris leads
    session.play(1, Attack.of("6h"))
    settle(app)
    assert table.our_turn()  # we must answer
    click(app, where(app, Card.parse("9h")))
    assert not table.our_turn()  # sent: waiting for the answer
    settle(app)
    assert not table.our_turn()


# --- the end of a game --------------------------------------------------------------------


def played_out(size: tuple[int, int] = (1280, 720)) -> tuple[App, ScriptedSession]:
    """A short game played to its end by scripted moves (a 24-card deck): we take
    whenever we can, so that we are the Durak, or another seat is. Only its end is looked
    at, so each move settles in frames of 0.25 s (a fifth of the frames of 0.05 s)."""
    from test_table import cards

    rules = Rules(deck_size=24)
    state = deal(rules, "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state, size=size)
    while session.state.result is None:
        seat, legal = next_actor(session.state)  # type: ignore[misc]
        action = next((a for a in legal if isinstance(a, Take)), legal[0])
        if seat == 0:
            scene(app).send(action)
        else:
            session.play(seat, action)
        settle(app, dt=0.25)
    assert cards("9s")  # the helper the deal uses
    return app, session


def test_the_end_shows_the_durak_s_cards_the_last_bout_and_the_games_numbers() -> None:
    app, session = played_out()
    table = scene(app)
    result = session.state.result
    assert result is not None and result.durak is not None and showing(app) is EndScene
    left = session.state.hand(result.durak)
    show = table.end_show()
    assert sorted(c for c in show.durak_cards if c is not None) == sorted(left)
    assert show.durak_caption and show.bout_caption and show.last_bout
    history = table.history
    assert show.numbers == " · ".join(
        (
            app.tr.plural("end.bouts", len(history.bouts)),
            app.tr.plural("end.taken", history.cards_taken),
            app.tr.plural("end.trumps", history.trumps_played),
        )
    )
    assert len(history.bouts) >= 1 and history.cards_taken > 0  # we took every time


def test_the_table_button_shows_the_end_on_the_table_and_result_brings_the_panel_back() -> None:
    app, _ = played_out()
    click(app, button(app, "hide"))  # type: ignore[arg-type]
    assert showing(app) is None and button(app, "result") is not None
    app.step(FRAME)  # draws the Durak's cards and the last bout on the table
    click(app, button(app, "result"))  # type: ignore[arg-type]
    assert showing(app) is EndScene


def test_review_at_the_end_opens_the_coach_on_the_game_just_kept_and_esc_comes_back() -> None:
    from client.screens.review import ReviewScene

    app, session = played_out()
    table = scene(app)
    click(app, button(app, "review"))  # type: ignore[arg-type]
    review = app.stack[-1]
    assert isinstance(review, ReviewScene) and review.game is not None
    assert review.game.result == session.state.result and review.game.seat == table.seat
    assert review.job is not None and review.job.total > 0  # our moves, to be gone over
    key(app, pygame.K_ESCAPE)
    assert showing(app) is EndScene and app.stack[-2] is table  # the end, as it was left


def test_a_game_that_was_not_kept_has_no_review_at_its_end() -> None:
    app, _ = played_out()
    scene(app).finale.kept = lambda: None  # e.g. the game's file could not be made
    app.step(FRAME)
    assert button(app, "review") is None and button(app, "rematch") is not None


def test_a_watcher_s_end_offers_the_next_game_not_a_rematch() -> None:
    from client.screens.table.hud import end_buttons

    app, _ = played_out()
    over = scene(app).over
    assert over is not None
    labels = {b.name: b.label for b in end_buttons(app.size, over, app.tr, watching=True)}
    assert labels == {"menu": "Menu", "rematch": "Next game", "hide": "Table"}
    played = {b.name: b.label for b in end_buttons(app.size, over, app.tr, review=True)}
    assert played["rematch"] == "Rematch" and played["review"] == "Review"


def test_a_durak_s_cards_it_cannot_name_show_as_backs() -> None:
    """A window that came in late (it missed discards) names only the cards it knows."""
    app, session = played_out()
    table = scene(app)
    durak = session.state.result.durak  # type: ignore[union-attr]
    if durak == table.seat:
        assert table.end_show().durak_cards == tuple(table.board.hand)  # type: ignore[union-attr]
        return
    assert table.view is not None
    # the host counts two discards more than the window saw
    table.view = dataclasses.replace(table.view, discard_size=table.view.discard_size + 2)
    shown = table.end_show().durak_cards
    assert len(shown) == len(session.state.hand(durak)) and None in shown


def test_the_history_counts_bouts_cards_taken_and_trumps_played() -> None:
    from client.i18n import ENGLISH, translator
    from client.screens.table.history import History
    from engine import (
        BoutStarted,
        Covered,
        Discarded,
        PickedUp,
        ThrewIn,
        TrumpTurned,
    )

    c = Card.parse
    history = History(3)
    for event in (
        TrumpTurned(c("Ks"), None),
        BoutStarted(0, 1, 6),
        Attacked(0, (c("6h"),)),
        Covered(1, c("7s"), c("6h")),  # a trump
        ThrewIn(2, c("7h")),
        Covered(1, c("9h"), c("7h")),
        Discarded((c("6h"), c("7s"), c("7h"), c("9h"))),
        BoutStarted(1, 2, 6),
        Attacked(1, (c("8s"),)),  # a trump
        PickedUp(2, (c("8s"),)),
    ):
        history.add(event)
    assert len(history.bouts) == 2 and history.trumps_played == 2
    assert history.cards_taken == 1
    first = history.last_finished("beaten")
    assert first is not None and first.pairs == [(c("6h"), c("7s")), (c("7h"), c("9h"))]
    assert history.last_finished() is not None and history.last_finished().end == "taken"  # type: ignore[union-attr]
    ru = translator("ru")
    names = ("Anya", "Borya", "Vera")
    words = [line_text(line, names, ru) for line in history.lines]
    assert words[0] == ru("log.bout", n=1, attacker="Anya", defender="Borya")
    assert (
        words[-1]
        == ru.plural("log.took", 1, name="Vera")
        != ENGLISH.plural("log.took", 1, name="Vera")
    )


def test_the_keys_show_on_the_cards_and_the_focus_is_a_halo() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    session.play(1, Attack.of("6h"))
    settle(app)
    table = scene(app)
    assert not table.choice.keyed  # a mouse player sees no digits
    key(app, pygame.K_RIGHT)
    assert table.choice.keyed and table.choice.focus == 0
    assert table.board is not None
    assert table.looks()[table.board.hand[0]] == "target"
    app.step(FRAME)  # draws the digits
    key(app, pygame.K_1)  # the first card, J♣, cannot beat 6♥: it says why, plays nothing
    assert session.sent == [] and table.choice.bubble is not None
    key(app, pygame.K_5)  # the fifth, 9♥, beats it
    assert session.sent == [Beat(Card.parse("9h"), Card.parse("6h"))]


def test_between_bouts_nobody_attacks_or_defends_until_the_next_bout_starts() -> None:
    """The badges follow the table: once a bout is swept away and while the seats draw,
    no seat is still shown attacking or defending."""
    from client.screens.table.board import Board
    from client.screens.table.draw import role_of
    from client.screens.table.layout import Layout
    from engine import BoutStarted, Discarded, Drew

    board = Board(Layout((1280, 720), 3), 0, Rules(players=3), counts=[6, 6, 6])
    board.apply(BoutStarted(1, 2, 6))
    assert role_of(board, 1) == "attacking" and role_of(board, 2) == "defending"
    board.apply(Discarded((Card.parse("6h"), Card.parse("7h"))))
    board.apply(Drew(1, 1, None))
    assert [role_of(board, s) for s in range(3)] == [None, None, None]
    board.apply(BoutStarted(2, 0, 6))
    assert role_of(board, 2) == "attacking" and role_of(board, 0) == "defending"


def test_a_watchers_pause_neither_stops_the_game_nor_offers_the_mark() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    table.watching = True
    key(app, pygame.K_ESCAPE)
    app.step(FRAME)
    pause = app.stack[-1]
    assert isinstance(pause, PauseScene) and not session.paused
    assert button(app, "mark") is None and not pause.kind().alone
