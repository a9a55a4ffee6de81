// Posters for the sample fundraising events that had none of their own: the golf day on an English
// course, carols outside a stone parish church at dusk, and a summer ceilidh in a barn.

import { house } from "../buildings";
import { HAIR, SKIN, shade, tint } from "../colour";
import { person, type PersonOpts } from "../figures";
import { cloud, glow, grass, hills, sky, stars } from "../landscape";
import { bunting } from "../objects";
import { f, type Picture, picture, type Scene } from "../scene";
import { circle, ellipse, line, path, poly, rect, rrect, stroke } from "../shapes";

/** A broad English oak: a short trunk and a wide, lumpy crown; (x, y) is the foot of the trunk. */
function oak(s: Scene, x: number, y: number, h: number, leaf: string): void {
  s.add(ellipse(x + h * 0.05, y, h * 0.45, h * 0.05, "#000000", `opacity="0.15"`));
  s.add(
    path(
      `M${f(x - h * 0.06)} ${f(y)} L${f(x - h * 0.04)} ${f(y - h * 0.5)} L${f(x + h * 0.04)} ${f(y - h * 0.5)} L${f(x + h * 0.07)} ${f(y)} Z`,
      "#4a3728",
    ),
  );
  for (let i = 0; i < 7; i++) {
    const a = (i / 7) * Math.PI * 2;
    s.add(
      circle(
        x + Math.cos(a) * h * 0.24 + s.r(-8, 8),
        y - h * 0.68 + Math.sin(a) * h * 0.16,
        h * s.r(0.17, 0.22),
        i % 2 ? leaf : shade(leaf, 0.1),
      ),
    );
  }
  s.add(circle(x, y - h * 0.72, h * 0.26, tint(leaf, 0.06)));
  s.add(circle(x - h * 0.08, y - h * 0.82, h * 0.12, tint(leaf, 0.18), `opacity="0.7"`));
}

/** A golfer's bag on its stand, with club heads showing; (x, y) is where it stands. */
function golfBag(s: Scene, x: number, y: number, k: number, color: string): void {
  s.add(line(x - 14 * k, y, x - 4 * k, y - 60 * k, "#555555", 3 * k));
  s.add(line(x + 18 * k, y, x + 8 * k, y - 60 * k, "#555555", 3 * k));
  for (const [dx, c] of [
    [-8, "#c0c0c0"],
    [0, "#d9d9d9"],
    [8, "#a8a8a8"],
  ] as const) {
    s.add(line(x + dx * k, y - 100 * k, x + dx * k + 4 * k, y - 128 * k, "#333333", 2.5 * k));
    s.add(rrect(x + dx * k + 1 * k, y - 134 * k, 9 * k, 8 * k, 2 * k, c));
  }
  s.add(rrect(x - 14 * k, y - 104 * k, 28 * k, 104 * k, 8 * k, color, `transform="rotate(8 ${f(x)} ${f(y)})"`));
  s.add(rect(x - 14 * k, y - 70 * k, 28 * k, 10 * k, shade(color, 0.3), `transform="rotate(8 ${f(x)} ${f(y)})"`));
}

/** A scarf, and on a hat (a figure drawn with `hair: "cap"`) a bobble, over a figure drawn with `person`. */
function wrapUp(s: Scene, x: number, y: number, h: number, hat: string | undefined, scarf: string): void {
  const u = h / 100;
  if (hat) s.add(circle(x, y - 93 * u - 10.5 * u, 2.6 * u, tint(hat, 0.4)));
  s.add(rrect(x - 7 * u, y - 87 * u, 14 * u, 3.4 * u, 1.5 * u, scarf));
  s.add(rrect(x + 2 * u, y - 86 * u, 3.4 * u, 15 * u, 1.5 * u, scarf));
}

/** A lit candle in a paper collar at (x, y), the foot of the candle, `k` its scale. */
function candle(s: Scene, x: number, y: number, k: number): void {
  glow(s, x, y - 16 * k, 30 * k, "#ffd27a", 0.5);
  s.add(rect(x - 2.2 * k, y - 12 * k, 4.4 * k, 12 * k, "#fbf5e6"));
  s.add(
    path(
      `M${f(x - 6 * k)} ${f(y - 2 * k)} L${f(x + 6 * k)} ${f(y - 2 * k)} L${f(x + 3 * k)} ${f(y + 2 * k)} L${f(x - 3 * k)} ${f(y + 2 * k)} Z`,
      "#ffffff",
    ),
  );
  s.add(ellipse(x, y - 16.5 * k, 2.2 * k, 4.2 * k, "#ffb703"));
  s.add(ellipse(x, y - 15.5 * k, 1 * k, 2 * k, "#fff6d5"));
}

/** A pointed (Gothic) window: left edge x, sill y, width w, height h. */
function gothicWindow(s: Scene, x: number, y: number, w: number, h: number, glass: string, frame: string): void {
  const arch = (inset: number) =>
    `M${f(x + inset)} ${f(y)} L${f(x + inset)} ${f(y - h + w * 0.6)} Q${f(x + inset)} ${f(y - h + w * 0.05)} ${f(x + w / 2)} ${f(y - h + inset)} Q${f(x + w - inset)} ${f(y - h + w * 0.05)} ${f(x + w - inset)} ${f(y - h + w * 0.6)} L${f(x + w - inset)} ${f(y)} Z`;
  s.add(path(arch(-8), frame));
  s.add(path(arch(0), glass));
  s.add(line(x + w / 2, y - h + 6, x + w / 2, y, frame, 5));
  for (let i = 1; i < 4; i++) s.add(line(x, y - (h * i) / 4.5, x + w, y - (h * i) / 4.5, frame, 3, `opacity="0.8"`));
}

/** Courses of stone over a rectangle, so a wall reads as built of blocks. */
function stonework(s: Scene, x: number, y: number, w: number, h: number, mortar: string): void {
  const course = 26;
  for (let row = 0; row * course < h; row++) {
    const yy = y + row * course;
    s.add(line(x, yy, x + w, yy, mortar, 2, `opacity="0.45"`));
    for (let xx = x + (row % 2 ? 0 : 24) + s.r(0, 20); xx < x + w; xx += s.r(40, 70))
      s.add(line(xx, yy, xx, Math.min(yy + course, y + h), mortar, 2, `opacity="0.35"`));
  }
}

/** A hay bale seen from the side; (x, y) its bottom-left corner. */
function hayBale(s: Scene, x: number, y: number, w: number, h: number): void {
  s.add(rrect(x, y - h, w, h, 8, s.fade("#ecd27f", "#cfae55")));
  for (let i = 0; i < 14; i++) {
    const sx = x + s.r(6, w - 6);
    const sy = y - s.r(6, h - 6);
    s.add(line(sx, sy, sx + s.r(-10, 10), sy + s.r(-4, 4), "#b8953f", 2, `opacity="0.7"`));
  }
  s.add(line(x + w * 0.3, y - h, x + w * 0.3, y, "#9c7a35", 3));
  s.add(line(x + w * 0.7, y - h, x + w * 0.7, y, "#9c7a35", 3));
}

const coats = ["#b23a48", "#1d3557", "#2a9d8f", "#e9c46a", "#6a4c93", "#3a5a40", "#c8553d", "#264653"];

export const eventPictures: Picture[] = [
  picture(
    "pages/golf-day",
    "Golfers on a sunny putting green with a red flag, among oak trees and hedged fields of the English countryside",
    (s) => {
      sky(s, [
        [0, "#6fb0e6"],
        [0.5, "#cde6f7"],
      ]);
      cloud(s, 120, 90, 1.2);
      cloud(s, 620, 40, 0.8);
      cloud(s, 1150, 110, 1.4);
      hills(s, 420, 36, "#9ec27a", { waves: 2 });
      // Far fields in a patchwork of greens and a ripe yellow, hedged in darker green.
      const fields = ["#b5cf7d", "#8fbf5a", "#d9cf7a", "#7fae4f"];
      for (let i = 0; i < 4; i++) {
        const d = hills(s, 450 + i * 26, 18, fields[i]!, { waves: 2 });
        s.add(path(d, "none", `stroke="#4f7a35" stroke-width="6" stroke-linejoin="round"`));
      }
      for (let i = 0; i < 9; i++) {
        const x = 90 + i * 180 + s.r(-30, 30);
        s.add(stroke(`M${f(x)} ${f(440 + s.r(0, 20))} q${f(s.r(-20, 20))} 60 ${f(s.r(-30, 30))} 120`, "#4f7a35", 6));
      }
      // The clubhouse among trees, and a line of hedgerow oaks.
      house(s, 1080, 560, 300, 90, { wall: "#f4ecdc", roof: "#8c3b2c", roofStyle: "tile", windows: 4 });
      for (const [x, h] of [
        [1030, 120],
        [1420, 150],
        [90, 140],
        [260, 110],
        [700, 90],
      ] as const)
        oak(s, x, 575, h, "#4f7f3a");
      // The course: a fairway in mowing stripes running up to the green.
      hills(s, 590, 14, "#6fa845", { waves: 2 });
      const fairway = "M-20 1000 C200 860 300 720 620 640 C820 600 1100 610 1300 660 C1500 720 1600 800 1640 1000 Z";
      s.add(path(fairway, "#7dbb4f"));
      const stripes = s.clip(fairway);
      s.group(`clip-path="${stripes}"`, () => {
        for (let i = -6; i < 22; i++)
          s.add(
            poly(
              [
                [i * 110, 1000],
                [i * 110 + 55, 1000],
                [i * 70 + 420, 560],
                [i * 70 + 385, 560],
              ],
              "#8cc95c",
              `opacity="0.6"`,
            ),
          );
      });
      // Bunkers.
      s.add(ellipse(330, 790, 170, 42, "#d8c48d"));
      s.add(ellipse(330, 784, 160, 34, "#ecdcaa"));
      s.add(ellipse(1330, 745, 130, 30, "#d8c48d"));
      s.add(ellipse(1330, 740, 122, 24, "#ecdcaa"));
      // The green, its fringe, the hole and the flag.
      s.add(ellipse(820, 760, 470, 130, "#5f9e3c"));
      s.add(ellipse(820, 756, 450, 118, s.fade("#9fd86f", "#86c95a")));
      for (let i = 0; i < 6; i++)
        s.add(
          ellipse(820, 756, 450 - i * 70, 118 - i * 18, "none", `stroke="#a9de7c" stroke-width="10" opacity="0.35"`),
        );
      s.add(ellipse(960, 742, 15, 5, "#1d2a16"));
      s.add(line(960, 742, 960, 470, "#f7f7f2", 6));
      s.add(path("M963 474 L1080 504 L963 534 Z", "#d62828"));
      s.add(path("M963 474 L1080 504 L1040 510 Z", "#ffffff", `opacity="0.18"`));
      s.add(circle(905, 760, 7, "#ffffff"));
      s.add(stroke("M905 760 Q930 752 954 744", "#ffffff", 2, `stroke-dasharray="4 6" opacity="0.7"`));
      // A golfer lining up a putt, another holding the flag's place, a third waiting with the bag.
      const putter: PersonOpts = {
        skin: SKIN.light,
        top: "#2a9d8f",
        bottom: "#e9e4d4",
        hair: "cap",
        wrap: "#264653",
        arms: "hold",
      };
      person(s, 760, 830, 300, putter);
      s.add(line(775, 656, 860, 820, "#3a3a3a", 6));
      s.add(rrect(846, 812, 34, 10, 3, "#b0b0b0"));
      person(s, 1080, 800, 260, {
        skin: SKIN.brown,
        top: "#f4a261",
        bottom: "#264653",
        hair: "short",
        hairColor: HAIR.black,
        arms: "down",
      });
      person(s, 1230, 880, 310, {
        skin: SKIN.pale,
        top: "#e63946",
        bottom: "#2b2d42",
        kind: "skirt",
        hair: "long",
        hairColor: HAIR.blonde,
        arms: "wave",
      });
      golfBag(s, 1330, 900, 1.3, "#1d3557");
      person(s, 480, 900, 320, {
        skin: SKIN.tan,
        top: "#ffffff",
        bottom: "#3d405b",
        hair: "bald",
        arms: "down",
        carry: "bag",
        carryColor: "#2a9d8f",
      });
      // The rough in the foreground.
      s.add(path("M-20 1000 Q400 930 800 960 T1640 940 L1640 1000 Z", "#5e9438"));
      grass(s, 930, 1000, 90, "#3f6b2e", 18);
    },
  ),

  picture(
    "pages/carol-concert",
    "Carol singers holding candles outside a stone English parish church at dusk, its windows glowing",
    (s) => {
      sky(s, [
        [0, "#161d3f"],
        [0.4, "#34396e"],
        [0.66, "#8a5a7e"],
        [0.8, "#e59a6a"],
      ]);
      stars(s, 90, 420);
      s.add(circle(1380, 150, 40, "#fdf3d0"));
      s.add(circle(1398, 140, 38, "#1c2247"));
      hills(s, 640, 24, "#3b3560", { waves: 2 });
      hills(s, 690, 16, "#2b2848", { waves: 2 });
      const stone = "#9c8f84";
      const dark = shade(stone, 0.35);
      const lit = s.fade("#ffe3a0", "#f0a94e");
      // A yew beside the tower.
      s.add(ellipse(250, 560, 120, 190, "#1f3328"));
      s.add(ellipse(230, 520, 80, 130, "#294536", `opacity="0.8"`));
      // The nave: stone walls, a slate roof and three lit Gothic windows.
      s.add(
        poly(
          [
            [600, 440],
            [1340, 440],
            [1300, 330],
            [640, 330],
          ],
          "#3b3f52",
        ),
      );
      for (let i = 0; i < 24; i++) s.add(line(640 + i * 28, 332, 600 + i * 31, 440, "#2f3343", 2, `opacity="0.6"`));
      s.add(rect(620, 440, 700, 330, s.fade(tint(stone, 0.05), shade(stone, 0.2))));
      stonework(s, 620, 440, 700, 330, dark);
      for (const wx of [700, 900, 1100]) {
        glow(s, wx + 40, 590, 150, "#ffcf7a", 0.35);
        gothicWindow(s, wx, 680, 80, 190, lit, dark);
      }
      // The porch with its door open onto the candlelight.
      s.add(
        poly(
          [
            [1180, 600],
            [1260, 530],
            [1340, 600],
          ],
          "#3b3f52",
        ),
      );
      s.add(rect(1190, 600, 140, 170, tint(stone, 0.05)));
      s.add(path("M1225 770 L1225 660 Q1260 620 1295 660 L1295 770 Z", lit));
      glow(s, 1260, 720, 130, "#ffcf7a", 0.4);
      // The tower: battlements, pinnacles, a belfry opening and a clock.
      s.add(rect(380, 200, 250, 570, s.fade(tint(stone, 0.08), shade(stone, 0.25))));
      stonework(s, 380, 200, 250, 570, dark);
      for (let i = 0; i < 5; i++) s.add(rect(380 + i * 56, 170, 30, 32, stone));
      for (const px of [372, 612])
        s.add(
          poly(
            [
              [px, 200],
              [px + 13, 120],
              [px + 26, 200],
            ],
            stone,
          ),
        );
      s.add(rect(370, 196, 270, 10, dark));
      s.add(path("M470 360 L470 290 Q505 250 540 290 L540 360 Z", "#1b1d2e"));
      for (let i = 0; i < 4; i++) s.add(line(472, 300 + i * 16, 538, 300 + i * 16, "#6a6070", 4));
      s.add(circle(505, 430, 36, "#f4ecd8"));
      s.add(circle(505, 430, 36, "none", `stroke="${dark}" stroke-width="5"`));
      s.add(line(505, 430, 505, 404, "#222222", 4));
      s.add(line(505, 430, 524, 440, "#222222", 4));
      gothicWindow(s, 465, 640, 80, 160, lit, dark);
      glow(s, 505, 570, 120, "#ffcf7a", 0.3);
      // A wreath on the tower door.
      s.add(path("M470 770 L470 700 Q505 665 540 700 L540 770 Z", "#4a2f22"));
      s.add(circle(505, 716, 14, "none", `stroke="#2d6a4f" stroke-width="8"`));
      s.add(circle(505, 703, 4, "#c1121f"));
      // The churchyard: frosty grass, headstones, a path and lanterns.
      s.add(rect(0, 770, s.w, 230, s.fade("#2f4a45", "#1d2e2c")));
      s.add(path("M1200 770 L1320 770 L1500 1000 L1060 1000 Z", "#6e6a72"));
      for (const [x, y, k] of [
        [90, 830, 1],
        [200, 800, 0.8],
        [1420, 810, 0.85],
        [1540, 850, 1.1],
        [700, 800, 0.7],
      ] as const) {
        s.add(
          path(
            `M${f(x - 22 * k)} ${f(y)} L${f(x - 22 * k)} ${f(y - 50 * k)} Q${f(x)} ${f(y - 72 * k)} ${f(x + 22 * k)} ${f(y - 50 * k)} L${f(x + 22 * k)} ${f(y)} Z`,
            "#857d78",
          ),
        );
        s.add(rect(x - 22 * k, y - 52 * k, 44 * k, 6 * k, "#ffffff", `opacity="0.25"`));
      }
      for (let i = 0; i < 160; i++)
        s.add(circle(s.r(0, s.w), s.r(790, 1000), s.r(1, 2.4), "#e8f1f2", `opacity="${f(s.r(0.2, 0.5))}"`));
      for (const lx of [60, 1560]) {
        s.add(line(lx, 960, lx, 800, "#1b1b1b", 6));
        s.add(rrect(lx - 14, 770, 28, 36, 4, "#ffd27a", `stroke="#1b1b1b" stroke-width="4"`));
        glow(s, lx, 788, 90, "#ffd27a", 0.5);
      }
      // The carol singers, wrapped up, each with a candle and some with the words.
      const singers: [number, number, number, PersonOpts, string, string][] = [
        [
          330,
          930,
          230,
          { skin: SKIN.pale, top: coats[0]!, bottom: "#2b2d42", hair: "cap", wrap: "#f1faee" },
          "#f1faee",
          "#2a9d8f",
        ],
        [
          470,
          900,
          200,
          { skin: SKIN.brown, top: coats[1]!, bottom: "#2b2d42", hair: "cap", wrap: "#e63946" },
          "#e63946",
          "#e9c46a",
        ],
        [
          600,
          940,
          240,
          { skin: SKIN.light, top: coats[4]!, bottom: "#333333", kind: "skirt", hair: "long", hairColor: HAIR.auburn },
          "#6a4c93",
          "#f1faee",
        ],
        [
          740,
          910,
          150,
          { skin: SKIN.dark, top: coats[3]!, bottom: "#1d3557", kind: "shorts", hair: "puff" },
          "#e9c46a",
          "#c1121f",
        ],
        [
          860,
          950,
          250,
          {
            skin: SKIN.olive,
            top: coats[5]!,
            bottom: "#2b2d42",
            hair: "cap",
            wrap: "#c8553d",
            carry: "book",
            carryColor: "#c1121f",
          },
          "#c8553d",
          "#f4a261",
        ],
        [
          1000,
          920,
          210,
          { skin: SKIN.pale, top: coats[6]!, bottom: "#2b2d42", hair: "short", hairColor: HAIR.grey },
          "#264653",
          "#2a9d8f",
        ],
        [
          1130,
          960,
          160,
          { skin: SKIN.warm, top: coats[2]!, bottom: "#264653", kind: "skirt", hair: "bun", hairColor: HAIR.black },
          "#2a9d8f",
          "#ffb703",
        ],
      ];
      for (const [x, y, h, o, hat, scarf] of singers) {
        person(s, x, y, h, { ...o, arms: "hold" });
        const u = h / 100;
        wrapUp(s, x, y, h, o.hair === "cap" ? hat : undefined, scarf);
        candle(s, x - 5 * u, y - 58 * u, u * 0.75);
      }
      s.add(rect(0, 0, s.w, s.h, "#1b1340", `opacity="0.06"`));
    },
  ),

  picture(
    "pages/ceilidh",
    "A summer ceilidh in a timber barn hung with bunting and lights: a fiddler and accordion player on hay bales, dancers hand in hand",
    (s) => {
      // Barn walls of vertical boards, the big doors open onto a summer evening.
      s.add(rect(0, 0, s.w, 700, s.fade("#9a6a44", "#7a4f32")));
      for (let x = 0; x < s.w; x += 46) s.add(line(x, 0, x, 700, "#5e3b24", 3, `opacity="0.6"`));
      s.group(`clip-path="${s.clip("M620 150 L980 150 L980 630 L620 630 Z")}"`, () => {
        s.add(rect(620, 150, 360, 480, s.fade("#f7b267", "#f4845f")));
        s.add(circle(820, 470, 60, "#ffe5a8"));
        hills(s, 560, 18, "#6a8d4f", { bottom: 630 });
        s.add(rect(620, 590, 360, 40, "#55733f"));
      });
      for (const dx of [560, 980]) {
        s.add(rect(dx, 150, 60, 480, "#6b4226"));
        for (let i = 0; i < 3; i++) s.add(line(dx + 6, 170 + i * 150, dx + 54, 290 + i * 150, "#4a2d1a", 8));
      }
      s.add(rect(600, 130, 400, 24, "#4a2d1a"));
      // The frame: posts, beams and roof trusses.
      for (const x of [60, 420, 1180, 1540]) s.add(rect(x - 18, 0, 36, 700, "#4a2d1a"));
      s.add(rect(0, 70, s.w, 30, "#4a2d1a"));
      for (const x of [240, 800, 1360]) {
        s.add(
          poly(
            [
              [x - 260, 100],
              [x, 0],
              [x + 260, 100],
            ],
            "none",
            `stroke="#4a2d1a" stroke-width="22"`,
          ),
        );
        s.add(line(x, 0, x, 100, "#4a2d1a", 16));
      }
      // Bunting and a string of festoon lights.
      bunting(s, 0, 130, 800, 150, 50, ["#e63946", "#f1faee", "#457b9d", "#ffb703", "#2a9d8f"], 30);
      bunting(s, 800, 150, 1600, 130, 50, ["#2a9d8f", "#ffb703", "#e63946", "#f1faee", "#457b9d"], 30);
      for (const [x1, x2] of [
        [0, 800],
        [800, 1600],
      ] as const) {
        s.add(stroke(`M${x1} 220 Q${(x1 + x2) / 2} 320 ${x2} 220`, "#333333", 2));
        for (let i = 1; i < 12; i++) {
          const t = i / 12;
          const px = x1 + (x2 - x1) * t;
          const py = (1 - t) * (1 - t) * 220 + 2 * (1 - t) * t * 320 + t * t * 220;
          glow(s, px, py + 10, 40, "#ffe8a3", 0.5);
          s.add(circle(px, py + 10, 7, "#fff3c4"));
        }
      }
      // The floor: wide boards running away from us.
      s.add(rect(0, 700, s.w, 300, s.fade("#c99a62", "#a87645")));
      for (let i = -10; i <= 10; i++)
        s.add(line(800 + i * 60, 700, 800 + i * 190, 1000, "#8d6038", 3, `opacity="0.5"`));
      // The band on a stage of hay bales: fiddle, accordion and a drum.
      hayBale(s, 1120, 640, 200, 70);
      hayBale(s, 1320, 640, 200, 70);
      hayBale(s, 1220, 700, 220, 70);
      const fx = 1230;
      const fy = 640;
      const fh = 220;
      const u = fh / 100;
      person(s, fx, fy, fh, {
        skin: SKIN.light,
        top: "#f1faee",
        bottom: "#3d405b",
        hair: "short",
        hairColor: HAIR.auburn,
        arms: "hold",
      });
      s.add(rect(fx - 9 * u, fy - 82 * u, 18 * u, 28 * u, "#2d6a4f", `opacity="0.85"`));
      s.add(
        ellipse(
          fx - 4 * u,
          fy - 70 * u,
          6 * u,
          9 * u,
          "#8a3b12",
          `transform="rotate(-50 ${f(fx - 4 * u)} ${f(fy - 70 * u)})"`,
        ),
      );
      s.add(line(fx - 4 * u, fy - 70 * u, fx - 20 * u, fy - 84 * u, "#2b1a0e", 1.6 * u));
      s.add(line(fx + 14 * u, fy - 52 * u, fx - 12 * u, fy - 76 * u, "#d9c9a3", 1 * u));
      const ax = 1410;
      person(s, ax, fy, 200, { skin: SKIN.dark, top: "#457b9d", bottom: "#2b2d42", hair: "short", arms: "hold" });
      const v = 2;
      s.add(rrect(ax - 13 * v, fy - 74 * v, 26 * v, 22 * v, 2 * v, "#c1121f"));
      for (let i = 1; i < 6; i++)
        s.add(line(ax - 13 * v + i * 4.4 * v, fy - 74 * v, ax - 13 * v + i * 4.4 * v, fy - 52 * v, "#7a0c14", 1.4 * v));
      s.add(rect(ax - 13 * v, fy - 74 * v, 5 * v, 22 * v, "#f1faee"));
      for (let i = 0; i < 4; i++) s.add(circle(ax - 10.5 * v, fy - 71 * v + i * 5 * v, 1 * v, "#333333"));
      person(s, 1330, 700, 180, {
        skin: SKIN.olive,
        top: "#e9c46a",
        bottom: "#264653",
        hair: "bun",
        hairColor: HAIR.darkBrown,
        arms: "hold",
      });
      s.add(circle(1330, 700 - 62 * 1.8, 12 * 1.8, "#f3e2c0", `stroke="#6b4226" stroke-width="4"`));
      // Dancers hand in hand in a ring at the back, and a couple making an arch for another to pass under.
      const ring: PersonOpts[] = [
        {
          skin: SKIN.pale,
          top: "#e76f51",
          bottom: "#2b2d42",
          kind: "dress",
          hair: "long",
          hairColor: HAIR.blonde,
          pattern: "#f1faee",
        },
        { skin: SKIN.brown, top: "#2a9d8f", bottom: "#3d405b", hair: "short" },
        { skin: SKIN.light, top: "#8338ec", bottom: "#ffbe0b", kind: "skirt", hair: "bun", hairColor: HAIR.brown },
        { skin: SKIN.tan, top: "#f1faee", bottom: "#1d3557", hair: "short", hairColor: HAIR.darkBrown },
        {
          skin: SKIN.deep,
          top: "#ffb703",
          bottom: "#e63946",
          kind: "dress",
          hair: "wrap",
          wrap: "#2a9d8f",
          pattern: "#f1faee",
        },
        { skin: SKIN.pale, top: "#457b9d", bottom: "#2b2d42", hair: "bald" },
      ];
      const rh = 190;
      ring.forEach((o, i) => person(s, 160 + i * rh * 0.26, 780 + (i % 2) * 8, rh, { ...o, arms: "down" }));
      const ring2: PersonOpts[] = [
        { skin: SKIN.olive, top: "#06d6a0", bottom: "#2b2d42", hair: "long", hairColor: HAIR.black, kind: "skirt" },
        { skin: SKIN.light, top: "#ef476f", bottom: "#3d405b", hair: "cap", wrap: "#264653" },
        { skin: SKIN.warm, top: "#f4a261", bottom: "#1d3557", kind: "dress", hair: "puff", pattern: "#ffffff" },
      ];
      ring2.forEach((o, i) => person(s, 820 + i * rh * 0.26, 790 + (i % 2) * 8, rh, { ...o, arms: "down" }));
      // In front, a line of dancers hand in hand, skirts swinging.
      const front: PersonOpts[] = [
        {
          skin: SKIN.brown,
          top: "#e63946",
          bottom: "#f1faee",
          kind: "dress",
          hair: "wrap",
          wrap: "#ffb703",
          pattern: "#ffb703",
        },
        { skin: SKIN.light, top: "#264653", bottom: "#6b705c", hair: "short", hairColor: HAIR.brown },
        { skin: SKIN.pale, top: "#ffb703", bottom: "#457b9d", kind: "skirt", hair: "long", hairColor: HAIR.auburn },
        { skin: SKIN.dark, top: "#f1faee", bottom: "#2b2d42", hair: "short" },
        {
          skin: SKIN.olive,
          top: "#8338ec",
          bottom: "#2a9d8f",
          kind: "dress",
          hair: "bun",
          hairColor: HAIR.black,
          pattern: "#ffffff",
        },
      ];
      const fh2 = 280;
      front.forEach((o, i) => {
        const x = 330 + i * fh2 * 0.26;
        const y = 975 - (i % 2) * 14;
        person(s, x, y, fh2, { ...o, arms: "down" });
        if (o.kind === "dress" || o.kind === "skirt")
          s.add(
            stroke(
              `M${f(x - 70)} ${f(y - 30)} Q${f(x)} ${f(y)} ${f(x + 70)} ${f(y - 30)}`,
              "#ffffff",
              3,
              `opacity="0.5"`,
            ),
          );
      });
      // A child jumping for joy at the edge of the floor.
      person(s, 1000, 960, 170, {
        skin: SKIN.warm,
        top: "#06d6a0",
        bottom: "#1d3557",
        kind: "shorts",
        hair: "puff",
        arms: "up",
      });
      for (const dx of [-30, 30]) s.add(stroke(`M${1000 + dx} 985 q${dx / 3} 8 ${dx / 1.5} 0`, "#8d6038", 3));
    },
  ),
];
