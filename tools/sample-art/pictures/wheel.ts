// The image wheel on the home page: village life at sunrise, on the road to school, at harvest, at
// dusk and under the baobab.

import { house, roundHut } from "../buildings";
import { mix, SKIN } from "../colour";
import { figures, person, type Placed } from "../figures";
import { acacia, baobab, birds, bush, cloud, glow, grass, hills, kilimanjaro, sky, stars, sun } from "../landscape";
import { goat, maize, solarPanel } from "../objects";
import { type Picture, picture } from "../scene";
import { circle, ellipse, line, path, poly, rect } from "../shapes";

export const wheel: Picture[] = [
  picture("wheel/village-sunrise", "Kilele village at sunrise below a snow-capped mountain", (s) => {
    sky(s, [
      [0, "#34406e"],
      [0.32, "#9c6384"],
      [0.58, "#f0a06a"],
      [0.75, "#ffd9a0"],
    ]);
    sun(s, 430, 590, 62, "#fff3c8", "#ffcf7a");
    cloud(s, 150, 170, 1.3, "#f6b8a8", 0.45);
    cloud(s, 1150, 120, 1.0, "#f6b8a8", 0.35);
    kilimanjaro(s, 1060, 650, 1250, 430, {
      body: "#6f6294",
      shadow: "#4b4271",
      snow: "#f4e4ee",
      far: "#9788b2",
      haze: "#f0a06a",
    });
    hills(s, 650, 22, "#8d7393", { waves: 2 });
    for (const [x, h] of [
      [520, 70],
      [900, 60],
      [1380, 80],
    ] as const)
      acacia(s, x, 690, h, "#4e5a3a", "#3a3328");
    hills(s, 705, 26, "#7f7d4a");
    const ground = s.fade("#d8a35a", "#a8683a");
    hills(s, 770, 14, ground, { waves: 2 });
    // A red-earth path winding up to the village.
    s.add(
      path(
        "M640 1000 C700 920 860 900 820 850 C790 815 900 800 960 790 L990 792 C940 805 850 822 880 852 C930 905 820 940 860 1000 Z",
        "#c58251",
        `opacity="0.9"`,
      ),
    );
    roundHut(s, 880, 790, 120, "#c8895a", "#d0a864");
    roundHut(s, 1060, 800, 150, "#b97a4c", "#c59a55");
    roundHut(s, 1230, 788, 105, "#c8895a", "#d6b06b");
    house(s, 620, 800, 190, 95, { wall: "#e3c9a0", roof: "#8b8f96", windows: 1 });
    bush(s, 760, 805, 26, "#5d6b3a");
    bush(s, 1350, 800, 30, "#566535");
    acacia(s, 250, 930, 560, "#556b35");
    grass(s, 820, 1000, 70, "#8d5e2f", 20);
    person(s, 760, 930, 150, {
      skin: SKIN.dark,
      top: "#2a9d8f",
      bottom: "#e76f51",
      kind: "skirt",
      hair: "wrap",
      wrap: "#f4a261",
      carry: "head",
      carryColor: "#e9c46a",
    });
    person(s, 835, 905, 92, {
      skin: SKIN.brown,
      top: "#f1faee",
      bottom: "#264653",
      kind: "shorts",
      hair: "short",
      arms: "wave",
    });
    birds(s, 640, 260, 6, 16, "#3a2f45");
  }),

  picture("wheel/road-to-school", "Children in blue school uniforms walking along a red dirt road to school", (s) => {
    sky(s, [
      [0, "#5fa8e6"],
      [0.55, "#a9d6f5"],
      [0.7, "#e8f4fb"],
    ]);
    cloud(s, 200, 140, 1.4);
    cloud(s, 980, 90, 1.1);
    cloud(s, 1330, 210, 0.8);
    kilimanjaro(s, 1250, 600, 820, 260, {
      body: "#6f87ad",
      shadow: "#566c92",
      snow: "#f7fbff",
      far: "#94a8c6",
      haze: "#d8ecf8",
    });
    hills(s, 600, 30, "#7fa36a");
    hills(s, 660, 24, "#5f8c4e");
    for (const x of [180, 420, 1080, 1480]) acacia(s, x, 670, s.r(70, 110), "#3f6a34");
    hills(s, 700, 12, s.fade("#7cab55", "#4f7f3a"), { waves: 2 });
    // The road narrows towards the school on the horizon.
    s.add(
      path("M250 1000 C520 860 760 760 790 700 L840 700 C880 760 1120 860 1400 1000 Z", s.fade("#c2703f", "#a5552c")),
    );
    s.add(path("M790 700 C760 760 520 860 250 1000 L320 1000 C560 870 780 770 805 700 Z", "#000000", `opacity="0.08"`));
    house(s, 700, 700, 230, 70, { wall: "#f3e2bf", roof: "#b24a32", roofStyle: "tile", windows: 3, door: false });
    s.add(line(960, 700, 960, 560, "#6b6b6b", 4));
    s.add(
      poly(
        [
          [962, 560],
          [1010, 572],
          [962, 586],
        ],
        "#1eb53a",
      ),
    );
    grass(s, 720, 1000, 90, "#3f6e2c", 22);
    bush(s, 120, 860, 60, "#4d7a35");
    bush(s, 1500, 840, 70, "#4a7433");
    const kids: Placed[] = [
      [
        640,
        930,
        190,
        {
          skin: SKIN.dark,
          top: "#ffffff",
          bottom: "#1d4e89",
          kind: "skirt",
          hair: "puff",
          carry: "bag",
          carryColor: "#e63946",
        },
      ],
      [
        770,
        960,
        175,
        {
          skin: SKIN.brown,
          top: "#ffffff",
          bottom: "#1d4e89",
          kind: "shorts",
          hair: "short",
          carry: "book",
          carryColor: "#f4a261",
          arms: "hold",
        },
      ],
      [900, 900, 150, { skin: SKIN.deep, top: "#ffffff", bottom: "#1d4e89", kind: "skirt", hair: "bun", arms: "wave" }],
      [
        1010,
        880,
        120,
        {
          skin: SKIN.warm,
          top: "#ffffff",
          bottom: "#1d4e89",
          kind: "shorts",
          hair: "short",
          carry: "bag",
          carryColor: "#2a9d8f",
        },
      ],
      [940, 800, 80, { skin: SKIN.dark, top: "#ffffff", bottom: "#1d4e89", kind: "skirt", hair: "puff" }],
    ];
    figures(s, kids);
    birds(s, 600, 230, 4, 14);
  }),
  picture("wheel/maize-harvest", "Women harvesting maize in golden afternoon light", (s) => {
    sky(s, [
      [0, "#f6c177"],
      [0.5, "#fbe3b0"],
      [0.7, "#fff3d6"],
    ]);
    sun(s, 1320, 260, 70, "#fff8e0", "#ffd98a");
    hills(s, 540, 30, "#b9a7a0", { waves: 2 });
    hills(s, 590, 26, "#9c9a74");
    for (const x of [300, 760, 1180]) acacia(s, x, 620, s.r(60, 90), "#6b7a45");
    hills(s, 640, 14, s.fade("#c9a24f", "#9c7a34"), { waves: 2 });
    // Rows of maize receding into the distance.
    for (let row = 0; row < 5; row++) {
      const y = 660 + row * 60;
      const h = 120 + row * 70;
      const leaf = mix("#8aa14a", "#5f7d2e", row / 4);
      for (let x = -40 + (row % 2) * 45; x < s.w + 60; x += 70 + row * 26) {
        if (row >= 3 && x > 520 && x < 1150) continue;
        maize(s, x + s.r(-10, 10), y + s.r(-6, 6), h * s.r(0.9, 1.1), leaf, row > 1);
      }
    }
    s.add(path("M480 1000 Q700 860 820 800 Q960 860 1200 1000 Z", s.fade("#c08a48", "#a5713a")));
    person(s, 700, 930, 260, {
      skin: SKIN.dark,
      top: "#e76f51",
      bottom: "#3d5a80",
      kind: "skirt",
      hair: "wrap",
      wrap: "#ffb703",
      carry: "head",
      carryColor: "#c8963e",
      pattern: "#ffb703",
    });
    person(s, 930, 960, 280, {
      skin: SKIN.brown,
      top: "#6a4c93",
      bottom: "#f4a261",
      kind: "dress",
      hair: "wrap",
      wrap: "#8ac926",
      arms: "forward",
      carry: "none",
      pattern: "#ffffff",
    });
    // A woven basket of cobs at her feet.
    s.add(path("M1010 960 L1130 960 L1115 905 L1025 905 Z", "#b07a3c"));
    for (let i = 0; i < 5; i++)
      s.add(ellipse(1035 + i * 18, 902, 10, 22, "#f2c94c", `transform="rotate(${-30 + i * 15} ${1035 + i * 18} 902)"`));
    for (let i = 0; i < 4; i++) s.add(line(1018 + i * 2, 918 + i * 12, 1122 - i * 2, 918 + i * 12, "#8a5a2b", 3));
    birds(s, 420, 200, 5, 14, "#6b4a3a");
  }),

  picture("wheel/village-dusk", "Kilele at dusk, with windows lit by solar lamps under a starry sky", (s) => {
    sky(s, [
      [0, "#141a3a"],
      [0.45, "#3a2f6b"],
      [0.72, "#b05a7a"],
      [0.85, "#f19a6b"],
    ]);
    stars(s, 120, 520);
    s.add(circle(1300, 170, 46, "#fdf3d0"));
    s.add(circle(1320, 158, 44, "#1b2148"));
    kilimanjaro(s, 560, 690, 1100, 380, {
      body: "#3d3566",
      shadow: "#272148",
      snow: "#8e84b4",
      far: "#4c4277",
      haze: "#b05a7a",
    });
    hills(s, 700, 22, "#2e2a4f");
    for (const x of [120, 1180, 1500]) acacia(s, x, 730, s.r(90, 130), "#1f1d33", "#1a1828");
    hills(s, 760, 16, s.fade("#3a3050", "#1c1a2c"), { waves: 2 });
    const glowC = "#ffd27a";
    house(s, 360, 820, 300, 140, { wall: "#6d5a6e", roof: "#3c3449", trim: "#3a2f3f", windows: 2, windowGlow: glowC });
    glow(s, 425, 742, 120, glowC, 0.45);
    glow(s, 597, 742, 120, glowC, 0.45);
    house(s, 860, 850, 380, 170, { wall: "#7a6473", roof: "#443a52", trim: "#3a2f3f", windows: 3, windowGlow: glowC });
    for (const gx of [923, 1050, 1177]) glow(s, gx, 760, 130, glowC, 0.4);
    // Solar panels on the big roof.
    solarPanel(
      s,
      [
        [930, 666],
        [1130, 666],
        [1150, 700],
        [912, 700],
      ],
      4,
      2,
      false,
    );
    // A solar street lamp.
    s.add(line(1360, 930, 1360, 600, "#2a2538", 10));
    solarPanel(
      s,
      [
        [1322, 570],
        [1400, 570],
        [1408, 596],
        [1314, 596],
      ],
      3,
      1,
      false,
    );
    s.add(path("M1360 640 L1420 640 L1410 655 L1370 655 Z", "#2a2538"));
    glow(s, 1390, 665, 180, "#fff0b3", 0.55);
    s.add(path("M1370 655 L1410 655 L1470 930 L1310 930 Z", "#fff0b3", `opacity="0.07"`));
    s.add(rect(0, 880, s.w, 120, s.fade("#251f35", "#15121f")));
    // Neighbours chatting under the lamp.
    person(s, 1290, 960, 170, {
      skin: SKIN.brown,
      top: "#8d5a97",
      bottom: "#2b2d42",
      kind: "skirt",
      hair: "wrap",
      wrap: "#e07a5f",
    });
    person(s, 1460, 960, 185, { skin: SKIN.dark, top: "#457b9d", bottom: "#2b2d42", hair: "short", arms: "wave" });
    person(s, 1380, 975, 110, {
      skin: SKIN.warm,
      top: "#f4a261",
      bottom: "#2b2d42",
      kind: "shorts",
      hair: "short",
      carry: "book",
      carryColor: "#e9c46a",
      arms: "hold",
    });
    s.add(rect(0, 0, s.w, s.h, "#1b1340", `opacity="0.08"`));
  }),

  picture("wheel/baobab-afternoon", "Children playing in the shade of a great baobab while goats graze nearby", (s) => {
    sky(s, [
      [0, "#3d8fd1"],
      [0.6, "#9fd0ef"],
      [0.75, "#e7f3f6"],
    ]);
    cloud(s, 320, 180, 1.1, "#ffffff", 0.85);
    cloud(s, 760, 110, 0.7, "#ffffff", 0.75);
    hills(s, 640, 18, "#a7b6a2", { waves: 2 });
    for (const x of [150, 520, 640, 880]) acacia(s, x, 665, s.r(50, 80), "#6f8d52");
    hills(s, 690, 12, s.fade("#d8b36a", "#c08a47"), { waves: 2 });
    s.add(ellipse(1200, 880, 420, 60, "#7a5a33", `opacity="0.35"`));
    baobab(s, 1200, 880, 700, "#8d7a6a", "#6d8f3e");
    goat(s, 330, 900, 1.3, "#f3efe6", 1);
    goat(s, 520, 860, 1.0, "#6b4a3a", -1);
    goat(s, 180, 830, 0.8, "#3b302a", 1);
    grass(s, 720, 1000, 80, "#9a6e38", 20);
    person(s, 1000, 900, 170, {
      skin: SKIN.deep,
      top: "#e63946",
      bottom: "#1d3557",
      kind: "shorts",
      hair: "short",
      arms: "up",
    });
    person(s, 1120, 920, 160, {
      skin: SKIN.brown,
      top: "#ffb703",
      bottom: "#2a9d8f",
      kind: "dress",
      hair: "puff",
      arms: "wave",
    });
    person(s, 1360, 930, 175, {
      skin: SKIN.warm,
      top: "#8ecae6",
      bottom: "#023047",
      kind: "shorts",
      hair: "short",
      arms: "up",
    });
    // The ball in the air.
    s.add(circle(950, 560, 26, "#ffffff"));
    s.add(path("M950 542 L965 553 L959 571 L941 571 L935 553 Z", "#222222"));
  }),
];
