// The fair deal of docs/protocol.md section 15, checked by the page itself: the host's
// commitment from its revealed secret, our own contribution among the revealed ones, the
// seed from the commitment, the secret and the contributions, and the deal that seed gives
// (steps 4.1-4.6: our first hand and the trump card against what we were shown). The
// replay of every action by the rules (step 6) needs the rules engine, which the page does
// not have: the window and `durak bot` do that part. SHA-256 is @noble/hashes (a page on a
// plain-http LAN address has no crypto.subtle).
import { sha256 } from "@noble/hashes/sha2.js";
import type { Card, Rules } from "./proto";

const COMMIT_DOMAIN = "durak fair deal 4 commitment\n";
const SEED_DOMAIN = "durak fair deal 4 seed\n";

export type Problem = "commitment" | "contribution" | "seed" | "deal" | "no_reveal" | "no_commitment";

export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0x7f;
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// Python's json.dumps(sort_keys=True, separators=(",", ":")) of plain ASCII values
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const map = value as Record<string, unknown>;
    const keys = Object.keys(map).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(map[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function dealContext(game: number, rules: Rules, kinds: string[]): string {
  return canonical({ game, rules, seats: kinds });
}

export function commitmentOf(secretHex: string, context: string): string {
  return bytesToHex(sha256(concat([ascii(COMMIT_DOMAIN), hexToBytes(secretHex), ascii(context)])));
}

export function seedOf(commitHex: string, secretHex: string, contributions: [number, string][]): bigint {
  const parts = [ascii(SEED_DOMAIN), hexToBytes(commitHex), hexToBytes(secretHex)];
  for (const [seat, value] of contributions) parts.push(Uint8Array.of(seat), hexToBytes(value));
  const digest = sha256(concat(parts));
  let seed = 0n;
  for (let i = 0; i < 8; i++) seed = (seed << 8n) | BigInt(digest[i] ?? 0);
  return seed >> 1n;
}

// MT19937 keyed as Python's random.Random(int) is: init_by_array of the seed's 32-bit words
class Twister {
  private readonly mt = new Uint32Array(624);
  private index = 624;

  constructor(seed: bigint) {
    const key: number[] = [];
    let rest = seed < 0n ? -seed : seed;
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    const mt = this.mt;
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] as number;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1664525)) >>> 0) + (key[j] as number) + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = (((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) >>> 0) - i >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  next(): number {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % 624] as number) & 0x7fffffff);
        mt[k] = (mt[(k + 397) % 624] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
}

export interface Deal {
  hands: Card[][];
  stock: Card[]; // in drawing order, the turned card last
  trump: Card;
}

const LOWEST: Record<number, string> = { 24: "9", 36: "6", 52: "2" };
const ALL_RANKS = "23456789TJQKA";

export function dealFrom(seed: bigint, deckSize: number, players: number, dealer: number): Deal {
  const ranks = ALL_RANKS.slice(ALL_RANKS.indexOf(LOWEST[deckSize] ?? "6"));
  const deck: Card[] = [];
  for (const suit of "cdhs") for (const rank of ranks) deck.push(rank + suit);
  const twister = new Twister(seed);
  for (let top = deck.length - 1; top > 0; top--) {
    const size = top + 1;
    const width = size.toString(2).length;
    let other = twister.next() >>> (32 - width);
    while (other >= size) other = twister.next() >>> (32 - width);
    [deck[top], deck[other]] = [deck[other] as Card, deck[top] as Card];
  }
  deck.reverse();
  const dealt = 6 * players;
  const hands: Card[][] = Array.from({ length: players }, () => []);
  for (let i = 0; i < dealt; i++) hands[(dealer + 1 + i) % players]?.push(deck[i] as Card);
  if (deck.length === dealt) return { hands, stock: [], trump: deck[dealt - 1] as Card };
  return { hands, stock: [...deck.slice(dealt + 1), deck[dealt] as Card], trump: deck[dealt] as Card };
}

export interface Committed {
  game: number;
  commitment: string;
  context: string;
  rules: Rules;
  dealer: number;
  mine: string | null; // the value we contributed, null if none was taken
}

export interface Revealed {
  secret: string;
  contributions: [number, string][];
  seed: bigint;
}

// the first problem found, or null: the deal is the one promised (our part of it)
export function checkDeal(
  committed: Committed,
  revealed: Revealed,
  seat: number,
  firstHand: Card[] | null,
  trump: Card | null,
): Problem | null {
  if (commitmentOf(revealed.secret, committed.context) !== committed.commitment) return "commitment";
  if (committed.mine !== null && !revealed.contributions.some(([who, value]) => who === seat && value === committed.mine)) {
    return "contribution";
  }
  if (seedOf(committed.commitment, revealed.secret, revealed.contributions) !== revealed.seed) return "seed";
  const deal = dealFrom(revealed.seed, committed.rules.deck_size, committed.rules.players, committed.dealer);
  if (trump !== null && trump !== deal.trump) return "deal";
  if (firstHand !== null) {
    const expected = [...(deal.hands[seat] ?? [])].sort().join();
    if ([...firstHand].sort().join() !== expected) return "deal";
  }
  return null;
}

export function randomValue(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return bytesToHex(bytes);
}
