import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildImages, type ImageFolders } from "./build-images";

// The build's pictures, on folders of their own: each source's renditions and its link-preview
// JPEG, made once and kept (decision 057), so the server never renders a content picture, and
// made once per picture: a clone with the committed outputs and their record encodes nothing.

// Banners ten times wider than tall: their renditions (1600 px wide) are quick to encode, and the
// preview's frame is filled from their middle.
const svg = (colour: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="32"><rect width="320" height="32" fill="${colour}"/></svg>`;

describe("the build's pictures", () => {
  let dir: string;
  let folders: ImageFolders;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-build-images-"));
    folders = {
      sourceDir: path.join(dir, "content"),
      outputDir: path.join(dir, "public"),
      recordFile: path.join(dir, "rendered-images.json"),
      cacheDir: path.join(dir, "cache"),
    };
    await fs.mkdir(path.join(folders.sourceDir, "pages"), { recursive: true });
    await fs.mkdir(path.join(folders.sourceDir, "people"), { recursive: true });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const share = (name: string) => path.join(folders.outputDir, "share", `${name}.jpg`);
  const dominant = async (name: string) => (await sharp(await fs.readFile(share(name))).stats()).dominant;

  it("makes each source's link-preview JPEG at share/<name>.jpg, 1200×630, once", async () => {
    await fs.writeFile(path.join(folders.sourceDir, "pages", "tile.svg"), svg("#ff0000"));
    await sharp({ create: { width: 200, height: 20, channels: 3, background: "#2a9d8f" } })
      .png()
      .toFile(path.join(folders.sourceDir, "people", "face.png"));

    expect(await buildImages(folders)).toMatchObject({ rendered: 2, cached: 0, upToDate: 0, failures: [] });
    for (const name of ["pages/tile", "people/face"]) {
      const meta = await sharp(await fs.readFile(share(name))).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual(["jpeg", 1200, 630]);
    }
    expect(await fs.readdir(path.join(folders.outputDir, "pages"))).toContain("tile-960.jpg");

    // Built again: nothing is rendered. A fresh clone (no outputs, the same cache) copies them all.
    expect(await buildImages(folders)).toMatchObject({ rendered: 0, cached: 0, upToDate: 2 });
    await fs.rm(folders.outputDir, { recursive: true });
    expect(await buildImages(folders)).toMatchObject({ rendered: 0, cached: 2, upToDate: 0 });
    expect((await sharp(await fs.readFile(share("people/face"))).metadata()).width).toBe(1200);
  });

  it("makes it again when its source changes, and removes it with its source", async () => {
    const source = path.join(folders.sourceDir, "pages", "tile.svg");
    await fs.writeFile(source, svg("#ff0000"));
    await buildImages(folders);
    expect((await dominant("pages/tile")).r).toBeGreaterThan(200);

    // Its outputs are newer than the changed source, as after a checkout: its bytes decide.
    await fs.writeFile(source, svg("#0000ff"));
    const later = new Date(Date.now() + 60_000);
    for (const file of await fs.readdir(path.join(folders.outputDir, "pages"))) {
      await fs.utimes(path.join(folders.outputDir, "pages", file), later, later);
    }
    expect(await buildImages(folders)).toMatchObject({ rendered: 1 });
    expect((await dominant("pages/tile")).b).toBeGreaterThan(200);

    await fs.rm(source);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect((await buildImages(folders)).removed).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no source pictures found"));
    await expect(fs.stat(share("pages/tile"))).rejects.toThrow();
  });

  it("renders nothing on a clone that has the committed outputs and their record, and no cache", async () => {
    await fs.writeFile(path.join(folders.sourceDir, "pages", "tile.svg"), svg("#ff0000"));
    await buildImages(folders);
    const record = JSON.parse(await fs.readFile(folders.recordFile, "utf8")) as { sources: Record<string, string> };
    expect(Object.keys(record.sources)).toEqual(["pages/tile"]);

    // A clone: the same committed files, sources older than nothing in particular, no cache.
    await fs.rm(folders.cacheDir, { recursive: true });
    const earlier = new Date(Date.now() - 60_000);
    for (const file of await fs.readdir(path.join(folders.outputDir, "pages"))) {
      await fs.utimes(path.join(folders.outputDir, "pages", file), earlier, earlier);
    }
    expect(await buildImages(folders)).toMatchObject({ rendered: 0, cached: 0, upToDate: 1 });

    // One output missing: that source is made again, and only it.
    await fs.rm(share("pages/tile"));
    expect(await buildImages(folders)).toMatchObject({ rendered: 1, upToDate: 0 });
    expect((await dominant("pages/tile")).r).toBeGreaterThan(200);

    // A record of other bytes (a source changed on another branch): made again.
    await fs.writeFile(folders.recordFile, JSON.stringify({ ...record, sources: { "pages/tile": "0".repeat(64) } }));
    await fs.rm(folders.cacheDir, { recursive: true });
    expect(await buildImages(folders)).toMatchObject({ rendered: 1, upToDate: 0 });
  });
});
