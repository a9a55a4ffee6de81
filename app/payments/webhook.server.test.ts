import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { action as bookingsRoute } from "~/routes/api.bookings";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { bookingHistory, bookings, outbox, processedWebhookEvents, tickets } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../tests/support/services";
import { signedDelivery, StripeStandIn, succeeded } from "../../tests/support/stripe-standin";

// POST /api/payments/webhook as Stripe reaches it: its route module, the site's own services built
// as the server builds them with Stripe configured (its API a local stand-in), and deliveries
// signed with the webhook secret as Stripe signs them (Stripe.webhooks.generateTestHeaderString).

describe.each(engines)("Stripe's webhook, through its route, on %s", (engine) => {
  const clock = testClock("2026-11-22T10:00:00Z");
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let services: Services;
  let eventId: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    stripe = await new StripeStandIn(clock).start();
    site = await testServices(database, clock, stripeConfigured(stripe.settings()));
    services = await site.request();
    eventId = await insertEvent(database.db, { totalAvailableTickets: 10 }, clock.now());
  });
  afterEach(async () => {
    await site.close();
    await stripe.stop();
  });

  /** A checkout started as the booking page starts it; its reference and Stripe's payment. */
  async function checkout(quantity: number) {
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventId, name: "Amina Mushi", email: "amina@example.org", quantity }),
    });
    const response = await callRoute(bookingsRoute, request, services);
    expect(response.status).toBe(201);
    const { bookingRef } = (await response.json()) as { bookingRef: string };
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
    return { bookingRef, paymentId: booking!.providerPaymentId! };
  }

  const deliver = async (event: object, secret?: string) => {
    const response = await callRoute(webhookRoute, signedDelivery(event, secret), services);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it("settles a booking once, however often and however concurrently its payment's events are delivered", async () => {
    const { bookingRef, paymentId } = await checkout(3);
    stripe.setStatus(paymentId, "succeeded");

    expect(await deliver(succeeded("evt_1", paymentId))).toEqual({ status: 200, body: { received: true } });
    // Stripe delivers an event again when it missed our answer, and may send another event for the
    // same payment; several of them at once.
    const again = await Promise.all([
      deliver(succeeded("evt_1", paymentId)),
      deliver(succeeded("evt_2", paymentId)),
      deliver(succeeded("evt_2", paymentId)),
      deliver(succeeded("evt_3", paymentId)),
    ]);
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(again[0]!.body).toEqual({ received: true, duplicate: true });
    expect(await deliver(succeeded("evt_2", paymentId))).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });

    const sold = await database.db.select().from(tickets);
    expect(sold.map((ticket) => [ticket.bookingRef, ticket.quantity])).toEqual([[bookingRef, 3]]);
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
    expect(booking!.status).toBe("paid");
    const paidLines = await database.db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingRef, bookingRef))
      .then((lines) => lines.filter((line) => line.status === "paid"));
    expect(paidLines).toHaveLength(1);
    const receipts = (await database.db.select().from(outbox)).filter((mail) => mail.kind === "booking-receipt");
    expect(receipts.map((mail) => mail.dedupeKey)).toEqual([`booking-receipt:${bookingRef}`]);
    const handled = await database.db.select().from(processedWebhookEvents);
    expect(handled.map((event) => event.eventId).sort()).toEqual(["evt_1", "evt_2", "evt_3"]);
  });

  it("answers a delivery that is not Stripe's 400 in the API's one shape, and sells nothing for it", async () => {
    const { paymentId } = await checkout(1);
    stripe.setStatus(paymentId, "succeeded");
    expect(await deliver(succeeded("evt_forged", paymentId), "whsec_not_ours")).toEqual({
      status: 400,
      body: { error: "Bad signature.", code: "invalid" },
    });
    expect(await database.db.select().from(tickets)).toEqual([]);
    expect(await database.db.select().from(processedWebhookEvents)).toEqual([]);
  });

  it("trusts Stripe, not the payload: a 'succeeded' event for a payment not made sells nothing, and a later one does", async () => {
    const { bookingRef, paymentId } = await checkout(2);
    expect((await deliver(succeeded("evt_early", paymentId))).status).toBe(200);
    expect(await database.db.select().from(tickets)).toEqual([]);
    stripe.setStatus(paymentId, "succeeded");
    expect((await deliver(succeeded("evt_paid", paymentId))).status).toBe(200);
    expect((await database.db.select().from(tickets)).map((ticket) => ticket.bookingRef)).toEqual([bookingRef]);
  });
});
