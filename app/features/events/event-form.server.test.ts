import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staffUsers, uploadedImages } from "~db/schema";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { testClock } from "../../../tests/support/clock";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { eventFormValues, eventInputFromForm, formErrors, type EventFormValues } from "./event-form";
import { saveEventForm } from "./event-form.server";
import { findEvent } from "./events.server";

const clock = testClock("2026-11-22T10:00:00Z");
const pictures = new PictureLibrary(path.resolve("content/images"));

/** The form as the page posts it, with whatever a test changes (a File for a picture). */
function post(fields: Record<string, string | File>) {
  const form = new FormData();
  const all: Record<string, string | File> = {
    intent: "save",
    name: "Quiz Night",
    description: "Eight rounds and a supper.",
    posterImage: "pages/quiz-night",
    eventDate: "2026-12-05T19:00",
    ticketSaleExpiry: "2026-12-04T12:00",
    location: "Village hall",
    ticketCost: "12.50",
    totalAvailableTickets: "80",
    link: "",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  return form;
}

const png = async (name = "photo.png") =>
  new File(
    [
      await sharp({ create: { width: 600, height: 400, channels: 3, background: "#1f5130" } })
        .png()
        .toBuffer(),
    ],
    name,
    { type: "image/png" },
  );
const textFile = () => new File(["not a picture"], "poster.jpg", { type: "image/jpeg" });
const noFile = () => new File([], "", { type: "application/octet-stream" });

describe.each(engines)("the staff event form on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());
  const services = () => ({ db: database.db, clock, pictures });
  const stored = () => database.db.$count(uploadedImages);
  let staff: { id: string; email: string };
  beforeEach(async () => {
    staff = { id: crypto.randomUUID(), email: "staff@example.org" };
    await database.db.insert(staffUsers).values({ ...staff, passwordHash: "not used here", createdAt: clock.now() });
  });

  it("creates an event with an uploaded poster, a review with a photo and captioned gallery pictures", async () => {
    const ok = await saveEventForm(
      post({
        posterFile: await png("poster.png"),
        "testimonial.name": "Joseph Kimaro",
        "testimonial.job": "Head teacher",
        "testimonial.file": await png("joseph.png"),
        "testimonial.testimonial": "Asante sana!",
        "galleryNew.0.file": await png(),
        "galleryNew.0.description": "The cake stall.",
        "galleryNew.1.file": noFile(),
        "galleryNew.1.description": "",
      }),
      "new",
      services(),
      staff,
    );
    if (!("event" in ok)) throw new Error(JSON.stringify(ok.errors));
    expect(ok.event).toMatchObject({
      name: "Quiz Night",
      posterImage: expect.stringMatching(/^uploads\//),
      testimonial: { name: "Joseph Kimaro", image: expect.stringMatching(/^uploads\//), testimonial: "Asante sana!" },
      galleryImages: [{ image: expect.stringMatching(/^uploads\//), description: "The cake stall." }],
    });
    expect(await stored()).toBe(3);
    const uploaders = await database.db.select({ by: uploadedImages.uploadedBy }).from(uploadedImages);
    expect(uploaders).toEqual([{ by: staff.id }, { by: staff.id }, { by: staff.id }]);
  });

  it("keeps a good upload on the form when another field is wrong, and saves nothing of the event", async () => {
    const result = await saveEventForm(
      post({ name: "", posterFile: await png(), "galleryNew.0.file": await png(), "galleryNew.0.description": "" }),
      "new",
      services(),
      staff,
    );
    if ("event" in result) throw new Error("saved");
    expect(result.errors).toEqual({
      name: "must not be blank",
      "galleryImages.0.description": "must not be blank",
    });
    expect(result.values.posterImage).toMatch(/^uploads\//);
    expect(result.values.gallery).toEqual([
      { image: expect.stringMatching(/^uploads\//), description: "", remove: false },
    ]);
    expect(await stored()).toBe(2);

    // Sent again with the kept names (hidden fields) and the mistakes put right: no new upload.
    const again = await saveEventForm(
      post({
        posterImage: result.values.posterImage,
        "galleryImages.0.image": result.values.gallery[0]!.image,
        "galleryImages.0.description": "The cake stall.",
      }),
      "new",
      services(),
      staff,
    );
    expect(again).toMatchObject({ event: { posterImage: result.values.posterImage } });
    expect(await stored()).toBe(2);
  });

  it("refuses a bad file beside its field, stores nothing for it, and changes nothing of the event", async () => {
    const created = await saveEventForm(post({}), "new", services(), staff);
    if (!("event" in created)) throw new Error(JSON.stringify(created.errors));
    const id = created.event.id;
    const result = await saveEventForm(
      post({
        name: "Grand Quiz Night",
        posterFile: textFile(),
        "testimonial.name": "Neema",
        "testimonial.job": "Nurse",
        "testimonial.testimonial": "Lovely.",
        "testimonial.file": new File([new Uint8Array(16 * 1024 * 1024)], "big.jpg"),
        "galleryNew.0.file": textFile(),
        "galleryNew.0.description": "Kept caption.",
        "galleryNew.1.description": "A caption with no picture.",
      }),
      { id },
      services(),
      staff,
    );
    if ("event" in result) throw new Error("saved");
    expect(result.errors).toEqual({
      posterImage: "must be a JPEG, PNG, WebP or AVIF picture: this file is not one",
      "testimonial.image": "must be at most 15 MB: this file is 16.0 MB",
      "galleryNew.0.file": "must be a JPEG, PNG, WebP or AVIF picture: this file is not one",
      "galleryNew.1.file": "must be chosen to go with its caption",
    });
    expect(result.values.posterImage).toBe("pages/quiz-night");
    expect(result.values.galleryNew).toEqual([
      { description: "Kept caption." },
      { description: "A caption with no picture." },
    ]);
    expect(await stored()).toBe(0);
    expect(await findEvent(database, id)).toMatchObject({ name: "Quiz Night", testimonial: null });
  });

  it("after a refused file, the next post with a real picture stores it, and the save names the poster as changed", async () => {
    const created = await saveEventForm(post({}), "new", services(), staff);
    if (!("event" in created)) throw new Error(JSON.stringify(created.errors));
    const id = created.event.id;
    const refused = await saveEventForm(post({ posterFile: textFile() }), { id }, services(), staff);
    if ("event" in refused) throw new Error("saved");
    // The form is drawn again from what came back: its hidden poster field names the old poster.
    const again = await saveEventForm(
      post({ posterImage: refused.values.posterImage, posterFile: await png("poster.png") }),
      { id },
      services(),
      staff,
    );
    if (!("event" in again)) throw new Error(JSON.stringify(again.errors));
    expect(again.changed).toEqual(["posterImage"]);
    expect(again.event.posterImage).toMatch(/^uploads\//);
    expect(await findEvent(database, id)).toMatchObject({ posterImage: again.event.posterImage });
    expect(await stored()).toBe(1);
  });

  it("a post that changes nothing is saved as nothing changed, never reported as a change", async () => {
    const created = await saveEventForm(post({}), "new", services(), staff);
    if (!("event" in created)) throw new Error(JSON.stringify(created.errors));
    expect(created.changed).toContain("posterImage");
    const same = await saveEventForm(post({ posterFile: noFile() }), { id: created.event.id }, services(), staff);
    expect(same).toMatchObject({ changed: [] });
    const renamed = await saveEventForm(
      post({ name: "Grand Quiz Night" }),
      { id: created.event.id },
      services(),
      staff,
    );
    expect(renamed).toMatchObject({ changed: ["name"] });
  });

  it("removes the poster, the reviewer's photo and ticked gallery pictures, and names a missing picture by its row", async () => {
    const created = await saveEventForm(
      post({
        "testimonial.name": "Joseph",
        "testimonial.job": "Head teacher",
        "testimonial.image": "people/joseph-kimaro",
        "testimonial.testimonial": "Asante!",
        "galleryImages.0.image": "gallery/exercise-books",
        "galleryImages.0.description": "Books.",
        "galleryImages.1.image": "gallery/borehole-first-water",
        "galleryImages.1.description": "Water.",
      }),
      "new",
      services(),
      staff,
    );
    if (!("event" in created)) throw new Error(JSON.stringify(created.errors));
    const id = created.event.id;

    const missing = await saveEventForm(
      post({
        "galleryImages.0.image": "gallery/exercise-books",
        "galleryImages.0.description": "Books.",
        "galleryImages.0.remove": "on",
        "galleryImages.1.image": "gallery/no-such-picture",
        "galleryImages.1.description": "Gone.",
      }),
      { id },
      services(),
      staff,
    );
    expect(missing).toMatchObject({
      errors: {
        "galleryImages.1.image": "must name a picture on this site: there is none called gallery/no-such-picture",
      },
    });

    const result = await saveEventForm(
      post({
        removePoster: "on",
        "testimonial.name": "Joseph",
        "testimonial.job": "Head teacher",
        "testimonial.image": "people/joseph-kimaro",
        "testimonial.removeImage": "on",
        "testimonial.testimonial": "Asante!",
        "galleryImages.0.image": "gallery/exercise-books",
        "galleryImages.0.description": "Books.",
        "galleryImages.0.remove": "on",
        "galleryImages.1.image": "gallery/borehole-first-water",
        "galleryImages.1.description": "Water at last.",
      }),
      { id },
      services(),
      staff,
    );
    expect(result).toMatchObject({
      event: {
        posterImage: "",
        testimonial: { name: "Joseph", image: "" },
        galleryImages: [{ image: "gallery/borehole-first-water", description: "Water at last." }],
      },
    });
  });
});

describe("the event form's values", () => {
  const values = (change: Partial<EventFormValues> = {}): EventFormValues => ({
    ...eventFormValues({
      id: "x",
      name: "Quiz Night",
      description: "Eight rounds.",
      posterImage: "pages/quiz-night",
      eventDate: "2026-12-05T19:00:00.000Z",
      location: "",
      ticketCost: 12.5,
      ticketCostPence: 1250,
      totalAvailableTickets: 80,
      ticketSaleExpiry: "2026-12-04T12:00:00.000Z",
      isTest: false,
      link: null,
      testimonial: null,
      galleryImages: [],
    }),
    ...change,
  });

  it("have no review until something of it is filled in", () => {
    expect(eventInputFromForm(values()).input.testimonial).toBeNull();
    expect(
      eventInputFromForm(values({ review: { name: "Joseph", job: "", image: "", removeImage: false, words: "" } }))
        .input.testimonial,
    ).toEqual({ name: "Joseph", job: "", image: "", testimonial: "" });
  });

  it("put the API's message for a gallery picture on its row, counting the rows marked for removal", () => {
    const gallery = [
      { image: "gallery/a", description: "A", remove: true },
      { image: "gallery/b", description: "", remove: false },
      { image: "gallery/c", description: "C", remove: false },
    ];
    expect(eventInputFromForm(values({ gallery })).input.galleryImages).toEqual([
      { image: "gallery/b", description: "" },
      { image: "gallery/c", description: "C" },
    ]);
    expect(
      formErrors(
        { "galleryImages.0.description": "must not be blank", galleryImages: "too many", name: "x" },
        values({ gallery }),
      ),
    ).toEqual({ "galleryImages.1.description": "must not be blank", galleryImages: "too many", name: "x" });
  });
});
