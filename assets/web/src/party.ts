// A party night from a phone (docs/protocol.md section 17), between its tables: the
// standings with places and badges, what comes next (the table the party calls us to, the
// wait for the other tables, the break's clock) and the organiser's Start. The App holds
// the party's link and the table's; this only draws, as the window's between-rounds
// screen does (client/screens/party/between.py), with its words.
import { lookSvg } from "./art";
import { button, el, svgNode } from "./dom";
import type { Translator } from "./i18n";
import type { Party, PartySeat } from "./proto";

export const GO_AFTER_MS = 4000; // to read where the next table is before going there
export const BACK_AFTER_MS = 8000; // the end of a game shows this long, then the standings

export interface PartyHooks {
  tr: Translator;
  player: number | null; // our id in the party (null before `joined`)
  look: number; // our badge
  looks: ReadonlyMap<string, number>; // the other badges known, by name (our tables' rooms)
  call: PartySeat | null; // the table the party calls us to, not yet joined
  goingIn: number; // seconds before we go there by ourselves
  nextIn: number | null; // seconds before the next round begins by itself (a break)
  leftIn: number | null; // seconds left of a night of fixed time
  refused: string; // the party's refusal of our last request, in our words
  start(): void;
  go(): void;
  leave(): void;
}

// `m:ss`, or `h:mm:ss` from an hour on (client.screens.party.model.clock_text)
export function clockText(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

// "Anna, Oleg and Vera"
export function named(tr: Translator, names: string[]): string {
  if (names.length < 2) return names.join("");
  return tr.t("party.and", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] ?? "" });
}

// every seat's name at a table the party seats us at: the AI seats named as the page names them
export function seatNames(tr: Translator, names: (string | null)[]): string[] {
  let ai = 0;
  return names.map((name) => name ?? tr.t(`ai_name.${(ai++ % 5) + 1}`));
}

function news(party: Party, hooks: PartyHooks): [string, string] {
  const { tr, call } = hooks;
  const me = party.players.find((p) => p.id === hooks.player);
  const standing = me ? tr.t("party.you_place", { place: tr.ordinal(me.rank), n: party.players.length }) : "";
  if (call) {
    const others = seatNames(tr, call.names).filter((_, seat) => seat !== call.seat);
    return [
      tr.t("party.next", { round: call.round, table: call.table + 1, names: named(tr, others) }),
      tr.plural("party.going", Math.ceil(Math.max(0, hooks.goingIn))),
    ];
  }
  switch (party.status) {
    case "over":
      return [tr.t("party.night_over"), standing];
    case "playing":
      return [tr.t("party.wait_next"), standing];
    case "gathering":
      return [tr.plural("party.gathering", party.players.length), tr.t("party.waiting_start")];
    default:
      return [tr.t("party.seating"), standing];
  }
}

function clockLine(party: Party, hooks: PartyHooks): string {
  const { tr } = hooks;
  const parts: string[] = [];
  if (party.round > 0) {
    const rounds = party.setup.rounds;
    parts.push(party.final ? tr.t("party.final") : rounds ? tr.t("party.round_of", { n: party.round, of: rounds }) : tr.t("party.round", { n: party.round }));
  }
  if (party.status === "break" && hooks.nextIn !== null) parts.push(tr.t("party.next_in", { time: clockText(hooks.nextIn) }));
  if (hooks.leftIn !== null && party.status !== "over") parts.push(tr.t("party.left", { time: clockText(hooks.leftIn) }));
  return parts.join(" · ");
}

// the screen, and what redraws its clocks in place (every quarter second: a redraw of
// the whole screen would take a button from under a finger)
export function partyScreen(party: Party, hooks: PartyHooks): { root: HTMLElement; refresh(hooks: PartyHooks): void } {
  const { tr } = hooks;
  const root = el("div", "screen party-screen");
  root.append(el("h1", "room-title", party.name));
  const clock = el("div", "rules");
  const told = el("div", hooks.call ? "news call" : "news");
  const first = el("div", "first");
  const second = el("div", "second");
  told.append(first, second);
  const refresh = (now: PartyHooks): void => {
    clock.textContent = clockLine(party, now);
    const [top, low] = news(party, now);
    const warning = now.refused || (party.unsaved && party.organiser === now.player ? tr.t("party.unsaved") : "");
    first.textContent = top;
    second.textContent = warning || low;
    second.classList.toggle("error", warning !== "");
  };
  refresh(hooks);
  root.append(clock);
  if (hooks.call) {
    const actions = el("div", "actions");
    actions.append(button("btn primary", tr.t("party.go_now"), hooks.go));
    told.append(actions);
  }
  root.append(told);
  root.append(standings(party, hooks));
  const actions = el("div", "actions");
  const organiser = hooks.player !== null && party.organiser === hooks.player;
  if (organiser && party.status === "gathering") actions.append(button("btn primary", tr.t("party.begin"), hooks.start));
  if (organiser && party.status === "break") actions.append(button("btn primary", tr.t("party.next_round"), hooks.start));
  if (party.status !== "over") actions.append(button("btn", tr.t("party.leave"), hooks.leave));
  root.append(actions);
  return { root, refresh };
}

// the standings: rank, badge and name, then score (wins - losses), wins, times the Durak, games
function standings(party: Party, hooks: PartyHooks): HTMLElement {
  const { tr } = hooks;
  const box = el("div", "standings");
  box.append(el("h2", "", tr.t("party.standings")));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "rank", "#"), el("th", "who", tr.t("party.player")));
  for (const key of ["party.col.score", "party.col.won", "party.col.durak", "party.col.games"]) head.append(el("th", "n", tr.t(key)));
  table.append(head);
  for (const player of party.players) {
    const row = el("tr", player.status);
    if (player.id === hooks.player) row.classList.add("me");
    const who = el("td", "who");
    const line = el("div", "line");
    const look = player.id === hooks.player ? hooks.look : hooks.looks.get(player.name);
    // a badge not seen yet: the name's initial in its place
    const badge = look === undefined ? el("span", "badge none", [...player.name][0] ?? "") : svgNode("badge", lookSvg(look));
    line.append(badge, el("span", "name", player.name));
    if (player.id === party.organiser) line.append(el("span", "tag", "★"));
    who.append(line);
    row.append(el("td", "rank", String(player.rank)), who);
    for (const n of [player.wins - player.losses, player.wins, player.losses, player.games]) row.append(el("td", "n", String(n)));
    table.append(row);
  }
  box.append(table);
  return box;
}
