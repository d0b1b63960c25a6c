"""What a layout must give a finger, measured in the page: every tap target at least
44 x 44 CSS pixels (Apple's minimum; Android asks 48 dp), no two of them overlapping, none
over a card of the hand, and each card of the hand on screen with a 44 x 44 pixel square
of it showing (the cards of a fanned hand cover each other in part, by design: a sliver
of a card, however long, is no target). At the table everything is on screen at once,
down to a pile's label; the other screens may scroll (a room of six seats on a landscape
phone), so there only the width must fit. At the table, too, no seat's plate may cover
another seat's plate or cards, the piles' marks (their counts, "14 beaten", and the
trump's suit) must keep clear of every tap target and stay off the plates (a label that
touches a button or a plate reads as theirs), and the status line keeps clear of the
buttons (a two-line status pressed against Pass reads as the button's caption) and its
words of the piles' marks ("24" over the status reads as part of it). The cards of the
bout lie clear of the piles, their marks and the buttons (a card under the stock or
Take is not seen whole, nor tapped to beat it), and the other seats' cards lie below the
bar along the top, not under it. A seat's plate says its role or status whole (an
"отбив…" for "отбивается" says nothing), and the bubbles over the plates stay on the
screen with the rest of the table."""

from __future__ import annotations

from dataclasses import dataclass

from browser import Page, Rect

__all__ = ["TARGET", "Layout", "measure"]

TARGET = 44  # CSS pixels: the smallest tap target, each way
CLEAR = 4  # CSS pixels: the least gap between a label (a pile's, the status) and a tap target
SLACK = 1  # CSS pixels: layout's sub-pixel rounding (a 44 px button measures 43.99997)

# The page's tap targets and hand, measured. Tap targets: buttons, fields, links and what
# the page marks tappable, when shown (not hidden, transparent or out of the flow). A
# card's showing area is counted on a 2-pixel grid of the points where the card is the
# element a finger would touch.
_MEASURE = """(() => {
  const shown = (e) => e.checkVisibility({opacityProperty: true, visibilityProperty: true})
    && getComputedStyle(e).pointerEvents !== "none";
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const name = (e) => e.tagName.toLowerCase() + [...e.classList].map((c) => "." + c).join("")
    + (e.textContent.trim() ? ` "${e.textContent.trim().slice(0, 20)}"` : "");
  const tappable = "button, input, select, textarea, a[href], .tappable";
  const targets = [...document.querySelectorAll(tappable)].filter(shown);
  const nested = [];
  targets.forEach((a, i) => targets.forEach((b, j) => {
    if (i !== j && a.contains(b)) nested.push([i, j]);
  }));
  const others = [...document.querySelectorAll("body *")].map((o) => [o, box(o)]);
  const hand = (window.durakTest?.hand ?? []).map((code) => {
    const e = document.querySelector(`.card.face[data-card="${code}"]`);
    if (!e) return {code, box: null, showing: 0, square: 0};
    const [x, y, w, h] = box(e);
    const cols = Math.ceil((w - 1) / 2), rows = Math.ceil((h - 1) / 2);
    const found = new Map();  // grid point (c, r) -> whether the card is on top there
    const shows = (c, r) => {
      const k = r * cols + c;
      if (!found.has(k)) {
        const top = document.elementFromPoint(x + 1 + 2 * c, y + 1 + 2 * r);
        found.set(k, top !== null && (top === e || e.contains(top)));
      }
      return found.get(k);
    };
    const showing = () => 4 * [...found.values()].filter(Boolean).length;
    // First the likeliest squares: at the card's top left, where the next card of a fan
    // and the row below leave it, a few points in (a tilted card's box has empty corners).
    // Such a square is whole when the card shows at every point of its four sides and no
    // other element lies wholly within it: an element that reaches into it and not wholly
    // within it crosses a side (where a point finds it, as the grid finds what covers a
    // point of it; either misses only a sliver thinner than the grid's step).
    const side = %(target)d / 2;
    const sides = [[0, 0], [side - 1, 0], [0, side - 1], [side - 1, side - 1]];  // corners first
    for (let n = 1; n < side - 1; n++) sides.push([n, 0], [n, side - 1], [0, n], [side - 1, n]);
    const within = (left, top, right, bottom) => others.some(([o, [ox, oy, ow, oh]]) =>
      ox >= left && oy >= top && ox + ow <= right && oy + oh <= bottom
      && o !== e && !e.contains(o));
    const whole = (c, r) => c + side <= cols && r + side <= rows
      && sides.every(([i, j]) => shows(c + i, r + j))
      && !within(x + 1 + 2 * c, y + 1 + 2 * r, x + 2 * (c + side) - 1, y + 2 * (r + side) - 1);
    for (let k = 0; k < 4; k++) {
      if (whole(k, k)) return {code, box: [x, y, w, h], showing: showing(), square: 2 * side};
    }
    // Else every point, row by row: the side of the largest square of shown points ending
    // at each (a card found to show a whole tap target is looked at no further).
    let square = 0;
    let above = [];
    for (let r = 0; r < rows && square < %(target)d; r++) {
      const row = [];
      for (let c = 0; c < cols; c++) {
        const run = shows(c, r)
          ? 1 + Math.min(row[c - 1] ?? 0, above[c] ?? 0, above[c - 1] ?? 0) : 0;
        row.push(run);
        square = Math.max(square, 2 * run);
      }
      above = row;
    }
    return {code, box: [x, y, w, h], showing: showing(), square};
  });
  const seen = (e) => e.checkVisibility({opacityProperty: true, visibilityProperty: true});
  const boxes = (selector) => [...document.querySelectorAll(selector)].filter(seen)
    .map((e) => [name(e), box(e), Number(e.dataset.seat ?? -1)]);
  const status = document.querySelector(".table .status");
  const text = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const held = new Set(window.durakTest?.hand ?? []);
  const bar = document.querySelector(".bar");
  const drawn = [...document.querySelectorAll(".table *:not(svg, svg *)")]
    .map((e) => [e, box(e)]).filter(([e, [, , w, h]]) => seen(e) && w * h > 0)
    .map(([e, r]) => [name(e), r]);
  return {width: innerWidth, height: innerHeight, targets: targets.map((e) => [name(e), box(e)]),
          nested, hand, screen: window.durakTest?.screen ?? null,
          plates: boxes(".table .plate"), backs: boxes(".table .card.back[data-seat]"),
          labels: boxes(".stock .count, .discard .count, .trump-mark"), drawn,
          status: status && seen(status) && status.textContent.trim()
            ? [name(status), box(status), text(status)] : null,
          bout: [...document.querySelectorAll(".cards .card.face")].filter(seen)
            .filter((e) => !held.has(e.dataset.card)).map((e) => [name(e), box(e), -1]),
          piles: boxes(".stock .card, .discard .card"),
          bar: bar && seen(bar) ? box(bar) : null,
          cut: [...document.querySelectorAll(".table .plate .role")].filter(seen)
            .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
            .map((e) => [name(e), box(e)])};
})()"""


@dataclass(frozen=True)
class Layout:
    """One screen's tap targets and hand, and what is wrong with them."""

    screen: str | None
    width: int
    height: int
    targets: list[tuple[str, Rect]]
    nested: set[tuple[int, int]]
    # each card's code, box, area showing and its largest square, both as far as the
    # measure looked: it stops at a square of TARGET, so the area is the card's whole
    # showing area only where no such square showed (the failure it is reported in)
    hand: list[tuple[str, Rect | None, int, int]]
    plates: list[tuple[str, Rect, int]]  # the other seats' plates at the table, and their seats
    backs: list[tuple[str, Rect, int]]  # the other seats' cards (their backs), and their seats
    labels: list[tuple[str, Rect, int]]  # the piles' labels at the table
    drawn: list[tuple[str, Rect]]  # everything seen at the table
    status: tuple[str, Rect, Rect] | None  # the status line at the table (its box, its text's)
    bout: list[tuple[str, Rect, int]]  # the cards on the table (not the hand's)
    piles: list[tuple[str, Rect, int]]  # the stock's cards (the trump under it) and the discards
    bar: Rect | None  # the bar along the top, over the table
    cut: list[tuple[str, Rect]]  # the plates' roles whose words do not fit their box

    def faults(self) -> list[str]:
        """What is wrong, in words (nothing: an empty list)."""
        return self.fingers() + self.seats()

    def seats(self) -> list[str]:
        """What is wrong with the other seats' plates, the piles' and status's marks, and
        what is drawn off the screen."""
        return (
            self.plates_and_marks()
            + self.status_clear()
            + self.off_screen()
            + self.bout_clear()
            + self.under_bar()
            + self.words_cut()
        )

    def fingers(self) -> list[str]:
        """What is wrong with the tap targets and the hand."""
        found = []
        for name, rect in self.targets:
            if not self.on_screen(rect):
                found.append(f"{name} is not all on screen: {rect}")
            if min(rect.width, rect.height) < TARGET - SLACK:
                found.append(f"{name} is smaller than {TARGET} px: {rect}")
        for i, (first, a) in enumerate(self.targets):
            for j in range(i + 1, len(self.targets)):
                second, b = self.targets[j]
                apart = (i, j) in self.nested or (j, i) in self.nested
                if not apart and a.overlaps(b):
                    found.append(f"{first} overlaps {second}: {a} {b}")
        for code, rect, showing, square in self.hand:
            if rect is None:
                found.append(f"the hand's {code} is not shown")
                continue
            if not self.on_screen(rect, whole=True):
                found.append(f"the hand's {code} is not all on screen: {rect}")
            if square < TARGET:
                found.append(
                    f"the hand's {code} shows no {TARGET}x{TARGET} square, at most"
                    f" {square}x{square} ({showing} px² in all): {rect}"
                )
            inner = rect.inset(SLACK * 4)  # a tilted card's box is a little larger than it
            found += [
                f"{name} lies over the hand's {code}"
                for name, r in self.targets
                if r.overlaps(inner)
            ]
        return found

    def plates_and_marks(self) -> list[str]:
        """What is wrong with the other seats' plates and the piles' marks."""
        found = []
        for i, (first, a, seat) in enumerate(self.plates):
            found += [
                f"the plates {first} and {second} overlap: {a} {b}"
                for second, b, _ in self.plates[i + 1 :]
                if a.overlaps(b)
            ]
            covered = {other for _, b, other in self.backs if other != seat and a.overlaps(b)}
            found += [f"seat {other}'s cards cover the plate {first}" for other in sorted(covered)]
        for label, a, _ in self.labels:
            found += [
                f"the label {label} touches {name}: {a} {r}"
                for name, r in self.targets
                if a.inset(-CLEAR).overlaps(r)
            ]
            found += [f"{label} is on {plate}" for plate, r, _ in self.plates if a.overlaps(r)]
        return found

    def status_clear(self) -> list[str]:
        """The status line's box against the buttons, its words against the piles and
        their marks."""
        if self.status is None:
            return []
        label, a, words = self.status
        return [
            f"the status {label} is within {CLEAR} px of {name}: {a} {r}"
            for name, r in self.targets
            if a.inset(-CLEAR).overlaps(r)
        ] + [
            f"the status's words {words} are within {CLEAR} px of {mark}: {r}"
            for mark, r, _ in self.labels + self.piles
            if r.width * r.height > 0 and words.inset(-CLEAR).overlaps(r)
        ]

    def bout_clear(self) -> list[str]:
        """The cards on the table against the piles (the stock, the trump under it, the
        discards) and the buttons: a card of the bout under another thing is not seen whole,
        nor tapped (a card to beat)."""
        found = []
        for card, a, _ in self.bout:
            inner = a.inset(SLACK * 4)  # a turned card's box is a little larger than it
            found += [
                f"{pile} touches the table's {card}: {r} {a}"
                for pile, r, _ in self.piles + self.labels
                if r.overlaps(inner)
            ]
            found += [
                f"{name} lies over the table's {card}: {r} {a}"
                for name, r in self.targets
                if r.overlaps(inner)
            ]
        return found

    def under_bar(self) -> list[str]:
        """The other seats' cards below the bar along the top, not under it."""
        if self.bar is None:
            return []
        return [
            f"{name} of seat {seat} is under the top bar: {r} {self.bar}"
            for name, r, seat in self.backs
            if r.top < self.bar.bottom - SLACK
        ]

    def words_cut(self) -> list[str]:
        """The plates' roles cut short (an ellipsis, or a line hidden)."""
        return [f"{name} is cut: {rect}" for name, rect in self.cut]

    def off_screen(self) -> list[str]:
        """What is drawn at the table past the screen's edges."""
        return [
            f"{name} is not all on screen: {rect}"
            for name, rect in self.drawn
            if not rect.inset(SLACK).inside(self.width, self.height)
        ]

    def on_screen(self, rect: Rect, whole: bool = False) -> bool:
        """Within the viewport (``whole``, or at the table: its height too)."""
        fits = rect.inset(SLACK).inside
        if whole or self.screen == "table":
            return fits(self.width, self.height)
        return fits(self.width, rect.bottom + SLACK)


async def measure(page: Page) -> Layout:
    found = await page.evaluate(_MEASURE % {"target": TARGET})
    return Layout(
        screen=found["screen"],
        width=found["width"],
        height=found["height"],
        targets=[(name, Rect(*box)) for name, box in found["targets"]],
        nested={(i, j) for i, j in found["nested"]},
        hand=[
            (
                c["code"],
                None if c["box"] is None else Rect(*c["box"]),
                c["showing"],
                c["square"],
            )
            for c in found["hand"]
        ],
        plates=[(name, Rect(*box), seat) for name, box, seat in found["plates"]],
        backs=[(name, Rect(*box), seat) for name, box, seat in found["backs"]],
        labels=[(name, Rect(*box), seat) for name, box, seat in found["labels"]],
        drawn=[(name, Rect(*box)) for name, box in found["drawn"]],
        status=None
        if found["status"] is None
        else (found["status"][0], Rect(*found["status"][1]), Rect(*found["status"][2])),
        bout=[(name, Rect(*box), seat) for name, box, seat in found["bout"]],
        piles=[(name, Rect(*box), seat) for name, box, seat in found["piles"]],
        bar=None if found["bar"] is None else Rect(*found["bar"]),
        cut=[(name, Rect(*box)) for name, box in found["cut"]],
    )
