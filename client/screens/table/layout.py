"""Where everything sits on the table, for any window size and shape.

``Layout(size, players, seat)`` picks the arrangement that gives the largest cards:
"wide" (stock on the left and discard pile on the right of the bout) or "tall" (stock and
discard in a row above the bout, for a phone held upright), and a bout grid of 6x1, 3x2 or
2x3. Opponents sit in an arc across the top, clockwise from our left; our hand is fanned
along the bottom. A watcher (``seat`` -1) has no hand: every seat sits in the arc, from
seat 0 on the left. Everything is in window pixels; poses are card centres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from client.ui.metrics import CARD_RATIO

__all__ = ["HAND_RISE", "MAX_LIFT", "TRAY_PAD", "Layout", "Pose", "SeatSpot"]

OPPONENT_SCALE = 0.56  # an opponent's card backs, relative to our cards
PILE_SCALE = 0.8
HAND_SAG = 0.08  # of the card height: how much higher the middle of the hand's arc sits
MAX_LIFT = 0.14  # of the card height: the most a card of the hand is raised (chosen)
# the row of buttons keeps clear of the hand's cards however high they are raised, so that
# a tap on a card can never press a button by mistake
HAND_RISE = HAND_SAG + MAX_LIFT + 0.03
# of the card height: the hand sits this much above the bottom margin, so that the tray
# behind it on our turn closes under the cards, the outer ones' tilted corners included,
# instead of running off the bottom of the window
TRAY_PAD = 0.1


@dataclass(frozen=True, slots=True)
class Pose:
    x: float
    y: float
    angle: float = 0.0  # degrees, counter-clockwise (pygame's convention)
    scale: float = 1.0  # of the layout's card height


@dataclass(frozen=True, slots=True)
class SeatSpot:
    """An opponent's place: the centre of their fan of backs and their name plate."""

    seat: int
    fan: Pose
    plate: tuple[int, int, int, int]  # x, y, w, h

    @property
    def centre(self) -> tuple[float, float]:
        return self.fan.x, self.fan.y


def _grid_candidates() -> list[tuple[str, int, int]]:
    return [("wide", 6, 1), ("wide", 3, 2), ("tall", 3, 2), ("tall", 2, 3)]


class Layout:
    def __init__(self, size: tuple[int, int], players: int, seat: int = 0) -> None:
        self.size = size
        self.players = players
        self.seat = seat
        w, h = size
        self.margin = m = max(4.0, 0.02 * min(w, h))
        best: tuple[float, str, int, int] | None = None
        for mode, cols, rows in _grid_candidates():
            ch = self._card_height(mode, cols, rows)
            if best is None or ch > best[0] + 0.5:
                best = (ch, mode, cols, rows)
        assert best is not None
        ch, self.mode, self.cols, self.rows = best
        self.card_h = ch = max(30.0, min(ch, 0.26 * h))
        self.card_w = cw = ch * CARD_RATIO
        self.font_px = max(11, round(ch * 0.115))

        # vertical bands: opponents at the top, the hand at the bottom with the buttons
        # above it, and the bout (with the piles) centred in what is left between
        band = 1.0 * ch
        self.band = (m, m + band)
        self.hand_y = h - m - TRAY_PAD * ch - ch / 2
        self.button_h = max(28.0, 0.3 * ch)
        self.buttons_y = self.hand_y - ch / 2 - HAND_RISE * ch - self.button_h / 2
        table_h = self.rows * 1.3 * ch
        free_top = m + band + 0.12 * ch
        free_bottom = self.buttons_y - self.button_h / 2 - 0.1 * ch
        if self.mode == "wide":
            table_top = max(free_top, (free_top + free_bottom - table_h) / 2)
            self.piles_y = table_top + table_h / 2
        else:
            piles_h = 1.15 * ch
            block = piles_h + table_h
            top = max(free_top, (free_top + free_bottom - block) / 2)
            self.piles_y = top + 0.55 * ch
            table_top = top + piles_h
        self.table_rect = (m, table_top, w - 2 * m, table_h)
        self.status_y = min(free_bottom, table_top + table_h + 0.16 * ch)
        # toasts: under the opponents (wide), or under the row of piles (tall)
        self.toast_y = free_top if self.mode == "wide" else self.piles_y + 0.8 * ch

        if self.mode == "wide":
            side = 0.9 * cw + m
            self.stock_pos = (m + side * 0.4 + cw * 0.55, self.piles_y)
            self.discard_pos = (w - m - cw * 0.85, self.piles_y)
        else:
            self.stock_pos = (m + cw * 0.75, self.piles_y)
            self.discard_pos = (w - m - cw * 0.85, self.piles_y)
        self.trump_pos = (self.stock_pos[0] + 0.3 * ch, self.stock_pos[1])
        self.seats = self._seat_spots()

    # --- sizing ---------------------------------------------------------------------------

    def _card_height(self, mode: str, cols: int, rows: int) -> float:
        w, h = self.size
        m = max(4.0, 0.02 * min(w, h))
        if mode == "wide":
            by_h = (h - 2 * m) / (1.0 + 0.12 + rows * 1.3 + 0.45 + HAND_RISE + 1.0 + TRAY_PAD)
            by_w = (w - 2 * m) / ((3.9 + cols * 1.42) * CARD_RATIO)
        else:
            by_h = (h - 2 * m) / (
                1.0 + 0.12 + 1.15 + rows * 1.3 + 0.45 + HAND_RISE + 1.0 + TRAY_PAD
            )
            by_w = (w - 2 * m) / ((0.3 + cols * 1.42) * CARD_RATIO)
        return min(by_h, by_w)

    # --- opponents --------------------------------------------------------------------

    def _seat_spots(self) -> dict[int, SeatSpot]:
        w, _ = self.size
        n = self.players
        # a watcher (seat -1): every seat is someone else's
        start, count = (0, n) if self.seat < 0 else (self.seat + 1, n - 1)
        others = [(start + k) % n for k in range(count)]
        count = len(others)
        ch = self.card_h
        top = self.band[0]
        spots = {}
        for i, seat in enumerate(others):
            # clockwise from our left: left of the screen first
            x = self.margin + (w - 2 * self.margin) * (i + 0.5) / count
            edge = abs((i + 0.5) / count - 0.5) * 2  # 0 in the middle, ~1 at the sides
            sag = 0.18 * ch * edge * edge if count > 2 else 0.0
            fan_y = top + 0.34 * ch + sag
            plate_w = min((w - 2 * self.margin) / count - 6, 2.2 * self.card_w)
            plate_h = 0.36 * ch
            plate = (
                round(x - plate_w / 2),
                round(fan_y + 0.22 * ch),  # the backs overlap the plate only a little
                round(plate_w),
                round(plate_h),
            )
            spots[seat] = SeatSpot(seat, Pose(x, fan_y, 0.0, OPPONENT_SCALE), plate)
        return spots

    def opponent_fan(self, seat: int, count: int) -> list[Pose]:
        """The backs of an opponent's hand, a small fan around their spot, kept in its slot."""
        spot = self.seats[seat].fan
        if count <= 0:
            return []
        shown = min(count, 12)
        card_w = self.card_w * OPPONENT_SCALE
        room = self.seats[seat].plate[2] - card_w
        step = min(card_w * 0.22, room / max(shown - 1, 1))
        spread = min(4.0, 40.0 / max(shown, 1))
        poses = []
        for i in range(shown):
            k = i - (shown - 1) / 2
            poses.append(
                Pose(spot.x + k * step, spot.y + abs(k) ** 2 * 0.4, -k * spread, OPPONENT_SCALE)
            )
        return poses

    # --- our hand -----------------------------------------------------------------------

    def hand_poses(self, count: int) -> list[Pose]:
        w, _ = self.size
        if count <= 0:
            return []
        cw = self.card_w
        room = w - 2 * self.margin - cw
        step = min(0.72 * cw, room / max(count - 1, 1)) if count > 1 else 0.0
        spread = min(3.0, 24.0 / count)
        half = (count - 1) / 2 * step
        sag = min(
            HAND_SAG * self.card_h, 0.5 * half * math.tan(math.radians(spread * (count - 1) / 2))
        )
        poses = []
        for i in range(count):
            k = i - (count - 1) / 2
            x = w / 2 + k * step
            # a gentle arc: the outer cards sit lower and lean outwards; all stay on screen
            drop = sag * (k * step / half) ** 2 if half else 0.0
            poses.append(Pose(x, self.hand_y - sag + drop, -k * spread, 1.0))
        return poses

    def hand_tray(self, count: int) -> tuple[int, int, int, int] | None:
        """The tray behind a hand of ``count`` cards on our turn (x, y, w, h; None for no
        card): as wide as the hand and a little more, closed inside the window's margin."""
        poses = self.hand_poses(count)
        if not poses:
            return None
        pad, edge = self.tray_radius, self.margin / 2
        left = max(edge, poses[0].x - self.card_w / 2 - pad)
        right = min(self.size[0] - edge, poses[-1].x + self.card_w / 2 + pad)
        top = self.hand_y - self.card_h / 2 - pad * 0.8
        bottom = self.size[1] - edge
        return (round(left), round(top), round(right - left), round(bottom - top))

    @property
    def tray_radius(self) -> float:
        """The tray's corners' radius, and its room left and right of the hand."""
        return self.card_w * 0.3

    # --- the bout -----------------------------------------------------------------------

    def _slot_centre(self, index: int, count: int) -> tuple[float, float]:
        tx, ty, tw, th = self.table_rect
        cols, rows = self.cols, self.rows
        count = max(count, 1)
        used_rows = min(rows, math.ceil(count / cols))
        row, col = divmod(index, cols)
        in_row = min(cols, count - row * cols)
        pitch = 1.42 * self.card_w
        cx = tx + tw / 2 + (col - (in_row - 1) / 2) * pitch - 0.12 * self.card_w
        row_h = 1.3 * self.card_h
        cy = ty + th / 2 + (row - (used_rows - 1) / 2) * row_h - 0.06 * self.card_h
        return cx, cy

    def attack_pose(self, index: int, count: int) -> Pose:
        x, y = self._slot_centre(index, count)
        return Pose(x, y, _jitter(index, 3.0), 1.0)

    def defence_pose(self, index: int, count: int) -> Pose:
        x, y = self._slot_centre(index, count)
        return Pose(x + 0.26 * self.card_w, y + 0.14 * self.card_h, -14.0 + _jitter(index + 7, 3.0))

    # --- piles --------------------------------------------------------------------------

    def stock_pose(self, layer: int = 0) -> Pose:
        x, y = self.stock_pos
        return Pose(x - layer * 0.6, y - layer * 0.6, 0.0, PILE_SCALE)

    def trump_pose(self) -> Pose:
        x, y = self.trump_pos
        return Pose(x, y, -90.0, PILE_SCALE)

    def discard_pose(self, layer: int = 0) -> Pose:
        x, y = self.discard_pos
        return Pose(x, y, _jitter(layer * 5 + 1, 14.0), PILE_SCALE)

    def log_rect(self) -> tuple[int, int, int, int]:
        """The Log button's place: under the stock and its count, in what room there is
        above the row of buttons (wide), or between the stock and the discard pile, in the
        row of piles (tall)."""
        h = max(24.0, 0.22 * self.card_h)
        ph = self.card_h * PILE_SCALE
        if self.mode == "wide":
            x, y = self.stock_pos
            top = y + ph * 0.62 + self.font_px * 1.5
            room = self.buttons_y - self.button_h / 2 - top - 4
            h = max(16.0, min(h, room))
            w = h * 3.2
            cx, cy = max(self.margin + w / 2, x), top + h / 2
        else:
            w = h * 3.2
            x, y = self.discard_pos
            cx, cy = x - self.card_w * PILE_SCALE * 0.6 - 6 - w / 2, y
        return (round(cx - w / 2), round(cy - h / 2), round(w), round(h))

    def seat_centre(self, seat: int) -> tuple[float, float]:
        if seat == self.seat:
            return self.size[0] / 2, self.hand_y
        return self.seats[seat].centre

    # --- buttons ------------------------------------------------------------------------

    def button_rects(self, labels: list[str], char_w: float) -> list[tuple[int, int, int, int]]:
        """Rects for a centred row of buttons above the hand."""
        h = self.button_h
        widths = [max(2.6 * h, len(label) * char_w + 1.2 * h) for label in labels]
        gap = 0.35 * h
        total = sum(widths) + gap * (len(widths) - 1)
        x = self.size[0] / 2 - total / 2
        y = self.buttons_y - h / 2
        rects = []
        for bw in widths:
            rects.append((round(x), round(y), round(bw), round(h)))
            x += bw + gap
        return rects


def _jitter(seed: int, amplitude: float) -> float:
    """A small fixed angle per slot, so the table does not look machine-laid."""
    return math.sin(seed * 12.9898 + 78.233) * amplitude
