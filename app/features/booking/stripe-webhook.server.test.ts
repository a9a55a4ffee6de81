import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { events, outbox, processedWebhookEvents, tickets } from "~db/schema";
import type { Services } from "../../../server/services";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../../tests/support/services";
import { signedDelivery, StripeStandIn, succeeded } from "../../../tests/support/stripe-standin";
import { settleBooking } from "./settlement.server";
import { startBooking } from "./checkout.server";

/** A webhook delivery as Stripe makes it: through its route (app/routes/api.payments.webhook.ts). */
const handlePaymentWebhook = (services: Services, request: Request) => callRoute(webhookRoute, request, services);

describe.each(engines)("Stripe payments and webhooks on %s", (engine) => {
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let deps: Services;
  let eventId: string;
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    stripe = await new StripeStandIn(clock).start();
    site = await testServices(database, clock, stripeConfigured(stripe.settings()));
    deps = await site.request();
    eventId = await insertEvent(database.db, { totalAvailableTickets: 50 }, clock.now());
  });
  afterEach(async () => {
    await stripe.stop();
    await site.close();
  });

  it("creates the PaymentIntent on the server with the amount it computed, in pence", async () => {
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    const [create] = stripe.requests.filter((r) => r.path === "/v1/payment_intents");
    expect(Object.fromEntries(create!.form)).toEqual({
      amount: "2549",
      currency: "gbp",
      "automatic_payment_methods[enabled]": "true",
      description: `Quiz Night - booking ${started.bookingRef}`,
      "metadata[booking_ref]": started.bookingRef,
      "metadata[event_id]": eventId,
      receipt_email: "amina@example.org",
    });
    expect(create!.headers["idempotency-key"]).toBe(`booking-${started.bookingRef}`);
    expect(create!.headers.authorization).toBe("Bearer sk_test_x");
    expect(started.clientSecret).toBe("pi_test_1_secret_test");
  });

  it("a webhook delivered twice makes one ticket and one receipt", async () => {
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    stripe.setStatus("pi_test_1", "succeeded");
    const first = await handlePaymentWebhook(deps, signedDelivery(succeeded("evt_1", "pi_test_1")));
    const second = await handlePaymentWebhook(deps, signedDelivery(succeeded("evt_1", "pi_test_1")));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    const sold = await database.db.select().from(tickets);
    expect(sold.map((t) => [t.bookingRef, t.quantity])).toEqual([[started.bookingRef, 2]]);
    expect(await database.db.select().from(outbox)).toHaveLength(1);
    expect(await database.db.select().from(processedWebhookEvents)).toEqual([
      expect.objectContaining({ eventId: "evt_1", type: "payment_intent.succeeded" }),
    ]);
  });

  it("the webhook and the confirmation page racing make one ticket", async () => {
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
    stripe.setStatus("pi_test_1", "succeeded");
    await Promise.all([
      handlePaymentWebhook(deps, signedDelivery(succeeded("evt_2", "pi_test_1"))),
      settleBooking(deps, started.bookingRef),
      settleBooking(deps, started.bookingRef),
    ]);
    expect(await database.db.select().from(tickets)).toHaveLength(1);
    expect(await database.db.select().from(outbox)).toHaveLength(1);
  });

  it("trusts the provider, not the payload: a 'succeeded' event for an unpaid intent sells nothing", async () => {
    await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
    const response = await handlePaymentWebhook(deps, signedDelivery(succeeded("evt_3", "pi_test_1")));
    expect(response.status).toBe(200);
    expect(await database.db.select().from(tickets)).toEqual([]);
  });

  it("refuses a delivery with a bad signature, and answers 200 to event types it does not handle", async () => {
    const forged = await handlePaymentWebhook(deps, signedDelivery(succeeded("evt_4", "pi_test_1"), "whsec_wrong"));
    expect(forged.status).toBe(400);
    const unsigned = await handlePaymentWebhook(
      deps,
      new Request("http://localhost/", { method: "POST", body: JSON.stringify(succeeded("evt_5", "pi_test_1")) }),
    );
    expect(unsigned.status).toBe(400);
    const other = await handlePaymentWebhook(
      deps,
      signedDelivery({
        id: "evt_6",
        object: "event",
        type: "customer.created",
        data: { object: { id: "cus_1", object: "customer" } },
      }),
    );
    expect(other.status).toBe(200);
    expect(await database.db.select().from(tickets)).toEqual([]);
  });

  it("a late payment whose seats have gone is refunded through Stripe", async () => {
    await database.db.update(events).set({ totalAvailableTickets: 2 });
    const late = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    // Past the hold and its settling window, with Stripe never asked meanwhile.
    clock.advance(26 * 60_000);
    const other = await startBooking(deps, { eventId, name: "Grace Kimaro", email: "grace@example.org", quantity: 2 });
    stripe.setStatus("pi_test_2", "succeeded");
    await settleBooking(deps, other.bookingRef);
    stripe.setStatus("pi_test_1", "succeeded");
    expect(await settleBooking(deps, late.bookingRef)).toMatchObject({ outcome: "refunded" });
    const refund = stripe.requests.find((r) => r.path === "/v1/refunds");
    expect(refund?.form.get("payment_intent")).toBe("pi_test_1");
    expect(refund?.headers["idempotency-key"]).toBe(`refund-${late.bookingRef}`);
  });

  it("reads when the buyer paid from Stripe's charge: paid in time, heard of late, kept at that time", async () => {
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    // 3-D Secure done and the card charged at 10:14:50; the webhook reaches us at 10:16.
    stripe.setStatus("pi_test_1", "succeeded", undefined, new Date("2026-11-22T10:14:50Z"));
    clock.set("2026-11-22T10:16:00Z");
    const response = await handlePaymentWebhook(deps, signedDelivery(succeeded("evt_late", "pi_test_1")));
    expect(response.status).toBe(200);
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({ bookingRef: started.bookingRef, dateSold: new Date("2026-11-22T10:14:50Z") });
    expect(await deps.payments.retrievePayment("pi_test_1")).toMatchObject({
      succeededAt: new Date("2026-11-22T10:14:50Z"),
    });
  });
});
