// The log's words: one line for each event of a game as the player saw it, "you" for
// their own moves; a bout's heading line starts with "§" (the log sheet draws it as a
// heading; the bouts are numbered by counting them).
import { cardText } from "./art";
import type { Translator } from "./i18n";
import type { GameEvent } from "./proto";

// the line for `e`, after the lines `earlier` of the same game (null: an event the log
// leaves out)
export function logLine(e: GameEvent, earlier: string[], me: number | null, who: (seat: number) => string, tr: Translator): string | null {
  const seat = e.seat ?? -1;
  const you = seat === me;
  const name = who(seat);
  const cards = (e.cards ?? []).map(cardText).join(" ");
  const card = e.card ? cardText(e.card) : "";
  const target = e.target ? cardText(e.target) : "";
  let line = "";
  switch (e.event) {
    case "bout_started": {
      const n = earlier.filter((l) => l.startsWith("§")).length + 1;
      const attacker = who(e.attacker ?? 0);
      const defender = who(e.defender ?? 0);
      line = "§" + (e.attacker === me ? tr.t("log.bout_you_attack", { n, defender }) : e.defender === me ? tr.t("log.bout_attacks_you", { n, attacker }) : tr.t("log.bout", { n, attacker, defender }));
      break;
    }
    case "attacked":
      line = you ? tr.t("log.led_you", { cards }) : tr.t("log.led", { name, cards });
      break;
    case "threw_in":
      line = you ? tr.t("log.threw_in_you", { card }) : tr.t("log.threw_in", { name, card });
      break;
    case "covered":
      line = you ? tr.t("log.beat_you", { card, target }) : tr.t("log.beat", { name, card, target });
      break;
    case "transferred": {
      const to = who(e.to ?? 0);
      const kind = e.shown ? "showed" : "transferred";
      line = you ? tr.t(`log.${kind}_you`, { card, target: to }) : e.to === me ? tr.t(`log.${kind}_to_you`, { name, card }) : tr.t(`log.${kind}`, { name, card, target: to });
      break;
    }
    case "picked_up":
      line = you ? tr.plural("log.took_you", e.cards?.length ?? 0) : tr.plural("log.took", e.cards?.length ?? 0, { name });
      break;
    case "discarded":
      line = tr.plural("log.beaten", e.cards?.length ?? 0);
      break;
    case "drew":
      line = you ? tr.plural("log.drew_you", e.count ?? 0) : tr.plural("log.drew", e.count ?? 0, { name });
      break;
    case "went_out":
      line = you ? tr.t("log.out_you", { place: tr.ordinal(e.place ?? 0) }) : tr.t("log.out", { name, place: tr.ordinal(e.place ?? 0) });
      break;
    case "game_ended": {
      const durak = e.result?.durak ?? null;
      line = durak === null ? tr.t("log.draw") : durak === me ? tr.t("log.durak_you") : tr.t("log.durak", { name: who(durak) });
      break;
    }
    default:
      return null;
  }
  return line;
}
