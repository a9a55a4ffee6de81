import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uploadedImageFiles, uploadedImages } from "~db/schema";
import { engines, freshDatabase } from "../../../tests/support/databases";
import type { DatabaseHandle } from "../db/database.server";
import { AppError } from "~/lib/errors";
import { fallbackWidth, imageWidths, notAPictureMessage, uploadedImageId } from "~/lib/images";
import {
  PictureLibrary,
  detectImageType,
  processPicture,
  readRendition,
  storePicture,
  uploadPicture,
  type ProcessedPicture,
} from "./uploads.server";

const now = new Date("2026-11-22T10:00:00Z");
const about = { originalName: "poster.jpg", uploadedBy: null, now };

/** A picture with some detail in it (a gradient and stripes), so encoders have work to do. */
function photo(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#1f5130"/><stop offset="1" stop-color="#f2b33d"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    ${Array.from({ length: 12 }, (_, i) => `<rect x="${(i * width) / 12}" y="0" width="${width / 30}" height="${height}" fill="#a85a12"/>`).join("")}
  </svg>`;
  return sharp(Buffer.from(svg));
}

/**
 * Whether a picture's stripes and gradient run across it (each row of one shade), as photo()'s do
 * once a sideways photo is turned upright, rather than down it.
 */
async function stripesRunAcross(bytes: Buffer): Promise<boolean> {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  let alongRows = 0;
  let alongColumns = 0;
  for (let y = 1; y < info.height; y += 1) {
    for (let x = 1; x < info.width; x += 1) {
      const here = data[y * info.width + x]!;
      alongRows += Math.abs(here - data[y * info.width + x - 1]!);
      alongColumns += Math.abs(here - data[(y - 1) * info.width + x]!);
    }
  }
  return alongRows < alongColumns;
}

/** A phone's JPEG: camera make and model, GPS position, and a sideways orientation flag. */
async function phoneJpeg(width = 1200, height = 800, orientation = 1) {
  return photo(width, height)
    .jpeg()
    .withExif({
      IFD0: { Make: "Canon", Model: "Canon EOS 5D Mark IV", Software: "Kilele-Test-Camera" },
      IFD2: { DateTimeOriginal: "2026:08:01 10:00:00", BodySerialNumber: "SERIAL-0042" },
      IFD3: { GPSLatitudeRef: "S", GPSLatitude: "3/1 4/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "37/1 21/1 0/1" },
    })
    .withMetadata({ orientation })
    .toBuffer();
}

describe("the type of a file, from its bytes", () => {
  it.each([
    ["jpeg", () => photo(40, 30).jpeg().toBuffer()],
    ["png", () => photo(40, 30).png().toBuffer()],
    ["webp", () => photo(40, 30).webp().toBuffer()],
    ["avif", () => photo(40, 30).avif().toBuffer()],
  ] as const)("knows %s", async (type, make) => {
    expect(detectImageType(await make())).toBe(type);
  });

  it("knows none of text, a GIF, a HEIC photo or an empty file", () => {
    expect(detectImageType(Buffer.from("Just some notes, saved as notes.jpg"))).toBeUndefined();
    expect(detectImageType(Buffer.from("GIF89a\x01\x00\x01\x00"))).toBeUndefined();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic")]);
    expect(detectImageType(heic)).toBeUndefined();
    expect(detectImageType(new Uint8Array())).toBeUndefined();
  });

  it("finds avif among an ftyp box's compatible brands", () => {
    const avif = Buffer.concat([Buffer.from([0, 0, 0, 28]), Buffer.from("ftypmif1\0\0\0\0mif1miafavif")]);
    expect(detectImageType(avif)).toBe("avif");
  });
});

describe("processing a picture", () => {
  it("renders every width in AVIF and WebP and one JPEG, never enlarging a small picture", async () => {
    const large = await processPicture(await photo(2400, 1600).jpeg().toBuffer());
    expect(large).toMatchObject({ width: 2400, height: 1600 });
    const expected = [...imageWidths.flatMap((w) => [`${w}.avif`, `${w}.webp`]), `${fallbackWidth}.jpg`];
    expect(large.files.map((f) => `${f.width}.${f.format}`)).toEqual(expected);
    for (const file of large.files) {
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format).toBe(file.format === "jpg" ? "jpeg" : file.format === "avif" ? "heif" : "webp");
      expect(meta.width).toBe(file.width);
    }

    const small = await processPicture(await photo(600, 400).png().toBuffer());
    for (const file of small.files) expect((await sharp(file.bytes).metadata()).width).toBe(Math.min(600, file.width));

    // And its link-preview JPEG, covering 1200×630 whatever the picture's size.
    for (const { share } of [large, small]) {
      const meta = await sharp(share).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);
    }
  });

  it("takes WebP and AVIF too", async () => {
    for (const bytes of [await photo(400, 300).webp().toBuffer(), await photo(400, 300).avif().toBuffer()]) {
      expect(await processPicture(bytes)).toMatchObject({ width: 400, height: 300 });
    }
  });

  it("turns a phone's sideways photo upright and strips its camera, GPS and other metadata from every rendition", async () => {
    const original = await phoneJpeg(1200, 800, 6);
    const before = await sharp(original).metadata();
    expect(before.exif?.includes("Canon")).toBe(true);
    expect(before.orientation).toBe(6);

    const picture = await processPicture(original);
    expect(picture).toMatchObject({ width: 800, height: 1200 });
    const share = { width: 1200, format: "share", bytes: picture.share };
    for (const file of [...picture.files, share]) {
      const meta = await sharp(file.bytes).metadata();
      // The preview is cropped to 1200×630 from the middle: the stripes run across it if upright.
      if (file === share) expect(await stripesRunAcross(file.bytes), "the preview is upright").toBe(true);
      else expect(meta.height! > meta.width!, `${file.width}.${file.format} is upright`).toBe(true);
      expect(meta.exif, `${file.width}.${file.format} has no EXIF`).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      for (const trace of ["Canon", "EOS", "Kilele-Test-Camera", "SERIAL-0042", "2026:08:01"]) {
        expect(file.bytes.includes(trace), `${file.width}.${file.format} mentions ${trace}`).toBe(false);
      }
    }
  });

  it.each([
    ["a text file named .jpg", Buffer.from("Dear staff,\nthis is not a picture.\n"), notAPictureMessage],
    ["a GIF", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), notAPictureMessage],
    [
      "a JPEG's signature followed by nonsense",
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]),
      "could not be read as a picture",
    ],
  ])("refuses %s", async (_, bytes, message) => {
    const error = await processPicture(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "invalid", fields: { file: message } });
  });

  it("refuses a file over 15 MB, saying how large it is, before reading it", async () => {
    const error = await processPicture(new Uint8Array(16 * 1024 * 1024)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "payload-too-large",
      fields: { file: "must be at most 15 MB: this file is 16.0 MB" },
    });
    const justOver = await processPicture(new Uint8Array(15 * 1024 * 1024 + 1)).catch((e: unknown) => e);
    expect(justOver).toMatchObject({ fields: { file: "must be at most 15 MB: this file is 15.1 MB" } });
  });

  it("refuses a picture of more than 100 megapixels without decoding it", async () => {
    // A small file that would take 400 MB of memory once decoded.
    const bomb = await blackPng(10_050, 10_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await sharp(bomb).metadata()).toMatchObject({ format: "png", width: 10_050, height: 10_000 });
    const error = await processPicture(bomb).catch((e: unknown) => e);
    expect(error).toMatchObject({ fields: { file: "must be at most 100 megapixels: this picture is 100.5" } });
  });
});

/**
 * A phone's photo, processed once for the file: encoding its AVIF renditions is the same whatever
 * the engine, and took most of each engine's storing test. Each engine stores and reads it.
 */
let phonePicture: Promise<ProcessedPicture> | undefined;
const processedPhonePicture = () => (phonePicture ??= phoneJpeg(1000, 750).then((bytes) => processPicture(bytes)));

describe.each(engines)("uploaded pictures on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  const counts = async () => ({
    images: await database.db.$count(uploadedImages),
    files: await database.db.$count(uploadedImageFiles),
  });

  it("stores a picture with its renditions under uploads/<id>, each readable again", async () => {
    // Smaller than the widest rendition, which is then made at the picture's own width: storing is
    // what is tested here, and encoding large AVIFs took most of the file's time. uploadPicture,
    // processing and storing in one, is the test of which names are pictures, below.
    const image = await storePicture(database.db, await processedPhonePicture(), about);
    expect(image).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    const id = uploadedImageId(image)!;
    // Seven renditions and the link-preview JPEG.
    expect(await counts()).toEqual({ images: 1, files: 8 });
    const [row] = await database.db.select().from(uploadedImages);
    expect(row).toMatchObject({ id, originalName: "poster.jpg", createdAt: now, width: 1000, height: 750 });

    const avif = await readRendition(database.db, id, 960, "avif");
    expect((await sharp(avif!).metadata()).format).toBe("heif");
    expect((await sharp(avif!).metadata()).exif).toBeUndefined();
    expect(await readRendition(database.db, id, 960, "jpg")).toBeInstanceOf(Buffer);
    expect(await readRendition(database.db, id, 480, "jpg")).toBeUndefined();
    expect(await readRendition(database.db, crypto.randomUUID(), 960, "avif")).toBeUndefined();
  });

  it("stores nothing for a bad file", async () => {
    for (const bytes of [
      Buffer.from("not a picture"),
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]),
      new Uint8Array(15 * 1024 * 1024 + 1),
    ]) {
      await expect(uploadPicture(database.db, bytes, about)).rejects.toBeInstanceOf(AppError);
    }
    expect(await counts()).toEqual({ images: 0, files: 0 });
  });

  it("stores a picture and its renditions together or not at all", async () => {
    const picture = await processPicture(await photo(500, 300).png().toBuffer());
    const twice = { ...picture, files: [...picture.files, picture.files[0]!] };
    await expect(storePicture(database.db, twice, about)).rejects.toThrow();
    expect(await counts()).toEqual({ images: 0, files: 0 });
  });

  it("knows which names are pictures: content/images sources and stored uploads", async () => {
    const library = new PictureLibrary(path.resolve("content/images"));
    const uploaded = await uploadPicture(database.db, await photo(300, 200).png().toBuffer(), about);
    expect(uploaded).toMatchObject({
      image: expect.stringMatching(/^uploads\/[0-9a-f-]{36}$/),
      width: 300,
      height: 200,
    });
    const { image } = uploaded;
    const unknownUpload = `uploads/${crypto.randomUUID()}`;
    expect(
      await library.missing(database.db, [
        "pages/quiz-night",
        "people/joseph-kimaro",
        image,
        "pages/no-such-picture",
        unknownUpload,
        "uploads/not-an-id",
        "../secrets",
        "pages/quiz-night",
      ]),
    ).toEqual(["pages/no-such-picture", unknownUpload, "uploads/not-an-id", "../secrets"]);
    expect(await library.missing(database.db, [])).toEqual([]);
  });
});

/**
 * A valid PNG of the given size, all black, written chunk by chunk: its rows of zeros deflate to a
 * few hundred kilobytes as they are written. Having sharp draw and encode 100 megapixels took
 * 15 to 30 s of a core.
 */
async function blackPng(width: number, height: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const deflate = zlib.createDeflate({ level: 9 });
  const row = Buffer.alloc(1 + width * 3); // the row's filter (none), then its pixels
  const compressed: Buffer[] = [];
  deflate.on("data", (part: Buffer) => compressed.push(part));
  const ended = new Promise((resolve) => deflate.once("end", resolve));
  for (let y = 0; y < height; y += 1) deflate.write(row);
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", Buffer.concat(compressed)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
