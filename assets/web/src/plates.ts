// The other seats' plates round the table (badge, name, count of cards, role; whose turn
// it is) and the bubbles under them: what each seat just did, "Thinking…", a reaction.
import { lookSvg } from "./art";
import { clear, el, svgNode } from "./dom";
import { clamp, type Geometry } from "./geometry";
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

export class Plates {
  readonly node = el("div", "plates");
  private readonly bubbles = new Map<number, { text: string; until: number }>();
  private readonly emotes = new Map<number, { text: string; until: number }>();
  private drawnFrom = ""; // what the plates were last drawn from
  private placedFor: Geometry | null = null; // the layout the bubbles were last placed in

  constructor(private readonly table: Seating) {}

  // a seat did something: say so under its plate for a moment
  said(seat: number, text: string): void {
    this.bubbles.set(seat, { text, until: performance.now() + SAID_MS });
  }

  emoted(seat: number, text: string): void {
    this.emotes.set(seat, { text, until: performance.now() + EMOTE_MS });
    this.refresh();
  }

  // (placing a bubble measures it, which makes the browser lay the page out there and
  // then: only when the plates are new or the table's layout is, never while the cards
  // fly past unchanged plates, twice a second)
  refresh(): void {
    const drawn = this.draw();
    const g = this.table.geometry();
    if (!drawn && g === this.placedFor) return;
    this.placedFor = g;
    this.place();
  }

  // each bubble under the middle of its plate, moved along as far as it takes to keep it
  // on the screen (a plate near a side of a small phone has a long "забирает 8 карт" wider
  // than the room between the plate's middle and the edge); measured once the plates are
  // in the page, so that any words in any language fit
  private place(): void {
    const g = this.table.geometry();
    // every bubble measured first, then every one moved: a measure after a move would
    // have the browser lay the page out again for each bubble
    const placed = [...this.node.querySelectorAll<HTMLElement>(".plate")].flatMap((plate) => {
      const bubble = plate.querySelector<HTMLElement>(".bubble");
      const p = g.seats[Number(plate.dataset.seat)];
      return bubble && p ? [{ bubble, left: p.x - g.plateW / 2, width: bubble.offsetWidth }] : [];
    });
    for (const { bubble, left, width } of placed) {
      const x = clamp(g.plateW / 2 - width / 2, BUBBLE_EDGE - left, g.w - BUBBLE_EDGE - left - width);
      bubble.style.left = `${x.toFixed(1)}px`;
    }
  }

  // (false: nothing changed since the plates were last drawn)
  private draw(): boolean {
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
    if (key === this.drawnFrom) return false;
    this.drawnFrom = key;
    clear(this.node);
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
      const nameLine = el("div", "name", this.table.name(seat));
      let roleText = "";
      const durak = m.phase === "over" ? this.table.view()?.result?.durak : undefined;
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
      this.node.append(plate);
    });
    if (me !== null) {
      const mine = this.emotes.get(me) ?? this.bubbles.get(me);
      if (mine && mine.until > now) {
        const bubble = el("div", "bubble mine", mine.text);
        bubble.style.left = `${(g.w / 2).toFixed(1)}px`;
        bubble.style.top = `${(g.rowY + 30 - g.cardH * 0.4).toFixed(1)}px`;
        this.node.append(bubble);
      }
    }
    return true;
  }
}
