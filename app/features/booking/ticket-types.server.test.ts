import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { migrationsUpTo } from "~/infra/db/migrations.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { takenByType } from "~/infra/db/seats.server";
import { mailKey } from "~/infra/email/mail-kinds";
import { publicTypesByEvent } from "~/infra/db/ticket-types.server";
import { bookingItems, bookings, outbox, tickets, ticketTypes } from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent, unmigratedDatabase } from "../../../tests/support/databases";
import { adultTicketEvent, type AdultTicketEvent } from "../../../tests/support/ticket-types";
import { startBooking } from "./checkout.server";
import { releaseOwnHold } from "./release.server";
import { settleBooking } from "./settlement.server";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";

// Ticket types (decision 078): each type's tickets and the event's seats are counted together under
// the event's lock, so a rush for the last seats of a type, or of the event, sells what exists.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const buyer = (i: number) => ({ name: "Amina Mushi", email: `buyer${i}@example.org` });

describe.each(engines)("ticket types on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let clock: TestClock;
  let eventId: string;
  let adult: string;

  let addType: AdultTicketEvent["addType"];

  beforeEach(async () => {
    ({ database, clock, payments, deps, eventId, adult, addType } = await adultTicketEvent(engine, 12));
  });
  afterEach(() => database.close());
  const pay = async (started: { bookingRef: string; clientSecret: string }) => {
    await payments.confirmCard(started.clientSecret, card);
    return settleBooking(deps, started.bookingRef);
  };
  const standing = async () =>
    Object.fromEntries(
      ((await publicTypesByEvent(database.db, clock.now()))[eventId] ?? []).map((type) => [
        type.name,
        { status: type.status, fewLeft: type.fewLeft, maxNow: type.maxNow },
      ]),
    );

  it("sells tickets of several types in one booking, priced per type with the fee once, and admits their seats", async () => {
    const child = await addType({ name: "Child", pricePence: 500, cap: 4 });
    const started = await startBooking(deps, { eventId, ...buyer(1), tickets: { [adult]: 2, [child]: "1" } });
    expect(started.amountPence).toBe(2 * 1250 + 500 + 49);
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, started.bookingRef));
    expect(booking).toMatchObject({ quantity: 3, seats: 3, amountPence: 3049 });
    const items = await database.db
      .select()
      .from(bookingItems)
      .where(eq(bookingItems.bookingRef, started.bookingRef))
      .orderBy(asc(bookingItems.pricePence));
    expect(items.map(({ quantity, pricePence, seatsPerTicket }) => ({ quantity, pricePence, seatsPerTicket }))).toEqual(
      [
        { quantity: 1, pricePence: 500, seatsPerTicket: 1 },
        { quantity: 2, pricePence: 1250, seatsPerTicket: 1 },
      ],
    );
    expect(await pay(started)).toMatchObject({ outcome: "paid" });
    const [ticket] = await database.db.select().from(tickets).where(eq(tickets.bookingRef, started.bookingRef));
    expect(ticket!.quantity).toBe(3);
    expect(await standing()).toEqual({
      Adult: { status: "on-sale", fewLeft: null, maxNow: 9 },
      Child: { status: "on-sale", fewLeft: 3, maxNow: 3 },
    });
    // A price changed later leaves what was sold at its price.
    await database.db.update(ticketTypes).set({ pricePence: 1500 }).where(eq(ticketTypes.id, adult));
    const [kept] = await database.db
      .select()
      .from(bookingItems)
      .where(sql`${bookingItems.bookingRef} = ${started.bookingRef} and ${bookingItems.ticketTypeId} = ${adult}`);
    expect(kept!.pricePence).toBe(1250);
  });

  it("a table of eight takes eight seats: once the event has fewer left, tables are sold out and singles are not", async () => {
    const table = await addType({ name: "Table of 8", pricePence: 8000, seatsPerTicket: 8 });
    const started = await startBooking(deps, { eventId, ...buyer(1), tickets: { [table]: 1 } });
    expect(started.amountPence).toBe(8049);
    await expect(startBooking(deps, { eventId, ...buyer(2), tickets: { [table]: 1 } })).rejects.toMatchObject({
      code: "conflict",
      message: "Table of 8 tickets are sold out.",
    });
    expect(await pay(started)).toMatchObject({ outcome: "paid" });
    const [ticket] = await database.db.select().from(tickets).where(eq(tickets.bookingRef, started.bookingRef));
    expect(ticket!.quantity).toBe(8);
    expect(await standing()).toEqual({
      Adult: { status: "on-sale", fewLeft: 4, maxNow: 4 },
      "Table of 8": { status: "sold-out", fewLeft: null, maxNow: 0 },
    });
  });

  it("refuses, holding nothing, a type's tickets beyond its cap, a type not on sale, hidden or of another event, and a bare quantity when there is a choice", async () => {
    const child = await addType({ name: "Child", cap: 2 });
    const later = await addType({ name: "Family", saleFrom: new Date("2026-07-02T09:00:00Z") });
    const gone = await addType({ name: "Early bird", saleUntil: new Date("2026-07-01T09:00:00Z") });
    const hidden = await addType({ name: "Sponsor", hidden: true, pricePence: 0 });
    const otherEvent = await insertEvent(database.db, {}, clock.now());
    const [elsewhere] = await database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, otherEvent));
    const cases: [Record<string, unknown>, string, Record<string, string>?][] = [
      [{ [child]: 3 }, "Only 2 Child tickets left.", { [`tickets.${child}`]: "Only 2 Child tickets left." }],
      [{ [later]: 1 }, "Family tickets are not on sale yet."],
      [{ [gone]: 1 }, "Early bird tickets are no longer on sale."],
      [{ [hidden]: 1 }, "There is no such ticket type for this event."],
      [{ [elsewhere!.id]: 1 }, "There is no such ticket type for this event."],
      [
        { [adult]: 20, [child]: 10 },
        "Invalid ticket information: Please provide a valid name, email address and ticket quantity.",
      ],
      [{ [adult]: 0 }, "Invalid ticket information: Please provide a valid name, email address and ticket quantity."],
      [
        { [adult]: "two" },
        "Invalid ticket information: Please provide a valid name, email address and ticket quantity.",
      ],
    ];
    for (const [asked, message, fields] of cases) {
      const refused = await startBooking(deps, { eventId, ...buyer(1), tickets: asked }).catch((error) => error);
      expect(refused, JSON.stringify(asked)).toMatchObject({ message, ...(fields && { fields }) });
    }
    await expect(startBooking(deps, { eventId, ...buyer(1), quantity: 1 })).rejects.toMatchObject({
      message: "Choose how many tickets of each type you want.",
    });
    expect(await database.db.select().from(bookings)).toEqual([]);
    // Once the window opens the later type sells.
    clock.set("2026-07-02T09:00:00Z");
    await expect(startBooking(deps, { eventId, ...buyer(1), tickets: { [later]: 1 } })).resolves.toMatchObject({
      amountPence: 549,
    });
  });

  it("an early-bird price closes for good when its cap is taken, even when the hold that took it is released", async () => {
    const early = await addType({
      name: "Early bird",
      pricePence: 1000,
      cap: 2,
      saleUntil: new Date("2026-07-20T00:00:00Z"),
    });
    const first = await startBooking(deps, { eventId, ...buyer(1), tickets: { [early]: 2 } });
    expect((await standing())["Early bird"]).toMatchObject({ status: "ended" });
    expect(await releaseOwnHold(deps, first, "left")).toBe("released");
    // The seats came back to the event, the price did not come back.
    expect(await standing()).toEqual({
      Adult: { status: "on-sale", fewLeft: null, maxNow: 12 },
      "Early bird": { status: "ended", fewLeft: null, maxNow: 0 },
    });
    await expect(startBooking(deps, { eventId, ...buyer(2), tickets: { [early]: 1 } })).rejects.toMatchObject({
      message: "Early bird tickets are no longer on sale.",
    });
    // A type with a cap and no end to its sale gets its places back.
    const child = await addType({ name: "Child", cap: 1 });
    const held = await startBooking(deps, { eventId, ...buyer(3), tickets: { [child]: 1 } });
    expect((await standing()).Child).toMatchObject({ status: "sold-out" });
    await releaseOwnHold(deps, held, "left");
    expect((await standing()).Child).toMatchObject({ status: "on-sale", fewLeft: 1 });
  });

  it("a late payment keeps its tickets only while its type still has room", async () => {
    const child = await addType({ name: "Child", cap: 1 });
    const late = await startBooking(deps, { eventId, ...buyer(1), tickets: { [child]: 1 } });
    // Its hold (15 minutes) and its payment's settling window (10 more) pass with no payment made,
    // before any sweep: its seats stop counting, and someone else buys the only Child ticket.
    clock.advance(26 * 60_000);
    const other = await startBooking(deps, { eventId, ...buyer(2), tickets: { [child]: 1 } });
    expect(await pay(other)).toMatchObject({ outcome: "paid" });
    // Then the first buyer pays: the type has no room for it, so it is given back.
    expect(await pay(late)).toMatchObject({ outcome: expect.stringMatching(/^refund/) });
    expect(await database.db.select().from(tickets).where(eq(tickets.bookingRef, late.bookingRef))).toEqual([]);
  });

  it("counts a cancelled or refunded booking's tickets once: never against its type after its ticket is invalid", async () => {
    const child = await addType({ name: "Child", cap: 2 });
    const started = await startBooking(deps, { eventId, ...buyer(1), tickets: { [child]: 2 } });
    await pay(started);
    expect((await takenByType(database.db, eventId, clock.now())).get(child)).toEqual({ sold: 2, held: 0 });
    await database.db.update(tickets).set({ isValid: false }).where(eq(tickets.bookingRef, started.bookingRef));
    await database.db.update(bookingItems).set({ refunded: 2 }).where(eq(bookingItems.bookingRef, started.bookingRef));
    expect((await takenByType(database.db, eventId, clock.now())).get(child)).toBeUndefined();
    expect((await standing()).Child).toMatchObject({ status: "on-sale", fewLeft: 2 });
  });

  it("free tickets need no card: the booking is confirmed at once with its ticket and its receipt, and pays no fee", async () => {
    const sponsor = await addType({ name: "Volunteer", pricePence: 0 });
    const started = await startBooking(deps, { eventId, ...buyer(1), tickets: { [sponsor]: 2 } });
    expect(started).toMatchObject({ amountPence: 0, free: true, clientSecret: "" });
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, started.bookingRef));
    expect(booking).toMatchObject({ status: "paid", provider: "free", providerPaymentId: null, amountPence: 0 });
    const [ticket] = await database.db.select().from(tickets).where(eq(tickets.bookingRef, started.bookingRef));
    expect(ticket).toMatchObject({ quantity: 2, isValid: true });
    const receipts = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, mailKey("booking-receipt", started.bookingRef)));
    expect(receipts.map((mail) => mail.kind)).toEqual(["booking-receipt"]);
    // Settling it again (the confirmation page does) finds it paid, once.
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid", firstTime: false });
    // With a paid ticket beside it, the fee is charged once, on the paid part.
    const mixed = await startBooking(deps, { eventId, ...buyer(2), tickets: { [sponsor]: 1, [adult]: 1 } });
    expect(mixed.amountPence).toBe(1250 + 49);
    expect(mixed.free).toBeUndefined();
  });

  it("races: thirty buyers at once for a type with 3 left and an event with 5 seats sell exactly what exists", async () => {
    const child = await addType({ name: "Child", cap: 3 });
    await database.db.update(ticketTypes).set({ cap: null }).where(eq(ticketTypes.id, adult));
    const { events } = await import("~db/schema");
    await database.db.update(events).set({ totalAvailableTickets: 5 }).where(eq(events.id, eventId));
    const attempts = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        startBooking(deps, { eventId, ...buyer(i), tickets: { [i % 2 === 0 ? child : adult]: 1 } }),
      ),
    );
    const started = attempts.flatMap((a) => (a.status === "fulfilled" ? [a.value] : []));
    for (const refused of attempts.filter((a) => a.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "conflict" });
    }
    for (const attempt of started) await pay(attempt);
    const taken = await takenByType(database.db, eventId, clock.now());
    expect(taken.get(child)!.sold).toBeLessThanOrEqual(3);
    expect(taken.get(child)!.sold + (taken.get(adult)?.sold ?? 0)).toBe(5);
    const seats = (await database.db.select().from(tickets)).reduce((sum, t) => sum + t.quantity, 0);
    expect(seats).toBe(5);
  });
});

describe.each(engines)("the migration to ticket types on %s", (engine) => {
  it("makes every event sold here one type named Ticket at its price, and every booking its tickets of it", async () => {
    const database = await unmigratedDatabase(engine, migrationsUpTo("0017_staff_roles_and_delivery"));
    try {
      const at = "2026-06-01T10:00:00Z";
      await database.db.execute(
        sql.raw(`insert into events (id, name, description, poster_image, event_date, ticket_cost_pence, total_available_tickets, ticket_sale_expiry, created_at, updated_at)
        values ('00000000-0000-4000-8000-000000000001', 'Quiz', 'd', 'p', '${at}', 1250, 50, '${at}', '${at}', '${at}'),
               ('00000000-0000-4000-8000-000000000002', 'Walk', 'd', 'p', '${at}', null, 50, '${at}', '${at}', '${at}')`),
      );
      await database.db.execute(
        sql.raw(`insert into bookings (booking_ref, event_id, holder_name, email, quantity, amount_pence, status, hold_expires_at, provider, created_at, updated_at)
        values ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'A', 'a@example.org', 3, 3799, 'paid', '${at}', 'offline', '${at}', '${at}'),
               ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000001', 'B', 'b@example.org', 2, 2549, 'refunded', '${at}', 'offline', '${at}', '${at}')`),
      );
      await database.db.execute(
        sql.raw(`insert into tickets (ticket_holder_name, email, event_id, booking_ref, is_valid, quantity, date_sold)
        values ('A', 'a@example.org', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', true, 2, '${at}'),
               ('B', 'b@example.org', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a2', false, 2, '${at}')`),
      );
      await database.migrate();
      const types = await database.db.select().from(ticketTypes);
      expect(
        types.map(({ eventId, name, pricePence, seatsPerTicket }) => ({ eventId, name, pricePence, seatsPerTicket })),
      ).toEqual([
        { eventId: "00000000-0000-4000-8000-000000000001", name: "Ticket", pricePence: 1250, seatsPerTicket: 1 },
      ]);
      const items = await database.db.select().from(bookingItems).orderBy(asc(bookingItems.bookingRef));
      expect(items.map(({ quantity, pricePence, refunded }) => ({ quantity, pricePence, refunded }))).toEqual([
        { quantity: 3, pricePence: 1250, refunded: 1 },
        { quantity: 2, pricePence: 1250, refunded: 2 },
      ]);
      const seats = await database.db.select({ seats: bookings.seats, quantity: bookings.quantity }).from(bookings);
      expect(seats.every((row) => row.seats === row.quantity)).toBe(true);
      const taken = await takenByType(database.db, "00000000-0000-4000-8000-000000000001", new Date(at));
      expect(taken.get(types[0]!.id)).toEqual({ sold: 2, held: 0 });
    } finally {
      await database.close();
    }
  });
});

describe.each(engines)("POST /api/bookings by ticket type on %s", (engine) => {
  let site: TestServices;
  let database: DatabaseHandle;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    site = await testServices(database, testClock("2026-07-01T10:00:00Z"));
  });
  afterEach(() => site.close());

  it("holds the tickets asked for by type, at the server's prices, and answers a bad choice on its type's field, holding nothing", async () => {
    const services = await site.request();
    const now = services.clock.now();
    const eventId = await insertEvent(database.db, {}, now);
    const [adult] = await database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
    const [child] = await database.db
      .insert(ticketTypes)
      .values({ eventId, name: "Child", pricePence: 500, cap: 1, position: 1, createdAt: now, updatedAt: now })
      .returning();
    const post = async (body: Record<string, unknown>, address: string) => {
      const request = new Request("http://localhost/api/bookings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId, name: "Amina Mushi", email: "amina@example.org", ...body }),
      });
      const response = await callRoute(startBookingRoute, request, services, { clientAddress: address });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const refused = await post({ tickets: { [adult!.id]: 1, [child!.id]: 2 } }, "192.0.2.1");
    expect(refused).toMatchObject({
      status: 409,
      body: { error: "Only 1 Child ticket left.", fields: { [`tickets.${child!.id}`]: "Only 1 Child ticket left." } },
    });
    expect(await database.db.select().from(bookings)).toEqual([]);
    const started = await post({ tickets: { [adult!.id]: "2", [child!.id]: 1 }, amountPence: 1 }, "192.0.2.2");
    expect(started).toMatchObject({ status: 201, body: { amountPence: 2 * 1250 + 500 + 49 } });
  });
});
