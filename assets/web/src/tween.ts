// Card sprites and their tweens: every card on the table is one absolutely placed element
// moved by transform; a tween eases it from where it is to where the layout wants it,
// over a duration in seconds, after a delay. One requestAnimationFrame loop runs while
// anything moves, and stops when all is still (`idle`). A player whose system asks for less
// motion (prefers-reduced-motion) gets no flights: each card is put where it goes at once,
// the game's steps keeping their pace so that what happened can still be followed.

export interface Pose {
  x: number; // the card's centre, CSS px
  y: number;
  r: number; // degrees
  s: number; // scale of the base card size
  o: number; // opacity
}

interface Motion {
  from: Pose;
  to: Pose;
  start: number; // ms (performance.now)
  duration: number;
  remove: boolean;
}

const ease = (t: number): number => 1 - (1 - t) ** 3;

// (read at each move: the setting may change while the page is open; none under node)
const lessMotion = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

export class Sprite {
  pose: Pose;
  motion: Motion | null = null;
  z = 0;

  constructor(readonly key: string, readonly node: HTMLElement, pose: Pose) {
    this.pose = { ...pose };
    this.apply();
  }

  apply(): void {
    const { x, y, r, s, o } = this.pose;
    this.node.style.transform = `translate(${x.toFixed(1)}px,${y.toFixed(1)}px) translate(-50%,-50%) rotate(${r.toFixed(1)}deg) scale(${s.toFixed(3)})`;
    this.node.style.opacity = o >= 1 ? "" : o.toFixed(2);
  }
}

export class Animator {
  readonly sprites = new Map<string, Sprite>();
  private frame = 0;
  private hold = 0; // ms of queued steps still to play (kept by the table)

  // `speed`: the factor every duration and delay is divided by (the player's pace)
  constructor(private readonly layer: HTMLElement, private readonly speed: () => number = () => 1) {}

  get idle(): boolean {
    if (this.hold > performance.now()) return false;
    for (const sprite of this.sprites.values()) if (sprite.motion) return false;
    return true;
  }

  holdFor(ms: number): void {
    this.hold = Math.max(this.hold, performance.now() + ms);
  }

  add(key: string, node: HTMLElement, pose: Pose): Sprite {
    const sprite = new Sprite(key, node, pose);
    this.sprites.set(key, sprite);
    this.layer.appendChild(node);
    return sprite;
  }

  // tween `sprite` to `to` (seconds); `remove`: drop it when it arrives
  move(sprite: Sprite, to: Pose, duration: number, delay = 0, remove = false): void {
    const speed = this.speed();
    duration /= speed;
    delay /= speed;
    const same =
      !sprite.motion &&
      Math.abs(sprite.pose.x - to.x) < 0.5 &&
      Math.abs(sprite.pose.y - to.y) < 0.5 &&
      Math.abs(sprite.pose.r - to.r) < 0.5 &&
      Math.abs(sprite.pose.s - to.s) < 0.005 &&
      Math.abs(sprite.pose.o - to.o) < 0.01;
    if (same && !remove) return;
    if ((duration <= 0 && delay <= 0) || lessMotion?.matches) {
      sprite.pose = { ...to };
      sprite.motion = null;
      sprite.apply();
      if (remove) this.drop(sprite);
      return;
    }
    sprite.motion = { from: { ...sprite.pose }, to: { ...to }, start: performance.now() + delay * 1000, duration: duration * 1000, remove };
    this.run();
  }

  place(sprite: Sprite, to: Pose): void {
    this.move(sprite, to, 0);
  }

  drop(sprite: Sprite): void {
    sprite.node.remove();
    if (this.sprites.get(sprite.key) === sprite) this.sprites.delete(sprite.key);
  }

  private run(): void {
    if (!this.frame) this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  private tick(now: number): void {
    this.frame = 0;
    let moving = false;
    for (const sprite of [...this.sprites.values()]) {
      const motion = sprite.motion;
      if (!motion) continue;
      moving = true;
      const t = motion.duration > 0 ? Math.min(1, Math.max(0, (now - motion.start) / motion.duration)) : 1;
      if (now < motion.start) continue;
      const k = ease(t);
      const { from, to } = motion;
      sprite.pose = {
        x: from.x + (to.x - from.x) * k,
        y: from.y + (to.y - from.y) * k,
        r: from.r + (to.r - from.r) * k,
        s: from.s + (to.s - from.s) * k,
        o: from.o + (to.o - from.o) * k,
      };
      sprite.apply();
      if (t >= 1) {
        sprite.motion = null;
        if (motion.remove) this.drop(sprite);
      }
    }
    if (moving) this.run();
  }
}
