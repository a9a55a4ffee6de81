// People in the scenes: standing figures with clothes, hair and things they carry, children seen from
// behind at their desks, and children sitting cross-legged with a book.

import { HAIR, shade } from "./colour";
import { f, type Pt, type Scene } from "./scene";
import { circle, ellipse, line, path, rect, rrect, stroke } from "./shapes";

export interface PersonOpts {
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
export function person(s: Scene, x: number, y: number, h: number, o: PersonOpts): void {
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

/** A figure placed in a scene: feet on (x, y), `h` tall. */
export type Placed = [x: number, y: number, h: number, o: PersonOpts];

/** Draws a group of standing figures, in order (the later ones in front). */
export function figures(s: Scene, group: Placed[]): void {
  for (const [x, y, h, o] of group) person(s, x, y, h, o);
}

/** A seated child seen from behind (classroom scenes): head and shoulders, (x, y) the bottom middle. */
export function childFromBehind(
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

/** A child sitting cross-legged reading an open book; (x, y) is where they sit. */
export function seatedReader(
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
