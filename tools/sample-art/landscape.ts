// Landscape pieces: sky, sun, clouds, rolling hills, the Kilimanjaro-like mountain, acacia and baobab
// trees, bushes, grass, birds, stars, glows and rain.

import { mix, shade, tint } from "./colour";
import { f, type Pt, type Scene, type Stop } from "./scene";
import { circle, ellipse, line, path, poly, rect, rrect, smooth, stroke } from "./shapes";

export function sky(s: Scene, stops: Stop[]): void {
  s.add(rect(0, 0, s.w, s.h, s.lin(stops)));
}

export function sun(s: Scene, cx: number, cy: number, r: number, color: string, glow = color): void {
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

export function cloud(s: Scene, x: number, y: number, scale: number, color = "#ffffff", opacity = 0.9): void {
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
export function hills(
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
export function kilimanjaro(
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
    s.add(path(snowD, s.fade("#ffffff", c.snow)));
    s.add(
      poly([P(0.02, 1.1), P(0.3, 1.1), P(0.3, 0.7), P(0.1, 0.78), P(0.05, 0.9)], shade(c.snow, 0.12), `opacity="0.45"`),
    );
  });
}

/** An umbrella thorn acacia standing on (x, y), `h` tall. */
export function acacia(s: Scene, x: number, y: number, h: number, leaf: string, bark = "#4a3528"): void {
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
export function baobab(s: Scene, x: number, y: number, h: number, bark: string, leaf: string): void {
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

export function birds(s: Scene, x: number, y: number, n: number, size: number, color = "#2d2a35"): void {
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
export function grass(s: Scene, y0: number, y1: number, n: number, color: string, size = 14): void {
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

export function bush(s: Scene, x: number, y: number, r: number, color: string): void {
  s.add(ellipse(x, y + r * 0.1, r * 1.3, r * 0.3, "#000000", `opacity="0.12"`));
  s.add(circle(x - r * 0.6, y - r * 0.35, r * 0.65, shade(color, 0.12)));
  s.add(circle(x + r * 0.55, y - r * 0.4, r * 0.7, shade(color, 0.05)));
  s.add(circle(x, y - r * 0.7, r * 0.8, color));
  s.add(circle(x - r * 0.2, y - r * 0.95, r * 0.35, tint(color, 0.15), `opacity="0.7"`));
}

export function stars(s: Scene, n: number, maxY: number): void {
  for (let i = 0; i < n; i++)
    s.add(circle(s.r(0, s.w), s.r(0, maxY) * s.r(0.3, 1), s.r(0.8, 2.4), "#ffffff", `opacity="${f(s.r(0.3, 0.9))}"`));
}

export function glow(s: Scene, x: number, y: number, r: number, color: string, strength = 0.6): void {
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

export function rain(s: Scene, n: number, y0: number, y1: number, color = "#dbe8f3"): void {
  for (let i = 0; i < n; i++) {
    const x = s.r(-40, s.w);
    const y = s.r(y0, y1);
    const len = s.r(18, 38);
    s.add(line(x, y, x + len * 0.3, y + len, color, 2, `opacity="${f(s.r(0.35, 0.7))}"`));
  }
}
