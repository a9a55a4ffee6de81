// One picture for each project: the borehole, classroom block, maternity clinic, solar lighting,
// school garden, bursaries, library, football pitch, tailoring co-operative, rainwater tanks and
// the footbridge.

import { house, roundHut } from "../buildings";
import { HAIR, shade, SKIN } from "../colour";
import { childFromBehind, person, type PersonOpts, type Placed, seatedReader } from "../figures";
import { acacia, bush, cloud, grass, hills, kilimanjaro, rain, sky, sun } from "../landscape";
import {
  bookRow,
  bucket,
  desk,
  handPump,
  jerrycan,
  sewingMachine,
  solarPanel,
  tanzaniaFlag,
  waterTank,
} from "../objects";
import { f, type Picture, picture } from "../scene";
import { circle, ellipse, line, path, poly, rect, rrect, stroke } from "../shapes";

export const projects: Picture[] = [
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
      hills(s, 630, 14, s.fade("#d9b06c", "#c48f4f"), { waves: 2 });
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
  ),

  picture(
    "projects/classroom-block",
    "Pupils at wooden desks facing the teacher and a chalkboard in a bright new classroom",
    (s) => {
      // Walls: cream above, a painted band below, as in many Tanzanian schools.
      s.add(rect(0, 0, s.w, 640, s.fade("#f6ead2", "#efdcb8")));
      s.add(rect(0, 470, s.w, 170, "#4f8f8a"));
      s.add(rect(0, 462, s.w, 10, "#3b6f6b"));
      s.add(rect(0, 640, s.w, 360, s.fade("#b9a48c", "#8f7a64")));
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
      s.add(rect(436, 136, 728, 298, s.fade("#2f5d50", "#244a40")));
      const chalk = "#f4f1e6";
      s.add(circle(560, 230, 46, "none", `stroke="${chalk}" stroke-width="5"`));
      for (let i = 0; i < 8; i++) {
        const a = (i / 8) * Math.PI * 2;
        s.add(
          line(
            560 + Math.cos(a) * 58,
            230 + Math.sin(a) * 58,
            560 + Math.cos(a) * 78,
            230 + Math.sin(a) * 78,
            chalk,
            5,
          ),
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
  ),

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
      hills(s, 620, 12, s.fade("#9cc27a", "#6d9a4f"), { waves: 2 });
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
      s.add(rect(0, 760, s.w, 240, s.fade("#c99a5b", "#a9763f")));
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
  ),

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
    hills(s, 760, 10, s.fade("#cfa567", "#a97c45"), { waves: 2 });
    // A big house with a long sloping roof.
    s.add(ellipse(820, 905, 620, 30, "#000000", `opacity="0.16"`));
    s.add(rect(300, 620, 1040, 280, s.fade("#f0d9b5", "#d9bf98")));
    for (const wx of [420, 1100]) {
      s.add(rect(wx - 6, 700, 132, 112, "#6d4c41"));
      s.add(rect(wx, 706, 120, 100, s.fade("#4d7391", "#2c4660")));
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
        s.fade("#aab3bb", "#7d8790"),
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
    s.add(rect(0, 900, s.w, 100, s.fade("#b88a52", "#946a3a")));
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
  }),

  picture("projects/school-meals-garden", "Children watering rows of vegetables in the school garden", (s) => {
    sky(s, [
      [0, "#76c3ea"],
      [0.55, "#d3eef8"],
    ]);
    cloud(s, 1150, 90, 1.1);
    hills(s, 420, 26, "#9dbb86", { waves: 2 });
    house(s, 360, 470, 880, 150, { wall: "#f2e3c6", roof: "#b5543c", roofStyle: "tile", windows: 5, door: false });
    tanzaniaFlag(s, 1320, 210, 90);
    s.add(rect(0, 470, s.w, 530, s.fade("#a1773f", "#7d5630")));
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
  }),
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
      s.add(rect(220, 300, 1160, 390, s.fade("#f7efe1", "#e8dcc6")));
      s.add(rect(220, 470, 1160, 24, "#7d4f50"));
      s.add(
        poly(
          [
            [190, 305],
            [300, 230],
            [1300, 230],
            [1410, 305],
          ],
          s.fade("#9c4a3c", "#7a3329"),
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
      s.add(rect(0, 690, s.w, 310, s.fade("#cfa56a", "#b4864f")));
      s.add(path("M640 690 L960 690 L1180 1000 L420 1000 Z", "#e2c393"));
      bush(s, 120, 700, 50, "#4f7f3a");
      bush(s, 1550, 700, 60, "#4f7f3a");
      const girls: Placed[] = [
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
  ),

  picture("projects/village-library", "Children reading on a mat in front of full, colourful library shelves", (s) => {
    s.add(rect(0, 0, s.w, 700, s.fade("#f3e3c3", "#e8d2a8")));
    s.add(rect(0, 700, s.w, 300, s.fade("#b07a4a", "#8c5c35")));
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
    for (let i = 0; i < 4; i++)
      s.add(rrect(1380 - i * 4, 950 - i * 24, 150, 22, 3, palette[(i * 3) % palette.length]!));
  }),

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
    s.add(rect(0, 500, s.w, 500, s.fade("#c99a58", "#b07e43")));
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
  }),

  picture(
    "projects/tailoring-cooperative",
    "Women of the tailoring co-operative sewing at treadle machines under colourful fabrics",
    (s) => {
      s.add(rect(0, 0, s.w, 720, s.fade("#f7d9a8", "#f0c58a")));
      s.add(rect(0, 720, s.w, 280, s.fade("#b5835a", "#8f6240")));
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
        const cloth = `M${x} 86 L${x + 170} 86 L${x + 165} ${86 + h} Q${x + 85} ${96 + h} ${x + 5} ${86 + h} Z`;
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
        s.add(path(cloth, `url(#${pid})`));
        s.add(
          path(
            cloth,
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
  ),

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
      s.add(rect(0, 640, s.w, 360, s.fade("#7a9a55", "#4f7434")));
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
  ),

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
        s.fade("#9fd6f0", "#3a8fc1"),
      ),
    );
    for (let i = 0; i < 14; i++) {
      const y = s.r(700, 980);
      const x = 800 + s.r(-200, 200) * ((y - 520) / 480);
      s.add(line(x, y, x + s.r(30, 70), y, "#ffffff", 3, `opacity="0.5"`));
    }
    // Banks with trees and banana plants.
    s.add(path("M0 560 C300 540 600 600 740 720 C600 820 420 900 330 1000 L0 1000 Z", s.fade("#6fae55", "#3f7a34")));
    s.add(
      path(
        "M1600 560 C1300 540 1080 620 1040 720 C1080 840 1200 900 1300 1000 L1600 1000 Z",
        s.fade("#6fae55", "#3f7a34"),
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
  }),
];
