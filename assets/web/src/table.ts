// The table: the cards as sprites, moved by the host's events (deal, attack, beat,
// transfer, take, discard, draw), each event a step of the model (model.ts) with its own
// short animation; the update's view then resynchronises the model (a snapshot only does
// that). The player's hand is fanned at the bottom, the other seats sit round the top of
// an oval with their backs and counts (plates.ts), the bout's pairs lie in the middle
// between the stock (with the trump under it) and the discard pile, each where
// geometry.ts puts it. A card is tapped or dragged (gestures.ts); the view's `legal` and
// `hints` dim what cannot be played and say why, the status line (status.ts) what to do.
import { cardText, faceImage, suitSvg, SUIT_COLOUR } from "./art";
import { button, clear, el, keep, setStyle, setText } from "./dom";
import { BACK_SHOWN, CARD_RATIO, clamp, DEG, FAN_STEP, FAN_TURN, FAN_TURN_DEG, SHOWN, tableGeometry, type Geometry } from "./geometry";
import { Gestures, type Choice } from "./gestures";
import type { Translator } from "./i18n";
import { emptyModel, modelOf, sortedHand, type Model } from "./model";
import type { Pace } from "./pace";
import { Plates } from "./plates";
import { suitOf } from "./proto";
import { statusText } from "./status";
import type { Action, Card, GameEvent, Room, View } from "./proto";
import { Animator, type Pose, type Sprite } from "./tween";

const ANSWER_WAIT_MS = 5000; // the longest a move waits for the host's answer

export interface TableHost {
  tr: Translator;
  pace: Pace;
  room(): Room | null;
  seat(): number | null; // null: watching
  act(action: Action): boolean; // false: the link is down, nothing was sent
  emote(code: string): void;
  showLog(): void;
  toast(text: string): void;
  gameEnded(view: View): void;
}

export class TableScene {
  readonly root = el("div", "table");
  private readonly felt = el("div", "felt");
  private readonly cards = el("div", "cards");
  private readonly hud = el("div", "hud");
  private readonly status = el("div", "status");
  private readonly buttons = el("div", "buttons");
  private readonly stockNode = el("div", "stock");
  private readonly discardNode = el("div", "discard");
  private readonly zoneNode = el("div", "zone");
  private readonly trumpMark = el("div", "trump-mark");
  // the piles' parts, each put in or taken out as the piles change (made anew at each
  // draw, they had the browser style and lay out the piles again)
  private readonly pile = {
    trump: null as Card | null, // the card the face under the stock shows
    trumpFace: el("div", "card face under"),
    stockBack: el("div", "card back"),
    stockCount: el("div", "count"),
    discards: [-14, 9, -3].map((turn) => {
      const back = el("div", "card back");
      back.style.transform = `rotate(${turn}deg)`;
      return back;
    }),
    discardCount: el("div", "count"),
  };
  private readonly anim: Animator;
  private model: Model = emptyModel(2);
  view: View | null = null;
  private geo: Geometry | null = null;
  // the table's size as the browser last laid it out (0: not yet): read in a step, the
  // size would make the browser lay the page out there and then
  private box = { w: 0, h: 0 };
  private geoCards = 0; // the hand's size the geometry was made for
  private queue: (() => number)[] = [];
  private running = false;
  readonly choice: Choice = { selected: [], mode: null };
  private ended = false;
  // a move sent and not yet answered (by an update, a snapshot or a refusal): until then
  // the table is not idle and takes no second move, so a quick double tap cannot send one
  // move twice and nothing reads the hand the move has already left
  private awaiting = 0; // the safety timer's id, 0 when nothing is awaited
  private baseH = 0; // the card height the sprites are sized for
  private readonly drawn = new Map<string, string>(); // what each part was drawn from
  private readonly plateRow: Plates;
  private readonly gestures: Gestures;

  constructor(readonly host: TableHost) {
    this.plateRow = new Plates({
      host,
      geometry: () => this.geometry(),
      model: () => this.model,
      view: () => this.view,
      me: () => this.me(),
      name: (seat) => this.name(seat),
    });
    this.anim = new Animator(this.cards, () => host.pace.factor);
    this.root.append(this.felt, this.zoneNode, this.stockNode, this.discardNode, this.plateRow.node, this.cards, this.hud);
    this.hud.append(this.status, this.buttons);
    const gestures = (this.gestures = new Gestures(this));
    this.root.addEventListener("pointerdown", (e) => gestures.pointerDown(e));
    this.root.addEventListener("pointermove", (e) => gestures.pointerMove(e));
    this.root.addEventListener("pointerup", (e) => gestures.pointerUp(e));
    this.root.addEventListener("pointercancel", () => gestures.cancelDrag());
    // a turned phone, or the table shown: laid out again at once
    new ResizeObserver((entries) => {
      const size = entries[entries.length - 1]?.contentRect;
      if (!size || (size.width === this.box.w && size.height === this.box.h)) return;
      this.box = { w: size.width, h: size.height };
      this.relayout(0);
    }).observe(this.root);
    window.setInterval(() => this.plateRow.refresh(), 500);
  }

  get idle(): boolean {
    return !this.running && this.queue.length === 0 && this.anim.idle && this.awaiting === 0;
  }

  private answered(): void {
    window.clearTimeout(this.awaiting);
    this.awaiting = 0;
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

  // a snapshot, or the page coming back: the whole picture at once, no animation. In
  // the same game the cards the player had chosen stay chosen while still held, as after
  // an update (a link back from a drop must not undo a tap made meanwhile)
  resync(view: View, sameGame: boolean): void {
    this.answered();
    this.queue = [];
    this.view = view;
    this.ended = view.phase === "over";
    this.model = modelOf(view, this.model.by);
    const held = this.model.hand;
    this.choice.selected = sameGame ? this.choice.selected.filter((card) => held.includes(card)) : [];
    this.choice.mode = null;
    this.relayout(0);
  }

  update(events: GameEvent[], view: View): void {
    this.answered();
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
      this.choice.selected = this.choice.selected.filter((card) => this.model.hand.includes(card));
      this.choice.mode = null;
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
    this.answered();
    this.choice.selected = [];
    this.choice.mode = null;
    this.relayout();
  }

  emoted(seat: number, text: string): void {
    this.plateRow.emoted(seat, text);
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
    let seconds = next() / this.host.pace.factor;
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
    this.plateRow.said(seat, n === undefined ? tr.t(key) : tr.plural(key, n));
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
        this.plateRow.refresh();
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
        this.plateRow.refresh();
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

  // the table's places for this size of window and of hand
  private geometry(): Geometry {
    const cards = this.model.hand.length;
    if (this.geo && this.geoCards === cards) return this.geo;
    this.geoCards = cards;
    const w = this.box.w || this.root.clientWidth || window.innerWidth;
    const h = this.box.h || this.root.clientHeight || window.innerHeight;
    const players = this.view?.rules.players ?? this.host.room()?.rules.players ?? 2;
    this.geo = tableGeometry(w, h, players, this.me() ?? 0, cards);
    return this.geo;
  }

  private seatPose(g: Geometry, seat: number): Pose {
    const p = g.seats[seat] ?? { x: g.w / 2, y: 0 };
    return { x: p.x, y: p.y, r: 0, s: g.oppS, o: 1 };
  }

  private layout(opts: { duration: number; origin?: Map<string, Pose>; exit?: Map<string, Pose>; stagger?: number }): void {
    const g = this.geometry();
    const m = this.model;
    const me = this.me();
    // (`seat`: whose backs these are, marked on the card for the layout tests of tests/web)
    const targets = new Map<string, { pose: Pose; face: Card | null; z: number; seat?: number }>();
    // the hand: fanned, or in flat rows when a fan would cover too much of each card
    const hand = sortedHand(this.model);
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
      const lift = this.choice.selected.includes(card) ? g.cardH * 0.2 : 0;
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
      if (this.gestures.dragged === key) continue;
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
    this.plateRow.refresh();
    this.refreshHud();
  }

  // the name of who played each card on the table, under it; not under a beaten card,
  // where the card that beat it would cover all of the name but a dark stub (the name
  // under the beating card says who beat it, the plate who attacks)
  private tag(g: Geometry): void {
    const named = new Set(this.model.table.map(([attack, defence]) => defence ?? attack));
    for (const sprite of this.anim.sprites.values()) {
      const card = sprite.node.dataset.card;
      let label = sprite.node.querySelector(".tag") as HTMLElement | null;
      const seat = card && named.has(card) ? this.model.by.get(card) : undefined;
      if (seat === undefined || seat === this.me()) {
        label?.remove();
        continue;
      }
      if (!label) {
        label = el("div", "tag");
        sprite.node.append(label);
      }
      setText(label, this.name(seat));
      setStyle(label, "font-size", `${(11 / g.tableS).toFixed(1)}px`);
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
      node.style.backgroundImage = faceImage(face);
    }
    return node;
  }

  // the stock with the trump under it, the discard pile, the drop zone
  private placeStatic(g: Geometry): void {
    const m = this.model;
    if (this.unchanged("static", [g.cardH, g.tableS, g.stock, g.discard, g.zone, g.portrait, g.tight, m.trump, m.stock, m.discard, this.host.tr.language])) return;
    const th = g.cardH * g.tableS * 0.9;
    const tw = th * CARD_RATIO;
    for (const node of [this.stockNode, this.discardNode]) {
      node.style.width = `${tw.toFixed(1)}px`;
      node.style.height = `${th.toFixed(1)}px`;
    }
    this.stockNode.style.transform = `translate(${(g.stock.x - tw / 2).toFixed(1)}px,${(g.stock.y - th / 2).toFixed(1)}px)`;
    this.discardNode.style.transform = `translate(${(g.discard.x - tw / 2).toFixed(1)}px,${(g.discard.y - th / 2).toFixed(1)}px)`;
    const pile = this.pile;
    if (m.trump && m.trump !== pile.trump) {
      pile.trump = m.trump;
      pile.trumpFace.style.backgroundImage = faceImage(m.trump);
      const suit = suitOf(m.trump);
      this.trumpMark.innerHTML = suitSvg(suit, SUIT_COLOUR(suit));
    }
    const trump = m.trump !== null;
    keep(this.stockNode, [[pile.trumpFace, trump && m.stock > 0], [pile.stockBack, trump && m.stock > 1], [this.trumpMark, trump], [pile.stockCount, true]]);
    setText(pile.stockCount, m.stock > 0 ? String(m.stock) : "");
    const backs = m.discard > 0 ? Math.min(3, Math.ceil(m.discard / 6)) : 0;
    keep(this.discardNode, [...pile.discards.map((back, i): [HTMLElement, boolean] => [back, i < backs]), [pile.discardCount, m.discard > 0]]);
    // Upright, where the piles carry their counts (tight: a big hand lifts the status to
    // them), the discard pile says its number alone, as the stock does: "14 beaten" is
    // wider than the pile and would reach over the bout's last card beside it
    const words = g.tight && g.portrait ? String(m.discard) : this.host.tr.t("table.beaten_pile", { n: m.discard });
    setText(pile.discardCount, m.discard > 0 ? words : "");
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
    const targets = new Set(legal.filter((a) => a.verb === "beat" && this.choice.selected.includes(a.card ?? "")).map((a) => a.target ?? ""));
    for (const sprite of this.anim.sprites.values()) {
      const card = sprite.node.dataset.card;
      if (!card) continue;
      const inHand = this.model.hand.includes(card);
      sprite.node.classList.toggle("dim", inHand && hints.has(card) && legal.length > 0);
      sprite.node.classList.toggle("playable", inHand && playable.has(card));
      sprite.node.classList.toggle("chosen", inHand && this.choice.selected.includes(card));
      sprite.node.classList.toggle("target", !inHand && targets.has(card));
    }
    const zoneOpen = this.choice.selected.length > 0 && legal.some((a) => a.verb !== "beat" && (a.cards ?? [a.card]).some((c) => c && this.choice.selected.includes(c)));
    this.zoneNode.classList.toggle("open", zoneOpen);
  }

  private refreshHud(): void {
    const g = this.geometry();
    const tr = this.host.tr;
    const m = this.model;
    const me = this.me();
    setText(this.status, this.choice.mode === "transfer" ? tr.t("intent.choose_transfer") : this.choice.mode === "show" ? tr.t("intent.choose_show") : statusText(this.model, this.me(), this.legal, tr, (seat) => this.name(seat)));
    this.status.classList.toggle("yours", this.legal.length > 0);
    // (upright the status line grows upwards from its bottom, on its side from its middle,
    // so that a second line of it never comes down onto the buttons)
    setStyle(this.status, "transform", `translate(0,${g.statusY.toFixed(1)}px) translateY(${g.portrait ? -100 : -50}%)`);
    setStyle(this.buttons, "transform", `translate(0,${(g.rowY - 22).toFixed(1)}px)`);
    this.root.classList.toggle("landscape", !g.portrait);
    this.root.classList.toggle("tight", g.tight);
    // the buttons made anew only when which of them shows changes (what each does is
    // looked up when it is tapped)
    const has = (verb: Action["verb"]): boolean => this.legal.some((a) => a.verb === verb);
    const allBeaten = m.table.length > 0 && m.table.every(([, d]) => d !== null);
    const shown: [string, () => void][] = [];
    if (has("take")) shown.push(["table.take", () => this.play({ verb: "take" })]);
    if (has("pass")) shown.push([allBeaten && me === m.attacker && !m.taking ? "table.beaten" : "table.pass", () => this.play({ verb: "pass" })]);
    if (has("transfer")) shown.push(["table.transfer", () => this.offer("transfer")]);
    if (has("show")) shown.push(["table.show", () => this.offer("show")]);
    if (this.unchanged("buttons", [shown.map(([label]) => label), tr.language])) return;
    clear(this.buttons);
    for (const [label, run] of shown) this.buttons.append(button("btn action", tr.t(label), run));
    this.buttons.append(el("span", "spacer"));
    this.buttons.append(button("btn small", "☰", () => this.host.showLog()));
    this.buttons.append(button("btn small react", "☺", () => this.toggleEmotes()));
  }

  // a transfer (or a shown trump) tapped: of the card chosen, or of the only one it can
  // be; else the player is asked to choose the card
  private offer(verb: "transfer" | "show"): void {
    const actions = this.legal.filter((a) => a.verb === verb);
    const chosen = actions.find((a) => this.choice.selected.includes(a.card ?? "")) ?? (actions.length === 1 ? actions[0] : undefined);
    if (chosen) return this.play(chosen);
    this.choice.mode = verb;
    this.refreshHud();
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

  // ---- input (the gestures: gestures.ts) ------------------------------------------

  holds(card: Card): boolean {
    return this.me() !== null && this.model.hand.includes(card);
  }

  sprite(card: Card): Sprite | undefined {
    return this.anim.sprites.get(card);
  }

  zone(): Geometry["zone"] {
    return this.geometry().zone;
  }

  settle(duration: number): void {
    this.layout({ duration });
  }

  play(action: Action): void {
    if (this.awaiting !== 0) return;
    this.choice.selected = [];
    this.choice.mode = null;
    // a host that never answers (a link gone quiet) must not freeze the hand for good
    if (this.host.act(action)) this.awaiting = window.setTimeout(() => this.answered(), ANSWER_WAIT_MS);
    this.dress();
    this.refreshHud();
  }
}

export type { Sprite };
