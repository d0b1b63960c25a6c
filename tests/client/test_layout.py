"""The table's layout at many window sizes and shapes: everything on screen, nothing overlapping."""

from __future__ import annotations

import math

import pytest

from client.screens.table.layout import MAX_LIFT, PILE_SCALE, Layout, Pose
from client.ui.metrics import CARD_RATIO

SIZES = [
    (360, 640),  # a small phone, upright
    (720, 1280),  # a phone, upright
    (1280, 720),
    (800, 600),
    (1024, 1024),
    (1920, 1080),
    (2560, 1080),  # ultra-wide
    (3840, 2160),  # 4K
    (640, 360),  # a phone on its side
]


def card_box(layout: Layout, pose: Pose) -> tuple[float, float, float, float]:
    """The upright bounding box (left, top, right, bottom) of a card, ignoring its small tilt."""
    h = layout.card_h * pose.scale
    w = h * CARD_RATIO
    return pose.x - w / 2, pose.y - h / 2, pose.x + w / 2, pose.y + h / 2


def on_screen(layout: Layout, box: tuple[float, float, float, float], slack: float = 2) -> bool:
    w, h = layout.size
    left, top, right, bottom = box
    return left >= -slack and top >= -slack and right <= w + slack and bottom <= h + slack


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_everything_is_on_screen(size: tuple[int, int], players: int) -> None:
    layout = Layout(size, players, seat=0)
    for count in (1, 6, 12, 20):
        for pose in layout.hand_poses(count):
            assert on_screen(layout, card_box(layout, pose))
    for count in range(1, 7):
        for i in range(count):
            assert on_screen(layout, card_box(layout, layout.attack_pose(i, count)))
            assert on_screen(layout, card_box(layout, layout.defence_pose(i, count)))
    for seat, spot in layout.seats.items():
        x, y, w, h = spot.plate
        assert on_screen(layout, (x, y, x + w, y + h))
        for pose in layout.opponent_fan(seat, 12):
            assert on_screen(layout, card_box(layout, pose), slack=layout.card_h * 0.1)
    assert on_screen(layout, card_box(layout, layout.stock_pose()))
    assert on_screen(layout, card_box(layout, layout.discard_pose()))
    for x, y, w, h in layout.button_rects(["Take", "Transfer", "Beaten"], layout.font_px * 0.6):
        assert on_screen(layout, (x, y, x + w, y + h))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_bout_keeps_clear_of_hand_opponents_and_piles(
    size: tuple[int, int], players: int
) -> None:
    layout = Layout(size, players, seat=0)
    hand_top = min(card_box(layout, p)[1] for p in layout.hand_poses(6))
    plates_bottom = max(y + h for x, y, w, h in (s.plate for s in layout.seats.values()))
    piles = [card_box(layout, layout.stock_pose()), card_box(layout, layout.discard_pose())]
    for i in range(6):
        for pose in (layout.attack_pose(i, 6), layout.defence_pose(i, 6)):
            box = card_box(layout, pose)
            assert box[3] <= hand_top + 1
            assert box[1] >= plates_bottom - 1
            assert not any(overlap(box, pile) for pile in piles)
    for _x, y, _w, h in layout.button_rects(["Take", "Beaten"], layout.font_px * 0.6):
        assert y + h <= hand_top + 1


@pytest.mark.parametrize("size", SIZES)
def test_opponent_plates_do_not_overlap(size: tuple[int, int]) -> None:
    layout = Layout(size, 6, seat=2)
    plates = [(x, y, x + w, y + h) for x, y, w, h in (s.plate for s in layout.seats.values())]
    assert len(plates) == 5
    for i, a in enumerate(plates):
        for b in plates[i + 1 :]:
            assert not overlap(a, b)


def test_opponents_sit_clockwise_from_our_left() -> None:
    layout = Layout((1280, 720), 4, seat=1)
    xs = [layout.seats[s].fan.x for s in (2, 3, 0)]
    assert xs == sorted(xs)


def test_a_phone_held_upright_gets_the_tall_arrangement() -> None:
    assert Layout((720, 1280), 4).mode == "tall"
    assert Layout((1920, 1080), 4).mode == "wide"


def test_cards_grow_with_the_window() -> None:
    heights = [
        Layout(size, 4).card_h for size in [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)]
    ]
    assert heights == sorted(heights) and heights[-1] > 3 * heights[0]


def test_the_hand_fans_out_and_tightens_when_long() -> None:
    layout = Layout((1280, 720), 2)
    six = layout.hand_poses(6)
    assert [p.x for p in six] == sorted(p.x for p in six)
    assert six[0].angle > 0 > six[-1].angle  # the left cards lean left
    twenty = layout.hand_poses(20)
    assert twenty[1].x - twenty[0].x < six[1].x - six[0].x


# the sizes of the table's window tests, beside the ones above
WINDOW_SIZES = [(480, 360), (640, 360), (360, 640), (720, 1280), (800, 600), (1280, 720)]


def lifted_box(layout: Layout, pose: Pose, lift: float) -> tuple[float, float, float, float]:
    """The upright bounding box of a card of the hand raised ``lift`` pixels, tilt and all."""
    h = layout.card_h * pose.scale
    w = h * CARD_RATIO
    a = math.radians(pose.angle)
    half_w = (abs(w * math.cos(a)) + abs(h * math.sin(a))) / 2
    half_h = (abs(w * math.sin(a)) + abs(h * math.cos(a))) / 2
    y = pose.y - lift
    return pose.x - half_w, y - half_h, pose.x + half_w, y + half_h


def button_band(layout: Layout) -> tuple[float, float, float, float]:
    """The row of buttons across the whole window (the corner buttons sit in it too)."""
    top = layout.buttons_y - layout.button_h / 2
    return 0, top, layout.size[0], top + layout.button_h


@pytest.mark.parametrize("size", sorted(set(SIZES + WINDOW_SIZES)))
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_no_button_covers_a_card_of_the_hand_at_any_hand_size(
    size: tuple[int, int], players: int
) -> None:
    """However many cards (1-20) and however high one is raised (chosen), no card of the
    hand reaches the row of buttons or the Log button: a tap on a card never presses one."""
    layout = Layout(size, players, seat=0)
    band = button_band(layout)
    x, y, w, h = layout.log_rect()
    log = (x, y, x + w, y + h)
    for count in range(1, 21):
        for pose in layout.hand_poses(count):
            box = lifted_box(layout, pose, MAX_LIFT * layout.card_h)
            assert not overlap(box, band), (count, box, band)
            assert not overlap(box, log), (count, box, log)


@pytest.mark.parametrize("size", sorted(set(SIZES + WINDOW_SIZES)))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_log_button_and_the_trump_keep_clear_of_the_table(
    size: tuple[int, int], players: int
) -> None:
    layout = Layout(size, players, seat=0)
    x, y, w, h = layout.log_rect()
    log = (x, y, x + w, y + h)
    assert on_screen(layout, log, slack=0)
    plates = [(x, y, x + w, y + h) for x, y, w, h in (s.plate for s in layout.seats.values())]
    piles = [card_box(layout, layout.stock_pose()), card_box(layout, layout.discard_pose())]
    bout = [card_box(layout, layout.attack_pose(i, 6)) for i in range(6)]
    bout += [card_box(layout, layout.defence_pose(i, 6)) for i in range(6)]
    for other in [*plates, *piles, *bout, button_band(layout)]:
        assert not overlap(log, other), (log, other)
    # the trump's tag sits on the top edge of the stock: clear of the seats' plates
    sx, sy = layout.stock_pos
    tag_w, tag_h = layout.card_w * PILE_SCALE * 1.6, layout.font_px * 1.5
    top = sy - layout.card_h * PILE_SCALE / 2
    tag = (sx - tag_w / 2, top - tag_h / 2, sx + tag_w / 2, top + tag_h / 2)
    assert on_screen(layout, tag, slack=0)
    assert not any(overlap(tag, plate) for plate in plates), (tag, plates)


@pytest.mark.parametrize("size", sorted(set(SIZES + WINDOW_SIZES)))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_tray_behind_the_hand_closes_inside_the_window(
    size: tuple[int, int], players: int
) -> None:
    """The tray behind our hand on our turn is whole on screen, its bottom edge and corners
    too (it ran off the bottom at 1920x1080); it holds every card of the hand down to its
    tilted corners, as wide as the hand where the window has room, and stays under the row
    of buttons."""
    layout = Layout(size, players, seat=0)
    assert layout.hand_tray(0) is None
    for count in range(1, 21):
        tray = layout.hand_tray(count)
        assert tray is not None
        x, y, w, h = tray
        box = (x, y, x + w, y + h)
        assert on_screen(layout, box, slack=0), (count, box)
        poses = layout.hand_poses(count)
        for pose in poses:
            assert lifted_box(layout, pose, 0.0)[3] <= y + h, (count, pose, box)
        edge = layout.margin / 2
        assert x <= max(edge, card_box(layout, poses[0])[0]), (count, box)
        assert x + w >= min(size[0] - edge, card_box(layout, poses[-1])[2]), (count, box)
        assert not overlap(box, button_band(layout)), (count, box)
