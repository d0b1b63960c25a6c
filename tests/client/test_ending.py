"""The end of a game: its numbers count cards, not plays; the moment before the panel (a
stamp and a sting, another when we are the Durak; none for a draw), during which the
panel is drawn ahead, so that it opens with nothing left to make; the table's row at the
end, which fits every window."""

from __future__ import annotations

import pygame
import pytest
from tables import deal, scene, settle, showing, start

from client.app import App
from client.i18n import ENGLISH, translator
from client.screens.table import notices
from client.screens.table.board import deck_of
from client.screens.table.cues import Cues
from client.screens.table.ending import durak_card_rects
from client.screens.table.flourish import draw_flourish, flourish_spot
from client.screens.table.history import History
from client.screens.table.layout import PILE_SCALE, Layout
from client.screens.table.moment import Moment, Stamp
from client.screens.table.notices import EndScene
from client.screens.table.row import table_buttons
from client.settings import Settings
from client.ui import assets
from engine import (
    Attacked,
    BoutStarted,
    Card,
    Covered,
    PickedUp,
    Rules,
    Take,
    TrumpTurned,
    WentOut,
)

pytestmark = pytest.mark.usefixtures("headless")


def c(text: str) -> Card:
    return Card.parse(text)


def test_a_trump_taken_and_played_again_counts_once() -> None:
    history = History(2)
    history.add(TrumpTurned(c("Ks"), None))
    for _ in range(3):  # the same trump led and taken three times
        history.add(BoutStarted(0, 1, 6))
        history.add(Attacked(0, (c("7s"),)))
        history.add(PickedUp(1, (c("7s"),)))
    history.add(BoutStarted(1, 0, 6))
    history.add(Attacked(1, (c("7s"),)))
    history.add(Covered(0, c("9s"), c("7s")))
    assert history.trumps_played == 2  # 7♠ and 9♠, however often they were played


def test_a_card_taken_twice_counts_once_and_the_end_says_different_cards() -> None:
    history = History(2)
    history.add(TrumpTurned(c("Ks"), None))
    history.add(BoutStarted(0, 1, 6))
    history.add(Attacked(0, (c("6h"), c("6d"))))
    history.add(PickedUp(1, (c("6h"), c("6d"))))
    history.add(BoutStarted(0, 1, 6))  # Borya takes the 6♥ again, with the 7♥
    history.add(Attacked(0, (c("7h"),)))
    history.add(PickedUp(1, (c("7h"),)))
    history.add(BoutStarted(1, 0, 6))
    history.add(Attacked(1, (c("6h"),)))
    history.add(PickedUp(0, (c("6h"),)))
    assert history.cards_taken == 3  # 6♥, 6♦ and 7♥: four pick-ups of three cards
    assert ENGLISH.plural("end.taken", 3) == "3 different cards taken"
    assert translator("ru").plural("end.taken", 3) == "взято 3 разные карты"
    assert translator("ru").plural("end.taken", 5) == "взято 5 разных карт"


def _play_out(app, session, taker: int, each=lambda: None) -> None:  # type: ignore[no-untyped-def]
    """Play the game out: ``taker`` takes whenever it may, the other plays its first legal
    action; stop at the first frame that shows the end (its moment, or a draw's panel).
    ``each``: called before each frame once the host has ended the game."""
    table = scene(app)
    while session.state.result is None:
        state = session.state
        for seat in (1, 0):
            legal = state.legal_actions(seat)
            if legal:
                takes = [a for a in legal if isinstance(a, Take)] if seat == taker else []
                action = (takes or legal)[0]
                (table.send if seat == 0 else lambda a, s=seat: session.play(s, a))(action)
                break
        if session.state.result is None:
            settle(app)
    for _ in range(400):
        each()
        app.step(0.02)
        if table.over is not None:
            return
    raise AssertionError("the end never showed")


@pytest.mark.parametrize(("taker", "ours"), [(0, True), (1, False)])
def test_the_moment_comes_before_the_end_panel_with_its_sting(
    monkeypatch: pytest.MonkeyPatch, taker: int, ours: bool
) -> None:
    played: list[str] = []
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state)
    monkeypatch.setattr(app.assets, "play", lambda name, volume=1.0: played.append(name))
    _play_out(app, session, taker)
    table = scene(app)
    assert table.over is not None and table.over.result.durak == (0 if ours else 1)
    assert isinstance(table.finale.moment, Moment) and table.finale.moment.ours is ours
    assert showing(app) is None  # the panel waits for the moment
    app.step(0.02)
    assert played[-1] == ("sting_you" if ours else "sting")
    settle(app)
    assert table.finale.moment is None and showing(app) is EndScene


def images_made(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The key of every image the assets make from now on (not those they had)."""
    made: list[object] = []
    get_or = assets._Lru.get_or

    def counted(cache: assets._Lru, key: object, make: object) -> object:
        if key not in cache:
            made.append(key)
        return get_or(cache, key, make)

    monkeypatch.setattr(assets._Lru, "get_or", counted)
    return made


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_end_panel_opens_with_its_images_and_words_made_during_the_moment(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state, Settings(language=language), size=(1920, 1080))
    _play_out(app, session, 1)
    made = images_made(monkeypatch)
    while showing(app) is None:  # the moment, at 50 frames a second
        made.clear()
        app.step(0.02)
    assert showing(app) is EndScene and made == []  # its first frame made nothing


@pytest.mark.parametrize(("taker", "ours"), [(0, True), (1, False)])
def test_the_moments_first_frame_makes_nothing_drawn_ahead_as_the_last_event_shows(
    monkeypatch: pytest.MonkeyPatch, taker: int, ours: bool
) -> None:
    """The host's word that the game is over comes with its last event, which the table
    shows for half a second first: meanwhile the end is drawn ahead (the end table, the
    moment's stamp and veil, the panel), so its first frame makes no image or word."""
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state, size=(1920, 1080))
    made = images_made(monkeypatch)
    _play_out(app, session, taker, made.clear)
    moment = scene(app).finale.moment
    assert moment is not None and moment.ours is ours
    assert made == []


def test_our_moment_darkens_the_table_through_one_image(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table darkens in steps as our stamp comes down: each step was a new image the
    size of the window (8 MB and 4-8 ms of CPU at 1920x1080); one image does it, with
    the same pixels as translucent black at each step."""
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state)
    _play_out(app, session, 0)
    made = images_made(monkeypatch)
    table = scene(app)
    layout = table.layout
    assert layout is not None and table.finale.moment is not None and table.finale.moment.ours
    cloth = pygame.Surface(app.size)
    cloth.fill((40, 112, 66))
    steps = set()
    for elapsed in (0.0, 0.02, 0.04, 0.06, 0.08, 0.5):
        moment = Moment(0, ours=True, elapsed=elapsed)
        surface = cloth.copy()
        moment.draw(surface, app.assets, layout)
        alpha = round(110 * min(1.0, moment.landed * 2))
        steps.add(alpha)
        black = pygame.Surface(app.size, pygame.SRCALPHA)
        black.fill((0, 0, 0, alpha))
        expected = cloth.copy()
        expected.blit(black, (0, 0))
        top = pygame.Rect(0, 0, app.size[0], 8)  # (far from the stamp)
        assert pygame.image.tobytes(surface.subsurface(top), "RGB") == pygame.image.tobytes(
            expected.subsurface(top), "RGB"
        )
    assert len(steps) >= 4
    assert len([key for key in made if isinstance(key, tuple) and app.size in key]) <= 1


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(360, 640), (720, 1280), (1024, 1024), (1280, 720)])
def test_the_rows_buttons_at_the_end_overlap_nowhere(size: tuple[int, int], language: str) -> None:
    """Menu, Rematch, Result, React and Sound (and the log's): a narrow window has no room
    for Result between the corners, which it gets over the row."""
    app = App(Settings(), None, size=size, sound=False)
    for over in (True, False):
        buttons = table_buttons(
            Layout(size, 4, 0), app.assets, None, over=over, muted=False, watching=False,
            log=True, tr=translator(language),
        )  # fmt: skip
        rects = [b.rect for b in buttons]
        assert all(app.screen.get_rect().contains(r) for r in rects)
        assert not [(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :] if a.colliderect(b)]


@pytest.mark.parametrize("size", [(720, 1280), (360, 640), (1024, 1024), (1280, 720), (1920, 1080)])
def test_the_durak_cards_at_the_end_lie_over_no_pile_and_no_button(size: tuple[int, int]) -> None:
    """With the end's panel hidden, the Durak's cards lie face up, however many: over
    neither pile, the trump, the Log button nor a button of the row (under the Durak's
    plate, in a tall window, they lay over the piles and the Log button)."""
    app = App(Settings(), None, size=size, sound=False)
    deck = deck_of(Rules(players=6, deck_size=52))
    for players in (2, 4, 6):
        layout = Layout(size, players, 0)
        ph = round(layout.card_h * PILE_SCALE)
        poses = [layout.stock_pose(k) for k in range(4)] + [
            layout.discard_pose(k) for k in range(7)
        ]
        backs = [(app.assets.card(None, ph, "plain", round(p.angle)), p) for p in poses]
        piles = [image.get_rect(center=(round(p.x), round(p.y))) for image, p in backs]
        row = table_buttons(
            layout, app.assets, None, over=True, muted=False, watching=False, log=True,
            tr=ENGLISH,
        )  # fmt: skip
        trump = layout.trump_pose()
        image = app.assets.card(None, ph, "plain", round(trump.angle))
        others = [
            *piles,
            image.get_rect(center=(round(trump.x), round(trump.y))),
            *(b.rect for b in row),
        ]
        assert pygame.Rect(layout.log_rect()) in [b.rect for b in row]
        for count in (1, 6, 12, 20, 30):
            laid = [rect for rect, _ in durak_card_rects(app.assets, layout, tuple(deck[:count]))]
            assert len(laid) == count
            assert all(app.screen.get_rect().contains(rect) for rect in laid)
            overlaps = [(r, o) for r in laid for o in others if r.colliderect(o)]
            assert not overlaps, (players, count)


def test_the_durak_plate_leaves_its_word_to_the_stamp(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp lies across the plate's lower line: the plate's own "Durak" peeked out
    round it, so once the end stamps the plate, the plate leaves the word out."""
    from client.screens.table import draw

    words: list[str] = []

    def spy(surface, assets, text, *args, **options):  # type: ignore[no-untyped-def]
        words.append(text)
        return real(surface, assets, text, *args, **options)

    real = draw.draw_text
    monkeypatch.setattr(draw, "draw_text", spy)
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state)
    _play_out(app, session, 1)
    table = scene(app)
    assert table.over is not None and table.over.result.durak == 1
    for _ in range(3):
        words.clear()
        app.step(0.1)  # the moment, its stamp coming down, then the stamp at rest
        assert "Boris" in words and "Durak" not in words
    table.finale.over = None  # (a table with no end to show: the plate says it again)
    words.clear()
    table.draw(app.screen)
    assert "Durak" in words


@pytest.mark.parametrize("animation", ["normal", "fast"])
@pytest.mark.parametrize(("taker", "ours"), [(0, True), (1, False)])
def test_the_stamp_holds_alone_then_goes_onto_the_panel_uncovered(
    monkeypatch: pytest.MonkeyPatch, animation: str, taker: int, ours: bool
) -> None:
    """Frame by frame through the scene's clock: once down, the stamp is alone on the table
    (no panel) for at least 1.5 s, at a fast pace too (the end was hurried with the cards);
    then the panel opens and the stamp, in every frame, is drawn over it: it glides from
    the table onto the panel's top edge instead of vanishing under it."""
    drawn: list[str] = []  # what each frame drew on the window, in order
    window: list[pygame.Surface] = []

    def spy(name: str, real, at: int):  # type: ignore[no-untyped-def]
        def drawing(*args, **kwargs):  # type: ignore[no-untyped-def]
            if args[at] is window[0]:  # (not the end drawn ahead on a scratch surface)
                drawn.append(name)
            return real(*args, **kwargs)

        return drawing

    monkeypatch.setattr(Stamp, "draw", spy("draw", Stamp.draw, 1))
    monkeypatch.setattr(Stamp, "glide", spy("glide", Stamp.glide, 1))
    monkeypatch.setattr(notices, "draw_end", spy("panel", notices.draw_end, 0))
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state, Settings(animation=animation), size=(1280, 720))
    window.append(app.screen)
    _play_out(app, session, taker)
    table = scene(app)
    moment = table.finale.moment
    assert moment is not None and moment.ours is ours
    dt, alone, with_panel = 0.05, 0, 0
    while with_panel < round(1.0 / dt):
        drawn.clear()
        app.step(dt)
        if showing(app) is None:
            assert drawn == ["draw"]  # the moment's stamp, on the table
            landed = table.finale.moment is not None and table.finale.moment.landed >= 1.0
            alone += landed
        else:
            assert showing(app) is EndScene
            assert drawn[:2] == ["panel", "glide"]  # over the panel, never under it
            assert "panel" not in drawn[1:]
            with_panel += 1
    assert alone * dt >= 1.5
    panel = app.stack[-1]
    assert isinstance(panel, EndScene)
    stamp = panel.stamp()
    assert stamp is not None and app.screen.get_rect().collidepoint(stamp.centre)
    assert panel.next_frame() > 0  # the glide is over: the panel is still


def test_the_first_player_out_is_celebrated_at_their_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boris takes everything, we go out first: a celebration at our place, with its
    chime; a later player out gets none."""
    played: list[str] = []
    state = deal(Rules(deck_size=24), "9s Th Jh Qh Kh Ah", "9h Tc Jc Qc Kc Ac", trump="As")
    app, session = start(state)
    monkeypatch.setattr(app.assets, "play", lambda name, volume=1.0: played.append(name))
    table = scene(app)
    cheered: set[int] = set()
    _play_out(app, session, 1, lambda: cheered.update(table.cues.cheers))
    assert cheered == {0} and "cheer" in played
    for _ in range(100):
        app.step(0.05)
    assert not table.cues.cheers  # it passes
    cues = Cues()
    cues.told(WentOut(2, 2), 0, ("You", "Boris", "Vera"), 0.0, 1.0)
    assert not cues.cheers and not cues.sounds
    cues.told(WentOut(1, 1), 0, ("You", "Boris", "Vera"), 0.0, 1.0)
    assert set(cues.cheers) == {1} and cues.sounds == [(0.0, "cheer")]


def test_the_celebration_draws_at_the_seat_and_is_gone_at_its_end() -> None:
    app = App(Settings(), None, size=(1280, 720), sound=False)
    layout = Layout((1280, 720), 3, 0)
    for seat in (0, 1):
        spot = flourish_spot(layout, seat)
        before = pygame.Surface(app.size)
        before.fill((40, 112, 66))
        for t, changed in ((0.2, True), (1.0, False)):
            surface = before.copy()
            draw_flourish(surface, app.assets, layout, seat, "1st", t)
            area = spot.inflate(spot.h * 2, spot.h * 2).clip(surface.get_rect())
            differ = pygame.image.tobytes(surface.subsurface(area), "RGB") != pygame.image.tobytes(
                before.subsurface(area), "RGB"
            )
            assert differ is changed, (seat, t)
