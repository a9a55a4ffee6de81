import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { claimDailyReconciliation, reconcileOncePerDay } from "~/features/donations/reconciliation.server";
import { auditLog, outbox, regularGifts } from "~db/schema";
import { engines } from "../../tests/support/databases";
import { monthlyGiftSiteOnStripe } from "../../tests/support/monthly-gifts";
import { invoiceEvent } from "../../tests/support/stripe-standin";

// The daily check of monthly gifts against the Stripe stand-in at its HTTP boundary (decision 091):
// Stripe is the truth. A drift made by hand, and months whose webhooks never came, are repaired
// once, logged in the audit log, and the check runs once a London day whichever process asks.

describe.each(engines)("the monthly gifts' daily check on Stripe, on %s", (engine) => {
  const site = monthlyGiftSiteOnStripe(engine);
  const { clock, giftRow: gift, paidMonths: months } = site;

  const corrections = (id: string) =>
    site.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${id}`));

  /** A £10 gift whose first month Stripe took and said so. */
  async function paidGift() {
    const { regularGiftId, subscriptionId, firstInvoice } = await site.start();
    site.stripe.payInvoice(firstInvoice);
    await site.deliver(invoiceEvent("evt_paid_1", "invoice.paid", firstInvoice));
    expect(await gift(regularGiftId)).toMatchObject({ status: "active" });
    return { giftId: regularGiftId, subscriptionId };
  }

  it("repairs a gift's state changed by hand, and records a month whose webhook never came, once", async () => {
    const { giftId, subscriptionId } = await paidGift();
    // December is paid at Stripe, but its invoice.paid never reaches us.
    clock.set("2026-12-05T12:00:00Z");
    site.stripe.payInvoice(site.stripe.makeInvoice(subscriptionId));
    // And a drift made by hand: our copy says the gift is failing, while Stripe has it active.
    await site.database.db.update(regularGifts).set({ status: "failing" }).where(eq(regularGifts.id, giftId));

    clock.set("2026-12-06T06:00:00Z");
    const first = await reconcileOncePerDay(site.services);
    expect(first).toEqual([{ giftId, from: "failing", to: "active", monthsRecorded: 1 }]);
    expect(await gift(giftId)).toMatchObject({ status: "active" });
    expect(await months(giftId)).toEqual(["2026-11", "2026-12"]);
    expect((await corrections(giftId)).map((entry) => [entry.action, entry.summary])).toEqual([
      [
        "regular-gift.corrected",
        'Corrected by the daily check: the card payment service says "Active" where this site said "A payment failed: the card is being tried again"; a month it says were paid had not been recorded',
      ],
    ]);
    const receipts = (await site.database.db.select().from(outbox)).filter((m) => m.kind === "regular-gift-receipt");
    expect(receipts).toHaveLength(1);

    // The same day again (another process, or the next minute's run): nothing.
    expect(await reconcileOncePerDay(site.services)).toBeNull();
    // The next day, with nothing adrift: checked, nothing to say.
    clock.set("2026-12-07T06:00:00Z");
    expect(await reconcileOncePerDay(site.services)).toEqual([]);
    expect(await corrections(giftId)).toHaveLength(1);
  });

  it("follows a gift Stripe cancelled while its webhook was lost", async () => {
    const { giftId, subscriptionId } = await paidGift();
    site.stripe.setSubscriptionStatus(subscriptionId, "canceled");
    clock.set("2026-11-28T05:30:00Z");
    expect(await reconcileOncePerDay(site.services)).toEqual([
      { giftId, from: "active", to: "cancelled", monthsRecorded: 0 },
    ]);
    expect(await gift(giftId)).toMatchObject({ status: "cancelled", cancelledAt: clock.now() });
    // A cancelled gift is not asked about again.
    clock.set("2026-11-29T05:30:00Z");
    const asked = site.stripe.requests.length;
    expect(await reconcileOncePerDay(site.services)).toEqual([]);
    expect(site.stripe.requests.length).toBe(asked);
  });

  it("tells the donor once when a month's payment fails, with a link to change their card", async () => {
    const { giftId, subscriptionId } = await paidGift();
    clock.set("2026-12-05T12:00:00Z");
    const december = site.stripe.makeInvoice(subscriptionId);
    site.stripe.setSubscriptionStatus(subscriptionId, "past_due");
    // Stripe's first failure, the same event again, and its retry failing two days later.
    for (const id of ["evt_failed_1", "evt_failed_1", "evt_failed_2"]) {
      await site.deliver(invoiceEvent(id, "invoice.payment_failed", december));
    }
    expect(await gift(giftId)).toMatchObject({ status: "failing" });
    const notices = (await site.database.db.select().from(outbox)).filter(
      (m) => m.kind === "regular-gift-payment-failed",
    );
    expect(notices.map((m) => [m.recipient, m.payload.subject])).toEqual([
      [
        "Amina Mushi <amina@example.org>",
        "Your monthly gift of £10.00 to Kilele Village Trust: this month's payment did not go through",
      ],
    ]);
    expect(notices[0]!.payload.text).toContain("/giving/{{token}}");
    expect(notices[0]!.sealed).not.toBeNull();
    // Paid by Stripe's retry: a late copy of the failure says nothing more.
    site.stripe.payInvoice(december);
    site.stripe.setSubscriptionStatus(subscriptionId, "active");
    await site.deliver(invoiceEvent("evt_failed_late", "invoice.payment_failed", december));
    expect(
      (await site.database.db.select().from(outbox)).filter((m) => m.kind === "regular-gift-payment-failed"),
    ).toHaveLength(1);
  });

  it("runs once a London day, from five in the morning, whichever process claims it", async () => {
    clock.set("2026-11-28T04:59:00Z");
    expect(await claimDailyReconciliation(site.database.db, clock.now())).toBe(false);
    clock.set("2026-11-28T05:00:00Z");
    const claims = await Promise.all([1, 2, 3].map(() => claimDailyReconciliation(site.database.db, clock.now())));
    expect(claims.filter(Boolean)).toHaveLength(1);
    clock.set("2026-11-28T23:59:00Z");
    expect(await claimDailyReconciliation(site.database.db, clock.now())).toBe(false);
    clock.set("2026-11-29T05:01:00Z");
    expect(await claimDailyReconciliation(site.database.db, clock.now())).toBe(true);
  });
});
