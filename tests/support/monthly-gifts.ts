import { afterEach, beforeEach, expect } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { action as confirmRoute } from "~/routes/api.payments.offline.confirm";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { action as giftPageAction } from "~/routes/giving.token";
import { action as webhookRoute } from "~/routes/api.payments.webhook";
import { donations, regularGifts } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock, type TestClock } from "./clock";
import { freshDatabase, type Engine } from "./databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "./services";
import { signedDelivery, StripeStandIn } from "./stripe-standin";
import { TestSmtpServer } from "./smtp";

/** Amina's £10 monthly gift on the 15th with a Gift Aid declaration, as the giving page sends it. */
export const monthlyDonor = {
  amount: "10.00",
  dayOfMonth: "15",
  name: "Amina Mushi",
  email: "amina@example.org",
  giftAid: true,
  firstName: "Amina",
  surname: "Mushi",
  houseNameOrNumber: "Rose Cottage",
  postcode: "m1 1ae",
};

/** The offline provider's test card that always pays. */
export const goodCard = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

/** A JSON POST to the site's `url`, as the site's own scripts send one; `cookie` for staff's. */
export const jsonPost = (url: string, body: unknown, cookie?: string) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie && { Cookie: cookie }) },
    body: JSON.stringify(body),
  });

/** The token of the donor's private link to their gift's page in an e-mail's `text`. */
export const giftLinkToken = (text: string) => /\/giving\/([\w-]+)/.exec(text)![1]!;

/** A form on the donor's own gift page (/giving/:token) sent with `fields`, answered as its action answers. */
export async function sendGiftPageForm<Answer>(
  services: Services,
  token: string,
  fields: Record<string, string>,
): Promise<Answer> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const request = new Request(`http://localhost/giving/${token}`, { method: "POST", body });
  return (await callRoute(giftPageAction, request, services, { params: { token } })) as Answer;
}

/** What POST /api/regular-gifts answers for a gift it started. */
export interface StartedGift {
  regularGiftId: string;
  donationId: string;
  clientSecret: string;
}

/** The site taking monthly gifts on the offline provider, made afresh for each test. */
export interface MonthlyGiftSite {
  /** Stands at 20:00 in London on Friday 27 November 2026 when each test starts. */
  readonly clock: TestClock;
  /** This test's database, the services a request gets, and the SMTP server the site's mail reaches. */
  database: DatabaseHandle;
  services: Services;
  smtp: TestSmtpServer;
  /** POST /api/regular-gifts with `body`, which must start the gift. */
  start(body?: Record<string, unknown>): Promise<StartedGift>;
  /** The offline provider's payment form sent for a started gift: a card, or bank details for a Direct Debit. */
  confirm(gift: { clientSecret: string }, payment: { card: typeof goodCard } | { bank: object }): Promise<Response>;
  /** A gift started with `body` and its first month paid by the good card. */
  giveByCard(body?: Record<string, unknown>): Promise<StartedGift>;
}

/**
 * The site's own services on a fresh `engine` database for each test of the describe block this is
 * called in, sending mail to a real SMTP server, and the gift routes called as the browser calls them.
 */
export function monthlyGiftSite(engine: Engine): MonthlyGiftSite {
  const startsAt = "2026-11-27T20:00:00Z";
  let running: TestServices;
  const site = {
    clock: testClock(startsAt),
    async start(body: Record<string, unknown> = monthlyDonor) {
      const started = await callRoute(giftsRoute, jsonPost("/api/regular-gifts", body), site.services);
      expect(started.status, await started.clone().text()).toBe(201);
      return (await started.json()) as StartedGift;
    },
    confirm: (gift: { clientSecret: string }, payment: { card: typeof goodCard } | { bank: object }) =>
      callRoute(
        confirmRoute,
        jsonPost("/api/payments/offline/confirm", { clientSecret: gift.clientSecret, ...payment }),
        site.services,
      ),
    async giveByCard(body: Record<string, unknown> = monthlyDonor) {
      const gift = await site.start(body);
      expect(await (await site.confirm(gift, { card: goodCard })).json()).toEqual({ status: "succeeded" });
      return gift;
    },
  } as MonthlyGiftSite;

  beforeEach(async () => {
    site.clock.set(startsAt);
    site.database = await freshDatabase(engine);
    site.smtp = await new TestSmtpServer().start();
    running = await testServices(site.database, site.clock, {
      SMTP_URL: site.smtp.url,
      PUBLIC_URL: "https://kilele.example",
    });
    site.services = await running.request();
  });
  afterEach(async () => {
    await running.close();
    await site.smtp.stop();
  });
  return site;
}

/** The site taking monthly gifts on Stripe Billing, against the Stripe stand-in, made afresh for each test. */
export interface MonthlyGiftSiteOnStripe {
  /** Stands at 20:00 in London on Friday 27 November 2026 when each test starts. */
  readonly clock: TestClock;
  database: DatabaseHandle;
  services: Services;
  stripe: StripeStandIn;
  /** Amina's £10 gift on the 5th started through POST /api/regular-gifts, and the subscription Stripe made for it. */
  start(): Promise<StartedGift & { subscriptionId: string; firstInvoice: string }>;
  /** A Stripe event, signed, delivered to the site's webhook. */
  deliver(event: object): Promise<{ status: number; body: unknown }>;
  /** The gift's row as it stands. */
  giftRow(id: string): Promise<typeof regularGifts.$inferSelect>;
  /** The months (YYYY-MM) recorded as paid for the gift, oldest first. */
  paidMonths(id: string): Promise<(string | null)[]>;
}

/** The site's own services on a fresh `engine` database for each test, its payments Stripe's stand-in. */
export function monthlyGiftSiteOnStripe(engine: Engine): MonthlyGiftSiteOnStripe {
  const startsAt = "2026-11-27T20:00:00Z";
  let running: TestServices;
  const site = {
    clock: testClock(startsAt),
    async start() {
      const body = { amount: "10.00", dayOfMonth: "5", name: "Amina Mushi", email: "amina@example.org" };
      const response = await callRoute(giftsRoute, jsonPost("/api/regular-gifts", body), site.services);
      expect(response.status, await response.clone().text()).toBe(201);
      const started = (await response.json()) as StartedGift;
      const subscription = [...site.stripe.subscriptions.values()].at(-1)! as { id: string; latest_invoice: string };
      return { ...started, subscriptionId: subscription.id, firstInvoice: subscription.latest_invoice };
    },
    async deliver(event: object) {
      const response = await callRoute(webhookRoute, signedDelivery(event), site.services);
      return { status: response.status, body: (await response.json()) as unknown };
    },
    giftRow: async (id: string) =>
      (await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, id)))[0]!,
    paidMonths: async (id: string) =>
      (await site.database.db.select().from(donations).where(eq(donations.regularGiftId, id)))
        .filter((donation) => donation.status === "paid")
        .map((donation) => donation.billingMonth)
        .sort(),
  } as MonthlyGiftSiteOnStripe;

  beforeEach(async () => {
    site.clock.set(startsAt);
    site.database = await freshDatabase(engine);
    site.stripe = await new StripeStandIn(site.clock).start();
    running = await testServices(site.database, site.clock, stripeConfigured(site.stripe.settings()));
    site.services = await running.request();
  });
  afterEach(async () => {
    await running.close();
    await site.stripe.stop();
  });
  return site;
}
