// The table: the cards as sprites, moved by the host's events (deal, attack, beat,
// transfer, take, discard, draw), each event a step of the model with its own short
// animation; the update's view then resynchronises the model (a snapshot only does that).
// The player's hand is fanned at the bottom, the other seats sit round the top of an oval
// with their backs and counts, the bout's pairs lie in the middle between the stock (with
// the trump under it) and the discard pile. Tap a card to play it (or to choose it, then
// tap its target), or drag it there; the view's `legal` and `hints` dim what cannot be
// played and say why.
import { cardText, faceSvg, lookSvg, suitSvg, SUIT_COLOUR } from "./art";
import { button, clear, el, svgNode } from "./dom";
import type { Translator } from "./i18n";
import { rankOf, sameAction, suitOf } from "./proto";
import type { Action, Card, GameEvent, Pair, Room, View } from "./proto";
import { Animator, type Pose, type Sprite } from "./tween";

export interface TableHost {
  tr: Translator;
  room(): Room | null;
  seat(): number | null; // null: watching
  act(action: Action): void;
  emote(code: string): void;
  showLog(): void;
  toast(text: string): void;
  gameEnded(view: View): void;
}

interface Model {
  by: Map<Card, number>; // who put each table card down, as far as we saw it
  hand: Card[];
  sizes: number[];
  table: Pair[];
  stock: number;
  discard: number;
  trump: Card | null;
  attacker: number;
  defender: number;
  taking: boolean;
  passed: number[];
  places: number[];
  phase: View["phase"];
  throwers: number[];
}

interface Geometry {
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
  tight: boolean; // the piles' counts on the piles, not under them
}

const CARD_RATIO = 0.715;
const BACK_SHOWN = 7;
// Each card of the hand shows a 44 px square at least (a tap target): a fanned row keeps
// FAN_STEP px of each card uncovered across (the tilt and the dip of the fan and the
// rounded corner cost up to 7 px of it at 844 x 390), flat rows SHOWN px across and down.
// On a phone on its side a third row would leave the bout no room, so rows there are
// packed SHOWN_ASIDE px across (the rounded corner costs less than a pixel of the 44 px
// square): 844 px wide holds a 36-card deck's biggest hand, 35 cards, in two rows of 18.
const FAN_STEP = 54;
const SHOWN = 48;
const SHOWN_ASIDE = 45;
// a hand of rows is of smaller cards; on a phone on its side smaller still, so that its
// second row lifts the buttons no nearer the bout than before (there is width to spare)
const ROWS_SCALE = 0.86;
const ROWS_SCALE_ASIDE = 0.76;
const PILE_TURN = (14 * Math.PI) / 180; // the most a back of the discard pile is turned
const FAN_TURN_DEG = 9; // the most a back of another seat's fan is turned
const FAN_TURN = (FAN_TURN_DEG * Math.PI) / 180;
const DEG = Math.PI / 180;
// the bout's pairs at most this many of their cards' widths apart across, heights down
// (a pair's beating card lies 30 % of a width across and 16 % of a height down, and
// its name tag hangs under it)
const PAIR_ACROSS = 1.75;
const PAIR_DOWN = 1.45;
const BUBBLE_EDGE = 4; // px: the least gap between a bubble over a plate and the screen's side

// the hand's arrangement: one fanned row, or flat rows of `perRow` cards (the last row,
// at the bottom, may have fewer), each row `gap` px above the next
interface HandShape {
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

function emptyModel(players: number): Model {
  return {
    by: new Map(), hand: [], sizes: Array(players).fill(0), table: [], stock: 0, discard: 0, trump: null,
    attacker: 0, defender: 1, taking: false, passed: [], places: Array(players).fill(0),
    phase: "lead", throwers: [],
  };
}

function modelOf(view: View, by: Map<Card, number>): Model {
  const onTable = new Set(view.table.flat());
  return {
    by: new Map([...by].filter(([card]) => onTable.has(card))),
    hand: [...(view.hand ?? [])], sizes: [...view.hand_sizes],
    table: view.table.map(([a, d]) => [a, d] as Pair), stock: view.stock, discard: view.discard,
    trump: view.trump_card, attacker: view.attacker, defender: view.defender, taking: view.taking,
    passed: [...view.passed], places: [...view.places], phase: view.phase, throwers: [...view.throwers],
  };
}

export class TableScene {
  readonly root = el("div", "table");
  private readonly felt = el("div", "felt");
  private readonly cards = el("div", "cards");
  private readonly plates = el("div", "plates");
  private readonly hud = el("div", "hud");
  private readonly status = el("div", "status");
  private readonly buttons = el("div", "buttons");
  private readonly stockNode = el("div", "stock");
  private readonly discardNode = el("div", "discard");
  private readonly zoneNode = el("div", "zone");
  private readonly trumpMark = el("div", "trump-mark");
  private readonly anim: Animator;
  private model: Model = emptyModel(2);
  view: View | null = null;
  private geo: Geometry | null = null;
  private geoCards = 0; // the hand's size the geometry was made for
  private queue: (() => number)[] = [];
  private running = false;
  private selected: Card[] = [];
  private mode: "transfer" | "show" | null = null;
  private drag: { card: Card; id: number; x0: number; y0: number; moved: boolean } | null = null;
  private bubbles = new Map<number, { text: string; until: number }>();
  private emotes = new Map<number, { text: string; until: number }>();
  private ended = false;
  private baseH = 0; // the card height the sprites are sized for
  private readonly drawn = new Map<string, string>(); // what each part was drawn from

  constructor(private readonly host: TableHost) {
    this.anim = new Animator(this.cards);
    this.root.append(this.felt, this.zoneNode, this.stockNode, this.discardNode, this.plates, this.cards, this.hud);
    this.hud.append(this.status, this.buttons);
    this.stockNode.append(this.trumpMark);
    this.root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.root.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.root.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.root.addEventListener("pointercancel", () => this.cancelDrag());
    window.addEventListener("resize", () => this.relayout(0)); // a turned phone: at once
    window.setInterval(() => this.refreshPlates(), 500);
  }

  get idle(): boolean {
    return !this.running && this.queue.length === 0 && this.anim.idle;
  }

  get hand(): Card[] {
    return [...(this.view?.hand ?? [])];
  }

  get legal(): Action[] {
    return this.view?.legal ?? [];
  }

  // whether `state` is what `part` was last drawn from (then it need not be drawn again)
  private unchanged(part: string, state: unknown): boolean {
    const key = JSON.stringify(state);
    if (this.drawn.get(part) === key) return true;
    this.drawn.set(part, key);
    return false;
  }

  // a snapshot, or the page coming back: the whole picture at once, no animation
  resync(view: View): void {
    this.queue = [];
    this.view = view;
    this.ended = view.phase === "over";
    this.model = modelOf(view, this.model.by);
    this.selected = [];
    this.mode = null;
    this.relayout(0);
  }

  update(events: GameEvent[], view: View): void {
    if (events[0]?.event === "dealt") {
      this.model = emptyModel(view.rules.players);
      this.model.stock = view.rules.deck_size;
      this.ended = false;
      this.queue = [];
      this.relayout(0);
    }
    for (const event of events) this.queue.push(() => this.step(event));
    this.queue.push(() => {
      this.view = view;
      this.model = modelOf(view, this.model.by);
      this.selected = this.selected.filter((card) => this.model.hand.includes(card));
      this.mode = null;
      this.layout({ duration: 0.25 });
      if (view.phase === "over" && !this.ended) {
        this.ended = true;
        this.host.gameEnded(view);
      }
      return 0;
    });
    this.pump();
  }

  rejected(): void {
    this.selected = [];
    this.mode = null;
    this.relayout();
  }

  emoted(seat: number, text: string): void {
    this.emotes.set(seat, { text, until: performance.now() + 2600 });
    this.refreshPlates();
  }

  relayout(duration = 0.2): void {
    this.geo = null;
    this.layout({ duration });
  }

  private pump(): void {
    if (this.running) return;
    const next = this.queue.shift();
    if (!next) return;
    this.running = true;
    let seconds = next();
    if (document.hidden) seconds = 0;
    else if (this.queue.length > 10) seconds *= 0.25;
    this.anim.holdFor(seconds * 1000);
    window.setTimeout(() => {
      this.running = false;
      this.pump();
    }, seconds * 1000);
  }

  private me(): number | null {
    return this.host.seat();
  }

  private name(seat: number): string {
    const room = this.host.room();
    return room?.seats[seat]?.name || this.host.tr.t("table.seat", { n: seat + 1 });
  }

  private said(seat: number, key: string, n?: number): void {
    const tr = this.host.tr;
    this.bubbles.set(seat, { text: n === undefined ? tr.t(key) : tr.plural(key, n), until: performance.now() + 1400 });
  }

  // one event: change the model, start its animation, say how long it takes (seconds)
  private step(event: GameEvent): number {
    const m = this.model;
    const me = this.me();
    const g = this.geometry();
    const seat = event.seat ?? 0;
    const fromSeat = (card: Card): Map<string, Pose> => new Map([[card, this.seatPose(g, seat)]]);
    switch (event.event) {
      case "dealt":
      case "drew": {
        const count = event.count ?? 0;
        const origin = new Map<string, Pose>();
        const stockPose = { x: g.stock.x, y: g.stock.y, r: 0, s: g.tableS * 0.9, o: 1 };
        if (seat === me && event.cards) {
          for (const card of event.cards) origin.set(card, stockPose);
          m.hand.push(...event.cards);
        } else {
          for (let i = m.sizes[seat] ?? 0; i < (m.sizes[seat] ?? 0) + count; i++) origin.set(`b${seat}.${i}`, stockPose);
        }
        m.sizes[seat] = (m.sizes[seat] ?? 0) + count;
        m.stock = Math.max(0, m.stock - count);
        if (event.event === "drew") this.said(seat, "said.draws", count);
        this.layout({ duration: 0.32, origin, stagger: 0.05 });
        return 0.2 + 0.05 * count;
      }
      case "trump_turned":
        m.trump = event.card ?? null;
        this.layout({ duration: 0.3 });
        return 0.5;
      case "first_attacker":
        this.host.toast(this.firstText(event));
        return 0.3;
      case "bout_started":
        m.attacker = event.attacker ?? 0;
        m.defender = event.defender ?? 1;
        m.taking = false;
        m.passed = [];
        m.phase = "lead";
        this.layout({ duration: 0.2 });
        return 0.15;
      case "attacked":
      case "threw_in": {
        const played = event.cards ?? (event.card ? [event.card] : []);
        const origin = new Map<string, Pose>();
        for (const card of played) {
          m.table.push([card, null]);
          m.by.set(card, seat);
          if (seat !== me) origin.set(card, this.seatPose(g, seat));
        }
        this.take(seat, played);
        m.phase = "open";
        m.passed = [];
        this.said(seat, event.event === "attacked" ? "said.leads" : "said.throws_in");
        this.layout({ duration: 0.38, origin });
        return 0.4;
      }
      case "covered": {
        const card = event.card ?? "";
        const pair = m.table.find(([attack]) => attack === event.target);
        if (pair) pair[1] = card;
        m.by.set(card, seat);
        this.take(seat, [card]);
        m.passed = [];
        this.said(seat, "said.beats");
        this.layout({ duration: 0.38, origin: seat === me ? undefined : fromSeat(card) });
        return 0.42;
      }
      case "transferred": {
        const card = event.card ?? "";
        if (event.shown) {
          this.said(seat, "said.shows");
          this.host.toast(`${this.name(seat)}: ${cardText(card)} → ${this.name(event.to ?? 0)}`);
        } else {
          m.table.push([card, null]);
          m.by.set(card, seat);
          this.take(seat, [card]);
          this.said(seat, "said.transfers");
        }
        m.attacker = seat;
        m.defender = event.to ?? 0;
        m.passed = [];
        this.layout({ duration: 0.38, origin: seat === me ? undefined : fromSeat(card) });
        return 0.5;
      }
      case "taking":
        m.taking = true;
        this.said(seat, "said.takes");
        this.layout({ duration: 0.2 });
        return 0.35;
      case "passed":
        m.passed.push(seat);
        this.said(seat, "said.passes");
        this.refreshPlates();
        return 0.15;
      case "discarded": {
        const exit = new Map<string, Pose>();
        for (const card of m.table.flat()) if (card) exit.set(card, { x: g.discard.x, y: g.discard.y, r: 12, s: g.tableS * 0.9, o: 0 });
        m.discard += (event.cards ?? []).length;
        m.table = [];
        this.layout({ duration: 0.42, exit });
        return 0.45;
      }
      case "picked_up": {
        const cards = event.cards ?? [];
        const exit = new Map<string, Pose>();
        if (seat === me) m.hand.push(...cards);
        else for (const card of cards) exit.set(card, { ...this.seatPose(g, seat), o: 0 });
        m.sizes[seat] = (m.sizes[seat] ?? 0) + cards.length;
        m.table = [];
        m.taking = false;
        this.said(seat, "said.picks_up", cards.length);
        this.layout({ duration: 0.45, exit });
        return 0.5;
      }
      case "went_out":
        m.places[seat] = event.place ?? 0;
        this.refreshPlates();
        return 0.3;
      case "game_ended":
        m.phase = "over";
        return 0.3;
      default:
        return 0;
    }
  }

  private take(seat: number, cards: Card[]): void {
    const m = this.model;
    if (seat === this.me()) m.hand = m.hand.filter((card) => !cards.includes(card));
    m.sizes[seat] = Math.max(0, (m.sizes[seat] ?? 0) - cards.length);
  }

  private firstText(event: GameEvent): string {
    const tr = this.host.tr;
    const seat = event.seat ?? 0;
    const shown = typeof event.shown === "string" ? cardText(event.shown) : null;
    if (seat === this.me()) return shown ? tr.t("toast.first_you_shown", { card: shown }) : tr.t("toast.first_you");
    const name = this.name(seat);
    return shown ? tr.t("toast.first_shown", { name, card: shown }) : tr.t("toast.first", { name });
  }

  // ---- layout ---------------------------------------------------------------------

  // the table's places for this size of window and of hand (a hand of more rows lifts
  // the buttons and the status line, and the bout's zone gives way)
  private geometry(): Geometry {
    const cards = this.model.hand.length;
    if (this.geo && this.geoCards === cards) return this.geo;
    this.geoCards = cards;
    const w = this.root.clientWidth || window.innerWidth;
    const h = this.root.clientHeight || window.innerHeight;
    const players = this.view?.rules.players ?? this.host.room()?.rules.players ?? 2;
    const bottom = this.me() ?? 0;
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
    return (this.geo = {
      w, h, cardH, hand, handY, rowY, statusY, bottom, cols, zone, seats, plateW, tight,
      pairW: apartAcross(tableH), pairH: apartDown(tableH),
      handLeft, handRight: w - handLeft,
      tableS: tableH / cardH,
      oppS,
      stock: { x: stock, y: middle },
      discard: { x: discard, y: middle },
    });
  }

  private seatPose(g: Geometry, seat: number): Pose {
    const p = g.seats[seat] ?? { x: g.w / 2, y: 0 };
    return { x: p.x, y: p.y, r: 0, s: g.oppS, o: 1 };
  }

  private sortedHand(): Card[] {
    const trump = this.model.trump ? suitOf(this.model.trump) : "";
    const order = (card: Card): number => {
      const suit = suitOf(card);
      const group = suit === trump ? 4 : "cdhs".indexOf(suit);
      return group * 20 + rankOf(card);
    };
    return [...this.model.hand].sort((a, b) => order(a) - order(b));
  }

  private layout(opts: { duration: number; origin?: Map<string, Pose>; exit?: Map<string, Pose>; stagger?: number }): void {
    const g = this.geometry();
    const m = this.model;
    const me = this.me();
    // (`seat`: whose backs these are, marked on the card for the layout tests of tests/web)
    const targets = new Map<string, { pose: Pose; face: Card | null; z: number; seat?: number }>();
    // the hand: fanned, or in flat rows when a fan would cover too much of each card
    const hand = this.sortedHand();
    const { rows: lines, perRow, s, gap } = g.hand;
    const fan = lines === 1;
    const cw = g.cardH * CARD_RATIO * s;
    // (a fan's end cards are turned by up to 7°: their corners reach out past them)
    const room = g.handRight - g.handLeft - cw - (fan ? g.cardH * s * Math.sin(7 * DEG) : 0);
    hand.forEach((card, i) => {
      const row = Math.min(lines - 1, Math.floor(i / perRow));
      const count = row < lines - 1 ? perRow : hand.length - perRow * (lines - 1);
      const j = i - row * perRow;
      const step = count > 1 ? Math.min(Math.max(cw * 0.62, fan ? FAN_STEP : SHOWN), room / (count - 1)) : 0;
      const width = step * (count - 1);
      const t = count > 1 ? j / (count - 1) - 0.5 : 0;
      const lift = this.selected.includes(card) ? g.cardH * 0.2 : 0;
      const x = g.w / 2 - width / 2 + j * step;
      const rowY = g.handY + (g.cardH * (1 - s)) / 2 - (lines - 1 - row) * gap;
      const y = rowY + (fan ? t * t * g.cardH * 0.18 : 0) - lift;
      const r = fan ? t * Math.min(14, count * 1.6) : 0;
      targets.set(card, { pose: { x, y, r, s, o: 1 }, face: card, z: 100 + row * 50 + j });
    });
    // the other seats' backs (and, for a watcher, the bottom seat's)
    m.sizes.forEach((count, seat) => {
      if (seat === me) return;
      const p = g.seats[seat];
      if (!p) return;
      const shown = Math.min(count, BACK_SHOWN);
      const bottomSeat = seat === g.bottom;
      const s = bottomSeat ? g.tableS : g.oppS;
      const spread = g.cardH * CARD_RATIO * s * (bottomSeat ? 0.5 : 0.3);
      // the fan, turned up to 9° at its ends, kept on screen (a seat at the side of a
      // tablet holds more cards than its plate is wide)
      const end = (g.cardH * s * (CARD_RATIO * Math.cos(FAN_TURN) + Math.sin(FAN_TURN))) / 2;
      const half = (spread * (shown - 1)) / 2 + end + 2;
      const centre = half * 2 < g.w ? clamp(p.x, half, g.w - half) : p.x;
      for (let i = 0; i < shown; i++) {
        const t = shown > 1 ? i / (shown - 1) - 0.5 : 0;
        const x = centre + t * spread * (shown - 1);
        const y = p.y - (bottomSeat ? 0 : 30) + t * t * 6;
        targets.set(`b${seat}.${i}`, { pose: { x, y, r: t * 2 * FAN_TURN_DEG, s, o: 1 }, face: null, z: 10 + i, seat });
      }
    });
    // the bout's pairs
    const { pairW, pairH } = g;
    const used = Math.min(m.table.length, g.cols);
    const usedRows = Math.max(1, Math.ceil(m.table.length / g.cols));
    m.table.forEach(([attack, defence], i) => {
      const col = i % g.cols;
      const row = Math.floor(i / g.cols);
      const x = g.zone.x + g.zone.w / 2 + (col - (used - 1) / 2) * pairW - pairW * 0.08;
      const y = g.zone.y + g.zone.h / 2 + (row - (usedRows - 1) / 2) * pairH - g.cardH * g.tableS * 0.08;
      targets.set(attack, { pose: { x, y, r: -3, s: g.tableS, o: 1 }, face: attack, z: 40 + i * 2 });
      if (defence) {
        const dx = g.cardH * g.tableS * CARD_RATIO * 0.3;
        const dy = g.cardH * g.tableS * 0.16;
        targets.set(defence, { pose: { x: x + dx, y: y + dy, r: 7, s: g.tableS, o: 1 }, face: defence, z: 41 + i * 2 });
      }
    });
    this.placeStatic(g);
    // every sprite has the base card size: a new geometry (a turned phone) resizes them all
    if (this.baseH !== g.cardH) {
      this.baseH = g.cardH;
      for (const sprite of this.anim.sprites.values()) this.size(sprite.node, g);
    }
    // move what stays, bring in what is new, send off what went
    let k = 0;
    for (const [key, target] of targets) {
      let sprite = this.anim.sprites.get(key);
      const delay = opts.stagger && opts.origin?.has(key) ? k++ * opts.stagger : 0;
      if (!sprite || sprite.motion?.to.o === 0) {
        if (sprite) this.anim.drop(sprite);
        const origin = opts.origin?.get(key) ?? { ...target.pose, o: 0 };
        sprite = this.anim.add(key, this.cardNode(target.face), origin);
      } else if (target.face && sprite.node.dataset.card !== target.face) {
        this.anim.drop(sprite);
        sprite = this.anim.add(key, this.cardNode(target.face), sprite.pose);
      }
      if (target.seat !== undefined) sprite.node.dataset.seat = String(target.seat);
      sprite.z = target.z;
      sprite.node.style.zIndex = String(target.z);
      if (this.drag?.card === key && this.drag.moved) continue;
      this.anim.move(sprite, target.pose, opts.duration, delay);
    }
    for (const sprite of [...this.anim.sprites.values()]) {
      if (targets.has(sprite.key)) continue;
      const exit = opts.exit?.get(sprite.key);
      if (exit) this.anim.move(sprite, exit, opts.duration, 0, true);
      else if (sprite.motion?.remove !== true) this.anim.move(sprite, { ...sprite.pose, o: 0 }, Math.min(0.2, opts.duration), 0, true);
    }
    this.tag(g);
    this.dress();
    this.refreshPlates();
    this.refreshHud();
  }

  // the name of who played each card on the table, under it
  private tag(g: Geometry): void {
    const onTable = new Set(this.model.table.flat());
    for (const sprite of this.anim.sprites.values()) {
      const card = sprite.node.dataset.card;
      let label = sprite.node.querySelector(".tag") as HTMLElement | null;
      const seat = card && onTable.has(card) ? this.model.by.get(card) : undefined;
      if (seat === undefined || seat === this.me()) {
        label?.remove();
        continue;
      }
      if (!label) {
        label = el("div", "tag");
        sprite.node.append(label);
      }
      label.textContent = this.name(seat);
      label.style.fontSize = `${(11 / g.tableS).toFixed(1)}px`;
    }
  }

  private size(node: HTMLElement, g: Geometry): void {
    node.style.width = `${(g.cardH * CARD_RATIO).toFixed(1)}px`;
    node.style.height = `${g.cardH.toFixed(1)}px`;
  }

  private cardNode(face: Card | null): HTMLElement {
    const node = el("div", face ? "card face" : "card back");
    this.size(node, this.geometry());
    if (face) {
      node.dataset.card = face;
      node.innerHTML = faceSvg(face);
    }
    return node;
  }

  // the stock with the trump under it, the discard pile, the drop zone
  private placeStatic(g: Geometry): void {
    const m = this.model;
    if (this.unchanged("static", [g.cardH, g.tableS, g.stock, g.discard, g.zone, m.trump, m.stock, m.discard, this.host.tr.language])) return;
    const th = g.cardH * g.tableS * 0.9;
    const tw = th * CARD_RATIO;
    for (const node of [this.stockNode, this.discardNode]) {
      node.style.width = `${tw.toFixed(1)}px`;
      node.style.height = `${th.toFixed(1)}px`;
    }
    this.stockNode.style.transform = `translate(${(g.stock.x - tw / 2).toFixed(1)}px,${(g.stock.y - th / 2).toFixed(1)}px)`;
    this.discardNode.style.transform = `translate(${(g.discard.x - tw / 2).toFixed(1)}px,${(g.discard.y - th / 2).toFixed(1)}px)`;
    clear(this.stockNode);
    if (m.trump) {
      const trumpSuit = suitOf(m.trump);
      if (m.stock > 0) {
        const trump = el("div", "card face under");
        trump.innerHTML = faceSvg(m.trump);
        this.stockNode.append(trump);
      }
      if (m.stock > 1) this.stockNode.append(el("div", "card back"));
      this.trumpMark.innerHTML = suitSvg(trumpSuit, SUIT_COLOUR(trumpSuit));
      this.stockNode.append(this.trumpMark);
    }
    this.stockNode.append(el("div", "count", m.stock > 0 ? String(m.stock) : ""));
    clear(this.discardNode);
    if (m.discard > 0) {
      for (let i = 0; i < Math.min(3, Math.ceil(m.discard / 6)); i++) {
        const back = el("div", "card back");
        back.style.transform = `rotate(${[-14, 9, -3][i] ?? 0}deg)`;
        this.discardNode.append(back);
      }
      this.discardNode.append(el("div", "count", this.host.tr.t("table.beaten_pile", { n: m.discard })));
    }
    const z = g.zone;
    this.zoneNode.style.transform = `translate(${z.x.toFixed(1)}px,${z.y.toFixed(1)}px)`;
    this.zoneNode.style.width = `${z.w.toFixed(1)}px`;
    this.zoneNode.style.height = `${z.h.toFixed(1)}px`;
  }

  // dim what cannot be played, glow what can, mark what the chosen card can go to
  private dress(): void {
    const legal = this.legal;
    const hints = new Map(this.view?.hints ?? []);
    const playable = new Set<Card>();
    for (const action of legal) for (const card of action.cards ?? (action.card ? [action.card] : [])) playable.add(card);
    const targets = new Set(legal.filter((a) => a.verb === "beat" && this.selected.includes(a.card ?? "")).map((a) => a.target ?? ""));
    for (const sprite of this.anim.sprites.values()) {
      const card = sprite.node.dataset.card;
      if (!card) continue;
      const inHand = this.model.hand.includes(card);
      sprite.node.classList.toggle("dim", inHand && hints.has(card) && legal.length > 0);
      sprite.node.classList.toggle("playable", inHand && playable.has(card));
      sprite.node.classList.toggle("chosen", inHand && this.selected.includes(card));
      sprite.node.classList.toggle("target", !inHand && targets.has(card));
    }
    const zoneOpen = this.selected.length > 0 && legal.some((a) => a.verb !== "beat" && (a.cards ?? [a.card]).some((c) => c && this.selected.includes(c)));
    this.zoneNode.classList.toggle("open", zoneOpen);
  }

  // who is awaited: the leader, the defender with cards to beat, or the throwers
  private awaited(): Set<number> {
    const m = this.model;
    const out = new Set<number>();
    if (m.phase === "over") return out;
    if (m.phase === "lead") out.add(m.attacker);
    else if (m.table.some(([, d]) => d === null) && !m.taking) out.add(m.defender);
    else for (const seat of m.throwers) if (!m.passed.includes(seat) && seat !== m.defender && !m.places[seat]) out.add(seat);
    return out;
  }

  private refreshPlates(): void {
    this.drawPlates();
    this.placeBubbles();
  }

  // each bubble under the middle of its plate, moved along as far as it takes to keep it
  // on the screen (a plate near a side of a small phone has a long "забирает 8 карт" wider
  // than the room between the plate's middle and the edge); measured once the plates are
  // in the page, so that any words in any language fit
  private placeBubbles(): void {
    const g = this.geometry();
    for (const plate of this.plates.querySelectorAll<HTMLElement>(".plate")) {
      const bubble = plate.querySelector<HTMLElement>(".bubble");
      const p = g.seats[Number(plate.dataset.seat)];
      if (!bubble || !p) continue;
      const left = p.x - g.plateW / 2; // the plate's left edge on the screen
      const width = bubble.offsetWidth;
      const x = clamp(g.plateW / 2 - width / 2, BUBBLE_EDGE - left, g.w - BUBBLE_EDGE - left - width);
      bubble.style.left = `${x.toFixed(1)}px`;
    }
  }

  private drawPlates(): void {
    const g = this.geometry();
    const room = this.host.room();
    const tr = this.host.tr;
    const me = this.me();
    const m = this.model;
    const now = performance.now();
    const awaited = this.awaited();
    const said = [...this.bubbles, ...this.emotes].filter(([, b]) => b.until > now).map(([seat, b]) => [seat, b.text]);
    const result = m.phase === "over" ? this.view?.result?.durak : undefined;
    const state = [room?.seats, m.sizes, m.places, m.attacker, m.defender, m.taking, m.phase, result, [...awaited], said, g.w, g.h, g.plateW, tr.language];
    if (this.unchanged("plates", state)) return;
    clear(this.plates);
    m.sizes.forEach((count, seat) => {
      if (seat === me) return;
      const p = g.seats[seat];
      if (!p) return;
      const info = room?.seats[seat];
      const plate = el("div", "plate");
      plate.dataset.seat = String(seat);
      plate.style.width = `${g.plateW.toFixed(0)}px`;
      if (awaited.has(seat)) plate.classList.add("turn");
      if (info && !info.connected && info.kind === "human") plate.classList.add("away");
      const badge = info?.look !== null && info?.look !== undefined ? svgNode("badge", lookSvg(info.look)) : el("span", "badge none", info?.kind === "ai" ? "AI" : "");
      const nameLine = el("div", "name", this.name(seat));
      let roleText = "";
      const durak = m.phase === "over" ? this.view?.result?.durak : undefined;
      if (durak === seat) roleText = tr.t("role.Durak");
      else if (m.places[seat]) roleText = tr.t("table.out_place", { place: tr.ordinal(m.places[seat] ?? 0) });
      else if (seat === m.defender) roleText = tr.t(m.taking ? "role.taking" : "role.defending");
      else if (seat === m.attacker) roleText = tr.t("role.attacking");
      if (info?.back_soon) roleText = tr.t("seat_status.back_soon");
      else if (info?.status === "away") roleText = tr.t("seat_status.away");
      else if (info?.status === "stand_in") roleText = tr.t("seat_status.stand_in");
      // the count of cards on the badge's corner, so that the role has the plate's whole
      // width under the name ("отбивается" on a phone's narrow plate)
      const avatar = el("span", "avatar");
      avatar.append(badge, el("span", "count", String(count)));
      const line = el("div", "line");
      line.append(avatar, nameLine);
      plate.append(line, el("div", "role", roleText));
      const thinking = awaited.has(seat) && (info?.kind === "ai" || info?.status === "stand_in");
      const bubble = this.emotes.get(seat) ?? this.bubbles.get(seat);
      if (bubble && bubble.until > now) plate.append(el("div", "bubble", bubble.text));
      else if (thinking) plate.append(el("div", "bubble thinking", tr.t("web.thinking")));
      const bottomSeat = seat === g.bottom;
      const y = bottomSeat ? p.y - g.cardH * g.tableS * 0.5 - 30 : p.y;
      plate.style.transform = `translate(${p.x.toFixed(1)}px,${y.toFixed(1)}px) translate(-50%,-50%)`;
      this.plates.append(plate);
    });
    if (me !== null) {
      const mine = this.emotes.get(me) ?? this.bubbles.get(me);
      if (mine && mine.until > now) {
        const bubble = el("div", "bubble mine", mine.text);
        bubble.style.left = `${(g.w / 2).toFixed(1)}px`;
        bubble.style.top = `${(g.rowY + 30 - g.cardH * 0.4).toFixed(1)}px`;
        this.plates.append(bubble);
      }
    }
  }

  private statusText(): string {
    const tr = this.host.tr;
    const m = this.model;
    const me = this.me();
    const attacker = this.name(m.attacker);
    const defender = this.name(m.defender);
    if (m.phase === "over") return "";
    if (me === null) return tr.t("status.attacks", { attacker, defender });
    const legal = this.legal;
    const verbs = new Set(legal.map((a) => a.verb));
    const allBeaten = m.table.length > 0 && m.table.every(([, d]) => d !== null);
    if (m.places[me]) return tr.t("status.out");
    if (me === m.defender) {
      if (m.taking) return tr.t("status.taking");
      if (verbs.has("beat") || verbs.has("take")) return tr.t(verbs.has("transfer") || verbs.has("show") ? "status.defend_transfer" : "status.defend");
      return tr.t("status.attacks_you", { name: attacker });
    }
    if (verbs.has("attack")) return tr.t("status.lead");
    if (verbs.has("throw") && verbs.has("pass")) return tr.t(allBeaten && me === m.attacker ? "status.throw_in_beaten" : "status.throw_in_pass");
    if (verbs.has("throw")) return tr.t("status.may_throw_in");
    if (me === m.attacker) return tr.t("status.you_attack", { name: defender });
    return tr.t("status.attacks", { attacker, defender });
  }

  private refreshHud(): void {
    const g = this.geometry();
    const tr = this.host.tr;
    const m = this.model;
    const me = this.me();
    this.status.textContent = this.mode === "transfer" ? tr.t("intent.choose_transfer") : this.mode === "show" ? tr.t("intent.choose_show") : this.statusText();
    this.status.classList.toggle("yours", this.legal.length > 0);
    // (upright the status line grows upwards from its bottom, on its side from its middle,
    // so that a second line of it never comes down onto the buttons)
    const landscape = g.w > g.h;
    this.status.style.transform = `translate(0,${g.statusY.toFixed(1)}px) translateY(${landscape ? -50 : -100}%)`;
    this.buttons.style.transform = `translate(0,${(g.rowY - 22).toFixed(1)}px)`;
    this.root.classList.toggle("landscape", landscape);
    this.root.classList.toggle("tight", g.tight);
    const legal = this.legal;
    if (this.unchanged("buttons", [legal, this.selected, m.table, m.attacker, m.taking, me, tr.language])) return;
    clear(this.buttons);
    const has = (verb: Action["verb"]): Action[] => legal.filter((a) => a.verb === verb);
    const allBeaten = m.table.length > 0 && m.table.every(([, d]) => d !== null);
    if (has("take").length) this.buttons.append(button("btn action", tr.t("table.take"), () => this.host.act({ verb: "take" })));
    if (has("pass").length) {
      const label = allBeaten && me === m.attacker && !m.taking ? "table.beaten" : "table.pass";
      this.buttons.append(button("btn action", tr.t(label), () => this.host.act({ verb: "pass" })));
    }
    for (const verb of ["transfer", "show"] as const) {
      const actions = has(verb);
      if (!actions.length) continue;
      this.buttons.append(
        button("btn action", tr.t(verb === "transfer" ? "table.transfer" : "table.show"), () => {
          const chosen = actions.find((a) => this.selected.includes(a.card ?? ""));
          const only = actions.length === 1 ? actions[0] : undefined;
          if (chosen ?? only) this.play((chosen ?? only) as Action);
          else {
            this.mode = verb;
            this.refreshHud();
          }
        }),
      );
    }
    const spacer = el("span", "spacer");
    this.buttons.append(spacer);
    this.buttons.append(button("btn small", "☰", () => this.host.showLog()));
    this.buttons.append(button("btn small react", "☺", () => this.toggleEmotes()));
  }

  private toggleEmotes(): void {
    const open = this.hud.querySelector(".emotes");
    if (open) {
      open.remove();
      return;
    }
    const tr = this.host.tr;
    const row = el("div", "emotes");
    for (const code of ["nice", "oops", "hurry", "well_played", "ha"]) {
      row.append(button("chip", tr.t(`emote.${code}`), () => {
        this.host.emote(code);
        row.remove();
      }));
    }
    const g = this.geometry();
    row.style.transform = `translate(0,${(g.rowY - 80).toFixed(1)}px)`;
    this.hud.append(row);
  }

  // ---- input ----------------------------------------------------------------------

  private play(action: Action): void {
    this.selected = [];
    this.mode = null;
    this.host.act(action);
    this.dress();
    this.refreshHud();
  }

  private cardAt(x: number, y: number): Card | null {
    const hit = document.elementFromPoint(x, y);
    const node = hit?.closest?.(".card.face") as HTMLElement | null;
    return node?.dataset.card ?? null;
  }

  private pointerDown(event: PointerEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest("button")) return;
    const node = target.closest(".card.face") as HTMLElement | null;
    const card = node?.dataset.card;
    if (card && this.model.hand.includes(card) && this.me() !== null) {
      this.drag = { card, id: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false };
      this.root.setPointerCapture?.(event.pointerId);
      event.preventDefault();
      return;
    }
    this.tapTable(card ?? null, event.clientX, event.clientY);
  }

  private pointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    const dx = event.clientX - drag.x0;
    const dy = event.clientY - drag.y0;
    if (!drag.moved && dx * dx + dy * dy < 100) return;
    drag.moved = true;
    const sprite = this.anim.sprites.get(drag.card);
    if (!sprite) return;
    sprite.motion = null;
    sprite.node.style.zIndex = "500";
    const rect = this.root.getBoundingClientRect();
    sprite.pose = { x: event.clientX - rect.left, y: event.clientY - rect.top - 20, r: 0, s: 1.05, o: 1 };
    sprite.apply();
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    this.drag = null;
    if (!drag.moved) {
      this.tapCard(drag.card);
      return;
    }
    const sprite = this.anim.sprites.get(drag.card);
    if (sprite) sprite.node.style.visibility = "hidden";
    const under = this.cardAt(event.clientX, event.clientY);
    if (sprite) sprite.node.style.visibility = "";
    const rect = this.root.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const legal = this.legal;
    const beat = legal.find((a) => a.verb === "beat" && a.card === drag.card && a.target === under);
    const z = this.geometry().zone;
    const inZone = x >= z.x - 20 && x <= z.x + z.w + 20 && y >= z.y - 20 && y <= z.y + z.h + 20;
    const chosen = this.selected.includes(drag.card) ? this.selected : [drag.card];
    const onTable =
      legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: chosen })) ??
      legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: [drag.card] })) ??
      legal.find((a) => (a.verb === "throw" || a.verb === "transfer") && a.card === drag.card) ??
      (legal.filter((a) => a.verb === "beat" && a.card === drag.card).length === 1 ? legal.find((a) => a.verb === "beat" && a.card === drag.card) : undefined);
    const action = beat ?? (inZone ? onTable : undefined);
    if (action) this.play(action);
    else {
      const reason = new Map(this.view?.hints ?? []).get(drag.card);
      if (reason && inZone) this.host.toast(this.host.tr.t(`reason.${reason}`));
      this.layout({ duration: 0.2 });
    }
  }

  private cancelDrag(): void {
    this.drag = null;
    this.layout({ duration: 0.2 });
  }

  private tapCard(card: Card): void {
    const legal = this.legal;
    const mine = legal.filter((a) => a.card === card || (a.cards ?? []).includes(card));
    if (this.mode) {
      const action = mine.find((a) => a.verb === this.mode);
      if (action) this.play(action);
      return;
    }
    if (!mine.length) {
      const reason = new Map(this.view?.hints ?? []).get(card);
      if (reason) this.host.toast(this.host.tr.t(`reason.${reason}`));
      this.selected = [];
      this.layout({ duration: 0.15 });
      return;
    }
    const attacks = mine.filter((a) => a.verb === "attack");
    if (attacks.length) {
      const sameRank = this.selected.length > 0 && this.selected.every((c) => c[0] === card[0]);
      if (this.selected.includes(card)) {
        const action = legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: this.selected }));
        if (action) return this.play(action);
      }
      this.selected = sameRank ? [...this.selected, card] : [card];
      if (attacks.length === 1 && this.selected.length === 1) return this.play(attacks[0] as Action);
      this.layout({ duration: 0.15 });
      return;
    }
    if (mine.length === 1) return this.play(mine[0] as Action);
    this.selected = this.selected.includes(card) ? [] : [card];
    this.layout({ duration: 0.15 });
  }

  private tapTable(card: Card | null, x: number, y: number): void {
    if (!this.selected.length) return;
    const legal = this.legal;
    if (card) {
      const beat = legal.find((a) => a.verb === "beat" && a.target === card && this.selected.includes(a.card ?? ""));
      if (beat) return this.play(beat);
    }
    const rect = this.root.getBoundingClientRect();
    const z = this.geometry().zone;
    const px = x - rect.left;
    const py = y - rect.top;
    if (px >= z.x && px <= z.x + z.w && py >= z.y && py <= z.y + z.h) {
      const action =
        legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: this.selected })) ??
        legal.find((a) => (a.verb === "throw" || a.verb === "transfer") && this.selected.includes(a.card ?? ""));
      if (action) return this.play(action);
    }
    this.selected = [];
    this.mode = null;
    this.layout({ duration: 0.15 });
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

export type { Sprite };
