// The other seats' plates round the table (badge, name, count of cards, role; whose turn
// it is) and the bubbles under them: what each seat just did, "Thinking…", a reaction.
import { lookSvg } from "./art";
import { el, setStyle, setText, svgNode } from "./dom";
import type { Geometry } from "./geometry";
import { awaited as awaitedSeats, type Model } from "./model";
import type { View } from "./proto";
import type { TableHost } from "./table";

const BUBBLE_EDGE = 4; // px: the least gap between a bubble over a plate and the screen's side
const SAID_MS = 1400; // how long a bubble of what a seat did stays up
const EMOTE_MS = 2600; // and a reaction's

// what the plates are drawn from: the scene's
export interface Seating {
  readonly host: TableHost;
  geometry(): Geometry;
  model(): Model;
  view(): View | null;
  me(): number | null; // null: watching
  name(seat: number): string;
}

// one seat's plate, and what its changing parts were last made from
interface Plate {
  readonly root: HTMLElement;
  badge: HTMLElement;
  badgeKey: string;
  readonly count: HTMLElement;
  readonly name: HTMLElement;
  readonly role: HTMLElement;
  bubble: HTMLElement | null;
  sayingKey: string;
}

export class Plates {
  readonly node = el("div", "plates");
  private readonly bubbles = new Map<number, { text: string; until: number }>();
  private readonly emotes = new Map<number, { text: string; until: number }>();
  private drawnFrom = ""; // what the plates were last drawn from
  private readonly plates = new Map<number, Plate>(); // by seat
  private mine: HTMLElement | null = null; // the bubble of what this page's player did
  private mineKey = "";

  constructor(private readonly table: Seating) {}

  // a seat did something: say so under its plate for a moment
  said(seat: number, text: string): void {
    this.bubbles.set(seat, { text, until: performance.now() + SAID_MS });
  }

  emoted(seat: number, text: string): void {
    this.emotes.set(seat, { text, until: performance.now() + EMOTE_MS });
    this.refresh();
  }

  // A bubble goes under the middle of its plate, moved along as far as it takes to keep it
  // on the screen (a plate near a side of a small phone has a long "забирает 8 карт" wider
  // than the room between the plate's middle and the edge). The plate gives the bounds and
  // the stylesheet does the sum at the bubble's own width (a translation's percentages are
  // of it), so that any words in any language fit and nothing is measured: a measure in
  // the middle of a step made the browser lay the whole page out there and then, most of
  // a step's work on a phone.
  private bounds(plate: HTMLElement, x: number, g: Geometry): void {
    const left = x - g.plateW / 2; // the plate's left side
    setStyle(plate, "--bubble-min", `${(BUBBLE_EDGE - left).toFixed(1)}px`);
    setStyle(plate, "--bubble-mid", `${(g.plateW / 2).toFixed(1)}px`);
    setStyle(plate, "--bubble-max", `${(g.w - BUBBLE_EDGE - left).toFixed(1)}px`);
  }

  // the plates drawn again when what they show has changed
  refresh(): void {
    const g = this.table.geometry();
    const room = this.table.host.room();
    const tr = this.table.host.tr;
    const me = this.table.me();
    const m = this.table.model();
    const now = performance.now();
    const awaited = awaitedSeats(m);
    const said = [...this.bubbles, ...this.emotes].filter(([, b]) => b.until > now).map(([seat, b]) => [seat, b.text]);
    const result = m.phase === "over" ? this.table.view()?.result?.durak : undefined;
    const state = [room?.seats, m.sizes, m.places, m.attacker, m.defender, m.taking, m.phase, result, [...awaited], said, g.w, g.h, g.plateW, tr.language];
    const key = JSON.stringify(state);
    if (key === this.drawnFrom) return;
    this.drawnFrom = key;
    const shown = new Set<number>();
    m.sizes.forEach((count, seat) => {
      if (seat === me) return;
      const p = g.seats[seat];
      if (!p) return;
      shown.add(seat);
      const info = room?.seats[seat];
      const plate = this.plate(seat);
      setStyle(plate.root, "width", `${g.plateW.toFixed(0)}px`);
      plate.root.classList.toggle("turn", awaited.has(seat));
      plate.root.classList.toggle("away", info !== undefined && !info.connected && info.kind === "human");
      const look = info?.look ?? null;
      const badgeKey = look !== null ? JSON.stringify(look) : info?.kind === "ai" ? "AI" : "";
      if (badgeKey !== plate.badgeKey) {
        const badge = look !== null ? svgNode("badge", lookSvg(look)) : el("span", "badge none", badgeKey);
        plate.badge.replaceWith(badge);
        plate.badge = badge;
        plate.badgeKey = badgeKey;
      }
      let roleText = "";
      if (result === seat) roleText = tr.t("role.Durak");
      else if (m.places[seat]) roleText = tr.t("table.out_place", { place: tr.ordinal(m.places[seat] ?? 0) });
      else if (seat === m.defender) roleText = tr.t(m.taking ? "role.taking" : "role.defending");
      else if (seat === m.attacker) roleText = tr.t("role.attacking");
      if (info?.back_soon) roleText = tr.t("seat_status.back_soon");
      else if (info?.status === "away") roleText = tr.t("seat_status.away");
      else if (info?.status === "stand_in") roleText = tr.t("seat_status.stand_in");
      setText(plate.count, String(count));
      setText(plate.name, this.table.name(seat));
      setText(plate.role, roleText);
      // what the seat says: a new saying pops up anew, "Thinking…" stays up while it lasts
      const thinking = awaited.has(seat) && (info?.kind === "ai" || info?.status === "stand_in");
      const bubble = this.emotes.get(seat) ?? this.bubbles.get(seat);
      const saying = bubble && bubble.until > now ? bubble : null;
      const sayingKey = saying ? `${saying.until} ${saying.text}` : thinking ? `thinking ${tr.language}` : "";
      if (sayingKey !== plate.sayingKey) {
        plate.bubble?.remove();
        plate.bubble = saying ? el("div", "bubble", saying.text) : thinking ? el("div", "bubble thinking", tr.t("web.thinking")) : null;
        if (plate.bubble) plate.root.append(plate.bubble);
        plate.sayingKey = sayingKey;
        plate.root.classList.toggle("speaking", plate.bubble !== null);
      }
      this.bounds(plate.root, p.x, g);
      const bottomSeat = seat === g.bottom;
      const y = bottomSeat ? p.y - g.cardH * g.tableS * 0.5 - 30 : p.y;
      setStyle(plate.root, "transform", `translate(${p.x.toFixed(1)}px,${y.toFixed(1)}px) translate(-50%,-50%)`);
    });
    for (const [seat, plate] of this.plates) {
      if (shown.has(seat)) continue;
      plate.root.remove();
      this.plates.delete(seat);
    }
    const mine = me !== null ? (this.emotes.get(me) ?? this.bubbles.get(me)) : undefined;
    const mineKey = mine && mine.until > now ? `${mine.until} ${mine.text}` : "";
    if (mineKey !== this.mineKey) {
      this.mine?.remove();
      this.mine = mine && mineKey ? el("div", "bubble mine", mine.text) : null;
      if (this.mine) this.node.append(this.mine);
      this.mineKey = mineKey;
    }
    if (this.mine) {
      setStyle(this.mine, "left", `${(g.w / 2).toFixed(1)}px`);
      setStyle(this.mine, "top", `${(g.rowY + 30 - g.cardH * 0.4).toFixed(1)}px`);
    }
  }

  // a seat's plate, made the first time it is shown and changed in place after that: a
  // plate made anew at every change had the browser style and lay out every plate again
  private plate(seat: number): Plate {
    const known = this.plates.get(seat);
    if (known) return known;
    const root = el("div", "plate");
    root.dataset.seat = String(seat);
    const plate: Plate = { root, badge: el("span", "badge none"), badgeKey: "", count: el("span", "count"), name: el("div", "name"), role: el("div", "role"), bubble: null, sayingKey: "" };
    // the count of cards on the badge's corner, so that the role has the plate's whole
    // width under the name ("отбивается" on a phone's narrow plate)
    const avatar = el("span", "avatar");
    avatar.append(plate.badge, plate.count);
    const line = el("div", "line");
    line.append(avatar, plate.name);
    root.append(line, plate.role);
    this.node.append(root);
    this.plates.set(seat, plate);
    return plate;
  }
}
