import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { auditLog, donations, regularGiftLinks, regularGifts } from "~db/schema";
import type { Services } from "../../../server/services";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { stripeConfigured, testServices, type TestServices } from "../../../tests/support/services";
import { webhookSecret } from "../../../tests/support/stripe-standin";
import {
  changeGiftAmount,
  changeGiftDay,
  finishGiftCardChange,
  pauseGift,
  resumeGift,
  startGiftCardChange,
} from "./gift-changes.server";
import { followSubscription, giftLinkHash } from "./regular-gifts.server";

// A donor's changes on Stripe (decision 090), at Stripe's HTTP boundary: a local server stands in
// for Stripe's API and records what our adapter asks. The amount is the item's new price, a new
// day moves the billing anchor by `trial_end`, a pause is `pause_collection`, a card is a
// SetupIntent saved as the subscription's default only once Stripe says it succeeded, and
// `customer.subscription.updated` reads a pause back.

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
}

/** Stripe's subscriptions, products and SetupIntents, as far as a gift's changes ask for them. */
class SubscriptionStandIn {
  readonly requests: Recorded[] = [];
  readonly subscription: Record<string, unknown> = {
    id: "sub_1",
    object: "subscription",
    customer: "cus_1",
    status: "active",
    metadata: {},
    pause_collection: null,
    items: { object: "list", data: [{ id: "si_1", object: "subscription_item" }] },
  };
  setup: Record<string, unknown> = {};
  private server?: http.Server;
  url = "";

  async start() {
    this.server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const path = (req.url ?? "").split("?")[0]!;
        const form = new URLSearchParams(body);
        this.requests.push({ method: req.method ?? "", path, form });
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json" });
          res.end(JSON.stringify(json));
        };
        if (path === "/v1/products/kilele-monthly-gift")
          return reply(200, { id: "kilele-monthly-gift", object: "product" });
        if (path === "/v1/subscriptions/sub_1") return reply(200, this.subscription);
        if (req.method === "POST" && path === "/v1/setup_intents") {
          this.setup = {
            id: "seti_1",
            object: "setup_intent",
            client_secret: "seti_1_secret_x",
            customer: form.get("customer"),
            status: "requires_payment_method",
            metadata: { subscription_id: form.get("metadata[subscription_id]") },
            payment_method: null,
          };
          return reply(200, this.setup);
        }
        if (path === "/v1/setup_intents/seti_1") return reply(200, this.setup);
        reply(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${path})` } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  updates() {
    return this.requests.filter((r) => r.method === "POST" && r.path === "/v1/subscriptions/sub_1").map((r) => r.form);
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe.each(engines)("a donor's changes on Stripe, on %s", (engine) => {
  const clock = testClock("2026-11-27T20:00:00Z");
  let database: DatabaseHandle;
  let stripe: SubscriptionStandIn;
  let site: TestServices;
  let services: Services;
  const giftId = crypto.randomUUID();
  const token = crypto.randomBytes(32).toString("base64url");

  beforeEach(async () => {
    clock.set("2026-11-27T20:00:00Z");
    database = await freshDatabase(engine);
    stripe = await new SubscriptionStandIn().start();
    site = await testServices(
      database,
      clock,
      stripeConfigured({ secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret, apiUrl: stripe.url }),
    );
    services = await site.request();
    const now = clock.now();
    await database.db.insert(regularGifts).values({
      id: giftId,
      amountPence: 1000,
      dayOfMonth: 15,
      donorName: "Amina Mushi",
      email: "amina@example.org",
      status: "active",
      provider: "stripe",
      providerCustomerId: "cus_1",
      providerSubscriptionId: "sub_1",
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(donations).values({
      id: crypto.randomUUID(),
      amountPence: 1000,
      donorName: "Amina Mushi",
      email: "amina@example.org",
      status: "paid",
      provider: "stripe",
      regularGiftId: giftId,
      billingMonth: "2026-11",
      paidAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(regularGiftLinks).values({
      tokenHash: giftLinkHash(token),
      regularGiftId: giftId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
  });
  afterEach(async () => {
    await site.close();
    await stripe.stop();
  });

  const gift = async () => (await database.db.select().from(regularGifts).where(eq(regularGifts.id, giftId)))[0]!;

  it("gives the item a new price from the next invoice, with nothing prorated", async () => {
    await changeGiftAmount(services, token, { amount: "15" });
    const [update] = stripe.updates();
    expect(update?.get("items[0][id]")).toBe("si_1");
    expect(update?.get("items[0][price_data][unit_amount]")).toBe("1500");
    expect(update?.get("items[0][price_data][currency]")).toBe("gbp");
    expect(update?.get("items[0][price_data][recurring][interval]")).toBe("month");
    expect(update?.get("proration_behavior")).toBe("none");
    expect((await gift()).amountPence).toBe(1500);
  });

  it("moves the billing anchor to the new day's next payment", async () => {
    await changeGiftDay(services, token, { dayOfMonth: "1" });
    const [update] = stripe.updates();
    expect(update?.get("trial_end")).toBe(String(Math.floor(Date.parse("2026-12-01T12:00:00Z") / 1000)));
    expect(update?.get("proration_behavior")).toBe("none");
    expect((await gift()).dayOfMonth).toBe(1);
  });

  it("pauses collection until the day of the first payment after the pause, and resumes it", async () => {
    await pauseGift(services, token, { months: "1" });
    const [pause] = stripe.updates();
    expect(pause?.get("pause_collection[behavior]")).toBe("void");
    // The start of 15 January 2027 in London: January's invoice is collected.
    expect(pause?.get("pause_collection[resumes_at]")).toBe(String(Date.parse("2027-01-15T00:00:00Z") / 1000));
    expect(await gift()).toMatchObject({ status: "paused" });
    await resumeGift(services, token);
    expect(stripe.updates()[1]?.get("pause_collection")).toBe("");
    expect(await gift()).toMatchObject({ status: "active", pausedUntil: null });
  });

  it("saves a new card only once Stripe says its SetupIntent succeeded", async () => {
    expect(await startGiftCardChange(services, token)).toEqual({ setupId: "seti_1", clientSecret: "seti_1_secret_x" });
    const create = stripe.requests.find((r) => r.path === "/v1/setup_intents")!;
    expect(create.form.get("customer")).toBe("cus_1");
    expect(create.form.get("usage")).toBe("off_session");

    // The browser says it is done, but Stripe does not: nothing is saved.
    await expect(finishGiftCardChange(services, token, "seti_1")).rejects.toThrow(
      "Your card was not confirmed, so nothing has changed.",
    );
    expect(stripe.updates()).toEqual([]);
    expect(await database.db.$count(auditLog)).toBe(0);

    stripe.setup = {
      ...stripe.setup,
      status: "succeeded",
      payment_method: { id: "pm_1", object: "payment_method", card: { brand: "visa", last4: "4242" } },
    };
    const saved = await finishGiftCardChange(services, token, "seti_1");
    expect(saved.message).toContain("your Visa card ending 4242");
    expect(stripe.updates()[0]?.get("default_payment_method")).toBe("pm_1");
    expect(await database.db.$count(auditLog, eq(auditLog.action, "regular-gift.card-changed"))).toBe(1);
  });

  it("follows a pause Stripe reports, its end, and a price changed there", async () => {
    stripe.subscription.pause_collection = {
      behavior: "void",
      resumes_at: Math.floor(Date.parse("2027-02-15T00:00:00Z") / 1000),
    };
    await followSubscription(services, "sub_1");
    expect(await gift()).toMatchObject({ status: "paused", pausedUntil: new Date("2027-02-15T00:00:00Z") });
    stripe.subscription.pause_collection = null;
    await followSubscription(services, "sub_1");
    expect(await gift()).toMatchObject({ status: "active", pausedUntil: null });
    // A price changed at Stripe (by hand, in its dashboard) is the gift's amount from then on.
    stripe.subscription.items = {
      object: "list",
      data: [{ id: "si_1", object: "subscription_item", price: { id: "price_2", object: "price", unit_amount: 2000 } }],
    };
    await followSubscription(services, "sub_1");
    expect(await gift()).toMatchObject({ status: "active", amountPence: 2000 });
  });
});
