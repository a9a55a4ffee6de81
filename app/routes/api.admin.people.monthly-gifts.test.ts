import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { takeDueGiftPayments } from "~/features/donations/regular-gifts.server";
import { donationsReadyToClaim } from "~/features/donations/gift-aid-claims.server";
import { action as eraseRoute } from "~/routes/api.admin.people.erase";
import { loader as exportRoute } from "~/routes/api.admin.people";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { action as confirmRoute } from "~/routes/api.payments.offline.confirm";
import { offlineSubscriptions, regularGiftLinks, regularGifts } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../tests/support/services";

// A person's data and a monthly gift (decision 089): the export lists the gift and marks each
// month's donation; erasure cancels the gift at the provider first, so no further month is taken,
// and keeps the declaration and donations Gift Aid still needs.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const post = (url: string, body: unknown, cookie?: string) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie && { Cookie: cookie }) },
    body: JSON.stringify(body),
  });

describe.each(engines)("a person's monthly gift, exported and erased, on %s", (engine) => {
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

  it("exports the gift, and erasure stops it at the provider and keeps what Gift Aid needs", async () => {
    const started = await callRoute(
      giftsRoute,
      post("/api/regular-gifts", {
        amount: "10.00",
        dayOfMonth: "3",
        name: "Amina Mushi",
        email: "amina@example.org",
        giftAid: true,
        firstName: "Amina",
        surname: "Mushi",
        houseNameOrNumber: "Rose Cottage",
        postcode: "M1 1AE",
      }),
      services,
    );
    const gift = (await started.json()) as { regularGiftId: string; clientSecret: string };
    await callRoute(confirmRoute, post("/api/payments/offline/confirm", { ...gift, card }), services);
    clock.set("2026-12-03T13:00:00Z");
    expect(await takeDueGiftPayments(services)).toHaveLength(1);

    const { cookie } = await signedInStaff(database.db, clock.now());
    const exported = await callRoute(
      exportRoute,
      new Request("http://localhost/api/admin/people?email=amina@example.org", { headers: { Cookie: cookie } }),
      services,
    );
    const data = (await exported.json()) as {
      regularGifts: { giftReference: string; amount: string; dayOfMonth: number; status: string }[];
      donations: { monthlyGiftReference: string | null; month: string | null }[];
    };
    expect(data.regularGifts).toMatchObject([
      { giftReference: gift.regularGiftId, amount: "£10.00", dayOfMonth: 3, status: "active" },
    ]);
    expect(data.donations.map((d) => [d.monthlyGiftReference, d.month]).sort()).toEqual([
      [gift.regularGiftId, "2026-11"],
      [gift.regularGiftId, "2026-12"],
    ]);

    const erased = await callRoute(
      eraseRoute,
      post("/api/admin/people/erase", { email: "amina@example.org" }, cookie),
      services,
    );
    expect(erased.status).toBe(200);
    const { erased: counts } = (await erased.json()) as { erased: Record<string, number> };
    expect(counts).toMatchObject({ regularGiftsCancelled: 1, donationsAnonymised: 2, declarationsKeptForGiftAid: 1 });

    const [stored] = await database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(stored).toMatchObject({ status: "cancelled", donorName: "Erased", clientKey: null });
    expect(stored!.email).toMatch(/@erased\.invalid$/);
    expect(await database.db.select().from(regularGiftLinks)).toEqual([]);
    const [subscription] = await database.db.select().from(offlineSubscriptions);
    expect(subscription).toMatchObject({ status: "canceled", email: null });

    // No further month is taken; both months paid stay claimable under the declaration kept.
    clock.set("2027-02-04T12:00:00Z");
    expect(await takeDueGiftPayments(services)).toEqual([]);
    const claim = await donationsReadyToClaim(services);
    expect(claim.map((row) => row.row.slice(1, 5))).toEqual([
      ["Amina", "Mushi", "Rose Cottage", "M1 1AE"],
      ["Amina", "Mushi", "Rose Cottage", "M1 1AE"],
    ]);
  });

  it("erases a paused gift and the Gift Aid declaration it was holding for its next payment", async () => {
    const started = await callRoute(
      giftsRoute,
      post("/api/regular-gifts", { amount: "5.00", dayOfMonth: "9", name: "Bea Tanner", email: "bea@example.org" }),
      services,
    );
    const gift = (await started.json()) as { regularGiftId: string; clientSecret: string };
    await callRoute(confirmRoute, post("/api/payments/offline/confirm", { ...gift, card }), services);
    // Paused on her page, with a declaration made there that waits for the next payment.
    const waiting = {
      firstName: "Bea",
      surname: "Tanner",
      houseNameOrNumber: "The Old Forge",
      postcode: "HR8 1AA",
      wording: "I want to Gift Aid my monthly gift…",
      declaredAt: clock.now().toISOString(),
    };
    await database.db
      .update(regularGifts)
      .set({ status: "paused", pausedUntil: new Date("2027-02-09T00:00:00Z"), declarationWaiting: waiting })
      .where(eq(regularGifts.id, gift.regularGiftId));

    const { cookie } = await signedInStaff(database.db, clock.now());
    const exported = await callRoute(
      exportRoute,
      new Request("http://localhost/api/admin/people?email=bea@example.org", { headers: { Cookie: cookie } }),
      services,
    );
    const data = (await exported.json()) as { regularGifts: Record<string, unknown>[] };
    expect(data.regularGifts).toMatchObject([
      { status: "paused", pausedUntil: "2027-02-09T00:00:00.000Z", giftAidDeclarationWaiting: waiting },
    ]);

    const erased = await callRoute(
      eraseRoute,
      post("/api/admin/people/erase", { email: "bea@example.org" }, cookie),
      services,
    );
    expect(erased.status, await erased.clone().text()).toBe(200);
    const [stored] = await database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(stored).toMatchObject({
      status: "cancelled",
      pausedUntil: null,
      declarationWaiting: null,
      donorName: "Erased",
    });
  });
});
