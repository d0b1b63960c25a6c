"""What a layout must give a finger, measured in the page: every tap target at least
44 x 44 CSS pixels (Apple's minimum; Android asks 48 dp), no two of them overlapping, none
over a card of the hand, and each card of the hand on screen with at least 44 x 44
pixels' worth of it showing (the cards of a fanned hand cover each other in part, by
design). At the table everything is on screen at once; the other screens may scroll
(a room of six seats on a landscape phone), so there only the width must fit."""

from __future__ import annotations

from dataclasses import dataclass

from browser import Page, Rect

__all__ = ["TARGET", "Layout", "measure"]

TARGET = 44  # CSS pixels: the smallest tap target, each way
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
  const hand = (window.durakTest?.hand ?? []).map((code) => {
    const e = document.querySelector(`.card.face[data-card="${code}"]`);
    if (!e) return {code, box: null, showing: 0};
    const [x, y, w, h] = box(e);
    let showing = 0;
    for (let i = x + 1; i < x + w; i += 2)
      for (let j = y + 1; j < y + h; j += 2) {
        const top = document.elementFromPoint(i, j);
        if (top && (top === e || e.contains(top))) showing += 4;
      }
    return {code, box: [x, y, w, h], showing};
  });
  return {width: innerWidth, height: innerHeight, targets: targets.map((e) => [name(e), box(e)]),
          nested, hand, screen: window.durakTest?.screen ?? null};
})()"""


@dataclass(frozen=True)
class Layout:
    """One screen's tap targets and hand, and what is wrong with them."""

    screen: str | None
    width: int
    height: int
    targets: list[tuple[str, Rect]]
    nested: set[tuple[int, int]]
    hand: list[tuple[str, Rect | None, int]]

    def faults(self) -> list[str]:
        """What is wrong, in words (nothing: an empty list)."""
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
        for code, rect, showing in self.hand:
            if rect is None:
                found.append(f"the hand's {code} is not shown")
                continue
            if not self.on_screen(rect, whole=True):
                found.append(f"the hand's {code} is not all on screen: {rect}")
            if showing < TARGET * TARGET:
                found.append(f"the hand's {code} shows {showing} px², under {TARGET}x{TARGET}")
            inner = rect.inset(SLACK * 4)  # a tilted card's box is a little larger than it
            found += [
                f"{name} lies over the hand's {code}"
                for name, r in self.targets
                if r.overlaps(inner)
            ]
        return found

    def on_screen(self, rect: Rect, whole: bool = False) -> bool:
        """Within the viewport (``whole``, or at the table: its height too)."""
        fits = rect.inset(SLACK).inside
        if whole or self.screen == "table":
            return fits(self.width, self.height)
        return fits(self.width, rect.bottom + SLACK)


async def measure(page: Page) -> Layout:
    found = await page.evaluate(_MEASURE)
    return Layout(
        screen=found["screen"],
        width=found["width"],
        height=found["height"],
        targets=[(name, Rect(*box)) for name, box in found["targets"]],
        nested={(i, j) for i, j in found["nested"]},
        hand=[
            (c["code"], None if c["box"] is None else Rect(*c["box"]), c["showing"])
            for c in found["hand"]
        ],
    )
