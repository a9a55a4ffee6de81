import crypto from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bookings, donations, staffInvitations, staffUsers, tickets, volunteers } from "~db/schema";
import type { DatabaseHandle, Queryable } from "~/infra/db/database.server";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { homeEvents, homePeriods, invitationsWaiting, sinceLastVisit, staffHome, takingsPeriods } from "./home.server";

const day = 86_400_000;

/** A paid booking of `quantity` tickets for `pence`, paid at `at`, with its ticket (what the seats count). */
async function paidBooking(db: Queryable, eventId: string, at: string | Date, quantity: number, pence: number) {
  const paidAt = new Date(at);
  const bookingRef = crypto.randomUUID();
  await db.insert(bookings).values({
    bookingRef,
    eventId,
    holderName: "Amina Mushi",
    email: "amina@example.org",
    quantity,
    seats: quantity,
    amountPence: pence,
    status: "paid",
    holdExpiresAt: paidAt,
    provider: "offline",
    createdAt: paidAt,
    paidAt,
    updatedAt: paidAt,
  });
  await db.insert(tickets).values({
    ticketHolderName: "Amina Mushi",
    email: "amina@example.org",
    eventId,
    bookingRef,
    quantity,
    dateSold: paidAt,
  });
}

async function gift(db: Queryable, at: string | Date, pence: number) {
  const paidAt = new Date(at);
  await db.insert(donations).values({
    id: crypto.randomUUID(),
    amountPence: pence,
    donorName: "Grace Kimaro",
    email: "grace@example.org",
    status: "paid",
    provider: "offline",
    createdAt: paidAt,
    paidAt,
    updatedAt: paidAt,
  });
}

async function member(db: Queryable, role: "owner" | "treasurer" | "events" | "door", previous: string | null) {
  const [row] = await db
    .insert(staffUsers)
    .values({
      email: `${role}-${crypto.randomUUID().slice(0, 8)}@example.org`,
      passwordHash: "not used here",
      role,
      createdAt: new Date("2025-01-01T00:00:00Z"),
      previousSignInAt: previous ? new Date(previous) : null,
    })
    .returning({ id: staffUsers.id, role: staffUsers.role });
  return row!;
}

describe("the London week", () => {
  it("starts on Monday at midnight London time, across the clocks going forward", () => {
    // Wednesday 1 April 2026, 12:00 BST; the clocks went forward on Sunday 29 March.
    const periods = homePeriods(new Date("2026-04-01T11:00:00Z"));
    expect(periods.today.from.toISOString()).toBe("2026-03-31T23:00:00.000Z");
    expect(periods.week.from.toISOString()).toBe("2026-03-29T23:00:00.000Z");
    expect(periods.week.monday).toBe("2026-03-30");
    // 52 weeks before: Monday 31 March 2025 (BST too), as far into the week as now is.
    expect(periods.lastYear.monday).toBe("2025-03-31");
    expect(periods.lastYear.from.toISOString()).toBe("2025-03-30T23:00:00.000Z");
    expect(periods.lastYear.to.toISOString()).toBe("2025-04-02T11:00:00.000Z");
  });

  it("on a Sunday in winter, goes back to the Monday before", () => {
    const periods = homePeriods(new Date("2026-11-29T21:00:00Z"));
    expect(periods.week.monday).toBe("2026-11-23");
    expect(periods.week.from.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(periods.today.from.toISOString()).toBe("2026-11-29T00:00:00.000Z");
  });
});

describe.each(engines)("the staff home's figures on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    // Wednesday 1 April 2026, 12:00 in London (BST).
    clock = testClock("2026-04-01T11:00:00Z");
  });
  afterEach(() => database.close());

  it("counts today's and this week's tickets and gifts by London days, and the same week last year", async () => {
    const { db } = database;
    const now = clock.now();
    const supper = await insertEvent(db, { name: "Harvest Supper", totalAvailableTickets: 100 }, now);
    const trial = await insertEvent(db, { name: "Card check", isTest: true }, now);
    // Today (from 00:00 BST = 23:00 UTC the day before).
    await paidBooking(db, supper, "2026-03-31T23:15:00Z", 2, 2549);
    await gift(db, "2026-04-01T10:59:00Z", 2500);
    // Tuesday 23:45 BST: this week, not today.
    await paidBooking(db, supper, "2026-03-31T22:45:00Z", 3, 3799);
    // Monday 00:30 BST: this week. Sunday 23:30 BST: last week, though the same UTC date.
    await paidBooking(db, supper, "2026-03-29T23:30:00Z", 1, 1299);
    await paidBooking(db, supper, "2026-03-29T22:30:00Z", 4, 5049);
    await gift(db, "2026-03-29T22:59:00Z", 1000);
    // A test event's booking counts nowhere.
    await paidBooking(db, trial, "2026-04-01T09:00:00Z", 5, 6299);
    // Last year: Monday 31 March 2025 00:00 BST to Wednesday 2 April 2025 12:00 BST.
    const old = await insertEvent(db, { name: "Spring Quiz" }, new Date("2025-03-01T00:00:00Z"));
    await paidBooking(db, old, "2025-03-30T23:10:00Z", 2, 2049);
    await paidBooking(db, old, "2025-03-30T22:50:00Z", 6, 7549); // Sunday 23:50 BST: the week before
    await gift(db, "2025-04-02T10:30:00Z", 5000);
    await gift(db, "2025-04-02T11:30:00Z", 7000); // later in that week than now is in this one

    const periods = await takingsPeriods(database, now);
    expect(periods.map((p) => [p.label, p.takings])).toEqual([
      ["Today", { bookings: 1, tickets: 2, ticketPence: 2549, gifts: 1, giftPence: 2500 }],
      ["This week", { bookings: 3, tickets: 6, ticketPence: 2549 + 3799 + 1299, gifts: 1, giftPence: 2500 }],
      ["The same week last year", { bookings: 1, tickets: 2, ticketPence: 2049, gifts: 1, giftPence: 5000 }],
    ]);
    expect(periods[0]!.span).toBe("Wednesday 1 April, to now");
    expect(periods[1]!.span).toBe("Monday 30 March to now");
    expect(periods[2]!.span).toBe("Monday 31 March 2025 to Wednesday 2 April 2025 at 12:00");
  });

  it("leaves out last year's week when the site took no money until after it", async () => {
    const { db } = database;
    const now = clock.now();
    const supper = await insertEvent(db, {}, now);
    await paidBooking(db, supper, "2026-03-31T10:00:00Z", 2, 2549);
    const periods = await takingsPeriods(database, now);
    expect(periods.map((p) => p.label)).toEqual(["Today", "This week"]);
  });

  it("counts bookings, sign-ups and gifts since the member's sign-in before this one, and says when it was", async () => {
    const { db } = database;
    const now = clock.now();
    const supper = await insertEvent(db, {}, now);
    // Last signed in on Tuesday 24 March at 18:02 (GMT, before the clocks went forward).
    const staff = await member(db, "owner", "2026-03-24T18:02:00Z");
    await paidBooking(db, supper, "2026-03-24T18:01:00Z", 4, 5049); // just before
    await paidBooking(db, supper, "2026-03-24T18:02:00Z", 2, 2549);
    await paidBooking(db, supper, "2026-03-31T09:00:00Z", 3, 3799);
    await db.insert(volunteers).values([
      { name: "Juma Said", email: "juma@example.org", reason: "I drive.", createdAt: new Date("2026-03-20T09:00:00Z") },
      {
        name: "Neema Mollel",
        email: "neema@example.org",
        reason: "I cook.",
        createdAt: new Date("2026-03-25T09:00:00Z"),
      },
      {
        name: "Baraka Mushi",
        email: "baraka@example.org",
        reason: "I sing.",
        createdAt: new Date("2026-04-01T10:00:00Z"),
      },
    ]);
    await gift(db, "2026-03-23T09:00:00Z", 1000);
    await gift(db, "2026-03-30T09:00:00Z", 2500);

    expect(await sinceLastVisit(database, staff, now)).toEqual({
      returning: true,
      since: new Date("2026-03-24T18:02:00Z"),
      bookings: 2,
      tickets: 5,
      signUps: 2,
      gifts: 1,
      giftPence: 2500,
    });
    const home = await staffHome(database, staff, now);
    expect(home.sinceLastVisit).toEqual({
      returning: true,
      since: "Tuesday 24 March at 18:02",
      bookings: { count: 2, tickets: 5 },
      signUps: 2,
      gifts: { count: 1, pence: 2500 },
    });
  });

  it("on a member's first sign-in, says so and counts the last 7 days", async () => {
    const { db } = database;
    const now = clock.now();
    const staff = await member(db, "owner", null);
    await db.insert(volunteers).values([
      {
        name: "Juma Said",
        email: "juma@example.org",
        reason: "I drive.",
        createdAt: new Date(now.getTime() - 8 * day),
      },
      { name: "Neema Mollel", email: "neema@example.org", reason: "I cook.", createdAt: new Date(now.getTime() - day) },
    ]);
    const since = await sinceLastVisit(database, staff, now);
    expect(since).toMatchObject({ returning: false, signUps: 1, bookings: 0 });
    expect(since.since.toISOString()).toBe("2026-03-25T11:00:00.000Z");
  });

  it("counts only the invitations that can still be used", async () => {
    const { db } = database;
    const now = clock.now();
    const invitation = (email: string, changes: Partial<typeof staffInvitations.$inferInsert> = {}) => ({
      tokenHash: crypto.randomUUID(),
      email,
      invitedByEmail: "owner@example.org",
      createdAt: new Date(now.getTime() - day),
      expiresAt: new Date(now.getTime() + day),
      ...changes,
    });
    await db
      .insert(staffInvitations)
      .values([
        invitation("waiting@example.org"),
        invitation("used@example.org", { usedAt: now }),
        invitation("expired@example.org", { expiresAt: new Date(now.getTime() - 1000) }),
        invitation("reset@example.org", { purpose: "reset" }),
      ]);
    expect(await invitationsWaiting(database, now)).toBe(1);
  });

  it("marks events selling fast, sold out or not selling in the last 7 days, from today on", async () => {
    const { db } = database;
    const now = clock.now();
    const at = (days: number) => new Date(now.getTime() + days * day);
    const event = (name: string, total: number, changes: Parameters<typeof insertEvent>[1] = {}) =>
      insertEvent(
        db,
        { name, totalAvailableTickets: total, eventDate: at(10), ticketSaleExpiry: at(9), ...changes },
        now,
      );
    const fast = await event("Barn Dance", 10);
    await paidBooking(db, fast, at(-20), 6, 7549);
    const stalled = await event("Curry Night", 50);
    await paidBooking(db, stalled, at(-10), 2, 2549);
    const soldOut = await event("Quiz Night", 4, { eventDate: at(12) });
    await paidBooking(db, soldOut, at(-1), 4, 5049);
    const steady = await event("Harvest Supper", 50, { eventDate: at(11) });
    await paidBooking(db, steady, at(-2), 2, 2549);
    await event("Card check", 50, { isTest: true, eventDate: at(13) });
    await event("Fun Run", 50, { cancelledAt: at(-1), eventDate: at(14) });
    await event("Open Day", 50, { ticketCostPence: null, eventDate: at(15) });
    await event("Last Week's Walk", 50, { eventDate: at(-1), ticketSaleExpiry: at(-2) });
    // Today at 08:00 BST, already begun: still today's.
    await event("Morning Coffee", 50, { eventDate: new Date("2026-04-01T07:00:00Z"), ticketSaleExpiry: at(-0.25) });

    const rows = await homeEvents(database, now);
    expect(rows.map((row) => [row.name, row.sale, row.sold, row.left, row.soldLastWeek, row.today])).toEqual([
      ["Morning Coffee", null, 0, 50, 0, true],
      ["Barn Dance", "fast", 6, 4, 0, false],
      ["Curry Night", "stalled", 2, 48, 0, false],
      ["Harvest Supper", null, 2, 48, 2, false],
      ["Quiz Night", "sold-out", 4, 0, 4, false],
      ["Card check", null, 0, 50, 0, false],
      ["Fun Run", null, 0, 50, 0, false],
      ["Open Day", null, 0, 50, 0, false],
    ]);
  });

  it("gives each member only what their role may open", async () => {
    const { db } = database;
    const now = clock.now();
    const supper = await insertEvent(db, {}, now);
    await paidBooking(db, supper, "2026-04-01T09:00:00Z", 2, 2549);
    await gift(db, "2026-04-01T09:30:00Z", 2500);

    const treasurer = await staffHome(database, await member(db, "treasurer", "2026-03-31T09:00:00Z"), now);
    expect(treasurer.periods?.[0]?.takings).toEqual({
      bookings: 1,
      tickets: 2,
      ticketPence: 2549,
      gifts: 1,
      giftPence: 2500,
    });
    expect(treasurer.events).toBeNull();
    expect(treasurer.invitationsWaiting).toBeNull();
    expect(treasurer.sinceLastVisit).toMatchObject({ bookings: { count: 1 }, signUps: 0, gifts: { count: 1 } });

    const events = await staffHome(database, await member(db, "events", "2026-03-31T09:00:00Z"), now);
    expect(events.periods?.[0]?.takings).toEqual({
      bookings: 1,
      tickets: 2,
      ticketPence: null,
      gifts: null,
      giftPence: null,
    });
    expect(events.events?.map((row) => row.id)).toEqual([supper]);
    expect(events.invitationsWaiting).toBeNull();
    expect(events.sinceLastVisit).toMatchObject({ bookings: { count: 1 }, signUps: null, gifts: null });

    const owner = await staffHome(database, await member(db, "owner", null), now);
    expect(owner.invitationsWaiting).toBe(0);
    expect(owner.events).toHaveLength(1);

    expect(await staffHome(database, await member(db, "door", null), now)).toEqual({
      periods: null,
      sinceLastVisit: null,
      invitationsWaiting: null,
      events: null,
    });
  });
});
