// Where everything lies on the table for a size of screen and of hand: the hand fanned
// or in rows, the buttons and the status line above it, the other seats round the top
// of an oval, the bout's zone between the stock (the trump under it) and the discard
// pile, and the size of every card. Pure arithmetic: the scene asks again when the
// screen turns or the hand changes size.

export interface Geometry {
  w: number;
  h: number;
  cardH: number; // the base (hand) card height; every sprite is this size, scaled
  handY: number;
  handLeft: number;
  handRight: number;
  hand: HandShape;
  rowY: number; // the buttons' row, above the hand however many rows it takes
  statusY: number; // the status line's bottom (upright) or middle (on its side)
  tableS: number;
  oppS: number;
  stock: { x: number; y: number };
  discard: { x: number; y: number };
  zone: { x: number; y: number; w: number; h: number };
  cols: number;
  pairW: number; // the bout's pairs: from one column to the next
  pairH: number; // and from one row to the next
  seats: { x: number; y: number }[]; // by seat number
  bottom: number; // whose seat sits at the bottom
  plateW: number;
  portrait: boolean; // upright (as tall as wide or taller), else on its side
  tight: boolean; // the piles' counts on the piles, not under them
}

export const CARD_RATIO = 0.715;
export const BACK_SHOWN = 7;
// Each card of the hand shows a 44 px square at least (a tap target): a fanned row keeps
// FAN_STEP px of each card uncovered across (the tilt and the dip of the fan and the
// rounded corner cost up to 7 px of it at 844 x 390), flat rows SHOWN px across and down.
// On a phone on its side a third row would leave the bout no room, so rows there are
// packed SHOWN_ASIDE px across (the rounded corner costs less than a pixel of the 44 px
// square): 844 px wide holds a 36-card deck's biggest hand, 35 cards, in two rows of 18.
export const FAN_STEP = 54;
export const SHOWN = 48;
const SHOWN_ASIDE = 45;
// a hand of rows is of smaller cards; on a phone on its side smaller still, so that its
// second row lifts the buttons no nearer the bout than before (there is width to spare)
const ROWS_SCALE = 0.86;
const ROWS_SCALE_ASIDE = 0.76;
const PILE_TURN = (14 * Math.PI) / 180; // the most a back of the discard pile is turned
export const FAN_TURN_DEG = 9; // the most a back of another seat's fan is turned
export const FAN_TURN = (FAN_TURN_DEG * Math.PI) / 180;
export const DEG = Math.PI / 180;
// the bout's pairs at most this many of their cards' widths apart across, heights down
// (a pair's beating card lies 30 % of a width across and 16 % of a height down, and
// its name tag hangs under it)
const PAIR_ACROSS = 1.75;
const PAIR_DOWN = 1.45;

// the hand's arrangement: one fanned row, or flat rows of `perRow` cards (the last row,
// at the bottom, may have fewer), each row `gap` px above the next
export interface HandShape {
  rows: number;
  perRow: number;
  s: number;
  gap: number;
}

function handShape(cards: number, width: number, cardH: number, scale: number, across: number): HandShape {
  const cw = cardH * CARD_RATIO;
  if (cards < 2 || (width - cw) / (cards - 1) >= FAN_STEP) return { rows: 1, perRow: Math.max(1, cards), s: 1, gap: 0 };
  const most = Math.max(2, Math.floor((width - cw * scale) / across) + 1);
  const rows = Math.max(2, Math.ceil(cards / most)); // (one row is a fan's)
  return { rows, perRow: Math.ceil(cards / rows), s: scale, gap: Math.max(cardH * 0.36, SHOWN) };
}

// the table's places for a screen of w x h px, `players` seats with `bottom`'s at the
// bottom, and a hand of `cards` (a hand of more rows lifts the buttons and the status
// line, and the bout's zone gives way)
export function tableGeometry(w: number, h: number, players: number, bottom: number, cards: number): Geometry {
  const portrait = h >= w;
  const cardH = portrait ? clamp(Math.min(h * 0.16, w * 0.33), 84, 200) : clamp(h * 0.27, 80, 160);
  const handY = h - cardH * 0.58 - 6; // room below for the fan's dip and tilt
  const handLeft = 8;
  const hand = portrait
    ? handShape(cards, w - 2 * handLeft, cardH, ROWS_SCALE, SHOWN)
    : handShape(cards, w - 2 * handLeft, cardH, ROWS_SCALE_ASIDE, SHOWN_ASIDE);
  // a hand of rows reaches higher by its upper rows, less its smaller cards (and a
  // chosen card's lift)
  const raised = hand.rows > 1 ? (hand.rows - 1) * hand.gap - cardH * (1 - hand.s) + cardH * 0.08 : 0;
  const rowY = handY - cardH * 0.5 - 30 - raised;
  const statusY = portrait ? rowY - 34 : rowY; // two lines of it stay 12 px off the buttons
  // the other seats along a path up the left, across the top and down the right,
  // clockwise from the player's left, evenly spaced
  const plateW = clamp(w / (players - 0.4) - 10, 84, w < 420 ? 132 : 150);
  const margin = plateW / 2 + 6;
  // the seats across the top low enough that their fans of backs (riding 30 px above
  // them, turned at their ends) stay below the bar along the top: a tablet's are tall
  const oppS = clamp(clamp(Math.min(w, h) * 0.09, 38, 72) / cardH, 0.2, 0.5);
  const backTall = cardH * oppS * (Math.cos(FAN_TURN) + CARD_RATIO * Math.sin(FAN_TURN));
  const top = Math.max(54, 30 + backTall / 2 + 4);
  const low = portrait ? top + clamp(h * (players > 4 ? 0.25 : 0.2), 120, 360) : top + clamp(h * 0.12, 40, 120);
  const column = low - top;
  const across = w - 2 * margin;
  const length = 2 * column + across;
  // a seat up a side sits low enough that its fan of backs clears the plates across
  // the top (a plate is about 50 px tall; the fan rides 30 px above its seat)
  const under = top + 63 + (cardH * oppS) / 2;
  // on a phone on its side the path is nearly all top: seats too close there for their
  // plates are spread over the whole width instead
  const crowded = !portrait && length / players < plateW + 8;
  const apart = (w - 2 * margin) / Math.max(1, players - 2);
  const seats: { x: number; y: number }[] = [];
  for (let seat = 0; seat < players; seat++) {
    const k = (seat - bottom + players) % players;
    const at = (length * k) / players;
    if (k === 0) seats.push({ x: w / 2, y: handY });
    else if (crowded) seats.push({ x: margin + (k - 1) * apart, y: top });
    else if (at < column) seats.push({ x: margin, y: Math.max(low - at, portrait ? under : 0) });
    else if (at <= column + across) seats.push({ x: margin + at - column, y: top });
    else seats.push({ x: w - margin, y: Math.max(top + at - column - across, portrait ? under : 0) });
  }
  const plateBottom = Math.max(...seats.filter((_, i) => i !== bottom).map((p) => p.y), top) + 48;
  const zoneTop = portrait ? plateBottom : Math.max(plateBottom - 10, top + 40);
  const zoneBottom = statusY - 30;
  const side = portrait ? Math.min(74, w * 0.19) : Math.min(120, w * 0.14);
  const zone = { x: side, y: zoneTop, w: w - 2 * side, h: Math.max(60, zoneBottom - zoneTop) };
  const cols = portrait || w < 700 ? 3 : 6;
  const rows = Math.ceil(6 / cols);
  // the pairs as far apart as the zone allows, but no farther than a pair's own size
  // and a gap: a tablet's zone is wide and tall, and its pairs stay together in the
  // middle, their cards the larger for the piles left clear at the sides
  const apartAcross = (th: number): number => Math.min(zone.w / cols, th * CARD_RATIO * PAIR_ACROSS);
  const apartDown = (th: number): number => Math.min(zone.h / rows, th * PAIR_DOWN);
  const middle = zone.y + zone.h / 2;
  // the piles at the sides, wholly on screen (a tablet's side is narrower than its
  // piles): the trump lies across under the stock, out to the left by 30 % of a card's
  // height (app.css), and the discard pile's turned backs are wider than a card. The
  // bout's outer cards keep clear of them and of the trump's mark (beside the stock on
  // a phone on its side, above it upright): on a narrow phone the cards are made
  // smaller until they do.
  const piles = (th: number): { stock: number; discard: number; clear: boolean } => {
    const pileH = th * 0.9;
    const pileW = pileH * CARD_RATIO;
    const turned = (pileW * Math.cos(PILE_TURN) + pileH * Math.sin(PILE_TURN)) / 2;
    const stock = Math.max(side / 2, pileH * (0.5 + 0.3)) + 4;
    const discard = w - Math.max(side / 2, turned) - 4;
    const stockRight = stock + (portrait ? Math.max(pileW / 2, 13) : pileW / 2 + 6 + 26);
    const cw = th * CARD_RATIO;
    const pairW = apartAcross(th);
    const outer = ((cols - 1) / 2) * pairW;
    const centre = zone.x + zone.w / 2 - pairW * 0.08;
    const first = centre - outer - (cw * Math.cos(3 * DEG) + th * Math.sin(3 * DEG)) / 2;
    const last = centre + outer + cw * 0.3 + (cw * Math.cos(7 * DEG) + th * Math.sin(7 * DEG)) / 2;
    return { stock, discard, clear: first >= stockRight + 4 && last <= discard - turned - 4 };
  };
  let tableH = clamp(Math.min(zone.h / rows / 1.25, zone.w / cols / (CARD_RATIO * 1.3)), 50, cardH * 0.85);
  while (tableH > 50 && !piles(tableH).clear) tableH = Math.max(50, tableH - 2);
  const { stock, discard } = piles(tableH);
  // the piles' counts under them, unless that brings them within reach of two lines of
  // the status (a big hand lifts it; on its side it is beside the piles): then on them
  const tight = !portrait || middle + tableH * 0.45 + 26 + 4 > statusY - 40;
  return {
    w, h, cardH, hand, handY, rowY, statusY, bottom, cols, zone, seats, plateW, portrait, tight,
    pairW: apartAcross(tableH), pairH: apartDown(tableH),
    handLeft, handRight: w - handLeft,
    tableS: tableH / cardH,
    oppS,
    stock: { x: stock, y: middle },
    discard: { x: discard, y: middle },
  };
}

export function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
