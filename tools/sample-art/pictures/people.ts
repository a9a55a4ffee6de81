// Portraits of the staff and of the people quoted in testimonials (square, 800x800).

import { HAIR, SKIN } from "../colour";
import { portrait, type PortraitOpts } from "../portrait";
import { type Picture, picture } from "../scene";

/** A square portrait picture. */
const portraitOf = (name: string, title: string, o: PortraitOpts): Picture =>
  picture(name, title, (s) => portrait(s, o), "square");

export const people: Picture[] = [
  portraitOf("people/ruth-ashworth", "Portrait of Ruth Ashworth, a smiling woman with a grey bob and glasses", {
    bg: ["#a8dadc", "#6fb3b8"],
    skin: SKIN.pale,
    hair: "bob",
    hairColor: HAIR.grey,
    top: "#c1121f",
    topStyle: "cardigan",
    inner: "#fdf0d5",
    accent: "#780000",
    glasses: "#3d2b1f",
    eyeColor: "#4a6fa5",
    earrings: "#e9c46a",
    age: "older",
  }),

  portraitOf(
    "people/daniel-mushi",
    "Portrait of Daniel Mushi, a man with short black hair and a trimmed beard in a checked shirt",
    {
      bg: ["#ffd6a5", "#f4a261"],
      skin: SKIN.dark,
      hair: "crop",
      hairColor: HAIR.black,
      top: "#2a6f97",
      topStyle: "collar",
      inner: "#e0f2fe",
      accent: "#f1faee",
      beard: "full",
    },
  ),

  portraitOf("people/priya-chauhan", "Portrait of Priya Chauhan, a woman with long dark hair and gold earrings", {
    bg: ["#cdb4db", "#a28bc1"],
    skin: SKIN.olive,
    hair: "long",
    hairColor: HAIR.black,
    top: "#2d6a4f",
    topStyle: "blouse",
    accent: "#95d5b2",
    earrings: "#f6bd60",
    necklace: "#f6bd60",
  }),

  portraitOf(
    "people/tom-fairbairn",
    "Portrait of Tom Fairbairn, a man with short auburn hair and stubble wearing a navy jumper",
    {
      bg: ["#caf0f8", "#90e0ef"],
      skin: SKIN.light,
      hair: "wavy",
      hairColor: HAIR.auburn,
      top: "#1d3557",
      topStyle: "jumper",
      inner: "#f1faee",
      beard: "stubble",
      eyeColor: "#52796f",
    },
  ),

  portraitOf(
    "people/grace-lyimo",
    "Portrait of Grace Lyimo, a woman in a bright patterned headwrap and matching dress",
    {
      bg: ["#b7e4c7", "#74c69d"],
      skin: SKIN.brown,
      hair: "wrap",
      hairColor: HAIR.black,
      wrapColor: "#e76f51",
      top: "#e76f51",
      topStyle: "kitenge",
      inner: "#ffe8d6",
      accent: "#264653",
      earrings: "#ffb703",
    },
  ),

  portraitOf("people/neema-massawe", "Portrait of Neema Massawe, a woman with braided hair smiling warmly", {
    bg: ["#ffe5ec", "#ffb3c6"],
    skin: SKIN.deep,
    hair: "braids",
    hairColor: HAIR.black,
    top: "#0077b6",
    topStyle: "tee",
    accent: "#90e0ef",
    earrings: "#e9c46a",
  }),

  portraitOf(
    "people/joseph-kimaro",
    "Portrait of Joseph Kimaro, an older man with a short grey beard, glasses and a collared shirt",
    {
      bg: ["#e9edc9", "#ccd5ae"],
      skin: SKIN.warm,
      hair: "bald",
      hairColor: HAIR.grey,
      top: "#f1faee",
      topStyle: "collar",
      inner: "#ffffff",
      accent: "#457b9d",
      beard: "goatee",
      glasses: "#1d1d1d",
      age: "older",
    },
  ),

  portraitOf(
    "people/rehema-swai",
    "Portrait of Rehema Swai, a woman with her hair in a high bun wearing a yellow blouse",
    {
      bg: ["#bde0fe", "#8ecae6"],
      skin: SKIN.dark,
      hair: "bun",
      hairColor: HAIR.black,
      top: "#ffb703",
      topStyle: "blouse",
      accent: "#fb8500",
      earrings: "#fb8500",
      necklace: "#8338ec",
    },
  ),

  portraitOf(
    "people/upendo-mrema",
    "Portrait of Upendo Mrema, a teenage girl with natural curly hair in her white school shirt",
    {
      bg: ["#ffd60a", "#ffc300"],
      skin: SKIN.brown,
      hair: "afro",
      hairColor: HAIR.black,
      top: "#ffffff",
      topStyle: "collar",
      inner: "#ffffff",
      accent: "#2a6f4e",
      age: "young",
    },
  ),
];
