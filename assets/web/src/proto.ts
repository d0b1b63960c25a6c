// The shapes of docs/protocol.md (version 6) the page reads. The host validates what it
// sends; the page trusts those shapes and never sends a non-integral number.

export const PROTOCOL_VERSION = 6;
export const EMOTES = ["nice", "oops", "hurry", "well_played", "ha"] as const;
export const LEVELS = ["random", "easy", "normal", "hard"] as const;
export const LOOK_COUNT = 8;

export type Card = string; // "6h", "Th", "As"
export type Pair = [Card, Card | null];

export interface Rules {
  players: number;
  deck_size: number;
  throw_in: string;
  first_bout_five: boolean;
  transfer: boolean;
  transfer_show_trump: boolean;
  durak_defends_first: boolean;
}

export interface Seat {
  kind: "empty" | "human" | "ai";
  name: string;
  level: string | null;
  connected: boolean;
  status: string;
  ready: boolean;
  look: number | null;
  back_soon: boolean;
}

export interface Result {
  places: number[];
  durak: number | null;
}

export interface Series {
  wins: number[];
  losses: number[];
  games: number;
  draws: number;
  last: Result | null;
}

export interface Room {
  name: string;
  status: "lobby" | "playing";
  owner: number | null;
  seats: Seat[];
  rules: Rules;
  password: boolean;
  autostart: boolean;
  series: Series;
  game: number;
  silence_ms: number;
  watchers: number;
  watching: string[];
  paused: boolean;
  run_by: "owner" | "party"; // a party's table: the party runs the room, nobody owns it
}

export interface Action {
  verb: "attack" | "throw" | "beat" | "transfer" | "show" | "take" | "pass";
  cards?: Card[];
  card?: Card;
  target?: Card;
}

export interface View {
  seat?: number; // a watcher's public view has no seat, hand, legal or hints
  rules: Rules;
  phase: "lead" | "open" | "over";
  trump_card: Card;
  stock: number;
  discard: number;
  hand?: Card[];
  hand_sizes: number[];
  known: Card[][];
  table: Pair[];
  attacker: number;
  defender: number;
  limit: number;
  taking: boolean;
  passed: number[];
  shown: number[];
  throwers: number[];
  places: number[];
  result: Result | null;
  legal?: Action[];
  hints?: [Card, string][];
}

export interface GameEvent {
  event: string;
  seat?: number;
  count?: number;
  cards?: Card[] | null;
  card?: Card;
  target?: Card;
  to?: number;
  shown?: boolean | Card | null;
  holder?: number | null;
  attacker?: number;
  defender?: number;
  limit?: number;
  place?: number;
  result?: Result;
}

export interface Message {
  type: string;
  [field: string]: unknown;
}

export const SUITS = "cdhs";
export const RANKS = "23456789TJQKA";

export function rankOf(card: Card): number {
  return RANKS.indexOf(card[0] ?? "") + 2;
}

export function suitOf(card: Card): string {
  return card[1] ?? "";
}

export function sameAction(a: Action, b: Action): boolean {
  return (
    a.verb === b.verb &&
    a.card === b.card &&
    a.target === b.target &&
    [...(a.cards ?? [])].sort().join() === [...(b.cards ?? [])].sort().join()
  );
}

// ---- a party (section 17): its map, as `joined` and `party` carry it ----------------

export interface PartyPlayer {
  id: number;
  name: string;
  status: "here" | "away" | "left";
  rank: number;
  games: number;
  wins: number;
  losses: number;
  place: number;
  opponents: number;
  table: number | null;
}

export interface PartyRoundTable {
  table: number;
  port: number;
  seats: (number | null)[];
  status: "playing" | "done";
  places: number[] | null;
  durak: number | null;
}

export interface Party {
  name: string;
  status: "gathering" | "playing" | "break" | "over";
  organiser: number | null;
  setup: { rules: Rules; rounds: number | null; minutes: number | null; fill: boolean; ai: string };
  round: number;
  final: boolean;
  round_ms: number | null;
  left_ms: number | null;
  next_ms: number | null;
  players: PartyPlayer[];
  tables: PartyRoundTable[];
  unsaved: boolean;
}

// where the party seats us this round (`party_table`)
export interface PartySeat {
  round: number;
  table: number;
  address: string;
  port: number;
  token: string;
  seat: number;
  names: (string | null)[];
  web_port: number | null;
}
