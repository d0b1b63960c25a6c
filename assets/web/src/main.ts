// The phones' page: the app that ties the door, the screens and the table together.
//
// Test hook (the browser tests of tests/web rely on it; keep it stable): `window.durakTest`
// is a frozen object of read-only getters:
//   screen  "loading" | "name" | "connecting" | "room" | "table" | "gone" | "party"
//   seat    our seat number, or null (watching, or not seated yet)
//   hand    our hand's card codes, as the latest view has them
//   legal   the latest view's legal actions (action maps of docs/protocol.md section 2)
//   idle    true when no table animation runs and none is queued
//   deal    the last game's deal check: "verified", "failed", or null (none yet)
//   link    the WebSocket's state: "connecting" | "open" | "reconnecting" | "closed"
//           (at a party: the table's; "closed" between tables)
//   player  our id in the party, or null (a table's page, or not joined yet)
//   party   the party's status ("gathering" | "playing" | "break" | "over"), or null
//   called  true while the party calls us to a table we have not joined yet
import { lookSvg } from "./art";
import { button, clear, el, svgNode } from "./dom";
import { DealWatch } from "./deal";
import type { Verdict } from "./deal";
import { commitmentOf, dealContext, dealFrom, seedOf } from "./fair";
import { Translator } from "./i18n";
import type { Strings } from "./i18n";
import { logLine } from "./log";
import { doorUrl, Link } from "./net";
import type { LinkState } from "./net";
import { Night } from "./night";
import { PROTOCOL_VERSION } from "./proto";
import type { Action, GameEvent, Message, PartySeat, Room, View } from "./proto";
import { Pace } from "./pace";
import { BACK_AFTER_MS, partyScreen } from "./party";
import type { PartyHooks } from "./party";
import { endPanel, logSheet, nameScreen, roomScreen } from "./screens";
import type { Profile } from "./screens";
import { store, stored } from "./storage";
import { TableScene } from "./table";
import { Animator } from "./tween";

type Screen = "loading" | "name" | "connecting" | "room" | "table" | "gone" | "party";

// why a session ended, worded as the window's Join screen words it (client/i18n/refusals.py)
const CLOSED_KEYS: Record<string, string> = {
  table_full: "join.full", bad_password: "join.bad_password", version_mismatch: "join.version",
  game_in_progress: "join.in_progress", closed: "closed.lost", kicked: "closed.kicked",
  left: "closed.left", idle: "closed.idle", throttled: "closed.throttled",
  watchers_full: "join.watchers_full", shutdown: "closed.shutdown", replaced: "closed.replaced",
  bad_token: "closed.bad_token", busy: "closed.busy", rate_limited: "closed.rate_limited",
  bad_name: "join.bad_name", name_taken: "web.party_name_taken", party_full: "web.party_full",
};
const PROFILE_KEY = "durak.profile";
const FULLSCREEN_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" ' +
  'd="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"/></svg>';
// the animation speed's mark beside its choice: two chevrons, "fast forward"
const SPEED_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" ' +
  'stroke-linejoin="round" d="M5 6l6 6-6 6M13 6l6 6-6 6"/></svg>';

// a choice of the top bar: `options` as [value, words], `chosen` selected, `changed` told
// the value picked
function choice(className: string, label: string, options: [string, string][], chosen: string, changed: (value: string) => void): HTMLSelectElement {
  const select = el("select", className);
  select.setAttribute("aria-label", label);
  for (const [value, words] of options) {
    const option = el("option", "", words);
    option.value = value;
    option.selected = value === chosen;
    select.append(option);
  }
  select.addEventListener("change", () => changed(select.value));
  return select;
}

class App {
  screen: Screen = "loading";
  seat: number | null = null;
  room: Room | null = null;
  private readonly root = document.getElementById("app") ?? document.body;
  private readonly bar = el("div", "bar");
  private readonly main = el("div", "main");
  private readonly banner = el("div", "banner");
  private readonly toasts = el("div", "toasts");
  private readonly link: Link;
  private readonly table: TableScene;
  private profile: Profile;
  private watch = false;
  private password: string | null = null;
  private readonly tokenKey = `durak.token.${location.host}`;
  private tableName = "";
  private log: string[] = [];
  private readonly deal = new DealWatch(`durak.deal.${location.host}`);
  private verdict: Verdict | null = null;
  private endView: View | null = null;
  private endShown = false;
  private overlay: HTMLElement | null = null;
  private currentGame = 0;
  // a party's page (door.json kind "party"): the night (night.ts), and the table the
  // party seats us at each round, reached through `link` at its web port
  private night: Night | null = null;
  private atTable: PartySeat | null = null; // the table we joined (or are joining)
  private backAt = 0; // when a finished game gives way to the standings
  private readonly looks = new Map<string, number>(); // badges seen, by name
  private refreshParty: ((hooks: PartyHooks) => void) | null = null;

  constructor(readonly tr: Translator, private readonly pace: Pace) {
    let profile: Profile = { name: "", look: Math.floor(Math.random() * 8) };
    try {
      profile = { ...profile, ...(JSON.parse(stored(PROFILE_KEY) ?? "{}") as Partial<Profile>) };
    } catch {
      // a damaged profile: start afresh
    }
    this.profile = profile;
    this.link = new Link(doorUrl(location.host), {
      hello: () => this.hello(),
      message: (message) => this.receive(message),
      state: (state, goodbye) => this.linkState(state, goodbye),
    });
    this.table = new TableScene({
      tr,
      pace,
      room: () => this.room,
      seat: () => this.seat,
      act: (action) => this.act(action),
      emote: (code) => this.link.send({ type: "emote", code }),
      showLog: () => this.showLog(),
      toast: (text) => this.toast(text),
      gameEnded: (view) => this.gameEnded(view),
    });
    this.root.append(this.bar, this.main, this.banner, this.toasts);
    this.drawBar();
  }

  get hook(): object {
    const app = this;
    return Object.freeze({
      get screen() { return app.screen; },
      get seat() { return app.seat; },
      get hand() { return app.table.hand; },
      get legal() { return app.table.legal.map((a) => ({ ...a })); },
      get idle() { return app.table.idle; },
      get deal() { return app.verdict ? (app.verdict.ok ? "verified" : "failed") : null; },
      get link() { return app.link.state; },
      get player() { return app.night?.player ?? null; },
      get party() { return app.night?.party?.status ?? null; },
      get called() { return (app.night?.call ?? null) !== null; },
    });
  }

  async start(): Promise<void> {
    try {
      const door = (await (await fetch("door.json", { cache: "no-store" })).json()) as { kind: string; name: string; protocol: number };
      this.tableName = door.name;
      document.title = `${door.name} · Durak`;
      if (door.kind === "party") this.openNight();
    } catch {
      this.tableName = location.host;
    }
    this.drawBar();
    const token = this.night ? this.night.token : stored(this.tokenKey);
    if (token && this.profile.name) this.connect();
    else this.show("name");
  }

  // ---- the link -------------------------------------------------------------------

  private hello(): Message {
    if (this.atTable) {
      // a party's table: the seat held by the party's token (the party runs the table)
      return {
        type: "hello", version: PROTOCOL_VERSION, name: this.profile.name, password: null,
        token: this.atTable.token, role: "play", look: this.profile.look,
      };
    }
    return {
      type: "hello", version: PROTOCOL_VERSION, name: this.profile.name, password: this.password,
      token: this.watch ? null : stored(this.tokenKey), role: this.watch ? "watch" : "play",
      look: this.profile.look,
    };
  }

  private connect(): void {
    this.show("connecting");
    if (this.night) this.night.link.start();
    else this.link.start();
  }

  private showBanner(): void {
    const away = this.link.state === "reconnecting" || this.night?.link.state === "reconnecting";
    this.banner.textContent = away ? this.tr.t("table.reconnecting") : "";
    this.banner.classList.toggle("on", away);
  }

  private linkState(state: LinkState, goodbye: { code: string; text: string } | null): void {
    this.showBanner();
    if (this.night) {
      if (state === "closed" && this.atTable) this.leaveTable(goodbye);
      return;
    }
    if (state !== "closed" || !goodbye) return;
    if (goodbye.code === "bad_token" && stored(this.tokenKey)) {
      store(this.tokenKey, null); // the seat is gone (freed in the lobby): sit down anew
      this.seat = null;
      this.link.start();
      return;
    }
    if (goodbye.code === "left") {
      if (this.watch) return this.connect(); // "Watch" in the room: back in as a watcher
      return this.show("name");
    }
    this.gone(goodbye);
  }

  private gone(goodbye: { code: string; text: string }): void {
    this.goneText = this.closedText(goodbye);
    this.goneCode = goodbye.code;
    this.show("gone");
  }

  private closedText(goodbye: { code: string; text: string }): string {
    const key = CLOSED_KEYS[goodbye.code] ?? "";
    return this.tr.has(key) ? this.tr.t(key) : goodbye.text;
  }

  // ---- a party night (docs/protocol.md section 17; the night's own link: night.ts) ----

  private openNight(): void {
    this.night = new Night({
      tr: this.tr,
      name: () => this.profile.name,
      onParty: () => this.screen === "party",
      showParty: () => this.show("party"),
      showName: () => this.show("name"),
      redraw: () => this.draw(),
      gone: (goodbye) => this.gone(goodbye),
      banner: () => this.showBanner(),
      atTable: () => this.atTable,
      tableOpen: () => this.link.state !== "closed",
      goToTable: (seat) => this.goToTable(seat),
      toStandings: () => this.toStandings(),
      leaveTables: () => {
        this.link.stop();
        this.atTable = null;
      },
    });
    window.setInterval(() => this.tick(), 250);
  }

  private goToTable(seat: PartySeat): void {
    this.link.stop();
    this.atTable = seat;
    this.seat = null;
    this.room = null;
    this.currentGame = 0;
    this.log = [];
    this.endView = null;
    this.endShown = false;
    this.verdict = null;
    this.backAt = 0;
    this.closeOverlay();
    // the page's own host name, never the party's `address`: the phone reached the host
    // by this name (docs/protocol.md section 19), and the door checks the page's Origin by it
    this.link.url = doorUrl(`${location.hostname}:${seat.web_port}`);
    this.show("connecting");
    this.link.start();
  }

  // the table's link closed while we were there (the table closed after its game, or gone)
  private leaveTable(goodbye: { code: string; text: string } | null): void {
    if (goodbye && goodbye.code !== "shutdown") this.toast(this.closedText(goodbye));
    this.toStandings();
  }

  private toStandings(): void {
    this.atTable = null;
    this.backAt = 0;
    this.link.stop();
    this.seat = null;
    this.room = null;
    this.closeOverlay();
    this.show("party");
  }

  // the clocks: the call's and the end's timers, and the countdowns shown
  private tick(): void {
    const now = Date.now();
    this.night?.tick();
    if (this.backAt && now >= this.backAt) this.toStandings();
    if (this.screen === "party" && this.night?.party) this.refreshParty?.(this.night.hooks(this.profile.look, this.looks));
    const left = this.overlay?.querySelector(".back-soon");
    if (left && this.backAt) left.textContent = this.tr.plural("party.back_soon", Math.ceil(Math.max(0, this.backAt - now) / 1000));
  }

  private goneText = "";
  private goneCode = "";

  private send(message: Message): number {
    const ref = this.link.nextRef();
    this.link.send({ ...message, ref });
    return ref;
  }

  private act(action: Action): boolean {
    const clean: Action = { verb: action.verb };
    if (action.cards) clean.cards = action.cards;
    if (action.card) clean.card = action.card;
    if (action.target) clean.target = action.target;
    return this.link.send({ type: "act", action: clean, ref: this.link.nextRef() });
  }

  private receive(message: Message): void {
    switch (message.type) {
      case "welcome":
        this.seat = message.seat as number;
        this.watch = false;
        if (!this.atTable) store(this.tokenKey, message.token as string);
        this.setRoom(message.room as Room);
        if (this.room?.status === "lobby") this.show("room");
        break;
      case "watching":
        this.seat = null;
        this.setRoom(message.room as Room);
        if (this.room?.status === "lobby") this.show("room");
        break;
      case "room": {
        const before = this.room?.status;
        this.setRoom(message.room as Room);
        if (this.room?.status === "lobby" && this.screen !== "table") this.show("room");
        if (before === "playing" && this.room?.status === "lobby" && this.endShown) {
          // the reveal comes before this room: none came, so this deal goes unchecked
          if (this.verdict === null && this.seat !== null) this.verdict = this.deal.missing(this.currentGame);
          this.drawEnd();
        }
        break;
      }
      case "snapshot":
      case "watch_snapshot": {
        const sameGame = message.game === this.currentGame;
        this.currentGame = message.game as number;
        this.endShown = false;
        this.closeOverlay();
        this.show("table");
        this.table.resync(message.view as View, sameGame);
        if ((message.view as View).phase === "over") this.gameEnded(message.view as View);
        break;
      }
      case "update":
      case "watch_update":
        this.onUpdate(message.game as number, message.events as GameEvent[], message.view as View);
        break;
      case "rejected":
        if (this.deal.refused(message.ref as number)) break;
        this.toast(this.refusal(String(message.reason), String(message.text)));
        this.table.rejected();
        break;
      case "emoted": {
        const text = this.tr.t(`emote.${String(message.code)}`);
        if (this.screen === "table") this.table.emoted(message.seat as number, text);
        else this.toast(`${this.room?.seats[message.seat as number]?.name ?? ""}: ${text}`);
        break;
      }
      case "watcher_emoted":
        this.toast(`${String(message.name)}: ${this.tr.t(`emote.${String(message.code)}`)}`);
        break;
      case "commit":
        this.onCommit(message);
        break;
      case "reveal":
        this.onReveal(message);
        break;
      default:
        break;
    }
  }

  private refusal(code: string, text: string): string {
    if (this.tr.has(`reason.${code}`)) return this.tr.t(`reason.${code}`);
    if (this.tr.has(`room.${code}`)) return this.tr.t(`room.${code}`);
    return text;
  }

  private setRoom(given: Room): void {
    const owner = this.room?.owner;
    const before = this.room?.paused;
    // A host AI is named after its level by the host; the page gives each the first name
    // the window gives it (Boris, Vera, Oleg, Nina, Igor: client.net.remote.seat_names).
    let ai = 0;
    const seats = given.seats.map((seat) =>
      seat.kind === "ai" ? { ...seat, name: this.tr.t(`ai_name.${(ai++ % 5) + 1}`) } : seat,
    );
    const room: Room = { ...given, seats };
    this.room = room;
    for (const seat of given.seats) if (seat.kind === "human" && seat.look !== null) this.looks.set(seat.name, seat.look);
    this.link.silenceMs = room.silence_ms;
    if (owner !== undefined && owner !== room.owner && room.owner !== null && this.seat !== null) {
      this.toast(room.owner === this.seat ? this.tr.t("toast.owner_you") : this.tr.t("toast.owner", { name: room.seats[room.owner]?.name ?? "" }));
    }
    if (this.screen === "room") this.draw();
    if (before !== undefined && before !== room.paused) this.toast(this.pauseText(room));
  }

  // ---- the game -------------------------------------------------------------------

  private onUpdate(game: number, events: GameEvent[], view: View): void {
    if (game !== this.currentGame || events[0]?.event === "dealt") {
      this.currentGame = game;
      this.log = [];
      this.endShown = false;
      this.endView = null;
      this.closeOverlay();
      this.verdict = null;
    }
    this.deal.seen(game, this.seat, events);
    for (const event of events) {
      const line = logLine(event, this.log, this.seat, (seat) => this.who(seat), this.tr);
      if (line !== null) this.log.push(line);
    }
    if (this.screen !== "table") this.show("table");
    this.table.update(events, view);
  }

  private who(seat: number): string {
    return this.room?.seats[seat]?.name || this.tr.t("table.seat", { n: seat + 1 });
  }

  private gameEnded(view: View): void {
    this.endView = view;
    this.endShown = true;
    if (this.atTable && !this.backAt) this.backAt = Date.now() + BACK_AFTER_MS;
    this.drawEnd();
  }

  private drawEnd(): void {
    if (!this.endView || !this.endShown || this.screen !== "table") return;
    this.closeOverlay();
    const room = this.room;
    const seatInfo = this.seat !== null ? room?.seats[this.seat] : undefined;
    const pending = { ok: true, text: this.tr.t("web.deal_pending") };
    const shownVerdict = this.seat === null ? null : this.verdict ? this.verdictText(this.verdict) : pending;
    this.overlay = endPanel(this.endView, room, shownVerdict, {
      tr: this.tr,
      seat: this.seat,
      owner: this.seat !== null && room?.owner === this.seat,
      ready: seatInfo?.ready ?? false,
      rematch: () => {
        if (this.seat !== null && this.room?.owner === this.seat) this.send({ type: "start" });
        else this.send({ type: "ready", ready: !(this.seat !== null && this.room?.seats[this.seat]?.ready) });
      },
      toRoom: () => {
        this.endShown = false;
        this.closeOverlay();
        if (this.room?.status === "lobby") this.show("room");
      },
      hide: () => this.closeOverlay(),
      standings: this.atTable ? () => this.toStandings() : null,
    });
    if (this.verdict === null && this.seat !== null) this.overlay.querySelector(".verdict")?.classList.add("pending");
    this.main.append(this.overlay);
  }

  private closeOverlay(): void {
    this.overlay?.remove();
    this.overlay = null;
  }

  private pauseText(room: Room): string {
    const tr = this.tr;
    if (!room.paused) return tr.t("pause.goes_on");
    const mine = this.seat !== null && room.seats.every((seat, i) => i === this.seat || seat.kind !== "human");
    return mine ? `${tr.t("pause.paused")} — ${tr.t("pause.waits")}` : tr.t("table.paused");
  }

  // section 18: the pause (alone with AIs) and the "back in a minute" mark, during a game
  private seatActions(): { label: string; run(): void }[] {
    const room = this.room;
    const me = this.seat;
    if (!room || me === null || room.status !== "playing" || room.run_by === "party") return [];
    const tr = this.tr;
    const mine = room.seats[me];
    const alone = room.seats.every((seat, i) => i === me || seat.kind !== "human");
    const actions = [];
    if (alone) {
      actions.push(room.paused
        ? { label: tr.t("leave.resume"), run: () => void this.send({ type: "pause", paused: false }) }
        : { label: tr.t("replay.pause"), run: () => void this.send({ type: "pause", paused: true }) });
    } else {
      const on = mine?.back_soon ?? false;
      actions.push({ label: on ? tr.t("pause.marked") : tr.t("pause.back_soon"), run: () => void this.send({ type: "back_soon", on: !on }) });
    }
    return actions;
  }

  private showLog(): void {
    this.closeOverlay();
    this.overlay = logSheet(this.tr, this.log, this.seatActions(), () => this.closeOverlay());
    this.main.append(this.overlay);
  }

  // ---- the fair deal (docs/protocol.md section 15) -----------------------------------

  private onCommit(message: Message): void {
    if (!this.room) return;
    const contribution = this.deal.commit(message, this.room);
    this.deal.sent(this.send(contribution));
  }

  private onReveal(message: Message): void {
    if (this.seat === null) return;
    const verdict = this.deal.reveal(message, this.seat);
    if (verdict === null) return;
    this.verdict = verdict;
    this.drawEnd();
  }

  private verdictText(verdict: Verdict): { ok: boolean; text: string } {
    const tr = this.tr;
    if (verdict.ok) return { ok: true, text: `${tr.t("deal.verified")} — ${tr.t("web.deal_checked")}` };
    return { ok: false, text: tr.t("deal.failed", { why: tr.t(verdict.why) }) };
  }

  // ---- drawing --------------------------------------------------------------------

  private show(screen: Screen): void {
    this.screen = screen;
    this.draw();
  }

  private drawBar(): void {
    clear(this.bar);
    const tr = this.tr;
    const title = el("div", "title");
    const look = this.profile.look;
    if (this.profile.name) title.append(svgNode("badge", lookSvg(look)));
    title.append(el("span", "", this.tableName || "Durak"));
    const languages = tr.languages.map((code): [string, string] => [code, tr.t(`lang.${code}`)]);
    const select = choice("lang", tr.t("settings.language"), languages, tr.language, (code) => {
      tr.choose(code);
      document.documentElement.lang = tr.language;
      this.drawBar();
      this.draw();
      this.table.relayout(0);
    });
    const speeds = this.pace.names.map((name): [string, string] => [name, tr.t(`speed.${name}`)]);
    const pick = el("label", "pick");
    pick.append(svgNode("icon mark", SPEED_ICON), choice("lang speed", tr.t("settings.animation"), speeds, this.pace.speed, (name) => this.pace.choose(name)));
    this.bar.append(title, select, pick);
    const docEl = document.documentElement as HTMLElement & { webkitRequestFullscreen?: () => void };
    if (docEl.requestFullscreen || docEl.webkitRequestFullscreen) {
      const full = button("btn icon", "", () => {
        if (document.fullscreenElement) void document.exitFullscreen?.();
        else if (docEl.requestFullscreen) void docEl.requestFullscreen().catch(() => undefined);
        else docEl.webkitRequestFullscreen?.();
      });
      full.append(svgNode("icon", FULLSCREEN_ICON));
      full.setAttribute("aria-label", tr.t("web.fullscreen"));
      full.title = tr.t("web.fullscreen");
      this.bar.append(full);
    }
  }

  private draw(): void {
    const tr = this.tr;
    this.root.dataset.screen = this.screen;
    const keepTable = this.screen === "table";
    for (const child of [...this.main.children]) if (!(keepTable && child === this.table.root) && child !== this.overlay) child.remove();
    if (!keepTable) this.table.root.remove();
    switch (this.screen) {
      case "loading":
      case "connecting":
        this.main.append(el("div", "screen center", tr.t(this.screen === "connecting" ? "web.connecting" : "table.shuffling")));
        break;
      case "party": {
        this.refreshParty = null;
        if (!this.night?.party) break;
        const shown = partyScreen(this.night.party, this.night.hooks(this.profile.look, this.looks));
        this.refreshParty = shown.refresh;
        this.main.append(shown.root);
        break;
      }
      case "name":
        this.main.append(nameScreen(tr, this.profile, this.tableName, this.night === null, (profile, watch) => {
          this.profile = profile;
          this.watch = watch;
          store(PROFILE_KEY, JSON.stringify(profile));
          this.drawBar();
          this.connect();
        }));
        break;
      case "room":
        if (!this.room) break;
        this.main.append(roomScreen(this.room, {
          tr, seat: this.seat,
          ready: (on) => this.send({ type: "ready", ready: on }),
          start: () => this.send({ type: "start" }),
          setSeat: (seat, ai) => this.send({ type: "set_seat", seat, ai }),
          sit: () => this.send({ type: "sit" }),
          watchInstead: () => {
            this.send({ type: "leave" });
            store(this.tokenKey, null);
            this.watch = true;
          },
          leave: () => {
            this.send({ type: "leave" });
            store(this.tokenKey, null);
            this.seat = null;
            this.link.stop();
            this.show("name");
          },
        }));
        break;
      case "table":
        if (!this.table.root.parentElement) this.main.prepend(this.table.root);
        this.table.relayout(0);
        break;
      case "gone": {
        const panel = el("div", "screen center gone");
        panel.append(el("h2", "", tr.t("web.gone")), el("p", "", this.goneText));
        let input: HTMLInputElement | null = null;
        if (this.goneCode === "bad_password" || this.goneCode === "throttled") {
          input = el("input", "name-input");
          input.type = "password";
          input.placeholder = tr.t("join.password");
          panel.append(input);
        }
        const actions = el("div", "actions");
        actions.append(button("btn primary", tr.t("web.join_again"), () => {
          if (input) this.password = input.value || null;
          this.watch = false;
          if (this.goneCode === "bad_name" || this.goneCode === "name_taken") this.show("name"); // another name first
          else this.connect();
        }));
        if (this.goneCode === "game_in_progress" || this.goneCode === "table_full") {
          // no seat for a newcomer now: watch the game instead
          actions.append(button("btn", tr.t("join.watch"), () => {
            this.watch = true;
            this.connect();
          }));
        }
        panel.append(actions);
        this.main.append(panel);
        break;
      }
    }
  }

  toast(text: string): void {
    const last = this.toasts.lastElementChild;
    if (last && last.textContent === text) last.remove(); // the same words again: shown once
    const node = el("div", "toast", text);
    this.toasts.append(node);
    while (this.toasts.children.length > 3) this.toasts.firstChild?.remove();
    window.setTimeout(() => node.classList.add("out"), 2600);
    window.setTimeout(() => node.remove(), 3100);
  }
}

async function boot(): Promise<void> {
  const strings = (await (await fetch("strings.json")).json()) as Strings;
  const tr = new Translator(strings);
  document.documentElement.lang = tr.language;
  const app = new App(tr, new Pace(strings.speeds));
  Object.defineProperty(window, "durakTest", { value: app.hook, writable: false, configurable: false });
  await app.start();
}

if (typeof document === "undefined") {
  // under node: the deal's check (tests/client/test_web_fair.py) and the cards' pace
  // (tests/client/test_web_pace.py), nothing of the page
  (globalThis as unknown as { durakFair: object }).durakFair = { dealContext, commitmentOf, seedOf, dealFrom };
  (globalThis as unknown as { durakPace: object }).durakPace = { Animator, Pace };
} else {
  void boot();
}
