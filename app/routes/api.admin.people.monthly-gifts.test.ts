import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { takeDueGiftPayments } from "~/features/donations/regular-gifts.server";
import { donationsReadyToClaim } from "~/features/donations/gift-aid-claims.server";
import { action as eraseRoute } from "~/routes/api.admin.people.erase";
import { loader as exportRoute } from "~/routes/api.admin.people";
import { offlineSubscriptions, regularGiftLinks, regularGifts } from "~db/schema";
import { engines } from "../../tests/support/databases";
import { jsonPost, monthlyDonor, monthlyGiftSite } from "../../tests/support/monthly-gifts";
import { callRoute, signedInStaff } from "../../tests/support/services";

// A person's data and a monthly gift (decision 089): the export lists the gift and marks each
// month's donation; erasure cancels the gift at the provider first, so no further month is taken,
// and keeps the declaration and donations Gift Aid still needs.

describe.each(engines)("a person's monthly gift, exported and erased, on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  const { clock } = site;

  it("exports the gift, and erasure stops it at the provider and keeps what Gift Aid needs", async () => {
    const gift = await site.giveByCard({ ...monthlyDonor, dayOfMonth: "3", postcode: "M1 1AE" });
    clock.set("2026-12-03T13:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toHaveLength(1);

    const { cookie } = await signedInStaff(site.database.db, clock.now());
    const exported = await callRoute(
      exportRoute,
      new Request("http://localhost/api/admin/people?email=amina@example.org", { headers: { Cookie: cookie } }),
      site.services,
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
      jsonPost("/api/admin/people/erase", { email: "amina@example.org" }, cookie),
      site.services,
    );
    expect(erased.status).toBe(200);
    const { erased: counts } = (await erased.json()) as { erased: Record<string, number> };
    expect(counts).toMatchObject({ regularGiftsCancelled: 1, donationsAnonymised: 2, declarationsKeptForGiftAid: 1 });

    const [stored] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(stored).toMatchObject({ status: "cancelled", donorName: "Erased", clientKey: null });
    expect(stored!.email).toMatch(/@erased\.invalid$/);
    expect(await site.database.db.select().from(regularGiftLinks)).toEqual([]);
    const [subscription] = await site.database.db.select().from(offlineSubscriptions);
    expect(subscription).toMatchObject({ status: "canceled", email: null });

    // No further month is taken; both months paid stay claimable under the declaration kept.
    clock.set("2027-02-04T12:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    const claim = await donationsReadyToClaim(site.services);
    expect(claim.map((row) => row.row.slice(1, 5))).toEqual([
      ["Amina", "Mushi", "Rose Cottage", "M1 1AE"],
      ["Amina", "Mushi", "Rose Cottage", "M1 1AE"],
    ]);
  });

  it("erases a paused gift and the Gift Aid declaration it was holding for its next payment", async () => {
    const gift = await site.giveByCard({
      amount: "5.00",
      dayOfMonth: "9",
      name: "Bea Tanner",
      email: "bea@example.org",
    });
    // Paused on her page, with a declaration made there that waits for the next payment.
    const waiting = {
      firstName: "Bea",
      surname: "Tanner",
      houseNameOrNumber: "The Old Forge",
      postcode: "HR8 1AA",
      wording: "I want to Gift Aid my monthly gift…",
      declaredAt: clock.now().toISOString(),
    };
    await site.database.db
      .update(regularGifts)
      .set({ status: "paused", pausedUntil: new Date("2027-02-09T00:00:00Z"), declarationWaiting: waiting })
      .where(eq(regularGifts.id, gift.regularGiftId));

    const { cookie } = await signedInStaff(site.database.db, clock.now());
    const exported = await callRoute(
      exportRoute,
      new Request("http://localhost/api/admin/people?email=bea@example.org", { headers: { Cookie: cookie } }),
      site.services,
    );
    const data = (await exported.json()) as { regularGifts: Record<string, unknown>[] };
    expect(data.regularGifts).toMatchObject([
      { status: "paused", pausedUntil: "2027-02-09T00:00:00.000Z", giftAidDeclarationWaiting: waiting },
    ]);

    const erased = await callRoute(
      eraseRoute,
      jsonPost("/api/admin/people/erase", { email: "bea@example.org" }, cookie),
      site.services,
    );
    expect(erased.status, await erased.clone().text()).toBe(200);
    const [stored] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(stored).toMatchObject({
      status: "cancelled",
      pausedUntil: null,
      declarationWaiting: null,
      donorName: "Erased",
    });
  });
});
