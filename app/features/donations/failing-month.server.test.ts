import { describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { loader as homeLoader } from "~/routes/admin._index";
import { loader as listLoader } from "~/routes/admin.regular-giving._index";
import { loader as pageLoader } from "~/routes/giving.token";
import { donations, offlinePayments, offlineSubscriptions, outbox, regularGifts } from "~db/schema";
import { engines } from "../../../tests/support/databases";
import { giftLinkToken, goodCard, monthlyGiftSite, sendGiftPageForm } from "../../../tests/support/monthly-gifts";
import { callRoute, signedInStaff } from "../../../tests/support/services";
import { takeDueGiftPayments } from "./regular-gifts.server";

// A failing month on the offline provider (decision 093), through the site's own routes: Stripe's
// test card 4000 0000 0000 0341 is declined as a first payment, saved as a new card, and then
// declines the month's charge. The bill stays open, the subscription past_due, the gift failing;
// the donor is told once per bill with a link, staff see it; a good card pays the bill at once;
// left alone, the bill is tried again 3 and 5 days on, then the subscription is cancelled.

const attachesButFails = { number: "4000 0000 0000 0341", expiry: "12/34", cvc: "123" };
const failedSubject = "Your monthly gift of £10.00 to Kilele Village Trust: this month's payment did not go through";
const receiptSubject = "Your monthly gift of £10.00 to Kilele Village Trust: receipt";

describe.each(engines)("a failing month on the offline provider, on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  const { clock } = site;

  const start = () =>
    site.start({ amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email: "amina@example.org", giftAid: false });
  const confirm = async (gift: { clientSecret: string }, card: typeof goodCard) =>
    (await (await site.confirm(gift, { card })).json()) as { status?: string; error?: string };

  /** Mail delivered so far, by subject. */
  async function subjects() {
    await site.services.outbox.deliverDue();
    return site.smtp.sentTo("amina@example.org").map((mail) => mail.subject ?? "");
  }
  /** The private link's token from the latest e-mail with this subject. */
  async function tokenFrom(subject: string) {
    await site.services.outbox.deliverDue();
    const mail = site.smtp.sentTo("amina@example.org").findLast((m) => m.subject === subject);
    return giftLinkToken(mail!.text ?? "");
  }
  const changeCard = (token: string, card: typeof goodCard) =>
    sendGiftPageForm<{ data: { ok: boolean; message: string; fields?: Record<string, string> } }>(
      site.services,
      token,
      { intent: "card", cardnumber: card.number, "exp-date": card.expiry.replace("/", " / "), cvc: card.cvc },
    );
  const gift = async (id: string) =>
    (await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, id)))[0]!;
  const subscription = async (id: string) =>
    (
      await site.database.db
        .select()
        .from(offlineSubscriptions)
        .where(eq(offlineSubscriptions.id, (await gift(id)).providerSubscriptionId!))
    )[0]!;
  const paidMonths = async (id: string) =>
    (
      await site.database.db
        .select({ month: donations.billingMonth })
        .from(donations)
        .where(and(eq(donations.regularGiftId, id), eq(donations.status, "paid")))
        .orderBy(asc(donations.billingMonth))
    ).map((row) => row.month);
  const run = async (at: string) => {
    clock.set(at);
    return takeDueGiftPayments(site.services);
  };

  /** A gift paid by 4242 in November whose card is then changed to 0341: December's charge will fail. */
  async function giftWithFailingCard() {
    const started = await start();
    expect(await confirm(started, goodCard)).toEqual({ status: "succeeded" });
    const token = await tokenFrom("Welcome, and thank you for your monthly gift of £10.00 to Kilele Village Trust");
    // It attaches, as Stripe's SetupIntent would: the card change succeeds.
    const changed = await changeCard(token, attachesButFails);
    expect(changed.data).toMatchObject({ ok: true });
    expect(changed.data.message).toContain("Your new card is saved: your Visa card ending 0341");
    expect(await subscription(started.regularGiftId)).toMatchObject({ cardLast4: "0341", status: "active" });
    return started.regularGiftId;
  }

  it("declines a first payment with 4000 0000 0000 0341, as Stripe would: the gift waits for another card", async () => {
    const started = await start();
    expect(await confirm(started, attachesButFails)).toMatchObject({ error: "Your card was declined." });
    expect((await gift(started.regularGiftId)).status).toBe("incomplete");
    expect(await paidMonths(started.regularGiftId)).toEqual([]);
    expect(await confirm(started, goodCard)).toEqual({ status: "succeeded" });
    expect(await paidMonths(started.regularGiftId)).toEqual(["2026-11"]);
  });

  it("fails the month on 0341: the bill stays open, the gift fails, the donor is told once, staff see it; a good card pays it at once", async () => {
    const giftId = await giftWithFailingCard();

    // December's day: the charge is declined.
    expect(await run("2026-12-15T12:01:00Z")).toEqual([]);
    const [bill] = await (site.services.payments as OfflineProvider).listOpenInvoices(
      (await gift(giftId)).providerSubscriptionId!,
    );
    expect(bill).toMatchObject({ status: "open", amountPence: 1000, paidAt: null });
    expect(bill!.createdAt.toISOString()).toBe("2026-12-15T12:00:00.000Z");
    expect(await subscription(giftId)).toMatchObject({ status: "past_due" });
    expect((await gift(giftId)).status).toBe("failing");
    expect(await paidMonths(giftId)).toEqual(["2026-11"]);

    // Told once for the bill, however often the job runs.
    await run("2026-12-15T12:02:00Z");
    await run("2026-12-16T09:00:00Z");
    expect((await subjects()).filter((s) => s === failedSubject)).toHaveLength(1);
    expect(await site.database.db.$count(outbox, eq(outbox.kind, "regular-gift-payment-failed"))).toBe(1);

    // Staff: under "Failed payments" on /admin/regular-giving, and on their home's to-do list.
    const { cookie } = await signedInStaff(site.database.db, clock.now(), { role: "treasurer" });
    const list = (await callRoute(
      listLoader,
      new Request("http://localhost/admin/regular-giving", { headers: { cookie } }),
      site.services,
    )) as unknown as { summary: { failing: number; failingNow: { donorName: string }[] } };
    expect(list.summary.failing).toBe(1);
    expect(list.summary.failingNow.map((g) => g.donorName)).toEqual(["Amina Mushi"]);
    const home = (await callRoute(
      homeLoader,
      new Request("http://localhost/admin", { headers: { cookie } }),
      site.services,
    )) as unknown as { failingGifts: number };
    expect(home.failingGifts).toBe(1);

    // The notice's link opens the gift's page, where a good card pays December now.
    const token = await tokenFrom(failedSubject);
    const opened = (await callRoute(pageLoader, new Request(`http://localhost/giving/${token}`), site.services, {
      params: { token },
    })) as unknown as { gift: { status: string } };
    expect(opened.gift.status).toBe("failing");
    clock.set("2026-12-16T10:00:00Z");
    const changed = await changeCard(token, goodCard);
    expect(changed.data.message).toContain("Your new card is saved: your Visa card ending 4242");
    expect(await paidMonths(giftId)).toEqual(["2026-11", "2026-12"]);
    expect((await gift(giftId)).status).toBe("active");
    expect(await subscription(giftId)).toMatchObject({ status: "active", cardLast4: "4242" });
    const [december] = await site.database.db.select().from(offlinePayments).where(eq(offlinePayments.id, bill!.id));
    expect(december).toMatchObject({ status: "succeeded", cardLast4: "4242" });
    expect(december!.succeededAt!.toISOString()).toBe("2026-12-16T10:00:00.000Z");

    // Recorded once: the job's runs after it, and the retry day, find nothing more; January is paid on its day.
    expect(await run("2026-12-16T10:01:00Z")).toEqual([]);
    expect(await run("2026-12-18T12:01:00Z")).toEqual([]);
    expect(await run("2027-01-15T12:01:00Z")).toHaveLength(1);
    expect(await paidMonths(giftId)).toEqual(["2026-11", "2026-12", "2027-01"]);
    const all = await subjects();
    expect(all.filter((s) => s === receiptSubject)).toHaveLength(2);
    expect(all.filter((s) => s === failedSubject)).toHaveLength(1);
  });

  it("left alone, tries the bill again 3 and 5 days on, then cancels the subscription and the gift, as Stripe's default does", async () => {
    const giftId = await giftWithFailingCard();
    await run("2026-12-15T12:01:00Z");
    const subscriptionId = (await gift(giftId)).providerSubscriptionId!;
    const attempts = async () => {
      const [bill] = await site.database.db
        .select()
        .from(offlinePayments)
        .where(eq(offlinePayments.description, "Monthly gift, 2026-12"));
      return bill!;
    };
    expect((await attempts()).metadata).toMatchObject({
      attempts: "1",
      next_attempt_at: "2026-12-18T12:01:00.000Z",
    });

    await run("2026-12-18T12:00:00Z");
    expect((await attempts()).metadata.attempts).toBe("1");
    await run("2026-12-18T12:02:00Z");
    expect((await attempts()).metadata).toMatchObject({ attempts: "2", next_attempt_at: "2026-12-20T12:01:00.000Z" });
    expect((await gift(giftId)).status).toBe("failing");

    // A card change to another that fails is tried at once, and costs no attempt.
    const token = await tokenFrom(failedSubject);
    clock.set("2026-12-19T08:00:00Z");
    expect((await changeCard(token, attachesButFails)).data.ok).toBe(true);
    expect((await attempts()).metadata.attempts).toBe("2");
    expect((await gift(giftId)).status).toBe("failing");

    await run("2026-12-20T12:02:00Z");
    expect(await (site.services.payments as OfflineProvider).listOpenInvoices(subscriptionId)).toEqual([]);
    expect(await subscription(giftId)).toMatchObject({ status: "canceled" });
    expect((await attempts()).status).toBe("canceled");
    expect((await gift(giftId)).status).toBe("cancelled");
    expect(await paidMonths(giftId)).toEqual(["2026-11"]);

    // One notice for the bill, whatever its retries; nothing taken later.
    expect(await run("2027-01-15T12:01:00Z")).toEqual([]);
    expect((await subjects()).filter((s) => s === failedSubject)).toHaveLength(1);
  });

  it("tells a failed month charged before a crash, once, when the site comes back", async () => {
    const giftId = await giftWithFailingCard();
    clock.set("2026-12-15T12:01:00Z");
    // The provider declines December's charge; the site stops before hearing of it.
    expect(await (site.services.payments as OfflineProvider).chargeDueSubscriptions()).toEqual([]);
    expect((await gift(giftId)).status).toBe("active");
    expect(await run("2026-12-15T12:05:00Z")).toEqual([]);
    expect((await gift(giftId)).status).toBe("failing");
    await run("2026-12-15T12:06:00Z");
    expect((await subjects()).filter((s) => s === failedSubject)).toHaveLength(1);
  });

  it("a donor who cancels a failing gift: its open bill is voided, never tried again", async () => {
    const giftId = await giftWithFailingCard();
    await run("2026-12-15T12:01:00Z");
    const token = await tokenFrom(failedSubject);
    const answer = await sendGiftPageForm<{ data: { ok: boolean } }>(site.services, token, { intent: "cancel" });
    expect(answer.data.ok).toBe(true);
    expect((await gift(giftId)).status).toBe("cancelled");
    const subscriptionId = (await gift(giftId)).providerSubscriptionId!;
    expect(await (site.services.payments as OfflineProvider).listOpenInvoices(subscriptionId)).toEqual([]);
    expect(await run("2026-12-18T12:02:00Z")).toEqual([]);
    expect(await run("2026-12-20T12:02:00Z")).toEqual([]);
    const [bill] = await site.database.db
      .select()
      .from(offlinePayments)
      .where(eq(offlinePayments.description, "Monthly gift, 2026-12"));
    expect(bill).toMatchObject({ status: "canceled" });
    expect(bill!.metadata.attempts).toBe("1");
    expect(await paidMonths(giftId)).toEqual(["2026-11"]);
  });
});
