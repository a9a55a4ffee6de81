// The project galleries: the borehole being drilled and its first water, the water committee,
// carrying water home, the classroom being built and opened, exercise books, and the tailoring
// co-operative's uniforms and market stall.

import { house, roundHut } from "../buildings";
import { mix, shade, SKIN, tint } from "../colour";
import { figures, person, type PersonOpts, type Placed } from "../figures";
import { acacia, birds, cloud, grass, hills, sky, sun } from "../landscape";
import { bucket, bunting, handPump } from "../objects";
import { f, type Picture, picture } from "../scene";
import { circle, ellipse, line, path, poly, rect, rrect, stroke } from "../shapes";

export const gallery: Picture[] = [
  picture("gallery/borehole-drilling-rig", "A drilling rig boring the borehole while villagers watch", (s) => {
    sky(s, [
      [0, "#5fa2dc"],
      [0.6, "#c4e4f6"],
    ]);
    cloud(s, 1100, 80, 1.2);
    hills(s, 560, 24, "#a3b58c", { waves: 2 });
    hills(s, 620, 10, s.fade("#d7ad6a", "#b98748"), { waves: 2 });
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
  }),

  picture(
    "gallery/borehole-first-water",
    "Children cheering as the first clean water gushes from the new pump",
    (s) => {
      sky(s, [
        [0, "#ffd3a5"],
        [0.7, "#fff1dc"],
      ]);
      hills(s, 600, 20, "#c9b48a", { waves: 2 });
      hills(s, 650, 10, s.fade("#dcb679", "#c59a5a"), { waves: 2 });
      acacia(s, 200, 700, 260, "#6d8f3e");
      handPump(s, 980, 940, 2.6);
      // A glistening arc of water into a bucket.
      s.add(path("M1210 560 Q1240 620 1230 840 L1262 840 Q1270 620 1228 552 Z", s.fade("#bfe7ff", "#4fb3e8")));
      for (let i = 0; i < 12; i++)
        s.add(circle(1246 + s.r(-60, 60), 850 + s.r(-40, 10), s.r(4, 9), "#8fd3fe", `opacity="0.8"`));
      bucket(s, 1246, 960, 2.2, "#e63946");
      const kids: Placed[] = [
        [
          320,
          980,
          300,
          { skin: SKIN.dark, top: "#06d6a0", bottom: "#073b4c", kind: "shorts", hair: "short", arms: "up" },
        ],
        [
          500,
          940,
          270,
          { skin: SKIN.brown, top: "#ffd166", bottom: "#ef476f", kind: "dress", hair: "puff", arms: "wave" },
        ],
        [
          660,
          990,
          290,
          { skin: SKIN.deep, top: "#118ab2", bottom: "#073b4c", kind: "shorts", hair: "short", arms: "up" },
        ],
        [
          1460,
          990,
          280,
          { skin: SKIN.warm, top: "#ef476f", bottom: "#3d405b", kind: "skirt", hair: "bun", arms: "up" },
        ],
      ];
      figures(s, kids);
      for (let i = 0; i < 40; i++)
        s.add(
          circle(s.r(0, s.w), s.r(0, 500), s.r(2, 5), s.pick(["#ffffff", "#ffe8a3"]), `opacity="${f(s.r(0.3, 0.8))}"`),
        );
    },
  ),

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
      hills(s, 580, 10, s.fade("#d2a868", "#b4844a"), { waves: 2 });
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
  ),

  picture(
    "gallery/carrying-water-home",
    "Women walking home at sunset carrying water containers on their heads",
    (s) => {
      sky(s, [
        [0, "#2d1e4f"],
        [0.35, "#8c3b6b"],
        [0.6, "#f0774d"],
        [0.78, "#ffc46b"],
      ]);
      sun(s, 1100, 700, 110, "#ffe29a", "#ffb347");
      hills(s, 700, 20, "#7c3b58", { waves: 2 });
      for (const x of [200, 420, 1400]) acacia(s, x, 730, s.r(100, 160), "#3a1f33", "#2d1828");
      s.add(rect(0, 760, s.w, 240, s.fade("#4a2038", "#22111f")));
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
    },
  ),

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
      s.add(rect(0, 620, s.w, 380, s.fade("#c99a5b", "#a87a42")));
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
  ),

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
      s.add(rect(0, 700, s.w, 300, s.fade("#c99a5b", "#a87a42")));
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
  ),

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
  }),

  picture(
    "gallery/tailoring-school-uniforms",
    "A rail of newly made blue and white school uniforms in the tailoring workshop",
    (s) => {
      s.add(rect(0, 0, s.w, s.h, s.fade("#fce8c8", "#f2cf9a")));
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
  ),

  picture(
    "gallery/tailoring-market-stall",
    "A market stall selling bags and cloth made by the tailoring co-operative",
    (s) => {
      sky(s, [
        [0, "#63b0e8"],
        [0.6, "#d9f0fb"],
      ]);
      s.add(rect(0, 700, s.w, 300, s.fade("#c79a62", "#a47445")));
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
        s.add(
          path(`M${200 + i * 120} 260 Q${260 + i * 120} 300 ${320 + i * 120} 260 Z`, i % 2 ? "#ffffff" : "#e63946"),
        );
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
  ),
];
