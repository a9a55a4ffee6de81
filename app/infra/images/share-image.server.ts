import { and, desc, eq, or } from "drizzle-orm";
import { fallbackWidth, imageWidths, uploadedImageId } from "~/lib/images";
import { uploadedImageFiles } from "~db/schema";
import type { Queryable } from "../db/database.server";
import { renderShareImage, shareRendition } from "./renditions.server";
import { loadSharp } from "./sharp.server";

// The picture a shared link shows (Open Graph and Twitter cards): one 1200×630 JPEG per picture,
// made once and kept (docs/decisions/057-share-pictures-made-once.md). A content picture's is made
// by the build (public/images/share/<name>.jpg, scripts/build-images.ts) and served as a file, so
// it never reaches this module. An upload's is made with its renditions and stored with them; one
// stored before uploads had it is made here the first time it is asked for, once, and stored too.

/** Each upload's answer being read or made now: requests for one picture wait for the same one. */
const pending = new Map<string, Promise<Buffer | undefined>>();

/** The link-preview JPEG of the uploaded picture `name` ("uploads/<id>"), or undefined if there is none. */
export function uploadShareImage(db: Queryable, name: string): Promise<Buffer | undefined> {
  const id = uploadedImageId(name);
  if (!id) return Promise.resolve(undefined);
  let answer = pending.get(id);
  if (!answer) {
    answer = readOrMake(db, id).finally(() => pending.delete(id));
    pending.set(id, answer);
  }
  return answer;
}

/** Where an upload's link-preview JPEG is made from: its widest WebP, or its JPEG. */
const sources = [
  { width: Math.max(...imageWidths), format: "webp" },
  { width: fallbackWidth, format: "jpg" },
];

async function readOrMake(db: Queryable, id: string): Promise<Buffer | undefined> {
  const [stored] = await db
    .select({ bytes: uploadedImageFiles.bytes })
    .from(uploadedImageFiles)
    .where(
      and(
        eq(uploadedImageFiles.imageId, id),
        eq(uploadedImageFiles.width, shareRendition.width),
        eq(uploadedImageFiles.format, shareRendition.format),
      ),
    );
  if (stored) return stored.bytes;
  // Its bytes are read only when its turn to be made comes, so a queue of them holds no pictures.
  const source = and(
    eq(uploadedImageFiles.imageId, id),
    or(...sources.map((s) => and(eq(uploadedImageFiles.width, s.width), eq(uploadedImageFiles.format, s.format)))),
  );
  const [found] = await db.select({ width: uploadedImageFiles.width }).from(uploadedImageFiles).where(source).limit(1);
  if (!found) return undefined;
  return inTurn(async () => {
    const [largest] = await db
      .select({ bytes: uploadedImageFiles.bytes })
      .from(uploadedImageFiles)
      .where(source)
      .orderBy(desc(uploadedImageFiles.width))
      .limit(1);
    const bytes = await renderShareImage((await loadSharp())(largest!.bytes));
    // Another process may have stored it meanwhile: the same bytes, made from the same rendition.
    await db
      .insert(uploadedImageFiles)
      .values({ imageId: id, ...shareRendition, bytes })
      .onConflictDoNothing();
    return bytes;
  });
}

/**
 * Two made at a time: each holds a decoded picture, and a burst of first requests for many old
 * uploads must not hold them all at once.
 */
const makingAtOnce = 2;
let making = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (making < makingAtOnce) making += 1;
  else await new Promise<void>((start) => waiting.push(start));
  try {
    return await work();
  } finally {
    // The place passes straight to the next in line, if any.
    const next = waiting.shift();
    if (next) next();
    else making -= 1;
  }
}
