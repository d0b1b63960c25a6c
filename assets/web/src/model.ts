// What the table shows, as the scene's events left it: a copy of the view's public parts
// that each event changes a step at a time, plus who put each table card down.
import { rankOf, suitOf } from "./proto";
import type { Card, Pair, View } from "./proto";

export interface Model {
  by: Map<Card, number>; // who put each table card down, as far as we saw it
  hand: Card[];
  sizes: number[];
  table: Pair[];
  stock: number;
  discard: number;
  trump: Card | null;
  attacker: number;
  defender: number;
  taking: boolean;
  passed: number[];
  places: number[];
  phase: View["phase"];
  throwers: number[];
}

export function emptyModel(players: number): Model {
  return {
    by: new Map(), hand: [], sizes: Array(players).fill(0), table: [], stock: 0, discard: 0, trump: null,
    attacker: 0, defender: 1, taking: false, passed: [], places: Array(players).fill(0),
    phase: "lead", throwers: [],
  };
}

export function modelOf(view: View, by: Map<Card, number>): Model {
  const onTable = new Set(view.table.flat());
  return {
    by: new Map([...by].filter(([card]) => onTable.has(card))),
    hand: [...(view.hand ?? [])], sizes: [...view.hand_sizes],
    table: view.table.map(([a, d]) => [a, d] as Pair), stock: view.stock, discard: view.discard,
    trump: view.trump_card, attacker: view.attacker, defender: view.defender, taking: view.taking,
    passed: [...view.passed], places: [...view.places], phase: view.phase, throwers: [...view.throwers],
  };
}
// who is awaited: the leader, the defender with cards to beat, or the throwers
export function awaited(m: Model): Set<number> {
  const out = new Set<number>();
  if (m.phase === "over") return out;
  if (m.phase === "lead") out.add(m.attacker);
  else if (m.table.some(([, d]) => d === null) && !m.taking) out.add(m.defender);
  else for (const seat of m.throwers) if (!m.passed.includes(seat) && seat !== m.defender && !m.places[seat]) out.add(seat);
  return out;
}

// the hand in the order it is shown: by suit (trumps last), then rank, as the window's
export function sortedHand(m: Model): Card[] {
  const trump = m.trump ? suitOf(m.trump) : "";
  const order = (card: Card): number => {
    const suit = suitOf(card);
    const group = suit === trump ? 4 : "cdhs".indexOf(suit);
    return group * 20 + rankOf(card);
  };
  return [...m.hand].sort((a, b) => order(a) - order(b));
}
