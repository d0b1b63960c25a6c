// One WebSocket to the host's door: one msgpack map per binary message (the host's
// protocol.frame adds the length prefix), the heartbeat answered where messages are read,
// and the reconnecting of docs/protocol.md section 10 (0.5 s, 1, 2, 4 ... 10 s, each
// times a random 0.5-1, for two minutes). A phone that wakes up (visibilitychange,
// pageshow from the back-forward cache, online) tries at once: iOS drops a sleeping
// page's socket without a close event, so a socket that seems open is tested by a ping.
import { Decoder, Encoder } from "@msgpack/msgpack";
import type { Message } from "./proto";

// seed and big integers come as bigint (never a rounded number)
const decoder = new Decoder({ useBigInt64: true });
const encoder = new Encoder({ ignoreUndefined: true });

// goodbyes after which trying again is pointless (section 10); `busy` is worth a retry
const FINAL = new Set([
  "bad_token", "bad_password", "version_mismatch", "replaced", "game_in_progress",
  "shutdown", "kicked", "left", "idle", "table_full", "throttled", "watchers_full",
  "bad_frame", "bad_message", "hello_expected", "frame_too_large", "rate_limited", "bad_name",
  "name_taken", "party_full", // a party's door (section 17)
]);
const GIVE_UP_MS = 120_000;
const DEFAULT_SILENCE_MS = 12_000;

export type LinkState = "connecting" | "open" | "reconnecting" | "closed";

// the door's WebSocket at `host` (a name, and a port unless the page's own), secure when
// the page is
export function doorUrl(host: string): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${host}/ws`;
}

export interface LinkHooks {
  hello(): Message; // built afresh for every connection (the token may have come since)
  message(message: Message): void;
  state(state: LinkState, goodbye: { code: string; text: string } | null): void;
}

export class Link {
  private socket: WebSocket | null = null;
  private ref = 1;
  private retries = 0;
  private retryTimer = 0;
  private firstLoss = 0;
  private lastHeard = 0;
  private pinged = false;
  private stopped = false;
  private welcomed = false;
  silenceMs = DEFAULT_SILENCE_MS;
  state: LinkState = "closed";

  // `url` may change while stopped: a party's page goes to each round's table in turn
  constructor(public url: string, private readonly hooks: LinkHooks) {
    const wake = (): void => this.wake();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") wake();
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) wake();
    });
    window.addEventListener("online", wake);
    window.setInterval(() => this.watch(), 1000);
  }

  nextRef(): number {
    this.ref = this.ref >= 0x7fffffff ? 1 : this.ref + 1;
    return this.ref;
  }

  start(): void {
    this.stopped = false;
    this.retries = 0;
    this.firstLoss = 0;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
    this.setState("closed", null);
  }

  send(message: Message): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(encoder.encode(message));
    return true;
  }

  private setState(state: LinkState, goodbye: { code: string; text: string } | null): void {
    this.state = state;
    this.hooks.state(state, goodbye);
  }

  private open(): void {
    window.clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.url);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.welcomed = false;
    this.pinged = false;
    this.setState(this.firstLoss ? "reconnecting" : "connecting", null);
    socket.onopen = () => {
      this.lastHeard = Date.now();
      socket.send(encoder.encode(this.hooks.hello()));
    };
    socket.onmessage = (event: MessageEvent) => {
      if (socket !== this.socket || !(event.data instanceof ArrayBuffer)) return;
      this.lastHeard = Date.now();
      this.pinged = false;
      let message: Message;
      try {
        message = decoder.decode(new Uint8Array(event.data)) as Message;
      } catch {
        return;
      }
      if (message.type === "heartbeat") {
        this.send({ type: "alive", ref: message.ref as number });
        return;
      }
      if (message.type === "welcome" || message.type === "watching" || message.type === "joined") {
        this.welcomed = true;
        this.retries = 0;
        this.firstLoss = 0;
        this.setState("open", null);
      }
      if (message.type === "goodbye") {
        const code = String(message.code);
        if (FINAL.has(code)) {
          this.stopped = true;
          this.socket = null;
          socket.onclose = null;
          socket.close();
          this.setState("closed", { code, text: String(message.text) });
          return;
        }
      }
      this.hooks.message(message);
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.lost();
    };
  }

  private lost(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (!this.firstLoss) this.firstLoss = now;
    if (now - this.firstLoss > GIVE_UP_MS) {
      this.stopped = true;
      this.setState("closed", { code: "closed", text: "" });
      return;
    }
    this.setState("reconnecting", null);
    const base = Math.min(10_000, 500 * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = window.setTimeout(() => this.open(), base * (0.5 + Math.random() * 0.5));
  }

  // a phone woke up: reconnect at once, or test a socket that only seems open
  private wake(): void {
    if (this.stopped && this.state === "closed") return;
    if (!this.socket) {
      this.retries = 0;
      this.open();
    } else if (this.welcomed) {
      this.send({ type: "ping", ref: this.nextRef() });
      this.pinged = true;
      this.lastHeard = Math.min(this.lastHeard, Date.now() - this.silenceMs + 3000);
    }
  }

  // section 11 from the client's side: ping after a third of silence_ms, give up after all
  private watch(): void {
    const socket = this.socket;
    if (!socket || !this.welcomed) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > this.silenceMs) {
      this.socket = null;
      socket.onclose = null;
      socket.close();
      this.lost();
    } else if (quiet > this.silenceMs / 3 && !this.pinged) {
      this.send({ type: "ping", ref: this.nextRef() });
      this.pinged = true;
    }
  }
}
