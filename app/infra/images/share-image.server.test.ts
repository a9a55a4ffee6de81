import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { freshDatabase } from "../../../tests/support/databases";
import { shareImage } from "./share-image.server";
import { uploadPicture } from "./uploads.server";

const contentImages = path.resolve("content/images");

describe("the picture a shared link shows", () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase("pglite");
  });
  afterEach(() => database.close());

  it("is a 1200×630 JPEG of a content picture, landscape or square", async () => {
    for (const name of ["pages/golf-day", "pages/donation-success"]) {
      const picture = await shareImage(database.db, contentImages, name);
      const meta = await sharp(picture!.bytes).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual(["jpeg", 1200, 630]);
      expect(picture!.immutable).toBe(false);
    }
  });

  it("is made of an uploaded picture too, and kept for good", async () => {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#2a9d8f" } })
      .jpeg()
      .toBuffer();
    const { image } = await uploadPicture(database.db, photo, {
      originalName: "poster.jpg",
      uploadedBy: null,
      now: new Date("2026-11-22T10:00:00Z"),
    });
    const picture = await shareImage(database.db, contentImages, image);
    const meta = await sharp(picture!.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
    expect(picture!.immutable).toBe(true);
  });

  it("is nothing for a name that is no picture, or leads out of the pictures folder", async () => {
    for (const name of [
      "pages/no-such-picture",
      "../content/site/content",
      "uploads/00000000-0000-4000-8000-000000000000",
      "uploads/not-an-id",
      "",
    ]) {
      expect(await shareImage(database.db, contentImages, name), name).toBeUndefined();
    }
  });

  it("follows an edited content picture", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-share-"));
    const file = path.join(dir, "tile.svg");
    const svg = (colour: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100"><rect width="160" height="100" fill="${colour}"/></svg>`;
    try {
      await fs.writeFile(file, svg("#ff0000"));
      const red = await shareImage(database.db, dir, "tile");
      await fs.writeFile(file, svg("#0000ff"));
      await fs.utimes(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
      const blue = await shareImage(database.db, dir, "tile");
      const colour = async (bytes: Buffer) => (await sharp(bytes).stats()).dominant;
      expect((await colour(red!.bytes)).r).toBeGreaterThan(200);
      expect((await colour(blue!.bytes)).b).toBeGreaterThan(200);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
