// Renders every source picture under content/images/ (SVG, PNG or JPEG) into the files the
// site serves: public/images/<name>-<width>.avif and .webp for each width in imageWidths,
// plus one <name>-<fallbackWidth>.jpg, and its link-preview JPEG, public/images/share/<name>.jpg
// (1200×630; decision 057). Run by `npm run build` (tsx scripts/build-images.ts).
//
// Rendered once per picture, not once per machine: the outputs are committed, with a record of what
// they were made from, content/rendered-images.json (a hash of each source's bytes, and one of the
// code that encodes them with sharp's version). A source whose record matches and whose outputs
// are all there is left alone, so a fresh clone's first build encodes nothing; a changed source,
// a new one or a change to the encoder renders again, and the new outputs and record are committed
// with the change.
// Cached: every rendition is also kept in a cache folder outside the work tree (IMAGE_CACHE_DIR,
// else ~/.cache/kilele-images), named by the same hashes, so switching between branches copies
// them instead of encoding them again.
// Outputs whose source has gone (or whose width/format is no longer offered) are removed.
// A source that fails to render stops the build with a non-zero exit and names the file.

import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import {
  encodeRendition,
  masterOf,
  renderShareImage,
  renditions,
  type Rendition,
} from "../app/infra/images/renditions.server";
import { shareImageHeight, shareImageWidth, uploadedImagePrefix } from "../app/lib/images";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceExtensions = new Set([".svg", ".png", ".jpg", ".jpeg"]);
/** Two files at a time: the build machines have two cores. */
const concurrency = 2;

/** Where the pictures come from, where they go, what they were made from, and where renditions are kept between builds. */
export interface ImageFolders {
  sourceDir: string;
  outputDir: string;
  /** The record of what the committed outputs were made from (outside the build's inputs). */
  recordFile: string;
  cacheDir: string;
}

const defaultFolders: ImageFolders = {
  sourceDir: path.join(root, "content", "images"),
  outputDir: path.join(root, "public", "images"),
  recordFile: path.join(root, "content", "rendered-images.json"),
  cacheDir: process.env.IMAGE_CACHE_DIR || path.join(os.homedir(), ".cache", "kilele-images"),
};

/** content/rendered-images.json: the encoder's hash, and each source's hash by name. */
interface RenderedRecord {
  encoder: string;
  sources: Record<string, string>;
}

async function readRecord(file: string): Promise<RenderedRecord> {
  try {
    const record = JSON.parse(await fs.readFile(file, "utf8")) as RenderedRecord;
    if (typeof record.encoder === "string" && record.sources && typeof record.sources === "object") return record;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      console.warn(`build-images: ${path.relative(root, file)} could not be read; rendering every picture`);
    }
  }
  return { encoder: "", sources: {} };
}

interface Output {
  file: string;
  /** What it is, in its cache key: "960.avif", or "share.jpg" for the link-preview JPEG. */
  kind: string;
  /** The rendition pages show; none for the link-preview JPEG. */
  rendition?: Rendition;
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

function outputsFor(outputDir: string, name: string): Output[] {
  return [
    ...renditions.map((rendition) => ({
      file: path.join(outputDir, `${name}-${rendition.width}.${rendition.format}`),
      kind: `${rendition.width}.${rendition.format}`,
      rendition,
    })),
    // At the address pages give it (shareImageUrl), so the static files answer it, not the site.
    { file: path.join(outputDir, "share", `${name}.jpg`), kind: "share.jpg" },
  ];
}

async function findSources({ sourceDir, outputDir }: ImageFolders): Promise<Source[]> {
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
    byName.set(name, { name, file, outputs: outputsFor(outputDir, name) });
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

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

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

/** A source's cache key: its bytes and the encoder that renders them. */
const sourceKey = (encoder: string, bytesHash: string) => sha256(encoder + bytesHash);

function cacheFile(cacheDir: string, sourceHash: string, output: Output): string {
  const key = createHash("sha256").update(sourceHash).update(output.kind).digest("hex");
  return path.join(cacheDir, `${key}${path.extname(output.kind)}`);
}

/**
 * Copies the outputs from the cache when it has them all; false when it lacks any (a cache that
 * cannot be read is no cache).
 */
async function fromCache(cacheDir: string, sourceHash: string, stale: Output[]): Promise<boolean> {
  let found: Buffer[];
  try {
    found = await Promise.all(stale.map((output) => fs.readFile(cacheFile(cacheDir, sourceHash, output))));
  } catch {
    return false;
  }
  for (const [i, output] of stale.entries()) await writeAtomically(output.file, found[i]!);
  return true;
}

/**
 * Renders the stale outputs. Renditions are cached when they are all of the source's (the smaller
 * ones scale from the largest); the link-preview JPEG, made from the source alone, always is.
 */
async function render(cacheDir: string, source: Source, stale: Output[], sourceHash: string): Promise<number> {
  const isSvg = path.extname(source.file).toLowerCase() === ".svg";
  const meta = await sharp(source.file).metadata();
  if (!meta.width || !meta.height) throw new Error("has no width or height");
  let written = 0;
  const keep = async (output: Output, data: Buffer, cache: boolean) => {
    await writeAtomically(output.file, data);
    if (cache) {
      await writeAtomically(cacheFile(cacheDir, sourceHash, output), data).catch((error: Error) =>
        console.warn(`build-images: could not cache ${path.relative(root, output.file)}: ${error.message}`),
      );
    }
    written += data.length;
  };
  const staleRenditions = stale.filter((output) => output.rendition);
  if (staleRenditions.length > 0) {
    const largest = Math.max(...staleRenditions.map((output) => output.rendition!.width));
    // Vector artwork is rasterised at the largest width needed, then scaled down for the smaller ones.
    const density = isSvg ? Math.max(1, (72 * largest) / meta.width) : undefined;
    const master = await masterOf(sharp(source.file, isSvg ? { density } : {}), largest, { enlarge: true });
    const all = staleRenditions.length === renditions.length;
    for (const output of staleRenditions) await keep(output, await encodeRendition(master, output.rendition!), all);
  }
  const share = stale.find((output) => !output.rendition);
  if (share) {
    // Vector artwork is drawn large enough to cover the preview's frame, not at its nominal size.
    const cover = Math.max(shareImageWidth / meta.width, shareImageHeight / meta.height);
    const density = isSvg ? Math.max(1, 72 * cover * 1.05) : undefined;
    await keep(share, await renderShareImage(sharp(source.file, isSvg ? { density } : {})), true);
  }
  return written;
}

/** Deletes files in public/images that no current source would produce, then any empty folders. */
async function removeStale(outputDir: string, sources: Source[]): Promise<number> {
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

export interface ImagesBuilt {
  /** Sources rendered, copied from the cache, and left alone because their outputs were made from them. */
  rendered: number;
  cached: number;
  upToDate: number;
  /** Outputs removed because no source makes them any more. */
  removed: number;
  /** Bytes rendered. */
  bytes: number;
  /** "file: why" for each source that could not be rendered. */
  failures: string[];
}

/** Brings the outputs up to date with the sources: renders what is stale or copies it from the cache. */
export async function buildImages(folders: ImageFolders = defaultFolders): Promise<ImagesBuilt> {
  const sources = await findSources(folders);
  if (sources.length === 0)
    console.warn(`build-images: no source pictures found in ${path.relative(root, folders.sourceDir)}/`);
  const removed = await removeStale(folders.outputDir, sources);

  let rendered = 0;
  let upToDate = 0;
  let cached = 0;
  let bytes = 0;
  const failures: string[] = [];
  const record = await readRecord(folders.recordFile);
  const encoder = await encoderHash;
  const made: Record<string, string> = {};
  const queue = [...sources];
  const worker = async () => {
    for (let source = queue.shift(); source; source = queue.shift()) {
      try {
        const bytesHash = sha256(await fs.readFile(source.file));
        const present = await Promise.all(source.outputs.map((output) => mtime(output.file)));
        const current = record.encoder === encoder && record.sources[source.name] === bytesHash;
        const stale = source.outputs.filter((_, i) => !current || present[i] === undefined);
        if (stale.length === 0) {
          made[source.name] = bytesHash;
          upToDate++;
          continue;
        }
        const key = sourceKey(encoder, bytesHash);
        if (await fromCache(folders.cacheDir, key, stale)) {
          made[source.name] = bytesHash;
          cached++;
          continue;
        }
        // Read the total only after the await: `bytes += await ...` would lose the other worker's additions.
        const written = await render(folders.cacheDir, source, stale, key);
        bytes += written;
        made[source.name] = bytesHash;
        rendered++;
      } catch (error) {
        failures.push(`${path.relative(root, source.file)}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));
  // Only what was made: a source that failed has no line, so the next build tries it again.
  const sorted = Object.fromEntries(Object.entries(made).sort(([a], [b]) => (a < b ? -1 : 1)));
  const text = `${JSON.stringify({ encoder, sources: sorted }, null, 2)}\n`;
  if ((await fs.readFile(folders.recordFile, "utf8").catch(() => "")) !== text) {
    await writeAtomically(folders.recordFile, Buffer.from(text));
  }
  return { rendered, cached, upToDate, removed, bytes, failures };
}

async function main(): Promise<void> {
  const started = performance.now();
  const { rendered, cached, upToDate, removed, bytes, failures } = await buildImages();
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

// Run as the build's step (not when a test imports buildImages).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`build-images: failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
