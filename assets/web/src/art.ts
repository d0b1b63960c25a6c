// Card faces and badges as SVG, after the window's client/ui/cardart.py and looks.py: the
// same paper, reds and blacks, corner indices of rank over suit, pips for 2-10, a large
// suit for the ace and a gold-framed letter for the court cards. Suits are our own paths
// (not font glyphs: a phone's fonts vary); the back is CSS (app.css, `.back`). A face is
// shown as its element's background image, as the back is: one element a card, not the
// twenty of an SVG drawn in the page, for the browser to style and lay out each time
// cards are dealt, played or spread anew.
import { rankOf, suitOf } from "./proto";
import type { Card } from "./proto";

export const PAPER = "#fbf9f3";
const EDGE = "#a8a69e";
const RED = "#c81e2d";
const BLACK = "#1c1c24";
const GOLD = "#cea852";

// each suit in a 20 x 20 box
const SUIT_PATHS: Record<string, string> = {
  h: "M10 19C4 14 0 10.3 0 6C0 2.8 2.3.6 5.1.6C7.2.6 9 1.8 10 3.7C11 1.8 12.8.6 14.9.6C17.7.6 20 2.8 20 6C20 10.3 16 14 10 19Z",
  d: "M10 0L18 10L10 20L2 10Z",
  s: "M10 0C13 5 20 7.8 20 12.4C20 15.4 17.7 17 15.4 17C13.7 17 12.2 16.2 11.2 14.8C11.4 17 12.2 18.7 13.8 20H6.2C7.8 18.7 8.6 17 8.8 14.8C7.8 16.2 6.3 17 4.6 17C2.3 17 0 15.4 0 12.4C0 7.8 7 5 10 0Z",
  c: "M10 .4A4.7 4.7 0 0 1 13.9 7.7A4.7 4.7 0 1 1 11.3 14.6C11.6 17 12.4 18.7 14 20H6C7.6 18.7 8.4 17 8.7 14.6A4.7 4.7 0 1 1 6.1 7.7A4.7 4.7 0 0 1 10 .4Z",
};

export function isRed(card: Card): boolean {
  const suit = suitOf(card);
  return suit === "h" || suit === "d";
}

export function suitSymbol(suit: string): string {
  return ({ c: "♣", d: "♦", h: "♥", s: "♠" } as Record<string, string>)[suit] ?? "";
}

// a card as text for the log and toasts: "10♥"
export function cardText(card: Card): string {
  const rank = card[0] === "T" ? "10" : card[0];
  return `${rank}${suitSymbol(suitOf(card))}`;
}

function suit(s: string, x: number, y: number, size: number, colour: string, flip = false): string {
  const k = size / 20;
  const turn = flip ? ` rotate(180 10 10)` : "";
  return `<path fill="${colour}" transform="translate(${(x - size / 2).toFixed(2)} ${(y - size / 2).toFixed(2)}) scale(${k.toFixed(3)})${turn}" d="${SUIT_PATHS[s]}"/>`;
}

const PIPS: Record<number, [number, number][]> = {
  2: [[0.5, 0], [0.5, 1]],
  3: [[0.5, 0], [0.5, 0.5], [0.5, 1]],
  4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  5: [[0, 0], [1, 0], [0.5, 0.5], [0, 1], [1, 1]],
  6: [[0, 0], [1, 0], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  7: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  8: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0.5, 0.75], [0, 1], [1, 1]],
  9: [[0, 0], [1, 0], [0, 1 / 3], [1, 1 / 3], [0.5, 0.5], [0, 2 / 3], [1, 2 / 3], [0, 1], [1, 1]],
  10: [[0, 0], [1, 0], [0.5, 1 / 6], [0, 1 / 3], [1, 1 / 3], [0, 2 / 3], [1, 2 / 3], [0.5, 5 / 6], [0, 1], [1, 1]],
};
const FONT = "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif\" font-weight=\"700\"";

const faces = new Map<Card, string>();

// the face of `card` in a 100 x 140 box (the window's 0.715 ratio)
export function faceSvg(card: Card): string {
  const cached = faces.get(card);
  if (cached) return cached;
  const rank = rankOf(card);
  const s = suitOf(card);
  const colour = isRed(card) ? RED : BLACK;
  const label = rank === 10 ? "10" : card[0] ?? "";
  const parts: string[] = [
    `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`,
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="${PAPER}" stroke="${EDGE}" stroke-width="1.5"/>`,
  ];
  const index = (flip: boolean): string => {
    const spacing = label.length > 1 ? ` letter-spacing="-2"` : "";
    const inner =
      `<text x="13.5" y="25" text-anchor="middle" font-size="${label.length > 1 ? 21 : 24}" ${FONT} fill="${colour}"${spacing}>${label}</text>` +
      suit(s, 13.5, 36, 15, colour);
    return flip ? `<g transform="rotate(180 50 70)">${inner}</g>` : inner;
  };
  parts.push(index(false), index(true));
  const pips = PIPS[rank];
  if (pips) {
    const [x0, x1, y0, y1] = [34, 66, 30, 110];
    for (const [px, py] of pips) parts.push(suit(s, x0 + (x1 - x0) * px, y0 + (y1 - y0) * py, 20, colour, py > 0.5));
  } else if (rank === 14) {
    parts.push(suit(s, 50, 70, 50, colour));
  } else {
    const tint = isRed(card) ? "#fcf0d6" : "#eceef6";
    parts.push(
      `<rect x="24" y="24" width="52" height="92" rx="4" fill="${GOLD}"/>`,
      `<rect x="27" y="27" width="46" height="86" rx="3" fill="${tint}"/>`,
      `<rect x="30.5" y="30.5" width="39" height="79" rx="3" fill="none" stroke="${colour}" stroke-width="1.6"/>`,
      `<text x="50" y="78" text-anchor="middle" font-size="40" ${FONT} fill="${colour}">${label}</text>`,
      suit(s, 50, 96, 16, colour),
      suit(s, 36, 37, 8, GOLD),
      suit(s, 64, 103, 8, GOLD, true),
    );
  }
  parts.push("</svg>");
  const svg = parts.join("");
  faces.set(card, svg);
  return svg;
}

const images = new Map<Card, string>();

// the face of `card` as a CSS image, for an element's background
export function faceImage(card: Card): string {
  let image = images.get(card);
  if (!image) {
    image = `url("data:image/svg+xml,${encodeURIComponent(faceSvg(card))}")`;
    images.set(card, image);
  }
  return image;
}

// the window's eight badges (client/ui/looks.py): disc colour, emblem ink
const LOOKS: [string, string][] = [
  ["#cc403a", "#ffecd6"], // star on red
  ["#e68c28", "#3c1e08"], // sun on orange
  ["#e2c84a", "#463406"], // diamond on gold
  ["#469e58", "#ecfae2"], // leaf on green
  ["#3496be", "#e8f8ff"], // wave on sky blue
  ["#485cc8", "#eceeff"], // moon on blue
  ["#9052be", "#faecff"], // crown on violet
  ["#c85496", "#ffecf6"], // heart on pink
];
export const LOOK_NAMES = ["star", "sun", "diamond", "leaf", "wave", "moon", "crown", "heart"];

function starPoints(n: number, outer: number, inner: number): string {
  const points: string[] = [];
  for (let k = 0; k < 2 * n; k++) {
    const r = k % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (k * Math.PI) / n;
    points.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(50 + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

export function lookSvg(look: number): string {
  const [disc, ink] = LOOKS[look] ?? LOOKS[0] ?? ["#888", "#fff"];
  const r = 44 * 0.88;
  let emblem = "";
  switch (LOOK_NAMES[look]) {
    case "star":
      emblem = `<polygon fill="${ink}" points="${starPoints(5, r * 0.62, r * 0.26)}"/>`;
      break;
    case "sun": {
      const rays = Array.from({ length: 8 }, (_, k) => {
        const a = (k * Math.PI) / 4;
        const [c, s] = [Math.cos(a), Math.sin(a)];
        return `<line x1="${(50 + c * r * 0.42).toFixed(1)}" y1="${(50 + s * r * 0.42).toFixed(1)}" x2="${(50 + c * r * 0.66).toFixed(1)}" y2="${(50 + s * r * 0.66).toFixed(1)}"/>`;
      }).join("");
      emblem = `<circle fill="${ink}" cx="50" cy="50" r="${r * 0.3}"/><g stroke="${ink}" stroke-width="${r * 0.12}" stroke-linecap="round">${rays}</g>`;
      break;
    }
    case "diamond":
      emblem = `<polygon fill="${ink}" points="50,${50 - r * 0.64} ${50 + r * 0.46},50 50,${50 + r * 0.64} ${50 - r * 0.46},50"/>`;
      break;
    case "leaf":
      emblem = `<ellipse fill="${ink}" cx="50" cy="50" rx="${r * 0.35}" ry="${r * 0.62}"/><line stroke="${disc}" stroke-width="${r * 0.07}" x1="50" y1="${50 + r * 0.62}" x2="50" y2="${50 - r * 0.5}"/>`;
      break;
    case "wave":
      emblem = [-0.26, 0.08, 0.42]
        .map((dy) => {
          const y = 50 + (dy - 0.08) * r;
          const w = r * 0.6;
          return `<path fill="none" stroke="${ink}" stroke-width="${r * 0.14}" stroke-linecap="round" d="M${50 - w} ${y}q${w / 2} ${-r * 0.24} ${w} 0t${w} 0"/>`;
        })
        .join("");
      break;
    case "moon":
      emblem = `<circle fill="${ink}" cx="${50 - r * 0.08}" cy="50" r="${r * 0.56}"/><circle fill="${disc}" cx="${50 + r * 0.18}" cy="${50 - r * 0.12}" r="${r * 0.5}"/>`;
      break;
    case "crown": {
      const shape = [[-0.56, 0.4], [-0.56, -0.3], [-0.28, 0.04], [0, -0.46], [0.28, 0.04], [0.56, -0.3], [0.56, 0.4]];
      emblem = `<polygon fill="${ink}" points="${shape.map(([x, y]) => `${(50 + (x ?? 0) * r).toFixed(1)},${(50 + (y ?? 0) * r).toFixed(1)}`).join(" ")}"/>`;
      break;
    }
    default:
      emblem = `<path fill="${ink}" transform="translate(${50 - r * 0.62} ${50 - r * 0.55}) scale(${(r * 1.24) / 20})" d="${SUIT_PATHS.h}"/>`;
  }
  return `<svg viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"><circle cx="50" cy="50" r="47" fill="#141a16"/><circle cx="50" cy="50" r="${r}" fill="${disc}"/>${emblem}</svg>`;
}

export function suitSvg(s: string, colour: string): string {
  return `<svg viewBox="0 0 20 20" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"><path fill="${colour}" d="${SUIT_PATHS[s]}"/></svg>`;
}

export const SUIT_COLOUR = (s: string): string => (s === "h" || s === "d" ? RED : BLACK);
