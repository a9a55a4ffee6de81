import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import type { Mailer, MailMessage } from "~/infra/email/mailer.server";
import { OutboxWorker } from "~/infra/email/outbox.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import { bookings, offlinePayments, offlineRefunds, outbox, tickets } from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { AppError } from "~/lib/errors";
import { settleBooking, settleExpiredHolds } from "./settlement.server";
import { startBooking } from "./checkout.server";
import { runBookingRefunds } from "./cancellation.server";

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const buyer = { name: "Amina Mushi", email: "amina@example.org" };

describe.each(engines)("booking on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let eventId: string;
  // One fixed clock for everything the test touches: holds, payments, the outbox.
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 5 }, clock.now());
  });
  afterEach(() => database.close());

  const ticketCount = async () => (await database.db.select().from(tickets)).length;
  const mails = async () => database.db.select().from(outbox);

  it("holds seats and asks for the amount computed on the server, in pence", async () => {
    const started = await startBooking(deps, { eventId, ...buyer, quantity: "2" });
    expect(started.amountPence).toBe(2 * 1250 + 49);
    const [payment] = await database.db.select().from(offlinePayments);
    expect(payment).toMatchObject({
      amountPence: 2549,
      currency: "gbp",
      description: `Quiz Night - booking ${started.bookingRef}`,
      metadata: { booking_ref: started.bookingRef, event_id: eventId },
      receiptEmail: "amina@example.org",
    });
    const [booking] = await database.db.select().from(bookings);
    expect(booking).toMatchObject({ status: "held", quantity: 2, amountPence: 2549 });
  });

  it("checks the ticket information with the form's rules and holds nothing when it is bad", async () => {
    await expect(startBooking(deps, { eventId, name: "R2-D2", email: "x", quantity: "30" })).rejects.toMatchObject({
      code: "invalid",
      fields: {
        name: "Invalid name: name must only contain letters and not be left blank.",
        email: "Invalid email: please enter a valid email address.",
        quantity: "Invalid ticket quantity: please enter a valid number between 1-29",
      },
    });
    await expect(startBooking(deps, { eventId, ...buyer, quantity: "0" })).rejects.toMatchObject({ code: "invalid" });
    expect(await database.db.select().from(bookings)).toEqual([]);
  });

  it("never holds more seats than are left", async () => {
    await startBooking(deps, { eventId, ...buyer, quantity: 3 });
    await expect(startBooking(deps, { eventId, ...buyer, quantity: 3 })).rejects.toThrow(
      "Only 2 tickets left for this event.",
    );
    await startBooking(deps, { eventId, ...buyer, quantity: 2 });
    // Every seat is in someone's checkout (holds until 10:15 London time), none sold.
    await expect(startBooking(deps, { eventId, ...buyer, quantity: 1 })).rejects.toMatchObject({
      code: "conflict",
      message: "All remaining tickets are reserved. Try again after 10:15.",
    });
  });

  it("50 checkouts at once for the last 5 seats hold exactly 5", async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        startBooking(deps, { eventId, name: "Buyer", email: `b${i}@example.org`, quantity: 1 }),
      ),
    );
    const started = attempts.filter((a) => a.status === "fulfilled");
    expect(started).toHaveLength(5);
    for (const failed of attempts.filter((a) => a.status === "rejected")) {
      expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: "conflict" });
    }
    // And paying for all five sells exactly five.
    for (const attempt of started as PromiseFulfilledResult<{ bookingRef: string; clientSecret: string }>[]) {
      await payments.confirmCard(attempt.value.clientSecret, card);
      await settleBooking(deps, attempt.value.bookingRef);
    }
    const sold = (await database.db.select().from(tickets)).reduce((sum, t) => sum + t.quantity, 0);
    expect(sold).toBe(5);
  });

  it("an expired hold with no payment made is freed at its end, and a replaced attempt releases its seats at once", async () => {
    const first = await startBooking(deps, { eventId, ...buyer, quantity: 5 });
    await expect(startBooking(deps, { eventId, ...buyer, quantity: 1 })).rejects.toMatchObject({
      code: "conflict",
      message: "All remaining tickets are reserved. Try again after 10:15.",
    });
    // The hold's end: the expired holds' sweep asks the provider, finds no payment made, and frees it.
    clock.set("2026-11-22T10:15:00Z");
    expect(await settleExpiredHolds(deps)).toEqual({ settled: 0, released: 1, inFlight: 0 });
    const [expired] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, first.bookingRef));
    expect(expired!.status).toBe("cancelled");
    // Its payment can no longer take money for seats someone else may now have.
    expect((await payments.confirmCard(first.clientSecret, card)).payment.status).toBe("canceled");
    clock.advance(60_000);
    const second = await startBooking(deps, { eventId, ...buyer, quantity: 5 });
    const third = await startBooking(deps, { eventId, ...buyer, quantity: 4, replaces: second });
    expect(third.amountPence).toBe(4 * 1250 + 49);
    const [replaced] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, second.bookingRef));
    expect(replaced!.status).toBe("cancelled");
  });

  it("creates nothing for a booking that was not paid (a made-up confirmation)", async () => {
    const started = await startBooking(deps, { eventId, ...buyer, quantity: 2 });
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({
      outcome: "pending",
      status: "requires_payment_method",
    });
    expect(await settleBooking(deps, crypto.randomUUID())).toEqual({ outcome: "unknown" });
    expect(await settleBooking(deps, "not-a-ref")).toEqual({ outcome: "unknown" });
    expect(await ticketCount()).toBe(0);
    expect(await mails()).toEqual([]);
  });

  it("settling twice, or twice at once, makes one ticket and one receipt", async () => {
    const started = await startBooking(deps, { eventId, ...buyer, quantity: 2 });
    await payments.confirmCard(started.clientSecret, card);
    const [a, b] = await Promise.all([
      settleBooking(deps, started.bookingRef),
      settleBooking(deps, started.bookingRef),
    ]);
    expect([a, b].map((s) => s.outcome)).toEqual(["paid", "paid"]);
    expect([a, b].filter((s) => s.outcome === "paid" && s.firstTime)).toHaveLength(1);
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid", firstTime: false });
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({
      ticketHolderName: "Amina Mushi",
      email: "amina@example.org",
      quantity: 2,
      isValid: true,
      bookingRef: started.bookingRef,
    });
    expect(await ticketCount()).toBe(1);
    const queued = await mails();
    expect(queued).toHaveLength(1);
    expect(queued[0]!.recipient).toBe("Amina Mushi <amina@example.org>");
  });

  it("a payment after the hold expired keeps its seats if they are still free", async () => {
    const started = await startBooking(deps, { eventId, ...buyer, quantity: 2 });
    await payments.confirmCard(started.clientSecret, card);
    clock.advance(20 * 60_000);
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid" });
  });

  it("a payment after the hold expired, with the seats gone, is refunded and the buyer told", async () => {
    const late = await startBooking(deps, { eventId, ...buyer, quantity: 2 });
    // Its hold and settling window pass with nobody able to ask the provider; someone else takes every seat.
    clock.advance(26 * 60_000);
    const others = await startBooking(deps, { eventId, name: "Grace Kimaro", email: "grace@example.org", quantity: 5 });
    await payments.confirmCard(others.clientSecret, card);
    await settleBooking(deps, others.bookingRef);
    await payments.confirmCard(late.clientSecret, card);

    expect(await settleBooking(deps, late.bookingRef)).toMatchObject({ outcome: "refunded" });
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, late.bookingRef));
    expect(booking!.status).toBe("refunded");
    const [payment] = await database.db
      .select()
      .from(offlinePayments)
      .where(eq(offlinePayments.metadata, { booking_ref: late.bookingRef, event_id: eventId }));
    expect(payment!.refundedAt).not.toBeNull();
    expect((await database.db.select().from(tickets)).map((t) => t.bookingRef)).toEqual([others.bookingRef]);
    const apology = (await mails()).find((m) => m.kind === "booking-refunded");
    expect(apology?.recipient).toBe("Amina Mushi <amina@example.org>");
    // Settling again does not refund twice or sell the seats.
    expect(await settleBooking(deps, late.bookingRef)).toMatchObject({ outcome: "refunded" });
  });

  describe("judged by when the provider says the buyer paid (hold 10:00 to 10:15, kept for its payment until 10:25)", () => {
    const at = (time: string) => new Date(`2026-11-22T${time}Z`);
    const bookingOf = async (ref: string) =>
      (await database.db.select().from(bookings).where(eq(bookings.bookingRef, ref)))[0]!;
    const notices = async () => (await mails()).filter((m) => m.kind === "booking-refunded");
    /** The buyer pays (2 seats of 5, unless told) at `paidAt`; the booking is settled later. */
    async function paidAt(time: string, quantity = 2) {
      const started = await startBooking(deps, { eventId, ...buyer, quantity });
      clock.set(at(time));
      await payments.confirmCard(started.clientSecret, card);
      return started;
    }
    /** Someone else takes every seat, after the first hold ran out, and pays for them. */
    async function seatsTakenAt(time: string) {
      clock.set(at(time));
      const others = await startBooking(deps, {
        eventId,
        name: "Grace Kimaro",
        email: "grace@example.org",
        quantity: 5,
      });
      await payments.confirmCard(others.clientSecret, card);
      await settleBooking(deps, others.bookingRef);
    }

    it("paid at 10:14:50 and settled at 10:16 with the seats still free: kept, sold at 10:14:50", async () => {
      const started = await paidAt("10:14:50");
      clock.set(at("10:16:00"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid", firstTime: true });
      const [ticket] = await database.db.select().from(tickets);
      expect(ticket).toMatchObject({ bookingRef: started.bookingRef, quantity: 2, dateSold: at("10:14:50") });
      expect((await bookingOf(started.bookingRef)).paidAt).toEqual(at("10:14:50"));
      const [receipt] = await mails();
      expect(receipt!.kind).toBe("booking-receipt");
      expect(JSON.stringify(receipt!.payload)).toContain("10:14");
    });

    it("paid at 10:14:50, heard of at 10:15:30: nobody can take its seats meanwhile, and it keeps them with its receipt", async () => {
      const started = await paidAt("10:14:50", 5);
      // Another buyer at 10:15:10: the seats are still kept for the payment, and they are told until when.
      clock.set(at("10:15:10"));
      const grace = { name: "Grace Kimaro", email: "grace@example.org" };
      await expect(startBooking(deps, { eventId, ...grace, quantity: 1 })).rejects.toMatchObject({
        code: "conflict",
        message: "All remaining tickets are reserved. Try again after 10:25.",
      });
      // The webhook at 10:15:30.
      clock.set(at("10:15:30"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid", firstTime: true });
      const [ticket] = await database.db.select().from(tickets);
      expect(ticket).toMatchObject({ bookingRef: started.bookingRef, quantity: 5, dateSold: at("10:14:50") });
      expect((await mails()).map((m) => m.kind)).toEqual(["booking-receipt"]);
      expect(await database.db.select().from(offlineRefunds)).toEqual([]);
      expect((await bookingOf(started.bookingRef)).status).toBe("paid");
      // The other buyer, trying again, is told the truth: sold out.
      await expect(startBooking(deps, { eventId, ...grace, quantity: 1 })).rejects.toThrow(
        "Sorry, this event is sold out.",
      );
    });

    it("paid at 10:14:50 while nobody could ask the provider: the sweep finds it and settles it before anyone else can take its seats", async () => {
      const started = await paidAt("10:14:50", 5);
      clock.set(at("10:15:03"));
      expect(await settleExpiredHolds(deps)).toEqual({ settled: 1, released: 0, inFlight: 0 });
      expect((await bookingOf(started.bookingRef)).status).toBe("paid");
      expect((await mails()).map((m) => m.kind)).toEqual(["booking-receipt"]);
      // The late webhook finds it done.
      clock.set(at("10:40:00"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid", firstTime: false });
      expect(await ticketCount()).toBe(1);
    });

    it("a payment still in flight at the hold's end keeps the seats until 10:25; if it never succeeds they come back then", async () => {
      const started = await startBooking(deps, { eventId, ...buyer, quantity: 5 });
      // A 3-D Secure step the buyer never finishes.
      await database.db
        .update(offlinePayments)
        .set({ status: "requires_action" })
        .where(eq(offlinePayments.clientSecret, started.clientSecret));
      clock.set(at("10:15:05"));
      expect(await settleExpiredHolds(deps)).toEqual({ settled: 0, released: 0, inFlight: 1 });
      const grace = { name: "Grace Kimaro", email: "grace@example.org" };
      await expect(startBooking(deps, { eventId, ...grace, quantity: 5 })).rejects.toThrow(
        "All remaining tickets are reserved. Try again after 10:25.",
      );
      clock.set(at("10:24:59"));
      await expect(startBooking(deps, { eventId, ...grace, quantity: 5 })).rejects.toThrow(/reserved/);
      clock.set(at("10:25:00"));
      const other = await startBooking(deps, { eventId, ...grace, quantity: 5 });
      await payments.confirmCard(other.clientSecret, card);
      expect(await settleBooking(deps, other.bookingRef)).toMatchObject({ outcome: "paid" });
      expect((await bookingOf(started.bookingRef)).status).toBe("held");
      expect(await settleExpiredHolds(deps)).toEqual({ settled: 0, released: 0, inFlight: 0 });
    });

    it("paid at 10:14:50 and heard of only after 10:25, its seats sold at 10:25:30: refunded, and told it paid in time", async () => {
      const started = await paidAt("10:14:50");
      await seatsTakenAt("10:25:30");
      clock.set(at("10:26:00"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "refunded" });
      const [notice] = await notices();
      expect(JSON.stringify(notice!.payload)).toContain("you paid for Quiz Night in time");
      expect(await ticketCount()).toBe(1);
    });

    it("paid at 10:17, after the hold and its grace: kept when the seats are free", async () => {
      const started = await paidAt("10:17:00");
      clock.set(at("10:18:00"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid" });
      const [ticket] = await database.db.select().from(tickets);
      expect(ticket!.dateSold).toEqual(at("10:17:00"));
    });

    it("paid at 10:17, settled after the seats were sold at 10:26: refunded, and told it came too late", async () => {
      const started = await startBooking(deps, { eventId, ...buyer, quantity: 2 });
      clock.set(at("10:17:00"));
      await payments.confirmCard(started.clientSecret, card);
      await seatsTakenAt("10:26:00");
      clock.set(at("10:27:00"));
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "refunded" });
      const [notice] = await notices();
      expect(JSON.stringify(notice!.payload)).toContain("arrived after your seats were released");
      expect(await ticketCount()).toBe(1);
    });

    it("a hold is judged when the settlement holds its locks, not when it began: no seat sold twice", async () => {
      const started = await paidAt("10:14:50");
      clock.set(at("10:14:59"));
      // The settlement waits for its locks: meanwhile the hold runs out and another buyer takes every seat.
      let waited = false;
      const busy = Object.create(database.db) as typeof database.db;
      busy.transaction = (async (...args: Parameters<typeof database.db.transaction>) => {
        if (!waited) {
          waited = true;
          await seatsTakenAt("10:25:10");
        }
        return database.db.transaction(...args);
      }) as typeof database.db.transaction;
      expect(await settleBooking({ ...deps, db: busy }, started.bookingRef)).toMatchObject({
        outcome: "refunded",
      });
      const sold = (await database.db.select().from(tickets)).filter((t) => t.isValid);
      expect(sold.reduce((n, t) => n + t.quantity, 0)).toBe(5);
    });

    it("a refund the provider fails says nothing to the buyer, and the refunds job makes it later, once", async () => {
      const started = await paidAt("10:14:50");
      await seatsTakenAt("10:25:30");
      clock.set(at("10:26:00"));
      const failing: OfflineProvider = {
        ...payments,
        refundPayment: () => Promise.reject(new Error("The card provider is down")),
      };
      const quiet = console.error;
      console.error = () => {};
      try {
        expect(await settleBooking({ ...deps, payments: failing }, started.bookingRef)).toMatchObject({
          outcome: "refunding",
        });
        expect(await notices()).toEqual([]);
        expect((await bookingOf(started.bookingRef)).status).toBe("refund_pending");
        // The refunds job, with the provider working again.
        await runBookingRefunds({ ...deps }, { shouldStop: () => false });
      } finally {
        console.error = quiet;
      }
      expect((await bookingOf(started.bookingRef)).status).toBe("refunded");
      expect(await notices()).toHaveLength(1);
      expect((await database.db.select().from(offlineRefunds)).map((r) => r.paymentId)).toHaveLength(1);
      // Settling again (a webhook's retry) neither refunds nor tells twice.
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "refunded" });
      await runBookingRefunds({ ...deps }, { shouldStop: () => false });
      expect(await notices()).toHaveLength(1);
      expect(await database.db.select().from(offlineRefunds)).toHaveLength(1);
    });
  });

  it("the outbox keeps a receipt until the mail server takes it, then sends it once", async () => {
    const started = await startBooking(deps, { eventId, ...buyer, quantity: 1 });
    await payments.confirmCard(started.clientSecret, card);
    await settleBooking(deps, started.bookingRef);
    let up = false;
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      describe: () => "test",
      async send(message) {
        if (!up) throw new Error("connect ECONNREFUSED 127.0.0.1:2525");
        sent.push(message);
      },
    };
    const worker = new OutboxWorker(database.db, mailer, clock);
    expect(await worker.deliver("booking-receipt", started.bookingRef)).toEqual({
      ok: false,
      error: "connect ECONNREFUSED 127.0.0.1:2525",
    });
    await worker.deliverDue();
    expect(sent).toEqual([]);
    up = true;
    clock.advance(31_000);
    await worker.deliverDue();
    await worker.deliverDue();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain(started.bookingRef);
    const [row] = await mails();
    expect(row).toMatchObject({ attempts: 2, lastError: null });
    expect(row!.sentAt).not.toBeNull();
  });
});
