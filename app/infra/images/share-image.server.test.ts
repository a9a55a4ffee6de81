import path from "node:path";
import { and, eq, notInArray } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { imageFormats, uploadedImageId } from "~/lib/images";
import { loader } from "~/routes/images.share";
import { uploadedImageFiles, uploadedImages } from "~db/schema";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { PictureLibrary, uploadPicture } from "./uploads.server";

// GET /images/share/<name>.jpg through its route, counting every picture the server opens with
// sharp (loadSharp is how the server reaches it): a picture's link-preview JPEG is made at most
// once, however many ask for it at once or again (decision 057).

const opened = vi.hoisted(() => ({ pictures: 0 }));
vi.mock("./sharp.server", async (importOriginal) => {
  const { loadSharp } = await importOriginal<typeof import("./sharp.server")>();
  return {
    loadSharp: async () =>
      new Proxy(await loadSharp(), {
        apply(target, self, args) {
          opened.pictures += 1;
          return Reflect.apply(target, self, args) as unknown;
        },
      }),
  };
});

const contentImages = path.resolve("content/images");
const now = new Date("2026-11-22T10:00:00Z");

type Loader = typeof loader;

describe.each(engines)("link-preview pictures on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  async function ask(name: string, route: Loader = loader) {
    const response = await route({
      request: new Request(`http://localhost/images/share/${name}.jpg`),
      context: { services: { db: database.db, pictures: new PictureLibrary(contentImages) } },
      params: { "*": `${name}.jpg` },
    } as unknown as Parameters<Loader>[0]);
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /** An upload as staff make one now. */
  async function upload(background: string) {
    const photo = await sharp({ create: { width: 240, height: 320, channels: 3, background } })
      .jpeg()
      .toBuffer();
    return (await uploadPicture(database.db, photo, { originalName: "poster.jpg", uploadedBy: null, now })).image;
  }

  /**
   * Uploads stored before their link-preview JPEGs were made with them: a picture's row and its
   * 1600 WebP rendition only (small, so that many are quick to store).
   */
  async function uploadedBefore(count: number): Promise<string[]> {
    const webp = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#1f5130" } })
      .webp()
      .toBuffer();
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    await database.db
      .insert(uploadedImages)
      .values(ids.map((id) => ({ id, width: 320, height: 200, originalName: "old.webp", createdAt: now })));
    await database.db
      .insert(uploadedImageFiles)
      .values(ids.map((id) => ({ imageId: id, width: 1600, format: "webp", bytes: webp })));
    return ids.map((id) => `uploads/${id}`);
  }

  /** What the database keeps for an upload besides the renditions pages show. */
  const kept = async (name: string) =>
    database.db
      .select({ width: uploadedImageFiles.width, format: uploadedImageFiles.format })
      .from(uploadedImageFiles)
      .where(
        and(
          eq(uploadedImageFiles.imageId, uploadedImageId(name)!),
          notInArray(uploadedImageFiles.format, [...imageFormats, "jpg"]),
        ),
      );

  it("is a 1200×630 JPEG of an upload, kept by browsers for a year", async () => {
    for (const image of [await upload("#2a9d8f"), ...(await uploadedBefore(1))]) {
      const answer = await ask(image);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Content-Type")).toBe("image/jpeg");
      expect(answer.headers.get("Content-Length")).toBe(String(answer.bytes.length));
      expect(answer.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      const meta = await sharp(answer.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
    }
  });

  it("is made with an upload and kept with its renditions: asking for it opens no picture", async () => {
    const image = await upload("#a85a12");
    expect(await kept(image)).toEqual([{ width: 1200, format: expect.any(String) as string }]);
    opened.pictures = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(image)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(opened.pictures).toBe(0);
  });

  it("of an upload stored without one is made once for 20 requests at once, stored, and never again, in a new process too", async () => {
    const [image] = await uploadedBefore(1);
    opened.pictures = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(image!)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.bytes.toString("base64"))).size).toBe(1);
    expect(opened.pictures).toBe(1);
    expect(await kept(image!)).toHaveLength(1);

    await Promise.all(Array.from({ length: 20 }, () => ask(image!)));
    // A process started later (its own modules) finds it in the database.
    vi.resetModules();
    const restarted = (await import("~/routes/images.share")).loader;
    expect((await ask(image!, restarted)).status).toBe(200);
    expect(opened.pictures).toBe(1);
  });

  it("of every picture, asked for three at a time and then again, is made once each and then never", async () => {
    const images = [await upload("#f2b33d"), ...(await uploadedBefore(12))];
    opened.pictures = 0;
    const askAll = () => Promise.all(images.flatMap((image) => [ask(image), ask(image), ask(image)]));
    expect((await askAll()).every((answer) => answer.status === 200)).toBe(true);
    expect(opened.pictures).toBe(12);
    expect((await askAll()).every((answer) => answer.status === 200)).toBe(true);
    expect(opened.pictures).toBe(12);
  });

  it("of a content picture is the build's file, served before this route: the server makes none", async () => {
    // scripts/build-images.test.ts: the build writes public/images/share/<name>.jpg for each source.
    const contentNames = (await new PictureLibrary(contentImages).list(database.db)).map((picture) => picture.src);
    expect(contentNames).toContain("pages/golf-day");
    opened.pictures = 0;
    for (const name of contentNames) expect((await ask(name)).status, name).toBe(404);
    expect(opened.pictures).toBe(0);
  });

  it("is a 404 that opens nothing for a name that is no picture, or leads out of the pictures folder", async () => {
    opened.pictures = 0;
    for (const name of [
      "pages/no-such-picture",
      "../content/site/content",
      `uploads/${crypto.randomUUID()}`,
      "uploads/not-an-id",
      "",
    ]) {
      expect((await ask(name)).status, name).toBe(404);
    }
    expect(opened.pictures).toBe(0);
  });
});
