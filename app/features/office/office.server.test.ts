import crypto from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import { auditLog, bookingItems, bookings, donations, outbox, staffUsers, volunteers } from "~db/schema";
import type { DatabaseHandle, Queryable } from "~/infra/db/database.server";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { giveTypes } from "../../../tests/support/ticket-types";
import { officeSettings, saveOfficeSettings, sweepOfficeMail } from "./office.server";

const charity = { name: "Kilele Village Trust", email: "hello@kilele.example", website: "https://kilele.example" };
const minute = 60_000;

async function paidBooking(db: Queryable, eventId: string, at: Date, buyer = "Amina Mushi") {
  const ref = crypto.randomUUID();
  await db.insert(bookings).values({
    bookingRef: ref,
    eventId,
    holderName: buyer,
    email: "amina@example.org",
    quantity: 2,
    seats: 2,
    amountPence: 2500,
    status: "paid",
    holdExpiresAt: at,
    provider: "offline",
    createdAt: at,
    paidAt: at,
    updatedAt: at,
  });
  return ref;
}

async function paidDonation(db: Queryable, at: Date) {
  const id = crypto.randomUUID();
  await db.insert(donations).values({
    id,
    amountPence: 1000,
    donorName: "Grace Kimaro",
    email: "grace@example.org",
    status: "paid",
    provider: "offline",
    createdAt: at,
    paidAt: at,
    updatedAt: at,
  });
  return id;
}

async function signUp(db: Queryable, at: Date) {
  const [row] = await db
    .insert(volunteers)
    .values({ name: "Juma Said", email: "juma@example.org", reason: "I drive.", createdAt: at })
    .returning({ id: volunteers.id });
  return row!.id;
}

async function queued(db: Queryable) {
  return db.select().from(outbox).orderBy(asc(outbox.dedupeKey));
}

describe.each(engines)("telling the charity's office on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let eventId: string;
  let staff: { id: string; email: string };
  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T09:00:00Z");
    eventId = await insertEvent(database.db, {}, clock.now());
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    staff = member!;
  });
  afterEach(() => database.close());

  const sweep = () => sweepOfficeMail(database.db, { now: clock.now(), charity });
  const save = (mode: string, address = "") =>
    saveOfficeSettings(database, staff, { address, mode }, { now: clock.now(), charityEmail: charity.email });

  it("on a new site, tells the charity's own address of each arrival from the first sweep on, and checks what staff choose", async () => {
    await paidBooking(database.db, eventId, clock.now(), "Before First Sweep");
    clock.advance(minute);
    expect(await officeSettings(database, clock.now())).toMatchObject({ mode: "each", address: null });
    expect(await sweep()).toBe(0); // what came in before the site's first sweep is not sent
    clock.advance(minute);
    const ref = await paidBooking(database.db, eventId, clock.now());
    expect(await sweep()).toBe(1);
    const mails = await queued(database.db);
    expect(mails.map((m) => [m.dedupeKey, m.recipient])).toEqual([[`office-booking:${ref}`, charity.email]]);
    expect(JSON.stringify(mails)).not.toContain("Before First Sweep");
    await expect(save("each", "not an address")).rejects.toMatchObject({ fields: { address: expect.any(String) } });
    await expect(save("sometimes")).rejects.toMatchObject({ fields: { mode: expect.any(String) } });
    expect(await database.db.$count(auditLog)).toBe(0);
  });

  it("in 'each' mode, queues one e-mail per booking, donation and sign-up since the setting took effect, once across sweeps", async () => {
    await paidBooking(database.db, eventId, clock.now(), "Before Setting");
    clock.advance(minute);
    await save("each");
    expect((await database.db.select().from(auditLog))[0]).toMatchObject({ action: "settings.changed" });
    clock.advance(minute);
    const ref = await paidBooking(database.db, eventId, clock.now());
    const donationId = await paidDonation(database.db, clock.now());
    const volunteerId = await signUp(database.db, clock.now());
    expect(await sweep()).toBe(3);
    expect(await sweep()).toBe(0); // a repeated sweep (or a second process) queues nothing more
    const mails = await queued(database.db);
    expect(mails.map((m) => m.dedupeKey)).toEqual([
      `office-booking:${ref}`,
      `office-donation:${donationId}`,
      `office-volunteer:${volunteerId}`,
    ]);
    expect(mails.every((m) => m.recipient === charity.email)).toBe(true);
    const booking = mails[0]!.payload;
    expect(booking.subject).toBe("New booking: 2 tickets for Quiz Night");
    expect(booking.text).toContain("Amina Mushi <amina@example.org> booked 2 tickets for Quiz Night");
    expect(booking.text).toContain("£25.00");
    expect(JSON.stringify(mails)).not.toContain("Before Setting");

    // Saving the same mode with another address keeps the moment it took effect.
    await save("each", "office@kilele.example");
    await signUp(database.db, clock.now());
    expect(await sweep()).toBe(1);
    expect((await queued(database.db)).filter((m) => m.recipient === "office@kilele.example")).toHaveLength(1);
  });

  it("names the ticket types of a booking of several (decision 082)", async () => {
    await save("each");
    clock.advance(minute);
    const types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1000 },
        { name: "Child", pricePence: 500 },
      ],
      clock.now(),
    );
    const ref = await paidBooking(database.db, eventId, clock.now());
    await database.db.insert(bookingItems).values([
      { bookingRef: ref, ticketTypeId: types.Adult!, quantity: 1, pricePence: 1000, seatsPerTicket: 1 },
      { bookingRef: ref, ticketTypeId: types.Child!, quantity: 1, pricePence: 500, seatsPerTicket: 1 },
    ]);
    expect(await sweep()).toBe(1);
    const [mail] = await queued(database.db);
    expect(mail!.payload.text).toContain("Amina Mushi <amina@example.org> booked 2 tickets (1 × Adult, 1 × Child) for");
  });

  it("in 'none' mode queues nothing", async () => {
    await save("none");
    clock.advance(minute);
    await paidDonation(database.db, clock.now());
    expect(await sweep()).toBe(0);
  });

  it("in 'daily' mode, sends yesterday's summary from 07:00 London time, by London days, once, and none for an empty day", async () => {
    // Summer time: London is UTC+1, so the London day of 2026-07-10 runs 2026-07-09T23:00Z to 2026-07-10T23:00Z.
    clock.set("2026-07-09T12:00:00Z");
    await save("daily");
    clock.set("2026-07-09T22:30:00Z"); // 23:30 on the 9th in London
    await paidBooking(database.db, eventId, clock.now(), "Late Ninth");
    clock.set("2026-07-09T23:30:00Z"); // 00:30 on the 10th in London
    await paidBooking(database.db, eventId, clock.now(), "Early Tenth");
    await paidDonation(database.db, clock.now());

    clock.set("2026-07-10T05:59:00Z"); // 06:59 in London: the 9th's summary is not yet due
    expect(await sweep()).toBe(0);
    clock.set("2026-07-10T06:00:00Z"); // 07:00 in London
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    let mails = await queued(database.db);
    expect(mails.map((m) => m.dedupeKey)).toEqual(["office-summary:2026-07-09"]);
    expect(mails[0]!.payload.subject).toBe("What came in on 09/07/2026");
    expect(mails[0]!.payload.text).toContain("Late Ninth");
    expect(mails[0]!.payload.text).not.toContain("Early Tenth");

    // The 11th, after 07:00: the 10th's summary; the 10th's morning has both; the empty days before get none.
    clock.set("2026-07-11T08:00:00Z");
    expect(await sweep()).toBe(1);
    mails = await queued(database.db);
    expect(mails.map((m) => m.dedupeKey)).toEqual(["office-summary:2026-07-09", "office-summary:2026-07-10"]);
    expect(mails[1]!.payload.text).toContain("Early Tenth");
    expect(mails[1]!.payload.text).toContain("Bookings: 1, £25.00");
    expect(mails[1]!.payload.text).toContain("Donations: 1, £10.00");
    clock.set("2026-07-13T08:00:00Z"); // nothing came in on the 11th or 12th
    expect(await sweep()).toBe(0);
  });

  it("in 'daily' mode leaves out what came in before the setting took effect that day", async () => {
    clock.set("2026-11-22T10:00:00Z");
    await paidBooking(database.db, eventId, clock.now(), "Before Setting");
    clock.set("2026-11-22T11:00:00Z");
    await save("daily");
    clock.set("2026-11-23T09:00:00Z");
    expect(await sweep()).toBe(0);
  });
});
