import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, expect, it } from "vitest";
import { precompress } from "./precompress.mjs";

// The build's last step: the scripts and styles under build/client/assets compressed once.
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("writes a brotli and a gzip file beside each script and stylesheet, and none beside pictures", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "kilele-precompress-"));
  const script = "export const greeting = 'hello';\n".repeat(50);
  const style = ".card { color: #222; }\n".repeat(50);
  fs.writeFileSync(path.join(dir, "home-abc.js"), script);
  fs.writeFileSync(path.join(dir, "app-abc.css"), style);
  fs.writeFileSync(path.join(dir, "photo-abc.avif"), "not text ".repeat(50));
  // Too short to gain anything: no compressed forms, so the server sends the file itself.
  fs.writeFileSync(path.join(dir, "tiny-abc.js"), "1");

  await precompress(dir);

  expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "home-abc.js.br"))).toString()).toBe(script);
  expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, "home-abc.js.gz"))).toString()).toBe(script);
  expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "app-abc.css.br"))).toString()).toBe(style);
  expect(fs.readdirSync(dir).sort()).toEqual([
    "app-abc.css",
    "app-abc.css.br",
    "app-abc.css.gz",
    "home-abc.js",
    "home-abc.js.br",
    "home-abc.js.gz",
    "photo-abc.avif",
    "tiny-abc.js",
  ]);
});
