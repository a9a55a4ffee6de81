import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { PaymentDeps, PaymentProvider } from "~/infra/payments/provider.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import { bookingHistory, bookings, offlinePayments, tickets } from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { signedDelivery, StripeStandIn } from "../../../tests/support/stripe-standin";
import { paymentFailed } from "~/payments/settle.server";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import type { Services } from "../../../server/services";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../../tests/support/services";
import { AvailabilityFeed, type FeedMessage } from "~/features/events/availability-feed.server";
import { availabilityByEvent } from "~/features/events/events.server";
import { holdSettlingMs } from "~/infra/db/seats.server";
import { startBooking } from "./checkout.server";
import { releaseOwnHold } from "./release.server";
import { settleBooking, settleExpiredHolds } from "./settlement.server";

// PRODUCT.md, sold out versus reserved: an attempt that does not end in a payment gives its seats
// back at once (a declined card, a changed quantity, a visitor who left), judged by the provider,
// never by the browser; a paid booking is never released; while the seats left are all held in
// other people's checkouts the event is reserved until the first hold runs out, not sold out.

const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const declined = { number: "4000 0000 0000 0002", expiry: "12/34", cvc: "123" };
const noFunds = { number: "4000 0000 0000 9995", expiry: "12/34", cvc: "123" };
const amina = { name: "Amina Mushi", email: "amina@example.org" };
const grace = { name: "Grace Kimaro", email: "grace@example.org" };

describe.each(engines)("seat holds on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let eventId: string;
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    // Summer: London is an hour ahead of UTC, so a time shown in UTC by mistake would show.
    clock = testClock("2026-07-01T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 2 }, clock.now());
  });
  afterEach(() => database.close());

  const bookingOf = async (bookingRef: string) =>
    (await database.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef)))[0]!;
  const notesOf = async (bookingRef: string) =>
    (await database.db.select().from(bookingHistory).where(eq(bookingHistory.bookingRef, bookingRef))).map(
      (h) => h.note,
    );
  const availability = async () => (await availabilityByEvent(database, clock.now()))[eventId]!;

  it("a declined card gives the last seats back at once: the event is bookable, not sold out", async () => {
    for (const card of [declined, noFunds]) {
      const attempt = await startBooking(deps, { eventId, ...amina, quantity: 2 });
      expect(await availability()).toMatchObject({ remaining: 0, soldOut: false });
      const outcome = await payments.confirmCard(attempt.clientSecret, card);
      expect(outcome.error).toBeTruthy();
      // What the offline card form's route and Stripe's payment_failed webhook both do.
      expect(await paymentFailed(deps, outcome.payment.id)).toBe("released");
      expect(await bookingOf(attempt.bookingRef)).toMatchObject({ status: "cancelled" });
      expect(await notesOf(attempt.bookingRef)).toContain("The card was declined");
      expect(await availability()).toEqual({ sold: 0, remaining: 2, soldOut: false });
      // The cancelled payment can no longer take money for seats someone else may now have.
      expect((await payments.confirmCard(attempt.clientSecret, good)).payment.status).toBe("canceled");
    }
    // Another visitor books the two seats.
    const other = await startBooking(deps, { eventId, ...grace, quantity: 2 });
    await payments.confirmCard(other.clientSecret, good);
    expect(await settleBooking(deps, other.bookingRef)).toMatchObject({ outcome: "paid" });
    expect(await availability()).toEqual({ sold: 2, remaining: 0, soldOut: true });
  });

  it("the visitor's own browser releases its attempt (quantity changed, page left), once, with its client secret only", async () => {
    const first = await startBooking(deps, { eventId, ...amina, quantity: 2 });
    // Someone who knows only the reference (it travels in the confirmation link) cannot release it.
    await expect(
      releaseOwnHold(deps, { bookingRef: first.bookingRef, clientSecret: "pi_offline_x_secret_guess" }, "left"),
    ).rejects.toMatchObject({ code: "not-found" });
    await expect(
      releaseOwnHold(deps, { bookingRef: crypto.randomUUID(), clientSecret: first.clientSecret }, "left"),
    ).rejects.toMatchObject({ code: "not-found" });
    expect(await bookingOf(first.bookingRef)).toMatchObject({ status: "held" });

    expect(await releaseOwnHold(deps, first, "quantity")).toBe("released");
    expect(await availability()).toMatchObject({ remaining: 2 });
    // A beacon sent twice (pagehide, then the page's own clean-up) changes nothing more.
    expect(await releaseOwnHold(deps, first, "left")).toBe("released");
    expect(await notesOf(first.bookingRef)).toEqual([
      expect.stringMatching(/^2 × Ticket \(2 seats\) held until/),
      "The visitor changed the number of tickets",
    ]);

    // A new attempt replaces the previous one, which must prove itself too.
    const second = await startBooking(deps, { eventId, ...amina, quantity: 1 });
    await expect(
      startBooking(deps, { eventId, ...amina, quantity: 2, replaces: { ...second, clientSecret: "wrong" } }),
    ).rejects.toMatchObject({ message: "Only 1 ticket left for this event." });
    const third = await startBooking(deps, { eventId, ...amina, quantity: 2, replaces: second });
    expect(await bookingOf(second.bookingRef)).toMatchObject({ status: "cancelled" });
    expect(await bookingOf(third.bookingRef)).toMatchObject({ status: "held", quantity: 2 });
  });

  it("a paid booking is never released, whenever the release arrives", async () => {
    // Paid and settled.
    const paid = await startBooking(deps, { eventId, ...amina, quantity: 1 });
    await payments.confirmCard(paid.clientSecret, good);
    await settleBooking(deps, paid.bookingRef);
    expect(await releaseOwnHold(deps, paid, "left")).toBe("paid");
    expect(await bookingOf(paid.bookingRef)).toMatchObject({ status: "paid" });

    // Paid at the provider, not yet settled here (the webhook is on its way): the hold stays.
    const unsettled = await startBooking(deps, { eventId, ...grace, quantity: 1 });
    await payments.confirmCard(unsettled.clientSecret, good);
    expect(await releaseOwnHold(deps, unsettled, "left")).toBe("paid");
    expect(await bookingOf(unsettled.bookingRef)).toMatchObject({ status: "held" });
    expect(await settleBooking(deps, unsettled.bookingRef)).toMatchObject({ outcome: "paid", firstTime: true });
    expect(await database.db.select().from(tickets)).toHaveLength(2);
    expect(await availability()).toMatchObject({ sold: 2, soldOut: true });
  });

  it("a payment that succeeds at the very moment of its release keeps its seats", async () => {
    const attempt = await startBooking(deps, { eventId, ...amina, quantity: 2 });
    // The card is confirmed between the release's first look and its cancelling the payment.
    const racing: PaymentProvider = {
      ...payments,
      async cancelPayment(id) {
        await payments.confirmCard(attempt.clientSecret, good);
        return payments.cancelPayment(id);
      },
    };
    expect(await releaseOwnHold({ ...deps, payments: racing }, attempt, "left")).toBe("paid");
    expect(await bookingOf(attempt.bookingRef)).toMatchObject({ status: "held" });
    expect(await settleBooking(deps, attempt.bookingRef)).toMatchObject({ outcome: "paid" });
  });

  it("a payment that still succeeds for released seats gets them if free, and a refund if not", async () => {
    const released = await startBooking(deps, { eventId, ...amina, quantity: 2 });
    expect(await releaseOwnHold(deps, released, "left")).toBe("released");
    const others = await startBooking(deps, { eventId, ...grace, quantity: 2 });
    await payments.confirmCard(others.clientSecret, good);
    await settleBooking(deps, others.bookingRef);
    // However it happened (a provider's mistake), the released attempt's payment succeeds.
    await database.db
      .update(offlinePayments)
      .set({ status: "succeeded" })
      .where(eq(offlinePayments.clientSecret, released.clientSecret));
    expect(await settleBooking(deps, released.bookingRef)).toMatchObject({ outcome: "refunded" });
    expect(await availability()).toEqual({ sold: 2, remaining: 0, soldOut: true });
  });

  it("reserved, not sold out, until the first hold runs out (London time); sold out once sold", async () => {
    await startBooking(deps, { eventId, ...amina, quantity: 1 });
    clock.advance(5 * 60_000 + 20_000);
    await startBooking(deps, { eventId, ...grace, quantity: 1 });
    // Holds until 10:15:00 and 10:20:20 UTC: 11:15 and 11:20:20 in London (BST).
    expect(await availability()).toEqual({
      sold: 0,
      remaining: 0,
      soldOut: false,
      reservedUntil: "2026-07-01T10:15:00.000Z",
    });
    await expect(
      startBooking(deps, { eventId, name: "Third Buyer", email: "t@example.org", quantity: 1 }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: "All remaining tickets are reserved. Try again after 11:15.",
    });
    // The first hold runs out with no payment made: its seat is kept for a payment on its way
    // (reserved until the second hold's end, the sooner) until the sweep finds it unpaid and frees it.
    clock.advance(10 * 60_000);
    expect(await availability()).toMatchObject({ remaining: 0, reservedUntil: "2026-07-01T10:20:20.000Z" });
    expect(await settleExpiredHolds(deps)).toMatchObject({ released: 1 });
    expect(await availability()).toEqual({ sold: 0, remaining: 1, soldOut: false });
    const third = await startBooking(deps, { eventId, name: "Third Buyer", email: "t@example.org", quantity: 1 });
    // All held again, now by the second and third: try again when the second runs out, rounded up.
    await expect(startBooking(deps, { eventId, ...amina, quantity: 1 })).rejects.toThrow(
      "All remaining tickets are reserved. Try again after 11:21.",
    );
    await payments.confirmCard(third.clientSecret, good);
    await settleBooking(deps, third.bookingRef);
    clock.advance(10 * 60_000);
    await settleExpiredHolds(deps);
    const fourth = await startBooking(deps, { eventId, ...amina, quantity: 1 });
    await payments.confirmCard(fourth.clientSecret, good);
    await settleBooking(deps, fourth.bookingRef);
    await expect(startBooking(deps, { eventId, ...grace, quantity: 1 })).rejects.toThrow(
      "Sorry, this event is sold out.",
    );
  });

  it("the live feed shows released seats at once, and seats whose hold ran out when it does", async () => {
    const feed = new AvailabilityFeed(database, clock);
    await feed.start();
    const messages: FeedMessage[] = [];
    const waiters: { test(m: FeedMessage): boolean; resolve(): void }[] = [];
    await feed.subscribe(({ message }) => {
      if (!message) return;
      messages.push(message);
      for (const w of waiters.filter((w) => w.test(message))) w.resolve();
    });
    const remainingBecomes = (remaining: number) =>
      new Promise<void>((resolve) =>
        waiters.push({
          test: (m) => m.type === "availability-changed" && m.events[eventId]?.remaining === remaining,
          resolve,
        }),
      );
    try {
      let seen = remainingBecomes(0);
      const attempt = await startBooking(deps, { eventId, ...amina, quantity: 2 });
      await seen;
      seen = remainingBecomes(2);
      await releaseOwnHold(deps, attempt, "left");
      await seen;

      // A hold that runs out unpaid: the sweep frees it, and the feed shows it at once.
      seen = remainingBecomes(0);
      await startBooking(deps, { eventId, ...grace, quantity: 2 });
      await seen;
      clock.advance(15 * 60_000);
      seen = remainingBecomes(2);
      await settleExpiredHolds(deps);
      await seen;

      // A hold whose payment was still on its way stops counting when its settling window ends by
      // itself: the feed recounts then (here a moment from now), with nothing written.
      seen = remainingBecomes(0);
      const inFlight = await startBooking(deps, { eventId, ...grace, quantity: 2 });
      await seen;
      await database.db
        .update(offlinePayments)
        .set({ status: "processing" })
        .where(eq(offlinePayments.clientSecret, inFlight.clientSecret));
      await database.db
        .update(bookings)
        .set({ holdExpiresAt: new Date(clock.now().getTime() + 300 - holdSettlingMs) })
        .where(eq(bookings.bookingRef, inFlight.bookingRef));
      await feed.snapshot();
      seen = remainingBecomes(2);
      clock.advance(1_000);
      await seen;
      expect(JSON.stringify(messages)).not.toMatch(/Grace|Amina|example\.org/);
    } finally {
      await feed.close();
    }
  });
});

/** A webhook delivery as Stripe makes it: through its route (app/routes/api.payments.webhook.ts). */
const paymentWebhook = (services: Services, request: Request) => callRoute(webhookRoute, request, services);

describe("seat holds with Stripe", () => {
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let deps: Services;
  let eventId: string;

  beforeEach(async () => {
    database = await freshDatabase("pglite");
    stripe = await new StripeStandIn().start();
    const clock = testClock("2026-11-22T10:00:00Z");
    site = await testServices(database, clock, stripeConfigured(stripe.settings()));
    deps = await site.request();
    eventId = await insertEvent(database.db, { totalAvailableTickets: 2 }, clock.now());
  });
  afterEach(async () => {
    await stripe.stop();
    await site.close();
  });

  const statusOf = async (bookingRef: string) =>
    (await database.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef)))[0]!.status;
  const failedEvent = (id: string, paymentId: string) => ({
    id,
    object: "event",
    type: "payment_intent.payment_failed",
    data: { object: { id: paymentId, object: "payment_intent" } },
  });

  it("payment_intent.payment_failed releases the hold, once Stripe confirms the payment is unpaid", async () => {
    const attempt = await startBooking(deps, { eventId, ...amina, quantity: 2 });
    const response = await paymentWebhook(deps, signedDelivery(failedEvent("evt_f1", "pi_test_1")));
    expect(response.status).toBe(200);
    expect(await statusOf(attempt.bookingRef)).toBe("cancelled");
    expect(stripe.intents.get("pi_test_1")!.status).toBe("canceled");
    expect(stripe.requests.some((r) => r.path === "/v1/payment_intents/pi_test_1/cancel")).toBe(true);
  });

  it("a decline the browser reports is checked with Stripe: a processing or paid payment keeps its hold", async () => {
    const processing = await startBooking(deps, { eventId, ...amina, quantity: 1 });
    stripe.setStatus("pi_test_1", "processing");
    expect(await releaseOwnHold(deps, processing, "declined")).toBe("in-progress");
    expect(await statusOf(processing.bookingRef)).toBe("held");
    // Stripe's payment_failed for it (a retry that failed) is judged the same way.
    await paymentWebhook(deps, signedDelivery(failedEvent("evt_f2", "pi_test_1")));
    expect(await statusOf(processing.bookingRef)).toBe("held");

    const succeeded = await startBooking(deps, { eventId, ...grace, quantity: 1 });
    stripe.setStatus("pi_test_2", "succeeded");
    expect(await releaseOwnHold(deps, succeeded, "declined")).toBe("paid");
    expect(await statusOf(succeeded.bookingRef)).toBe("held");
    expect(stripe.intents.get("pi_test_2")!.status).toBe("succeeded");

    stripe.setStatus("pi_test_1", "requires_payment_method");
    expect(await releaseOwnHold(deps, processing, "declined")).toBe("released");
    expect(await statusOf(processing.bookingRef)).toBe("cancelled");
  });
});
