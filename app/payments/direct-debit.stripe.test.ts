import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { giftLinkHash } from "~/features/donations/gift-links.server";
import { giftChangeMessages } from "~/features/donations/gift-changes.server";
import { regularGiftMessages } from "~/features/donations/schema";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { loader as givingLoader } from "~/routes/giving.token";
import { loader as paymentPage } from "~/routes/payment";
import { auditLog, donations, outbox, regularGiftLinks, regularGifts } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { jsonPost, sendGiftPageForm } from "../../tests/support/monthly-gifts";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../tests/support/services";
import {
  invoiceEvent,
  mandateEvent,
  signedDelivery,
  StripeStandIn,
  subscriptionEvent,
} from "../../tests/support/stripe-standin";

// A monthly gift by Bacs Direct Debit on Stripe (decision 092), against the Stripe stand-in at its
// HTTP boundary: offered only when the account has the capability (and card still works when Stripe
// cannot say), a subscription whose invoices are collected by Bacs, a first payment that sits in
// `processing` until invoice.paid, a mandate the bank stops (mandate.updated), a failed Bacs month,
// and new bank details through Checkout's setup mode. Stripe's own Bacs e-mails are the default;
// the site sends its own only when STRIPE_BACS_OWN_NOTICES is set.

const donor = { amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email: "amina@example.org" };

describe.each(engines)("a monthly gift by Direct Debit on Stripe, on %s", (engine) => {
  // Friday 27 November 2026, 20:00 in London.
  const clock = testClock("2026-11-27T20:00:00Z");
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let services: Services;

  async function open(env: Record<string, string> = {}) {
    site = await testServices(database, clock, {
      ...stripeConfigured(stripe.settings()),
      PUBLIC_URL: "https://kilele.example",
      ...env,
    });
    services = await site.request();
  }
  beforeEach(async () => {
    clock.set("2026-11-27T20:00:00Z");
    database = await freshDatabase(engine);
    stripe = await new StripeStandIn(clock).start();
  });
  afterEach(async () => {
    await site.close();
    await stripe.stop();
  });

  const deliver = async (event: object) => (await callRoute(webhookRoute, signedDelivery(event), services)).status;
  const gift = async (id: string) => (await database.db.select().from(regularGifts).where(eq(regularGifts.id, id)))[0]!;
  const mails = async () => (await database.db.select().from(outbox)).map((mail) => mail.kind).sort();
  async function start(payBy: string) {
    return callRoute(giftsRoute, jsonPost("/api/regular-gifts", { ...donor, payBy }), services);
  }
  async function started() {
    const response = await start("direct-debit");
    expect(response.status, await response.clone().text()).toBe(201);
    const { regularGiftId } = (await response.json()) as { regularGiftId: string };
    const subscription = [...stripe.subscriptions.values()].at(-1)! as { id: string; latest_invoice: string };
    return { giftId: regularGiftId, subscriptionId: subscription.id, firstInvoice: subscription.latest_invoice };
  }
  const returnPage = (giftId: string) =>
    callRoute(
      paymentPage,
      new Request(`http://localhost/payment?amount=10.00&give=monthly&gift=${giftId}`),
      services,
    ) as unknown as Promise<{ view: Record<string, unknown> }>;
  /** A Direct Debit gift whose first invoice Stripe collected by Bacs and has said is paid. */
  async function paidByBacs() {
    const gift = await started();
    const mandateId = stripe.collectByBacs(gift.firstInvoice);
    await returnPage(gift.giftId);
    stripe.payInvoice(gift.firstInvoice);
    await deliver(invoiceEvent("evt_paid", "invoice.paid", gift.firstInvoice));
    return { ...gift, mandateId };
  }
  /** The token of a private link to the gift's page, good for 30 days. */
  async function givingLink(giftId: string) {
    const token = "t".repeat(43);
    await database.db.insert(regularGiftLinks).values({
      tokenHash: giftLinkHash(token),
      regularGiftId: giftId,
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 30 * 86_400_000),
    });
    return token;
  }
  /** A form on the gift's page sent with `fields`: a redirect, or the page's answer. */
  const sendForm = (token: string, fields: Record<string, string>) =>
    sendGiftPageForm<Response | { data: { ok: boolean; message: string } }>(services, token, fields);

  it("offers Direct Debit only when the account can take it, and card gifts still start when Stripe cannot say", async () => {
    stripe.accountFails = true;
    await open();
    const form = (await callRoute(
      paymentPage,
      new Request("http://localhost/payment?amount=10.00&give=monthly&pay=direct-debit"),
      services,
    )) as unknown as { view: { payBy: string; bacsOffered: boolean } };
    expect(form.view).toMatchObject({ payBy: "card", bacsOffered: false });
    const refused = await start("direct-debit");
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: Record<string, string> }).fields.payBy).toBe(regularGiftMessages.payBy);
    expect((await start("card")).status).toBe(201);
    // Asked once (the SDK tries a failing request three times), then believed for a while.
    const reads = stripe.requests.filter((r) => r.path === "/v1/account").length;
    expect(reads).toBe(3);
  });

  it("collects the first invoice by Bacs: processing until invoice.paid, its mandate read back, Stripe's e-mails by default", async () => {
    await open();
    const { giftId, subscriptionId, firstInvoice } = await started();
    const form = (stripe.subscriptions.get(subscriptionId)!._form as URLSearchParams) ?? new URLSearchParams();
    expect(form.get("payment_settings[payment_method_types][0]")).toBe("bacs_debit");
    expect(form.get("payment_settings[save_default_payment_method]")).toBe("on_subscription");
    // A new mandate's first collection waits for the bank: the second is on the 15th of December.
    expect(form.get("billing_cycle_anchor")).toBe(String(Date.parse("2026-12-15T12:00:00Z") / 1000));

    // The Payment Element confirmed the first invoice's payment with bank details: it is processing.
    const mandateId = stripe.collectByBacs(firstInvoice);
    const page = await returnPage(giftId);
    expect(page.view).toMatchObject({ kind: "direct-debit", first: "Monday 7 December 2026", noticeBySite: false });
    expect(await gift(giftId)).toMatchObject({
      status: "incomplete",
      paymentMethod: "bacs_debit",
      providerMandateId: mandateId,
      bankAccountName: "Amina Mushi",
      bankSortCode: "108800",
      bankLast4: "2345",
      mandateStatus: "pending",
    });
    // Stripe sends its own Bacs e-mails: the site sends no confirmation of its own.
    expect(await mails()).toEqual([]);
    expect(await deliver(invoiceEvent("evt_early", "invoice.paid", firstInvoice))).toBe(200);
    expect(await database.db.select().from(donations).where(eq(donations.status, "paid"))).toEqual([]);

    // Days later Stripe says it is paid, and the mandate is active.
    clock.set("2026-12-07T20:00:00Z");
    stripe.payInvoice(firstInvoice);
    stripe.setMandateStatus(mandateId, "active");
    expect(await deliver(mandateEvent("evt_mandate_active", mandateId))).toBe(200);
    expect(await deliver(invoiceEvent("evt_paid", "invoice.paid", firstInvoice))).toBe(200);
    expect(await gift(giftId)).toMatchObject({ status: "active", mandateStatus: "active" });
    const [welcome] = await database.db.select().from(outbox).where(eq(outbox.kind, "regular-gift-welcome"));
    expect(JSON.stringify(welcome!.payload)).toContain("Direct Debit from account ••••2345, sort code 10-88-00");
  });

  it("sends the site's own confirmation of the Instruction when the charity's own notices replace Stripe's", async () => {
    await open({ STRIPE_BACS_OWN_NOTICES: "true" });
    const { giftId, firstInvoice } = await started();
    const mandateId = stripe.collectByBacs(firstInvoice);
    // mandate.updated reaches us before the donor is back: it records the mandate and its confirmation, once.
    expect(await deliver(mandateEvent("evt_mandate", mandateId))).toBe(200);
    expect((await returnPage(giftId)).view).toMatchObject({ kind: "direct-debit", noticeBySite: true });
    expect(await mails()).toEqual(["regular-gift-mandate"]);
  });

  it("a mandate the bank stops (mandate.updated to inactive) fails the gift once, and a later subscription.updated keeps it failing", async () => {
    await open();
    const { giftId, subscriptionId, mandateId } = await paidByBacs();

    stripe.setMandateStatus(mandateId, "inactive");
    await deliver(mandateEvent("evt_inactive", mandateId));
    await deliver(mandateEvent("evt_inactive_again", mandateId));
    expect(await gift(giftId)).toMatchObject({ status: "failing", mandateStatus: "inactive" });
    const told = (await mails()).filter((kind) => kind === "regular-gift-mandate-inactive");
    expect(told).toHaveLength(1);
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`));
    expect(entries.filter((entry) => entry.action === "regular-gift.mandate-inactive")).toHaveLength(1);
    // Stripe still calls the subscription active until a payment fails: it cannot be collected, so it stays failing.
    await deliver(subscriptionEvent("evt_sub", "customer.subscription.updated", subscriptionId));
    expect((await gift(giftId)).status).toBe("failing");
  });

  it("a Bacs month that fails (invoice.payment_failed) fails the gift and tells the donor once, about bank details", async () => {
    await open();
    const { giftId, subscriptionId } = await paidByBacs();

    clock.set("2026-12-15T12:00:00Z");
    const december = stripe.makeInvoice(subscriptionId);
    stripe.setSubscriptionStatus(subscriptionId, "past_due");
    await deliver(invoiceEvent("evt_failed", "invoice.payment_failed", december));
    await deliver(invoiceEvent("evt_failed_retry", "invoice.payment_failed", december));
    expect((await gift(giftId)).status).toBe("failing");
    const notices = await database.db.select().from(outbox).where(eq(outbox.kind, "regular-gift-payment-failed"));
    expect(notices).toHaveLength(1);
    const text = JSON.stringify(notices[0]!.payload);
    expect(text).toContain("Your bank did not pay this month's Direct Debit of £10.00");
    expect(text).toContain("new bank details");
  });

  it("changes the bank details through Checkout's setup mode, saved only once Stripe says the new mandate is set up", async () => {
    await open();
    const { giftId, subscriptionId } = await paidByBacs();
    const token = await givingLink(giftId);

    // To Checkout: a setup session for Bacs on the gift's customer, back to the gift's page.
    const sent = (await sendForm(token, { intent: "bank-start" })) as Response;
    expect(sent.status).toBe(302);
    const session = [...stripe.sessions.values()][0]!;
    expect(sent.headers.get("Location")).toBe(session.url);
    const form = session._form as URLSearchParams;
    expect(form.get("mode")).toBe("setup");
    expect(form.get("allowed_payment_method_types[0]")).toBe("bacs_debit");
    expect(form.get("currency")).toBe("gbp");
    expect(form.get("customer")).toBe(stripe.subscriptions.get(subscriptionId)!.customer);
    expect(form.get("success_url")).toBe(`https://kilele.example/giving/${token}?bank_session={CHECKOUT_SESSION_ID}`);

    // Back without finishing: nothing is saved.
    const early = (await sendForm(token, { intent: "bank-finish", session: String(session.id) })) as {
      data: { ok: boolean; message: string };
    };
    expect(early.data).toMatchObject({
      ok: false,
      message: "Your new bank details were not confirmed, so nothing has changed.",
    });

    // The return page asks to save (a GET saves nothing); the save reads the session from Stripe.
    const { methodId, mandateId } = stripe.completeCheckoutSetup(String(session.id), {
      name: "Amina Mushi",
      sortCode: "108800",
      last4: "6789",
    });
    const page = (await callRoute(
      givingLoader,
      new Request(`http://localhost/giving/${token}?bank_session=${String(session.id)}`),
      services,
      { params: { token } },
    )) as unknown as { returnedBankSession: string };
    expect(page.returnedBankSession).toBe(session.id);
    expect((await gift(giftId)).providerMandateId).not.toBe(mandateId);
    const saved = (await sendForm(token, { intent: "bank-finish", session: String(session.id) })) as {
      data: { ok: boolean; message: string };
    };
    expect(saved.data.message).toContain(
      "Your new bank details are saved: your gift is collected from account ••••6789",
    );
    expect(stripe.subscriptions.get(subscriptionId)!.default_payment_method).toBe(methodId);
    expect(await gift(giftId)).toMatchObject({ providerMandateId: mandateId, bankLast4: "6789" });
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`));
    expect(entries.map((entry) => entry.action)).toContain("regular-gift.bank-changed");
    // Stripe e-mails its own confirmation of the new Instruction; the site's letter says what changed.
    expect(await mails()).toContain("regular-gift-changed");
    expect(await mails()).not.toContain("regular-gift-mandate");
  });

  /** A paid Direct Debit gift, and £15 asked for on Monday 14 December, inside the notice of the 15th's collection. */
  async function fifteenJustBefore() {
    const { giftId } = await paidByBacs();
    const token = await givingLink(giftId);
    clock.set("2026-12-14T10:00:00Z");
    const answer = (await sendForm(token, { intent: "amount", amount: "15" })) as {
      data: { ok: boolean; message: string };
    };
    return { answer: answer.data, stored: await gift(giftId) };
  }

  it("a new amount just before a collection is Stripe's to give notice of, with Stripe's own Bacs e-mails", async () => {
    await open();
    const { answer, stored } = await fifteenJustBefore();
    expect(answer.message).toBe("Your gift is now £15.00 a month, from your next payment on Tuesday 15 December 2026.");
    expect(stored.amountPence).toBe(1500);
  });

  it("a new amount just before a collection waits, where the site sends the notices for Stripe", async () => {
    await open({ STRIPE_BACS_OWN_NOTICES: "true" });
    const { answer, stored } = await fifteenJustBefore();
    expect(answer).toMatchObject({ ok: false, message: giftChangeMessages.tooSoonOnStripe });
    expect(stored.amountPence).toBe(1000);
  });
});
