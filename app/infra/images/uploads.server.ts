import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Metadata } from "sharp";
import { loadSharp } from "./sharp.server";
import { AppError } from "~/lib/errors";
import {
  imageWidths,
  notAPictureMessage,
  uploadSizeProblem,
  uploadedImageId,
  uploadedImagePrefix,
  type ImageFormat,
} from "~/lib/images";
import { uploadedImageFiles, uploadedImages } from "~db/schema";
import type { Queryable } from "../db/database.server";
import { encodeRendition, masterOf, renderShareImage, renditions, shareRendition } from "./renditions.server";

// Pictures staff upload (posters, gallery pictures, a reviewer's photo): checked from their bytes,
// rendered to the same renditions the build makes of content/images, stripped of their metadata,
// and kept in the database so every server process serves them and a redeploy keeps them
// (docs/decisions/012-uploaded-pictures.md).

/** The most pixels a picture may have: a 200-megapixel phone photo is refused before it is decoded. */
export const maxUploadPixels = 100_000_000;

export type UploadType = "jpeg" | "png" | "webp" | "avif";

/** The picture type the bytes say they are (their signature), whatever the file was called. */
export function detectImageType(bytes: Uint8Array): UploadType | undefined {
  const at = (offset: number, text: string) =>
    bytes.length >= offset + text.length && [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return "png";
  if (at(0, "RIFF") && at(8, "WEBP")) return "webp";
  // ISO BMFF: a first box "ftyp" whose major or compatible brands include avif (still) or avis (sequence).
  if (at(4, "ftyp")) {
    const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    const end = Math.min(size, bytes.length);
    for (let offset = 8; offset + 4 <= end; offset += offset === 8 ? 8 : 4) {
      if (at(offset, "avif") || at(offset, "avis")) return "avif";
    }
  }
  return undefined;
}

/** sharp's name for what it decoded, for each type we take. */
const decodedAs: Record<UploadType, string> = { jpeg: "jpeg", png: "png", webp: "webp", avif: "heif" };

/** The picture, not stored: a field's message. */
function refused(message: string, code: "invalid" | "payload-too-large" = "invalid"): AppError {
  return new AppError(code, "The picture was not stored.", { fields: { file: message } });
}

export interface ProcessedPicture {
  /** The picture's own size, upright. */
  width: number;
  height: number;
  files: { width: number; format: ImageFormat; bytes: Buffer }[];
  /** Its link-preview JPEG (1200×630), stored with the renditions as `shareRendition`. */
  share: Buffer;
}

/**
 * Checks a file staff sent and renders it: type from the bytes, at most 15 MB and 100 megapixels,
 * turned upright by its EXIF orientation, every rendition of imageWidths (never enlarged) and the
 * link-preview JPEG, with no metadata left. Throws an AppError whose `fields.file` says what is wrong.
 */
export async function processPicture(bytes: Uint8Array): Promise<ProcessedPicture> {
  const tooBig = uploadSizeProblem(bytes.length);
  if (tooBig) throw refused(tooBig, "payload-too-large");
  const type = detectImageType(bytes);
  if (!type) throw refused(notAPictureMessage);
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sharp = await loadSharp();
  const open = () => sharp(input, { limitInputPixels: maxUploadPixels, failOn: "error" });
  let metadata: Metadata;
  try {
    // Only the header is read here, so the pixel limit is checked below with a message of our own.
    metadata = await sharp(input, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw refused("could not be read as a picture");
  }
  if (metadata.format !== decodedAs[type] || !metadata.width || !metadata.height) {
    throw refused("could not be read as a picture");
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > maxUploadPixels) {
    throw refused(`must be at most 100 megapixels: this picture is ${(pixels / 1_000_000).toFixed(1)}`);
  }
  try {
    // autoOrient() is rotate() by the EXIF orientation: phones store portraits sideways with a flag.
    const master = await masterOf(open().autoOrient(), Math.max(...imageWidths), { enlarge: false });
    const [files, share] = await Promise.all([
      Promise.all(
        renditions.map(async (rendition) => ({ ...rendition, bytes: await encodeRendition(master, rendition) })),
      ),
      // Made now, from the pixels already decoded, so no request ever makes it (decision 057).
      renderShareImage(sharp(master.data, { raw: master.info })),
    ]);
    return { width: metadata.autoOrient.width, height: metadata.autoOrient.height, files, share };
  } catch {
    throw refused("could not be read as a picture");
  }
}

/** Stores a processed picture, its renditions and its link-preview JPEG in one transaction; its name for pages. */
export async function storePicture(
  db: Queryable,
  picture: ProcessedPicture,
  about: { originalName: string; uploadedBy: string | null; now: Date },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(uploadedImages).values({
      id,
      width: picture.width,
      height: picture.height,
      originalName: about.originalName.slice(0, 255),
      uploadedBy: about.uploadedBy,
      createdAt: about.now,
    });
    await tx
      .insert(uploadedImageFiles)
      .values([
        ...picture.files.map((file) => ({ imageId: id, width: file.width, format: file.format, bytes: file.bytes })),
        { imageId: id, ...shareRendition, bytes: picture.share },
      ]);
  });
  return `${uploadedImagePrefix}${id}`;
}

export interface UploadedPicture {
  /** Its name for pages and the API: "uploads/<id>". */
  image: string;
  width: number;
  height: number;
}

/** Checks, renders and stores a picture staff sent; a bad file stores nothing and throws its message. */
export async function uploadPicture(
  db: Queryable,
  bytes: Uint8Array,
  about: { originalName: string; uploadedBy: string | null; now: Date },
): Promise<UploadedPicture> {
  const picture = await processPicture(bytes);
  const image = await storePicture(db, picture, about);
  return { image, width: picture.width, height: picture.height };
}

/** One stored rendition of an uploaded picture, or undefined when there is none. */
export async function readRendition(
  db: Queryable,
  id: string,
  width: number,
  format: ImageFormat,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: uploadedImageFiles.bytes })
    .from(uploadedImageFiles)
    .where(
      and(
        eq(uploadedImageFiles.imageId, id),
        eq(uploadedImageFiles.width, width),
        eq(uploadedImageFiles.format, format),
      ),
    );
  return row?.bytes;
}

/** The picture files the build renders from (scripts/build-images.ts). */
const sourceExtensions = [".svg", ".png", ".jpg", ".jpeg"];
const contentNamePattern = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

/** A picture the library has: a content/images source, or an upload with its file's name and time. */
export interface LibraryPicture {
  src: string;
  uploaded: { originalName: string; at: Date } | null;
}

/**
 * The pictures pages can show: a source under content/images (named without its extension, as the
 * build renders it) or an uploaded picture ("uploads/<id>") in the database.
 */
export class PictureLibrary {
  constructor(readonly contentImagesDir: string) {}

  /** The names among `names` that name no picture. */
  async missing(db: Queryable, names: string[]): Promise<string[]> {
    const unique = [...new Set(names)];
    const uploadIds = unique.map(uploadedImageId).filter((id): id is string => id !== undefined);
    const stored = new Set(
      uploadIds.length === 0
        ? []
        : (
            await db.select({ id: uploadedImages.id }).from(uploadedImages).where(inArray(uploadedImages.id, uploadIds))
          ).map((row) => row.id),
    );
    const found = await Promise.all(
      unique.map(async (name) => {
        const id = uploadedImageId(name);
        if (id) return stored.has(id);
        if (name.startsWith(uploadedImagePrefix) || !contentNamePattern.test(name)) return false;
        return this.hasSource(name);
      }),
    );
    return unique.filter((_, i) => !found[i]);
  }

  /**
   * Every picture pages can name, for staff to choose from: the sources under content/images (by
   * name, in order) and the newest `maxUploads` uploads with their file's name and when they came.
   */
  async list(db: Queryable, maxUploads = 500): Promise<LibraryPicture[]> {
    const sources: LibraryPicture[] = [];
    const walk = async (dir: string, prefix: string) => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) {
          await walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
          continue;
        }
        const extension = path.extname(entry.name).toLowerCase();
        const name = `${prefix}${entry.name.slice(0, -extension.length)}`;
        if (sourceExtensions.includes(extension) && contentNamePattern.test(name)) {
          sources.push({ src: name, uploaded: null });
        }
      }
    };
    await walk(this.contentImagesDir, "");
    sources.sort((a, b) => a.src.localeCompare(b.src));
    const uploads = await db
      .select({ id: uploadedImages.id, originalName: uploadedImages.originalName, createdAt: uploadedImages.createdAt })
      .from(uploadedImages)
      .orderBy(desc(uploadedImages.createdAt))
      .limit(maxUploads);
    return [
      ...uploads.map((row) => ({
        src: `${uploadedImagePrefix}${row.id}`,
        uploaded: { originalName: row.originalName, at: row.createdAt },
      })),
      ...[...new Map(sources.map((s) => [s.src, s])).values()],
    ];
  }

  private async hasSource(name: string): Promise<boolean> {
    for (const extension of sourceExtensions) {
      try {
        if ((await fs.stat(path.join(this.contentImagesDir, `${name}${extension}`))).isFile()) return true;
      } catch {
        // Not with this extension.
      }
    }
    return false;
  }
}
