// The status line's words: what the player is to do now (lead, beat or take, throw in
// or pass), or what the others are doing while they wait; a watcher is told who attacks
// whom.
import type { Translator } from "./i18n";
import type { Model } from "./model";
import type { Action } from "./proto";

export function statusText(m: Model, me: number | null, legal: Action[], tr: Translator, name: (seat: number) => string): string {
  const attacker = name(m.attacker);
  const defender = name(m.defender);
  if (m.phase === "over") return "";
  if (me === null) return tr.t("status.attacks", { attacker, defender });
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
