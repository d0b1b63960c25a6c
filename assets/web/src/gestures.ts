// The hand under a finger or a mouse: tap a card to play it (or to choose it, then tap
// its target or the table), or drag it onto a card of the bout or into the bout's zone.
// What a card may do comes from the view's legal actions; a card that may not be played
// says why (the view's hints) instead.
import type { Geometry } from "./geometry";
import { sameAction } from "./proto";
import type { Action, Card, View } from "./proto";
import type { TableHost } from "./table";
import type { Sprite } from "./tween";

// the cards chosen and what they are for (a transfer or a shown trump asks for a card)
export interface Choice {
  selected: Card[];
  mode: "transfer" | "show" | null;
}

// what the gestures act on: the scene's
export interface Playing {
  readonly root: HTMLElement;
  readonly host: TableHost;
  readonly choice: Choice;
  readonly legal: Action[];
  readonly view: View | null;
  holds(card: Card): boolean; // whether the player holds it (a watcher holds nothing)
  sprite(card: Card): Sprite | undefined;
  zone(): Geometry["zone"];
  play(action: Action): void;
  settle(duration: number): void; // lay the cards out again
}

export class Gestures {
  private drag: { card: Card; id: number; x0: number; y0: number; moved: boolean } | null = null;

  constructor(private readonly table: Playing) {}

  // the card being dragged across the table, which the scene leaves where the finger is
  get dragged(): Card | null {
    return this.drag?.moved ? this.drag.card : null;
  }

  private cardAt(x: number, y: number): Card | null {
    const hit = document.elementFromPoint(x, y);
    const node = hit?.closest?.(".card.face") as HTMLElement | null;
    return node?.dataset.card ?? null;
  }

  pointerDown(event: PointerEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest("button")) return;
    const node = target.closest(".card.face") as HTMLElement | null;
    const card = node?.dataset.card;
    if (card && this.table.holds(card)) {
      this.drag = { card, id: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false };
      this.table.root.setPointerCapture?.(event.pointerId);
      event.preventDefault();
      return;
    }
    this.tapTable(card ?? null, event.clientX, event.clientY);
  }

  pointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    const dx = event.clientX - drag.x0;
    const dy = event.clientY - drag.y0;
    if (!drag.moved && dx * dx + dy * dy < 100) return;
    drag.moved = true;
    const sprite = this.table.sprite(drag.card);
    if (!sprite) return;
    sprite.motion = null;
    sprite.node.style.zIndex = "500";
    const rect = this.table.root.getBoundingClientRect();
    sprite.pose = { x: event.clientX - rect.left, y: event.clientY - rect.top - 20, r: 0, s: 1.05, o: 1 };
    sprite.apply();
  }

  pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    this.drag = null;
    if (!drag.moved) {
      this.tapCard(drag.card);
      return;
    }
    const sprite = this.table.sprite(drag.card);
    if (sprite) sprite.node.style.visibility = "hidden";
    const under = this.cardAt(event.clientX, event.clientY);
    if (sprite) sprite.node.style.visibility = "";
    const rect = this.table.root.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const legal = this.table.legal;
    const beat = legal.find((a) => a.verb === "beat" && a.card === drag.card && a.target === under);
    const z = this.table.zone();
    const inZone = x >= z.x - 20 && x <= z.x + z.w + 20 && y >= z.y - 20 && y <= z.y + z.h + 20;
    const chosen = this.table.choice.selected.includes(drag.card) ? this.table.choice.selected : [drag.card];
    const onTable =
      legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: chosen })) ??
      legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: [drag.card] })) ??
      legal.find((a) => (a.verb === "throw" || a.verb === "transfer") && a.card === drag.card) ??
      (legal.filter((a) => a.verb === "beat" && a.card === drag.card).length === 1 ? legal.find((a) => a.verb === "beat" && a.card === drag.card) : undefined);
    const action = beat ?? (inZone ? onTable : undefined);
    if (action) this.table.play(action);
    else {
      const reason = new Map(this.table.view?.hints ?? []).get(drag.card);
      if (reason && inZone) this.table.host.toast(this.table.host.tr.t(`reason.${reason}`));
      this.table.settle(0.2);
    }
  }

  cancelDrag(): void {
    this.drag = null;
    this.table.settle(0.2);
  }

  private tapCard(card: Card): void {
    const legal = this.table.legal;
    const mine = legal.filter((a) => a.card === card || (a.cards ?? []).includes(card));
    if (this.table.choice.mode) {
      const action = mine.find((a) => a.verb === this.table.choice.mode);
      if (action) this.table.play(action);
      return;
    }
    if (!mine.length) {
      const reason = new Map(this.table.view?.hints ?? []).get(card);
      if (reason) this.table.host.toast(this.table.host.tr.t(`reason.${reason}`));
      this.table.choice.selected = [];
      this.table.settle(0.15);
      return;
    }
    const attacks = mine.filter((a) => a.verb === "attack");
    if (attacks.length) {
      const sameRank = this.table.choice.selected.length > 0 && this.table.choice.selected.every((c) => c[0] === card[0]);
      if (this.table.choice.selected.includes(card)) {
        const action = legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: this.table.choice.selected }));
        if (action) return this.table.play(action);
      }
      this.table.choice.selected = sameRank ? [...this.table.choice.selected, card] : [card];
      if (attacks.length === 1 && this.table.choice.selected.length === 1) return this.table.play(attacks[0] as Action);
      this.table.settle(0.15);
      return;
    }
    if (mine.length === 1) return this.table.play(mine[0] as Action);
    this.table.choice.selected = this.table.choice.selected.includes(card) ? [] : [card];
    this.table.settle(0.15);
  }

  private tapTable(card: Card | null, x: number, y: number): void {
    if (!this.table.choice.selected.length) return;
    const legal = this.table.legal;
    if (card) {
      const beat = legal.find((a) => a.verb === "beat" && a.target === card && this.table.choice.selected.includes(a.card ?? ""));
      if (beat) return this.table.play(beat);
    }
    const rect = this.table.root.getBoundingClientRect();
    const z = this.table.zone();
    const px = x - rect.left;
    const py = y - rect.top;
    if (px >= z.x && px <= z.x + z.w && py >= z.y && py <= z.y + z.h) {
      const action =
        legal.find((a) => a.verb === "attack" && sameAction(a, { verb: "attack", cards: this.table.choice.selected })) ??
        legal.find((a) => (a.verb === "throw" || a.verb === "transfer") && this.table.choice.selected.includes(a.card ?? ""));
      if (action) return this.table.play(action);
    }
    this.table.choice.selected = [];
    this.table.choice.mode = null;
    this.table.settle(0.15);
  }
}
