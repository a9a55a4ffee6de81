import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, stripeConfigured, testServices, type TestServices } from "../../tests/support/services";
import { loader } from "./mock-event";

// /mock-event's notice follows the payment mode (PRODUCT.md): real money only where real card
// payments are configured; a site taking test cards says so, as its banner does.

describe.each(engines)("the test events page on %s", (engine) => {
  let database: DatabaseHandle;
  let site: TestServices | undefined;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  const notice = async (env: Record<string, string>) => {
    site = await testServices(database, testClock("2026-11-27T10:00:00Z"), env);
    const page = await callRoute(loader, new Request("http://localhost/mock-event"), await site.request());
    return page.notice;
  };

  it("says only test cards are taken on a site without real payments", async () => {
    expect(await notice({})).toBe(
      "These events are for testing the booking system. The event is not real, and no real money is charged: this site takes only test cards.",
    );
  });

  it("says real money will be charged where Stripe takes the payments", async () => {
    const stripe = stripeConfigured({
      secretKey: "sk_test_mock_event",
      publishableKey: "pk_test_mock_event",
      webhookSecret: "whsec_mock_event",
      apiUrl: "http://127.0.0.1:9",
    });
    expect(await notice(stripe)).toBe(
      "These events are for testing the booking system. The event is not real, but real money will be charged for any ticket you buy here.",
    );
  });
});
