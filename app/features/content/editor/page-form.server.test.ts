import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staffUsers, uploadedImages } from "~db/schema";
import { testClock } from "../../../../tests/support/clock";
import { engines, freshDatabase } from "../../../../tests/support/databases";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { contentFields } from "./field-tree";
import { readPageForm } from "./page-form.server";

const clock = testClock("2026-11-22T10:00:00Z");

/** The volunteering page's form as the editor posts it, with whatever a test changes. */
function post(fields: Record<string, string | File>) {
  const form = new FormData();
  const all: Record<string, string | File> = {
    title: "Volunteering",
    description: "Help us.",
    "image.src": "pages/sponsored-walk",
    "image.alt": "Walkers on a footpath",
    col1Text: "One",
    col2Text: "Two",
    formTitle: "Join us in 2026",
    formIntro: "Fill it in.",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  return form;
}

const png = async () =>
  new File(
    [
      await sharp({ create: { width: 600, height: 400, channels: 3, background: "#1f5130" } })
        .png()
        .toBuffer(),
    ],
    "walk.png",
    { type: "image/png" },
  );

describe.each(engines)("the page editor's post on %s", (engine) => {
  let database: DatabaseHandle;
  let staff: { id: string };
  beforeEach(async () => {
    database = await freshDatabase(engine);
    staff = { id: crypto.randomUUID() };
    await database.db
      .insert(staffUsers)
      .values({ ...staff, email: "staff@example.org", passwordHash: "not used here", createdAt: clock.now() });
  });
  afterEach(() => database.close());
  const services = () => ({ db: database.db, clock });
  const fields = contentFields("volunteering");

  it("stores a picture chosen for upload (by the poster's rules) and names it on the form", async () => {
    const read = await readPageForm(post({ "image._file": await png() }), fields, services(), staff);
    expect(read.problems).toEqual({});
    const image = read.value.image as { src: string; alt: string };
    expect(image.src).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    expect(image.alt).toBe("Walkers on a footpath");
    expect(await database.db.$count(uploadedImages)).toBe(1);
    // The library offers it with the site's own pictures, newest upload first.
    const library = await new PictureLibrary(path.resolve("content/images")).list(database.db);
    expect(library[0]).toMatchObject({ src: image.src, uploaded: { originalName: "walk.png" } });
    expect(library.map((p) => p.src)).toContain("pages/sponsored-walk");
  });

  it("refuses a file that is not a picture beside its field, keeps the picture there was, and stores nothing", async () => {
    const notAPicture = new File(["minutes of the meeting"], "walk.jpg", { type: "image/jpeg" });
    const read = await readPageForm(post({ "image._file": notAPicture }), fields, services(), staff);
    expect(read.problems).toEqual({
      "image._file": "must be a JPEG, PNG, WebP or AVIF picture: this file is not one",
    });
    expect((read.value.image as { src: string }).src).toBe("pages/sponsored-walk");
    expect(await database.db.$count(uploadedImages)).toBe(0);
  });

  it("ignores an empty file input, as a browser posts it when nothing was chosen", async () => {
    const read = await readPageForm(post({ "image._file": new File([], "") }), fields, services(), staff);
    expect(read.problems).toEqual({});
    expect(await database.db.$count(uploadedImages)).toBe(0);
  });
});
