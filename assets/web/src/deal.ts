// The page's part in each game's fair deal (docs/protocol.md section 15): it answers the
// host's `commit` with its own random value at once, notes what it was dealt, and checks
// the `reveal` at the game's end (fair.ts). What it needs to check survives a reload of
// the page (sessionStorage, per host): a phone that reloads mid-game still checks the deal
// it contributed to.
import { checkDeal, dealContext, randomValue } from "./fair";
import type { Committed } from "./fair";
import type { Card, GameEvent, Message, Room } from "./proto";

interface Record {
  committed: Committed;
  firstHand: Card[] | null;
  trump: Card | null;
  late: boolean; // the host refused our value: it was not counted
}

// why the deal is not verified, as catalogue keys (deal.*, web.deal_late), or null: it is
export type Verdict = { ok: true } | { ok: false; why: string };

export class DealWatch {
  private record: Record | null = null;
  private contributeRef = -1;
  private revealed: { secret: string; contributions: [number, string][]; seed: bigint } | null = null;

  constructor(private readonly storageKey: string) {
    try {
      this.record = JSON.parse(sessionStorage.getItem(storageKey) ?? "null") as Record | null;
    } catch {
      this.record = null;
    }
  }

  private save(): void {
    try {
      sessionStorage.setItem(this.storageKey, JSON.stringify(this.record));
    } catch {
      // no storage: the check lasts as long as the page
    }
  }

  // the host's commitment: our contribution to send now (the caller adds the ref)
  commit(message: Message, room: Room): Message {
    const game = message.game as number;
    const value = randomValue();
    const last = room.series.last;
    this.record = {
      committed: {
        game,
        commitment: message.commitment as string,
        context: dealContext(game, room.rules, room.seats.map((seat) => seat.kind)),
        rules: { ...room.rules },
        dealer: last && last.durak !== null ? last.durak : room.rules.players - 1,
        mine: value,
      },
      firstHand: null,
      trump: null,
      late: false,
    };
    this.revealed = null;
    this.save();
    return { type: "contribute", game, value };
  }

  sent(ref: number): void {
    this.contributeRef = ref;
  }

  // a `rejected` for our contribution: it came too late to count
  refused(ref: number): boolean {
    if (ref !== this.contributeRef || !this.record) return false;
    this.record.late = true;
    this.save();
    return true;
  }

  seen(game: number, seat: number | null, events: GameEvent[]): void {
    const record = this.record;
    if (!record || record.committed.game !== game) return;
    for (const event of events) {
      if (event.event === "dealt" && event.seat === seat && event.cards) record.firstHand = [...event.cards];
      if (event.event === "trump_turned") record.trump = event.card ?? null;
    }
    this.save();
  }

  // a `reveal` message: the verdict once the last one came, else null
  reveal(message: Message, seat: number): Verdict | null {
    if (message.start === 0) {
      this.revealed = {
        secret: message.secret as string,
        contributions: (message.contributions as [number, string][]).map(([who, value]) => [Number(who), value] as [number, string]),
        seed: BigInt(message.seed as number | bigint),
      };
    }
    if (!message.done || !this.revealed) return null;
    const record = this.record;
    if (!record || record.committed.game !== message.game) return { ok: false, why: "deal.no_commitment" };
    if (record.late) return { ok: false, why: "web.deal_late" };
    const problem = checkDeal(record.committed, this.revealed, seat, record.firstHand, record.trump);
    return problem === null ? { ok: true } : { ok: false, why: `deal.${problem}` };
  }

  // the game ended without a reveal for us (we came back after it): why it is unchecked
  missing(game: number): Verdict {
    return { ok: false, why: this.record?.committed.game === game ? "deal.no_reveal" : "deal.no_commitment" };
  }
}
