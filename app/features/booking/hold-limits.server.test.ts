import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { auditLog, bookings, staffUsers } from "~db/schema";
import type { Services } from "../../../server/services";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";
import { giveTypes } from "../../../tests/support/ticket-types";
import { defaultHoldLimits, holdLimits, saveHoldLimits } from "./hold-limits.server";
import { maxHeldMinutes } from "./checkout.server";
import { settleExpiredHolds } from "./settlement.server";

// What one visitor can hold at once (decision 026), through POST /api/bookings as a browser sends it.

describe.each(engines)("limits on held seats on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let site: TestServices;
  let deps: Services;
  let eventId: string;
  let staff: { id: string; email: string };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    site = await testServices(database, clock);
    const services = await site.request();
    // Payment starts per address set high, so only the limits on held seats refuse anyone here.
    const paymentStarts = new RateLimiter(database.db, { name: "payment-starts", limit: 1000, windowMs: 60_000 });
    deps = { ...services, limits: { ...services.limits, paymentStarts } };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 50 }, clock.now());
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    staff = member!;
  });
  afterEach(() => site.close());

  async function book(address: string, body: Record<string, unknown>) {
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventId, name: "Amina Mushi", ...body }),
    });
    const response = await callRoute(startBookingRoute, request, deps, { clientAddress: address });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const held = async () =>
    (await database.db.select().from(bookings).where(eq(bookings.status, "held"))).reduce((n, b) => n + b.quantity, 0);

  it("two anonymous holds from one address cannot take the 48 free seats of a 50-seat event; a buyer elsewhere still buys", async () => {
    await database.db.insert(bookings).values({
      bookingRef: crypto.randomUUID(),
      eventId,
      holderName: "Sold",
      email: "sold@example.org",
      quantity: 2,
      seats: 2,
      amountPence: 2549,
      status: "paid",
      holdExpiresAt: clock.now(),
      provider: "offline",
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    const first = await book("203.0.113.7", { email: "a@example.org", quantity: 29 });
    expect(first.status).toBe(201);
    const second = await book("203.0.113.7", { email: "b@example.org", quantity: 19 });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({
      code: "too-many-requests",
      error:
        "29 seats from your internet connection are already waiting for payment. Finish or cancel that checkout first, or try again after 10:15.",
    });
    expect(await held()).toBe(29);
    const buyer = await book("198.51.100.20", { email: "real@example.org", quantity: 4 });
    expect(buyer.status).toBe(201);
    // The address is kept only as a keyed hash.
    const rows = await database.db.select().from(bookings);
    expect(JSON.stringify(rows)).not.toContain("203.0.113.7");
    expect(rows.filter((r) => r.status === "held").every((r) => /^[0-9a-f]{32}$/.test(r.clientKey!))).toBe(true);
  });

  it("checkouts started at once from one address, for two events, never hold more than its limit together", async () => {
    const other = await insertEvent(database.db, { totalAvailableTickets: 50 }, clock.now());
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        book("203.0.113.7", { eventId: i % 2 ? other : eventId, email: `family${i}@example.org`, quantity: 5 }),
      ),
    );
    // 40 per address: eight checkouts of five, whichever event; the other four are told to wait.
    expect(answers.filter((a) => a.status === 201)).toHaveLength(8);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    expect(await held()).toBe(defaultHoldLimits.perAddress);
  });

  it("limits one e-mail across addresses and events", async () => {
    const otherEvent = await insertEvent(database.db, { totalAvailableTickets: 50 }, clock.now());
    expect((await book("203.0.113.1", { email: "amina@example.org", quantity: 20 })).status).toBe(201);
    const again = await book("198.51.100.2", { eventId: otherEvent, email: "Amina@Example.org", quantity: 10 });
    expect(again).toMatchObject({
      status: 429,
      body: {
        error:
          "You already have 20 seats waiting for payment. Finish or cancel that checkout first, or try again after 10:15.",
      },
    });
    expect((await book("198.51.100.2", { eventId: otherEvent, email: "amina@example.org", quantity: 9 })).status).toBe(
      201,
    );
    // A hold's seats count for its visitor while they are kept for its payment (decision 030)...
    clock.advance(16 * 60_000);
    expect((await book("198.51.100.3", { email: "amina@example.org", quantity: 29 })).body).toMatchObject({
      error:
        "You already have 29 seats waiting for payment. Finish or cancel that checkout first, or try again after 10:25.",
    });
    // ...and once those holds are found unpaid and freed, the same e-mail may hold again.
    expect(await settleExpiredHolds(deps)).toMatchObject({ released: 2 });
    expect((await book("198.51.100.3", { email: "amina@example.org", quantity: 29 })).status).toBe(201);
  });

  it("counts holds together in seats: one booking of tables is held, a second hold beside it is counted by its seats", async () => {
    const dinner = await insertEvent(database.db, { totalAvailableTickets: 400 }, clock.now());
    const types = await giveTypes(
      database.db,
      dinner,
      [
        { name: "Single seat", pricePence: 4000 },
        { name: "Table of 8", pricePence: 30000, seatsPerTicket: 8 },
      ],
      clock.now(),
    );
    const tables = (count: number) => ({ eventId: dinner, tickets: { [types["Table of 8"]!]: count } });
    const singles = (count: number) => ({ eventId: dinner, tickets: { [types["Single seat"]!]: count } });
    // Holding nothing, a host holds one booking of four tables: four tickets, 32 seats.
    expect((await book("203.0.113.20", { email: "host@example.org", ...tables(4) })).status).toBe(201);
    // Beside it the e-mail's 29 seats are passed, by a table or by one seat more.
    const waitingForHost =
      "You already have 32 seats waiting for payment. Finish or cancel that checkout first, or try again after 10:15.";
    expect(await book("203.0.113.21", { email: "host@example.org", ...tables(1) })).toMatchObject({
      status: 429,
      body: { error: waitingForHost },
    });
    expect(await book("203.0.113.21", { email: "host@example.org", ...singles(1) })).toMatchObject({
      status: 429,
      body: { error: waitingForHost },
    });
    // The address's 40 seats: 32 held there, a guest's table reaches 40, one seat more passes it.
    expect((await book("203.0.113.20", { email: "guest@example.org", ...tables(1) })).status).toBe(201);
    expect(await book("203.0.113.20", { email: "third@example.org", ...singles(1) })).toMatchObject({
      status: 429,
      body: {
        error: expect.stringContaining("40 seats from your internet connection are already waiting for payment."),
      },
    });
    const heldSeats = (await database.db.select().from(bookings).where(eq(bookings.eventId, dinner))).reduce(
      (n, b) => n + b.seats,
      0,
    );
    expect(heldSeats).toBe(40);
  });

  it("follows the setting on the Settings page, which is checked and audited", async () => {
    expect(await holdLimits(database)).toEqual(defaultHoldLimits);
    await expect(
      saveHoldLimits(database, staff, { perEmail: "0", perAddress: "lots" }, { now: clock.now() }),
    ).rejects.toMatchObject({
      code: "invalid",
      fields: { perEmail: "Enter a number from 1 to 1000.", perAddress: "Enter a whole number." },
    });
    expect(await holdLimits(database)).toEqual(defaultHoldLimits);
    await saveHoldLimits(database, staff, { perEmail: "4", perAddress: "6" }, { now: clock.now() });
    expect(await database.db.select().from(auditLog)).toHaveLength(1);
    const tooMany = await book("203.0.113.9", { email: "c@example.org", quantity: 5 });
    expect(tooMany).toMatchObject({
      status: 429,
      body: { fields: { quantity: "You can hold at most 4 tickets at once while paying. Choose fewer." } },
    });
    expect((await book("203.0.113.9", { email: "c@example.org", quantity: 4 })).status).toBe(201);
    expect((await book("203.0.113.9", { email: "d@example.org", quantity: 3 })).status).toBe(429);
    expect((await book("203.0.113.9", { email: "d@example.org", quantity: 2 })).status).toBe(201);
    expect(await held()).toBe(6);
  });

  it("counts an IPv6 visitor by their /64 network, whichever address in it they use", async () => {
    await saveHoldLimits(database, staff, { perEmail: "10", perAddress: "10" }, { now: clock.now() });
    expect((await book("2001:db8:1:2::1", { email: "e@example.org", quantity: 10 })).status).toBe(201);
    expect((await book("2001:db8:1:2:ffff::9", { email: "f@example.org", quantity: 1 })).status).toBe(429);
    expect((await book("2001:db8:1:3::1", { email: "f@example.org", quantity: 1 })).status).toBe(201);
  });

  it("lets a visitor replace their own attempt, but renewing never holds the seats past the cap", async () => {
    const first = await book("203.0.113.5", { email: "g@example.org", quantity: 29 });
    expect(first.status).toBe(201);
    let attempt = { bookingRef: first.body.bookingRef, clientSecret: first.body.clientSecret };
    const expiries: string[] = [];
    for (let renewal = 0; renewal < 2; renewal++) {
      clock.advance(10 * 60_000);
      const renewed = await book("203.0.113.5", { email: "g@example.org", quantity: 29, replaces: attempt });
      expect(renewed.status).toBe(201);
      attempt = { bookingRef: renewed.body.bookingRef, clientSecret: renewed.body.clientSecret };
      expiries.push(String(renewed.body.holdExpiresAt));
    }
    // First held at 10:00, renewed at 10:10 and 10:20: never past 10:30.
    expect(maxHeldMinutes).toBe(30);
    expect(expiries).toEqual(["2026-11-22T10:25:00.000Z", "2026-11-22T10:30:00.000Z"]);
    expect(await held()).toBe(29);
    // At 10:30 the last hold ends; with no payment made, the sweep frees it then (its settling
    // window is only for a payment on its way), and at the latest the window ends at 10:40.
    clock.set("2026-11-22T10:30:00Z");
    const { seatsOf } = await import("~/infra/db/seats.server");
    expect((await seatsOf(database.db, eventId, clock.now())).held).toBe(29);
    expect(await settleExpiredHolds(deps)).toMatchObject({ released: 1 });
    expect((await seatsOf(database.db, eventId, clock.now())).held).toBe(0);
  });
});
