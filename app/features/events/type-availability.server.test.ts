import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { events, ticketTypes } from "~db/schema";
import { startBooking } from "~/features/booking/checkout.server";
import { settleBooking } from "~/features/booking/settlement.server";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";
import { AvailabilityFeed, type FeedMessage } from "./availability-feed.server";
import {
  availabilityByEvent,
  eventForVisitors,
  eventsForVisitors,
  nextAvailabilityChange,
  nextTimedChange,
} from "./events.server";
import { availabilityReason, typeWords } from "./status";
import type { Availability } from "./schema";

// Ticket types as visitors meet them (decisions 078 and 081): what is left of each on the event
// pages, the lists and the live feed; the event sold out only when no type can be bought; the
// public price the lowest on sale; the pages and the feed looking again when a type's sale opens
// or ends.

const hour = 3_600_000;
const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

describe.each(engines)("ticket types on the public pages on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let eventId: string;
  let adult: string;
  let child: string;
  let buyers = 0;
  /** The site's services, for a test that calls a route; closing them closes the database. */
  let site: TestServices | undefined;

  /** A type of the event, stored as staff would make it. */
  async function addType(values: Partial<typeof ticketTypes.$inferInsert> & { name: string; pricePence: number }) {
    const [row] = await database.db
      .insert(ticketTypes)
      .values({ eventId, createdAt: clock.now(), updatedAt: clock.now(), ...values })
      .returning({ id: ticketTypes.id });
    return row!.id;
  }

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock };
    // A ceilidh: 20 seats, Adult £12.50 (at most 4) and Child £5.00 (at most 6); the Ticket made
    // for it at its old single price is taken off sale, as staff replacing it would.
    eventId = await insertEvent(database.db, { name: "Ceilidh", totalAvailableTickets: 20 }, clock.now());
    await database.db.update(ticketTypes).set({ offSaleAt: clock.now() }).where(eq(ticketTypes.eventId, eventId));
    adult = await addType({ name: "Adult", pricePence: 1250, cap: 4, position: 1 });
    child = await addType({ name: "Child", pricePence: 500, cap: 6, position: 2 });
  });
  afterEach(async () => {
    await (site ? site.close() : database.close());
    site = undefined;
  });

  /** A booking of `tickets` by type, held; paid and settled unless `pay` is false. */
  async function buy(tickets: Record<string, number>, pay = true) {
    buyers += 1;
    const attempt = await startBooking(deps, {
      eventId,
      name: "Amina Mushi",
      email: `buyer${buyers}@example.org`,
      tickets,
    });
    if (pay) {
      await payments.confirmCard(attempt.clientSecret, good);
      await settleBooking(deps, attempt.bookingRef);
    }
    return attempt;
  }
  const availability = async () => (await availabilityByEvent(database, clock.now()))[eventId]!;
  const words = (counts: Availability) => (counts.types ?? []).map(typeWords);

  it("says what is left of each type, and the event is sold out only when no type can be bought", async () => {
    expect(await availability()).toEqual({
      sold: 0,
      remaining: 20,
      soldOut: false,
      types: [
        { id: adult, name: "Adult", pricePence: 1250, status: "on-sale", left: 4 },
        { id: child, name: "Child", pricePence: 500, status: "on-sale", left: 6 },
      ],
    });
    await buy({ [adult]: 2, [child]: 1 });
    await buy({ [adult]: 2, [child]: 2 });
    const after = await availability();
    expect(after).toMatchObject({ sold: 7, remaining: 13, soldOut: false });
    expect(words(after)).toEqual(["Adult: sold out", "Child: 3 left"]);
    expect(availabilityReason(after)).toBeNull();

    // The last Child tickets: 13 seats are left, but nothing a visitor may buy.
    await buy({ [child]: 3 });
    const full = await availability();
    expect(full).toMatchObject({ sold: 10, remaining: 10, soldOut: true });
    expect(full.reservedUntil).toBeUndefined();
    expect(words(full)).toEqual(["Adult: sold out", "Child: sold out"]);
    expect(availabilityReason(full)).toBe("Sorry, this event is sold out.");
  });

  it("a type whose last tickets are in unfinished checkouts is reserved, not sold out, until the first hold ends", async () => {
    await buy({ [adult]: 4 });
    const held = await buy({ [child]: 6 }, false);
    const counts = await availability();
    expect(counts).toMatchObject({ sold: 4, remaining: 10, soldOut: false, reservedUntil: held.holdExpiresAt });
    expect(words(counts)).toEqual(["Adult: sold out", "Child: all reserved just now"]);
    expect(availabilityReason(counts)).toBe("All remaining tickets are reserved. Try again after 10:15.");
    // The hold and its payment's settling window run out unpaid: Child is on sale again.
    clock.advance(26 * 60_000);
    expect(words(await availability())).toEqual(["Adult: sold out", null]);
  });

  it("an event of one type lists no types, and reads sold out when its one type's own cap is reached", async () => {
    const single = await insertEvent(database.db, { name: "Quiz", totalAvailableTickets: 50 }, clock.now());
    expect((await availabilityByEvent(database, clock.now()))[single]).toEqual({
      sold: 0,
      remaining: 50,
      soldOut: false,
    });
    await database.db.update(ticketTypes).set({ cap: 0 }).where(eq(ticketTypes.eventId, single));
    expect((await availabilityByEvent(database, clock.now()))[single]).toEqual({
      sold: 0,
      remaining: 50,
      soldOut: true,
    });
  });

  it("the public price is the lowest on sale now, else the stored one; an event not sold here stays unpriced", async () => {
    await addType({
      name: "Early bird",
      pricePence: 1000,
      saleUntil: new Date(clock.now().getTime() + hour),
      position: 0,
    });
    await database.db.update(events).set({ ticketCostPence: 500 }).where(eq(events.id, eventId));
    const elsewhere = await insertEvent(database.db, { name: "Gala", ticketCostPence: null }, clock.now());
    const priceOf = async () => (await eventForVisitors(database, eventId, clock.now()))!.event;
    expect(await priceOf()).toMatchObject({ ticketCost: 5, ticketCostPence: 500 });
    await database.db.update(ticketTypes).set({ pricePence: 700 }).where(eq(ticketTypes.id, child));
    expect(await priceOf()).toMatchObject({ ticketCost: 7, ticketCostPence: 700 });
    // Child sold out, then the early-bird's sale over: Adult is what is on sale.
    await buy({ [child]: 6 });
    expect(await priceOf()).toMatchObject({ ticketCost: 10, ticketCostPence: 1000 });
    clock.advance(hour);
    expect(await priceOf()).toMatchObject({ ticketCost: 12.5, ticketCostPence: 1250 });
    expect(words(await availability())).toEqual(["Early bird: no longer on sale", "Adult: 4 left", "Child: sold out"]);
    // Nothing on sale: the stored price.
    await buy({ [adult]: 4 });
    expect(await priceOf()).toMatchObject({ ticketCost: 5, ticketCostPence: 500 });
    const { events: listed } = await eventsForVisitors(database, clock.now());
    expect(listed.find((event) => event.id === elsewhere)).toMatchObject({ ticketCost: null, ticketCostPence: null });
    expect(listed.find((event) => event.id === eventId)).toMatchObject({ ticketCostPence: 500 });
  });

  it("an event whose types are not on sale yet says when they will be, and the pages look again then", async () => {
    const opens = new Date(clock.now().getTime() + 2 * hour);
    const earlyEnds = new Date(clock.now().getTime() + hour);
    await database.db.update(ticketTypes).set({ saleFrom: opens }).where(eq(ticketTypes.eventId, eventId));
    const counts = await availability();
    expect(counts).toMatchObject({ soldOut: false, onSaleFrom: opens.toISOString() });
    expect(words(counts)).toEqual(["Adult: not yet on sale", "Child: not yet on sale"]);
    expect(availabilityReason(counts)).toBe("Tickets go on sale on 22/11/2026 at 12:00.");
    expect(await nextAvailabilityChange(database.db, clock.now())).toEqual(opens);
    expect(await nextTimedChange(database.db, clock.now())).toEqual(opens);

    // An early-bird price ending sooner wakes them sooner; a hidden type's window does not count.
    await addType({ name: "Early bird", pricePence: 1000, saleUntil: earlyEnds });
    await addType({ name: "Friends", pricePence: 0, saleFrom: new Date(clock.now().getTime() + 60_000), hidden: true });
    expect(await nextTimedChange(database.db, clock.now())).toEqual(earlyEnds);
    clock.set(earlyEnds);
    expect(await nextTimedChange(database.db, clock.now())).toEqual(opens);
    clock.set(opens);
    const open = await availability();
    expect(open.soldOut).toBe(false);
    expect(open.onSaleFrom).toBeUndefined();
  });

  it("the live feed carries each type's standing and nothing personal, and looks again when a sale window ends", async () => {
    // The early-bird price ends a moment after the feed starts; nothing is announced then.
    await database.db
      .update(ticketTypes)
      .set({ saleUntil: new Date(clock.now().getTime() + 20) })
      .where(eq(ticketTypes.id, adult));
    const feed = new AvailabilityFeed(database, clock);
    await feed.start();
    const messages: FeedMessage[] = [];
    let resolve = () => {};
    const changed = new Promise<void>((done) => (resolve = done));
    await feed.subscribe(({ message }) => {
      if (message) messages.push(message);
      if (message?.type === "availability-changed") resolve();
    });
    clock.advance(30);
    await changed;
    await feed.close();
    const [first, second] = messages as [
      Extract<FeedMessage, { type: "availability" }>,
      Extract<FeedMessage, { type: "availability-changed" }>,
    ];
    expect(first.events[eventId]!.types!.map((type) => [type.name, type.status])).toEqual([
      ["Adult", "on-sale"],
      ["Child", "on-sale"],
    ]);
    expect(Object.keys(second.events)).toEqual([eventId]);
    expect(second.events[eventId]!.types!.map((type) => [type.name, type.status])).toEqual([
      ["Adult", "ended"],
      ["Child", "on-sale"],
    ]);
    // What a type says is all a visitor is told: no buyer, no e-mail address.
    expect(Object.keys(second.events[eventId]!.types![0]!).sort()).toEqual([
      "id",
      "left",
      "name",
      "pricePence",
      "status",
    ]);
  });

  it("POST /api/bookings takes tickets by type, and answers a type's problem under its field", async () => {
    site = await testServices(database, clock);
    const services = await site.request();
    const post = async (body: Record<string, unknown>, address: string) => {
      const request = new Request("http://localhost/api/bookings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId, name: "Amina Mushi", email: `${address}@example.org`, ...body }),
      });
      const response = await callRoute(startBookingRoute, request, services, { clientAddress: `203.0.113.${address}` });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await post({ tickets: { [adult]: 2, [child]: 1 } }, "1")).toMatchObject({
      status: 201,
      body: { amountPence: 2 * 1250 + 500 + 49 },
    });
    expect(await post({ tickets: { [adult]: 3 } }, "2")).toMatchObject({
      status: 409,
      body: { fields: { [`tickets.${adult}`]: "Only 2 Adult tickets left." } },
    });
    // An event of several types needs them named.
    expect(await post({ quantity: 1 }, "3")).toMatchObject({
      status: 400,
      body: { fields: { quantity: "Choose how many tickets of each type you want." } },
    });
    expect(await post({ tickets: { [adult]: 0 } }, "4")).toMatchObject({
      status: 400,
      body: { fields: { quantity: "Invalid ticket quantity: please enter a valid number between 1-29" } },
    });
  });
});
