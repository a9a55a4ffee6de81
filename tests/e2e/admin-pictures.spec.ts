import type { Locator } from "@playwright/test";
import sharp from "sharp";
import { createPostgresDatabase } from "../support/databases";
import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { startSiteProcess } from "../support/site-process";
import { createEvent, eventInput, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

/**
 * A save that carries new pictures answers once the server has made their renditions (AVIF and WebP
 * at each size): on two busy cores that can take longer than the usual wait for a condition.
 */
const renditionsMade = { timeout: 30_000 };

// Staff upload pictures (posters, gallery pictures, a reviewer's photo) from the event form and the
// API; visitors see them as renditions served from the database, and an event without a poster
// shows a placeholder, never a broken image.

/** A picture as a phone or laptop would send it, with camera details and a GPS position in it. */
async function photo(colour: string, format: "jpeg" | "png" = "jpeg", width = 1200, height = 800) {
  const picture = sharp({ create: { width, height, channels: 3, background: colour } });
  const buffer =
    format === "png"
      ? await picture.png().toBuffer()
      : await picture
          .jpeg()
          .withExif({
            IFD0: { Make: "Canon", Model: "Canon EOS R6" },
            IFD3: {
              GPSLatitudeRef: "S",
              GPSLatitude: "3/1 4/1 0/1",
              GPSLongitudeRef: "E",
              GPSLongitude: "37/1 21/1 0/1",
            },
          })
          .toBuffer();
  return { name: `photo.${format === "png" ? "png" : "jpg"}`, mimeType: `image/${format}`, buffer };
}

const notAPicture = {
  name: "poster.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from("Minutes of the committee meeting, saved under the wrong name.\n"),
};

/** The picture an <img> shows, once loaded: its address and its decoded width (0 for a broken image). */
async function shown(image: Locator) {
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return image.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, naturalWidth: img.naturalWidth }));
}

testWithOwnSite(
  "staff upload a poster from the form; visitors see it as an uploaded rendition, without its camera or GPS details",
  async ({ page, ownSite, request }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Barn Dance" });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    await expect(page.getByRole("img", { name: "The current poster" })).toBeVisible();
    await hydrated(page.getByLabel("Poster", { exact: true })); // The busy button is the scripts' own.
    await page.getByLabel("Poster", { exact: true }).setInputFiles(await photo("#a85a12"));

    // While the picture goes up, the button says so and cannot be pressed again.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/admin/events/**", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    const save = page.getByRole("button", { name: /Save changes|Saving…/ });
    await save.click();
    await expect(save).toHaveAttribute("aria-busy", "true");
    await expect(save).toHaveText("Saving…");
    await expect(page.getByRole("status").filter({ hasText: "Uploading the pictures and saving…" })).toBeVisible();
    release();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(
      "Saved: the public pages show the change.",
      renditionsMade,
    );
    await page.unroute("**/admin/events/**");

    const stored = (await (await api.get(`/api/admin/events/${event.id}`)).json()) as { posterImage: string };
    expect(stored.posterImage).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    await shown(page.getByRole("img", { name: "The current poster" }));

    // A visitor's card shows one of the uploaded renditions, really decoded.
    await page.goto("/fundraising");
    const poster = page
      .locator("article", { hasText: "Barn Dance" })
      .getByRole("img", { name: "Poster for Barn Dance" });
    const { src, naturalWidth } = await shown(poster);
    expect(src).toMatch(new RegExp(`/images/${stored.posterImage}-\\d+\\.(avif|webp|jpg)$`));
    expect(naturalWidth).toBeGreaterThan(0);

    const rendition = await request.get(src);
    expect(rendition.status()).toBe(200);
    expect(rendition.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(rendition.headers()["content-type"]).toMatch(/^image\/(avif|webp|jpeg)$/);
    const bytes = await rendition.body();
    for (const trace of ["Canon", "EOS R6"]) expect(bytes.includes(trace), trace).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
  },
);

testWithOwnSite(
  "a text file named .jpg is refused beside Poster, and nothing of the event changes",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Quiz Night" });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    // The event's Name, the first of the form's (each ticket type has one too).
    await page.getByLabel("Name", { exact: true }).first().fill("Grand Quiz Night");
    await page.getByLabel("Poster", { exact: true }).setInputFiles(notAPicture);
    await page.getByRole("button", { name: "Save changes" }).click();

    await expect(page.getByRole("alert")).toHaveText("Nothing was saved: please correct the fields marked below.");
    await expect(
      page.getByText("Poster must be a JPEG, PNG, WebP or AVIF picture: this file is not one."),
    ).toBeVisible();
    await expect(page.getByLabel("Poster", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name", { exact: true }).first()).toHaveValue("Grand Quiz Night");
    await expectNoSeriousA11yViolations(page);
    expect(await (await api.get(`/api/admin/events/${event.id}`)).json()).toMatchObject({
      name: "Quiz Night",
      posterImage: "pages/quiz-night",
    });

    // The same through the API: a field message, nothing stored.
    const answer = await api.post("/api/admin/images?name=poster.jpg", {
      headers: { "Content-Type": "image/jpeg" },
      data: notAPicture.buffer,
    });
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toEqual({
      error: "The picture was not stored.",
      code: "invalid",
      fields: { file: "must be a JPEG, PNG, WebP or AVIF picture: this file is not one" },
    });
  },
);

testWithOwnSite(
  "after a refused text file named .jpg, a real PNG is saved and visitors see it; a save that stored nothing never says Saved",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    // Its times on the minute, as the form shows them, so a save of the form as it was changes nothing.
    const onTheMinute = (days: number) =>
      new Date(Math.floor(Date.now() / 60_000) * 60_000 + days * 86_400_000).toISOString();
    const event = await createEvent(api, {
      name: "Harvest Quiz",
      eventDate: onTheMinute(8),
      ticketSaleExpiry: onTheMinute(7),
    });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    await page.getByLabel("Poster", { exact: true }).setInputFiles(notAPicture);

    // A file input the page has since replaced (a script holding it, or a choice made as the form
    // was drawn again): what it holds is not on the form, so the save must not say "Saved".
    const replaced = await page.locator('input[name="posterFile"]').elementHandle();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("alert")).toHaveText("Nothing was saved: please correct the fields marked below.");
    const png = await photo("#1f5130", "png", 420, 594);
    await replaced!.setInputFiles(png);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "nothing to save" })).toHaveText(
      "There was nothing to save: the form matched the event as it was.",
    );
    await expect(page.getByText("Saved: the public pages show the change.")).toHaveCount(0);

    // The real PNG chosen on the form as it is now: previewed, then stored.
    await page.getByLabel("Poster", { exact: true }).setInputFiles(png);
    await expect(page.getByRole("img", { name: "The poster you have chosen, not yet saved" })).toBeVisible();
    await expect(page.getByText("Chosen: photo.png.")).toBeVisible();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(
      "Saved: the public pages show the change.",
      renditionsMade,
    );

    const stored = (await (await api.get(`/api/admin/events/${event.id}`)).json()) as { posterImage: string };
    expect(stored.posterImage).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    await page.goto(`/fundraising-event/${event.id}`);
    const { src } = await shown(page.getByRole("img", { name: "Poster for Harvest Quiz" }));
    expect(src).toContain(`/images/${stored.posterImage}-`);
  },
);

testWithOwnSite(
  "a chosen poster is shown before saving, and a portrait poster is shown whole on the card and the event page",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Ceilidh Night", posterImage: "" });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    await expect(page.getByText("No poster yet: the public pages show a plain placeholder.")).toBeVisible();
    await hydrated(page.getByLabel("Poster", { exact: true })); // The preview is drawn by the scripts.
    await page.getByLabel("Poster", { exact: true }).setInputFiles(await photo("#a85a12", "png", 420, 594));
    await expect(page.getByRole("img", { name: "The poster you have chosen, not yet saved" })).toBeVisible();
    await expect(page.getByText("No poster yet")).toHaveCount(0);
    const card = page.getByRole("region", { name: "Preview of the public card" });
    await expect(card.getByRole("img", { name: "Poster for Ceilidh Night" })).toHaveAttribute("src", /^blob:/);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible(renditionsMade);

    // Visitors see all of it: letterboxed, never cropped, in a box whose shape is set before it loads.
    for (const [path, name] of [
      ["/fundraising", "Poster for Ceilidh Night"],
      [`/fundraising-event/${event.id}`, "Poster for Ceilidh Night"],
    ] as const) {
      await page.goto(path);
      const poster = page.getByRole("img", { name }).first();
      await shown(poster);
      const style = await poster.evaluate((img) => {
        const css = getComputedStyle(img);
        return { fit: css.objectFit, ratio: css.aspectRatio };
      });
      expect(style.fit, path).toBe("contain");
      expect(style.ratio, path).not.toBe("auto");
    }
  },
);

testWithOwnSite(
  "a file over 15 MB is refused with its size, in the browser at once and by the server",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Quiz Night" });
    const huge = { name: "scan.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(16 * 1024 * 1024, 0xff) };
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    await hydrated(page.getByLabel("Poster", { exact: true })); // The size is checked at once by the scripts.
    await page.getByLabel("Poster", { exact: true }).setInputFiles(huge);
    const message = page.getByText("Poster must be at most 15 MB: this file is 16.0 MB.");
    await expect(message).toBeVisible();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByLabel("Poster", { exact: true })).toBeFocused();
    await expect(message).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Without the browser's check (no scripts, or another client), the server says the same.
    const posted = await page.request.post(`/admin/events/${event.id}`, {
      multipart: {
        intent: "save",
        name: "Quiz Night",
        description: "Eight rounds.",
        posterImage: "pages/quiz-night",
        posterFile: huge,
        eventDate: "2030-01-10T19:00",
        ticketSaleExpiry: "2030-01-09T12:00",
        totalAvailableTickets: "50",
      },
    });
    expect(posted.status()).toBe(400);
    expect(await posted.text()).toContain("Poster must be at most 15 MB: this file is 16.0 MB.");
    const answer = await api
      .post("/api/admin/images", { headers: { "Content-Type": "application/octet-stream" }, data: huge.buffer })
      .catch((error: Error) => error);
    if (answer instanceof Error) {
      // The server answered 413 and closed the connection while the upload was still being written
      // (a busy machine): refused before it was read, which is what is asked.
      expect(answer.message).toMatch(/EPIPE|ECONNRESET/);
    } else {
      expect(answer.status()).toBe(413);
      expect((await answer.json()).fields).toEqual({ file: "must be at most 15 MB: this file is 16.0 MB" });
    }
    expect(await (await api.get(`/api/admin/events/${event.id}`)).json()).toMatchObject({
      posterImage: "pages/quiz-night",
    });
  },
);

testWithOwnSite(
  "staff add gallery pictures with captions and a review with a photo, keep an upload through a mistake, and remove a picture after confirming",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Summer Fair" });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);

    await page.getByLabel("Reviewer", { exact: true }).fill("Joseph Kimaro");
    await page.getByLabel("Reviewer's job").fill("Head teacher");
    await page.getByLabel("Reviewer's photo").setInputFiles(await photo("#1f5130", "png", 400, 400));
    await page.getByLabel("What they said").fill("Asante sana to every stall holder!");
    await page.getByLabel("New picture 1", { exact: true }).setInputFiles(await photo("#f2b33d"));
    await page.getByLabel("Caption for new picture 1").fill("The cake stall at noon.");
    await page.getByRole("button", { name: "Add another picture" }).click();
    await expect(page.getByLabel("New picture 2", { exact: true })).toBeFocused();
    await page.getByLabel("New picture 2", { exact: true }).setInputFiles(await photo("#143820", "png"));
    // No caption for the second picture: a mistake, but its upload is kept on the form.
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Caption for picture 2 must not be blank.")).toBeVisible(renditionsMade);
    await expect(page.getByLabel("Caption for picture 1")).toHaveValue("The cake stall at noon.");
    await expect(page.getByLabel("Caption for picture 2")).toHaveValue("");
    await expect(page.getByLabel("Remove picture 2")).toBeVisible();
    await expect(page.getByRole("img", { name: "The current photo of Joseph Kimaro" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect((await (await api.get(`/api/admin/events/${event.id}`)).json()).galleryImages).toEqual([]);

    await page.getByLabel("Caption for picture 2").fill("Tug of war: the village hall team.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    const saved = (await (await api.get(`/api/admin/events/${event.id}`)).json()) as {
      galleryImages: { image: string; description: string }[];
      testimonial: { image: string };
    };
    expect(saved.galleryImages.map((item) => item.description)).toEqual([
      "The cake stall at noon.",
      "Tug of war: the village hall team.",
    ]);
    expect(saved.testimonial).toMatchObject({ name: "Joseph Kimaro", image: expect.stringMatching(/^uploads\//) });

    // Visitors see the review's photo and both pictures.
    const visitor = await page.context().newPage();
    await visitor.goto(`/fundraising-event/${event.id}`);
    await expect(visitor.getByText("Asante sana to every stall holder!")).toBeVisible();
    await shown(visitor.getByRole("img", { name: "Photo of Joseph Kimaro" }));
    const gallery = visitor.getByRole("region", { name: "Gallery" });
    await expect(gallery.getByRole("listitem")).toHaveCount(2);
    for (const image of await gallery.locator("img").all()) await shown(image);

    // Removing a picture asks first; keeping it changes nothing.
    await page.getByLabel("Remove picture 1").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    const question = page.getByRole("alertdialog", { name: "Remove pictures?" });
    await expect(question).toContainText("Remove 1 gallery picture from this event?");
    await expect(question.getByRole("button", { name: "Keep them" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await question.getByRole("button", { name: "Keep them" }).click();
    await expect(question).toBeHidden();
    expect((await (await api.get(`/api/admin/events/${event.id}`)).json()).galleryImages).toHaveLength(2);

    await page.getByRole("button", { name: "Save changes" }).click();
    await question.getByRole("button", { name: "Remove and save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expect(page.getByLabel("Caption for picture 1")).toHaveValue("Tug of war: the village hall team.");
    await expect(page.getByLabel("Caption for picture 2")).toHaveCount(0);
    await visitor.reload();
    await expect(visitor.getByRole("region", { name: "Gallery" }).getByRole("listitem")).toHaveCount(1);
    await expect(visitor.getByText("The cake stall at noon.")).toHaveCount(0);
  },
);

testWithOwnSite(
  "an event without a poster shows a placeholder, never a broken image; the API refuses a picture that does not exist",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const missing = await api.post("/api/admin/events", {
      data: eventInput({ posterImage: "pages/no-such-poster" }),
    });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).fields).toEqual({
      posterImage: "must name a picture on this site: there is none called pages/no-such-poster",
    });

    const event = await createEvent(api, {
      name: "Ceilidh",
      posterImage: "",
      testimonial: { name: "Neema Massawe", job: "Nurse", testimonial: "A wonderful night." },
    });
    await page.goto("/fundraising");
    const card = page.locator("article", { hasText: "Ceilidh" });
    await expect(card.getByTestId("poster-placeholder")).toBeVisible();
    await expect(card.locator("img")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.goto(`/fundraising-event/${event.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ceilidh");
    await expect(page.getByTestId("poster-placeholder")).toBeVisible();
    await expect(page.locator("main img")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Review" })).toContainText("A wonderful night.");
    await expectNoSeriousA11yViolations(page);

    // Staff remove a poster (after confirming): the card goes back to the placeholder.
    const withPoster = await createEvent(api, { name: "Harvest Supper" });
    await signIn(page);
    await page.goto(`/admin/events/${withPoster.id}`);
    await hydrated(page.getByRole("button", { name: "Save changes" })); // The question comes from the scripts.
    await page.getByLabel("Remove poster").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove and save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expect(page.getByText("No poster yet: the public pages show a plain placeholder.")).toBeVisible();
    await page.goto("/fundraising");
    await expect(
      page.locator("article", { hasText: "Harvest Supper" }).getByTestId("poster-placeholder"),
    ).toBeVisible();
  },
);

testWithOwnSite.describe("on a 390 px phone", () => {
  testWithOwnSite.use({ viewport: { width: 390, height: 844 } });

  testWithOwnSite(
    "a new event with its poster, by keyboard, with a preview of its card and no sideways scrolling",
    async ({ page }) => {
      await signIn(page);
      await page.goto("/admin/events/new");
      await expect(page.getByText("The preview appears once the event has a name and an event date.")).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      const width = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await width()).toBeLessThanOrEqual(390);

      await hydrated(page.getByLabel("Name", { exact: true })); // The card's preview is drawn by the scripts.
      await page.getByLabel("Name", { exact: true }).focus();
      await page.keyboard.type("Barn Dance");
      await page.keyboard.press("Tab");
      await expect(page.getByLabel("Description")).toBeFocused();
      await page.keyboard.type("A caller, a band and a hog roast.");
      await page.keyboard.press("Tab");
      await expect(page.getByLabel("Poster", { exact: true })).toBeFocused();
      await page.getByLabel("Poster", { exact: true }).setInputFiles(await photo("#a85a12", "png"));
      await page.getByLabel("Event date").fill("2030-06-20T19:00");
      await page.getByLabel("Ticket sale ends").fill("2030-06-19T12:00");
      await page.getByLabel("Ticket cost (£)").fill("8.50");
      await page.getByLabel("Tickets available").fill("60");

      const preview = page.getByRole("region", { name: "Preview of the public card" });
      await expect(preview.getByRole("heading", { name: "Barn Dance" })).toBeVisible();
      await expect(preview).toContainText("£8.50");
      await expect(preview).toContainText("The pictures you have chosen are stored when you save");
      await expect(preview.getByRole("img", { name: "Poster for Barn Dance" })).toHaveAttribute("src", /^blob:/);
      await expectNoSeriousA11yViolations(page);

      await page.getByRole("button", { name: "Create event" }).focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Barn Dance" })).toBeVisible(renditionsMade);
      await expect(page.getByRole("status").filter({ hasText: "created" })).toBeVisible();
      await shown(preview.getByRole("img", { name: "Poster for Barn Dance" }));
      expect(await width()).toBeLessThanOrEqual(390);
      await expectNoSeriousA11yViolations(page);
    },
  );
});

test.describe("on a PostgreSQL database shared by two server processes", () => {
  test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: the two-process test needs PostgreSQL");
  // Three server processes start inside the test.
  test.slow();

  test("a picture uploaded through one is served by the other, and by a process started afterwards", async ({
    request,
  }) => {
    const database = await createPostgresDatabase();
    const a = await startSiteProcess({ DATABASE_URL: database.url });
    const b = await startSiteProcess({ DATABASE_URL: database.url });
    let c: Awaited<ReturnType<typeof startSiteProcess>> | undefined;
    try {
      const uploaded = await (
        await staffApi(a)
      ).post("/api/admin/images?name=poster.jpg", {
        headers: { "Content-Type": "image/jpeg" },
        data: (await photo("#a85a12")).buffer,
      });
      expect(uploaded.status()).toBe(201);
      const { image, width, height } = (await uploaded.json()) as { image: string; width: number; height: number };
      expect(image).toMatch(/^uploads\/[0-9a-f-]{36}$/);
      expect({ width, height }).toEqual({ width: 1200, height: 800 });

      const fromB = await request.get(`${b.url}/images/${image}-960.webp`);
      expect(fromB.status()).toBe(200);
      expect(fromB.headers()["content-type"]).toBe("image/webp");
      expect(fromB.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect((await sharp(await fromB.body()).metadata()).width).toBe(960);
      const etag = fromB.headers()["etag"]!;
      expect(etag).toBeTruthy();
      const again = await request.get(`${b.url}/images/${image}-960.webp`, { headers: { "If-None-Match": etag } });
      expect(again.status()).toBe(304);
      // Its link-preview picture was made with it, so the other process has it too.
      const preview = await request.get(`${b.url}/images/share/${image}.jpg`);
      expect(preview.status()).toBe(200);
      expect(preview.headers()["content-type"]).toBe("image/jpeg");
      expect(preview.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(await sharp(await preview.body()).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
      // An event on the other process may name it.
      const event = await createEvent(await staffApi(b), { name: "Barn Dance", posterImage: image });
      expect(event.id).toBeTruthy();

      // After a redeploy (a new process, same database) it is still there.
      await a.stop();
      c = await startSiteProcess({ DATABASE_URL: database.url });
      expect((await request.get(`${c.url}/images/${image}-480.avif`)).status()).toBe(200);
      expect((await request.get(`${c.url}/images/${image}-960.jpg`)).headers()["content-type"]).toBe("image/jpeg");
      expect((await request.get(`${c.url}/images/uploads/${crypto.randomUUID()}-960.jpg`)).status()).toBe(404);
      expect((await request.get(`${c.url}/images/${image}-961.jpg`)).status()).toBe(404);
    } finally {
      await a.stop();
      await b.stop();
      await c?.stop();
      await database.drop();
    }
  });
});
