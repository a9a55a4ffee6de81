import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { loader as givingPage } from "~/routes/giving.token";
import { donations, giftAidDeclarations, outbox, regularGiftLinks, regularGifts } from "~db/schema";
import { engines } from "../../../tests/support/databases";
import {
  goodCard as card,
  jsonPost,
  monthlyDonor as donor,
  monthlyGiftSite,
} from "../../../tests/support/monthly-gifts";
import { callRoute } from "../../../tests/support/services";
import { donationsReadyToClaim } from "./gift-aid-claims.server";
import { takeDueGiftPayments } from "./regular-gifts.server";
import { donationMessages, regularGiftMessages } from "./schema";

// A monthly gift on the offline provider, through the site's own routes and services
// (docs/decisions/089-monthly-gifts.md): started, its first month paid by a test card, later months
// taken on their day by the site's clock, each month one donation row, receipted through the
// outbox to a real SMTP server, and in the Gift Aid claim.

describe.each(engines)("monthly gifts on the offline provider, on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  const { clock } = site;
  const give = site.giveByCard;

  const paidRows = (giftId: string) =>
    site.database.db
      .select()
      .from(donations)
      .where(eq(donations.regularGiftId, giftId))
      .then((rows) =>
        rows.filter((row) => row.status === "paid").sort((a, b) => a.billingMonth!.localeCompare(b.billingMonth!)),
      );

  it("takes the first month now, the next on the donor's day, each receipted once and in the Gift Aid claim", async () => {
    const gift = await give();
    let rows = await paidRows(gift.regularGiftId);
    expect(rows.map((row) => [row.billingMonth, row.amountPence, row.id])).toEqual([
      ["2026-11", 1000, gift.donationId],
    ]);
    const [stored] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(stored).toMatchObject({ status: "active", dayOfMonth: 15, amountPence: 1000 });
    const [declaration] = await site.database.db
      .select()
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.donationId, gift.donationId));
    expect(declaration!.scope).toBe("this-and-future");
    expect(declaration!.wording).toBe(
      "I want to Gift Aid my monthly gift of £10.00, and all donations I make in the future until I cancel, to Kilele Village Trust. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.",
    );

    // Nothing more is due until the 15th of next month, at noon in London.
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    clock.set("2026-12-15T11:59:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    clock.set("2026-12-15T12:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toHaveLength(1);
    // The job runs every minute: a second run, and one a month later, take each month once.
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    rows = await paidRows(gift.regularGiftId);
    expect(rows.map((row) => [row.billingMonth, row.amountPence, row.email])).toEqual([
      ["2026-11", 1000, "amina@example.org"],
      ["2026-12", 1000, "amina@example.org"],
    ]);

    await site.services.outbox.deliverDue();
    const mails = site.smtp.sentTo("amina@example.org");
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Welcome, and thank you for your monthly gift of £10.00 to Kilele Village Trust",
      "Your monthly gift of £10.00 to Kilele Village Trust: receipt",
    ]);
    expect(mails[0]!.text).toContain(
      "from now on we will take £10.00 on the 15th of each month, starting on Tuesday 15 December 2026",
    );
    expect(mails[0]!.text).toContain("What your monthly gift does");
    expect(mails[1]!.text).toContain("Next payment: £10.00 on Friday 15 January 2027");

    // Each receipt carries a private link of its own; only its hash is kept, in the outbox too.
    const links = mails.map((mail) => /https:\/\/kilele\.example\/giving\/([A-Za-z0-9_-]+)/.exec(mail.text ?? "")?.[1]);
    expect(links.every(Boolean)).toBe(true);
    expect(new Set(links).size).toBe(2);
    const stored2 = JSON.stringify(await site.database.db.select().from(outbox));
    for (const token of links) expect(stored2).not.toContain(token);
    expect(await site.database.db.select().from(regularGiftLinks)).toHaveLength(2);
    const page = await callRoute(givingPage, new Request(`http://localhost/giving/${links[1]}`), site.services, {
      params: { token: links[1]! },
    });
    expect(page.gift).toMatchObject({ amountPence: 1000, dayOfMonth: 15, status: "active", giftAid: true });
    expect(page.gift!.payments.map((p) => p.month)).toEqual(["2026-11", "2026-12"]);

    // Both months are in the Gift Aid claim, under the enduring declaration.
    const claim = await donationsReadyToClaim(site.services);
    expect(claim.map((row) => [row.donationId, row.row.slice(1, 5), row.row[7], row.row[8]])).toEqual([
      [rows[0]!.id, ["Amina", "Mushi", "Rose Cottage", "M1 1AE"], "27/11/26", "10.00"],
      [rows[1]!.id, ["Amina", "Mushi", "Rose Cottage", "M1 1AE"], "15/12/26", "10.00"],
    ]);
  });

  it("records a month charged before a crash once, when the site comes back", async () => {
    const gift = await give();
    clock.set("2027-01-15T13:00:00Z");
    // The provider takes December's and January's payments; the site stops before recording them.
    const charged = await (site.services.payments as OfflineProvider).chargeDueSubscriptions();
    expect(charged).toHaveLength(2);
    expect(await paidRows(gift.regularGiftId)).toHaveLength(1);
    // Back up: the next run records them, once; the one after finds nothing to do.
    expect(await takeDueGiftPayments(site.services)).toHaveLength(2);
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect((await paidRows(gift.regularGiftId)).map((row) => row.billingMonth)).toEqual([
      "2026-11",
      "2026-12",
      "2027-01",
    ]);
    const receipts = (await site.database.db.select().from(outbox)).filter((mail) =>
      mail.kind.startsWith("regular-gift"),
    );
    expect(receipts.map((mail) => mail.kind).sort()).toEqual([
      "regular-gift-receipt",
      "regular-gift-receipt",
      "regular-gift-welcome",
    ]);
  });

  it("takes and records each month once when two processes run the day's payments at the same moment", async () => {
    const gifts = [await give(), await give({ ...donor, email: "juma@example.org", name: "Juma Said" })];
    clock.set("2027-02-15T13:00:00Z");
    const runs = await Promise.all([takeDueGiftPayments(site.services), takeDueGiftPayments(site.services)]);
    expect(runs.flat()).toHaveLength(6);
    for (const gift of gifts) {
      expect((await paidRows(gift.regularGiftId)).map((row) => row.billingMonth)).toEqual([
        "2026-11",
        "2026-12",
        "2027-01",
        "2027-02",
      ]);
    }
    const receipts = (await site.database.db.select().from(outbox)).filter(
      (mail) => mail.kind === "regular-gift-receipt",
    );
    expect(receipts).toHaveLength(6);
  });

  it("never records one month twice, even when asked to in the database", async () => {
    const gift = await give();
    const [first] = await paidRows(gift.regularGiftId);
    await expect(
      site.database.db.insert(donations).values({
        ...first!,
        id: crypto.randomUUID(),
        providerPaymentId: "pi_another",
      }),
    ).rejects.toThrow();
  });

  it("refuses bad input with the field's message and records nothing", async () => {
    const response = await callRoute(
      giftsRoute,
      jsonPost("/api/regular-gifts", { ...donor, amount: "0.50", dayOfMonth: "31", email: "not an address" }),
      site.services,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; code: string; fields: Record<string, string> };
    expect(body.error).toBe(donationMessages.summary);
    expect(body.code).toBe("invalid");
    expect(body.fields.dayOfMonth).toBe(regularGiftMessages.dayOfMonth);
    expect(body.fields.email).toBe(donationMessages.email);
    expect(body.fields.amount).toMatch(/smallest donation/);
    expect(await site.database.db.select().from(regularGifts)).toEqual([]);
    expect(await site.database.db.select().from(donations)).toEqual([]);
  });

  it("a first card declined three times gives the gift up: no card can pay it then, and nothing is taken later", async () => {
    const gift = await site.start();
    const declined = { ...card, number: "4000 0000 0000 0002" };
    const answers: number[] = [];
    for (const tried of [declined, declined, declined, card]) {
      const answer = await site.confirm(gift, { card: tried });
      answers.push(answer.status);
    }
    expect(answers).toEqual([402, 402, 429, 429]);
    const [given] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(given!.status).toBe("cancelled");
    clock.set("2027-01-20T12:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect(await paidRows(gift.regularGiftId)).toEqual([]);
  });

  it("a second try after a declined card gives up the first attempt, so one gift is taken", async () => {
    const first = await site.start();
    await site.confirm(first, { card: { ...card, number: "4000 0000 0000 0002" } });
    // Someone else's attempt cannot be given up: the client secret is the proof.
    const forged = await callRoute(
      giftsRoute,
      jsonPost("/api/regular-gifts", {
        ...donor,
        replaces: { regularGiftId: first.regularGiftId, clientSecret: "pi_x_secret_y" },
      }),
      site.services,
    );
    const other = (await forged.json()) as { regularGiftId: string };
    const [kept] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, first.regularGiftId));
    expect(kept!.status).toBe("incomplete");

    const second = await give({ ...donor, replaces: first });
    const states = await site.database.db.select().from(regularGifts);
    expect(Object.fromEntries(states.map((g) => [g.id, g.status]))).toEqual({
      [first.regularGiftId]: "cancelled",
      [other.regularGiftId]: "incomplete",
      [second.regularGiftId]: "active",
    });
    clock.set("2026-12-15T13:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toHaveLength(1);
    expect(await paidRows(first.regularGiftId)).toEqual([]);
    expect((await paidRows(second.regularGiftId)).map((row) => row.billingMonth)).toEqual(["2026-11", "2026-12"]);
  });

  it("a declined first card leaves the gift waiting, and a good card then starts it", async () => {
    const gift = await site.start();
    const declined = await site.confirm(gift, { card: { ...card, number: "4000 0000 0000 0002" } });
    expect(declined.status).toBe(402);
    const [waiting] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, gift.regularGiftId));
    expect(waiting!.status).toBe("incomplete");
    clock.set("2027-01-20T12:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    const paid = await site.confirm(gift, { card });
    expect(await paid.json()).toEqual({ status: "succeeded" });
    expect((await paidRows(gift.regularGiftId)).map((row) => row.billingMonth)).toEqual(["2026-11"]);
  });
});
