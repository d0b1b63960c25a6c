// How fast the table moves: the window's animation speeds (Slow, Normal, Fast), with the
// window's own factors, read from strings.json (`python -m client.i18n.export` writes them
// from client.settings.ANIMATION_SPEEDS). The player's choice is kept on the phone; every
// card's flight and every step's hold is divided by its factor, as in the window.
import { store, stored } from "./storage";

const SPEED_KEY = "durak.animation";

export class Pace {
  speed = "normal";

  constructor(private readonly speeds: Record<string, number>) {
    const chosen = stored(SPEED_KEY);
    if (chosen !== null && chosen in speeds) this.speed = chosen;
  }

  // slowest first, as the window's settings step through them
  get names(): string[] {
    return Object.keys(this.speeds).sort((a, b) => (this.speeds[a] ?? 1) - (this.speeds[b] ?? 1));
  }

  get factor(): number {
    return this.speeds[this.speed] ?? 1;
  }

  choose(speed: string): void {
    if (!(speed in this.speeds)) return;
    this.speed = speed;
    store(SPEED_KEY, speed);
  }
}
