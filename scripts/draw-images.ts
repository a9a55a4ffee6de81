// Draws the charity's source artwork as flat-illustration SVGs under content/images/.
// Deterministic: every random choice comes from a generator seeded by the picture's name,
// so running it twice writes byte-identical files. Run with `npx tsx scripts/draw-images.ts`.
// Landscape pictures use a 1600x1000 (16:10) canvas, portraits and the tick 800x800.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "content", "images");

// ---------------------------------------------------------------------------
// Basics: numbers, randomness, the scene that collects gradients and shapes
// ---------------------------------------------------------------------------

type Pt = [number, number];
type Stop = [offset: number, color: string, opacity?: number];

/** Rounds coordinates to one decimal so the files stay small and stable. */
const f = (n: number): string => String(Math.round(n * 10) / 10);

function seedFrom(name: string): number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Scene {
  private defs: string[] = [];
  private parts: string[] = [];
  private ids = 0;
  private readonly rand: () => number;

  constructor(
    readonly w: number,
    readonly h: number,
    seed: string,
  ) {
    this.rand = mulberry32(seedFrom(seed));
  }

  /** A random number in [a, b). */
  r(a = 0, b = 1): number {
    return a + (b - a) * this.rand();
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }

  id(prefix = "g"): string {
    return `${prefix}${++this.ids}`;
  }

  def(markup: string): void {
    this.defs.push(markup);
  }

  private stops(stops: Stop[]): string {
    return stops
      .map(
        ([o, c, a]) => `<stop offset="${f(o)}" stop-color="${c}"${a === undefined ? "" : ` stop-opacity="${f(a)}"`}/>`,
      )
      .join("");
  }

  /** A linear gradient in bounding-box units, top to bottom by default. */
  lin(stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
    const id = this.id();
    this.def(
      `<linearGradient id="${id}" x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}">${this.stops(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  /** A linear gradient in canvas coordinates (for shapes that should share one sweep). */
  linAbs(stops: Stop[], x1: number, y1: number, x2: number, y2: number): string {
    const id = this.id();
    this.def(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}">${this.stops(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  rad(stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = this.id();
    this.def(
      `<radialGradient id="${id}" cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}">${this.stops(stops)}</radialGradient>`,
    );
    return `url(#${id})`;
  }

  /** A clip path from path data; returns the clip-path attribute value. */
  clip(d: string): string {
    const id = this.id("c");
    this.def(`<clipPath id="${id}"><path d="${d}"/></clipPath>`);
    return `url(#${id})`;
  }

  blur(std: number): string {
    const id = this.id("b");
    this.def(
      `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${f(std)}"/></filter>`,
    );
    return `url(#${id})`;
  }

  add(...markup: string[]): void {
    this.parts.push(...markup);
  }

  /** Runs `draw` and wraps what it added in a group with the given attributes. */
  group(attrs: string, draw: () => void): void {
    const start = this.parts.length;
    draw();
    const inner = this.parts.splice(start).join("");
    this.parts.push(`<g ${attrs}>${inner}</g>`);
  }

  render(title: string): string {
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${this.w} ${this.h}" width="${this.w}" height="${this.h}">`,
      `<title>${title.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</title>`,
      `<defs>${this.defs.join("")}</defs>`,
      ...this.parts,
      `</svg>\n`,
    ].join("\n");
  }
}

// Shape helpers returning markup strings.
const rect = (x: number, y: number, w: number, h: number, fill: string, extra = ""): string =>
  `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${fill}" ${extra}/>`;
const rrect = (x: number, y: number, w: number, h: number, r: number, fill: string, extra = ""): string =>
  `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${f(r)}" fill="${fill}" ${extra}/>`;
const circle = (cx: number, cy: number, r: number, fill: string, extra = ""): string =>
  `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${fill}" ${extra}/>`;
const ellipse = (cx: number, cy: number, rx: number, ry: number, fill: string, extra = ""): string =>
  `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${fill}" ${extra}/>`;
const path = (d: string, fill: string, extra = ""): string => `<path d="${d}" fill="${fill}" ${extra}/>`;
const line = (x1: number, y1: number, x2: number, y2: number, stroke: string, width: number, extra = ""): string =>
  `<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="${stroke}" stroke-width="${f(width)}"${extra.includes("stroke-linecap") ? "" : ` stroke-linecap="round"`} ${extra}/>`;
const stroke = (d: string, color: string, width: number, extra = ""): string =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${f(width)}" stroke-linecap="round" stroke-linejoin="round" ${extra}/>`;
const poly = (pts: Pt[], fill: string, extra = ""): string =>
  `<polygon points="${pts.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}" fill="${fill}" ${extra}/>`;

/** Path data for a smooth curve through the points (Catmull-Rom converted to cubic Béziers). */
function smooth(pts: Pt[], move = true): string {
  let d = move ? `M${f(pts[0]![0])} ${f(pts[0]![1])}` : `L${f(pts[0]![0])} ${f(pts[0]![1])}`;
  for (let i = 0; i < pts.length - 1; i++) {
    const p0 = pts[i - 1] ?? pts[i]!;
    const p1 = pts[i]!;
    const p2 = pts[i + 1]!;
    const p3 = pts[i + 2] ?? p2;
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${f(c1[0])} ${f(c1[1])} ${f(c2[0])} ${f(c2[1])} ${f(p2[0])} ${f(p2[1])}`;
  }
  return d;
}

/** Mixes two #rrggbb colours; t = 0 gives a, 1 gives b. */
function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) => Math.round(v + (pb[i]! - v) * t))
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")}`;
}
const shade = (c: string, t: number): string => mix(c, "#000000", t);
const tint = (c: string, t: number): string => mix(c, "#ffffff", t);

// ---------------------------------------------------------------------------
// Landscape pieces
// ---------------------------------------------------------------------------

function sky(s: Scene, stops: Stop[]): void {
  s.add(rect(0, 0, s.w, s.h, s.lin(stops)));
}

function sun(s: Scene, cx: number, cy: number, r: number, color: string, glow = color): void {
  s.add(
    circle(
      cx,
      cy,
      r * 4,
      s.rad([
        [0, glow, 0.55],
        [0.35, glow, 0.18],
        [1, glow, 0],
      ]),
    ),
  );
  s.add(
    circle(
      cx,
      cy,
      r,
      s.rad([
        [0, tint(color, 0.5)],
        [0.7, color],
        [1, color],
      ]),
    ),
  );
}

function cloud(s: Scene, x: number, y: number, scale: number, color = "#ffffff", opacity = 0.9): void {
  const w = 220 * scale;
  const puffs: [number, number, number][] = [
    [0.18, 0.62, 0.2],
    [0.38, 0.42, 0.26],
    [0.6, 0.48, 0.22],
    [0.8, 0.64, 0.17],
  ];
  s.group(`opacity="${f(opacity)}"`, () => {
    for (const [px, py, pr] of puffs) s.add(circle(x + px * w, y + py * w * 0.45, pr * w, color));
    s.add(rrect(x, y + 0.5 * w * 0.45, w, w * 0.14, w * 0.07, color));
  });
}

/** A ridge of hills: base line plus a few sine waves, filled to the bottom of the picture. */
function hills(
  s: Scene,
  base: number,
  amp: number,
  fill: string,
  opts: { bottom?: number; waves?: number; step?: number } = {},
): string {
  const bottom = opts.bottom ?? s.h;
  const waves = opts.waves ?? 3;
  const phases = Array.from({ length: waves }, () => [s.r(0, Math.PI * 2), s.r(0.6, 1.6)] as const);
  const step = opts.step ?? 80;
  const pts: Pt[] = [];
  for (let x = -100; x <= s.w + 100; x += step) {
    let y = base;
    phases.forEach(([p, k], i) => {
      y += (amp / (i + 1)) * Math.sin((x / s.w) * Math.PI * (i + 1.3) * k + p);
    });
    pts.push([x, y]);
  }
  const d = `${smooth(pts)} L${s.w + 100} ${bottom} L-100 ${bottom} Z`;
  s.add(path(d, fill));
  return d;
}

/** A Kilimanjaro-like volcano: broad, flat-topped, snow-capped, with a jagged shoulder peak. */
function kilimanjaro(
  s: Scene,
  cx: number,
  baseY: number,
  width: number,
  height: number,
  c: { body: string; shadow: string; snow: string; far?: string; haze?: string },
): void {
  const P = (u: number, v: number): Pt => [cx + u * width, baseY - v * height];
  // Mawenzi, the ragged secondary peak, sits behind the main cone.
  s.add(
    poly(
      [
        P(-0.62, 0),
        P(-0.5, 0.2),
        P(-0.42, 0.42),
        P(-0.39, 0.5),
        P(-0.37, 0.46),
        P(-0.35, 0.55),
        P(-0.33, 0.5),
        P(-0.3, 0.53),
        P(-0.26, 0.44),
        P(-0.2, 0.3),
        P(-0.1, 0),
      ],
      c.far ?? tint(c.body, 0.15),
    ),
  );
  const outline: Pt[] = [
    P(-0.5, 0),
    P(-0.36, 0.16),
    P(-0.23, 0.42),
    P(-0.14, 0.74),
    P(-0.09, 0.93),
    P(-0.05, 0.99),
    P(0.04, 1),
    P(0.09, 0.97),
    P(0.15, 0.8),
    P(0.24, 0.52),
    P(0.37, 0.2),
    P(0.5, 0),
  ];
  const d = `${smooth(outline)} Z`;
  s.add(
    path(
      d,
      c.haze
        ? s.linAbs(
            [
              [0, c.body],
              [1, mix(c.body, c.haze, 0.55)],
            ],
            0,
            baseY - height,
            0,
            baseY,
          )
        : c.body,
    ),
  );
  const clipped = s.clip(d);
  s.group(`clip-path="${clipped}"`, () => {
    // Shadowed right flank.
    s.add(
      poly(
        [P(0.0, 1.1), P(0.6, 1.1), P(0.6, -0.05), P(0.25, -0.05), P(0.12, 0.35), P(0.05, 0.7)],
        c.shadow,
        `opacity="0.55"`,
      ),
    );
    // Snow cap: an irregular lower edge with glaciers reaching down the gullies.
    const edge: Pt[] = [];
    const n = 12;
    for (let i = 0; i <= n; i++) {
      const u = 0.21 - (0.45 * i) / n;
      edge.push(P(u, 0.8 - s.r(0.0, 0.06)));
      if (i < n && i % 3 !== 0) {
        // A glacier tongue: a narrow finger of snow reaching down a gully.
        const m = u - 0.45 / n / 2;
        edge.push(P(m + 0.012, 0.77 - s.r(0, 0.03)), P(m, 0.77 - s.r(0.09, 0.2)), P(m - 0.012, 0.77 - s.r(0, 0.03)));
      }
    }
    const top = P(0.3, 1.2);
    const topLeft = P(-0.3, 1.2);
    const snowD = `M${f(top[0])} ${f(top[1])} ${smooth(edge, false)} L${f(topLeft[0])} ${f(topLeft[1])} Z`;
    s.add(
      path(
        snowD,
        s.lin([
          [0, "#ffffff"],
          [1, c.snow],
        ]),
      ),
    );
    s.add(
      poly([P(0.02, 1.1), P(0.3, 1.1), P(0.3, 0.7), P(0.1, 0.78), P(0.05, 0.9)], shade(c.snow, 0.12), `opacity="0.45"`),
    );
  });
}

/** An umbrella thorn acacia standing on (x, y), `h` tall. */
function acacia(s: Scene, x: number, y: number, h: number, leaf: string, bark = "#4a3528"): void {
  const lean = s.r(-0.08, 0.08) * h;
  const fork: Pt = [x + lean, y - h * 0.5];
  const tips: Pt[] = [
    [x - h * 0.42, y - h * 0.86],
    [x - h * 0.12, y - h * 0.9],
    [x + h * 0.16, y - h * 0.92],
    [x + h * 0.44, y - h * 0.84],
  ];
  s.add(stroke(`M${f(x)} ${f(y)} Q${f(x - h * 0.02)} ${f(y - h * 0.3)} ${f(fork[0])} ${f(fork[1])}`, bark, h * 0.055));
  for (const t of tips) {
    s.add(
      stroke(
        `M${f(fork[0])} ${f(fork[1])} Q${f((fork[0] + t[0]) / 2)} ${f(t[1] + h * 0.12)} ${f(t[0])} ${f(t[1])}`,
        bark,
        h * 0.026,
      ),
    );
  }
  const cy = y - h * 0.92;
  const dark = shade(leaf, 0.25);
  const light = tint(leaf, 0.15);
  s.add(ellipse(x + lean * 0.5, cy + h * 0.05, h * 0.62, h * 0.09, dark));
  for (let i = 0; i < 6; i++) {
    const px = x - h * 0.5 + (h * 1.0 * i) / 5 + s.r(-0.04, 0.04) * h;
    s.add(ellipse(px, cy + s.r(-0.03, 0.02) * h, h * s.r(0.17, 0.24), h * s.r(0.07, 0.1), leaf));
  }
  s.add(ellipse(x - h * 0.05, cy - h * 0.05, h * 0.38, h * 0.05, light, `opacity="0.6"`));
}

/** A baobab: fat bottle trunk, a crown of stubby crooked branches, small leaf clusters. */
function baobab(s: Scene, x: number, y: number, h: number, bark: string, leaf: string): void {
  const w = h * 0.4;
  const top = y - h * 0.58;
  const trunk = `M${f(x - w * 0.62)} ${f(y)} C${f(x - w * 0.52)} ${f(y - h * 0.25)} ${f(x - w * 0.52)} ${f(y - h * 0.45)} ${f(x - w * 0.34)} ${f(top)} L${f(x + w * 0.34)} ${f(top)} C${f(x + w * 0.52)} ${f(y - h * 0.45)} ${f(x + w * 0.52)} ${f(y - h * 0.25)} ${f(x + w * 0.62)} ${f(y)} Z`;
  const barkFill = s.lin(
    [
      [0, tint(bark, 0.14)],
      [0.55, bark],
      [1, shade(bark, 0.28)],
    ],
    0,
    0,
    1,
    0,
  );
  for (const u of [-1, -0.62, -0.25, 0.12, 0.5, 0.95]) {
    const sx = x + u * w * 0.3;
    const mid: Pt = [x + u * w * 0.8 + s.r(-10, 10), top - h * s.r(0.08, 0.14)];
    const end: Pt = [x + u * w * 1.3 + s.r(-20, 20), top - h * s.r(0.2, 0.34)];
    s.add(
      stroke(
        `M${f(sx)} ${f(top + 20)} Q${f(sx + (mid[0] - sx) * 0.3)} ${f(mid[1] + 20)} ${f(mid[0])} ${f(mid[1])} L${f(end[0])} ${f(end[1])}`,
        shade(bark, 0.05),
        h * 0.04,
      ),
    );
    const twig: Pt = [mid[0] + u * w * 0.4 + s.r(-15, 15), mid[1] - h * s.r(0.04, 0.1)];
    s.add(stroke(`M${f(mid[0])} ${f(mid[1])} L${f(twig[0])} ${f(twig[1])}`, shade(bark, 0.05), h * 0.02));
    for (const [lx, ly, k] of [
      [end[0], end[1], 1],
      [twig[0], twig[1], 0.7],
    ] as const) {
      s.add(ellipse(lx, ly - h * 0.015, h * 0.075 * k, h * 0.035 * k, shade(leaf, 0.15)));
      s.add(ellipse(lx + h * 0.02, ly - h * 0.03, h * 0.055 * k, h * 0.03 * k, leaf));
    }
  }
  s.add(path(trunk, barkFill));
  for (let i = 0; i < 5; i++) {
    const lx = x + s.r(-0.35, 0.35) * w;
    s.add(
      stroke(
        `M${f(lx)} ${f(top + h * 0.05)} Q${f(lx + s.r(-10, 10))} ${f(y - h * 0.3)} ${f(lx * 1.0 + (lx - x) * 0.3)} ${f(y - h * s.r(0.02, 0.15))}`,
        shade(bark, 0.18),
        h * 0.006,
        `opacity="0.6"`,
      ),
    );
  }
}

/** A round mud-walled hut with a conical thatched roof; (x, y) is the middle of its base. */
function roundHut(s: Scene, x: number, y: number, w: number, wall = "#c98a57", roof = "#c9a25a"): void {
  const wallH = w * 0.5;
  s.add(ellipse(x + w * 0.08, y + w * 0.03, w * 0.62, w * 0.07, "#000000", `opacity="0.18"`));
  s.add(
    path(
      `M${f(x - w / 2)} ${f(y - wallH)} L${f(x - w / 2)} ${f(y)} Q${f(x)} ${f(y + w * 0.1)} ${f(x + w / 2)} ${f(y)} L${f(x + w / 2)} ${f(y - wallH)} Z`,
      s.lin(
        [
          [0, tint(wall, 0.15)],
          [0.55, wall],
          [1, shade(wall, 0.3)],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  );
  const dw = w * 0.2;
  s.add(
    path(
      `M${f(x - dw * 0.9)} ${f(y + w * 0.035)} L${f(x - dw * 0.9)} ${f(y - wallH * 0.55)} Q${f(x - dw * 0.4)} ${f(y - wallH * 0.85)} ${f(x + dw * 0.1)} ${f(y - wallH * 0.55)} L${f(x + dw * 0.1)} ${f(y + w * 0.05)} Z`,
      shade(wall, 0.62),
    ),
  );
  const eave = y - wallH + w * 0.08;
  s.add(
    path(
      `M${f(x - w * 0.66)} ${f(eave)} Q${f(x)} ${f(eave + w * 0.14)} ${f(x + w * 0.66)} ${f(eave)} L${f(x + w * 0.02)} ${f(y - wallH - w * 0.56)} Z`,
      s.lin(
        [
          [0, tint(roof, 0.2)],
          [0.5, roof],
          [1, shade(roof, 0.3)],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  );
  for (let i = 1; i < 8; i++) {
    const t = i / 8;
    const bx = x - w * 0.66 + w * 1.32 * t;
    const by = eave + Math.sin(t * Math.PI) * w * 0.07;
    s.add(line(x + w * 0.02, y - wallH - w * 0.5, bx, by, shade(roof, 0.25), w * 0.012, `opacity="0.5"`));
  }
  s.add(
    path(
      `M${f(x - w * 0.66)} ${f(eave)} Q${f(x)} ${f(eave + w * 0.14)} ${f(x + w * 0.66)} ${f(eave)}`,
      "none",
      `stroke="${shade(roof, 0.35)}" stroke-width="${f(w * 0.02)}"`,
    ),
  );
}

interface HouseOpts {
  wall: string;
  roof: string;
  trim?: string;
  windows?: number;
  door?: boolean;
  roofStyle?: "tin" | "tile";
  windowGlow?: string;
}

/** A rectangular building with a pitched roof seen from the front; (x, y) is its bottom-left corner. */
function house(
  s: Scene,
  x: number,
  y: number,
  w: number,
  h: number,
  o: HouseOpts,
): { roofTop: number; roofPts: [Pt, Pt, Pt, Pt] } {
  const trim = o.trim ?? shade(o.wall, 0.35);
  s.add(ellipse(x + w / 2 + w * 0.04, y + 4, w * 0.56, Math.max(8, w * 0.03), "#000000", `opacity="0.16"`));
  s.add(
    rect(
      x,
      y - h,
      w,
      h,
      s.lin([
        [0, tint(o.wall, 0.08)],
        [1, shade(o.wall, 0.1)],
      ]),
    ),
  );
  s.add(rect(x, y - h * 0.12, w, h * 0.12, shade(o.wall, 0.18)));
  const rh = Math.min(w * 0.2, h * 0.55);
  const roofPts: [Pt, Pt, Pt, Pt] = [
    [x - w * 0.04, y - h + 2],
    [x + w * 0.06, y - h - rh],
    [x + w * 0.94, y - h - rh],
    [x + w * 1.04, y - h + 2],
  ];
  s.add(
    poly(
      roofPts,
      s.lin([
        [0, tint(o.roof, 0.12)],
        [1, shade(o.roof, 0.2)],
      ]),
    ),
  );
  const ribs = Math.round(w / 22);
  for (let i = 1; i < ribs; i++) {
    const t = i / ribs;
    s.add(
      line(
        x - w * 0.04 + w * 1.08 * t,
        y - h + 1,
        x + w * 0.06 + w * 0.88 * t,
        y - h - rh + 2,
        shade(o.roof, o.roofStyle === "tile" ? 0.3 : 0.18),
        o.roofStyle === "tile" ? 2 : 3,
        `opacity="0.6"`,
      ),
    );
  }
  s.add(rect(x - w * 0.04, y - h, w * 1.08, h * 0.04, shade(o.roof, 0.35)));
  s.add(rect(x, y - h + h * 0.04, w, h * 0.05, "#000000", `opacity="0.12"`));
  const nWin = o.windows ?? 2;
  const door = o.door ?? true;
  const slots = nWin + (door ? 1 : 0);
  const ww = Math.min(w / (slots * 2.2), h * 0.36);
  for (let i = 0; i < slots; i++) {
    const cx = x + (w * (i + 0.5)) / slots;
    const isDoor = door && i === Math.floor(slots / 2);
    if (isDoor) {
      const dw = ww * 0.95;
      s.add(rect(cx - dw / 2 - 5, y - h * 0.62 - 5, dw + 10, h * 0.62 + 5, trim));
      s.add(
        rect(
          cx - dw / 2,
          y - h * 0.62,
          dw,
          h * 0.62,
          s.lin([
            [0, shade(trim, 0.1)],
            [1, shade(trim, 0.45)],
          ]),
        ),
      );
      s.add(circle(cx + dw * 0.32, y - h * 0.3, Math.max(2.5, dw * 0.05), "#e6c36a"));
    } else {
      const wy = y - h * 0.72;
      const wh = h * 0.36;
      s.add(rect(cx - ww / 2 - 5, wy - 5, ww + 10, wh + 10, trim));
      s.add(
        rect(
          cx - ww / 2,
          wy,
          ww,
          wh,
          o.windowGlow ??
            s.lin([
              [0, "#3f5f7a"],
              [1, "#22344a"],
            ]),
        ),
      );
      s.add(line(cx, wy, cx, wy + wh, trim, 4));
      s.add(line(cx - ww / 2, wy + wh / 2, cx + ww / 2, wy + wh / 2, trim, 4));
      if (!o.windowGlow)
        s.add(
          poly(
            [
              [cx - ww / 2, wy + wh * 0.6],
              [cx - ww / 2 + ww * 0.3, wy],
              [cx - ww / 2 + ww * 0.45, wy],
              [cx - ww / 2, wy + wh * 0.9],
            ],
            "#ffffff",
            `opacity="0.12"`,
          ),
        );
    }
  }
  return { roofTop: y - h - rh, roofPts };
}

function birds(s: Scene, x: number, y: number, n: number, size: number, color = "#2d2a35"): void {
  for (let i = 0; i < n; i++) {
    const bx = x + s.r(-1, 1) * size * 6;
    const by = y + s.r(-1, 1) * size * 3;
    const k = size * s.r(0.7, 1.2);
    s.add(
      stroke(
        `M${f(bx - k)} ${f(by)} Q${f(bx - k * 0.5)} ${f(by - k * 0.6)} ${f(bx)} ${f(by)} Q${f(bx + k * 0.5)} ${f(by - k * 0.6)} ${f(bx + k)} ${f(by)}`,
        color,
        k * 0.22,
      ),
    );
  }
}

/** Grass tufts scattered over a band of ground. */
function grass(s: Scene, y0: number, y1: number, n: number, color: string, size = 14): void {
  for (let i = 0; i < n; i++) {
    const x = s.r(0, s.w);
    const y = s.r(y0, y1);
    const k = size * (0.6 + ((y - y0) / Math.max(1, y1 - y0)) * 0.8);
    s.add(
      stroke(
        `M${f(x - k * 0.5)} ${f(y - k)} Q${f(x - k * 0.2)} ${f(y - k * 0.3)} ${f(x)} ${f(y)} Q${f(x + k * 0.1)} ${f(y - k * 0.8)} ${f(x + k * 0.1)} ${f(y - k * 1.3)} M${f(x)} ${f(y)} Q${f(x + k * 0.3)} ${f(y - k * 0.4)} ${f(x + k * 0.7)} ${f(y - k * 0.9)}`,
        color,
        Math.max(1.5, k * 0.14),
        `opacity="0.75"`,
      ),
    );
  }
}

function bush(s: Scene, x: number, y: number, r: number, color: string): void {
  s.add(ellipse(x, y + r * 0.1, r * 1.3, r * 0.3, "#000000", `opacity="0.12"`));
  s.add(circle(x - r * 0.6, y - r * 0.35, r * 0.65, shade(color, 0.12)));
  s.add(circle(x + r * 0.55, y - r * 0.4, r * 0.7, shade(color, 0.05)));
  s.add(circle(x, y - r * 0.7, r * 0.8, color));
  s.add(circle(x - r * 0.2, y - r * 0.95, r * 0.35, tint(color, 0.15), `opacity="0.7"`));
}

// ---------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------

const SKIN = {
  deep: "#5b3a26",
  dark: "#6e4429",
  brown: "#8a5530",
  warm: "#a86b3c",
  olive: "#c48a57",
  tan: "#d9a273",
  light: "#efc8a4",
  pale: "#f6d8c0",
} as const;

const HAIR = {
  black: "#1d1715",
  darkBrown: "#3a2a22",
  brown: "#6b4630",
  auburn: "#9a4a24",
  blonde: "#d6b066",
  grey: "#b9b6b2",
  white: "#e6e3de",
} as const;

interface PersonOpts {
  skin: string;
  top: string;
  bottom: string;
  kind?: "trousers" | "shorts" | "skirt" | "dress";
  hair?: "short" | "wrap" | "bun" | "puff" | "bald" | "long" | "cap";
  hairColor?: string;
  wrap?: string;
  carry?: "none" | "head" | "jerrycan" | "book" | "can" | "bag";
  carryColor?: string;
  arms?: "down" | "up" | "wave" | "forward" | "hold";
  shoes?: string;
  pattern?: string;
}

/** A standing figure, feet on (x, y), `h` tall, facing the viewer. */
function person(s: Scene, x: number, y: number, h: number, o: PersonOpts): void {
  const u = h / 100;
  const kind = o.kind ?? "trousers";
  const hair = o.hair ?? "short";
  const hairColor = o.hairColor ?? HAIR.black;
  const shoes = o.shoes ?? "#2b2220";
  const arms = o.arms ?? (o.carry === "head" ? "up" : "down");
  s.add(ellipse(x + 3 * u, y, 14 * u, 2.6 * u, "#000000", `opacity="0.2"`));

  // Legs and lower clothes.
  if (kind === "trousers") {
    s.add(
      path(
        `M${f(x - 9 * u)} ${f(y - 50 * u)} L${f(x - 8 * u)} ${f(y - 2 * u)} L${f(x - 1.2 * u)} ${f(y - 2 * u)} L${f(x)} ${f(y - 38 * u)} L${f(x + 1.2 * u)} ${f(y - 2 * u)} L${f(x + 8 * u)} ${f(y - 2 * u)} L${f(x + 9 * u)} ${f(y - 50 * u)} Z`,
        o.bottom,
      ),
    );
  } else if (kind === "shorts") {
    s.add(rect(x - 6.5 * u, y - 30 * u, 4.6 * u, 28 * u, o.skin));
    s.add(rect(x + 1.9 * u, y - 30 * u, 4.6 * u, 28 * u, o.skin));
    s.add(
      path(
        `M${f(x - 9 * u)} ${f(y - 50 * u)} L${f(x - 9.5 * u)} ${f(y - 28 * u)} L${f(x - 0.8 * u)} ${f(y - 28 * u)} L${f(x)} ${f(y - 36 * u)} L${f(x + 0.8 * u)} ${f(y - 28 * u)} L${f(x + 9.5 * u)} ${f(y - 28 * u)} L${f(x + 9 * u)} ${f(y - 50 * u)} Z`,
        o.bottom,
      ),
    );
  } else {
    const hem = kind === "dress" ? 14 : 16;
    s.add(rect(x - 6 * u, y - hem * u - 2, 4.2 * u, (hem - 2) * u + 2, o.skin));
    s.add(rect(x + 1.8 * u, y - hem * u - 2, 4.2 * u, (hem - 2) * u + 2, o.skin));
    const top = kind === "dress" ? 80 : 52;
    const topW = kind === "dress" ? 10 : 9.5;
    s.add(
      path(
        `M${f(x - topW * u)} ${f(y - top * u)} L${f(x - 15 * u)} ${f(y - hem * u)} Q${f(x)} ${f(y - (hem - 2.5) * u)} ${f(x + 15 * u)} ${f(y - hem * u)} L${f(x + topW * u)} ${f(y - top * u)} Z`,
        o.bottom,
      ),
    );
    if (o.pattern) {
      for (let i = 0; i < 3; i++) {
        const yy = y - (hem + 6 + i * 9) * u;
        s.add(line(x - 12 * u + i * u, yy, x + 12 * u - i * u, yy, o.pattern, 2.2 * u, `opacity="0.75"`));
      }
    }
  }
  s.add(ellipse(x - 4.5 * u, y - 1.6 * u, 4.4 * u, 2 * u, shoes));
  s.add(ellipse(x + 4.5 * u, y - 1.6 * u, 4.4 * u, 2 * u, shoes));

  // Arms behind the body when hanging down are drawn after the torso; raised arms first.
  const shoulderY = y - 80 * u;
  const armW = 5.2 * u;
  const armPath = (side: -1 | 1, pose: string): { d: string; hand: Pt } => {
    const sx = x + side * 10 * u;
    if (pose === "up") {
      const hand: Pt = [x + side * 7 * u, y - 106 * u];
      return {
        d: `M${f(sx)} ${f(shoulderY)} L${f(x + side * 16 * u)} ${f(y - 94 * u)} L${f(hand[0])} ${f(hand[1])}`,
        hand,
      };
    }
    if (pose === "wave") {
      const hand: Pt = [x + side * 19 * u, y - 108 * u];
      return {
        d: `M${f(sx)} ${f(shoulderY)} L${f(x + side * 17 * u)} ${f(y - 92 * u)} L${f(hand[0])} ${f(hand[1])}`,
        hand,
      };
    }
    if (pose === "forward" || pose === "hold") {
      const hand: Pt = [x + side * 5 * u, y - 58 * u];
      return {
        d: `M${f(sx)} ${f(shoulderY)} L${f(x + side * 12.5 * u)} ${f(y - 64 * u)} L${f(hand[0])} ${f(hand[1])}`,
        hand,
      };
    }
    const hand: Pt = [x + side * 13 * u, y - 49 * u];
    return {
      d: `M${f(sx)} ${f(shoulderY)} L${f(x + side * 13.5 * u)} ${f(y - 64 * u)} L${f(hand[0])} ${f(hand[1])}`,
      hand,
    };
  };
  const leftPose = arms === "wave" ? "down" : arms === "forward" ? "down" : arms;
  const rightPose = arms === "wave" ? "wave" : arms === "forward" ? "forward" : arms;
  const left = armPath(-1, leftPose === "hold" ? "hold" : leftPose);
  const right = armPath(1, rightPose);

  // Torso.
  s.add(
    path(
      `M${f(x - 10.5 * u)} ${f(y - 78 * u)} Q${f(x - 11 * u)} ${f(y - 83.5 * u)} ${f(x - 6 * u)} ${f(y - 84 * u)} L${f(x + 6 * u)} ${f(y - 84 * u)} Q${f(x + 11 * u)} ${f(y - 83.5 * u)} ${f(x + 10.5 * u)} ${f(y - 78 * u)} L${f(x + 9 * u)} ${f(y - 49 * u)} L${f(x - 9 * u)} ${f(y - 49 * u)} Z`,
      o.top,
    ),
  );
  s.add(
    path(
      `M${f(x + 2 * u)} ${f(y - 84 * u)} L${f(x + 6 * u)} ${f(y - 84 * u)} Q${f(x + 11 * u)} ${f(y - 83.5 * u)} ${f(x + 10.5 * u)} ${f(y - 78 * u)} L${f(x + 9 * u)} ${f(y - 49 * u)} L${f(x + 4 * u)} ${f(y - 49 * u)} Z`,
      "#000000",
      `opacity="0.12"`,
    ),
  );
  // Neckline.
  s.add(
    path(`M${f(x - 3.5 * u)} ${f(y - 84 * u)} Q${f(x)} ${f(y - 79 * u)} ${f(x + 3.5 * u)} ${f(y - 84 * u)} Z`, o.skin),
  );

  for (const a of [left, right]) {
    s.add(stroke(a.d, o.top, armW));
    s.add(circle(a.hand[0], a.hand[1], 2.7 * u, o.skin));
  }

  // Neck and head.
  s.add(rect(x - 2.4 * u, y - 88 * u, 4.8 * u, 5 * u, shade(o.skin, 0.1)));
  const hy = y - 93 * u;
  const hr = 7.4 * u;
  if (hair === "puff") s.add(circle(x, hy - 2.5 * u, hr * 1.32, hairColor));
  if (hair === "long") s.add(rrect(x - hr * 1.12, hy - hr, hr * 2.24, hr * 2.6, hr * 0.9, hairColor));
  s.add(ellipse(x, hy, hr * 0.92, hr, o.skin));
  if (hair === "short" || hair === "long" || hair === "bun")
    s.add(
      path(
        `M${f(x - hr * 0.95)} ${f(hy - 0.5 * u)} Q${f(x - hr)} ${f(hy - hr * 1.25)} ${f(x)} ${f(hy - hr * 1.12)} Q${f(x + hr)} ${f(hy - hr * 1.25)} ${f(x + hr * 0.95)} ${f(hy - 0.5 * u)} Q${f(x)} ${f(hy - hr * 0.75)} ${f(x - hr * 0.95)} ${f(hy - 0.5 * u)} Z`,
        hairColor,
      ),
    );
  if (hair === "bun") s.add(circle(x, hy - hr * 1.25, hr * 0.5, hairColor));
  if (hair === "cap") {
    s.add(
      path(
        `M${f(x - hr)} ${f(hy - 1 * u)} Q${f(x)} ${f(hy - hr * 1.7)} ${f(x + hr)} ${f(hy - 1 * u)} Z`,
        o.wrap ?? "#c0392b",
      ),
    );
    s.add(rrect(x - 1 * u, hy - 2.6 * u, hr * 1.6, 2 * u, u, o.wrap ?? "#c0392b"));
  }
  if (hair === "wrap") {
    const wc = o.wrap ?? "#d35400";
    s.add(
      path(
        `M${f(x - hr * 1.05)} ${f(hy - 0.5 * u)} Q${f(x - hr * 1.3)} ${f(hy - hr * 1.9)} ${f(x)} ${f(hy - hr * 1.85)} Q${f(x + hr * 1.3)} ${f(hy - hr * 1.9)} ${f(x + hr * 1.05)} ${f(hy - 0.5 * u)} Q${f(x)} ${f(hy - hr * 0.7)} ${f(x - hr * 1.05)} ${f(hy - 0.5 * u)} Z`,
        wc,
      ),
    );
    s.add(ellipse(x + hr * 0.55, hy - hr * 1.55, hr * 0.45, hr * 0.3, shade(wc, 0.15)));
  }

  // Things carried.
  const cc = o.carryColor ?? "#e8b23a";
  if (o.carry === "head") {
    const top = hy - hr - (hair === "wrap" ? hr * 0.8 : 0);
    s.add(
      path(
        `M${f(x - 9 * u)} ${f(top - 12 * u)} L${f(x + 9 * u)} ${f(top - 12 * u)} L${f(x + 7 * u)} ${f(top)} L${f(x - 7 * u)} ${f(top)} Z`,
        cc,
      ),
    );
    s.add(ellipse(x, top - 12 * u, 9 * u, 2 * u, shade(cc, 0.25)));
  }
  if (o.carry === "jerrycan") {
    const [hx, hy2] = right.hand;
    s.add(rrect(hx - 4 * u, hy2 + 1 * u, 11 * u, 14 * u, 1.5 * u, cc));
    s.add(rect(hx + 3 * u, hy2 - 0.5 * u, 2.5 * u, 2.5 * u, shade(cc, 0.3)));
    s.add(rect(hx - 4 * u, hy2 + 5 * u, 11 * u, 1.2 * u, shade(cc, 0.15)));
  }
  if (o.carry === "book") {
    const [hx, hy2] = right.hand;
    s.add(rrect(hx - 5 * u, hy2 - 4 * u, 10 * u, 12 * u, u, cc));
    s.add(rect(hx - 5 * u, hy2 - 4 * u, 1.6 * u, 12 * u, shade(cc, 0.3)));
  }
  if (o.carry === "bag") {
    s.add(line(x - 8 * u, y - 83 * u, x + 7 * u, y - 56 * u, shade(cc, 0.25), 1.6 * u));
    s.add(rrect(x + 4 * u, y - 60 * u, 10 * u, 9 * u, 1.5 * u, cc));
  }
  if (o.carry === "can") {
    const [hx, hy2] = right.hand;
    s.add(rrect(hx - 2 * u, hy2 - 1 * u, 10 * u, 8 * u, 2 * u, cc));
    s.add(stroke(`M${f(hx + 7 * u)} ${f(hy2 + 1 * u)} L${f(hx + 14 * u)} ${f(hy2 - 5 * u)}`, cc, 1.8 * u));
  }
}

/** A seated child seen from behind (classroom scenes): head and shoulders, (x, y) the bottom middle. */
function childFromBehind(
  s: Scene,
  x: number,
  y: number,
  k: number,
  o: { skin: string; shirt: string; hair: string; style: "short" | "puffs" | "braids" },
): void {
  s.add(
    path(
      `M${f(x - 30 * k)} ${f(y)} Q${f(x - 32 * k)} ${f(y - 34 * k)} ${f(x - 12 * k)} ${f(y - 40 * k)} L${f(x + 12 * k)} ${f(y - 40 * k)} Q${f(x + 32 * k)} ${f(y - 34 * k)} ${f(x + 30 * k)} ${f(y)} Z`,
      o.shirt,
    ),
  );
  s.add(rect(x - 6 * k, y - 48 * k, 12 * k, 10 * k, shade(o.skin, 0.1)));
  s.add(circle(x, y - 62 * k, 17 * k, o.skin));
  if (o.style === "short")
    s.add(
      path(
        `M${f(x - 17 * k)} ${f(y - 60 * k)} Q${f(x - 18 * k)} ${f(y - 82 * k)} ${f(x)} ${f(y - 81 * k)} Q${f(x + 18 * k)} ${f(y - 82 * k)} ${f(x + 17 * k)} ${f(y - 60 * k)} Q${f(x)} ${f(y - 50 * k)} ${f(x - 17 * k)} ${f(y - 60 * k)} Z`,
        o.hair,
      ),
    );
  if (o.style === "puffs") {
    s.add(circle(x, y - 64 * k, 17.5 * k, o.hair));
    s.add(circle(x - 15 * k, y - 78 * k, 8 * k, o.hair));
    s.add(circle(x + 15 * k, y - 78 * k, 8 * k, o.hair));
  }
  if (o.style === "braids") {
    s.add(circle(x, y - 63 * k, 17.5 * k, o.hair));
    for (let i = -2; i <= 2; i++) s.add(line(x + i * 6 * k, y - 66 * k, x + i * 7 * k, y - 40 * k, o.hair, 3.6 * k));
  }
  s.add(circle(x - 16.5 * k, y - 60 * k, 3.4 * k, shade(o.skin, 0.08)));
  s.add(circle(x + 16.5 * k, y - 60 * k, 3.4 * k, shade(o.skin, 0.08)));
}

// ---------------------------------------------------------------------------
// Portraits
// ---------------------------------------------------------------------------

interface PortraitOpts {
  bg: [string, string];
  skin: string;
  hair: "crop" | "afro" | "bob" | "long" | "wrap" | "bald" | "bun" | "locs" | "wavy" | "braids";
  hairColor: string;
  wrapColor?: string;
  top: string;
  topStyle: "collar" | "tee" | "cardigan" | "jumper" | "blouse" | "kitenge";
  inner?: string;
  accent?: string;
  beard?: "full" | "stubble" | "goatee";
  glasses?: string;
  earrings?: string;
  necklace?: string;
  lips?: string;
  eyeColor?: string;
  age?: "young" | "adult" | "older";
}

function portrait(s: Scene, o: PortraitOpts): void {
  const W = s.w;
  const cx = W / 2;
  s.add(
    rect(
      0,
      0,
      W,
      W,
      s.lin(
        [
          [0, o.bg[0]],
          [1, o.bg[1]],
        ],
        0,
        0,
        1,
        1,
      ),
    ),
  );
  s.add(circle(cx + 120, 250, 330, tint(o.bg[0], 0.25), `opacity="0.35"`));
  s.add(circle(150, 690, 200, shade(o.bg[1], 0.08), `opacity="0.35"`));

  const skinShade = shade(o.skin, 0.14);
  const hy = 350; // head centre
  const hw = 132;
  const hh = 165;

  // Hair that sits behind the head and shoulders.
  if (o.hair === "long" || o.hair === "wavy")
    s.add(
      path(
        `M${cx - 175} ${hy - 40} Q${cx - 200} ${hy + 200} ${cx - 185} ${hy + 300} L${cx + 185} ${hy + 300} Q${cx + 200} ${hy + 200} ${cx + 175} ${hy - 40} Q${cx} ${hy - 290} ${cx - 175} ${hy - 40} Z`,
        o.hairColor,
      ),
    );
  if (o.hair === "locs" || o.hair === "braids") {
    s.add(
      path(
        `M${cx - 150} ${hy - 60} Q${cx - 190} ${hy + 120} ${cx - 200} ${hy + 260} L${cx + 200} ${hy + 260} Q${cx + 190} ${hy + 120} ${cx + 150} ${hy - 60} Q${cx} ${hy - 260} ${cx - 150} ${hy - 60} Z`,
        o.hairColor,
      ),
    );
    for (let i = -6; i <= 6; i++) {
      const x0 = cx + i * 26;
      s.add(
        stroke(
          `M${x0} ${hy - 60} Q${x0 + i * 6} ${hy + 80} ${x0 + i * 10} ${hy + 250}`,
          tint(o.hairColor, 0.12),
          o.hair === "locs" ? 8 : 5,
          `opacity="0.8"`,
        ),
      );
    }
  }
  if (o.hair === "afro") s.add(circle(cx, hy - 50, 215, o.hairColor));
  if (o.hair === "bun") s.add(circle(cx, hy - 200, 80, o.hairColor));

  // Shoulders and clothes.
  const shoulders = `M${cx - 360} 800 Q${cx - 350} 600 ${cx - 180} 575 Q${cx - 90} 560 ${cx - 60} 540 L${cx + 60} 540 Q${cx + 90} 560 ${cx + 180} 575 Q${cx + 350} 600 ${cx + 360} 800 Z`;
  s.add(
    path(
      shoulders,
      s.lin([
        [0, tint(o.top, 0.08)],
        [1, shade(o.top, 0.12)],
      ]),
    ),
  );
  // Neck.
  s.add(path(`M${cx - 58} ${hy + 100} L${cx - 62} 560 Q${cx} 620 ${cx + 62} 560 L${cx + 58} ${hy + 100} Z`, o.skin));
  s.add(
    path(
      `M${cx - 58} ${hy + 120} Q${cx} ${hy + 190} ${cx + 58} ${hy + 120} L${cx + 58} ${hy + 150} Q${cx} ${hy + 215} ${cx - 58} ${hy + 150} Z`,
      skinShade,
      `opacity="0.6"`,
    ),
  );

  const inner = o.inner ?? "#ffffff";
  const accent = o.accent ?? shade(o.top, 0.3);
  switch (o.topStyle) {
    case "collar":
      s.add(path(`M${cx - 75} 548 L${cx} 640 L${cx + 75} 548 L${cx + 40} 530 L${cx} 600 L${cx - 40} 530 Z`, inner));
      s.add(path(`M${cx - 78} 545 L${cx - 35} 528 L${cx} 605 L${cx - 30} 650 Z`, tint(o.top, 0.2)));
      s.add(path(`M${cx + 78} 545 L${cx + 35} 528 L${cx} 605 L${cx + 30} 650 Z`, tint(o.top, 0.12)));
      for (let i = 0; i < 3; i++) s.add(circle(cx, 660 + i * 50, 7, accent));
      break;
    case "tee":
      s.add(path(`M${cx - 70} 545 Q${cx} 625 ${cx + 70} 545`, "none", `stroke="${accent}" stroke-width="14"`));
      break;
    case "cardigan":
      s.add(path(`M${cx - 70} 548 Q${cx} 640 ${cx + 70} 548 L${cx + 55} 800 L${cx - 55} 800 Z`, inner));
      s.add(path(`M${cx - 72} 545 L${cx - 10} 800 L${cx - 45} 800 L${cx - 95} 560 Z`, shade(o.top, 0.12)));
      s.add(path(`M${cx + 72} 545 L${cx + 10} 800 L${cx + 45} 800 L${cx + 95} 560 Z`, shade(o.top, 0.18)));
      for (let i = 0; i < 3; i++) s.add(circle(cx - 24, 680 + i * 45, 8, accent));
      break;
    case "jumper":
      s.add(
        path(
          `M${cx - 82} 545 Q${cx} 655 ${cx + 82} 545 L${cx + 70} 542 Q${cx} 635 ${cx - 70} 542 Z`,
          shade(o.top, 0.2),
        ),
      );
      s.add(path(`M${cx - 55} 548 L${cx} 610 L${cx + 55} 548 Z`, inner));
      for (let i = 0; i < 4; i++)
        s.add(line(cx - 260 + i * 20, 700 - i * 8, cx - 250 + i * 20, 800, shade(o.top, 0.1), 6, `opacity="0.5"`));
      break;
    case "blouse":
      s.add(path(`M${cx - 80} 545 Q${cx} 660 ${cx + 80} 545 Z`, o.skin));
      s.add(path(`M${cx - 80} 545 Q${cx} 660 ${cx + 80} 545`, "none", `stroke="${accent}" stroke-width="10"`));
      break;
    case "kitenge": {
      s.add(path(`M${cx - 70} 545 Q${cx} 630 ${cx + 70} 545 Z`, o.skin));
      const pid = s.id("p");
      s.def(
        `<pattern id="${pid}" width="90" height="90" patternUnits="userSpaceOnUse"><rect width="90" height="90" fill="${o.top}"/><circle cx="22" cy="22" r="16" fill="${accent}"/><circle cx="22" cy="22" r="7" fill="${inner}"/><path d="M55 60 L75 45 L90 60 L75 75 Z" fill="${inner}"/><circle cx="67" cy="18" r="5" fill="${inner}"/></pattern>`,
      );
      s.add(path(shoulders, `url(#${pid})`, `clip-path="${s.clip(`${shoulders}`)}"`));
      s.add(path(`M${cx - 70} 545 Q${cx} 630 ${cx + 70} 545 Z`, o.skin));
      s.add(path(`M${cx - 70} 545 Q${cx} 630 ${cx + 70} 545`, "none", `stroke="${accent}" stroke-width="12"`));
      break;
    }
  }
  if (o.necklace) {
    s.add(path(`M${cx - 62} 548 Q${cx} 625 ${cx + 62} 548`, "none", `stroke="${o.necklace}" stroke-width="6"`));
    s.add(circle(cx, 600, 12, o.necklace));
  }

  // Ears.
  s.add(ellipse(cx - hw + 4, hy + 10, 24, 38, skinShade));
  s.add(ellipse(cx + hw - 4, hy + 10, 24, 38, skinShade));
  if (o.earrings) {
    s.add(circle(cx - hw + 2, hy + 56, 10, o.earrings));
    s.add(circle(cx + hw - 2, hy + 56, 10, o.earrings));
  }
  // Face.
  const face = `M${cx} ${hy - hh} C${cx + hw * 0.75} ${hy - hh} ${cx + hw} ${hy - hh * 0.55} ${cx + hw} ${hy - 10} C${cx + hw} ${hy + hh * 0.55} ${cx + hw * 0.55} ${hy + hh} ${cx} ${hy + hh} C${cx - hw * 0.55} ${hy + hh} ${cx - hw} ${hy + hh * 0.55} ${cx - hw} ${hy - 10} C${cx - hw} ${hy - hh * 0.55} ${cx - hw * 0.75} ${hy - hh} ${cx} ${hy - hh} Z`;
  s.add(path(face, o.skin));
  s.add(
    path(
      face,
      s.lin(
        [
          [0, "#ffffff", 0.08],
          [0.55, "#ffffff", 0],
          [1, "#000000", 0.1],
        ],
        0,
        0,
        1,
        0.3,
      ),
    ),
  );

  // Beard sits on the face, below the hairline elements.
  if (o.beard === "full") {
    s.add(
      path(
        `M${cx - hw + 6} ${hy + 10} C${cx - hw + 10} ${hy + 140} ${cx - 60} ${hy + hh + 30} ${cx} ${hy + hh + 30} C${cx + 60} ${hy + hh + 30} ${cx + hw - 10} ${hy + 140} ${cx + hw - 6} ${hy + 10} L${cx + hw - 30} ${hy + 40} Q${cx + 70} ${hy + 80} ${cx} ${hy + 70} Q${cx - 70} ${hy + 80} ${cx - hw + 30} ${hy + 40} Z`,
        o.hairColor,
      ),
    );
    s.add(
      path(
        `M${cx - 38} ${hy + 100} Q${cx} ${hy + 122} ${cx + 38} ${hy + 100} Q${cx} ${hy + 92} ${cx - 38} ${hy + 100} Z`,
        o.skin,
      ),
    );
  }
  if (o.beard === "stubble")
    s.add(
      path(
        `M${cx - hw + 10} ${hy + 30} C${cx - hw + 20} ${hy + 140} ${cx - 60} ${hy + hh} ${cx} ${hy + hh} C${cx + 60} ${hy + hh} ${cx + hw - 20} ${hy + 140} ${cx + hw - 10} ${hy + 30} Q${cx} ${hy + 90} ${cx - hw + 10} ${hy + 30} Z`,
        o.hairColor,
        `opacity="0.28"`,
      ),
    );
  if (o.beard === "goatee") {
    s.add(
      path(
        `M${cx - 40} ${hy + 130} Q${cx} ${hy + hh + 25} ${cx + 40} ${hy + 130} Q${cx} ${hy + 145} ${cx - 40} ${hy + 130} Z`,
        o.hairColor,
      ),
    );
    s.add(
      path(
        `M${cx - 45} ${hy + 82} Q${cx} ${hy + 66} ${cx + 45} ${hy + 82} L${cx + 40} ${hy + 92} Q${cx} ${hy + 80} ${cx - 40} ${hy + 92} Z`,
        o.hairColor,
      ),
    );
  }

  // Eyes, brows, nose, mouth, cheeks.
  const eyeY = hy - 5;
  const eyeDx = 52;
  for (const side of [-1, 1]) {
    const ex = cx + side * eyeDx;
    s.add(ellipse(ex, eyeY, 19, 12, "#ffffff", `opacity="0.9"`));
    s.add(circle(ex + 2, eyeY + 1, 10, o.eyeColor ?? "#3b2a20"));
    s.add(circle(ex + 2, eyeY + 1, 5, "#15100e"));
    s.add(circle(ex + 5, eyeY - 3, 3, "#ffffff"));
    s.add(
      path(
        `M${ex - 22} ${eyeY - 2} Q${ex} ${eyeY - 20} ${ex + 22} ${eyeY - 2}`,
        "none",
        `stroke="${shade(o.skin, 0.55)}" stroke-width="4" stroke-linecap="round"`,
      ),
    );
    const browColor =
      o.hair === "bald"
        ? shade(o.skin, 0.6)
        : o.hairColor === HAIR.white || o.hairColor === HAIR.grey
          ? shade(o.hairColor, 0.35)
          : o.hairColor;
    s.add(stroke(`M${ex - 26} ${eyeY - 34} Q${ex} ${eyeY - 48} ${ex + 26} ${eyeY - 36}`, browColor, 10));
    if (o.age === "older") s.add(stroke(`M${ex + side * 26} ${eyeY + 4} l${side * 12} 6`, shade(o.skin, 0.3), 3));
    s.add(ellipse(ex + side * 10, eyeY + 50, 26, 16, "#e0584f", `opacity="0.13"`));
  }
  s.add(
    stroke(
      `M${cx - 4} ${eyeY + 20} Q${cx - 16} ${eyeY + 58} ${cx - 10} ${eyeY + 66} Q${cx + 2} ${eyeY + 72} ${cx + 16} ${eyeY + 64}`,
      shade(o.skin, 0.3),
      6,
    ),
  );
  const lips = o.lips ?? shade(mix(o.skin, "#b5475a", 0.45), 0.1);
  s.add(
    path(
      `M${cx - 46} ${hy + 98} Q${cx} ${hy + 140} ${cx + 46} ${hy + 98} Q${cx} ${hy + 112} ${cx - 46} ${hy + 98} Z`,
      lips,
    ),
  );
  s.add(
    path(
      `M${cx - 34} ${hy + 104} Q${cx} ${hy + 126} ${cx + 34} ${hy + 104} Q${cx} ${hy + 112} ${cx - 34} ${hy + 104} Z`,
      "#ffffff",
      `opacity="0.85"`,
    ),
  );
  if (o.age === "older") {
    s.add(stroke(`M${cx - 70} ${hy + 68} Q${cx - 72} ${hy + 98} ${cx - 56} ${hy + 112}`, shade(o.skin, 0.22), 3.5));
    s.add(stroke(`M${cx + 70} ${hy + 68} Q${cx + 72} ${hy + 98} ${cx + 56} ${hy + 112}`, shade(o.skin, 0.22), 3.5));
  }

  if (o.glasses) {
    for (const side of [-1, 1])
      s.add(
        rrect(
          cx + side * eyeDx - 38,
          eyeY - 30,
          76,
          58,
          22,
          "#ffffff",
          `fill-opacity="0.12" stroke="${o.glasses}" stroke-width="8"`,
        ),
      );
    s.add(stroke(`M${cx - 14} ${eyeY - 8} Q${cx} ${eyeY - 18} ${cx + 14} ${eyeY - 8}`, o.glasses, 7));
    s.add(line(cx - eyeDx - 38, eyeY - 10, cx - hw + 2, eyeY - 16, o.glasses, 7));
    s.add(line(cx + eyeDx + 38, eyeY - 10, cx + hw - 2, eyeY - 16, o.glasses, 7));
  }

  // Hair on top of the head.
  const hc = o.hairColor;
  switch (o.hair) {
    case "crop":
      s.add(
        path(
          `M${cx - hw - 4} ${hy - 30} C${cx - hw - 8} ${hy - hh - 30} ${cx + hw + 8} ${hy - hh - 30} ${cx + hw + 4} ${hy - 30} Q${cx + hw - 10} ${hy - 90} ${cx + 60} ${hy - 118} Q${cx} ${hy - 128} ${cx - 60} ${hy - 118} Q${cx - hw + 10} ${hy - 90} ${cx - hw - 4} ${hy - 30} Z`,
          hc,
        ),
      );
      break;
    case "afro":
      s.add(
        path(
          `M${cx - hw - 10} ${hy - 10} Q${cx - hw} ${hy - 110} ${cx} ${hy - 115} Q${cx + hw} ${hy - 110} ${cx + hw + 10} ${hy - 10} L${cx + hw + 40} ${hy - 60} Q${cx} ${hy - 330} ${cx - hw - 40} ${hy - 60} Z`,
          hc,
        ),
      );
      for (let i = 0; i < 26; i++) {
        const a = Math.PI * (1.05 + (0.9 * i) / 25);
        s.add(circle(cx + Math.cos(a) * 200, hy - 50 + Math.sin(a) * 200, 22, shade(hc, 0.0), `opacity="0.0"`));
      }
      break;
    case "bob":
      s.add(
        path(
          `M${cx - hw - 30} ${hy + 90} Q${cx - hw - 40} ${hy - hh - 40} ${cx} ${hy - hh - 30} Q${cx + hw + 40} ${hy - hh - 40} ${cx + hw + 30} ${hy + 90} L${cx + hw - 8} ${hy + 90} Q${cx + hw - 6} ${hy - 80} ${cx + 20} ${hy - 105} Q${cx - 90} ${hy - 60} ${cx - hw + 8} ${hy - 40} L${cx - hw + 8} ${hy + 90} Z`,
          hc,
        ),
      );
      break;
    case "long":
      s.add(
        path(
          `M${cx - hw - 14} ${hy + 40} Q${cx - hw - 30} ${hy - hh - 40} ${cx} ${hy - hh - 26} Q${cx + hw + 30} ${hy - hh - 40} ${cx + hw + 14} ${hy + 40} Q${cx + hw - 10} ${hy - 60} ${cx + 10} ${hy - 120} Q${cx - 10} ${hy - 80} ${cx - hw + 10} ${hy - 40} Z`,
          hc,
        ),
      );
      break;
    case "wavy":
      s.add(
        path(
          `M${cx - hw - 18} ${hy + 60} Q${cx - hw - 40} ${hy - hh - 40} ${cx} ${hy - hh - 30} Q${cx + hw + 40} ${hy - hh - 40} ${cx + hw + 18} ${hy + 60} Q${cx + hw} ${hy - 20} ${cx + hw - 20} ${hy - 70} Q${cx + 40} ${hy - 90} ${cx - 30} ${hy - 130} Q${cx - 80} ${hy - 60} ${cx - hw + 10} ${hy - 50} Q${cx - hw + 6} ${hy} ${cx - hw - 18} ${hy + 60} Z`,
          hc,
        ),
      );
      break;
    case "bun":
    case "locs":
    case "braids":
      s.add(
        path(
          `M${cx - hw - 6} ${hy - 10} C${cx - hw - 10} ${hy - hh - 40} ${cx + hw + 10} ${hy - hh - 40} ${cx + hw + 6} ${hy - 10} Q${cx + hw - 10} ${hy - 90} ${cx} ${hy - 112} Q${cx - hw + 10} ${hy - 90} ${cx - hw - 6} ${hy - 10} Z`,
          hc,
        ),
      );
      if (o.hair === "braids")
        for (let i = -3; i <= 3; i++)
          s.add(
            stroke(
              `M${cx + i * 30} ${hy - 108 + Math.abs(i) * 8} Q${cx + i * 30} ${hy - 150} ${cx + i * 16} ${hy - hh - 18 + Math.abs(i) * 6}`,
              tint(hc, 0.15),
              5,
              `opacity="0.8"`,
            ),
          );
      break;
    case "wrap": {
      const wc = o.wrapColor ?? "#c0392b";
      const wrap = `M${cx - hw - 12} ${hy - 40} Q${cx - hw - 40} ${hy - 300} ${cx + 10} ${hy - 300} Q${cx + hw + 50} ${hy - 300} ${cx + hw + 12} ${hy - 40} Q${cx} ${hy - 110} ${cx - hw - 12} ${hy - 40} Z`;
      s.add(path(wrap, wc));
      s.add(
        path(
          `M${cx - hw - 12} ${hy - 40} Q${cx} ${hy - 110} ${cx + hw + 12} ${hy - 40} L${cx + hw + 4} ${hy - 70} Q${cx} ${hy - 140} ${cx - hw - 4} ${hy - 70} Z`,
          shade(wc, 0.2),
        ),
      );
      s.add(
        path(
          `M${cx - hw - 20} ${hy - 120} Q${cx - 20} ${hy - 250} ${cx + hw + 30} ${hy - 150} Q${cx} ${hy - 210} ${cx - hw - 20} ${hy - 120} Z`,
          shade(wc, 0.14),
        ),
      );
      for (let i = 0; i < 9; i++)
        s.add(
          circle(
            cx - 110 + i * 28,
            hy - 200 + Math.abs(i - 4) * 9 + (i % 2) * 30,
            9,
            o.accent ?? tint(wc, 0.4),
            `opacity="0.85"`,
          ),
        );
      s.add(ellipse(cx + 90, hy - 275, 70, 42, shade(wc, 0.1), `transform="rotate(-25 ${cx + 90} ${hy - 275})"`));
      break;
    }
    case "bald":
      s.add(ellipse(cx - 40, hy - 120, 50, 22, "#ffffff", `opacity="0.18"`));
      break;
  }
}

// ---------------------------------------------------------------------------
// Objects used in several pictures
// ---------------------------------------------------------------------------

function handPump(s: Scene, x: number, y: number, k: number): void {
  // Concrete apron.
  s.add(ellipse(x, y, 210 * k, 42 * k, "#9e9a92"));
  s.add(
    ellipse(
      x,
      y - 6 * k,
      200 * k,
      36 * k,
      s.lin([
        [0, "#cfcac0"],
        [1, "#b3ada2"],
      ]),
    ),
  );
  s.add(ellipse(x, y - 6 * k, 150 * k, 24 * k, "#bdb7ac"));
  // Body.
  s.add(
    rect(
      x - 22 * k,
      y - 210 * k,
      44 * k,
      200 * k,
      s.lin(
        [
          [0, "#3f7fb0"],
          [0.5, "#5a9ccc"],
          [1, "#2c5f88"],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  );
  s.add(rrect(x - 30 * k, y - 230 * k, 60 * k, 30 * k, 6 * k, "#2c5f88"));
  s.add(rect(x - 30 * k, y - 30 * k, 60 * k, 22 * k, "#2c5f88"));
  // Spout and handle.
  s.add(
    path(
      `M${f(x + 20 * k)} ${f(y - 160 * k)} L${f(x + 90 * k)} ${f(y - 150 * k)} L${f(x + 92 * k)} ${f(y - 130 * k)} L${f(x + 20 * k)} ${f(y - 138 * k)} Z`,
      "#35709c",
    ),
  );
  s.add(line(x - 10 * k, y - 222 * k, x - 170 * k, y - 290 * k, "#2c5f88", 14 * k));
  s.add(circle(x - 10 * k, y - 222 * k, 10 * k, "#1e4565"));
}

function jerrycan(s: Scene, x: number, y: number, k: number, color: string): void {
  s.add(rrect(x - 24 * k, y - 56 * k, 48 * k, 56 * k, 6 * k, color));
  s.add(rect(x - 24 * k, y - 40 * k, 48 * k, 5 * k, shade(color, 0.15)));
  s.add(rect(x + 6 * k, y - 66 * k, 12 * k, 12 * k, shade(color, 0.35)));
  s.add(rrect(x - 16 * k, y - 66 * k, 18 * k, 8 * k, 3 * k, shade(color, 0.2)));
}

function bucket(s: Scene, x: number, y: number, k: number, color: string, water = true): void {
  s.add(
    path(
      `M${f(x - 30 * k)} ${f(y - 50 * k)} L${f(x + 30 * k)} ${f(y - 50 * k)} L${f(x + 24 * k)} ${f(y)} L${f(x - 24 * k)} ${f(y)} Z`,
      color,
    ),
  );
  s.add(ellipse(x, y - 50 * k, 30 * k, 7 * k, water ? "#6fb7e0" : shade(color, 0.3)));
  s.add(
    stroke(
      `M${f(x - 28 * k)} ${f(y - 48 * k)} Q${f(x)} ${f(y - 95 * k)} ${f(x + 28 * k)} ${f(y - 48 * k)}`,
      shade(color, 0.35),
      3 * k,
    ),
  );
}

function solarPanel(s: Scene, pts: [Pt, Pt, Pt, Pt], cols: number, rows: number, glare = true): void {
  const [a, b, c, d] = pts; // top-left, top-right, bottom-right, bottom-left
  s.add(poly([a, b, c, d], "#c9d3dc"));
  const inset = (p: Pt, q: Pt, t: number): Pt => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
  const A = inset(a, c, 0.02);
  const B = inset(b, d, 0.02);
  const C = inset(c, a, 0.02);
  const D = inset(d, b, 0.02);
  s.add(
    poly(
      [A, B, C, D],
      s.linAbs(
        [
          [0, "#2f4f8f"],
          [1, "#132a57"],
        ],
        A[0],
        A[1],
        D[0],
        D[1],
      ),
    ),
  );
  for (let i = 1; i < cols; i++) {
    const t = i / cols;
    const p = inset(A, B, t);
    const q = inset(D, C, t);
    s.add(line(p[0], p[1], q[0], q[1], "#8fa8cf", 1.6, `opacity="0.7"`));
  }
  for (let j = 1; j < rows; j++) {
    const t = j / rows;
    const p = inset(A, D, t);
    const q = inset(B, C, t);
    s.add(line(p[0], p[1], q[0], q[1], "#8fa8cf", 1.6, `opacity="0.7"`));
  }
  if (glare)
    s.add(
      poly([inset(A, B, 0.15), inset(A, B, 0.4), inset(D, C, 0.2), inset(D, C, -0.05)], "#ffffff", `opacity="0.14"`),
    );
}

function waterTank(s: Scene, x: number, y: number, w: number, h: number, color: string): void {
  s.add(ellipse(x + w * 0.05, y + 6, w * 0.62, 12, "#000000", `opacity="0.18"`));
  s.add(
    rect(
      x - w / 2,
      y - h,
      w,
      h,
      s.lin(
        [
          [0, shade(color, 0.15)],
          [0.3, tint(color, 0.15)],
          [1, shade(color, 0.3)],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  );
  for (let i = 1; i < 6; i++) s.add(rect(x - w / 2, y - h + (h * i) / 6, w, 5, shade(color, 0.2), `opacity="0.5"`));
  s.add(ellipse(x, y, w / 2, w * 0.08, shade(color, 0.25)));
  s.add(ellipse(x, y - h, w / 2, w * 0.09, tint(color, 0.2)));
  s.add(ellipse(x, y - h - w * 0.04, w * 0.18, w * 0.04, shade(color, 0.3)));
}

function bunting(
  s: Scene,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  sag: number,
  colors: string[],
  size = 26,
): void {
  s.add(
    stroke(`M${f(x1)} ${f(y1)} Q${f((x1 + x2) / 2)} ${f((y1 + y2) / 2 + sag * 2)} ${f(x2)} ${f(y2)}`, "#5a5a5a", 2),
  );
  const n = Math.floor(Math.hypot(x2 - x1, y2 - y1) / (size * 1.5));
  for (let i = 1; i < n; i++) {
    const t = i / n;
    const px = (1 - t) * (1 - t) * x1 + 2 * (1 - t) * t * ((x1 + x2) / 2) + t * t * x2;
    const py = (1 - t) * (1 - t) * y1 + 2 * (1 - t) * t * ((y1 + y2) / 2 + sag * 2) + t * t * y2;
    s.add(
      poly(
        [
          [px - size / 2, py],
          [px + size / 2, py],
          [px, py + size * 1.2],
        ],
        colors[i % colors.length]!,
      ),
    );
  }
}

/** A stylised open book or stack of books on shelves. */
function bookRow(s: Scene, x: number, y: number, width: number, maxH: number, palette: string[]): void {
  let cx = x;
  while (cx < x + width - 12) {
    const bw = s.r(14, 30);
    if (cx + bw > x + width) break;
    const bh = maxH * s.r(0.7, 1);
    const c = s.pick(palette);
    if (s.r() < 0.1 && cx + bh * 0.9 < x + width) {
      // A book lying on its side.
      s.add(rect(cx, y - bw, bh * 0.9, bw, c));
      s.add(rect(cx + 6, y - bw * 0.6, bh * 0.9 - 12, 3, tint(c, 0.4)));
      cx += bh * 0.9 + 4;
      continue;
    }
    const tilt = s.r() < 0.08 ? s.r(-8, 8) : 0;
    s.add(
      `<g transform="rotate(${f(tilt)} ${f(cx + bw / 2)} ${f(y)})">${rect(cx, y - bh, bw, bh, c)}${rect(cx + 2, y - bh + 10, bw - 4, 4, tint(c, 0.35))}${rect(cx + 2, y - 20, bw - 4, 3, shade(c, 0.25))}</g>`,
    );
    cx += bw + s.r(0.5, 2.5);
  }
}

function sewingMachine(s: Scene, x: number, y: number, k: number, body = "#2b2b2b"): void {
  s.add(rrect(x - 90 * k, y - 20 * k, 180 * k, 22 * k, 4 * k, shade(body, 0.2)));
  s.add(
    path(
      `M${f(x - 80 * k)} ${f(y - 20 * k)} L${f(x - 80 * k)} ${f(y - 110 * k)} Q${f(x - 80 * k)} ${f(y - 130 * k)} ${f(x - 60 * k)} ${f(y - 130 * k)} L${f(x + 70 * k)} ${f(y - 130 * k)} Q${f(x + 88 * k)} ${f(y - 130 * k)} ${f(x + 88 * k)} ${f(y - 112 * k)} L${f(x + 88 * k)} ${f(y - 70 * k)} L${f(x + 60 * k)} ${f(y - 70 * k)} L${f(x + 60 * k)} ${f(y - 100 * k)} L${f(x - 50 * k)} ${f(y - 100 * k)} L${f(x - 50 * k)} ${f(y - 20 * k)} Z`,
      body,
    ),
  );
  s.add(rect(x + 66 * k, y - 70 * k, 8 * k, 40 * k, "#9aa0a6"));
  s.add(circle(x - 100 * k, y - 85 * k, 26 * k, "#8c8f93"));
  s.add(circle(x - 100 * k, y - 85 * k, 10 * k, body));
  s.add(
    path(
      `M${f(x - 40 * k)} ${f(y - 122 * k)} L${f(x + 40 * k)} ${f(y - 122 * k)}`,
      "none",
      `stroke="#d4af37" stroke-width="${f(4 * k)}"`,
    ),
  );
}

function maize(s: Scene, x: number, y: number, h: number, leaf: string, cob = true): void {
  const sway = s.r(-0.06, 0.06) * h;
  s.add(
    stroke(
      `M${f(x)} ${f(y)} Q${f(x + sway * 0.3)} ${f(y - h * 0.5)} ${f(x + sway)} ${f(y - h)}`,
      shade(leaf, 0.1),
      h * 0.03,
    ),
  );
  for (let i = 0; i < 6; i++) {
    const t = 0.2 + i * 0.13;
    const side = i % 2 === 0 ? 1 : -1;
    const bx = x + sway * t * t;
    const by = y - h * t;
    const len = h * s.r(0.28, 0.4) * (1 - t * 0.4);
    s.add(
      path(
        `M${f(bx)} ${f(by)} Q${f(bx + side * len * 0.5)} ${f(by - len * 0.45)} ${f(bx + side * len)} ${f(by + len * 0.15)} Q${f(bx + side * len * 0.45)} ${f(by - len * 0.25)} ${f(bx)} ${f(by + h * 0.015)} Z`,
        i % 2 ? leaf : shade(leaf, 0.12),
      ),
    );
  }
  s.add(
    stroke(
      `M${f(x + sway)} ${f(y - h)} l${f(-h * 0.05)} ${f(-h * 0.08)} M${f(x + sway)} ${f(y - h)} l${f(h * 0.04)} ${f(-h * 0.09)} M${f(x + sway)} ${f(y - h)} l${f(0)} ${f(-h * 0.1)}`,
      "#d9b45a",
      h * 0.012,
    ),
  );
  if (cob) {
    const cy = y - h * 0.55;
    s.add(
      ellipse(x + h * 0.045, cy, h * 0.03, h * 0.08, "#f2c94c", `transform="rotate(18 ${f(x + h * 0.045)} ${f(cy)})"`),
    );
    s.add(
      path(
        `M${f(x)} ${f(cy + h * 0.08)} Q${f(x + h * 0.09)} ${f(cy + h * 0.02)} ${f(x + h * 0.07)} ${f(cy - h * 0.06)} Q${f(x + h * 0.06)} ${f(cy + h * 0.03)} ${f(x)} ${f(cy + h * 0.08)} Z`,
        tint(leaf, 0.1),
      ),
    );
  }
}

function goat(s: Scene, x: number, y: number, k: number, coat: string, facing: 1 | -1 = 1): void {
  s.group(`transform="translate(${f(x)} ${f(y)}) scale(${facing} 1)"`, () => {
    s.add(ellipse(4 * k, 0, 40 * k, 5 * k, "#000000", `opacity="0.15"`));
    for (const lx of [-22, -12, 14, 24])
      s.add(line(lx * k, -30 * k, lx * k + (lx > 0 ? 2 : -1) * k, -2 * k, shade(coat, 0.25), 5 * k));
    s.add(ellipse(0, -40 * k, 34 * k, 17 * k, coat));
    s.add(
      path(
        `M${f(26 * k)} ${f(-50 * k)} L${f(40 * k)} ${f(-72 * k)} L${f(52 * k)} ${f(-66 * k)} L${f(40 * k)} ${f(-42 * k)} Z`,
        coat,
      ),
    );
    s.add(ellipse(50 * k, -64 * k, 10 * k, 7 * k, coat, `transform="rotate(30 ${f(50 * k)} ${f(-64 * k)})"`));
    s.add(
      stroke(
        `M${f(44 * k)} ${f(-72 * k)} Q${f(38 * k)} ${f(-88 * k)} ${f(28 * k)} ${f(-86 * k)}`,
        shade(coat, 0.45),
        3 * k,
      ),
    );
    s.add(
      ellipse(40 * k, -68 * k, 7 * k, 3 * k, shade(coat, 0.2), `transform="rotate(-30 ${f(40 * k)} ${f(-68 * k)})"`),
    );
    s.add(stroke(`M${f(-33 * k)} ${f(-44 * k)} l${f(-6 * k)} ${f(-8 * k)}`, coat, 4 * k));
  });
}

function stars(s: Scene, n: number, maxY: number): void {
  for (let i = 0; i < n; i++)
    s.add(circle(s.r(0, s.w), s.r(0, maxY) * s.r(0.3, 1), s.r(0.8, 2.4), "#ffffff", `opacity="${f(s.r(0.3, 0.9))}"`));
}

function glow(s: Scene, x: number, y: number, r: number, color: string, strength = 0.6): void {
  s.add(
    circle(
      x,
      y,
      r,
      s.rad([
        [0, color, strength],
        [1, color, 0],
      ]),
    ),
  );
}

/** A child sitting cross-legged reading an open book; (x, y) is where they sit. */
function seatedReader(
  s: Scene,
  x: number,
  y: number,
  k: number,
  o: { skin: string; top: string; bottom: string; hair: string; style: "short" | "puff" | "wrap"; book: string },
): void {
  s.add(ellipse(x, y + 4 * k, 70 * k, 10 * k, "#000000", `opacity="0.15"`));
  s.add(
    path(
      `M${f(x - 62 * k)} ${f(y)} Q${f(x - 60 * k)} ${f(y - 30 * k)} ${f(x - 20 * k)} ${f(y - 30 * k)} L${f(x + 20 * k)} ${f(y - 30 * k)} Q${f(x + 60 * k)} ${f(y - 30 * k)} ${f(x + 62 * k)} ${f(y)} Z`,
      o.bottom,
    ),
  );
  s.add(ellipse(x - 50 * k, y - 4 * k, 12 * k, 6 * k, o.skin));
  s.add(ellipse(x + 50 * k, y - 4 * k, 12 * k, 6 * k, o.skin));
  s.add(
    path(
      `M${f(x - 30 * k)} ${f(y - 28 * k)} L${f(x - 32 * k)} ${f(y - 100 * k)} Q${f(x - 30 * k)} ${f(y - 112 * k)} ${f(x - 14 * k)} ${f(y - 114 * k)} L${f(x + 14 * k)} ${f(y - 114 * k)} Q${f(x + 30 * k)} ${f(y - 112 * k)} ${f(x + 32 * k)} ${f(y - 100 * k)} L${f(x + 30 * k)} ${f(y - 28 * k)} Z`,
      o.top,
    ),
  );
  s.add(rect(x - 6 * k, y - 124 * k, 12 * k, 12 * k, shade(o.skin, 0.1)));
  const hy = y - 142 * k;
  if (o.style === "puff") s.add(circle(x, hy - 6 * k, 27 * k, o.hair));
  s.add(ellipse(x, hy, 20 * k, 22 * k, o.skin));
  if (o.style === "short")
    s.add(
      path(
        `M${f(x - 20 * k)} ${f(hy - 2 * k)} Q${f(x - 21 * k)} ${f(hy - 28 * k)} ${f(x)} ${f(hy - 25 * k)} Q${f(x + 21 * k)} ${f(hy - 28 * k)} ${f(x + 20 * k)} ${f(hy - 2 * k)} Q${f(x)} ${f(hy - 14 * k)} ${f(x - 20 * k)} ${f(hy - 2 * k)} Z`,
        o.hair,
      ),
    );
  if (o.style === "wrap")
    s.add(
      path(
        `M${f(x - 22 * k)} ${f(hy - 2 * k)} Q${f(x - 26 * k)} ${f(hy - 42 * k)} ${f(x)} ${f(hy - 40 * k)} Q${f(x + 26 * k)} ${f(hy - 42 * k)} ${f(x + 22 * k)} ${f(hy - 2 * k)} Q${f(x)} ${f(hy - 14 * k)} ${f(x - 22 * k)} ${f(hy - 2 * k)} Z`,
        o.hair,
      ),
    );
  // Eyes cast down at the page.
  s.add(
    stroke(
      `M${f(x - 11 * k)} ${f(hy + 2 * k)} q${f(4 * k)} ${f(3 * k)} ${f(8 * k)} 0 M${f(x + 3 * k)} ${f(hy + 2 * k)} q${f(4 * k)} ${f(3 * k)} ${f(8 * k)} 0`,
      shade(o.skin, 0.6),
      2 * k,
    ),
  );
  // The open book and the hands holding it.
  s.add(
    path(
      `M${f(x)} ${f(y - 46 * k)} L${f(x - 46 * k)} ${f(y - 60 * k)} L${f(x - 44 * k)} ${f(y - 96 * k)} L${f(x)} ${f(y - 82 * k)} L${f(x + 44 * k)} ${f(y - 96 * k)} L${f(x + 46 * k)} ${f(y - 60 * k)} Z`,
      o.book,
    ),
  );
  s.add(
    path(
      `M${f(x)} ${f(y - 50 * k)} L${f(x - 40 * k)} ${f(y - 63 * k)} L${f(x - 39 * k)} ${f(y - 92 * k)} L${f(x)} ${f(y - 79 * k)} L${f(x + 39 * k)} ${f(y - 92 * k)} L${f(x + 40 * k)} ${f(y - 63 * k)} Z`,
      "#fbf7ee",
    ),
  );
  for (let i = 0; i < 4; i++) {
    s.add(line(x - 34 * k, y - 84 * k + i * 6 * k, x - 8 * k, y - 76 * k + i * 6 * k, "#b8b0a0", 1.5 * k));
    s.add(line(x + 8 * k, y - 76 * k + i * 6 * k, x + 34 * k, y - 84 * k + i * 6 * k, "#b8b0a0", 1.5 * k));
  }
  s.add(circle(x - 44 * k, y - 66 * k, 7 * k, o.skin));
  s.add(circle(x + 44 * k, y - 66 * k, 7 * k, o.skin));
}

/** A school desk with its bench, seen from behind; (x, y) is the middle of the floor line. */
function desk(s: Scene, x: number, y: number, w: number, k: number, wood = "#8a5a35"): void {
  s.add(ellipse(x, y, w * 0.55, 10 * k, "#000000", `opacity="0.12"`));
  for (const lx of [-0.45, 0.45]) s.add(rect(x + lx * w - 4 * k, y - 110 * k, 8 * k, 110 * k, shade(wood, 0.3)));
  s.add(rect(x - w / 2, y - 120 * k, w, 14 * k, wood));
  s.add(rect(x - w / 2, y - 106 * k, w, 30 * k, shade(wood, 0.15)));
  s.add(rect(x - w * 0.5, y - 55 * k, w, 10 * k, tint(wood, 0.1)));
}

function tanzaniaFlag(s: Scene, x: number, y: number, w: number): void {
  const h = w * 0.66;
  s.add(line(x, y, x, y + h * 4, "#7a7a7a", Math.max(3, w * 0.05)));
  const id = s.clip(`M${f(x)} ${f(y)} h${f(w)} v${f(h)} h${f(-w)} Z`);
  s.group(`clip-path="${id}"`, () => {
    s.add(rect(x, y, w, h, "#00a3dd"));
    s.add(
      poly(
        [
          [x, y],
          [x + w, y],
          [x, y + h],
        ],
        "#1eb53a",
      ),
    );
    s.add(line(x - w * 0.1, y + h * 1.1, x + w * 1.1, y - h * 0.1, "#fcd116", h * 0.42, `stroke-linecap="butt"`));
    s.add(line(x - w * 0.1, y + h * 1.1, x + w * 1.1, y - h * 0.1, "#000000", h * 0.3, `stroke-linecap="butt"`));
  });
}

function rain(s: Scene, n: number, y0: number, y1: number, color = "#dbe8f3"): void {
  for (let i = 0; i < n; i++) {
    const x = s.r(-40, s.w);
    const y = s.r(y0, y1);
    const len = s.r(18, 38);
    s.add(line(x, y, x + len * 0.3, y + len, color, 2, `opacity="${f(s.r(0.35, 0.7))}"`));
  }
}

/** Writes the picture only when it changed, so the image build does not redo untouched pictures. */
function save(name: string, svg: string): boolean {
  const file = join(outDir, `${name}.svg`);
  if (existsSync(file) && readFileSync(file, "utf8") === svg) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svg);
  return true;
}

// ---------------------------------------------------------------------------
// The pictures
// ---------------------------------------------------------------------------

const pictures: [name: string, title: string, draw: (s: Scene) => void, size?: "square"][] = [];
function picture(name: string, title: string, draw: (s: Scene) => void, size?: "square"): void {
  pictures.push([name, title, draw, size]);
}

// SCENES-START
// ---- Image wheel -----------------------------------------------------------

picture("wheel/village-sunrise", "Kilele village at sunrise below a snow-capped mountain", (s) => {
  sky(s, [
    [0, "#34406e"],
    [0.32, "#9c6384"],
    [0.58, "#f0a06a"],
    [0.75, "#ffd9a0"],
  ]);
  sun(s, 430, 590, 62, "#fff3c8", "#ffcf7a");
  cloud(s, 150, 170, 1.3, "#f6b8a8", 0.45);
  cloud(s, 1150, 120, 1.0, "#f6b8a8", 0.35);
  kilimanjaro(s, 1060, 650, 1250, 430, {
    body: "#6f6294",
    shadow: "#4b4271",
    snow: "#f4e4ee",
    far: "#9788b2",
    haze: "#f0a06a",
  });
  hills(s, 650, 22, "#8d7393", { waves: 2 });
  for (const [x, h] of [
    [520, 70],
    [900, 60],
    [1380, 80],
  ] as const)
    acacia(s, x, 690, h, "#4e5a3a", "#3a3328");
  hills(s, 705, 26, "#7f7d4a");
  const ground = s.lin([
    [0, "#d8a35a"],
    [1, "#a8683a"],
  ]);
  hills(s, 770, 14, ground, { waves: 2 });
  // A red-earth path winding up to the village.
  s.add(
    path(
      "M640 1000 C700 920 860 900 820 850 C790 815 900 800 960 790 L990 792 C940 805 850 822 880 852 C930 905 820 940 860 1000 Z",
      "#c58251",
      `opacity="0.9"`,
    ),
  );
  roundHut(s, 880, 790, 120, "#c8895a", "#d0a864");
  roundHut(s, 1060, 800, 150, "#b97a4c", "#c59a55");
  roundHut(s, 1230, 788, 105, "#c8895a", "#d6b06b");
  house(s, 620, 800, 190, 95, { wall: "#e3c9a0", roof: "#8b8f96", windows: 1 });
  bush(s, 760, 805, 26, "#5d6b3a");
  bush(s, 1350, 800, 30, "#566535");
  acacia(s, 250, 930, 560, "#556b35");
  grass(s, 820, 1000, 70, "#8d5e2f", 20);
  person(s, 760, 930, 150, {
    skin: SKIN.dark,
    top: "#2a9d8f",
    bottom: "#e76f51",
    kind: "skirt",
    hair: "wrap",
    wrap: "#f4a261",
    carry: "head",
    carryColor: "#e9c46a",
  });
  person(s, 835, 905, 92, {
    skin: SKIN.brown,
    top: "#f1faee",
    bottom: "#264653",
    kind: "shorts",
    hair: "short",
    arms: "wave",
  });
  birds(s, 640, 260, 6, 16, "#3a2f45");
});

picture("wheel/road-to-school", "Children in blue school uniforms walking along a red dirt road to school", (s) => {
  sky(s, [
    [0, "#5fa8e6"],
    [0.55, "#a9d6f5"],
    [0.7, "#e8f4fb"],
  ]);
  cloud(s, 200, 140, 1.4);
  cloud(s, 980, 90, 1.1);
  cloud(s, 1330, 210, 0.8);
  kilimanjaro(s, 1250, 600, 820, 260, {
    body: "#6f87ad",
    shadow: "#566c92",
    snow: "#f7fbff",
    far: "#94a8c6",
    haze: "#d8ecf8",
  });
  hills(s, 600, 30, "#7fa36a");
  hills(s, 660, 24, "#5f8c4e");
  for (const x of [180, 420, 1080, 1480]) acacia(s, x, 670, s.r(70, 110), "#3f6a34");
  hills(
    s,
    700,
    12,
    s.lin([
      [0, "#7cab55"],
      [1, "#4f7f3a"],
    ]),
    { waves: 2 },
  );
  // The road narrows towards the school on the horizon.
  s.add(
    path(
      "M250 1000 C520 860 760 760 790 700 L840 700 C880 760 1120 860 1400 1000 Z",
      s.lin([
        [0, "#c2703f"],
        [1, "#a5552c"],
      ]),
    ),
  );
  s.add(path("M790 700 C760 760 520 860 250 1000 L320 1000 C560 870 780 770 805 700 Z", "#000000", `opacity="0.08"`));
  house(s, 700, 700, 230, 70, { wall: "#f3e2bf", roof: "#b24a32", roofStyle: "tile", windows: 3, door: false });
  s.add(line(960, 700, 960, 560, "#6b6b6b", 4));
  s.add(
    poly(
      [
        [962, 560],
        [1010, 572],
        [962, 586],
      ],
      "#1eb53a",
    ),
  );
  grass(s, 720, 1000, 90, "#3f6e2c", 22);
  bush(s, 120, 860, 60, "#4d7a35");
  bush(s, 1500, 840, 70, "#4a7433");
  const kids: [number, number, number, PersonOpts][] = [
    [
      640,
      930,
      190,
      {
        skin: SKIN.dark,
        top: "#ffffff",
        bottom: "#1d4e89",
        kind: "skirt",
        hair: "puff",
        carry: "bag",
        carryColor: "#e63946",
      },
    ],
    [
      770,
      960,
      175,
      {
        skin: SKIN.brown,
        top: "#ffffff",
        bottom: "#1d4e89",
        kind: "shorts",
        hair: "short",
        carry: "book",
        carryColor: "#f4a261",
        arms: "hold",
      },
    ],
    [900, 900, 150, { skin: SKIN.deep, top: "#ffffff", bottom: "#1d4e89", kind: "skirt", hair: "bun", arms: "wave" }],
    [
      1010,
      880,
      120,
      {
        skin: SKIN.warm,
        top: "#ffffff",
        bottom: "#1d4e89",
        kind: "shorts",
        hair: "short",
        carry: "bag",
        carryColor: "#2a9d8f",
      },
    ],
    [940, 800, 80, { skin: SKIN.dark, top: "#ffffff", bottom: "#1d4e89", kind: "skirt", hair: "puff" }],
  ];
  for (const [x, y, h, o] of kids) person(s, x, y, h, o);
  birds(s, 600, 230, 4, 14);
});
picture("wheel/maize-harvest", "Women harvesting maize in golden afternoon light", (s) => {
  sky(s, [
    [0, "#f6c177"],
    [0.5, "#fbe3b0"],
    [0.7, "#fff3d6"],
  ]);
  sun(s, 1320, 260, 70, "#fff8e0", "#ffd98a");
  hills(s, 540, 30, "#b9a7a0", { waves: 2 });
  hills(s, 590, 26, "#9c9a74");
  for (const x of [300, 760, 1180]) acacia(s, x, 620, s.r(60, 90), "#6b7a45");
  hills(
    s,
    640,
    14,
    s.lin([
      [0, "#c9a24f"],
      [1, "#9c7a34"],
    ]),
    { waves: 2 },
  );
  // Rows of maize receding into the distance.
  for (let row = 0; row < 5; row++) {
    const y = 660 + row * 60;
    const h = 120 + row * 70;
    const leaf = mix("#8aa14a", "#5f7d2e", row / 4);
    for (let x = -40 + (row % 2) * 45; x < s.w + 60; x += 70 + row * 26) {
      if (row >= 3 && x > 520 && x < 1150) continue;
      maize(s, x + s.r(-10, 10), y + s.r(-6, 6), h * s.r(0.9, 1.1), leaf, row > 1);
    }
  }
  s.add(
    path(
      "M480 1000 Q700 860 820 800 Q960 860 1200 1000 Z",
      s.lin([
        [0, "#c08a48"],
        [1, "#a5713a"],
      ]),
    ),
  );
  person(s, 700, 930, 260, {
    skin: SKIN.dark,
    top: "#e76f51",
    bottom: "#3d5a80",
    kind: "skirt",
    hair: "wrap",
    wrap: "#ffb703",
    carry: "head",
    carryColor: "#c8963e",
    pattern: "#ffb703",
  });
  person(s, 930, 960, 280, {
    skin: SKIN.brown,
    top: "#6a4c93",
    bottom: "#f4a261",
    kind: "dress",
    hair: "wrap",
    wrap: "#8ac926",
    arms: "forward",
    carry: "none",
    pattern: "#ffffff",
  });
  // A woven basket of cobs at her feet.
  s.add(path("M1010 960 L1130 960 L1115 905 L1025 905 Z", "#b07a3c"));
  for (let i = 0; i < 5; i++)
    s.add(ellipse(1035 + i * 18, 902, 10, 22, "#f2c94c", `transform="rotate(${-30 + i * 15} ${1035 + i * 18} 902)"`));
  for (let i = 0; i < 4; i++) s.add(line(1018 + i * 2, 918 + i * 12, 1122 - i * 2, 918 + i * 12, "#8a5a2b", 3));
  birds(s, 420, 200, 5, 14, "#6b4a3a");
});

picture("wheel/village-dusk", "Kilele at dusk, with windows lit by solar lamps under a starry sky", (s) => {
  sky(s, [
    [0, "#141a3a"],
    [0.45, "#3a2f6b"],
    [0.72, "#b05a7a"],
    [0.85, "#f19a6b"],
  ]);
  stars(s, 120, 520);
  s.add(circle(1300, 170, 46, "#fdf3d0"));
  s.add(circle(1320, 158, 44, "#1b2148"));
  kilimanjaro(s, 560, 690, 1100, 380, {
    body: "#3d3566",
    shadow: "#272148",
    snow: "#8e84b4",
    far: "#4c4277",
    haze: "#b05a7a",
  });
  hills(s, 700, 22, "#2e2a4f");
  for (const x of [120, 1180, 1500]) acacia(s, x, 730, s.r(90, 130), "#1f1d33", "#1a1828");
  hills(
    s,
    760,
    16,
    s.lin([
      [0, "#3a3050"],
      [1, "#1c1a2c"],
    ]),
    { waves: 2 },
  );
  const glowC = "#ffd27a";
  house(s, 360, 820, 300, 140, { wall: "#6d5a6e", roof: "#3c3449", trim: "#3a2f3f", windows: 2, windowGlow: glowC });
  glow(s, 425, 742, 120, glowC, 0.45);
  glow(s, 597, 742, 120, glowC, 0.45);
  house(s, 860, 850, 380, 170, { wall: "#7a6473", roof: "#443a52", trim: "#3a2f3f", windows: 3, windowGlow: glowC });
  for (const gx of [923, 1050, 1177]) glow(s, gx, 760, 130, glowC, 0.4);
  // Solar panels on the big roof.
  solarPanel(
    s,
    [
      [930, 666],
      [1130, 666],
      [1150, 700],
      [912, 700],
    ],
    4,
    2,
    false,
  );
  // A solar street lamp.
  s.add(line(1360, 930, 1360, 600, "#2a2538", 10));
  solarPanel(
    s,
    [
      [1322, 570],
      [1400, 570],
      [1408, 596],
      [1314, 596],
    ],
    3,
    1,
    false,
  );
  s.add(path("M1360 640 L1420 640 L1410 655 L1370 655 Z", "#2a2538"));
  glow(s, 1390, 665, 180, "#fff0b3", 0.55);
  s.add(path("M1370 655 L1410 655 L1470 930 L1310 930 Z", "#fff0b3", `opacity="0.07"`));
  s.add(
    rect(
      0,
      880,
      s.w,
      120,
      s.lin([
        [0, "#251f35"],
        [1, "#15121f"],
      ]),
    ),
  );
  // Neighbours chatting under the lamp.
  person(s, 1290, 960, 170, {
    skin: SKIN.brown,
    top: "#8d5a97",
    bottom: "#2b2d42",
    kind: "skirt",
    hair: "wrap",
    wrap: "#e07a5f",
  });
  person(s, 1460, 960, 185, { skin: SKIN.dark, top: "#457b9d", bottom: "#2b2d42", hair: "short", arms: "wave" });
  person(s, 1380, 975, 110, {
    skin: SKIN.warm,
    top: "#f4a261",
    bottom: "#2b2d42",
    kind: "shorts",
    hair: "short",
    carry: "book",
    carryColor: "#e9c46a",
    arms: "hold",
  });
  s.add(rect(0, 0, s.w, s.h, "#1b1340", `opacity="0.08"`));
});

picture("wheel/baobab-afternoon", "Children playing in the shade of a great baobab while goats graze nearby", (s) => {
  sky(s, [
    [0, "#3d8fd1"],
    [0.6, "#9fd0ef"],
    [0.75, "#e7f3f6"],
  ]);
  cloud(s, 320, 180, 1.1, "#ffffff", 0.85);
  cloud(s, 760, 110, 0.7, "#ffffff", 0.75);
  hills(s, 640, 18, "#a7b6a2", { waves: 2 });
  for (const x of [150, 520, 640, 880]) acacia(s, x, 665, s.r(50, 80), "#6f8d52");
  hills(
    s,
    690,
    12,
    s.lin([
      [0, "#d8b36a"],
      [1, "#c08a47"],
    ]),
    { waves: 2 },
  );
  s.add(ellipse(1200, 880, 420, 60, "#7a5a33", `opacity="0.35"`));
  baobab(s, 1200, 880, 700, "#8d7a6a", "#6d8f3e");
  goat(s, 330, 900, 1.3, "#f3efe6", 1);
  goat(s, 520, 860, 1.0, "#6b4a3a", -1);
  goat(s, 180, 830, 0.8, "#3b302a", 1);
  grass(s, 720, 1000, 80, "#9a6e38", 20);
  person(s, 1000, 900, 170, {
    skin: SKIN.deep,
    top: "#e63946",
    bottom: "#1d3557",
    kind: "shorts",
    hair: "short",
    arms: "up",
  });
  person(s, 1120, 920, 160, {
    skin: SKIN.brown,
    top: "#ffb703",
    bottom: "#2a9d8f",
    kind: "dress",
    hair: "puff",
    arms: "wave",
  });
  person(s, 1360, 930, 175, {
    skin: SKIN.warm,
    top: "#8ecae6",
    bottom: "#023047",
    kind: "shorts",
    hair: "short",
    arms: "up",
  });
  // The ball in the air.
  s.add(circle(950, 560, 26, "#ffffff"));
  s.add(path("M950 542 L965 553 L959 571 L941 571 L935 553 Z", "#222222"));
});
// ---- Projects --------------------------------------------------------------

picture(
  "projects/clean-water-borehole",
  "Women filling jerrycans at the blue hand pump of the village borehole",
  (s) => {
    sky(s, [
      [0, "#4b9fe0"],
      [0.6, "#a8d8f5"],
      [0.72, "#e8f6fb"],
    ]);
    cloud(s, 1050, 120, 1.2);
    cloud(s, 200, 200, 0.8, "#ffffff", 0.8);
    hills(s, 580, 28, "#9fb48a", { waves: 2 });
    for (const x of [120, 400, 1500]) acacia(s, x, 610, s.r(70, 100), "#5b7f43");
    hills(
      s,
      630,
      14,
      s.lin([
        [0, "#d9b06c"],
        [1, "#c48f4f"],
      ]),
      { waves: 2 },
    );
    acacia(s, 1330, 790, 430, "#5f8a3f");
    roundHut(s, 240, 690, 150);
    roundHut(s, 1080, 680, 110, "#b97a4c", "#c9a25a");
    handPump(s, 760, 870, 1.25);
    // Water splashing from the spout into a yellow jerrycan.
    s.add(path("M868 700 Q874 760 872 790 L884 790 Q884 760 880 700 Z", "#8fd0f5", `opacity="0.9"`));
    jerrycan(s, 878, 860, 1.4, "#f2c230");
    person(s, 560, 900, 300, {
      skin: SKIN.dark,
      top: "#d62839",
      bottom: "#1b4965",
      kind: "skirt",
      hair: "wrap",
      wrap: "#ffb703",
      arms: "up",
      pattern: "#ffb703",
    });
    person(s, 1040, 930, 290, {
      skin: SKIN.brown,
      top: "#2a9d8f",
      bottom: "#e9c46a",
      kind: "dress",
      hair: "wrap",
      wrap: "#e76f51",
      carry: "jerrycan",
      carryColor: "#f2c230",
      pattern: "#264653",
    });
    person(s, 1200, 960, 190, {
      skin: SKIN.deep,
      top: "#f1faee",
      bottom: "#457b9d",
      kind: "shorts",
      hair: "short",
      carry: "jerrycan",
      carryColor: "#43aa8b",
    });
    person(s, 360, 950, 210, {
      skin: SKIN.warm,
      top: "#ff9f1c",
      bottom: "#5f0f40",
      kind: "skirt",
      hair: "puff",
      carry: "head",
      carryColor: "#4cc9f0",
    });
    jerrycan(s, 660, 960, 1.1, "#43aa8b");
    jerrycan(s, 720, 975, 1.1, "#f2c230");
    grass(s, 880, 1000, 40, "#8d6a3a", 18);
  },
);

picture(
  "projects/classroom-block",
  "Pupils at wooden desks facing the teacher and a chalkboard in a bright new classroom",
  (s) => {
    // Walls: cream above, a painted band below, as in many Tanzanian schools.
    s.add(
      rect(
        0,
        0,
        s.w,
        640,
        s.lin([
          [0, "#f6ead2"],
          [1, "#efdcb8"],
        ]),
      ),
    );
    s.add(rect(0, 470, s.w, 170, "#4f8f8a"));
    s.add(rect(0, 462, s.w, 10, "#3b6f6b"));
    s.add(
      rect(
        0,
        640,
        s.w,
        360,
        s.lin([
          [0, "#b9a48c"],
          [1, "#8f7a64"],
        ]),
      ),
    );
    s.add(rect(0, 636, s.w, 8, "#6f5d4c"));
    // Windows with sunlight falling across the floor.
    for (const wx of [70, 1310]) {
      s.add(rect(wx - 12, 130, 244, 310, "#8a6a48"));
      s.add(
        rect(
          wx,
          142,
          220,
          286,
          s.lin([
            [0, "#8fd0f5"],
            [0.7, "#cfeefa"],
            [0.71, "#7fb069"],
            [1, "#5f8f4f"],
          ]),
        ),
      );
      s.add(line(wx + 110, 142, wx + 110, 428, "#8a6a48", 8));
      s.add(line(wx, 285, wx + 220, 285, "#8a6a48", 8));
    }
    s.add(
      poly(
        [
          [70, 428],
          [290, 428],
          [560, 1000],
          [120, 1000],
        ],
        "#fff6d8",
        `opacity="0.18"`,
      ),
    );
    s.add(
      poly(
        [
          [1310, 428],
          [1530, 428],
          [1480, 1000],
          [1040, 1000],
        ],
        "#fff6d8",
        `opacity="0.18"`,
      ),
    );
    // Chalkboard with a lesson on it.
    s.add(rect(420, 120, 760, 330, "#6b4a2e"));
    s.add(
      rect(
        436,
        136,
        728,
        298,
        s.lin([
          [0, "#2f5d50"],
          [1, "#244a40"],
        ]),
      ),
    );
    const chalk = "#f4f1e6";
    s.add(circle(560, 230, 46, "none", `stroke="${chalk}" stroke-width="5"`));
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      s.add(
        line(560 + Math.cos(a) * 58, 230 + Math.sin(a) * 58, 560 + Math.cos(a) * 78, 230 + Math.sin(a) * 78, chalk, 5),
      );
    }
    s.add(stroke("M480 380 L560 300 L640 380 Z", chalk, 5));
    for (let row = 0; row < 4; row++) {
      let x = 700;
      while (x < 1120) {
        const w = s.r(30, 90);
        s.add(
          stroke(
            `M${f(x)} ${f(190 + row * 55)} q${f(w / 4)} -10 ${f(w / 2)} 0 t${f(w / 2)} 0`,
            chalk,
            4.5,
            `opacity="0.9"`,
          ),
        );
        x += w + 24;
      }
    }
    s.add(rect(430, 450, 740, 14, "#6b4a2e"));
    // The teacher points at the board.
    person(s, 1230, 640, 330, { skin: SKIN.brown, top: "#f4f1de", bottom: "#3d405b", hair: "short", arms: "wave" });
    s.add(line(1268, 293, 1170, 250, "#6b4a2e", 5));
    // Rows of desks and children, from the back of the room to the front.
    const kids = [
      { skin: SKIN.dark, shirt: "#ffffff", hair: HAIR.black, style: "short" as const },
      { skin: SKIN.brown, shirt: "#ffffff", hair: HAIR.black, style: "puffs" as const },
      { skin: SKIN.deep, shirt: "#ffffff", hair: HAIR.black, style: "braids" as const },
      { skin: SKIN.warm, shirt: "#ffffff", hair: HAIR.black, style: "short" as const },
    ];
    const rows = [
      { y: 720, k: 0.55, xs: [330, 560, 1000, 1230] },
      { y: 830, k: 0.75, xs: [240, 530, 1040, 1330] },
      { y: 990, k: 1.0, xs: [130, 490, 1090, 1450] },
    ];
    for (const row of rows) {
      for (let i = 0; i < row.xs.length; i += 2) {
        const x0 = row.xs[i]!;
        const x1 = row.xs[i + 1]!;
        desk(s, (x0 + x1) / 2, row.y - 30 * row.k, x1 - x0 + 160 * row.k, row.k);
      }
      row.xs.forEach((x, i) => {
        const kid = kids[(i + row.y) % kids.length]!;
        childFromBehind(s, x, row.y + 10 * row.k, row.k * 1.6, kid);
      });
    }
  },
);

picture(
  "projects/maternity-clinic",
  "Mothers with babies outside the white maternity clinic with a nurse at the door",
  (s) => {
    sky(s, [
      [0, "#6cb6e8"],
      [0.6, "#bfe3f6"],
      [0.7, "#eef8fc"],
    ]);
    cloud(s, 120, 110, 1.0);
    cloud(s, 1200, 160, 1.3, "#ffffff", 0.85);
    hills(s, 560, 24, "#9cbf8f", { waves: 2 });
    hills(
      s,
      620,
      12,
      s.lin([
        [0, "#9cc27a"],
        [1, "#6d9a4f"],
      ]),
      { waves: 2 },
    );
    waterTank(s, 1350, 720, 130, 170, "#2f6f9f");
    const { roofTop } = house(s, 300, 760, 1000, 260, {
      wall: "#f7f5ef",
      roof: "#2c7a7b",
      trim: "#2c7a7b",
      windows: 4,
    });
    s.add(rect(300, 560, 1000, 22, "#2c9a9b", `opacity="0.85"`));
    // The sign: a red cross beside a heart.
    s.add(rrect(690, roofTop - 40, 220, 90, 12, "#ffffff", `stroke="#2c7a7b" stroke-width="6"`));
    s.add(rect(722, roofTop - 20, 50, 16, "#d62828"));
    s.add(rect(739, roofTop - 37, 16, 50, "#d62828"));
    s.add(
      path(
        `M850 ${roofTop + 22} C810 ${roofTop - 2} 812 ${roofTop - 32} 835 ${roofTop - 30} C844 ${roofTop - 30} 850 ${roofTop - 22} 850 ${roofTop - 18} C850 ${roofTop - 22} 856 ${roofTop - 30} 865 ${roofTop - 30} C888 ${roofTop - 32} 890 ${roofTop - 2} 850 ${roofTop + 22} Z`,
        "#e76f51",
      ),
    );
    // Veranda posts.
    for (const px of [330, 1270]) s.add(rect(px - 8, 500, 16, 260, "#e9e5da"));
    // Bougainvillea by the wall.
    bush(s, 250, 770, 60, "#4f7f3a");
    for (let i = 0; i < 30; i++)
      s.add(circle(250 + s.r(-80, 80), 720 + s.r(-60, 40), s.r(6, 12), s.pick(["#e0218a", "#f15bb5", "#c9184a"])));
    s.add(
      rect(
        0,
        760,
        s.w,
        240,
        s.lin([
          [0, "#c99a5b"],
          [1, "#a9763f"],
        ]),
      ),
    );
    s.add(path("M640 760 L960 760 L1100 1000 L520 1000 Z", "#d8b27a"));
    person(s, 800, 820, 270, {
      skin: SKIN.warm,
      top: "#ffffff",
      bottom: "#ffffff",
      kind: "dress",
      hair: "cap",
      wrap: "#ffffff",
      arms: "wave",
    });
    s.add(rect(786, 610, 28, 8, "#4aa3df"));
    const mothers: [number, number, PersonOpts, string][] = [
      [
        520,
        960,
        {
          skin: SKIN.dark,
          top: "#7209b7",
          bottom: "#f72585",
          kind: "dress",
          hair: "wrap",
          wrap: "#ffd166",
          pattern: "#ffd166",
        },
        "#ffd166",
      ],
      [
        1080,
        980,
        {
          skin: SKIN.brown,
          top: "#06d6a0",
          bottom: "#118ab2",
          kind: "skirt",
          hair: "wrap",
          wrap: "#ef476f",
          pattern: "#ffffff",
        },
        "#ef476f",
      ],
      [
        1260,
        940,
        {
          skin: SKIN.deep,
          top: "#fb8500",
          bottom: "#023047",
          kind: "skirt",
          hair: "wrap",
          wrap: "#8ecae6",
          pattern: "#8ecae6",
        },
        "#8ecae6",
      ],
    ];
    for (const [x, y, o, sling] of mothers) {
      const h = 290;
      person(s, x, y, h, { ...o, arms: "hold" });
      // A baby tied on the front in a bright kanga.
      const u = h / 100;
      s.add(ellipse(x, y - 64 * u, 11 * u, 9 * u, sling));
      s.add(circle(x - 2 * u, y - 73 * u, 4.4 * u, shade(o.skin, -0.05)));
      s.add(
        path(
          `M${f(x - 6.5 * u)} ${f(y - 75 * u)} Q${f(x - 2 * u)} ${f(y - 80 * u)} ${f(x + 2.5 * u)} ${f(y - 75 * u)} Z`,
          "#ffffff",
          `opacity="0.9"`,
        ),
      );
    }
    grass(s, 790, 1000, 30, "#7a5a33", 16);
  },
);

picture("projects/solar-lighting", "A technician fitting solar panels to a tin roof in bright sunshine", (s) => {
  sky(s, [
    [0, "#2f80d1"],
    [0.7, "#8fc9f0"],
  ]);
  sun(s, 1380, 150, 80, "#fff9db", "#fff1a8");
  cloud(s, 160, 120, 1.0);
  hills(s, 700, 20, "#8fb67a", { waves: 2 });
  roundHut(s, 160, 760, 120);
  roundHut(s, 1460, 770, 140, "#b97a4c");
  hills(
    s,
    760,
    10,
    s.lin([
      [0, "#cfa567"],
      [1, "#a97c45"],
    ]),
    { waves: 2 },
  );
  // A big house with a long sloping roof.
  s.add(ellipse(820, 905, 620, 30, "#000000", `opacity="0.16"`));
  s.add(
    rect(
      300,
      620,
      1040,
      280,
      s.lin([
        [0, "#f0d9b5"],
        [1, "#d9bf98"],
      ]),
    ),
  );
  for (const wx of [420, 1100]) {
    s.add(rect(wx - 6, 700, 132, 112, "#6d4c41"));
    s.add(
      rect(
        wx,
        706,
        120,
        100,
        s.lin([
          [0, "#4d7391"],
          [1, "#2c4660"],
        ]),
      ),
    );
    s.add(line(wx + 60, 706, wx + 60, 806, "#6d4c41", 5));
  }
  s.add(rect(760, 690, 120, 210, "#6d4c41"));
  s.add(
    poly(
      [
        [240, 630],
        [470, 330],
        [1170, 330],
        [1400, 630],
      ],
      s.lin([
        [0, "#aab3bb"],
        [1, "#7d8790"],
      ]),
    ),
  );
  for (let i = 0; i <= 24; i++) {
    const t = i / 24;
    s.add(line(240 + 1160 * t, 630, 470 + 700 * t, 330, "#6c757d", 3, `opacity="0.5"`));
  }
  s.add(rect(228, 626, 1184, 16, "#5f6870"));
  // Three panels, the last still being fitted.
  solarPanel(
    s,
    [
      [520, 380],
      [700, 380],
      [680, 560],
      [470, 560],
    ],
    4,
    6,
  );
  solarPanel(
    s,
    [
      [730, 380],
      [910, 380],
      [910, 560],
      [710, 560],
    ],
    4,
    6,
  );
  solarPanel(
    s,
    [
      [940, 380],
      [1120, 380],
      [1140, 560],
      [940, 560],
    ],
    4,
    6,
  );
  // Ladder and technician.
  s.add(line(1250, 900, 1300, 520, "#c08a3e", 12));
  s.add(line(1340, 900, 1390, 520, "#c08a3e", 12));
  for (let i = 1; i < 10; i++) s.add(line(1250 + i * 5, 900 - i * 38, 1340 + i * 5, 900 - i * 38, "#c08a3e", 8));
  person(s, 1318, 786, 290, {
    skin: SKIN.dark,
    top: "#f77f00",
    bottom: "#1d3557",
    hair: "cap",
    wrap: "#fcbf49",
    arms: "up",
  });
  s.add(rect(1296, 614, 44, 12, "#1d3557"));
  // Cable run down the wall to a lamp by the door.
  s.add(stroke("M1130 560 Q1180 600 1180 640 L1180 700 L880 700", "#222222", 4));
  s.add(rrect(810, 660, 20, 30, 6, "#fff3b0"));
  s.add(
    rect(
      0,
      900,
      s.w,
      100,
      s.lin([
        [0, "#b88a52"],
        [1, "#946a3a"],
      ]),
    ),
  );
  person(s, 560, 980, 170, {
    skin: SKIN.brown,
    top: "#90be6d",
    bottom: "#277da1",
    kind: "shorts",
    hair: "short",
    arms: "wave",
  });
  person(s, 660, 990, 150, {
    skin: SKIN.warm,
    top: "#f94144",
    bottom: "#577590",
    kind: "dress",
    hair: "puff",
    arms: "up",
  });
});

picture("projects/school-meals-garden", "Children watering rows of vegetables in the school garden", (s) => {
  sky(s, [
    [0, "#76c3ea"],
    [0.55, "#d3eef8"],
  ]);
  cloud(s, 1150, 90, 1.1);
  hills(s, 420, 26, "#9dbb86", { waves: 2 });
  house(s, 360, 470, 880, 150, { wall: "#f2e3c6", roof: "#b5543c", roofStyle: "tile", windows: 5, door: false });
  tanzaniaFlag(s, 1320, 210, 90);
  s.add(
    rect(
      0,
      470,
      s.w,
      530,
      s.lin([
        [0, "#a1773f"],
        [1, "#7d5630"],
      ]),
    ),
  );
  // A fence of sticks behind the garden.
  for (let x = 0; x < s.w; x += 40) s.add(line(x, 470, x + 4, 530, "#6b4a2e", 6));
  s.add(line(0, 492, s.w, 496, "#6b4a2e", 4));
  s.add(line(0, 516, s.w, 520, "#6b4a2e", 4));
  // Raised beds in perspective.
  const beds = 6;
  for (let i = 0; i < beds; i++) {
    const y0 = 560 + i * i * 13 + i * 12;
    const y1 = y0 + 26 + i * 14;
    s.add(path(`M-20 ${y1} L${s.w + 20} ${y1} L${s.w + 20} ${y0} L-20 ${y0} Z`, i % 2 ? "#5b3a22" : "#66432a"));
    const k = 0.35 + i * 0.16;
    for (let x = 20 + (i % 2) * 30; x < s.w; x += 90 * k + 20) {
      const crop = (i + Math.round(x / 100)) % 3;
      if (crop === 0) {
        // Cabbage.
        s.add(circle(x, y0 + 2, 26 * k, "#7fb069"));
        s.add(circle(x, y0 - 2, 15 * k, "#b5d99c"));
      } else if (crop === 1) {
        // Leafy greens.
        for (const a of [-40, -15, 15, 40])
          s.add(
            ellipse(
              x + a * 0.4 * k,
              y0 - 16 * k,
              9 * k,
              24 * k,
              a % 2 ? "#2d6a4f" : "#40916c",
              `transform="rotate(${a} ${f(x)} ${f(y0)})"`,
            ),
          );
      } else {
        // Tomatoes on a stake.
        s.add(line(x, y0, x, y0 - 70 * k, "#8d6e4c", 3 * k));
        for (let j = 0; j < 4; j++)
          s.add(ellipse(x + (j % 2 ? 10 : -10) * k, y0 - (15 + j * 14) * k, 13 * k, 7 * k, "#52b788"));
        s.add(circle(x + 6 * k, y0 - 24 * k, 7 * k, "#e63946"));
        s.add(circle(x - 7 * k, y0 - 44 * k, 6 * k, "#f77f00"));
      }
    }
  }
  person(s, 420, 930, 260, {
    skin: SKIN.brown,
    top: "#ffffff",
    bottom: "#2b6cb0",
    kind: "skirt",
    hair: "puff",
    carry: "can",
    carryColor: "#2a9d8f",
    arms: "forward",
  });
  s.add(line(545, 680, 580, 760, "#8fd0f5", 3, `stroke-dasharray="6 10" opacity="0.9"`));
  s.add(line(555, 676, 600, 750, "#8fd0f5", 3, `stroke-dasharray="6 10" opacity="0.9"`));
  person(s, 1000, 960, 280, {
    skin: SKIN.deep,
    top: "#ffffff",
    bottom: "#2b6cb0",
    kind: "shorts",
    hair: "short",
    carry: "can",
    carryColor: "#f4a261",
    arms: "forward",
  });
  person(s, 1230, 900, 230, {
    skin: SKIN.warm,
    top: "#ffffff",
    bottom: "#2b6cb0",
    kind: "skirt",
    hair: "bun",
    arms: "wave",
  });
  bucket(s, 760, 940, 1.4, "#e76f51");
});
picture(
  "projects/girls-secondary-bursaries",
  "Secondary school girls in uniform carrying books outside their school",
  (s) => {
    sky(s, [
      [0, "#8ab6e8"],
      [0.5, "#f3d7e0"],
      [0.68, "#fde9d4"],
    ]);
    cloud(s, 300, 100, 1.1, "#ffffff", 0.8);
    hills(s, 520, 22, "#a4b6a0", { waves: 2 });
    // A two-storey school block with a walkway.
    s.add(ellipse(800, 690, 640, 26, "#000000", `opacity="0.15"`));
    s.add(
      rect(
        220,
        300,
        1160,
        390,
        s.lin([
          [0, "#f7efe1"],
          [1, "#e8dcc6"],
        ]),
      ),
    );
    s.add(rect(220, 470, 1160, 24, "#7d4f50"));
    s.add(
      poly(
        [
          [190, 305],
          [300, 230],
          [1300, 230],
          [1410, 305],
        ],
        s.lin([
          [0, "#9c4a3c"],
          [1, "#7a3329"],
        ]),
      ),
    );
    for (let i = 0; i < 8; i++) {
      const wx = 270 + i * 140;
      s.add(rect(wx, 340, 90, 100, "#6a8caf"));
      s.add(rect(wx, 340, 90, 100, "none", `stroke="#7d4f50" stroke-width="6"`));
      if (i === 3 || i === 4) continue;
      s.add(rect(wx, 530, 90, 110, "#6a8caf"));
      s.add(rect(wx, 530, 90, 110, "none", `stroke="#7d4f50" stroke-width="6"`));
    }
    s.add(rect(700, 520, 200, 170, "#5c3b3c"));
    s.add(rect(704, 524, 94, 166, "#7d4f50"));
    s.add(rect(802, 524, 94, 166, "#734647"));
    tanzaniaFlag(s, 1460, 250, 100);
    s.add(
      rect(
        0,
        690,
        s.w,
        310,
        s.lin([
          [0, "#cfa56a"],
          [1, "#b4864f"],
        ]),
      ),
    );
    s.add(path("M640 690 L960 690 L1180 1000 L420 1000 Z", "#e2c393"));
    bush(s, 120, 700, 50, "#4f7f3a");
    bush(s, 1550, 700, 60, "#4f7f3a");
    const girls: [number, number, number, PersonOpts][] = [
      [
        360,
        880,
        300,
        {
          skin: SKIN.deep,
          top: "#ffffff",
          bottom: "#2a6f4e",
          kind: "skirt",
          hair: "short",
          carry: "book",
          carryColor: "#e63946",
          arms: "hold",
        },
      ],
      [
        620,
        940,
        320,
        {
          skin: SKIN.brown,
          top: "#ffffff",
          bottom: "#2a6f4e",
          kind: "skirt",
          hair: "bun",
          arms: "wave",
          carry: "bag",
          carryColor: "#ffb703",
        },
      ],
      [
        900,
        960,
        330,
        {
          skin: SKIN.dark,
          top: "#ffffff",
          bottom: "#2a6f4e",
          kind: "skirt",
          hair: "puff",
          carry: "book",
          carryColor: "#3a86ff",
          arms: "hold",
        },
      ],
      [
        1180,
        920,
        310,
        {
          skin: SKIN.warm,
          top: "#ffffff",
          bottom: "#2a6f4e",
          kind: "skirt",
          hair: "short",
          carry: "bag",
          carryColor: "#8338ec",
        },
      ],
    ];
    for (const [x, y, h, o] of girls) {
      person(s, x, y, h, o);
      const u = h / 100;
      // School tie.
      s.add(
        path(
          `M${f(x - 1.6 * u)} ${f(y - 83 * u)} L${f(x + 1.6 * u)} ${f(y - 83 * u)} L${f(x + 2.2 * u)} ${f(y - 64 * u)} L${f(x)} ${f(y - 61 * u)} L${f(x - 2.2 * u)} ${f(y - 64 * u)} Z`,
          "#2a6f4e",
        ),
      );
    }
  },
);

picture("projects/village-library", "Children reading on a mat in front of full, colourful library shelves", (s) => {
  s.add(
    rect(
      0,
      0,
      s.w,
      700,
      s.lin([
        [0, "#f3e3c3"],
        [1, "#e8d2a8"],
      ]),
    ),
  );
  s.add(
    rect(
      0,
      700,
      s.w,
      300,
      s.lin([
        [0, "#b07a4a"],
        [1, "#8c5c35"],
      ]),
    ),
  );
  for (let x = -40; x < s.w; x += 120) s.add(line(x, 700, x - 60, 1000, "#7a4f2c", 3, `opacity="0.4"`));
  // A window with a view of the hills.
  s.add(rect(1250, 110, 290, 320, "#6e4b2e"));
  s.add(
    rect(
      1264,
      124,
      262,
      292,
      s.lin([
        [0, "#8fd0f5"],
        [0.6, "#d6f0fb"],
        [0.61, "#8fbf6a"],
        [1, "#6b9f4f"],
      ]),
    ),
  );
  s.add(line(1395, 124, 1395, 416, "#6e4b2e", 8));
  s.add(
    poly(
      [
        [1264, 416],
        [1526, 416],
        [1400, 1000],
        [900, 1000],
      ],
      "#fff5d6",
      `opacity="0.16"`,
    ),
  );
  // Shelves.
  const palette = [
    "#e63946",
    "#f4a261",
    "#2a9d8f",
    "#264653",
    "#e9c46a",
    "#8338ec",
    "#3a86ff",
    "#ff006e",
    "#06d6a0",
    "#fb5607",
    "#118ab2",
    "#6a4c93",
  ];
  for (const [sx, sw] of [
    [60, 520],
    [620, 560],
  ] as const) {
    s.add(rect(sx - 20, 70, sw + 40, 660, "#7a4b2a"));
    s.add(rect(sx, 90, sw, 620, "#5a351c"));
    for (let shelf = 0; shelf < 4; shelf++) {
      const y = 240 + shelf * 155;
      bookRow(s, sx + 8, y - 4, sw - 16, 130, palette);
      s.add(rect(sx - 20, y - 4, sw + 40, 20, "#8a5a32"));
    }
  }
  // A woven mat and three readers.
  s.add(path("M250 980 L1350 980 L1250 780 L350 780 Z", "#d9b26f"));
  for (let i = 0; i < 10; i++)
    s.add(line(350 - i * 10, 780 + i * 20, 1250 + i * 10, 780 + i * 20, "#b88b45", 3, `opacity="0.6"`));
  seatedReader(s, 520, 930, 1.5, {
    skin: SKIN.dark,
    top: "#ef476f",
    bottom: "#073b4c",
    hair: HAIR.black,
    style: "puff",
    book: "#118ab2",
  });
  seatedReader(s, 860, 880, 1.35, {
    skin: SKIN.brown,
    top: "#ffd166",
    bottom: "#3d405b",
    hair: HAIR.black,
    style: "short",
    book: "#e63946",
  });
  seatedReader(s, 1160, 940, 1.5, {
    skin: SKIN.deep,
    top: "#06d6a0",
    bottom: "#5f0f40",
    hair: "#7b2cbf",
    style: "wrap",
    book: "#f4a261",
  });
  // A small pile of books on the floor.
  for (let i = 0; i < 4; i++) s.add(rrect(1380 - i * 4, 950 - i * 24, 150, 22, 3, palette[(i * 3) % palette.length]!));
});

picture("projects/football-pitch", "Children playing football on a dusty village pitch below the mountain", (s) => {
  sky(s, [
    [0, "#5aa9e6"],
    [0.5, "#bfe1f6"],
    [0.6, "#f0f8fc"],
  ]);
  kilimanjaro(s, 420, 470, 900, 300, {
    body: "#7e93b5",
    shadow: "#5b6f96",
    snow: "#f7fbff",
    far: "#98aac6",
    haze: "#e6f2fa",
  });
  cloud(s, 1050, 120, 1.2);
  hills(s, 470, 16, "#92b07a", { waves: 2 });
  for (const x of [60, 1250, 1500]) acacia(s, x, 500, s.r(80, 120), "#4f7a3a");
  s.add(
    rect(
      0,
      500,
      s.w,
      500,
      s.lin([
        [0, "#c99a58"],
        [1, "#b07e43"],
      ]),
    ),
  );
  // The pitch markings in perspective.
  const chalk = "#f8f3e6";
  s.add(
    poly(
      [
        [330, 560],
        [1270, 560],
        [1560, 960],
        [40, 960],
      ],
      "#c28e4d",
    ),
  );
  s.add(stroke("M330 560 L1270 560 L1560 960 L40 960 Z", chalk, 5));
  s.add(line(800, 560, 800, 960, chalk, 5));
  s.add(ellipse(800, 740, 170, 48, "none", `stroke="${chalk}" stroke-width="5"`));
  s.add(stroke("M120 640 L320 640 L280 900 L60 900", chalk, 4, `opacity="0.8"`));
  // Goal with net on the left.
  s.add(rect(140, 520, 12, 200, "#ffffff"));
  s.add(rect(330, 540, 10, 150, "#ffffff"));
  s.add(line(140, 522, 340, 542, "#ffffff", 10));
  for (let i = 1; i < 8; i++)
    s.add(line(140 + i * 25, 522 + i * 2.5, 152 + i * 23, 720 - i * 4, "#ffffff", 1.5, `opacity="0.5"`));
  for (let j = 1; j < 7; j++) s.add(line(146, 520 + j * 28, 335, 540 + j * 21, "#ffffff", 1.5, `opacity="0.5"`));
  // Spectators under the acacia on the right.
  acacia(s, 1440, 620, 260, "#5b8a40");
  for (const [x, c] of [
    [1330, "#e63946"],
    [1390, "#ffb703"],
    [1450, "#2a9d8f"],
    [1510, "#8338ec"],
  ] as const)
    person(s, x, 620, 95, {
      skin: s.pick(Object.values(SKIN).slice(0, 5)),
      top: c,
      bottom: "#2b2d42",
      hair: s.pick(["short", "wrap", "puff"] as const),
      wrap: "#f4a261",
      arms: s.r() < 0.5 ? "up" : "down",
    });
  const players: [number, number, number, string, "up" | "down" | "wave" | "forward"][] = [
    [520, 800, 220, "#e63946", "wave"],
    [700, 900, 260, "#ffd166", "forward"],
    [980, 830, 230, "#e63946", "down"],
    [1150, 700, 170, "#ffd166", "up"],
    [370, 690, 160, "#ffd166", "down"],
    [860, 660, 140, "#e63946", "wave"],
  ];
  players.forEach(([x, y, h, c, arms], i) =>
    person(s, x, y, h, {
      skin: [SKIN.deep, SKIN.brown, SKIN.dark, SKIN.warm][i % 4]!,
      top: c,
      bottom: "#1d3557",
      kind: "shorts",
      hair: i % 3 === 1 ? "puff" : "short",
      arms,
    }),
  );
  s.add(circle(790, 890, 24, "#ffffff"));
  s.add(path("M790 874 L804 884 L798 900 L782 900 L776 884 Z", "#222222"));
  s.add(ellipse(794, 916, 22, 5, "#000000", `opacity="0.2"`));
});

picture(
  "projects/tailoring-cooperative",
  "Women of the tailoring co-operative sewing at treadle machines under colourful fabrics",
  (s) => {
    s.add(
      rect(
        0,
        0,
        s.w,
        720,
        s.lin([
          [0, "#f7d9a8"],
          [1, "#f0c58a"],
        ]),
      ),
    );
    s.add(
      rect(
        0,
        720,
        s.w,
        280,
        s.lin([
          [0, "#b5835a"],
          [1, "#8f6240"],
        ]),
      ),
    );
    // Bolts of kitenge fabric hanging from a line across the room.
    s.add(line(0, 90, s.w, 90, "#6b4a2e", 6));
    const fabrics = [
      ["#e63946", "#ffd166"],
      ["#2a9d8f", "#f4a261"],
      ["#6a4c93", "#8ac926"],
      ["#ff6d00", "#023e8a"],
      ["#118ab2", "#ffd166"],
      ["#d62828", "#003049"],
      ["#38b000", "#ffbe0b"],
    ] as const;
    fabrics.forEach(([a, b], i) => {
      const x = 40 + i * 225;
      const h = 220 + (i % 3) * 40;
      const pid = s.id("p");
      const motif =
        i % 3 === 0
          ? `<circle cx="20" cy="20" r="12" fill="${b}"/><circle cx="20" cy="20" r="5" fill="${a}"/>`
          : i % 3 === 1
            ? `<path d="M0 20 L20 0 L40 20 L20 40 Z" fill="${b}"/>`
            : `<rect x="0" y="0" width="20" height="40" fill="${b}"/>`;
      s.def(
        `<pattern id="${pid}" width="40" height="40" patternUnits="userSpaceOnUse"><rect width="40" height="40" fill="${a}"/>${motif}</pattern>`,
      );
      s.add(
        path(`M${x} 86 L${x + 170} 86 L${x + 165} ${86 + h} Q${x + 85} ${96 + h} ${x + 5} ${86 + h} Z`, `url(#${pid})`),
      );
      s.add(
        path(
          `M${x} 86 L${x + 170} 86 L${x + 165} ${86 + h} Q${x + 85} ${96 + h} ${x + 5} ${86 + h} Z`,
          s.lin(
            [
              [0, "#000000", 0],
              [1, "#000000", 0.15],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
      );
    });
    // A shelf of folded cloth and finished school uniforms on a rail.
    s.add(rect(1380, 420, 200, 12, "#6b4a2e"));
    for (let i = 0; i < 5; i++)
      s.add(
        rrect(
          1390 + (i % 2) * 6,
          370 - i * 0 + 0,
          180,
          46,
          6,
          ["#e9c46a", "#2a9d8f", "#e76f51", "#264653", "#f4a261"][i]!,
          `transform="translate(0 ${-i * 46})" opacity="0.95"`,
        ),
      );
    // Three women working at tables.
    const workers: [number, string, PersonOpts][] = [
      [
        330,
        "#8b5e3c",
        { skin: SKIN.dark, top: "#f72585", bottom: "#3a0ca3", hair: "wrap", wrap: "#4cc9f0", arms: "forward" },
      ],
      [
        800,
        "#7f5539",
        { skin: SKIN.brown, top: "#ffbe0b", bottom: "#3a0ca3", hair: "wrap", wrap: "#fb5607", arms: "forward" },
      ],
      [1260, "#8b5e3c", { skin: SKIN.deep, top: "#06d6a0", bottom: "#3a0ca3", hair: "puff", arms: "forward" }],
    ];
    for (const [x, wood, o] of workers) {
      person(s, x - 50, 900, 470, o);
      s.add(rect(x - 220, 660, 440, 26, wood));
      s.add(rect(x - 210, 686, 420, 200, shade(wood, 0.25)));
      s.add(rect(x - 200, 700, 400, 10, shade(wood, 0.4)));
      sewingMachine(s, x + 110, 662, 1.0);
      // Cloth running through the machine.
      s.add(
        path(
          `M${x - 150} 662 L${x + 150} 662 L${x + 170} 700 L${x - 140} 720 Z`,
          o.hair === "wrap" ? (o.wrap ?? "#fff") : "#e76f51",
          `opacity="0.95"`,
        ),
      );
      // The treadle.
      s.add(rect(x - 120, 860, 240, 24, "#333333"));
    }
  },
);

picture(
  "projects/rainwater-harvesting",
  "Rain running from a school roof through gutters into large water tanks",
  (s) => {
    sky(s, [
      [0, "#5d6f86"],
      [0.5, "#90a4ba"],
      [0.7, "#c5d3df"],
    ]);
    for (const [x, y, k] of [
      [-60, 40, 2.2],
      [420, 0, 2.6],
      [900, 40, 2.3],
      [1300, 0, 2],
    ] as const)
      cloud(s, x, y, k, "#6b7d93", 0.95);
    for (const [x, y, k] of [
      [150, 90, 1.6],
      [700, 80, 1.8],
      [1150, 110, 1.5],
    ] as const)
      cloud(s, x, y, k, "#7f91a6", 0.9);
    hills(s, 560, 24, "#6f8f6a", { waves: 2 });
    s.add(
      rect(
        0,
        640,
        s.w,
        360,
        s.lin([
          [0, "#7a9a55"],
          [1, "#4f7434"],
        ]),
      ),
    );
    const { roofPts } = house(s, 200, 760, 820, 220, { wall: "#efe4cf", roof: "#8f99a3", windows: 3 });
    // Gutter and downpipes.
    s.add(rect(roofPts[0][0] - 10, roofPts[0][1] - 4, roofPts[3][0] - roofPts[0][0] + 60, 18, "#3d5a80"));
    s.add(stroke(`M${roofPts[3][0] + 40} ${roofPts[3][1] + 10} L${roofPts[3][0] + 40} 560 L1150 560`, "#3d5a80", 16));
    s.add(stroke("M1150 560 L1420 560", "#3d5a80", 16));
    waterTank(s, 1180, 800, 180, 260, "#2e7d32");
    waterTank(s, 1420, 800, 180, 260, "#1565c0");
    s.add(line(1150, 560, 1150, 540, "#3d5a80", 16));
    // A tap at the foot of the tank and a child filling a cup.
    s.add(rect(1240, 750, 46, 12, "#9e9e9e"));
    s.add(rect(1280, 750, 10, 28, "#9e9e9e"));
    s.add(line(1285, 780, 1285, 830, "#bde0fe", 5, `opacity="0.9"`));
    person(s, 1330, 930, 200, {
      skin: SKIN.brown,
      top: "#ffca3a",
      bottom: "#1982c4",
      kind: "shorts",
      hair: "short",
      arms: "forward",
      carry: "can",
      carryColor: "#ff595e",
    });
    // Puddles reflecting the sky.
    for (const [x, y, w] of [
      [420, 880, 160],
      [880, 940, 220],
      [200, 960, 120],
    ] as const) {
      s.add(ellipse(x, y, w, w * 0.12, "#a9bccd", `opacity="0.85"`));
      s.add(ellipse(x - w * 0.2, y - 2, w * 0.5, w * 0.03, "#ffffff", `opacity="0.4"`));
    }
    // Two children sharing an umbrella.
    person(s, 640, 960, 220, {
      skin: SKIN.deep,
      top: "#ff595e",
      bottom: "#1982c4",
      kind: "skirt",
      hair: "puff",
      arms: "hold",
    });
    person(s, 740, 970, 210, {
      skin: SKIN.dark,
      top: "#8ac926",
      bottom: "#1982c4",
      kind: "shorts",
      hair: "short",
      arms: "hold",
    });
    s.add(line(690, 900, 690, 720, "#333333", 5));
    s.add(
      path(
        "M540 730 Q690 600 840 730 Q815 712 790 730 Q765 712 740 730 Q715 712 690 730 Q665 712 640 730 Q615 712 590 730 Q565 712 540 730 Z",
        "#ffca3a",
      ),
    );
    rain(s, 260, 0, 980);
  },
);

picture("projects/river-footbridge", "People crossing a new footbridge over a river in a green valley", (s) => {
  sky(s, [
    [0, "#7cc0ea"],
    [0.5, "#d8eef9"],
  ]);
  cloud(s, 240, 90, 1.0);
  cloud(s, 1100, 140, 1.3);
  hills(s, 420, 40, "#7aa36a", { waves: 3 });
  hills(s, 500, 30, "#5e8f4f", { waves: 2 });
  // The river winding towards the viewer.
  s.add(
    path(
      "M760 520 C700 600 860 640 760 720 C660 800 560 860 380 1000 L1250 1000 C1100 880 1000 800 1020 720 C1040 640 880 600 860 520 Z",
      s.lin([
        [0, "#9fd6f0"],
        [1, "#3a8fc1"],
      ]),
    ),
  );
  for (let i = 0; i < 14; i++) {
    const y = s.r(700, 980);
    const x = 800 + s.r(-200, 200) * ((y - 520) / 480);
    s.add(line(x, y, x + s.r(30, 70), y, "#ffffff", 3, `opacity="0.5"`));
  }
  // Banks with trees and banana plants.
  s.add(
    path(
      "M0 560 C300 540 600 600 740 720 C600 820 420 900 330 1000 L0 1000 Z",
      s.lin([
        [0, "#6fae55"],
        [1, "#3f7a34"],
      ]),
    ),
  );
  s.add(
    path(
      "M1600 560 C1300 540 1080 620 1040 720 C1080 840 1200 900 1300 1000 L1600 1000 Z",
      s.lin([
        [0, "#6fae55"],
        [1, "#3f7a34"],
      ]),
    ),
  );
  for (const [x, y, r] of [
    [120, 640, 60],
    [260, 700, 50],
    [1450, 650, 70],
    [1320, 720, 45],
  ] as const)
    bush(s, x, y, r, "#2f6b3a");
  acacia(s, 1500, 900, 330, "#3f7a34");
  // Timber suspension bridge across the river.
  const deckY = 760;
  for (const tx of [520, 1240]) {
    s.add(rect(tx - 14, 560, 28, 230, "#6b4a2e"));
    s.add(rect(tx - 22, 552, 44, 16, "#4e3520"));
  }
  s.add(stroke("M520 565 Q880 720 1240 565", "#5a5a5a", 7));
  for (let i = 1; i < 24; i++) {
    const t = i / 24;
    const x = 520 + 720 * t;
    const y = (1 - t) * (1 - t) * 565 + 2 * (1 - t) * t * 720 + t * t * 565;
    s.add(line(x, y, x, deckY, "#5a5a5a", 2.5));
  }
  s.add(rect(420, deckY, 920, 22, "#8b5a2b"));
  for (let x = 430; x < 1330; x += 24) s.add(line(x, deckY + 2, x, deckY + 20, "#6b4220", 2));
  s.add(line(420, deckY - 30, 1340, deckY - 30, "#6b4a2e", 6));
  person(s, 760, deckY, 150, {
    skin: SKIN.dark,
    top: "#ef476f",
    bottom: "#118ab2",
    kind: "skirt",
    hair: "wrap",
    wrap: "#ffd166",
    carry: "head",
    carryColor: "#f4a261",
  });
  person(s, 860, deckY, 110, {
    skin: SKIN.brown,
    top: "#ffffff",
    bottom: "#1d4e89",
    kind: "shorts",
    hair: "short",
    carry: "bag",
    carryColor: "#e63946",
  });
  person(s, 1050, deckY, 150, { skin: SKIN.deep, top: "#06d6a0", bottom: "#073b4c", hair: "short", arms: "wave" });
  for (let i = 0; i < 8; i++)
    s.add(ellipse(s.r(500, 1100), s.r(840, 990), s.r(20, 40), 6, "#ffffff", `opacity="0.35"`));
});
// ---- Gallery ---------------------------------------------------------------

picture("gallery/borehole-drilling-rig", "A drilling rig boring the borehole while villagers watch", (s) => {
  sky(s, [
    [0, "#5fa2dc"],
    [0.6, "#c4e4f6"],
  ]);
  cloud(s, 1100, 80, 1.2);
  hills(s, 560, 24, "#a3b58c", { waves: 2 });
  hills(
    s,
    620,
    10,
    s.lin([
      [0, "#d7ad6a"],
      [1, "#b98748"],
    ]),
    { waves: 2 },
  );
  acacia(s, 1400, 700, 300, "#5e8a40");
  // The lorry.
  s.add(ellipse(700, 800, 480, 26, "#000000", `opacity="0.2"`));
  s.add(rect(300, 640, 640, 110, "#e85d04"));
  s.add(rect(300, 640, 640, 18, "#dc2f02"));
  s.add(path("M940 750 L940 600 Q940 560 980 560 L1080 560 Q1120 570 1140 640 L1160 700 L1160 750 Z", "#f48c06"));
  s.add(path("M970 580 L1070 580 Q1095 590 1110 640 L970 640 Z", "#a9d6f5"));
  for (const wx of [400, 560, 1060]) {
    s.add(circle(wx, 770, 50, "#2b2b2b"));
    s.add(circle(wx, 770, 22, "#9e9e9e"));
  }
  // The mast with its lattice.
  s.add(rect(420, 160, 60, 480, "none", `stroke="#ffba08" stroke-width="12"`));
  for (let y = 180; y < 640; y += 40) s.add(line(420, y, 480, y + 40, "#ffba08", 5));
  s.add(rect(400, 140, 100, 28, "#dc2f02"));
  s.add(line(450, 168, 450, 720, "#555555", 6));
  s.add(rect(430, 700, 40, 70, "#6c757d"));
  // Mud splash and pipes stacked beside.
  s.add(ellipse(450, 800, 120, 20, "#8d6a4a"));
  for (let i = 0; i < 5; i++) s.add(rect(130, 820 - i * 18, 260, 16, i % 2 ? "#4a90c2" : "#5aa0d2"));
  // Crew in hard hats and villagers watching.
  person(s, 640, 900, 240, {
    skin: SKIN.brown,
    top: "#ffba08",
    bottom: "#1d3557",
    hair: "cap",
    wrap: "#ffffff",
    arms: "wave",
  });
  person(s, 230, 930, 250, {
    skin: SKIN.dark,
    top: "#ffba08",
    bottom: "#1d3557",
    hair: "cap",
    wrap: "#ffffff",
    arms: "forward",
  });
  const crowd: [number, number, PersonOpts][] = [
    [1000, 900, { skin: SKIN.deep, top: "#e63946", bottom: "#457b9d", kind: "skirt", hair: "wrap", wrap: "#ffd166" }],
    [1100, 930, { skin: SKIN.warm, top: "#2a9d8f", bottom: "#264653", hair: "short" }],
    [1200, 910, { skin: SKIN.dark, top: "#f4a261", bottom: "#6d597a", kind: "dress", hair: "wrap", wrap: "#90be6d" }],
    [1300, 950, { skin: SKIN.brown, top: "#ffffff", bottom: "#1d4e89", kind: "shorts", hair: "puff", arms: "up" }],
    [1420, 930, { skin: SKIN.deep, top: "#8338ec", bottom: "#2b2d42", hair: "short" }],
  ];
  for (const [x, y, o] of crowd) person(s, x, y, o.kind === "shorts" ? 170 : 240, o);
});

picture("gallery/borehole-first-water", "Children cheering as the first clean water gushes from the new pump", (s) => {
  sky(s, [
    [0, "#ffd3a5"],
    [0.7, "#fff1dc"],
  ]);
  hills(s, 600, 20, "#c9b48a", { waves: 2 });
  hills(
    s,
    650,
    10,
    s.lin([
      [0, "#dcb679"],
      [1, "#c59a5a"],
    ]),
    { waves: 2 },
  );
  acacia(s, 200, 700, 260, "#6d8f3e");
  handPump(s, 980, 940, 2.6);
  // A glistening arc of water into a bucket.
  s.add(
    path(
      "M1210 560 Q1240 620 1230 840 L1262 840 Q1270 620 1228 552 Z",
      s.lin([
        [0, "#bfe7ff"],
        [1, "#4fb3e8"],
      ]),
    ),
  );
  for (let i = 0; i < 12; i++)
    s.add(circle(1246 + s.r(-60, 60), 850 + s.r(-40, 10), s.r(4, 9), "#8fd3fe", `opacity="0.8"`));
  bucket(s, 1246, 960, 2.2, "#e63946");
  const kids: [number, number, number, PersonOpts][] = [
    [320, 980, 300, { skin: SKIN.dark, top: "#06d6a0", bottom: "#073b4c", kind: "shorts", hair: "short", arms: "up" }],
    [500, 940, 270, { skin: SKIN.brown, top: "#ffd166", bottom: "#ef476f", kind: "dress", hair: "puff", arms: "wave" }],
    [660, 990, 290, { skin: SKIN.deep, top: "#118ab2", bottom: "#073b4c", kind: "shorts", hair: "short", arms: "up" }],
    [1460, 990, 280, { skin: SKIN.warm, top: "#ef476f", bottom: "#3d405b", kind: "skirt", hair: "bun", arms: "up" }],
  ];
  for (const [x, y, h, o] of kids) person(s, x, y, h, o);
  for (let i = 0; i < 40; i++)
    s.add(circle(s.r(0, s.w), s.r(0, 500), s.r(2, 5), s.pick(["#ffffff", "#ffe8a3"]), `opacity="${f(s.r(0.3, 0.8))}"`));
});

picture(
  "gallery/borehole-water-committee",
  "The seven members of the village water committee standing proudly by the pump",
  (s) => {
    sky(s, [
      [0, "#4f9bd9"],
      [0.6, "#cde8f7"],
    ]);
    cloud(s, 180, 90, 1.0);
    cloud(s, 1200, 60, 1.2);
    hills(s, 520, 26, "#98b07e", { waves: 2 });
    hills(
      s,
      580,
      10,
      s.lin([
        [0, "#d2a868"],
        [1, "#b4844a"],
      ]),
      { waves: 2 },
    );
    roundHut(s, 160, 640, 140);
    roundHut(s, 1450, 650, 150, "#b97a4c");
    handPump(s, 800, 700, 1.1);
    // The plaque on a small plinth.
    s.add(rect(1010, 600, 120, 100, "#bcb5a8"));
    s.add(rect(1022, 612, 96, 60, "#3d5a80"));
    s.add(path("M1040 660 L1070 624 L1100 660 Z", "#e0fbfc"));
    const members: PersonOpts[] = [
      {
        skin: SKIN.deep,
        top: "#e63946",
        bottom: "#1d3557",
        kind: "dress",
        hair: "wrap",
        wrap: "#ffd166",
        pattern: "#ffd166",
      },
      { skin: SKIN.brown, top: "#f1faee", bottom: "#3d405b", hair: "short" },
      {
        skin: SKIN.dark,
        top: "#2a9d8f",
        bottom: "#e9c46a",
        kind: "skirt",
        hair: "wrap",
        wrap: "#e76f51",
        pattern: "#264653",
      },
      { skin: SKIN.warm, top: "#6a4c93", bottom: "#22223b", hair: "bald" },
      {
        skin: SKIN.dark,
        top: "#ff9f1c",
        bottom: "#3a0ca3",
        kind: "dress",
        hair: "wrap",
        wrap: "#4cc9f0",
        pattern: "#ffffff",
      },
      { skin: SKIN.brown, top: "#8ac926", bottom: "#264653", hair: "short", arms: "wave" },
      { skin: SKIN.deep, top: "#ff006e", bottom: "#3a86ff", kind: "skirt", hair: "puff" },
    ];
    members.forEach((o, i) => person(s, 260 + i * 180, 930 + (i % 2) * 20, 330 + (i % 3) * 14, o));
    grass(s, 900, 1000, 30, "#7a5a33", 18);
  },
);

picture("gallery/carrying-water-home", "Women walking home at sunset carrying water containers on their heads", (s) => {
  sky(s, [
    [0, "#2d1e4f"],
    [0.35, "#8c3b6b"],
    [0.6, "#f0774d"],
    [0.78, "#ffc46b"],
  ]);
  sun(s, 1100, 700, 110, "#ffe29a", "#ffb347");
  hills(s, 700, 20, "#7c3b58", { waves: 2 });
  for (const x of [200, 420, 1400]) acacia(s, x, 730, s.r(100, 160), "#3a1f33", "#2d1828");
  s.add(
    rect(
      0,
      760,
      s.w,
      240,
      s.lin([
        [0, "#4a2038"],
        [1, "#22111f"],
      ]),
    ),
  );
  const walkers: [number, number, string][] = [
    [520, 880, "#f4a261"],
    [700, 900, "#4cc9f0"],
    [880, 870, "#e9c46a"],
    [1010, 860, "#90be6d"],
  ];
  walkers.forEach(([x, h, cc], i) =>
    person(s, x, 940 - i * 6, h * 0.34, {
      skin: "#2b1624",
      top: "#3a1d30",
      bottom: "#2b1624",
      kind: i % 2 ? "dress" : "skirt",
      hair: "wrap",
      wrap: "#3a1d30",
      carry: "head",
      carryColor: cc,
      arms: i === 1 ? "hold" : "up",
    }),
  );
  person(s, 1120, 930, 170, {
    skin: "#2b1624",
    top: "#3a1d30",
    bottom: "#2b1624",
    kind: "shorts",
    hair: "short",
    carry: "jerrycan",
    carryColor: "#ffb347",
  });
  birds(s, 500, 300, 7, 18, "#2d1e3f");
});

picture(
  "gallery/classroom-building-works",
  "Builders laying brick walls for the new classroom block, with scaffolding around them",
  (s) => {
    sky(s, [
      [0, "#6fb1e4"],
      [0.6, "#d4ecf8"],
    ]);
    cloud(s, 900, 80, 1.3);
    hills(s, 520, 24, "#a5b98f", { waves: 2 });
    s.add(
      rect(
        0,
        620,
        s.w,
        380,
        s.lin([
          [0, "#c99a5b"],
          [1, "#a87a42"],
        ]),
      ),
    );
    // Half-built walls of fired brick.
    const brick = "#b5502f";
    s.add(rect(260, 360, 1080, 330, brick));
    for (let row = 0; row < 17; row++) {
      const y = 360 + row * 19.4;
      s.add(line(260, y, 1340, y, "#e6c9a8", 2.5));
      for (let x = 260 + (row % 2) * 30; x < 1340; x += 60) s.add(line(x, y, x, y + 19.4, "#e6c9a8", 2.5));
    }
    // Stepped top where the wall is still rising.
    s.add(rect(900, 340, 440, 40, "#c99a5b"));
    s.add(
      poly(
        [
          [900, 360],
          [1340, 360],
          [1340, 420],
          [1100, 420],
          [1100, 390],
          [900, 390],
        ],
        mix("#6fb1e4", "#d4ecf8", 0.62),
      ),
    );
    for (const [wx, ww] of [
      [380, 160],
      [700, 160],
    ] as const)
      s.add(rect(wx, 450, ww, 150, "#3d2b1f"));
    s.add(rect(1040, 470, 140, 220, "#3d2b1f"));
    // Timber scaffolding.
    for (const x of [230, 520, 820, 1120, 1380]) s.add(line(x, 690, x, 300, "#8b6b43", 12));
    for (const y of [420, 560]) s.add(line(220, y, 1390, y, "#8b6b43", 10));
    s.add(rect(220, 400, 1170, 18, "#a6824f"));
    // Builders, a wheelbarrow and a stack of bricks.
    person(s, 640, 400, 210, {
      skin: SKIN.dark,
      top: "#3a86ff",
      bottom: "#2b2d42",
      hair: "cap",
      wrap: "#ffbe0b",
      arms: "forward",
    });
    person(s, 1000, 400, 200, {
      skin: SKIN.brown,
      top: "#fb5607",
      bottom: "#2b2d42",
      hair: "cap",
      wrap: "#ffffff",
      arms: "up",
    });
    person(s, 420, 930, 280, {
      skin: SKIN.deep,
      top: "#8ac926",
      bottom: "#2b2d42",
      hair: "cap",
      wrap: "#ffbe0b",
      arms: "hold",
      carry: "book",
      carryColor: brick,
    });
    s.add(path("M1050 900 L1250 900 L1290 840 L1010 840 Z", "#6c757d"));
    s.add(circle(1080, 920, 28, "#2b2b2b"));
    s.add(line(1250, 880, 1360, 930, "#6b4a2e", 10));
    for (let i = 0; i < 5; i++) s.add(rect(1040 + i * 44, 816, 40, 22, brick));
    for (let r = 0; r < 6; r++)
      for (let c = 0; c < 5 - (r % 2); c++)
        s.add(rect(120 + c * 44 + (r % 2) * 22, 940 - r * 22, 42, 20, brick, `stroke="#e6c9a8" stroke-width="2"`));
  },
);

picture(
  "gallery/classroom-opening-day",
  "The village gathered for the ribbon-cutting at the finished classroom block",
  (s) => {
    sky(s, [
      [0, "#4ea3e0"],
      [0.6, "#cfeaf8"],
    ]);
    cloud(s, 150, 80, 1.1);
    cloud(s, 1250, 110, 1.0);
    hills(s, 470, 22, "#9bbb84", { waves: 2 });
    house(s, 260, 700, 1080, 270, { wall: "#fbf3e2", roof: "#2f6690", windows: 4 });
    bunting(s, 260, 420, 1340, 420, 30, ["#e63946", "#ffd166", "#06d6a0", "#118ab2", "#f77f00"], 30);
    s.add(
      rect(
        0,
        700,
        s.w,
        300,
        s.lin([
          [0, "#c99a5b"],
          [1, "#a87a42"],
        ]),
      ),
    );
    // The ribbon across the door and the person cutting it.
    s.add(stroke("M700 600 Q800 630 900 600", "#e63946", 14));
    s.add(path("M790 608 l-30 50 l20 -4 l10 18 Z M810 608 l30 50 l-20 -4 l-10 18 Z", "#e63946"));
    person(s, 720, 860, 300, { skin: SKIN.brown, top: "#ffffff", bottom: "#3d405b", hair: "short", arms: "forward" });
    person(s, 900, 860, 290, {
      skin: SKIN.dark,
      top: "#6a4c93",
      bottom: "#ffd166",
      kind: "dress",
      hair: "wrap",
      wrap: "#ffd166",
      arms: "wave",
      pattern: "#ffd166",
    });
    for (const [bx, by, c] of [
      [330, 360, "#e63946"],
      [380, 330, "#ffd166"],
      [1240, 350, "#06d6a0"],
      [1290, 320, "#118ab2"],
    ] as const) {
      s.add(line(bx, by + 40, bx + (bx < 800 ? 20 : -20), 600, "#777777", 2));
      s.add(ellipse(bx, by, 30, 38, c));
    }
    const crowd = 11;
    for (let i = 0; i < crowd; i++) {
      const x = 80 + i * 145 + s.r(-20, 20);
      if (x > 620 && x < 980) continue;
      person(s, x, 990 - (i % 3) * 10, s.r(190, 250), {
        skin: s.pick(Object.values(SKIN).slice(0, 5)),
        top: s.pick(["#e63946", "#ffffff", "#2a9d8f", "#f4a261", "#3a86ff", "#8338ec"]),
        bottom: s.pick(["#1d3557", "#264653", "#3d405b"]),
        kind: s.pick(["trousers", "skirt", "shorts"] as const),
        hair: s.pick(["short", "wrap", "puff", "bun"] as const),
        wrap: s.pick(["#ffd166", "#ef476f", "#06d6a0"]),
        arms: s.pick(["up", "down", "wave"] as const),
      });
    }
  },
);

picture("gallery/exercise-books", "A pupil's desk with open exercise books, sharpened pencils and a ruler", (s) => {
  s.add(
    rect(
      0,
      0,
      s.w,
      s.h,
      s.lin(
        [
          [0, "#b07a45"],
          [1, "#8a5a30"],
        ],
        0,
        0,
        1,
        1,
      ),
    ),
  );
  for (let i = 0; i < 18; i++)
    s.add(
      stroke(
        `M-20 ${f(i * 60 + s.r(-10, 10))} Q800 ${f(i * 60 + s.r(-30, 30))} 1620 ${f(i * 60 + s.r(-10, 10))}`,
        "#6e4524",
        3,
        `opacity="0.35"`,
      ),
    );
  s.add(`<g transform="rotate(-6 700 500)">`);
  s.add(rect(330, 230, 840, 560, "#000000", `opacity="0.2" transform="translate(14 18)"`));
  s.add(rect(330, 230, 420, 560, "#fbfaf5"));
  s.add(rect(750, 230, 420, 560, "#f5f3ec"));
  s.add(rect(745, 230, 10, 560, "#d9d4c7"));
  for (let i = 0; i < 16; i++) {
    s.add(line(360, 290 + i * 31, 720, 290 + i * 31, "#a9c6e8", 2));
    s.add(line(780, 290 + i * 31, 1140, 290 + i * 31, "#a9c6e8", 2));
  }
  s.add(line(400, 240, 400, 780, "#f28482", 2));
  // Handwriting and a sum.
  for (let i = 0; i < 9; i++) {
    let x = 420;
    while (x < 700) {
      const w = s.r(30, 80);
      s.add(
        stroke(
          `M${f(x)} ${f(282 + i * 31)} q${f(w / 6)} -12 ${f(w / 3)} 0 t${f(w / 3)} 0 t${f(w / 3)} 0`,
          "#1d3557",
          3,
        ),
      );
      x += w + 16;
    }
  }
  s.add(
    stroke(
      "M820 330 L850 300 L850 380 M900 340 L940 340 M920 320 L920 360 M980 300 Q1020 290 1020 320 Q1020 340 980 380 L1030 380 M1060 330 L1100 330 M1060 350 L1100 350",
      "#1d3557",
      5,
    ),
  );
  s.add(stroke("M1120 290 Q1135 310 1130 335", "#e63946", 6));
  s.add(stroke("M830 450 l30 30 l60 -70", "#e63946", 8));
  s.add(`</g>`);
  // Pencils, a rubber and a ruler.
  s.add(
    `<g transform="rotate(28 1320 640)">${rect(1120, 620, 380, 30, "#ffbe0b")}${poly(
      [
        [1500, 620],
        [1550, 635],
        [1500, 650],
      ],
      "#f1d3a3",
    )}${poly(
      [
        [1536, 631],
        [1550, 635],
        [1536, 639],
      ],
      "#333333",
    )}${rect(1090, 620, 30, 30, "#e76f51")}</g>`,
  );
  s.add(
    `<g transform="rotate(-12 300 880)">${rect(80, 860, 480, 60, "#e0e1dd")}${Array.from({ length: 24 }, (_, i) => line(100 + i * 19, 860, 100 + i * 19, i % 5 === 0 ? 888 : 876, "#415a77", 2)).join("")}</g>`,
  );
  s.add(rrect(1280, 870, 110, 60, 14, "#ff8fab"));
  s.add(
    `<g transform="rotate(-50 230 330)">${rect(60, 315, 340, 26, "#3a86ff")}${poly(
      [
        [400, 315],
        [446, 328],
        [400, 341],
      ],
      "#f1d3a3",
    )}</g>`,
  );
});

picture(
  "gallery/tailoring-school-uniforms",
  "A rail of newly made blue and white school uniforms in the tailoring workshop",
  (s) => {
    s.add(
      rect(
        0,
        0,
        s.w,
        s.h,
        s.lin([
          [0, "#fce8c8"],
          [1, "#f2cf9a"],
        ]),
      ),
    );
    s.add(rect(0, 820, s.w, 180, "#a97c50"));
    s.add(line(120, 170, 1480, 170, "#555555", 12));
    s.add(line(140, 170, 140, 830, "#555555", 10));
    s.add(line(1460, 170, 1460, 830, "#555555", 10));
    for (let i = 0; i < 8; i++) {
      const x = 230 + i * 160;
      const dress = i % 2 === 0;
      s.add(stroke(`M${x} 170 q-14 16 0 30`, "#777777", 4));
      s.add(
        path(
          `M${x - 70} 240 L${x} 200 L${x + 70} 240 L${x + 55} 300 L${x + 45} 300 L${x + 45} 460 L${x - 45} 460 L${x - 45} 300 L${x - 55} 300 Z`,
          "#ffffff",
          `stroke="#d9d9d9" stroke-width="2"`,
        ),
      );
      s.add(path(`M${x - 20} 202 L${x} 232 L${x + 20} 202`, "none", `stroke="#d0d0d0" stroke-width="4"`));
      if (dress) s.add(path(`M${x - 50} 440 L${x + 50} 440 L${x + 80} 720 L${x - 80} 720 Z`, "#1d4e89"));
      else
        s.add(
          path(
            `M${x - 48} 440 L${x + 48} 440 L${x + 52} 640 L${x + 6} 640 L${x} 520 L${x - 6} 640 L${x - 52} 640 Z`,
            "#1d4e89",
          ),
        );
      for (let b = 0; b < 4; b++) s.add(circle(x, 250 + b * 45, 4, "#bbbbbb"));
    }
    for (let i = 0; i < 3; i++)
      s.add(
        rrect(
          1200 + i * 10,
          780 - i * 40,
          220,
          40,
          8,
          ["#1d4e89", "#ffffff", "#1d4e89"][i]!,
          `stroke="#c9c9c9" stroke-width="2"`,
        ),
      );
  },
);

picture(
  "gallery/tailoring-market-stall",
  "A market stall selling bags and cloth made by the tailoring co-operative",
  (s) => {
    sky(s, [
      [0, "#63b0e8"],
      [0.6, "#d9f0fb"],
    ]);
    s.add(
      rect(
        0,
        700,
        s.w,
        300,
        s.lin([
          [0, "#c79a62"],
          [1, "#a47445"],
        ]),
      ),
    );
    // Striped awning.
    const stripes = 10;
    for (let i = 0; i < stripes; i++)
      s.add(
        poly(
          [
            [200 + i * 120, 160],
            [320 + i * 120, 160],
            [320 + i * 120, 260],
            [200 + i * 120, 260],
          ],
          i % 2 ? "#ffffff" : "#e63946",
        ),
      );
    for (let i = 0; i < stripes; i++)
      s.add(path(`M${200 + i * 120} 260 Q${260 + i * 120} 300 ${320 + i * 120} 260 Z`, i % 2 ? "#ffffff" : "#e63946"));
    for (const x of [220, 1380]) s.add(rect(x - 10, 260, 20, 520, "#6b4a2e"));
    s.add(rect(200, 620, 1200, 40, "#8b5e3c"));
    s.add(rect(220, 660, 1160, 140, "#6b4226"));
    // Hanging cloth.
    const colours = ["#ff006e", "#fb5607", "#ffbe0b", "#3a86ff", "#8338ec", "#06d6a0"];
    colours.forEach((c, i) => {
      const x = 280 + i * 180;
      s.add(rect(x, 280, 140, 260, c));
      for (let j = 0; j < 6; j++)
        s.add(circle(x + 35 + (j % 2) * 70, 320 + Math.floor(j / 2) * 80, 18, tint(c, 0.5), `opacity="0.8"`));
    });
    // Bags on the counter.
    for (let i = 0; i < 5; i++) {
      const x = 320 + i * 220;
      const c = colours[(i + 2) % colours.length]!;
      s.add(stroke(`M${x - 40} 560 Q${x} 500 ${x + 40} 560`, shade(c, 0.3), 8));
      s.add(rrect(x - 70, 550, 140, 80, 12, c));
      s.add(rect(x - 70, 580, 140, 12, tint(c, 0.4)));
    }
    person(s, 1500, 990, 320, {
      skin: SKIN.dark,
      top: "#ff006e",
      bottom: "#3a0ca3",
      kind: "dress",
      hair: "wrap",
      wrap: "#ffbe0b",
      arms: "wave",
      pattern: "#ffbe0b",
    });
    person(s, 120, 980, 300, {
      skin: SKIN.brown,
      top: "#2a9d8f",
      bottom: "#264653",
      hair: "short",
      carry: "bag",
      carryColor: "#fb5607",
    });
  },
);
// ---- People: staff, and the people quoted in testimonials ---------------------

picture(
  "people/ruth-ashworth",
  "Portrait of Ruth Ashworth, a smiling woman with a grey bob and glasses",
  (s) =>
    portrait(s, {
      bg: ["#a8dadc", "#6fb3b8"],
      skin: SKIN.pale,
      hair: "bob",
      hairColor: HAIR.grey,
      top: "#c1121f",
      topStyle: "cardigan",
      inner: "#fdf0d5",
      accent: "#780000",
      glasses: "#3d2b1f",
      eyeColor: "#4a6fa5",
      earrings: "#e9c46a",
      age: "older",
    }),
  "square",
);

picture(
  "people/daniel-mushi",
  "Portrait of Daniel Mushi, a man with short black hair and a trimmed beard in a checked shirt",
  (s) =>
    portrait(s, {
      bg: ["#ffd6a5", "#f4a261"],
      skin: SKIN.dark,
      hair: "crop",
      hairColor: HAIR.black,
      top: "#2a6f97",
      topStyle: "collar",
      inner: "#e0f2fe",
      accent: "#f1faee",
      beard: "full",
    }),
  "square",
);

picture(
  "people/priya-chauhan",
  "Portrait of Priya Chauhan, a woman with long dark hair and gold earrings",
  (s) =>
    portrait(s, {
      bg: ["#cdb4db", "#a28bc1"],
      skin: SKIN.olive,
      hair: "long",
      hairColor: HAIR.black,
      top: "#2d6a4f",
      topStyle: "blouse",
      accent: "#95d5b2",
      earrings: "#f6bd60",
      necklace: "#f6bd60",
    }),
  "square",
);

picture(
  "people/tom-fairbairn",
  "Portrait of Tom Fairbairn, a man with short auburn hair and stubble wearing a navy jumper",
  (s) =>
    portrait(s, {
      bg: ["#caf0f8", "#90e0ef"],
      skin: SKIN.light,
      hair: "wavy",
      hairColor: HAIR.auburn,
      top: "#1d3557",
      topStyle: "jumper",
      inner: "#f1faee",
      beard: "stubble",
      eyeColor: "#52796f",
    }),
  "square",
);

picture(
  "people/grace-lyimo",
  "Portrait of Grace Lyimo, a woman in a bright patterned headwrap and matching dress",
  (s) =>
    portrait(s, {
      bg: ["#b7e4c7", "#74c69d"],
      skin: SKIN.brown,
      hair: "wrap",
      hairColor: HAIR.black,
      wrapColor: "#e76f51",
      top: "#e76f51",
      topStyle: "kitenge",
      inner: "#ffe8d6",
      accent: "#264653",
      earrings: "#ffb703",
    }),
  "square",
);

picture(
  "people/neema-massawe",
  "Portrait of Neema Massawe, a woman with braided hair smiling warmly",
  (s) =>
    portrait(s, {
      bg: ["#ffe5ec", "#ffb3c6"],
      skin: SKIN.deep,
      hair: "braids",
      hairColor: HAIR.black,
      top: "#0077b6",
      topStyle: "tee",
      accent: "#90e0ef",
      earrings: "#e9c46a",
    }),
  "square",
);

picture(
  "people/joseph-kimaro",
  "Portrait of Joseph Kimaro, an older man with a short grey beard, glasses and a collared shirt",
  (s) =>
    portrait(s, {
      bg: ["#e9edc9", "#ccd5ae"],
      skin: SKIN.warm,
      hair: "bald",
      hairColor: HAIR.grey,
      top: "#f1faee",
      topStyle: "collar",
      inner: "#ffffff",
      accent: "#457b9d",
      beard: "goatee",
      glasses: "#1d1d1d",
      age: "older",
    }),
  "square",
);

picture(
  "people/rehema-swai",
  "Portrait of Rehema Swai, a woman with her hair in a high bun wearing a yellow blouse",
  (s) =>
    portrait(s, {
      bg: ["#bde0fe", "#8ecae6"],
      skin: SKIN.dark,
      hair: "bun",
      hairColor: HAIR.black,
      top: "#ffb703",
      topStyle: "blouse",
      accent: "#fb8500",
      earrings: "#fb8500",
      necklace: "#8338ec",
    }),
  "square",
);

picture(
  "people/upendo-mrema",
  "Portrait of Upendo Mrema, a teenage girl with natural curly hair in her white school shirt",
  (s) =>
    portrait(s, {
      bg: ["#ffd60a", "#ffc300"],
      skin: SKIN.brown,
      hair: "afro",
      hairColor: HAIR.black,
      top: "#ffffff",
      topStyle: "collar",
      inner: "#ffffff",
      accent: "#2a6f4e",
      age: "young",
    }),
  "square",
);
// ---- Pages -----------------------------------------------------------------

picture(
  "pages/quiz-night",
  "A fundraising quiz night in an English village hall, teams at tables and a quizmaster on stage",
  (s) => {
    // Hall walls: panelling below, pale green above, timber trusses overhead.
    s.add(
      rect(
        0,
        0,
        s.w,
        640,
        s.lin([
          [0, "#dfe8d3"],
          [1, "#cddcbf"],
        ]),
      ),
    );
    s.add(rect(0, 520, s.w, 120, "#8b5e3c"));
    for (let x = 0; x < s.w; x += 80) s.add(line(x, 520, x, 640, "#6f4a2e", 3));
    s.add(
      rect(
        0,
        640,
        s.w,
        360,
        s.lin([
          [0, "#c08a55"],
          [1, "#9a6a3e"],
        ]),
      ),
    );
    for (let i = 0; i < 14; i++)
      s.add(line(0, 660 + i * i * 2.2, s.w, 660 + i * i * 2.2, "#8a5c33", 2, `opacity="0.45"`));
    for (const x of [0, 400, 800, 1200, 1600]) {
      s.add(
        poly(
          [
            [x - 200, 90],
            [x, 0],
            [x + 200, 90],
          ],
          "none",
          `stroke="#5c4033" stroke-width="18"`,
        ),
      );
      s.add(line(x, 0, x, 90, "#5c4033", 14));
    }
    s.add(rect(0, 84, s.w, 18, "#5c4033"));
    // Tall windows onto the night.
    for (const wx of [80, 1400]) {
      s.add(path(`M${wx} 460 L${wx} 220 Q${wx + 60} 150 ${wx + 120} 220 L${wx + 120} 460 Z`, "#f2f2ee"));
      s.add(
        path(
          `M${wx + 10} 450 L${wx + 10} 226 Q${wx + 60} 166 ${wx + 110} 226 L${wx + 110} 450 Z`,
          s.lin([
            [0, "#1b2a4a"],
            [1, "#34507a"],
          ]),
        ),
      );
      s.add(line(wx + 60, 190, wx + 60, 450, "#f2f2ee", 5));
      s.add(line(wx + 10, 330, wx + 110, 330, "#f2f2ee", 5));
    }
    s.add(circle(1440, 260, 14, "#fdf3c4"));
    // Stage with curtains, a screen showing a question mark, and the quizmaster.
    s.add(rect(340, 150, 920, 400, "#7a1f2b"));
    s.add(rect(360, 170, 880, 380, "#3b1d24"));
    for (let i = 0; i < 8; i++) {
      s.add(rect(340 + i * 22, 150, 14, 400, "#8f2533", `opacity="0.7"`));
      s.add(rect(1246 - i * 22, 150, 14, 400, "#8f2533", `opacity="0.7"`));
    }
    s.add(rect(560, 200, 480, 270, "#f7f7f2"));
    s.add(stroke("M750 290 Q750 240 800 240 Q850 240 850 285 Q850 320 800 335 L800 380", "#3a86ff", 26));
    s.add(circle(800, 425, 15, "#3a86ff"));
    s.add(rect(300, 550, 1000, 60, "#6b4226"));
    s.add(rect(300, 550, 1000, 10, "#8b5a32"));
    person(s, 1130, 552, 250, {
      skin: SKIN.light,
      top: "#6a4c93",
      bottom: "#2b2d42",
      hair: "short",
      hairColor: HAIR.brown,
      arms: "wave",
    });
    s.add(line(1150, 410, 1162, 370, "#222222", 6));
    s.add(rrect(1060, 470, 70, 82, 6, "#8b5a32"));
    bunting(s, 0, 120, 800, 130, 40, ["#e63946", "#f1faee", "#457b9d", "#ffb703", "#2a9d8f"], 28);
    bunting(s, 800, 130, 1600, 120, 40, ["#2a9d8f", "#ffb703", "#e63946", "#f1faee", "#457b9d"], 28);
    // Pendant lamps.
    for (const lx of [200, 600, 1000, 1400]) {
      s.add(line(lx, 100, lx, 190, "#333333", 3));
      s.add(path(`M${lx - 36} 222 L${lx - 14} 188 L${lx + 14} 188 L${lx + 36} 222 Z`, "#2f3e46"));
      glow(s, lx, 240, 150, "#ffe8a3", 0.4);
    }
    // Teams around tables, with answer sheets and drinks.
    const hairs = [HAIR.blonde, HAIR.brown, HAIR.black, HAIR.grey, HAIR.auburn, HAIR.darkBrown];
    const skins = [SKIN.pale, SKIN.light, SKIN.tan, SKIN.olive, SKIN.brown, SKIN.dark, SKIN.light];
    const tops = ["#e63946", "#2a9d8f", "#f4a261", "#457b9d", "#8338ec", "#ffb703", "#06d6a0", "#ef476f"];
    const tables: [number, number, number][] = [
      [280, 800, 0.85],
      [800, 780, 0.8],
      [1320, 800, 0.85],
      [540, 990, 1.05],
      [1100, 990, 1.05],
    ];
    tables.forEach(([tx, ty, k], ti) => {
      const seats = [-1.1, -0.4, 0.4, 1.1];
      seats.forEach((dx, si) => {
        const hair = s.pick(["short", "long", "bun", "bald", "puff", "short"] as const);
        person(s, tx + dx * 150 * k, ty + 50 * k, 300 * k, {
          skin: skins[(ti * 3 + si) % skins.length]!,
          top: tops[(ti + si * 3) % tops.length]!,
          bottom: "#333333",
          hair,
          hairColor: hairs[(ti + si) % hairs.length]!,
          arms: si === 1 && ti % 2 === 0 ? "wave" : "forward",
        });
      });
      s.add(ellipse(tx, ty - 70 * k, 300 * k, 46 * k, "#ffffff"));
      s.add(
        path(
          `M${f(tx - 300 * k)} ${f(ty - 70 * k)} L${f(tx - 290 * k)} ${f(ty + 48 * k)} Q${f(tx)} ${f(ty + 78 * k)} ${f(tx + 290 * k)} ${f(ty + 48 * k)} L${f(tx + 300 * k)} ${f(ty - 70 * k)} Q${f(tx)} ${f(ty - 20 * k)} ${f(tx - 300 * k)} ${f(ty - 70 * k)} Z`,
          "#eeeeea",
        ),
      );
      s.add(
        rect(
          tx - 60 * k,
          ty - 88 * k,
          70 * k,
          50 * k,
          "#fbfbf8",
          `transform="rotate(-8 ${f(tx)} ${f(ty - 60 * k)})" stroke="#cccccc" stroke-width="1"`,
        ),
      );
      s.add(rect(tx + 90 * k, ty - 108 * k, 26 * k, 40 * k, "#f4a261", `opacity="0.85"`));
      s.add(rect(tx - 160 * k, ty - 104 * k, 24 * k, 36 * k, "#ffd166", `opacity="0.85"`));
    });
  },
);

picture(
  "pages/sponsored-walk",
  "Supporters on a sponsored walk through green English countryside, with a volunteer handing out water",
  (s) => {
    sky(s, [
      [0, "#74b3e8"],
      [0.55, "#cfe7f7"],
    ]);
    cloud(s, 150, 80, 1.3);
    cloud(s, 700, 140, 0.9);
    cloud(s, 1200, 60, 1.5);
    hills(s, 440, 40, "#8fbf6a", { waves: 2 });
    // Patchwork fields bounded by hedgerows on the far hills.
    const fieldColours = ["#a7c957", "#8fbf5a", "#c4d88a", "#79a84a"];
    for (let i = 0; i < 4; i++) {
      const d = hills(s, 470 + i * 28, 16, fieldColours[i]!, { waves: 2 });
      s.add(path(d, "none", `stroke="#3f6b2e" stroke-width="7" stroke-linejoin="round"`));
    }
    for (let i = 0; i < 10; i++) {
      const x = 60 + i * 165 + s.r(-30, 30);
      s.add(stroke(`M${f(x)} ${f(455 + s.r(0, 20))} q${f(s.r(-20, 20))} 50 ${f(s.r(-30, 30))} 110`, "#3f6b2e", 7));
    }
    // A church spire among trees.
    s.add(rect(1120, 380, 50, 90, "#b8b0a0"));
    s.add(
      poly(
        [
          [1110, 382],
          [1145, 290],
          [1180, 382],
        ],
        "#9a9080",
      ),
    );
    for (const [x, r] of [
      [1080, 30],
      [1210, 36],
      [300, 40],
      [360, 28],
    ] as const)
      bush(s, x, 470, r, "#4f772d");
    hills(
      s,
      580,
      26,
      s.lin([
        [0, "#7fb24f"],
        [1, "#5a8f3a"],
      ]),
      { waves: 2 },
    );
    // A dry-stone wall and the footpath.
    s.add(path("M0 650 Q400 620 800 640 T1600 630 L1600 660 Q1200 670 800 670 T0 680 Z", "#a39e93"));
    for (let i = 0; i < 60; i++) s.add(ellipse(i * 28 + 10, 652 + Math.sin(i) * 6, 14, 7, "#bdb8ad", `opacity="0.8"`));
    s.add(
      path(
        "M700 620 C800 700 600 800 500 1000 L1100 1000 C1000 820 1000 700 820 620 Z",
        s.lin([
          [0, "#cdb48c"],
          [1, "#b89a6e"],
        ]),
      ),
    );
    // Sheep.
    for (const [x, y] of [
      [200, 600],
      [280, 615],
      [1400, 590],
      [1480, 604],
    ] as const) {
      s.add(ellipse(x, y, 28, 18, "#fafafa"));
      s.add(ellipse(x + 24, y - 6, 9, 8, "#333333"));
      s.add(line(x - 12, y + 14, x - 12, y + 24, "#333333", 4));
      s.add(line(x + 12, y + 14, x + 12, y + 24, "#333333", 4));
    }
    // The water station with a volunteer.
    s.add(rect(1180, 800, 260, 20, "#e9ecef"));
    for (const lx of [1200, 1420]) s.add(line(lx, 820, lx, 920, "#6c757d", 6));
    for (let i = 0; i < 6; i++)
      s.add(
        path(`M${1205 + i * 38} 800 L${1235 + i * 38} 800 L${1230 + i * 38} 770 L${1210 + i * 38} 770 Z`, "#8ecae6"),
      );
    person(s, 1520, 930, 290, {
      skin: SKIN.olive,
      top: "#ffb703",
      bottom: "#2b2d42",
      hair: "long",
      hairColor: HAIR.black,
      arms: "wave",
    });
    // A banner with the charity's mountain mark.
    s.add(line(1180, 800, 1180, 640, "#6c757d", 6));
    s.add(line(1440, 800, 1440, 640, "#6c757d", 6));
    s.add(rect(1180, 640, 260, 90, "#2a9d8f"));
    s.add(path("M1250 715 L1310 655 L1370 715 Z", "#ffffff"));
    s.add(path("M1292 673 L1310 655 L1328 673 L1318 670 L1310 678 L1302 670 Z", "#2a9d8f"));
    // Walkers in charity T-shirts with numbers pinned on.
    const walkers: [number, number, number, PersonOpts][] = [
      [720, 690, 130, { skin: SKIN.light, top: "#2a9d8f", bottom: "#264653", hair: "short", hairColor: HAIR.blonde }],
      [800, 700, 140, { skin: SKIN.dark, top: "#2a9d8f", bottom: "#264653", kind: "shorts", hair: "short" }],
      [
        660,
        790,
        210,
        { skin: SKIN.pale, top: "#2a9d8f", bottom: "#3d405b", hair: "long", hairColor: HAIR.auburn, arms: "wave" },
      ],
      [
        880,
        820,
        220,
        { skin: SKIN.tan, top: "#2a9d8f", bottom: "#3d405b", kind: "shorts", hair: "short", hairColor: HAIR.darkBrown },
      ],
      [600, 960, 320, { skin: SKIN.brown, top: "#2a9d8f", bottom: "#1d3557", hair: "bun", arms: "up" }],
      [
        900,
        990,
        330,
        {
          skin: SKIN.light,
          top: "#2a9d8f",
          bottom: "#1d3557",
          kind: "shorts",
          hair: "bald",
          carry: "bag",
          carryColor: "#e76f51",
        },
      ],
    ];
    for (const [x, y, h, o] of walkers) {
      person(s, x, y, h, o);
      const u = h / 100;
      s.add(rect(x - 5 * u, y - 74 * u, 10 * u, 8 * u, "#ffffff"));
      s.add(rect(x - 3.5 * u, y - 71 * u, 7 * u, 1.6 * u, "#333333"));
    }
  },
);

picture("pages/contact-letter", "An airmail envelope and letter resting over a view of the hills and mountain", (s) => {
  sky(s, [
    [0, "#fde2c4"],
    [0.6, "#fff5e8"],
  ]);
  kilimanjaro(s, 1150, 640, 900, 280, {
    body: "#b8a7c9",
    shadow: "#9887b0",
    snow: "#ffffff",
    far: "#cbbdd8",
    haze: "#fff5e8",
  });
  hills(s, 640, 24, "#c9d6a3", { waves: 2 });
  hills(s, 720, 24, "#a9c48a", { waves: 2 });
  acacia(s, 220, 760, 240, "#7c9f5a");
  hills(s, 800, 14, "#8fb36e", { waves: 2 });
  // The envelope, tilted, with the letter half out.
  s.group(`transform="rotate(-7 800 560)"`, () => {
    s.add(rect(470, 360, 660, 420, "#000000", `opacity="0.15" transform="translate(16 20)"`));
    s.add(rect(520, 210, 560, 420, "#fffdf7", `stroke="#e7dfcf" stroke-width="3"`));
    for (let i = 0; i < 8; i++) {
      const w = i === 0 ? 160 : s.r(300, 460);
      s.add(
        stroke(
          `M${580} ${260 + i * 36} q${f(w / 8)} -10 ${f(w / 4)} 0 t${f(w / 4)} 0 t${f(w / 4)} 0 t${f(w / 4)} 0`,
          "#34506b",
          4,
        ),
      );
    }
    s.add(rect(470, 360, 660, 420, "#f7f1e3"));
    const stripes = 22;
    for (let i = 0; i < stripes; i++) {
      const c = i % 2 ? "#d62828" : "#1d4e89";
      const t = i / stripes;
      s.add(
        poly(
          [
            [470 + 660 * t, 360],
            [470 + 660 * t + 22, 360],
            [470 + 660 * t + 10, 376],
            [470 + 660 * t - 12, 376],
          ],
          c,
        ),
      );
      s.add(
        poly(
          [
            [470 + 660 * t, 780],
            [470 + 660 * t + 22, 780],
            [470 + 660 * t + 10, 764],
            [470 + 660 * t - 12, 764],
          ],
          c,
        ),
      );
    }
    s.add(
      poly(
        [
          [470, 380],
          [800, 600],
          [1130, 380],
          [1130, 780],
          [470, 780],
        ],
        "#efe6d2",
      ),
    );
    s.add(
      poly(
        [
          [470, 780],
          [800, 560],
          [1130, 780],
        ],
        "#e8ddc5",
      ),
    );
    // Stamp with a tiny mountain.
    s.add(rect(990, 420, 100, 120, "#ffffff", `stroke="#cccccc" stroke-width="2" stroke-dasharray="6 4"`));
    s.add(rect(1002, 432, 76, 96, "#8ecae6"));
    s.add(path("M1006 524 L1040 470 L1074 524 Z", "#5e548e"));
    s.add(path("M1030 486 L1040 470 L1050 486 Z", "#ffffff"));
    s.add(circle(1060, 448, 8, "#ffb703"));
    for (let i = 0; i < 4; i++)
      s.add(stroke(`M930 ${440 + i * 18} q15 -8 30 0 t30 0 t30 0`, "#555555", 2.5, `opacity="0.6"`));
    // Address lines.
    for (let i = 0; i < 3; i++) s.add(line(620, 640 + i * 34, 620 + [260, 220, 180][i]!, 640 + i * 34, "#34506b", 5));
  });
  // A paper plane for good measure.
  s.add(path("M1300 230 L1450 170 L1360 290 L1345 250 Z", "#ffffff"));
  s.add(path("M1345 250 L1450 170 L1330 270 Z", "#e9e2d3"));
  s.add(stroke("M1290 240 Q1200 280 1120 250 T960 260", "#bca98a", 3, `stroke-dasharray="10 10"`));
});

picture(
  "pages/donation-success",
  "A green circle with a white tick, surrounded by confetti",
  (s) => {
    s.add(
      rect(
        0,
        0,
        s.w,
        s.h,
        s.rad(
          [
            [0, "#f1fbf4"],
            [1, "#d8f3e0"],
          ],
          0.5,
          0.5,
          0.7,
        ),
      ),
    );
    const colours = ["#2a9d8f", "#e9c46a", "#f4a261", "#e76f51", "#8ecae6", "#90be6d"];
    for (let i = 0; i < 46; i++) {
      const a = s.r(0, Math.PI * 2);
      const d = s.r(270, 380);
      const x = 400 + Math.cos(a) * d;
      const y = 400 + Math.sin(a) * d;
      const c = s.pick(colours);
      if (i % 3 === 0) s.add(circle(x, y, s.r(5, 10), c));
      else s.add(rect(x - 6, y - 12, 12, 24, c, `transform="rotate(${f(s.r(0, 180))} ${f(x)} ${f(y)})" rx="3"`));
    }
    s.add(circle(412, 418, 230, "#1b5e20", `opacity="0.15"`));
    s.add(
      circle(
        400,
        400,
        230,
        s.lin(
          [
            [0, "#43b05c"],
            [1, "#2a8f46"],
          ],
          0,
          0,
          1,
          1,
        ),
      ),
    );
    s.add(circle(400, 400, 200, "none", `stroke="#ffffff" stroke-opacity="0.2" stroke-width="8"`));
    s.add(stroke("M290 405 L370 485 L520 320", "#ffffff", 46));
  },
  "square",
);

picture(
  "pages/home-video-poster",
  "Pupils and teachers waving in front of the new classroom block at golden hour",
  (s) => {
    sky(s, [
      [0, "#f9c784"],
      [0.5, "#fde4b8"],
      [0.7, "#fff4dc"],
    ]);
    sun(s, 260, 300, 70, "#fff6dc", "#ffd28a");
    kilimanjaro(s, 1200, 520, 900, 300, {
      body: "#b08fa0",
      shadow: "#8f6f84",
      snow: "#fff6ee",
      far: "#c4a7b3",
      haze: "#fde4b8",
    });
    hills(s, 530, 20, "#b9a074", { waves: 2 });
    house(s, 300, 720, 1000, 260, { wall: "#fbf1de", roof: "#b5543c", roofStyle: "tile", windows: 4 });
    s.add(
      rect(
        0,
        720,
        s.w,
        280,
        s.lin([
          [0, "#dba866"],
          [1, "#b98245"],
        ]),
      ),
    );
    acacia(s, 1480, 760, 320, "#6f8a3f");
    const group: [number, number, number, PersonOpts][] = [
      [200, 920, 280, { skin: SKIN.brown, top: "#ffffff", bottom: "#3d405b", hair: "short", arms: "wave" }],
      [
        1380,
        930,
        290,
        {
          skin: SKIN.dark,
          top: "#e76f51",
          bottom: "#264653",
          kind: "dress",
          hair: "wrap",
          wrap: "#e9c46a",
          arms: "wave",
          pattern: "#e9c46a",
        },
      ],
    ];
    for (const [x, y, h, o] of group) person(s, x, y, h, o);
    for (let i = 0; i < 9; i++) {
      const x = 360 + i * 115;
      const y = 880 + (i % 2) * 60;
      person(s, x, y, 200 + (i % 3) * 14, {
        skin: [SKIN.deep, SKIN.brown, SKIN.dark, SKIN.warm][i % 4]!,
        top: "#ffffff",
        bottom: "#1d4e89",
        kind: i % 2 ? "shorts" : "skirt",
        hair: i % 2 ? "short" : "puff",
        arms: i % 3 === 0 ? "up" : "wave",
      });
    }
    s.add(
      rect(
        0,
        0,
        s.w,
        s.h,
        s.lin([
          [0, "#000000", 0],
          [0.7, "#000000", 0],
          [1, "#000000", 0.25],
        ]),
      ),
    );
  },
);

picture(
  "pages/about-video-poster",
  "Villagers and a visiting trustee talking together on benches under a shady mango tree",
  (s) => {
    sky(s, [
      [0, "#58a4dd"],
      [0.6, "#cbe7f6"],
    ]);
    cloud(s, 1100, 100, 1.2);
    hills(s, 560, 26, "#9ab887", { waves: 2 });
    roundHut(s, 1350, 640, 170, "#c8895a");
    roundHut(s, 1520, 650, 120, "#b97a4c");
    s.add(
      rect(
        0,
        640,
        s.w,
        360,
        s.lin([
          [0, "#cfa463"],
          [1, "#a97a41"],
        ]),
      ),
    );
    // The mango tree: thick trunk, dense round crown.
    s.add(ellipse(640, 900, 560, 70, "#6b4a2a", `opacity="0.35"`));
    s.add(path("M600 900 C610 760 590 640 560 520 L620 520 C650 620 660 700 690 900 Z", "#5b3f2a"));
    s.add(stroke("M610 560 Q540 470 470 420 M630 560 Q700 470 790 420", "#5b3f2a", 26));
    for (const [x, y, r, c] of [
      [640, 300, 230, "#2d6a4f"],
      [420, 380, 170, "#2f6f4f"],
      [860, 380, 170, "#2a5f45"],
      [520, 230, 150, "#40916c"],
      [780, 240, 150, "#358f64"],
      [640, 440, 180, "#2d6a4f"],
    ] as const)
      s.add(circle(x, y, r, c));
    for (let i = 0; i < 14; i++) s.add(ellipse(s.r(420, 880), s.r(180, 480), 12, 18, "#f4a261", `opacity="0.9"`));
    // Two benches with people sitting and standing around.
    const group: [number, number, number, PersonOpts][] = [
      [
        300,
        930,
        290,
        {
          skin: SKIN.dark,
          top: "#e76f51",
          bottom: "#264653",
          kind: "skirt",
          hair: "wrap",
          wrap: "#e9c46a",
          arms: "hold",
        },
      ],
      [440, 920, 300, { skin: SKIN.brown, top: "#f1faee", bottom: "#3d405b", hair: "short", arms: "forward" }],
      [
        620,
        940,
        290,
        {
          skin: SKIN.pale,
          top: "#457b9d",
          bottom: "#2b2d42",
          hair: "long",
          hairColor: HAIR.grey,
          arms: "hold",
          carry: "book",
          carryColor: "#ffb703",
        },
      ],
      [
        800,
        930,
        300,
        {
          skin: SKIN.deep,
          top: "#8338ec",
          bottom: "#ffbe0b",
          kind: "dress",
          hair: "wrap",
          wrap: "#06d6a0",
          arms: "wave",
          pattern: "#ffbe0b",
        },
      ],
      [960, 950, 290, { skin: SKIN.warm, top: "#2a9d8f", bottom: "#264653", hair: "bald", arms: "down" }],
      [
        1120,
        930,
        210,
        { skin: SKIN.brown, top: "#ffffff", bottom: "#1d4e89", kind: "shorts", hair: "short", arms: "up" },
      ],
    ];
    for (const [x, y, h, o] of group) person(s, x, y, h, o);
    s.add(rect(220, 860, 520, 22, "#8b5e3c"));
    s.add(rect(760, 870, 360, 22, "#8b5e3c"));
    for (const lx of [240, 720, 780, 1100]) s.add(rect(lx - 6, 880, 12, 60, "#6b4226"));
  },
);
// SCENES-END

let changed = 0;
const names = new Set<string>();
for (const [name, title, draw, size] of pictures) {
  if (names.has(name)) throw new Error(`Two pictures are named ${name}`);
  names.add(name);
  const s = size === "square" ? new Scene(800, 800, name) : new Scene(1600, 1000, name);
  draw(s);
  if (save(name, s.render(title))) changed++;
}
console.log(`Drew ${pictures.length} pictures into ${outDir} (${changed} changed)`);
