// Buildings: round thatched huts and rectangular houses with pitched roofs, windows and doors.

import { shade, tint } from "./colour";
import { f, type Pt, type Scene } from "./scene";
import { circle, ellipse, line, path, poly, rect } from "./shapes";

/** A round mud-walled hut with a conical thatched roof; (x, y) is the middle of its base. */
export function roundHut(s: Scene, x: number, y: number, w: number, wall = "#c98a57", roof = "#c9a25a"): void {
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

export interface HouseOpts {
  wall: string;
  roof: string;
  trim?: string;
  windows?: number;
  door?: boolean;
  roofStyle?: "tin" | "tile";
  windowGlow?: string;
}

/** A rectangular building with a pitched roof seen from the front; (x, y) is its bottom-left corner. */
export function house(
  s: Scene,
  x: number,
  y: number,
  w: number,
  h: number,
  o: HouseOpts,
): { roofTop: number; roofPts: [Pt, Pt, Pt, Pt] } {
  const trim = o.trim ?? shade(o.wall, 0.35);
  s.add(ellipse(x + w / 2 + w * 0.04, y + 4, w * 0.56, Math.max(8, w * 0.03), "#000000", `opacity="0.16"`));
  s.add(rect(x, y - h, w, h, s.fade(tint(o.wall, 0.08), shade(o.wall, 0.1))));
  s.add(rect(x, y - h * 0.12, w, h * 0.12, shade(o.wall, 0.18)));
  const rh = Math.min(w * 0.2, h * 0.55);
  const roofPts: [Pt, Pt, Pt, Pt] = [
    [x - w * 0.04, y - h + 2],
    [x + w * 0.06, y - h - rh],
    [x + w * 0.94, y - h - rh],
    [x + w * 1.04, y - h + 2],
  ];
  s.add(poly(roofPts, s.fade(tint(o.roof, 0.12), shade(o.roof, 0.2))));
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
      s.add(rect(cx - dw / 2, y - h * 0.62, dw, h * 0.62, s.fade(shade(trim, 0.1), shade(trim, 0.45))));
      s.add(circle(cx + dw * 0.32, y - h * 0.3, Math.max(2.5, dw * 0.05), "#e6c36a"));
    } else {
      const wy = y - h * 0.72;
      const wh = h * 0.36;
      s.add(rect(cx - ww / 2 - 5, wy - 5, ww + 10, wh + 10, trim));
      s.add(rect(cx - ww / 2, wy, ww, wh, o.windowGlow ?? s.fade("#3f5f7a", "#22344a")));
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
