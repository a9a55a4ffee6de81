import { describe, expect, it } from "vitest";
import { outbox, processedWebhookEvents } from "~db/schema";
import { engines } from "../../tests/support/databases";
import { monthlyGiftSiteOnStripe } from "../../tests/support/monthly-gifts";
import { invoiceEvent, subscriptionEvent } from "../../tests/support/stripe-standin";

// A monthly gift on Stripe Billing (decision 089), against the Stripe stand-in at its HTTP boundary:
// the subscription our server asks for, and Stripe's signed webhooks delivered twice, out of order,
// and a failed month that Stripe's retry pays later. The gift is always in the state Stripe reports,
// and no month is recorded twice.

describe.each(engines)("a monthly gift on Stripe Billing, on %s", (engine) => {
  const site = monthlyGiftSiteOnStripe(engine);
  const { clock, start, deliver, giftRow: gift, paidMonths: months } = site;

  it("asks Stripe for a subscription whose first invoice the Payment Element confirms, and later months on the donor's day", async () => {
    const started = await start();
    const [subscription] = [...site.stripe.subscriptions.values()];
    expect(started.clientSecret).toMatch(/_secret_test$/);
    const form = subscription!._form as URLSearchParams;
    expect(form.get("payment_behavior")).toBe("default_incomplete");
    expect(form.get("proration_behavior")).toBe("none");
    expect(form.get("items[0][price_data][unit_amount]")).toBe("1000");
    expect(form.get("items[0][price_data][recurring][interval]")).toBe("month");
    expect(form.get("add_invoice_items[0][price_data][unit_amount]")).toBe("1000");
    // Noon in London on 5 December 2026 (GMT).
    expect(form.get("billing_cycle_anchor")).toBe(String(Date.parse("2026-12-05T12:00:00Z") / 1000));
    expect(form.get("metadata[regular_gift_id]")).toBe(started.regularGiftId);
    expect(
      site.stripe.requests.filter((r) => r.path === "/v1/subscriptions").map((r) => r.headers["idempotency-key"]),
    ).toEqual([`regular-gift-${started.regularGiftId}`]);
    expect(await gift(started.regularGiftId)).toMatchObject({
      status: "incomplete",
      providerSubscriptionId: subscription!.id,
    });
  });

  it("records each month once whatever Stripe delivers twice or out of order, and follows a failed month's retry", async () => {
    const started = await start();
    const { id: subscriptionId, latest_invoice: firstInvoice } = [...site.stripe.subscriptions.values()][0]! as {
      id: string;
      latest_invoice: string;
    };

    // An early invoice.paid, before Stripe took the money, records nothing.
    expect((await deliver(invoiceEvent("evt_early", "invoice.paid", firstInvoice))).status).toBe(200);
    expect(await months(started.regularGiftId)).toEqual([]);

    site.stripe.payInvoice(firstInvoice);
    const answers = await Promise.all([
      deliver(invoiceEvent("evt_paid_1", "invoice.paid", firstInvoice)),
      deliver(invoiceEvent("evt_paid_1", "invoice.paid", firstInvoice)),
      deliver(invoiceEvent("evt_paid_1b", "invoice.paid", firstInvoice)),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await months(started.regularGiftId)).toEqual(["2026-11"]);
    expect((await gift(started.regularGiftId)).status).toBe("active");

    // December's payment fails: Stripe says past_due, and retries.
    clock.set("2026-12-05T12:00:00Z");
    const december = site.stripe.makeInvoice(subscriptionId);
    site.stripe.setSubscriptionStatus(subscriptionId, "past_due");
    await deliver(invoiceEvent("evt_failed", "invoice.payment_failed", december));
    expect((await gift(started.regularGiftId)).status).toBe("failing");

    // Stripe's retry succeeds; its subscription.updated arrives before invoice.paid, and the old
    // failure is delivered again late: the gift stays as Stripe reports it, active.
    clock.set("2026-12-08T12:00:00Z");
    site.stripe.payInvoice(december);
    await deliver(subscriptionEvent("evt_sub_active", "customer.subscription.updated", subscriptionId));
    expect((await gift(started.regularGiftId)).status).toBe("active");
    await deliver(invoiceEvent("evt_failed_late", "invoice.payment_failed", december));
    expect((await gift(started.regularGiftId)).status).toBe("active");
    await deliver(invoiceEvent("evt_paid_2", "invoice.paid", december));
    await deliver(invoiceEvent("evt_paid_2", "invoice.paid", december));
    expect(await months(started.regularGiftId)).toEqual(["2026-11", "2026-12"]);

    const receipts = (await site.database.db.select().from(outbox)).filter((m) => m.kind.startsWith("regular-gift"));
    // The welcome, December's receipt, and one notice of December's failed payment (however often it came).
    expect(receipts.map((m) => m.kind).sort()).toEqual([
      "regular-gift-payment-failed",
      "regular-gift-receipt",
      "regular-gift-welcome",
    ]);

    // Cancelled at Stripe (the dashboard, or Stripe giving up): the gift is cancelled here too.
    site.stripe.setSubscriptionStatus(subscriptionId, "canceled");
    await deliver(subscriptionEvent("evt_deleted", "customer.subscription.deleted", subscriptionId));
    expect(await gift(started.regularGiftId)).toMatchObject({ status: "cancelled" });
    expect((await gift(started.regularGiftId)).cancelledAt).toEqual(clock.now());
    const handled = (await site.database.db.select().from(processedWebhookEvents)).map((e) => e.eventId);
    expect(new Set(handled).size).toBe(handled.length);
  });
});
