import fs from "node:fs/promises";
import path from "node:path";
import { loadSharp } from "./sharp.server";
import { shareImageWidth, uploadedImageId, uploadedImagePrefix } from "~/lib/images";
import type { Queryable } from "../db/database.server";
import { renderShareImage } from "./renditions.server";
import { readRendition } from "./uploads.server";

// The picture a shared link shows (Open Graph and Twitter cards): one 1200×630 JPEG, cropped to
// fill from the middle, made on first request from the same source the renditions come from (a
// content/images file, or an upload's largest rendition) and kept in memory. Social sites fetch
// it once per page; pages never show it.

/** The source files the build renders (scripts/build-images.ts). */
const sourceExtensions = [".svg", ".png", ".jpg", ".jpeg"];
const contentNamePattern = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;
const cacheSize = 64;
const cache = new Map<string, Buffer>();

export interface ShareImage {
  bytes: Buffer;
  /** An uploaded picture never changes; a content file may, with a new release. */
  immutable: boolean;
}

/** The link-preview JPEG of the picture `name` ("pages/quiz-night" or "uploads/<id>"), or undefined if there is none. */
export async function shareImage(
  db: Queryable,
  contentImagesDir: string,
  name: string,
): Promise<ShareImage | undefined> {
  const uploadId = uploadedImageId(name);
  if (uploadId) {
    const cached = cache.get(name);
    if (cached) return { bytes: cached, immutable: true };
    const largest =
      (await readRendition(db, uploadId, 1600, "webp")) ?? (await readRendition(db, uploadId, 960, "jpg"));
    if (!largest) return undefined;
    return { bytes: remember(name, await renderShareImage((await loadSharp())(largest))), immutable: true };
  }
  if (name.startsWith(uploadedImagePrefix) || !contentNamePattern.test(name)) return undefined;
  const source = await contentSource(contentImagesDir, name);
  if (!source) return undefined;
  // Keyed by the file's time too, so an edited picture is made again (in development, at once).
  const key = `${name}@${source.mtimeMs}`;
  const cached = cache.get(key);
  if (cached) return { bytes: cached, immutable: false };
  // Read here, not by path: the image library would keep serving a file it had opened before.
  const bytes = await fs.readFile(source.file);
  const sharp = await loadSharp();
  let input = sharp(bytes);
  if (source.file.endsWith(".svg")) {
    // Vector artwork is drawn at the size the preview needs, not its nominal one.
    const { width = shareImageWidth } = await input.metadata();
    input = sharp(bytes, { density: Math.max(72, (72 * shareImageWidth * 1.05) / width) });
  }
  return { bytes: remember(key, await renderShareImage(input)), immutable: false };
}

async function contentSource(dir: string, name: string): Promise<{ file: string; mtimeMs: number } | undefined> {
  for (const extension of sourceExtensions) {
    const file = path.join(dir, `${name}${extension}`);
    try {
      const stat = await fs.stat(file);
      if (stat.isFile()) return { file, mtimeMs: stat.mtimeMs };
    } catch {
      // Not this extension: try the next.
    }
  }
  return undefined;
}

function remember(key: string, bytes: Buffer): Buffer {
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
  cache.set(key, bytes);
  return bytes;
}
