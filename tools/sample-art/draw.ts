// Draws the charity's source artwork as flat-illustration SVGs under content/images/.
// Deterministic: every random choice comes from a generator seeded by the picture's name,
// so running it twice writes byte-identical files. Run with `npm run draw` in this folder
// (README.md).
// Landscape pictures use a 1600x1000 (16:10) canvas, portraits and the tick 800x800.
// The drawing helpers are in the modules beside this one; the pictures are under pictures/.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { eventPictures } from "./pictures/events";
import { gallery } from "./pictures/gallery";
import { pages } from "./pictures/pages";
import { people } from "./pictures/people";
import { projects } from "./pictures/projects";
import { wheel } from "./pictures/wheel";
import { Scene } from "./scene";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const outDir = join(root, "content", "images");

/** Writes the picture only when it changed, so the image build does not redo untouched pictures. */
function save(name: string, svg: string): boolean {
  const file = join(outDir, `${name}.svg`);
  if (existsSync(file) && readFileSync(file, "utf8") === svg) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svg);
  return true;
}

const pictures = [...wheel, ...projects, ...gallery, ...people, ...pages, ...eventPictures];

let changed = 0;
const names = new Set<string>();
for (const { name, title, draw, size } of pictures) {
  if (names.has(name)) throw new Error(`Two pictures are named ${name}`);
  names.add(name);
  const s = size === "square" ? new Scene(800, 800, name) : new Scene(1600, 1000, name);
  draw(s);
  if (save(name, s.render(title))) changed++;
}
console.log(`Drew ${pictures.length} pictures into ${outDir} (${changed} changed)`);
