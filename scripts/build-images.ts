// Renders every source picture under content/images/ (SVG, PNG or JPEG) into the files the
// site serves: public/images/<name>-<width>.avif and .webp for each width in imageWidths,
// plus one <name>-<fallbackWidth>.jpg. Run by `npm run build` (tsx scripts/build-images.ts).
//
// Incremental: an output newer than its source is left alone, so a second build is quick.
// Cached: every rendition is also kept in a cache folder outside the work tree (IMAGE_CACHE_DIR,
// else ~/.cache/kilele-images), named by a hash of the source's bytes, the rendition, the code that
// encodes it and sharp's version, so a fresh clone (CI) copies them instead of encoding them again.
// Outputs whose source has gone (or whose width/format is no longer offered) are removed.
// A source that fails to render stops the build with a non-zero exit and names the file.

import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { encodeRendition, masterOf, renditions } from "../app/infra/images/renditions.server";
import { uploadedImagePrefix, type ImageFormat } from "../app/lib/images";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(root, "content", "images");
const outputDir = path.join(root, "public", "images");
const sourceExtensions = new Set([".svg", ".png", ".jpg", ".jpeg"]);
const cacheDir = process.env.IMAGE_CACHE_DIR || path.join(os.homedir(), ".cache", "kilele-images");
/** Two files at a time: the build machines have two cores. */
const concurrency = 2;

interface Output {
  file: string;
  width: number;
  format: ImageFormat;
}

interface Source {
  /** Path under content/images without extension, e.g. "projects/clean-water-borehole". */
  name: string;
  file: string;
  outputs: Output[];
}

async function walk(dir: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.isFile() ? [full] : [];
    }),
  );
  return files.flat();
}

function outputsFor(name: string): Output[] {
  return renditions.map(({ width, format }) => ({
    file: path.join(outputDir, `${name}-${width}.${format}`),
    width,
    format,
  }));
}

async function findSources(): Promise<Source[]> {
  const files = (await walk(sourceDir)).filter((file) => sourceExtensions.has(path.extname(file).toLowerCase())).sort();
  const byName = new Map<string, Source>();
  for (const file of files) {
    const rel = path.relative(sourceDir, file).split(path.sep).join("/");
    const name = rel.slice(0, rel.length - path.extname(rel).length);
    // /images/uploads/ is where pictures staff upload are served from the database.
    if (name.startsWith(uploadedImagePrefix)) {
      throw new Error(`${path.relative(root, file)}: the folder uploads/ is kept for pictures staff upload`);
    }
    // /images/share/ is where link previews are served (app/routes/images.share.ts).
    if (name.startsWith("share/")) {
      throw new Error(`${path.relative(root, file)}: the folder share/ is kept for link-preview pictures`);
    }
    const other = byName.get(name);
    if (other) {
      throw new Error(
        `Two sources would render to the same images: ${path.relative(root, other.file)} and ${path.relative(root, file)}`,
      );
    }
    byName.set(name, { name, file, outputs: outputsFor(name) });
  }
  return [...byName.values()];
}

async function mtime(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file so an interrupted build never leaves a half-written output behind. */
async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  await fs.writeFile(temp, data);
  await fs.rename(temp, file);
}

/** What an output's bytes depend on besides its source: the encoder's code and sharp's version. */
const encoderHash = (async () => {
  const hash = createHash("sha256");
  hash.update(sharp.versions.sharp ?? "").update(JSON.stringify(sharp.versions));
  for (const file of ["app/infra/images/renditions.server.ts", "app/lib/images.ts", "scripts/build-images.ts"]) {
    hash.update(await fs.readFile(path.join(root, file)));
  }
  return hash.digest("hex");
})();

function cacheFile(sourceHash: string, output: Output): string {
  const key = createHash("sha256").update(sourceHash).update(`${output.width}.${output.format}`).digest("hex");
  return path.join(cacheDir, `${key}.${output.format}`);
}

/**
 * Copies the outputs from the cache when it has them all; false when it lacks any (a cache that
 * cannot be read is no cache).
 */
async function fromCache(sourceHash: string, stale: Output[]): Promise<boolean> {
  let found: Buffer[];
  try {
    found = await Promise.all(stale.map((output) => fs.readFile(cacheFile(sourceHash, output))));
  } catch {
    return false;
  }
  for (const [i, output] of stale.entries()) await writeAtomically(output.file, found[i]!);
  return true;
}

/** Renders the stale outputs; caches them when they are all of the source's (the smaller ones scale from the largest). */
async function render(source: Source, stale: Output[], sourceHash: string): Promise<number> {
  const isSvg = path.extname(source.file).toLowerCase() === ".svg";
  const meta = await sharp(source.file).metadata();
  if (!meta.width || !meta.height) throw new Error("has no width or height");
  const largest = Math.max(...stale.map((output) => output.width));
  // Vector artwork is rasterised at the largest width needed, then scaled down for the smaller ones.
  const density = isSvg ? Math.max(1, (72 * largest) / meta.width) : undefined;
  const master = await masterOf(sharp(source.file, isSvg ? { density } : {}), largest, { enlarge: true });
  let written = 0;
  for (const output of stale) {
    const data = await encodeRendition(master, output);
    await writeAtomically(output.file, data);
    if (stale.length === source.outputs.length) {
      await writeAtomically(cacheFile(sourceHash, output), data).catch((error: Error) =>
        console.warn(`build-images: could not cache ${path.relative(root, output.file)}: ${error.message}`),
      );
    }
    written += data.length;
  }
  return written;
}

/** Deletes files in public/images that no current source would produce, then any empty folders. */
async function removeStale(sources: Source[]): Promise<number> {
  const expected = new Set(sources.flatMap((source) => source.outputs.map((output) => output.file)));
  let removed = 0;
  for (const file of await walk(outputDir)) {
    // A recent temporary file belongs to another build running at the same moment; leave it be.
    if (file.endsWith(".tmp") && Date.now() - ((await mtime(file)) ?? 0) < 60 * 60 * 1000) continue;
    if (!expected.has(file)) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  const prune = async (dir: string): Promise<boolean> => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    let empty = true;
    for (const entry of entries) {
      if (entry.isDirectory() && (await prune(path.join(dir, entry.name)))) continue;
      empty = false;
    }
    if (empty && dir !== outputDir) await fs.rmdir(dir);
    return empty;
  };
  await prune(outputDir);
  return removed;
}

async function main(): Promise<void> {
  const started = performance.now();
  const sources = await findSources();
  if (sources.length === 0)
    console.warn(`build-images: no source pictures found in ${path.relative(root, sourceDir)}/`);
  const removed = await removeStale(sources);

  let rendered = 0;
  let upToDate = 0;
  let cached = 0;
  let bytes = 0;
  const failures: string[] = [];
  const queue = [...sources];
  const worker = async () => {
    for (let source = queue.shift(); source; source = queue.shift()) {
      try {
        const sourceTime = (await mtime(source.file))!;
        const times = await Promise.all(source.outputs.map((output) => mtime(output.file)));
        const stale = source.outputs.filter((_, i) => times[i] === undefined || times[i]! <= sourceTime);
        if (stale.length === 0) {
          upToDate++;
          continue;
        }
        const sourceHash = createHash("sha256")
          .update(await encoderHash)
          .update(await fs.readFile(source.file))
          .digest("hex");
        if (await fromCache(sourceHash, stale)) {
          cached++;
          continue;
        }
        // Read the total only after the await: `bytes += await ...` would lose the other worker's additions.
        const written = await render(source, stale, sourceHash);
        bytes += written;
        rendered++;
      } catch (error) {
        failures.push(`${path.relative(root, source.file)}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));

  if (failures.length > 0) {
    console.error(
      `build-images: ${failures.length} source picture(s) could not be rendered:\n  ${failures.join("\n  ")}`,
    );
    process.exit(1);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const removedNote = removed > 0 ? `, ${removed} stale removed` : "";
  console.log(
    `build-images: ${rendered} rendered, ${cached} from the cache, ${upToDate} up to date${removedNote}, ${Math.round(bytes / 1024)} KB written in ${seconds}s`,
  );
}

main().catch((error: unknown) => {
  console.error(`build-images: failed: ${(error as Error).message}`);
  process.exit(1);
});
