import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { seatsOf } from "~/infra/db/seats.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import { stripeProvider } from "~/infra/payments/stripe.server";
import { doorList } from "~/features/door/door.server";
import { auditLog, bookings, events, offlineRefunds, outbox, refunds, staffUsers, tickets } from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { StripeStandIn } from "../../../tests/support/stripe-standin";
import { salesByEvent } from "./staff-bookings.server";
import { settleBooking } from "./settlement.server";
import { startBooking } from "./checkout.server";
import { cancelEvent, cancellationProgress, refundCancelledEvent, runBookingRefunds } from "./cancellation.server";
import { refundBooking, retryPendingRefunds, type RefundDeps } from "./refunds.server";
import { correctBuyer, findBooking, resendReceipt, staffBooking } from "./staff-bookings.server";

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

describe.each(engines)("refunds on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: RefundDeps;
  let eventId: string;
  let clock: TestClock;
  let staff: { id: string; email: string };
  let delivered: string[];

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    delivered = [];
    deps = {
      db: database.db,
      payments,
      charity,
      clock,
      outbox: { deliver: async (kind, about) => (delivered.push(`${kind}:${about}`), { ok: true }) },
    };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 10 }, clock.now());
    const [user] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    staff = { id: user!.id, email: user!.email };
  });
  afterEach(() => database.close());

  async function buy(quantity: number, name = "Amina Mushi", email = "amina@example.org", event = eventId) {
    const started = await startBooking(deps, { eventId: event, name, email, quantity });
    const { error } = await payments.confirmCard(started.clientSecret, card);
    expect(error).toBeUndefined();
    const settled = await settleBooking(deps, started.bookingRef);
    expect(settled.outcome).toBe("paid");
    return started.bookingRef;
  }

  const sold = async () => (await seatsOf(database.db, eventId, clock.now())).sold;
  const mailsOf = async (kind: string) => database.db.select().from(outbox).where(eq(outbox.kind, kind));
  const providerRefunds = async () => database.db.select().from(offlineRefunds);
  const key = () => crypto.randomUUID();

  it("refunds part of a booking at the ticket price, then the rest with the fee; the seats go back on sale", async () => {
    const ref = await buy(4);
    expect(await sold()).toBe(4);

    const first = await refundBooking(deps, staff, ref, { quantity: "1", reason: "One cannot come", key: key() });
    expect(first.refund).toMatchObject({ quantity: 1, amountPence: 1250, status: "succeeded" });
    expect(await sold()).toBe(3);
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({ quantity: 3, isValid: true });
    expect((await salesByEvent(database))[eventId]?.takenPence).toBe(4 * 1250 + 49 - 1250);

    const rest = await refundBooking(deps, staff, ref, { quantity: 3, reason: "Plans changed", key: key() });
    expect(rest.refund).toMatchObject({ quantity: 3, amountPence: 3 * 1250 + 49, status: "succeeded" });
    expect(await sold()).toBe(0);
    const [booking] = await database.db.select().from(bookings);
    expect(booking).toMatchObject({ status: "refunded", refundedPence: 5049, amountPence: 5049 });
    const [after] = await database.db.select().from(tickets);
    expect(after).toMatchObject({ quantity: 3, isValid: false });
    expect((await providerRefunds()).map((r) => r.amountPence)).toEqual([1250, 3799]);
    expect((await salesByEvent(database))[eventId]?.takenPence ?? 0).toBe(0);

    const mails = await mailsOf("booking-refund");
    expect(mails).toHaveLength(2);
    const partMail = mails.find((m) => m.dedupeKey === `booking-refund:${first.refund.id}`)!;
    expect(partMail.recipient).toBe("Amina Mushi <amina@example.org>");
    expect(partMail.payload.text).toContain("We have refunded 1 ticket");
    expect(partMail.payload.text).toContain("£12.50");
    expect(partMail.payload.text).toContain("Why: One cannot come");
    expect(partMail.payload.text).toContain("still has 3 valid tickets");
    expect(delivered).toEqual([`booking-refund:${first.refund.id}`, `booking-refund:${rest.refund.id}`]);

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "booking.refunded"));
    expect(audit.map((a) => a.summary).sort()).toEqual([
      "Refunded 1 of 4 valid tickets: £12.50",
      "Refunded 3 of 3 valid tickets: £37.99",
    ]);
    expect(audit.every((a) => !a.summary.includes("Amina") && !a.summary.includes("@"))).toBe(true);
  });

  it("the door shows what is left of a partly refunded group and refuses a fully refunded one", async () => {
    const ref = await buy(4);
    await refundBooking(deps, staff, ref, { quantity: 1, reason: "One cannot come", key: key() });
    let door = await doorList(database, eventId, clock.now());
    expect(door!.tickets[0]).toMatchObject({ quantity: 3, refunded: false });
    await refundBooking(deps, staff, ref, { quantity: 3, reason: "None can come", key: key() });
    door = await doorList(database, eventId, clock.now());
    expect(door!.tickets[0]).toMatchObject({ refunded: true });
  });

  it("never refunds more tickets than are valid and not checked in, and says how many can be", async () => {
    const ref = await buy(4);
    await expect(refundBooking(deps, staff, ref, { quantity: 5, reason: "x", key: key() })).rejects.toMatchObject({
      code: "invalid",
      fields: { quantity: "Only 4 tickets can be refunded." },
    });
    await database.db.update(tickets).set({ checkedInCount: 3 }).where(eq(tickets.bookingRef, ref));
    await expect(refundBooking(deps, staff, ref, { quantity: 2, reason: "x", key: key() })).rejects.toMatchObject({
      fields: { quantity: "Only 1 ticket can be refunded." },
    });
    await expect(refundBooking(deps, staff, ref, { quantity: "0", reason: " ", key: "nope" })).rejects.toMatchObject({
      code: "invalid",
      fields: {
        quantity: "Enter how many tickets to refund, as a whole number.",
        reason: "Say why the tickets are refunded (at most 200 characters).",
        key: "This form has expired: reload the page and try again.",
      },
    });
    expect(await database.db.select().from(refunds)).toEqual([]);
    expect(await sold()).toBe(4);
  });

  it("the same form sent twice (one key) makes one refund, and asks the provider once", async () => {
    const ref = await buy(4);
    const token = key();
    const [a, b] = await Promise.all([
      refundBooking(deps, staff, ref, { quantity: 1, reason: "Double click", key: token }),
      refundBooking(deps, staff, ref, { quantity: 1, reason: "Double click", key: token }),
    ]);
    expect(a.refund.id).toBe(b.refund.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    const again = await refundBooking(deps, staff, ref, { quantity: 1, reason: "Double click", key: token });
    expect(again).toMatchObject({ created: false, refund: { id: a.refund.id, status: "succeeded" } });
    expect(await database.db.select().from(refunds)).toHaveLength(1);
    expect(await providerRefunds()).toHaveLength(1);
    expect(await sold()).toBe(3);
    expect(await mailsOf("booking-refund")).toHaveLength(1);
  });

  it("two staff refunding the last tickets at once: one refund, the other is told none are left", async () => {
    const ref = await buy(2);
    const results = await Promise.allSettled([
      refundBooking(deps, staff, ref, { quantity: 2, reason: "First", key: key() }),
      refundBooking(deps, staff, ref, { quantity: 2, reason: "Second", key: key() }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({
      code: "conflict",
      message: "This booking has already been refunded in full.",
    });
    expect(await providerRefunds()).toHaveLength(1);
    const [booking] = await database.db.select().from(bookings);
    expect(booking!.refundedPence).toBe(2549);
  });

  it("a provider that fails leaves the refund waiting; it is asked again with the same key until it succeeds", async () => {
    const ref = await buy(3);
    const keys: string[] = [];
    let failures = 1;
    deps.payments = {
      ...payments,
      async refundPayment(id, idempotencyKey, amountPence) {
        keys.push(idempotencyKey);
        if (failures-- > 0) throw new Error("Stripe is down");
        return payments.refundPayment(id, idempotencyKey, amountPence);
      },
    };
    const { refund } = await refundBooking(deps, staff, ref, { quantity: 1, reason: "Ill", key: key() });
    expect(refund).toMatchObject({ status: "pending", attempts: 1, lastError: "Stripe is down" });
    // The seats are back on sale at once, even while the money is on its way.
    expect(await sold()).toBe(2);
    expect(await mailsOf("booking-refund")).toHaveLength(0);

    await retryPendingRefunds(deps);
    await retryPendingRefunds(deps);
    const [row] = await database.db.select().from(refunds);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
    expect(keys).toEqual([`refund-${refund.id}`, `refund-${refund.id}`]);
    expect(await providerRefunds()).toHaveLength(1);
    expect(await mailsOf("booking-refund")).toHaveLength(1);
  });

  it("corrects the buyer with the booking form's rules, and resends the receipt to the corrected address", async () => {
    const ref = await buy(2);
    await expect(
      correctBuyer(database, staff, ref, { name: "R2-D2", email: "not an address" }, clock.now()),
    ).rejects.toMatchObject({
      code: "invalid",
      fields: {
        name: "Invalid name: name must only contain letters and not be left blank.",
        email: "Invalid email: please enter a valid email address.",
      },
    });
    await correctBuyer(database, staff, ref, { name: "Amina Mushi", email: "amina.m@example.net" }, clock.now());
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({ ticketHolderName: "Amina Mushi", email: "amina.m@example.net" });

    const first = await resendReceipt(deps, staff, ref);
    const second = await resendReceipt(deps, staff, ref);
    expect(first.email).toBe("amina.m@example.net");
    const resent = await mailsOf("receipt-sent-again");
    expect(resent.map((m) => m.dedupeKey).sort()).toEqual(
      [`receipt-sent-again:${first.resendId}`, `receipt-sent-again:${second.resendId}`].sort(),
    );
    expect(resent.every((m) => m.recipient === "Amina Mushi <amina.m@example.net>")).toBe(true);

    const audit = await database.db.select().from(auditLog);
    expect(audit.map((a) => a.summary)).toEqual(
      expect.arrayContaining([
        "Corrected the buyer's e-mail address",
        "Sent the receipt again to the buyer's current address",
      ]),
    );
    const view = await staffBooking(database, ref);
    expect(view!.history.map((h) => h.note)).toEqual(
      expect.arrayContaining(["The buyer's e-mail address corrected by staff@example.org"]),
    );

    // A name with full stops is a name (PRODUCT.md): staff can write it as the buyer does.
    await correctBuyer(database, staff, ref, { name: "Dr A. Mushi", email: "amina.m@example.net" }, clock.now());
    expect((await database.db.select().from(tickets))[0]).toMatchObject({ ticketHolderName: "Dr A. Mushi" });
  });

  it("finds a booking by its full reference or its receipt code", async () => {
    const ref = await buy(1);
    expect(await findBooking(database, ref)).toEqual({ outcome: "found", bookingRef: ref });
    expect(await findBooking(database, ref.slice(0, 8).toUpperCase())).toEqual({
      outcome: "found",
      bookingRef: ref,
    });
    expect(await findBooking(database, "0000-0000")).toMatchObject({ outcome: "none" });
    expect(await findBooking(database, "hello")).toMatchObject({ outcome: "none" });
  });

  describe("cancelling an event", () => {
    it("stops sales, releases holds, and refunds every paid booking once, carrying on after a stop", async () => {
      const refs: string[] = [];
      for (let i = 0; i < 5; i++) refs.push(await buy(2, "Amina Mushi", `buyer${i}@example.org`));
      await refundBooking(deps, staff, refs[0]!, { quantity: 1, reason: "One cannot come", key: key() });
      const held = await startBooking(deps, { eventId, name: "Late Comer", email: "late@example.org", quantity: 1 });

      const progress = await cancelEvent(deps, staff, eventId, { reason: "The hall flooded" });
      expect(progress).toMatchObject({ total: 5, refunded: 0, running: true, reason: "The hall flooded" });
      const [heldRow] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, held.bookingRef));
      expect(heldRow!.status).toBe("cancelled");
      await expect(
        startBooking(deps, { eventId, name: "Amina Mushi", email: "a@example.org", quantity: 1 }),
      ).rejects.toMatchObject({ code: "conflict", message: "This event has been cancelled." });
      await expect(cancelEvent(deps, staff, eventId, { reason: "Again" })).rejects.toMatchObject({ code: "conflict" });

      // Stopped after two bookings (the process was stopped); one more is left pending (a crash
      // between writing the refund and asking the provider).
      let asked = 0;
      await refundCancelledEvent(deps, eventId, { shouldStop: () => asked++ >= 2 });
      expect((await cancellationProgress(database, eventId))!.refunded).toBe(2);
      deps.payments = {
        ...payments,
        refundPayment: () => Promise.reject(new Error("Connection reset")),
      };
      await refundCancelledEvent(deps, eventId, { shouldStop: () => asked++ >= 4 });
      const halfway = (await cancellationProgress(database, eventId))!;
      expect(halfway).toMatchObject({ total: 5, refunded: 2, waitingTotal: 1, running: true });
      expect(halfway.waiting[0]).toMatchObject({ error: "Connection reset", attempts: 1 });

      // The restart: the worker finishes the pending refund with its key, then the rest.
      deps.payments = payments;
      await runBookingRefunds(deps, { shouldStop: () => false });

      expect(await cancellationProgress(database, eventId)).toMatchObject({
        total: 5,
        refunded: 5,
        running: false,
        waitingTotal: 0,
      });
      const given = await providerRefunds();
      const perPayment = new Map<string, number>();
      for (const r of given.filter((g) => g.idempotencyKey.startsWith("refund-")))
        perPayment.set(r.paymentId, (perPayment.get(r.paymentId) ?? 0) + 1);
      // Booking 0 had a staff refund before: it has two provider refunds, the others one each.
      expect([...perPayment.values()].sort()).toEqual([1, 1, 1, 1, 2]);
      const all = await database.db.select().from(bookings).where(eq(bookings.eventId, eventId));
      for (const b of all.filter((b) => refs.includes(b.bookingRef))) {
        expect(b).toMatchObject({ status: "refunded", refundedPence: b.amountPence });
      }
      const told = await mailsOf("event-cancelled");
      expect(told.map((m) => m.dedupeKey).sort()).toEqual(refs.map((r) => `event-cancelled:${r}`).sort());
      expect(told[0]!.payload.text).toContain("Why: The hall flooded");
      expect(await sold()).toBe(0);
      const [event] = await database.db.select().from(events).where(eq(events.id, eventId));
      expect(event!.cancelReason).toBe("The hall flooded");
      const [entry] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "event.cancelled"), eq(auditLog.subject, `event:${eventId}`)));
      expect(entry!.summary).toBe("Cancelled the event; 5 paid bookings to refund");
    });

    it("two processes working through the same cancelled event refund each booking once", async () => {
      const refs: string[] = [];
      for (let i = 0; i < 6; i++) refs.push(await buy(1, "Amina Mushi", `buyer${i}@example.org`));
      await cancelEvent(deps, staff, eventId, { reason: "Storm" });
      const other = { ...deps, payments: offlineProvider(database.db, clock) };
      await Promise.all([refundCancelledEvent(deps, eventId), refundCancelledEvent(other, eventId)]);
      expect(await database.db.select().from(refunds)).toHaveLength(6);
      expect(await providerRefunds()).toHaveLength(6);
      expect(await mailsOf("event-cancelled")).toHaveLength(6);
    });

    it("a payment that arrives after the event was cancelled is refunded, not turned into tickets", async () => {
      const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "a@example.org", quantity: 1 });
      await payments.confirmCard(started.clientSecret, card);
      await cancelEvent(deps, staff, eventId, { reason: "Storm" });
      expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "refunded" });
      expect(await database.db.select().from(tickets)).toEqual([]);
      const [notice] = await mailsOf("booking-refunded");
      expect(notice!.payload.subject).toContain("is cancelled");
    });
  });
});

describe("refunds through Stripe", () => {
  let database: DatabaseHandle;
  let stripe: StripeStandIn;

  beforeEach(async () => {
    database = await freshDatabase("pglite");
    stripe = await new StripeStandIn().start();
  });
  afterEach(async () => {
    await stripe.stop();
    await database.close();
  });

  it("sends the amount and the refund's idempotency key; asked again, Stripe makes no second refund", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const deps: RefundDeps = { db: database.db, payments: stripeProvider(stripe.settings()), charity, clock };
    const eventId = await insertEvent(database.db, {}, clock.now());
    const [user] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "a@example.org", quantity: 4 });
    stripe.setStatus("pi_test_1", "succeeded");
    await settleBooking(deps, started.bookingRef);

    // The first answer is lost on the way back: the refund stays pending and is asked for again.
    let lost = true;
    const real = deps.payments;
    deps.payments = {
      ...real,
      async refundPayment(id, idempotencyKey, amount) {
        const made = await real.refundPayment(id, idempotencyKey, amount);
        if (lost) {
          lost = false;
          throw new Error("socket hang up");
        }
        return made;
      },
    };
    const { refund } = await refundBooking(deps, user!, started.bookingRef, {
      quantity: 1,
      reason: "One cannot come",
      key: crypto.randomUUID(),
    });
    expect(refund.status).toBe("pending");
    await retryPendingRefunds(deps);

    const asked = stripe.requests.filter((r) => r.path === "/v1/refunds");
    expect(asked).toHaveLength(2);
    for (const request of asked) {
      expect(Object.fromEntries(request.form)).toEqual({ payment_intent: "pi_test_1", amount: "1250" });
      expect(request.headers["idempotency-key"]).toBe(`refund-${refund.id}`);
    }
    expect(stripe.refunds).toHaveLength(1);
    const [row] = await database.db.select().from(refunds);
    expect(row).toMatchObject({ status: "succeeded", providerRefundId: stripe.refunds[0]!.id });
  });
});
