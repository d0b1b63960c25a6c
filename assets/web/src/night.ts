// A party night from the page (docs/protocol.md section 17): the party's own link, open
// all night, and what it tells: the standings, the table the party calls us to (and when
// we go there by ourselves), the break's and the night's clocks, a refusal to show. The
// table itself is reached through the app's table link (main.ts), at the called table's
// web port; the app says where we sit and takes us there and back.
import type { Translator } from "./i18n";
import { doorUrl, Link } from "./net";
import type { LinkState } from "./net";
import { GO_AFTER_MS } from "./party";
import type { PartyHooks } from "./party";
import { PROTOCOL_VERSION } from "./proto";
import type { Message, Party, PartySeat } from "./proto";
import { store, stored } from "./storage";

const REFUSED_MS = 6000; // how long a refusal of the organiser's command shows

// what the night asks of the app
export interface NightHost {
  readonly tr: Translator;
  name(): string; // the player's
  onParty(): boolean; // whether the party's screen shows
  showParty(): void;
  showName(): void;
  redraw(): void; // the party's screen again, with news
  gone(goodbye: { code: string; text: string }): void;
  banner(): void; // the link's state changed: the reconnecting banner on or off
  atTable(): PartySeat | null; // the table we joined (or are joining)
  tableOpen(): boolean; // whether the link to that table is open
  goToTable(seat: PartySeat): void;
  toStandings(): void;
  leaveTables(): void; // the night is over for us: no table either
}

export class Night {
  readonly link: Link;
  party: Party | null = null;
  player: number | null = null; // our id in the party
  call: PartySeat | null = null; // the table we are called to, not joined yet
  private readonly key = `durak.party.${location.host}`; // where the party's token is kept
  private goAt = 0; // when we go to the called table by ourselves (Date.now() ms)
  private nextAt: number | null = null; // when the break ends by itself
  private leftAt: number | null = null; // when a night of fixed time is up
  private refused = "";
  private refusedUntil = 0;

  constructor(private readonly app: NightHost) {
    this.link = new Link(doorUrl(location.host), {
      hello: () => ({ type: "join", version: PROTOCOL_VERSION, name: app.name(), token: this.token, role: "play" }),
      message: (message) => this.receive(message),
      state: (state, goodbye) => this.state(state, goodbye),
    });
  }

  get token(): string | null {
    return stored(this.key);
  }

  // the clock: to the called table once its moment comes
  tick(): void {
    if (this.call && Date.now() >= this.goAt) this.go();
  }

  go(): void {
    const seat = this.call;
    if (!seat || seat.web_port === null) return;
    this.call = null;
    this.app.goToTable(seat);
  }

  // what the party's screen shows and does now
  hooks(look: number, looks: Map<string, number>): PartyHooks {
    const now = Date.now();
    return {
      tr: this.app.tr,
      player: this.player,
      look,
      looks,
      call: this.call,
      goingIn: (this.goAt - now) / 1000,
      nextIn: this.nextAt === null ? null : (this.nextAt - now) / 1000,
      leftIn: this.leftAt === null ? null : (this.leftAt - now) / 1000,
      refused: now < this.refusedUntil ? this.refused : "",
      start: () => void this.link.send({ type: "party_start", ref: this.link.nextRef() }),
      go: () => this.go(),
      leave: () => void this.link.send({ type: "party_leave", ref: this.link.nextRef() }),
    };
  }

  private state(state: LinkState, goodbye: { code: string; text: string } | null): void {
    this.app.banner();
    if (state !== "closed") return;
    if (goodbye?.code === "bad_token" && this.token) {
      store(this.key, null); // a party of another night on this address: join it anew
      this.player = null;
      this.link.start();
      return;
    }
    this.app.leaveTables();
    this.call = null;
    this.player = null;
    if (goodbye?.code === "left") {
      store(this.key, null);
      return this.app.showName();
    }
    this.app.gone(goodbye ?? { code: "closed", text: "" });
  }

  private receive(message: Message): void {
    switch (message.type) {
      case "joined":
        this.player = message.player as number;
        store(this.key, message.token as string);
        this.changed(message.party as Party);
        if (!this.app.atTable()) this.app.showParty();
        break;
      case "party":
        this.changed(message.party as Party);
        break;
      case "party_table":
        this.called(message as unknown as PartySeat);
        break;
      case "rejected": {
        const key = `party.refused.${String(message.reason)}`;
        this.refused = this.app.tr.has(key) ? this.app.tr.t(key) : String(message.text);
        this.refusedUntil = Date.now() + REFUSED_MS;
        if (this.app.onParty()) this.app.redraw();
        break;
      }
      default:
        break;
    }
  }

  private changed(party: Party): void {
    const now = Date.now();
    this.party = party;
    this.nextAt = party.next_ms === null ? null : now + party.next_ms;
    this.leftAt = party.left_ms === null ? null : now + party.left_ms;
    if (this.app.onParty()) this.app.redraw();
  }

  // the party seats us: say where, and go there after a moment to read it (at once when
  // the round began a while ago: called again after a reload or a drop)
  private called(seat: PartySeat): void {
    const here = this.app.atTable();
    if (here && here.round === seat.round && here.table === seat.table && this.app.tableOpen()) return;
    if (seat.web_port === null) return; // (a party without pages has none for its tables)
    if (here) this.app.toStandings();
    this.call = seat;
    const late = (this.party?.round_ms ?? 0) > GO_AFTER_MS;
    this.goAt = Date.now() + (late ? 0 : GO_AFTER_MS);
    if (late) return this.go();
    this.app.showParty();
  }
}
