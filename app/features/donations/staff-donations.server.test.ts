import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentProvider } from "~/infra/payments/provider.server";
import {
  auditLog,
  donations,
  giftAidClaims,
  giftAidDeclarations,
  offlineRefunds,
  outbox,
  refunds,
  staffUsers,
} from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { settleDonation, startDonation } from "./donations.server";
import { claimWithDonations, donationsReadyToClaim, markClaimed, pastClaims } from "./gift-aid-claims.server";
import { finishPendingDonationRefunds, refundDonation, type RefundDeps } from "./refunds.server";
import { readDonationFilters, type GiftAidScope } from "./schema";
import { cancelDeclaration, donationsPage } from "./staff-donations.server";

const staff = { id: crypto.randomUUID(), email: "staff@example.org" };
const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

interface Made {
  id: string;
}

describe.each(engines)("donations for staff on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let clock: TestClock;
  let delivered: string[];
  let deps: RefundDeps;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:30:00Z");
    payments = offlineProvider(database.db, clock);
    delivered = [];
    deps = {
      db: database.db,
      payments,
      charity,
      clock,
      outbox: { deliver: async (kind, about) => (delivered.push(`${kind}:${about}`), { ok: true }) },
    };
    // The staff member the refunds and claims name.
    await database.db
      .insert(staffUsers)
      .values({ id: staff.id, email: staff.email, passwordHash: "not used", createdAt: clock.now() });
  });
  afterEach(() => database.close());

  /** A donation paid through the offline provider at the clock's time, with a declaration if given. */
  async function give(
    at: string,
    donor: { name?: string; email: string; amount?: string },
    declaration?: { scope: GiftAidScope; firstName?: string; surname?: string },
  ): Promise<Made> {
    clock.set(at);
    const started = await startDonation(deps, {
      amount: donor.amount ?? "10.00",
      name: donor.name ?? "Amina Mushi",
      email: donor.email,
      ...(declaration && {
        giftAid: true,
        firstName: declaration.firstName ?? "Amina",
        surname: declaration.surname ?? "Mushi",
        houseNameOrNumber: "Rose Cottage",
        postcode: "m1 1ae",
        scope: declaration.scope,
      }),
    });
    await payments.confirmCard(started.clientSecret, card);
    expect((await settleDonation(deps, started.donationId)).outcome).toBe("paid");
    return { id: started.donationId };
  }

  const ready = async () => (await donationsReadyToClaim(database)).map((r) => r.donationId);

  it("lists exactly the paid, unrefunded, unclaimed donations a declaration covers, in HMRC's format", async () => {
    const earlier = await give("2026-03-01T10:00:00Z", { email: "amina@example.org", amount: "5" });
    const declared = await give(
      "2026-06-01T10:00:00Z",
      { email: "Amina@Example.org", amount: "25" },
      { scope: "this-and-past-four-years", surname: "Mushi-Kimaro" },
    );
    const later = await give("2026-07-01T10:00:00Z", { email: "amina@example.org", amount: "7.50" });
    const otherDonor = await give("2026-07-02T10:00:00Z", { email: "juma@example.org", amount: "30" });
    const single = await give(
      "2026-07-03T10:00:00Z",
      { email: "neema@example.org" },
      { scope: "this-donation", firstName: "Neema", surname: "Said" },
    );
    const unpaid = await startDonation(deps, { amount: "40", name: "Amina Mushi", email: "amina@example.org" });

    expect(await ready()).toEqual([earlier.id, declared.id, single.id]);
    const rows = await donationsReadyToClaim(database);
    expect(rows.map((r) => r.row)).toEqual([
      ["", "Amina", "Mushi Kimaro", "Rose Cottage", "M1 1AE", "", "", "01/03/26", "5.00"],
      ["", "Amina", "Mushi Kimaro", "Rose Cottage", "M1 1AE", "", "", "01/06/26", "25.00"],
      ["", "Neema", "Said", "Rose Cottage", "M1 1AE", "", "", "03/07/26", "10.00"],
    ]);
    expect([later.id, otherDonor.id, unpaid.donationId].some((id) => rows.some((r) => r.donationId === id))).toBe(
      false,
    );
  });

  it("marking a claim twice, or two staff at once, claims each donation once", async () => {
    const a = await give(
      "2026-06-01T10:00:00Z",
      { email: "amina@example.org" },
      { scope: "past-four-years-and-future" },
    );
    const b = await give("2026-06-02T10:00:00Z", { email: "amina@example.org", amount: "20" });
    clock.set("2026-11-22T10:30:00Z");
    const ids = await ready();
    expect(ids).toEqual([a.id, b.id]);

    const results = await Promise.allSettled([
      markClaimed(database, staff, { claimedOn: "2026-11-22", donationIds: ids }, clock.now()),
      markClaimed(database, staff, { claimedOn: "2026-11-22", donationIds: ids }, clock.now()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "conflict" });
    await expect(
      markClaimed(database, staff, { claimedOn: "2026-11-22", donationIds: ids }, clock.now()),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("nothing was marked") });

    expect(await database.db.select().from(giftAidClaims)).toHaveLength(1);
    expect(await ready()).toEqual([]);
    const [claim] = await pastClaims(database);
    expect(claim).toMatchObject({
      claimedOn: "2026-11-22",
      count: 2,
      totalPence: 3000,
      giftAidPence: 750,
      staffEmail: staff.email,
    });
    expect((await claimWithDonations(database, claim!.id))!.donations.map((d) => d.row[8])).toEqual(["10.00", "20.00"]);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "gift-aid.claim-marked"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).not.toMatch(/Amina|example\.org/);
  });

  it("a claim with one donation claimed or refunded meanwhile changes nothing; a bad or future date is refused", async () => {
    const a = await give(
      "2026-06-01T10:00:00Z",
      { email: "amina@example.org" },
      { scope: "past-four-years-and-future" },
    );
    const b = await give("2026-06-02T10:00:00Z", { email: "amina@example.org" });
    clock.set("2026-11-22T10:30:00Z");
    await markClaimed(database, staff, { claimedOn: "2026-11-21", donationIds: [a.id] }, clock.now());
    await expect(
      markClaimed(database, staff, { claimedOn: "2026-11-22", donationIds: [a.id, b.id] }, clock.now()),
    ).rejects.toMatchObject({
      code: "conflict",
      message:
        "1 of these 2 donations was claimed or refunded since the list was shown, so nothing was marked. Look at the list again.",
    });
    expect(await ready()).toEqual([b.id]);
    for (const claimedOn of ["2026-11-23", "2026-02-30", "", "22/11/2026"]) {
      await expect(markClaimed(database, staff, { claimedOn, donationIds: [b.id] }, clock.now())).rejects.toMatchObject(
        { code: "invalid", fields: { claimedOn: expect.any(String) } },
      );
    }
    await expect(
      markClaimed(database, staff, { claimedOn: "2026-11-22", donationIds: [] }, clock.now()),
    ).rejects.toMatchObject({
      code: "invalid",
    });
    expect(await database.db.select().from(giftAidClaims)).toHaveLength(1);
  });

  it("refunds a donation exactly once: a failing provider leaves it pending, the retry finishes it with the same key", async () => {
    const gift = await give("2026-06-01T10:00:00Z", { email: "amina@example.org" }, { scope: "this-donation" });
    clock.set("2026-11-22T10:30:00Z");
    const asked: string[] = [];
    let down = true;
    const flaky: PaymentProvider = {
      ...payments,
      async refundPayment(id, key, amount) {
        asked.push(key);
        if (down) throw new Error("connection reset");
        return payments.refundPayment(id, key, amount);
      },
    };
    const flakyDeps = { ...deps, payments: flaky };

    await expect(
      refundDonation(flakyDeps, staff, { donationId: gift.id, key: "form-1", reason: " " }),
    ).rejects.toMatchObject({
      code: "invalid",
      fields: { reason: expect.any(String) },
    });
    const first = await refundDonation(flakyDeps, staff, {
      donationId: gift.id,
      key: "form-1",
      reason: "Gave twice by mistake",
    });
    expect(first.outcome).toBe("pending");
    // The same form sent again (a double click) does nothing new; another form is refused.
    expect(
      await refundDonation(flakyDeps, staff, { donationId: gift.id, key: "form-1", reason: "again" }),
    ).toMatchObject({
      outcome: "already",
    });
    await expect(
      refundDonation(flakyDeps, staff, { donationId: gift.id, key: "form-2", reason: "again" }),
    ).rejects.toMatchObject({ code: "conflict" });
    const [pendingDonation] = await database.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(pendingDonation!.status).toBe("refund_pending");
    expect(await ready()).toEqual([]);
    expect((await database.db.select().from(outbox)).filter((m) => m.kind === "donation-refunded")).toEqual([]);

    down = false;
    expect(await finishPendingDonationRefunds(flakyDeps)).toBe(1);
    expect(await finishPendingDonationRefunds(flakyDeps)).toBe(0);
    const [refund] = await database.db.select().from(refunds);
    expect(asked).toEqual([`refund-${refund!.id}`, `refund-${refund!.id}`]);
    expect(refund).toMatchObject({
      status: "succeeded",
      attempts: 2,
      amountPence: 1000,
      reason: "Gave twice by mistake",
      key: "form-1",
    });
    expect(await database.db.select().from(offlineRefunds)).toHaveLength(1);
    const [refunded] = await database.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(refunded).toMatchObject({ status: "refunded", refundedAt: clock.now() });

    const notices = (await database.db.select().from(outbox)).filter((m) => m.kind === "donation-refunded");
    expect(notices).toHaveLength(1);
    const notice = notices[0]!.payload as { to: string; subject: string; text: string; html: string };
    expect(notice.to).toEqual({ name: "Amina Mushi", address: "amina@example.org" });
    expect(notice.subject).toBe("Your donation of £10.00 to Kilele Village Trust has been refunded");
    expect(notice.text).toContain("No Gift Aid will be claimed on this donation.");
    expect(notice.html).toContain("has been refunded");
    expect(delivered).toEqual([`donation-refunded:${gift.id}`]);

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "donation.refunded"));
    expect(audit.map((a) => a.summary)).toEqual(["Refunded a donation of £10.00"]);
    await expect(
      refundDonation(deps, staff, { donationId: gift.id, key: "form-3", reason: "again" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("a cancelled declaration stops covering later donations, and is audited without a name", async () => {
    const declared = await give(
      "2026-06-01T10:00:00Z",
      { email: "amina@example.org" },
      { scope: "past-four-years-and-future" },
    );
    const before = await give("2026-07-01T10:00:00Z", { email: "amina@example.org" });
    clock.set("2026-08-01T10:00:00Z");
    expect(await cancelDeclaration(database, staff, declared.id, clock.now())).toBe(true);
    expect(await cancelDeclaration(database, staff, declared.id, clock.now())).toBe(false);
    const after = await give("2026-09-01T10:00:00Z", { email: "amina@example.org" });
    expect(await ready()).toEqual([declared.id, before.id]);
    expect(await ready()).not.toContain(after.id);
    const [declaration] = await database.db.select().from(giftAidDeclarations);
    expect(declaration).toMatchObject({ cancelledAt: new Date("2026-08-01T10:00:00Z"), cancelledBy: staff.email });
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "gift-aid.declaration-cancelled"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.subject).toBe(`donation:${declared.id}`);
  });

  it("filters the donations page by London days, Gift Aid and status, with totals per London month", async () => {
    // 23:30 UTC on 31 March is 1 April in London.
    const april = await give(
      "2026-03-31T23:30:00Z",
      { email: "amina@example.org", amount: "20" },
      { scope: "this-donation" },
    );
    const march = await give("2026-03-31T22:30:00Z", { email: "juma@example.org", amount: "10" });
    const may = await give("2026-05-10T10:00:00Z", { email: "neema@example.org", amount: "50" });
    clock.set("2026-06-01T10:00:00Z");
    await refundDonation(deps, staff, { donationId: may.id, key: "k", reason: "Asked for it back" });

    const all = await donationsPage(database, readDonationFilters(new URLSearchParams()).filters, 1);
    expect(all.donations.rows.map((d) => [d.id, d.statusLabel])).toEqual([
      [may.id, "Refunded"],
      [april.id, "Paid"],
      [march.id, "Paid"],
    ]);
    expect(all.months.map((m) => [m.label, m.count, m.totalPence, m.giftAidPence])).toEqual([
      ["April 2026", 1, 2000, 500],
      ["March 2026", 1, 1000, 0],
    ]);

    const aprilOnly = readDonationFilters(new URLSearchParams({ from: "2026-04-01", to: "2026-04-30" }));
    expect((await donationsPage(database, aprilOnly.filters, 1)).donations.rows.map((d) => d.id)).toEqual([april.id]);
    const withGiftAid = readDonationFilters(new URLSearchParams({ giftAid: "with" }));
    expect((await donationsPage(database, withGiftAid.filters, 1)).donations.rows.map((d) => d.id)).toEqual([april.id]);
    const refundedOnly = readDonationFilters(new URLSearchParams({ status: "refunded" }));
    expect((await donationsPage(database, refundedOnly.filters, 1)).donations.rows.map((d) => d.id)).toEqual([may.id]);

    const bad = readDonationFilters(new URLSearchParams({ from: "2026-05-01", to: "2026-04-01" }));
    expect(bad.errors).toEqual({ to: "The To date must be on or after the From date." });
    expect(readDonationFilters(new URLSearchParams({ from: "2026-02-30" })).errors).toEqual({
      from: "Please enter a date as day, month and year.",
    });
  });
  it("finds donations by the donor's name without accents or capitals, or the start of their e-mail, best first", async () => {
    const siobhan = await give("2026-04-02T10:00:00Z", { name: "Siobhán Okafor", email: "siobhan.o@example.org" });
    const emeka = await give("2026-04-01T10:00:00Z", { name: "Okafor Emeka", email: "emeka@example.org" });
    await give("2026-04-03T10:00:00Z", { name: "Amina Mushi", email: "amina@example.org" });
    const found = async (q: string, more: Record<string, string> = {}) =>
      (
        await donationsPage(database, readDonationFilters(new URLSearchParams({ q, ...more })).filters, 1)
      ).donations.rows.map((d) => d.id);
    expect(await found("Siobhan")).toEqual([siobhan.id]);
    // The name that starts with it first, though it is older.
    expect(await found("OKAFOR")).toEqual([emeka.id, siobhan.id]);
    expect(await found("siobhan.o@ex")).toEqual([siobhan.id]);
    expect(await found("Okafr")).toEqual([]);
    expect(await found("okafor", { from: "2026-04-02" })).toEqual([siobhan.id]);
    expect(readDonationFilters(new URLSearchParams({ q: "  Okafor " })).filters.q).toBe("Okafor");
    expect(readDonationFilters(new URLSearchParams({ q: " " })).filters.q).toBeUndefined();
  });
});
