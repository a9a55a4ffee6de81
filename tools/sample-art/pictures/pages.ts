// Pictures for other pages: the quiz night and sponsored walk (fundraising), the contact letter,
// the donation tick, and the home and about video posters.

import { house, roundHut } from "../buildings";
import { HAIR, SKIN } from "../colour";
import { figures, person, type Placed } from "../figures";
import { acacia, bush, cloud, glow, hills, kilimanjaro, sky, sun } from "../landscape";
import { bunting } from "../objects";
import { f, type Picture, picture } from "../scene";
import { circle, ellipse, line, path, poly, rect, rrect, stroke } from "../shapes";

export const pages: Picture[] = [
  picture(
    "pages/quiz-night",
    "A fundraising quiz night in an English village hall, teams at tables and a quizmaster on stage",
    (s) => {
      // Hall walls: panelling below, pale green above, timber trusses overhead.
      s.add(rect(0, 0, s.w, 640, s.fade("#dfe8d3", "#cddcbf")));
      s.add(rect(0, 520, s.w, 120, "#8b5e3c"));
      for (let x = 0; x < s.w; x += 80) s.add(line(x, 520, x, 640, "#6f4a2e", 3));
      s.add(rect(0, 640, s.w, 360, s.fade("#c08a55", "#9a6a3e")));
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
            s.fade("#1b2a4a", "#34507a"),
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
  ),

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
      hills(s, 580, 26, s.fade("#7fb24f", "#5a8f3a"), { waves: 2 });
      // A dry-stone wall and the footpath.
      s.add(path("M0 650 Q400 620 800 640 T1600 630 L1600 660 Q1200 670 800 670 T0 680 Z", "#a39e93"));
      for (let i = 0; i < 60; i++)
        s.add(ellipse(i * 28 + 10, 652 + Math.sin(i) * 6, 14, 7, "#bdb8ad", `opacity="0.8"`));
      s.add(
        path(
          "M700 620 C800 700 600 800 500 1000 L1100 1000 C1000 820 1000 700 820 620 Z",
          s.fade("#cdb48c", "#b89a6e"),
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
      const walkers: Placed[] = [
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
          {
            skin: SKIN.tan,
            top: "#2a9d8f",
            bottom: "#3d405b",
            kind: "shorts",
            hair: "short",
            hairColor: HAIR.darkBrown,
          },
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
  ),

  picture(
    "pages/contact-letter",
    "An airmail envelope and letter resting over a view of the hills and mountain",
    (s) => {
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
          const x = 470 + 660 * (i / stripes);
          // The airmail border along the top and bottom edges.
          for (const [edge, inward] of [
            [360, 16],
            [780, -16],
          ] as const)
            s.add(
              poly(
                [
                  [x, edge],
                  [x + 22, edge],
                  [x + 10, edge + inward],
                  [x - 12, edge + inward],
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
        for (let i = 0; i < 3; i++)
          s.add(line(620, 640 + i * 34, 620 + [260, 220, 180][i]!, 640 + i * 34, "#34506b", 5));
      });
      // A paper plane for good measure.
      s.add(path("M1300 230 L1450 170 L1360 290 L1345 250 Z", "#ffffff"));
      s.add(path("M1345 250 L1450 170 L1330 270 Z", "#e9e2d3"));
      s.add(stroke("M1290 240 Q1200 280 1120 250 T960 260", "#bca98a", 3, `stroke-dasharray="10 10"`));
    },
  ),

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
  ),

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
      s.add(rect(0, 720, s.w, 280, s.fade("#dba866", "#b98245")));
      acacia(s, 1480, 760, 320, "#6f8a3f");
      const group: Placed[] = [
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
      figures(s, group);
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
  ),

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
      s.add(rect(0, 640, s.w, 360, s.fade("#cfa463", "#a97a41")));
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
      const group: Placed[] = [
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
      figures(s, group);
      s.add(rect(220, 860, 520, 22, "#8b5e3c"));
      s.add(rect(760, 870, 360, 22, "#8b5e3c"));
      for (const lx of [240, 720, 780, 1100]) s.add(rect(lx - 6, 880, 12, 60, "#6b4226"));
    },
  ),
];
