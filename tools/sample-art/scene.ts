// The canvas every picture is drawn on: coordinate rounding, the seeded random numbers that keep
// the output deterministic, and the Scene that collects gradients, clip paths and shapes into an SVG.
// Also the Picture record that each module under pictures/ lists.

export type Pt = [number, number];
export type Stop = [offset: number, color: string, opacity?: number];

/** Rounds coordinates to one decimal so the files stay small and stable. */
export const f = (n: number): string => String(Math.round(n * 10) / 10);

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

export class Scene {
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

  /** A top-to-bottom gradient from one colour to another. */
  fade(top: string, bottom: string): string {
    return this.lin([
      [0, top],
      [1, bottom],
    ]);
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

/** A picture: where it is written (content/images/<name>.svg), its title, and how to draw it. */
export interface Picture {
  name: string;
  title: string;
  draw: (s: Scene) => void;
  /** Square pictures (portraits and the tick) are 800x800; the rest 1600x1000. */
  size?: "square";
}

export function picture(name: string, title: string, draw: (s: Scene) => void, size?: "square"): Picture {
  return { name, title, draw, size };
}
