// The screens around the table: who you are (name and badge), the room (seats round an
// oval, ready marks, the owner's seat fills and Start, watchers), the end of a game
// (places, the series, the deal's check, rematch) and the game's log.
import { LOOK_NAMES, lookSvg } from "./art";
import { button, clear, el, svgNode } from "./dom";
import type { Translator } from "./i18n";
import { LEVELS, LOOK_COUNT } from "./proto";
import type { Room, View } from "./proto";

export interface Profile {
  name: string;
  look: number;
}

export function nameScreen(
  tr: Translator,
  profile: Profile,
  tableName: string,
  watchable: boolean, // a table's page offers Watch; a party's has nothing to watch
  go: (profile: Profile, watch: boolean) => void,
): HTMLElement {
  const root = el("div", "screen name-screen");
  const panel = el("div", "panel");
  panel.append(el("div", "table-name", tableName), el("h1", "", tr.t("name.title")));
  const label = el("label", "field-label", tr.t("name.prompt"));
  const input = el("input", "name-input");
  input.type = "text";
  input.maxLength = 24;
  input.setAttribute("autocomplete", "nickname");
  input.enterKeyHint = "go";
  input.value = profile.name;
  input.id = "name-input";
  label.htmlFor = "name-input";
  let look = profile.look;
  const badges = el("div", "badges");
  const hint = el("div", "hint");
  const drawBadges = (): void => {
    clear(badges);
    for (let i = 0; i < LOOK_COUNT; i++) {
      const b = button(i === look ? "look chosen" : "look", "", () => {
        look = i;
        drawBadges();
      });
      b.append(svgNode("badge", lookSvg(i)));
      b.setAttribute("aria-label", tr.t(`look.${LOOK_NAMES[i]}`));
      badges.append(b);
    }
    hint.textContent = tr.t(`look.${LOOK_NAMES[look]}`);
  };
  drawBadges();
  const error = el("div", "error");
  const submit = (watch: boolean): void => {
    const name = input.value.trim().replace(/\s+/g, " ").slice(0, 24);
    if (!name) {
      error.textContent = tr.t("web.name_needed");
      input.focus();
      return;
    }
    go({ name, look }, watch);
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") submit(false);
  });
  const actions = el("div", "actions");
  actions.append(button("btn primary", tr.t("name.continue"), () => submit(false)));
  if (watchable) actions.append(button("btn", tr.t("join.watch"), () => submit(true)));
  panel.append(label, input, el("div", "field-label", tr.t("name.badge")), badges, hint, error, actions);
  root.append(panel);
  return root;
}

export interface RoomHooks {
  tr: Translator;
  seat: number | null;
  ready(on: boolean): void;
  start(): void;
  setSeat(seat: number, ai: string | null): void;
  sit(): void;
  watchInstead(): void;
  leave(): void;
}

function rulesLine(tr: Translator, room: Room): string {
  const r = room.rules;
  const parts = [tr.plural("menu.deck_value", r.deck_size), tr.t(`summary.throw_in.${r.throw_in}`)];
  if (r.first_bout_five) parts.push(tr.t("summary.first_bout_five"));
  if (r.transfer) parts.push(tr.t(r.transfer_show_trump ? "summary.transfer_show_trump" : "summary.transfer"));
  if (r.durak_defends_first) parts.push(tr.t("summary.durak_defends_first"));
  return parts.join(" · ");
}

export function roomScreen(room: Room, hooks: RoomHooks): HTMLElement {
  const { tr, seat: me } = hooks;
  const root = el("div", "screen room-screen");
  const owner = me !== null && room.owner === me;
  root.append(el("h1", "room-title", room.name), el("div", "rules", rulesLine(tr, room)));
  const oval = el("div", "oval");
  const n = room.seats.length;
  const bottom = me ?? 0;
  room.seats.forEach((info, seat) => {
    const k = (seat - bottom + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n; // the bottom first, clockwise
    const plate = el("div", `seat-plate ${info.kind}`);
    plate.style.left = `${(50 + 33 * Math.cos(angle)).toFixed(1)}%`;
    plate.style.top = `${(50 + 41 * Math.sin(angle)).toFixed(1)}%`;
    if (seat === me) plate.classList.add("me");
    const line = el("div", "line");
    if (info.kind === "human" && info.look !== null) line.append(svgNode("badge", lookSvg(info.look)));
    else if (info.kind === "ai") line.append(el("span", "badge none", "AI"));
    const name = info.kind === "empty" ? tr.t("room.open") : info.name;
    line.append(el("span", "name", name));
    plate.append(line);
    const notes: string[] = [];
    if (seat === me) notes.push(tr.t("room.you"));
    if (room.owner === seat) notes.push(tr.t("room.owner"));
    if (info.kind === "ai") notes.push(`${tr.t("room.computer")} · ${tr.t(`level.${info.level ?? "normal"}`)}`);
    if (info.kind === "human" && info.status === "away") notes.push(tr.t("room.away"));
    plate.append(el("div", "note", notes.join(" · ")));
    if (info.kind === "human" && room.run_by !== "party") plate.append(el("div", info.ready || room.owner === seat ? "mark ready" : "mark", info.ready || room.owner === seat ? `✓ ${tr.t("room.ready_mark")}` : tr.t("room.not_ready_mark")));
    if (owner && info.kind !== "human" && room.status === "lobby") {
      plate.classList.add("tappable");
      plate.addEventListener("click", () => seatMenu(root, hooks, seat));
    }
    oval.append(plate);
  });
  root.append(oval);
  const footer = el("div", "room-footer");
  const hint = el("div", "hint");
  const empty = room.seats.some((s) => s.kind === "empty");
  const waiting = room.seats.filter((s, i) => s.kind === "human" && !s.ready && i !== room.owner && i !== me).map((s) => s.name);
  const actions = el("div", "actions");
  if (room.run_by === "party") {
    // the party runs this table: it deals once everyone is here (or after a while)
    hint.textContent = tr.t("web.party_table_wait");
  } else if (me === null) {
    hint.textContent = tr.t("pause.watching");
    if (empty && room.status === "lobby") actions.append(button("btn primary", tr.t("room.take_seat"), hooks.sit));
  } else if (owner) {
    hint.textContent = empty ? `${tr.t("room.fill_seats")} ${tr.t("web.tap_seat")}` : waiting.length ? tr.t("room.waiting_ready", { names: waiting.join(", ") }) : tr.t("room.ready");
    actions.append(button("btn primary", tr.t("room.start"), hooks.start));
  } else {
    const mine = room.seats[me];
    hint.textContent = mine?.ready ? tr.t("room.waiting_owner") : tr.t("room.press_ready");
    actions.append(button(mine?.ready ? "btn" : "btn primary", tr.t(mine?.ready ? "room.not_ready_button" : "room.ready_button"), () => hooks.ready(!mine?.ready)));
  }
  if (room.run_by !== "party") {
    if (me !== null) actions.append(button("btn", tr.t("join.watch"), hooks.watchInstead));
    actions.append(button("btn", tr.t("room.leave"), hooks.leave));
  }
  const watchers = el("div", "watchers", room.watching.length ? tr.t("room.watchers", { names: room.watching.join(", ") }) : tr.t("web.watchers_none"));
  footer.append(hint, actions, watchers);
  root.append(footer);
  return root;
}

function seatMenu(root: HTMLElement, hooks: RoomHooks, seat: number): void {
  const { tr } = hooks;
  const sheet = el("div", "sheet");
  const panel = el("div", "panel");
  panel.append(el("h2", "", tr.t("web.seat_menu")));
  for (const level of LEVELS) {
    panel.append(button("btn", `${tr.t("room.computer")} · ${tr.t(`level.${level}`)}`, () => {
      hooks.setSeat(seat, level);
      sheet.remove();
    }));
  }
  panel.append(button("btn", tr.t("room.open"), () => {
    hooks.setSeat(seat, null);
    sheet.remove();
  }));
  panel.append(button("btn ghost", tr.t("web.close"), () => sheet.remove()));
  sheet.addEventListener("click", (event) => {
    if (event.target === sheet) sheet.remove();
  });
  sheet.append(panel);
  root.append(sheet);
}

export interface EndHooks {
  tr: Translator;
  seat: number | null;
  owner: boolean;
  ready: boolean;
  rematch(): void;
  toRoom(): void;
  hide(): void;
  standings: (() => void) | null; // a party's table: back to the night's standings
}

export function endPanel(view: View, room: Room | null, verdict: { ok: boolean; text: string } | null, hooks: EndHooks): HTMLElement {
  const { tr, seat: me } = hooks;
  const result = view.result ?? { places: view.places, durak: null };
  const sheet = el("div", "sheet end");
  const panel = el("div", "panel");
  const name = (seat: number): string => (seat === me ? tr.t("end.you") : room?.seats[seat]?.name || tr.t("table.seat", { n: seat + 1 }));
  let title: string;
  if (result.durak === null) title = tr.t("end.draw");
  else if (result.durak === me) title = tr.t("end.durak_you");
  else title = tr.t("end.durak", { name: name(result.durak) });
  panel.append(el("div", result.durak === me ? "stamp you" : "stamp", tr.t("end.stamp")), el("h2", "", title));
  if (me !== null && result.durak !== null && result.durak !== me) panel.append(el("div", "sub", tr.t("end.not_durak")));
  const list = el("ol", "places");
  const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
  for (const { place, seat } of order) {
    const row = el("li", seat === result.durak ? "durak" : "");
    const look = room?.seats[seat]?.look;
    if (look !== null && look !== undefined) row.append(svgNode("badge", lookSvg(look)));
    row.append(el("span", "name", name(seat)), el("span", "place", seat === result.durak ? tr.t("table.durak") : tr.ordinal(place)));
    list.append(row);
  }
  panel.append(list);
  if (room && me !== null && !hooks.standings) {
    const s = room.series;
    let line = `${tr.plural("end.series", s.games)} · ${tr.t("end.score", { won: s.wins[me] ?? 0, lost: s.losses[me] ?? 0 })}`;
    if (s.draws) line += tr.t("end.drawn", { n: s.draws });
    panel.append(el("div", "series", line));
  }
  if (verdict) panel.append(el("div", verdict.ok ? "verdict ok" : "verdict bad", verdict.text));
  const actions = el("div", "actions");
  if (hooks.standings) {
    // a party's game: no rematch here, the party seats the next round
    panel.append(el("div", "series back-soon"));
    actions.append(button("btn primary", tr.t("party.standings"), hooks.standings), button("btn ghost", tr.t("table.hide"), hooks.hide));
    panel.append(actions);
    sheet.append(panel);
    return sheet;
  }
  if (me !== null) {
    const label = hooks.owner ? tr.t("table.rematch") : hooks.ready ? `✓ ${tr.t("room.ready_mark")}` : tr.t("table.rematch");
    actions.append(button(hooks.ready && !hooks.owner ? "btn" : "btn primary", label, hooks.rematch));
  }
  actions.append(button("btn", tr.t("table.menu"), hooks.toRoom), button("btn ghost", tr.t("table.hide"), hooks.hide));
  panel.append(actions);
  sheet.append(panel);
  return sheet;
}

export interface SheetAction {
  label: string;
  run(): void;
}

// the game's log, with the seat's own switches above it (pause, "back in a minute")
export function logSheet(tr: Translator, lines: string[], actions: SheetAction[], close: () => void): HTMLElement {
  const sheet = el("div", "sheet");
  const panel = el("div", "panel log");
  if (actions.length) {
    const row = el("div", "actions");
    for (const action of actions) row.append(button("btn", action.label, () => {
      action.run();
      close();
    }));
    panel.append(row);
  }
  panel.append(el("h2", "", tr.t("history.title")));
  const list = el("div", "lines");
  if (!lines.length) list.append(el("div", "line", tr.t("history.empty")));
  for (const line of lines) list.append(el("div", line.startsWith("§") ? "line bout" : "line", line.replace(/^§/, "")));
  panel.append(list, button("btn", tr.t("web.close"), close));
  sheet.addEventListener("click", (event) => {
    if (event.target === sheet) close();
  });
  sheet.append(panel);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  return sheet;
}
