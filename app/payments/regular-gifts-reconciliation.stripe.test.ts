import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { claimDailyReconciliation, reconcileOncePerDay } from "~/features/donations/reconciliation.server";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { auditLog, donations, outbox, regularGifts } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../tests/support/services";
import { invoiceEvent, signedDelivery, StripeStandIn } from "../../tests/support/stripe-standin";

// The daily check of monthly gifts against the Stripe stand-in at its HTTP boundary (decision 091):
// Stripe is the truth. A drift made by hand, and months whose webhooks never came, are repaired
// once, logged in the audit log, and the check runs once a London day whichever process asks.

describe.each(engines)("the monthly gifts' daily check on Stripe, on %s", (engine) => {
  const clock = testClock("2026-11-27T20:00:00Z");
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let services: Services;

  beforeEach(async () => {
    clock.set("2026-11-27T20:00:00Z");
    database = await freshDatabase(engine);
    stripe = await new StripeStandIn(clock).start();
    site = await testServices(database, clock, stripeConfigured(stripe.settings()));
    services = await site.request();
  });
  afterEach(async () => {
    await site.close();
    await stripe.stop();
  });

  const gift = async (id: string) => (await database.db.select().from(regularGifts).where(eq(regularGifts.id, id)))[0]!;
  const months = async (id: string) =>
    (await database.db.select().from(donations).where(eq(donations.regularGiftId, id)))
      .filter((d) => d.status === "paid")
      .map((d) => d.billingMonth)
      .sort();
  const corrections = (id: string) =>
    database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${id}`));

  /** A £10 gift whose first month Stripe took and said so. */
  async function paidGift() {
    const response = await callRoute(
      giftsRoute,
      new Request("http://localhost/api/regular-gifts", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ amount: "10.00", dayOfMonth: "5", name: "Amina Mushi", email: "amina@example.org" }),
      }),
      services,
    );
    const { regularGiftId } = (await response.json()) as { regularGiftId: string };
    const { id, latest_invoice } = [...stripe.subscriptions.values()][0]! as { id: string; latest_invoice: string };
    stripe.payInvoice(latest_invoice);
    await callRoute(webhookRoute, signedDelivery(invoiceEvent("evt_paid_1", "invoice.paid", latest_invoice)), services);
    expect(await gift(regularGiftId)).toMatchObject({ status: "active" });
    return { giftId: regularGiftId, subscriptionId: id };
  }

  it("repairs a gift's state changed by hand, and records a month whose webhook never came, once", async () => {
    const { giftId, subscriptionId } = await paidGift();
    // December is paid at Stripe, but its invoice.paid never reaches us.
    clock.set("2026-12-05T12:00:00Z");
    stripe.payInvoice(stripe.makeInvoice(subscriptionId));
    // And a drift made by hand: our copy says the gift is failing, while Stripe has it active.
    await database.db.update(regularGifts).set({ status: "failing" }).where(eq(regularGifts.id, giftId));

    clock.set("2026-12-06T06:00:00Z");
    const first = await reconcileOncePerDay(services);
    expect(first).toEqual([{ giftId, from: "failing", to: "active", monthsRecorded: 1 }]);
    expect(await gift(giftId)).toMatchObject({ status: "active" });
    expect(await months(giftId)).toEqual(["2026-11", "2026-12"]);
    expect((await corrections(giftId)).map((entry) => [entry.action, entry.summary])).toEqual([
      [
        "regular-gift.corrected",
        'Corrected by the daily check: the card payment service says "Active" where this site said "A payment failed: the card is being tried again"; a month it says were paid had not been recorded',
      ],
    ]);
    const receipts = (await database.db.select().from(outbox)).filter((m) => m.kind === "regular-gift-receipt");
    expect(receipts).toHaveLength(1);

    // The same day again (another process, or the next minute's run): nothing.
    expect(await reconcileOncePerDay(services)).toBeNull();
    // The next day, with nothing adrift: checked, nothing to say.
    clock.set("2026-12-07T06:00:00Z");
    expect(await reconcileOncePerDay(services)).toEqual([]);
    expect(await corrections(giftId)).toHaveLength(1);
  });

  it("follows a gift Stripe cancelled while its webhook was lost", async () => {
    const { giftId, subscriptionId } = await paidGift();
    stripe.setSubscriptionStatus(subscriptionId, "canceled");
    clock.set("2026-11-28T05:30:00Z");
    expect(await reconcileOncePerDay(services)).toEqual([
      { giftId, from: "active", to: "cancelled", monthsRecorded: 0 },
    ]);
    expect(await gift(giftId)).toMatchObject({ status: "cancelled", cancelledAt: clock.now() });
    // A cancelled gift is not asked about again.
    clock.set("2026-11-29T05:30:00Z");
    const asked = stripe.requests.length;
    expect(await reconcileOncePerDay(services)).toEqual([]);
    expect(stripe.requests.length).toBe(asked);
  });

  it("tells the donor once when a month's payment fails, with a link to change their card", async () => {
    const { giftId, subscriptionId } = await paidGift();
    clock.set("2026-12-05T12:00:00Z");
    const december = stripe.makeInvoice(subscriptionId);
    stripe.setSubscriptionStatus(subscriptionId, "past_due");
    // Stripe's first failure, the same event again, and its retry failing two days later.
    for (const id of ["evt_failed_1", "evt_failed_1", "evt_failed_2"]) {
      await callRoute(webhookRoute, signedDelivery(invoiceEvent(id, "invoice.payment_failed", december)), services);
    }
    expect(await gift(giftId)).toMatchObject({ status: "failing" });
    const notices = (await database.db.select().from(outbox)).filter((m) => m.kind === "regular-gift-payment-failed");
    expect(notices.map((m) => [m.recipient, m.payload.subject])).toEqual([
      [
        "Amina Mushi <amina@example.org>",
        "Your monthly gift of £10.00 to Kilele Village Trust: this month's payment did not go through",
      ],
    ]);
    expect(notices[0]!.payload.text).toContain("/giving/{{token}}");
    expect(notices[0]!.sealed).not.toBeNull();
    // Paid by Stripe's retry: a late copy of the failure says nothing more.
    stripe.payInvoice(december);
    stripe.setSubscriptionStatus(subscriptionId, "active");
    await callRoute(
      webhookRoute,
      signedDelivery(invoiceEvent("evt_failed_late", "invoice.payment_failed", december)),
      services,
    );
    expect(
      (await database.db.select().from(outbox)).filter((m) => m.kind === "regular-gift-payment-failed"),
    ).toHaveLength(1);
  });

  it("runs once a London day, from five in the morning, whichever process claims it", async () => {
    clock.set("2026-11-28T04:59:00Z");
    expect(await claimDailyReconciliation(database.db, clock.now())).toBe(false);
    clock.set("2026-11-28T05:00:00Z");
    const claims = await Promise.all([1, 2, 3].map(() => claimDailyReconciliation(database.db, clock.now())));
    expect(claims.filter(Boolean)).toHaveLength(1);
    clock.set("2026-11-28T23:59:00Z");
    expect(await claimDailyReconciliation(database.db, clock.now())).toBe(false);
    clock.set("2026-11-29T05:01:00Z");
    expect(await claimDailyReconciliation(database.db, clock.now())).toBe(true);
  });
});
