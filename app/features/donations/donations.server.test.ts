import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { donations, giftAidDeclarations, offlinePayments, outbox } from "~db/schema";
import type { Services } from "../../../server/services";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../../tests/support/services";
import { signedDelivery, StripeStandIn, succeeded } from "../../../tests/support/stripe-standin";
import { amountMessages } from "./amount";
import { listDonations, settleDonation, startDonation } from "./donations.server";
import { donationMessages, taxpayerStatement } from "./schema";

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const donor = { amount: "10.00", name: "Amina Mushi", email: "amina@example.org" };
const giftAid = {
  giftAid: true,
  firstName: "Amina",
  surname: "Mushi",
  houseNameOrNumber: "Flat 2, Rose Cottage",
  postcode: "m1 1ae",
  scope: "past-four-years-and-future",
};

interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

describe.each(engines)("donations on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:30:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock };
  });
  afterEach(() => database.close());

  const mails = async () =>
    (await database.db.select().from(outbox)).map((row) => row.payload as unknown as QueuedMail);

  it("asks for the validated amount in pence, naming the donation, and records it as pending", async () => {
    const started = await startDonation(deps, { ...donor, amount: "£25.50" });
    expect(started.amountPence).toBe(2550);
    const [payment] = await database.db.select().from(offlinePayments);
    expect(payment).toMatchObject({
      amountPence: 2550,
      currency: "gbp",
      description: `Donation to Kilele Village Trust (${started.donationId})`,
      metadata: { donation_id: started.donationId, gift_aid: "no" },
      receiptEmail: "amina@example.org",
    });
    const [donation] = await database.db.select().from(donations);
    expect(donation).toMatchObject({
      id: started.donationId,
      status: "pending",
      amountPence: 2550,
      donorName: "Amina Mushi",
      email: "amina@example.org",
      providerPaymentId: payment!.id,
    });
    expect(await database.db.select().from(giftAidDeclarations)).toEqual([]);
  });

  it("refuses amounts outside £1 to £10,000 and bad details, storing nothing and asking for no payment", async () => {
    for (const amount of ["0.99", "10000.01", "-10", "1e4", "12.345"]) {
      await expect(startDonation(deps, { ...donor, amount })).rejects.toMatchObject({ code: "invalid" });
    }
    await expect(startDonation(deps, { amount: "0", name: "", email: "x", giftAid: true })).rejects.toMatchObject({
      code: "invalid",
      fields: {
        amount: amountMessages.tooSmall,
        name: donationMessages.name,
        email: donationMessages.email,
        postcode: donationMessages.postcode,
      },
    });
    expect(await database.db.select().from(donations)).toEqual([]);
    expect(await database.db.select().from(offlinePayments)).toEqual([]);
  });

  it("stores the Gift Aid declaration with its date and HMRC's words, linked to the donation", async () => {
    const now = clock.now();
    const started = await startDonation(deps, { ...donor, ...giftAid });
    const [declaration] = await database.db.select().from(giftAidDeclarations);
    expect(declaration).toMatchObject({
      donationId: started.donationId,
      firstName: "Amina",
      surname: "Mushi",
      houseNameOrNumber: "Flat 2, Rose Cottage",
      postcode: "M1 1AE",
      scope: "past-four-years-and-future",
      declaredAt: now,
      cancelledAt: null,
    });
    expect(declaration!.wording).toBe(
      `I want to Gift Aid my donation of £10.00 and any donations I make in the future or have made in the past 4 years to Kilele Village Trust. ${taxpayerStatement}`,
    );
  });

  it("records nothing as paid until the provider says so (a made-up return link pays nothing)", async () => {
    const started = await startDonation(deps, donor);
    expect(await settleDonation(deps, started.donationId)).toMatchObject({
      outcome: "pending",
      status: "requires_payment_method",
    });
    expect(await settleDonation(deps, crypto.randomUUID())).toEqual({ outcome: "unknown" });
    expect(await settleDonation(deps, "not-a-uuid")).toEqual({ outcome: "unknown" });
    expect(await mails()).toEqual([]);
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("pending");
  });

  it("a paid donation settled many times at once is paid once, with one thank-you receipt", async () => {
    const started = await startDonation(deps, { ...donor, ...giftAid });
    await payments.confirmCard(started.clientSecret, card);
    const results = await Promise.all([1, 2, 3, 4].map(() => settleDonation(deps, started.donationId)));
    expect(results.filter((r) => r.outcome === "paid" && r.firstTime)).toHaveLength(1);
    const [donation] = await database.db.select().from(donations);
    expect(donation).toMatchObject({ status: "paid" });
    expect(donation!.paidAt).toBeInstanceOf(Date);

    const sent = await mails();
    expect(sent).toHaveLength(1);
    const receipt = sent[0]!;
    expect(receipt.to).toEqual({ name: "Amina Mushi", address: "amina@example.org" });
    expect(receipt.subject).toBe("Thank you for your donation of £10.00 to Kilele Village Trust");
    expect(receipt.text).toContain("Thank you for your donation of £10.00 to Kilele Village Trust");
    expect(receipt.text).toContain("Kilele Village Trust, registered charity number 1187432");
    expect(receipt.text).toContain(taxpayerStatement);
    expect(receipt.text).toContain("Home address: Flat 2, Rose Cottage, M1 1AE");
    expect(receipt.text).toContain("worth £12.50 to the Trust");
    expect(receipt.text).toContain("To cancel this declaration");
    expect(receipt.html).toContain("registered charity number 1187432");
  });

  it("a receipt without Gift Aid names no declaration, and says what Gift Aid would add and how", async () => {
    const started = await startDonation(deps, donor);
    await payments.confirmCard(started.clientSecret, card);
    await settleDonation(deps, started.donationId);
    const [receipt] = await mails();
    expect(receipt!.text).toContain("registered charity number 1187432");
    expect(receipt!.text).not.toContain("Your Gift Aid declaration");
    expect(receipt!.text).not.toContain("you declared");
    expect(receipt!.text).toContain("Gift Aid: Not declared");
    expect(receipt!.text).toContain("£2.50 on this gift, making it worth £12.50");
  });

  it("the receipt says when it was paid and with which card, as the provider reported it, and keeps the card", async () => {
    const started = await startDonation(deps, donor);
    clock.advance(90_000);
    await payments.confirmCard(started.clientSecret, card);
    await settleDonation(deps, started.donationId);
    const [receipt] = await mails();
    expect(receipt!.text).toContain("Paid on: 22/11/2026 at 10:31");
    expect(receipt!.text).toContain("Card: Visa ending 4242");
    const [donation] = await database.db.select().from(donations);
    expect(donation).toMatchObject({ cardBrand: "visa", cardLast4: "4242" });
    // Nothing more of the card is kept anywhere.
    const [payment] = await database.db.select().from(offlinePayments);
    expect(JSON.stringify(payment)).not.toContain("42424242");
  });

  it("a declined card records nothing as paid", async () => {
    const started = await startDonation(deps, donor);
    const outcome = await payments.confirmCard(started.clientSecret, { ...card, number: "4000 0000 0000 0002" });
    expect(outcome.error).toBe("Your card was declined.");
    expect(await settleDonation(deps, started.donationId)).toMatchObject({ outcome: "pending" });
    expect(await mails()).toEqual([]);
  });

  it("a payment that does not match the donation's amount is never taken as paying for it", async () => {
    const started = await startDonation(deps, donor);
    // As if the payment had been altered to charge £1 for a £10 donation.
    await database.db.update(offlinePayments).set({ amountPence: 100 });
    await payments.confirmCard(started.clientSecret, card);
    expect(await settleDonation(deps, started.donationId)).toMatchObject({
      outcome: "pending",
      status: "amount_mismatch",
    });
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("pending");
    expect(await mails()).toEqual([]);
  });

  it("a second attempt cancels the first's payment, so the donor is never charged twice", async () => {
    const first = await startDonation(deps, donor);
    const second = await startDonation(
      deps,
      { ...donor, amount: "20" },
      {
        donationId: first.donationId,
        clientSecret: first.clientSecret,
      },
    );
    const rows = await database.db.select().from(donations);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [first.donationId]: "cancelled",
      [second.donationId]: "pending",
    });
    const [firstPayment] = await database.db
      .select()
      .from(offlinePayments)
      .where(eq(offlinePayments.clientSecret, first.clientSecret));
    expect(firstPayment!.status).toBe("canceled");
    expect((await payments.confirmCard(first.clientSecret, card)).payment.status).toBe("canceled");
  });

  it("a stranger who knows a donation's id cannot cancel it: only the browser with its client secret can", async () => {
    const donors = await startDonation(deps, donor);
    const [paymentRow] = await database.db.select().from(offlinePayments);
    for (const clientSecret of ["pi_x_secret_guess", `${paymentRow!.id}_secret_000000000000000000000000`, " "]) {
      await startDonation(deps, { ...donor, amount: "20" }, { donationId: donors.donationId, clientSecret });
    }
    const [row] = await database.db.select().from(donations).where(eq(donations.id, donors.donationId));
    expect(row!.status).toBe("pending");
    expect((await payments.confirmCard(donors.clientSecret, card)).payment.status).toBe("succeeded");
  });

  it("lists donations for staff, newest first, with any Gift Aid declaration and what it can claim", async () => {
    clock.set("2026-11-20T09:00:00Z");
    const plain = await startDonation(deps, donor);
    clock.set("2026-11-21T09:00:00Z");
    const aided = await startDonation(deps, { ...donor, ...giftAid, amount: "50" });
    await payments.confirmCard(aided.clientSecret, card);
    await settleDonation(deps, aided.donationId);
    const list = await listDonations(database);
    expect(list.map((d) => [d.id, d.status, d.amountPence])).toEqual([
      [aided.donationId, "paid", 5000],
      [plain.donationId, "pending", 1000],
    ]);
    expect(list[0]!.giftAid).toMatchObject({
      firstName: "Amina",
      surname: "Mushi",
      postcode: "M1 1AE",
      scope: "past-four-years-and-future",
      declaredAt: "2026-11-21T09:00:00.000Z",
      claimablePence: 1250,
    });
    expect(list[1]!.giftAid).toBeNull();
  });
});

/** A webhook delivery as Stripe makes it: through its route (app/routes/api.payments.webhook.ts). */
const paymentWebhook = (services: Services, request: Request) => callRoute(webhookRoute, request, services);

describe.each(engines)("donations through Stripe on %s", (engine) => {
  let database: DatabaseHandle;
  let stripe: StripeStandIn;
  let site: TestServices;
  let deps: Services;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    stripe = await new StripeStandIn().start();
    site = await testServices(database, testClock("2026-11-22T10:30:00Z"), stripeConfigured(stripe.settings()));
    deps = await site.request();
  });
  afterEach(async () => {
    await stripe.stop();
    await site.close();
  });

  it("creates the PaymentIntent on the server: pence, gbp, the donation named, its id in the metadata", async () => {
    const started = await startDonation(deps, { ...donor, amount: "25" });
    const [create] = stripe.requests.filter((r) => r.path === "/v1/payment_intents");
    expect(Object.fromEntries(create!.form)).toEqual({
      amount: "2500",
      currency: "gbp",
      "automatic_payment_methods[enabled]": "true",
      description: `Donation to Kilele Village Trust (${started.donationId})`,
      "metadata[donation_id]": started.donationId,
      "metadata[gift_aid]": "no",
      receipt_email: "amina@example.org",
    });
    expect(create!.headers["idempotency-key"]).toBe(`donation-${started.donationId}`);
  });

  it("a webhook delivered twice, racing the return page, marks the donation paid once with one receipt", async () => {
    const started = await startDonation(deps, donor);
    stripe.setStatus("pi_test_1", "succeeded");
    const [first, second] = await Promise.all([
      paymentWebhook(deps, signedDelivery(succeeded("evt_1", "pi_test_1"))),
      paymentWebhook(deps, signedDelivery(succeeded("evt_2", "pi_test_1"))),
      settleDonation(deps, started.donationId),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const again = await paymentWebhook(deps, signedDelivery(succeeded("evt_1", "pi_test_1")));
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("paid");
    expect(await database.db.select().from(outbox)).toHaveLength(1);
  });

  it("reads the card from the PaymentIntent's latest charge, for the receipt, and keeps only its brand and last four", async () => {
    const started = await startDonation(deps, donor);
    stripe.setStatus("pi_test_1", "succeeded", { brand: "mastercard", last4: "4444" });
    await paymentWebhook(deps, signedDelivery(succeeded("evt_card", "pi_test_1")));
    const reads = stripe.requests.filter((r) => r.method === "GET" && r.path === "/v1/payment_intents/pi_test_1");
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read.query.getAll("expand[0]")).toEqual(["latest_charge"]);
    const [donation] = await database.db.select().from(donations);
    expect(donation).toMatchObject({ id: started.donationId, cardBrand: "mastercard", cardLast4: "4444" });
    const [receipt] = await database.db.select().from(outbox);
    expect((receipt!.payload as unknown as QueuedMail).text).toContain("Card: Mastercard ending 4444");
  });

  it("trusts Stripe, not the payload: a 'succeeded' event for an unpaid intent records nothing", async () => {
    await startDonation(deps, donor);
    const response = await paymentWebhook(deps, signedDelivery(succeeded("evt_3", "pi_test_1")));
    expect(response.status).toBe(200);
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("pending");
    expect(await database.db.select().from(outbox)).toEqual([]);
  });

  it("a succeeded intent for another amount than the donation's is not taken as paying for it", async () => {
    await startDonation(deps, { ...donor, amount: "100" });
    stripe.intents.get("pi_test_1")!.amount = 100;
    stripe.setStatus("pi_test_1", "succeeded");
    await paymentWebhook(deps, signedDelivery(succeeded("evt_4", "pi_test_1")));
    const [donation] = await database.db.select().from(donations);
    expect(donation!.status).toBe("pending");
    expect(await database.db.select().from(outbox)).toEqual([]);
  });
});
