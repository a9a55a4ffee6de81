// Objects used in several pictures: the hand pump, jerrycans, buckets, solar panels, water tanks,
// bunting, books on shelves, a sewing machine, maize plants, goats, school desks and the Tanzanian flag.

import { shade, tint } from "./colour";
import { f, type Pt, type Scene } from "./scene";
import { circle, ellipse, line, path, poly, rect, rrect, stroke } from "./shapes";

export function handPump(s: Scene, x: number, y: number, k: number): void {
  // Concrete apron.
  s.add(ellipse(x, y, 210 * k, 42 * k, "#9e9a92"));
  s.add(ellipse(x, y - 6 * k, 200 * k, 36 * k, s.fade("#cfcac0", "#b3ada2")));
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

export function jerrycan(s: Scene, x: number, y: number, k: number, color: string): void {
  s.add(rrect(x - 24 * k, y - 56 * k, 48 * k, 56 * k, 6 * k, color));
  s.add(rect(x - 24 * k, y - 40 * k, 48 * k, 5 * k, shade(color, 0.15)));
  s.add(rect(x + 6 * k, y - 66 * k, 12 * k, 12 * k, shade(color, 0.35)));
  s.add(rrect(x - 16 * k, y - 66 * k, 18 * k, 8 * k, 3 * k, shade(color, 0.2)));
}

export function bucket(s: Scene, x: number, y: number, k: number, color: string, water = true): void {
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

export function solarPanel(s: Scene, pts: [Pt, Pt, Pt, Pt], cols: number, rows: number, glare = true): void {
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

export function waterTank(s: Scene, x: number, y: number, w: number, h: number, color: string): void {
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

export function bunting(
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
export function bookRow(s: Scene, x: number, y: number, width: number, maxH: number, palette: string[]): void {
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

export function sewingMachine(s: Scene, x: number, y: number, k: number, body = "#2b2b2b"): void {
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

export function maize(s: Scene, x: number, y: number, h: number, leaf: string, cob = true): void {
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

export function goat(s: Scene, x: number, y: number, k: number, coat: string, facing: 1 | -1 = 1): void {
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

/** A school desk with its bench, seen from behind; (x, y) is the middle of the floor line. */
export function desk(s: Scene, x: number, y: number, w: number, k: number, wood = "#8a5a35"): void {
  s.add(ellipse(x, y, w * 0.55, 10 * k, "#000000", `opacity="0.12"`));
  for (const lx of [-0.45, 0.45]) s.add(rect(x + lx * w - 4 * k, y - 110 * k, 8 * k, 110 * k, shade(wood, 0.3)));
  s.add(rect(x - w / 2, y - 120 * k, w, 14 * k, wood));
  s.add(rect(x - w / 2, y - 106 * k, w, 30 * k, shade(wood, 0.15)));
  s.add(rect(x - w * 0.5, y - 55 * k, w, 10 * k, tint(wood, 0.1)));
}

export function tanzaniaFlag(s: Scene, x: number, y: number, w: number): void {
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
