import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { action as confirmRoute } from "~/routes/api.payments.offline.confirm";
import { loader as givingPage } from "~/routes/giving.token";
import { loader as paymentPage } from "~/routes/payment";
import type { Services } from "../../server/services";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../tests/support/services";

// /payment's Give once or Give monthly (decision 089): the choice is in the address, so it works
// without JavaScript; the monthly form offers today's day; the donor's return shows the thank-you.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

// The page decides this before the database does: once, on the run's first engine (decision 079).
describe.each(engines.slice(0, 1))("the Donate page's monthly gift, on %s", (engine) => {
  const clock = testClock("2026-11-27T20:00:00Z");
  let database: DatabaseHandle;
  let site: TestServices;
  let services: Services;

  beforeEach(async () => {
    clock.set("2026-11-27T20:00:00Z");
    database = await freshDatabase(engine);
    site = await testServices(database, clock);
    services = await site.request();
  });
  afterEach(async () => {
    await site.close();
  });

  const open = async (query: string) => {
    try {
      return await callRoute(paymentPage, new Request(`http://localhost/payment${query}`), services);
    } catch (thrown) {
      if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
      throw thrown;
    }
  };

  it("keeps the choice in the address, and offers today's day, or the 28th late in a long month", async () => {
    expect(await open("?amount=10&give=monthly")).toEqual({ redirect: "/payment?amount=10.00&give=monthly" });
    expect(await open("?give=monthly")).toMatchObject({ monthly: true, view: { kind: "choose" } });
    expect(await open("?amount=10.00")).toMatchObject({ monthly: false, view: { kind: "form" } });
    expect(await open("?amount=10.00&give=monthly")).toMatchObject({
      monthly: true,
      view: { kind: "form", amountPence: 1000, suggestedDay: 27 },
    });
    clock.set("2027-01-30T23:30:00Z");
    expect(await open("?amount=10.00&give=monthly")).toMatchObject({ view: { suggestedDay: 28 } });
  });

  it("thanks the donor back from the first payment with the next payment's date, and knows no made-up gift", async () => {
    const started = await callRoute(
      giftsRoute,
      new Request("http://localhost/api/regular-gifts", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ amount: "10.00", dayOfMonth: "5", name: "Amina Mushi", email: "amina@example.org" }),
      }),
      services,
    );
    const gift = (await started.json()) as { regularGiftId: string; clientSecret: string };
    expect(await open(`?amount=10.00&give=monthly&gift=${gift.regularGiftId}`)).toMatchObject({
      view: { kind: "status", retry: false },
    });
    await callRoute(
      confirmRoute,
      new Request("http://localhost/api/payments/offline/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ clientSecret: gift.clientSecret, card }),
      }),
      services,
    );
    expect(await open(`?amount=10.00&give=monthly&gift=${gift.regularGiftId}`)).toMatchObject({
      view: {
        kind: "thanks",
        amountPence: 1000,
        giftAidPence: null,
        monthly: { day: 5, next: "Saturday 5 December 2026" },
      },
    });
    expect(await open(`?gift=${crypto.randomUUID()}`)).toMatchObject({ view: { kind: "unknown" } });
    expect(await open("?gift=not-an-id")).toMatchObject({ view: { kind: "unknown" } });
    const page = await callRoute(
      givingPage,
      new Request("http://localhost/giving/made-up-token-made-up-token"),
      services,
      {
        params: { token: "made-up-token-made-up-token" },
      },
    );
    expect(page.gift).toBeUndefined();
  });
});
