import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { seatsOf, takenByType } from "~/infra/db/seats.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import {
  auditLog,
  bookingHistory,
  bookingItems,
  bookings,
  offlineRefunds,
  outbox,
  refunds,
  staffUsers,
  tickets,
} from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { buyTypes, giveTypes } from "../../../tests/support/ticket-types";
import { cancelEvent, cancellationProgress, refundCancelledEvent } from "./cancellation.server";
import { startBooking } from "./checkout.server";
import { refundBooking, type RefundDeps } from "./refunds.server";
import { staffBooking } from "./staff-bookings.server";
import { typesOfEvent } from "~/infra/db/ticket-types.server";

// Refunds of a booking of several ticket types (decision 082): N tickets of a named type, at the
// price they were bought at; their places and the type's tickets come back together, once.

describe.each(engines)("refunds by ticket type on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: RefundDeps & { payments: OfflineProvider };
  let clock: TestClock;
  let eventId: string;
  let types: Record<string, string>;
  let staff: { id: string; email: string };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 40 }, clock.now());
    types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
        { name: "Table of 8", pricePence: 8000, seatsPerTicket: 8 },
      ],
      clock.now(),
    );
    const [user] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    staff = { id: user!.id, email: user!.email };
  });
  afterEach(() => database.close());

  const key = () => crypto.randomUUID();
  const seatsSold = async () => (await seatsOf(database.db, eventId, clock.now())).sold;
  const typeSold = async (name: string) =>
    (await takenByType(database.db, eventId, clock.now())).get(types[name]!)?.sold ?? 0;
  const itemsOf = async (ref: string) =>
    Object.fromEntries(
      (await database.db.select().from(bookingItems).where(eq(bookingItems.bookingRef, ref))).map((item) => [
        Object.keys(types).find((name) => types[name] === item.ticketTypeId),
        item.refunded,
      ]),
    );
  const ticketOf = async (ref: string) =>
    (await database.db.select().from(tickets).where(eq(tickets.bookingRef, ref)))[0]!;
  const bookingOf = async (ref: string) =>
    (await database.db.select().from(bookings).where(eq(bookings.bookingRef, ref)))[0]!;

  it("asks which type when the booking has more than one, and refunds that type's price; seats and the type come back at once", async () => {
    const ref = await buyTypes(deps, eventId, { [types.Adult!]: 2, [types.Child!]: 2 });
    expect(await seatsSold()).toBe(4);

    await expect(refundBooking(deps, staff, ref, { quantity: 1, reason: "Ill", key: key() })).rejects.toMatchObject({
      code: "invalid",
      fields: { ticketTypeId: "Choose which tickets to refund: this booking has tickets of more than one type." },
    });
    await expect(
      refundBooking(deps, staff, ref, { quantity: 1, ticketTypeId: types["Table of 8"], reason: "Ill", key: key() }),
    ).rejects.toMatchObject({ code: "invalid", fields: { ticketTypeId: "This booking has no tickets of that type." } });
    await expect(
      refundBooking(deps, staff, ref, { quantity: 1, ticketTypeId: "child", reason: "Ill", key: key() }),
    ).rejects.toMatchObject({ code: "invalid", fields: { ticketTypeId: "This booking has no tickets of that type." } });
    await expect(
      refundBooking(deps, staff, ref, { quantity: 3, ticketTypeId: types.Child, reason: "Ill", key: key() }),
    ).rejects.toMatchObject({ code: "invalid", fields: { quantity: "Only 2 Child tickets can be refunded." } });
    expect(await database.db.select().from(refunds)).toEqual([]);

    const { refund } = await refundBooking(deps, staff, ref, {
      quantity: "1",
      ticketTypeId: types.Child,
      reason: "Ill",
      key: key(),
    });
    expect(refund).toMatchObject({
      quantity: 1,
      ticketTypeId: types.Child,
      ticketType: "Child",
      amountPence: 500,
      status: "succeeded",
    });
    expect(await itemsOf(ref)).toEqual({ Adult: 0, Child: 1 });
    expect(await ticketOf(ref)).toMatchObject({ quantity: 3, isValid: true });
    expect(await seatsSold()).toBe(3);
    expect([await typeSold("Adult"), await typeSold("Child")]).toEqual([2, 1]);
    expect(await bookingOf(ref)).toMatchObject({ status: "paid", refundedPence: 500 });

    const [mail] = await database.db.select().from(outbox).where(eq(outbox.kind, "booking-refund"));
    expect(mail!.payload.text).toContain("We have refunded 1 Child ticket of your booking");
    expect(mail!.payload.text).toContain("£5.00");
    expect(mail!.payload.text).toContain("still has 3 valid tickets (2 × Adult, 1 × Child)");
    const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.action, "booking.refunded"));
    expect(audit!.summary).toBe("Refunded 1 of 2 valid Child tickets: £5.00");
    const history = await database.db.select().from(bookingHistory).where(eq(bookingHistory.bookingRef, ref));
    expect(history.map((h) => h.note)).toContain("1 Child ticket (£5.00) given back by staff@example.org: Ill");

    // The last Child: the booking still has Adults, so it is the Child's price, not the rest.
    const second = await refundBooking(deps, staff, ref, {
      quantity: 1,
      ticketTypeId: types.Child,
      reason: "Ill",
      key: key(),
    });
    expect(second.refund.amountPence).toBe(500);
    // Only Adults are left: no type needed, and all of them gives back the rest with the fee.
    const last = await refundBooking(deps, staff, ref, { quantity: 2, reason: "Plans changed", key: key() });
    expect(last.refund).toMatchObject({ quantity: 2, ticketType: "Adult", amountPence: 2 * 1250 + 49 });
    expect(await bookingOf(ref)).toMatchObject({ status: "refunded", refundedPence: 3549, amountPence: 3549 });
    expect(await ticketOf(ref)).toMatchObject({ quantity: 2, isValid: false });
    expect(await itemsOf(ref)).toEqual({ Adult: 2, Child: 2 });
    expect([await seatsSold(), await typeSold("Adult"), await typeSold("Child")]).toEqual([0, 0, 0]);
    expect((await database.db.select().from(offlineRefunds)).map((r) => r.amountPence)).toEqual([500, 500, 2549]);
  });

  it("a table of eight gives back eight places, and only if eight have not come through the door", async () => {
    const ref = await buyTypes(deps, eventId, { [types.Adult!]: 2, [types["Table of 8"]!]: 1 });
    expect(await seatsSold()).toBe(10);
    expect(await ticketOf(ref)).toMatchObject({ quantity: 10 });
    await database.db.update(tickets).set({ checkedInCount: 3 }).where(eq(tickets.bookingRef, ref));

    const page = await staffBooking(database, ref);
    expect(page).toMatchObject({ validTickets: 3, validPlaces: 10, checkedIn: 3, refundable: 2 });
    expect(page!.items.map((item) => [item.name, item.refundable])).toEqual([
      ["Adult", 2],
      ["Table of 8", 0],
    ]);
    await expect(
      refundBooking(deps, staff, ref, { quantity: 1, ticketTypeId: types["Table of 8"], reason: "x", key: key() }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: "No Table of 8 tickets of this booking can be refunded: they are refunded or used already.",
    });

    await database.db.update(tickets).set({ checkedInCount: 2 }).where(eq(tickets.bookingRef, ref));
    const { refund } = await refundBooking(deps, staff, ref, {
      quantity: 1,
      ticketTypeId: types["Table of 8"],
      reason: "The table cannot come",
      key: key(),
    });
    expect(refund).toMatchObject({ quantity: 1, amountPence: 8000, ticketType: "Table of 8" });
    expect(await ticketOf(ref)).toMatchObject({ quantity: 2, checkedInCount: 2, isValid: true });
    expect([await seatsSold(), await typeSold("Table of 8"), await typeSold("Adult")]).toEqual([2, 0, 2]);
    // The two Adults came in: nothing more can be refunded.
    await expect(
      refundBooking(deps, staff, ref, { quantity: 1, ticketTypeId: types.Adult, reason: "x", key: key() }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("two staff refunding the last tickets of a type at once: refunded once, counted once", async () => {
    const ref = await buyTypes(deps, eventId, { [types.Adult!]: 1, [types.Child!]: 2 });
    const results = await Promise.allSettled([
      refundBooking(deps, staff, ref, { quantity: 2, ticketTypeId: types.Child, reason: "First", key: key() }),
      refundBooking(deps, staff, ref, { quantity: 2, ticketTypeId: types.Child, reason: "Second", key: key() }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({
      code: "conflict",
      message: "No Child tickets of this booking can be refunded: they are refunded or used already.",
    });
    expect(await database.db.select().from(refunds)).toHaveLength(1);
    expect((await database.db.select().from(offlineRefunds)).map((r) => r.amountPence)).toEqual([1000]);
    expect(await itemsOf(ref)).toEqual({ Adult: 0, Child: 2 });
    expect(await ticketOf(ref)).toMatchObject({ quantity: 1, isValid: true });
    expect([await seatsSold(), await typeSold("Child"), await typeSold("Adult")]).toEqual([1, 0, 1]);
    expect(await bookingOf(ref)).toMatchObject({ status: "paid", refundedPence: 1000 });
  });

  it("cancelling the event refunds everything left and marks every type's tickets refunded", async () => {
    const ref = await buyTypes(deps, eventId, { [types.Adult!]: 2, [types.Child!]: 1, [types["Table of 8"]!]: 1 });
    await refundBooking(deps, staff, ref, { quantity: 1, ticketTypeId: types.Adult, reason: "x", key: key() });
    await cancelEvent(deps, staff, eventId, { reason: "The hall flooded" });
    await refundCancelledEvent(deps, eventId);
    expect(await itemsOf(ref)).toEqual({ Adult: 2, Child: 1, "Table of 8": 1 });
    expect(await bookingOf(ref)).toMatchObject({ status: "refunded", refundedPence: 2 * 1250 + 500 + 8000 + 49 });
    const [cancelled] = await database.db
      .select()
      .from(refunds)
      .where(eq(refunds.key, `cancel:${ref}`));
    expect(cancelled).toMatchObject({ quantity: 3, ticketTypeId: null, amountPence: 1250 + 500 + 8000 + 49 });
    expect(await seatsSold()).toBe(0);
    expect(await takenByType(database.db, eventId, clock.now())).toEqual(new Map());
  });

  it("cancelling the event cancels a booking of free tickets too: nothing to give back, its tickets no longer valid", async () => {
    const free = await giveTypes(database.db, eventId, [{ name: "Volunteer", pricePence: 0 }], clock.now());
    const started = await startBooking(deps, {
      eventId,
      name: "Juma Said",
      email: "juma@example.org",
      tickets: { [free.Volunteer!]: 2 },
    });
    expect(started).toMatchObject({ free: true, amountPence: 0 });
    const ref = started.bookingRef;
    expect(await bookingOf(ref)).toMatchObject({ status: "paid" });
    await expect(refundBooking(deps, staff, ref, { quantity: 1, reason: "x", key: key() })).rejects.toMatchObject({
      message: "These tickets were free, so there is no money to give back.",
    });
    expect(await staffBooking(database, ref)).toMatchObject({ validTickets: 2, refundable: 0 });

    await cancelEvent(deps, staff, eventId, { reason: "The hall flooded" });
    expect(await refundCancelledEvent(deps, eventId)).toBe(1);
    expect(await bookingOf(ref)).toMatchObject({ status: "refunded", refundedPence: 0 });
    expect(await ticketOf(ref)).toMatchObject({ isValid: false });
    const items = await database.db.select().from(bookingItems).where(eq(bookingItems.bookingRef, ref));
    expect(items.map((item) => [item.quantity, item.refunded])).toEqual([[2, 2]]);
    expect(await database.db.select().from(refunds)).toEqual([]);
    expect(await cancellationProgress(database, eventId)).toMatchObject({ running: false });
    const [told] = await database.db.select().from(outbox).where(eq(outbox.kind, "event-cancelled"));
    expect(told!.payload.text).toContain("Your tickets were free, so there is nothing to refund.");
    // Nothing left for the job to do: it does not try again.
    expect(await refundCancelledEvent(deps, eventId)).toBe(0);
  });

  it("a booking of the event's one type is refunded as before, with or without naming the type", async () => {
    const plainEvent = await insertEvent(database.db, { totalAvailableTickets: 10 }, clock.now());
    const [ticket] = await typesOfEvent(database.db, plainEvent);
    const ref = await buyTypes(deps, plainEvent, { [ticket!.id]: 3 }, { email: "bo@example.org" });
    const first = await refundBooking(deps, staff, ref, { quantity: 1, reason: "x", key: key() });
    expect(first.refund).toMatchObject({ quantity: 1, amountPence: 1250, ticketTypeId: ticket!.id });
    const second = await refundBooking(deps, staff, ref, {
      quantity: 1,
      ticketTypeId: ticket!.id,
      reason: "x",
      key: key(),
    });
    expect(second.refund.amountPence).toBe(1250);
    const texts = (await database.db.select().from(outbox).where(eq(outbox.kind, "booking-refund"))).map((m) =>
      String(m.payload.text),
    );
    expect(texts.some((text) => text.includes("We have refunded 1 ticket of your booking"))).toBe(true);
    expect(texts.some((text) => text.includes("still has 1 valid ticket: bring your receipt"))).toBe(true);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "booking.refunded"));
    expect(audit.map((a) => a.summary).sort()).toEqual([
      "Refunded 1 of 2 valid tickets: £12.50",
      "Refunded 1 of 3 valid tickets: £12.50",
    ]);
  });
});
