import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { bookings, offlinePayments, tickets } from "~db/schema";
import { bookingTotalPence } from "~/features/booking/pricing";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { PictureLibrary, uploadPicture } from "~/infra/images/uploads.server";
import { announceChange } from "~/infra/live/changes.server";
import { auditPage } from "~/infra/audit/audit.server";
import { createStaffUser } from "~/features/staff/staff.server";
import { AvailabilityFeed, type FeedMessage } from "./availability-feed.server";
import { availabilityByEvent, createEvent, findEvent, listEvents, updateEvent } from "./events.server";
import { newEventSchema } from "./schema";
import { seedSampleEvents } from "./sample-events.server";

// One fixed time for everything these tests touch: the events' dates, sales, holds and counts.
const now = new Date("2026-11-22T10:00:00Z");
const clock = { now: () => now };
const pictures = new PictureLibrary(path.resolve("content/images"));

const quiz = newEventSchema.parse({
  name: "Quiz Night",
  description: "Eight rounds and a supper.",
  posterImage: "pages/quiz-night",
  eventDate: "2026-12-05T19:00:00Z",
  ticketCost: 12.5,
  totalAvailableTickets: 10,
  ticketSaleExpiry: "2026-12-04T12:00:00Z",
});

describe.each(engines)("events on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  const sell = (eventId: string, quantity: number, isValid = true) =>
    database.db.insert(tickets).values({
      ticketHolderName: "Amina Mushi",
      email: "amina@example.org",
      eventId,
      bookingRef: crypto.randomUUID(),
      quantity,
      isValid,
      dateSold: now,
    });

  it("stores an event and gives it back with the spec's field names", async () => {
    const created = await createEvent(database.db, quiz, now, pictures);
    expect(created).toMatchObject({
      name: "Quiz Night",
      ticketCost: 12.5,
      ticketCostPence: 1250,
      eventDate: "2026-12-05T19:00:00.000Z",
      location: "",
      isTest: false,
    });
    expect(await findEvent(database, created.id)).toEqual(created);
    expect(await findEvent(database, "not-a-uuid")).toBeUndefined();
    expect(await findEvent(database, crypto.randomUUID())).toBeUndefined();
  });

  it("records in the audit log who created, changed and copied an event, and nothing for the site's own", async () => {
    const staff = await createStaffUser(database.db, "sam@example.org", "a long staff password", now);
    const created = await createEvent(database.db, quiz, now, pictures, { staff });
    await updateEvent(database.db, created.id, { totalAvailableTickets: 12, location: "Hall" }, now, pictures, {
      staff,
    });
    await createEvent(database.db, quiz, now, pictures, { staff, duplicateOf: created.id });
    await createEvent(database.db, quiz, now, pictures);
    const log = (await auditPage(database.db, 1)).rows.map((e) => [e.action, e.summary, e.by]);
    expect(log).toEqual(
      expect.arrayContaining([
        ["event.created", "Created “Quiz Night”", "sam@example.org"],
        ["event.changed", "Changed “Quiz Night”: totalAvailableTickets, location", "sam@example.org"],
        ["event.duplicated", `Copied event:${created.id} as “Quiz Night”`, "sam@example.org"],
      ]),
    );
    expect(log).toHaveLength(3);
  });

  it("lists events newest event date first", async () => {
    await createEvent(
      database.db,
      {
        ...quiz,
        name: "Older",
        eventDate: "2026-01-05T19:00:00Z",
        ticketSaleExpiry: "2026-01-04T12:00:00Z",
      },
      now,
      pictures,
    );
    await createEvent(database.db, quiz, now, pictures);
    expect((await listEvents(database)).map((e) => e.name)).toEqual(["Quiz Night", "Older"]);
  });

  it("counts tickets sold by quantity, not by record, and leaves out invalid tickets", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    const other = await createEvent(database.db, { ...quiz, name: "Other" }, now, pictures);
    await sell(event.id, 4);
    await sell(event.id, 3);
    await sell(event.id, 2, false);
    await sell(other.id, 1);
    const availability = await availabilityByEvent(database, now);
    expect(availability[event.id]).toEqual({ sold: 7, remaining: 3, soldOut: false });
    expect(availability[other.id]).toEqual({ sold: 1, remaining: 9, soldOut: false });
    await sell(event.id, 3);
    expect((await availabilityByEvent(database, now))[event.id]).toEqual({ sold: 10, remaining: 0, soldOut: true });
  });

  it("counts seats held by unfinished checkouts as taken until their hold expires", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    await sell(event.id, 4);
    const hold = (quantity: number, minutes: number, status = "held") =>
      database.db.insert(bookings).values({
        bookingRef: crypto.randomUUID(),
        eventId: event.id,
        holderName: "A",
        email: "a@example.org",
        quantity,
        seats: quantity,
        amountPence: 100,
        status,
        holdExpiresAt: new Date(now.getTime() + minutes * 60_000),
        provider: "offline",
        createdAt: now,
        updatedAt: now,
      });
    await hold(3, 10);
    await hold(2, -1); // expired
    await hold(2, 10, "cancelled");
    expect((await availabilityByEvent(database, now))[event.id]).toEqual({ sold: 4, remaining: 3, soldOut: false });
    await hold(3, 12);
    // Every seat left is in someone's checkout: not sold out, reserved until the first hold runs out.
    expect((await availabilityByEvent(database, now))[event.id]).toEqual({
      sold: 4,
      remaining: 0,
      soldOut: false,
      reservedUntil: new Date(now.getTime() + 10 * 60_000).toISOString(),
    });
  });

  it("counts holds by the site's clock, whatever the database server's own clock says", async () => {
    // The site's clock a year either side of the machine's: a rule that fell back on SQL now()
    // would count the first hold as expired and the second as still holding seats.
    const day = 86_400_000;
    const behind = new Date(Date.now() - 400 * day);
    const ahead = new Date(Date.now() + 400 * day);
    const event = await createEvent(database.db, quiz, behind, pictures);
    const hold = (holdExpiresAt: Date, at: Date) =>
      database.db.insert(bookings).values({
        bookingRef: crypto.randomUUID(),
        eventId: event.id,
        holderName: "A",
        email: "a@example.org",
        quantity: 4,
        seats: 4,
        amountPence: 100,
        status: "held",
        holdExpiresAt,
        provider: "offline",
        createdAt: at,
        updatedAt: at,
      });
    await hold(new Date(behind.getTime() + 10 * 60_000), behind);
    expect((await availabilityByEvent(database, behind))[event.id]).toMatchObject({ remaining: 6 });
    await hold(new Date(ahead.getTime() - 60_000), ahead);
    expect((await availabilityByEvent(database, ahead))[event.id]).toMatchObject({ remaining: 10 });
  });

  it("an event with no sales has them all left", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    expect((await availabilityByEvent(database, now))[event.id]).toEqual({ sold: 0, remaining: 10, soldOut: false });
  });

  it("changes only the fields given, and refuses a sale closing after the event", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    const changed = await updateEvent(
      database.db,
      event.id,
      { totalAvailableTickets: 5, ticketCost: null },
      now,
      pictures,
    );
    expect(changed).toMatchObject({ name: "Quiz Night", totalAvailableTickets: 5, ticketCost: null });
    await expect(
      updateEvent(database.db, event.id, { ticketSaleExpiry: "2026-12-06T00:00:00Z" }, now, pictures),
    ).rejects.toMatchObject({ code: "invalid", fields: { ticketSaleExpiry: "must not be after eventDate" } });
    expect((await findEvent(database, event.id))?.ticketSaleExpiry).toBe("2026-12-04T12:00:00.000Z");
    expect(await updateEvent(database.db, crypto.randomUUID(), { name: "x" }, now, pictures)).toBeUndefined();
  });

  it("refuses fewer tickets than are already sold, saying how many are sold, for the API and the pages alike", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    await sell(event.id, 4);
    await sell(event.id, 3);
    await expect(updateEvent(database.db, event.id, { totalAvailableTickets: 6 }, now, pictures)).rejects.toMatchObject(
      {
        code: "invalid",
        fields: { totalAvailableTickets: "must be at least 7: 7 tickets are already sold" },
      },
    );
    expect((await findEvent(database, event.id))?.totalAvailableTickets).toBe(10);
    expect(await updateEvent(database.db, event.id, { totalAvailableTickets: 7 }, now, pictures)).toMatchObject({
      totalAvailableTickets: 7,
    });
  });

  it("refuses pictures that do not exist, by field, for the API and the pages alike", async () => {
    const nowhere = `uploads/${crypto.randomUUID()}`;
    await expect(
      createEvent(
        database.db,
        {
          ...quiz,
          posterImage: "pages/no-such-poster",
          testimonial: { name: "Joseph", job: "Head teacher", image: nowhere, testimonial: "Asante!" },
          galleryImages: [
            { image: "gallery/exercise-books", description: "Books." },
            { image: "gallery/gone", description: "Gone." },
          ],
        },
        now,
        pictures,
      ),
    ).rejects.toMatchObject({
      code: "invalid",
      fields: {
        posterImage: "must name a picture on this site: there is none called pages/no-such-poster",
        "testimonial.image": `must name a picture on this site: there is none called ${nowhere}`,
        "galleryImages.1.image": "must name a picture on this site: there is none called gallery/gone",
      },
    });
    expect(await listEvents(database)).toEqual([]);

    const event = await createEvent(database.db, quiz, now, pictures);
    await expect(
      updateEvent(database.db, event.id, { posterImage: nowhere, totalAvailableTickets: 9 }, now, pictures),
    ).rejects.toMatchObject({ fields: { posterImage: expect.stringContaining("there is none called") } });
    expect(await findEvent(database, event.id)).toMatchObject({
      posterImage: "pages/quiz-night",
      totalAvailableTickets: 10,
    });
  });

  it("takes an uploaded picture, and an event without a poster or a reviewer's photo", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: "#1f5130" } })
      .png()
      .toBuffer();
    const { image } = await uploadPicture(database.db, png, { originalName: "poster.png", uploadedBy: null, now });
    const withUpload = await createEvent(database.db, { ...quiz, posterImage: image }, now, pictures);
    expect(withUpload.posterImage).toBe(image);

    const bare = await createEvent(
      database.db,
      newEventSchema.parse({
        ...quiz,
        ticketCost: 12.5,
        posterImage: undefined,
        testimonial: { name: "Joseph", job: "Head teacher", testimonial: "Asante!" },
      }),
      now,
      pictures,
    );
    expect(bare).toMatchObject({ posterImage: "", testimonial: { image: "" } });
    const changed = await updateEvent(database.db, withUpload.id, { posterImage: "" }, now, pictures);
    expect(changed?.posterImage).toBe("");
  });

  it("the live feed sends counts on a sale, and nothing personal", async () => {
    const event = await createEvent(database.db, quiz, now, pictures);
    const feed = new AvailabilityFeed(database, clock);
    await feed.start();
    const messages: FeedMessage[] = [];
    let resolve = () => {};
    const received = new Promise<void>((done) => (resolve = done));
    await feed.subscribe(({ message }) => {
      if (message) messages.push(message);
      if (message?.type === "availability-changed") resolve();
    });
    await database.db.transaction(async (tx) => {
      await tx.insert(tickets).values({
        ticketHolderName: "Private Person",
        email: "private@example.org",
        eventId: event.id,
        bookingRef: crypto.randomUUID(),
        quantity: 2,
        dateSold: now,
      });
      await announceChange(tx, "availability");
    });
    await received;
    // The whole picture first, then only what changed.
    expect(messages).toEqual([
      { type: "availability", events: { [event.id]: { sold: 0, remaining: 10, soldOut: false } } },
      { type: "availability-changed", events: { [event.id]: { sold: 2, remaining: 8, soldOut: false } } },
    ]);
    const text = JSON.stringify(messages);
    expect(text).not.toContain("Private Person");
    expect(text).not.toContain("private@example.org");
    await feed.close();
  });

  it("the feed says when events themselves change, so pages reload them", async () => {
    const feed = new AvailabilityFeed(database, clock);
    await feed.start();
    const types: string[] = [];
    let resolve = () => {};
    const received = new Promise<void>((done) => (resolve = done));
    await feed.subscribe(({ message }) => {
      if (message) types.push(message.type);
      if (message?.type === "availability-changed") resolve();
    });
    await createEvent(database.db, quiz, now, pictures);
    await announceChange(database.db, "events");
    await received;
    expect(types).toEqual(["availability", "events-changed", "availability-changed"]);
    await feed.close();
  });

  it("starts an empty embedded site with every kind of sample event, once, its sales paid bookings", async () => {
    expect(await seedSampleEvents(database.db, now, bookingTotalPence)).toBe(true);
    expect(await seedSampleEvents(database.db, now, bookingTotalPence)).toBe(false);
    const events = await listEvents(database);
    const availability = await availabilityByEvent(database, now);
    const current = events.filter((e) => new Date(e.ticketSaleExpiry) > now && !e.isTest);
    const past = events.filter((e) => new Date(e.ticketSaleExpiry) <= now && !e.isTest);
    expect(current.filter((e) => e.ticketCostPence !== null)).toHaveLength(2);
    expect(past).toHaveLength(2);
    expect(events.filter((e) => e.isTest)).toHaveLength(1);
    expect(events.filter((e) => e.ticketCostPence === null && e.link)).toHaveLength(1);
    const nearlySoldOut = current.filter(
      (e) => availability[e.id]!.remaining > 0 && availability[e.id]!.remaining <= 5,
    );
    expect(nearlySoldOut).toHaveLength(1);
    // Every sample ticket stands on a paid booking of the offline provider, so staff can open and refund it.
    const sold = await database.db
      .select({
        quantity: tickets.quantity,
        status: bookings.status,
        amount: bookings.amountPence,
        paid: offlinePayments.status,
      })
      .from(tickets)
      .leftJoin(bookings, eq(bookings.bookingRef, tickets.bookingRef))
      .leftJoin(offlinePayments, eq(offlinePayments.id, bookings.providerPaymentId));
    expect(sold.length).toBe(8);
    for (const sale of sold) expect(sale).toMatchObject({ status: "paid", paid: "succeeded" });
    expect(sold.some((sale) => sale.amount === bookingTotalPence(1250, sale.quantity))).toBe(true);
  });
});

describe.runIf(engines.includes("postgres"))("two server processes on one PostgreSQL database", () => {
  it("a change announced by one reaches the live feed of the other", async () => {
    const { createPostgresDatabase } = await import("../../../tests/support/databases");
    const { openDatabase } = await import("~/infra/db/database.server");
    const { url, drop } = await createPostgresDatabase();
    const a = await openDatabase({ url });
    const b = await openDatabase({ url });
    try {
      const event = await createEvent(a.db, quiz, now, pictures);
      const feedOnA = new AvailabilityFeed(a, clock);
      await feedOnA.start();
      let resolve = (_message: FeedMessage) => {};
      const received = new Promise<FeedMessage>((done) => (resolve = done));
      await feedOnA.subscribe(({ message }) => message?.type === "availability-changed" && resolve(message));
      await b.db.transaction(async (tx) => {
        await tx.insert(tickets).values({
          ticketHolderName: "Amina",
          email: "amina@example.org",
          eventId: event.id,
          bookingRef: crypto.randomUUID(),
          quantity: 10,
          dateSold: now,
        });
        await announceChange(tx, "availability");
      });
      expect(await received).toEqual({
        type: "availability-changed",
        events: { [event.id]: { sold: 10, remaining: 0, soldOut: true } },
      });
      await feedOnA.close();
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
