// Head-and-shoulders portraits (the square pictures of staff and people quoted in testimonials).

import { HAIR, mix, shade, tint } from "./colour";
import { type Scene } from "./scene";
import { circle, ellipse, line, path, rect, rrect, stroke } from "./shapes";

export interface PortraitOpts {
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

export function portrait(s: Scene, o: PortraitOpts): void {
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
  s.add(path(shoulders, s.fade(tint(o.top, 0.08), shade(o.top, 0.12))));
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
