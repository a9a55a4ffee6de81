import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { giftAidDeclarationFor } from "~/features/donations/gift-aid";
import { loadDonationsAndDeclarations } from "~/features/donations/staff-donations.server";
import { takeDueGiftPayments } from "~/features/donations/regular-gifts.server";
import { cancelRegularGiftForDonor } from "~/features/donations/staff-regular-gifts.server";
import { auditLog, donations, giftAidDeclarations, offlineSubscriptions, outbox, regularGifts } from "~db/schema";
import { engines } from "../../tests/support/databases";
import { giftLinkToken, monthlyGiftSite, sendGiftPageForm } from "../../tests/support/monthly-gifts";
import { callRoute, signedInStaff } from "../../tests/support/services";
import { loader as staffGiftLoader } from "./admin.regular-giving.id";
import { action as linksAction } from "./giving";
import { loader as pageLoader } from "./giving.token";

// A donor manages their monthly gift through its private link (decision 090): each form's rule
// against the real route handlers, on a clock the test moves; each change reaches the provider,
// the donor (an e-mail through real SMTP) and the staff's history; bad input changes nothing.

type Answer = { data: { ok: boolean; message: string; fields?: Record<string, string> }; init: { status: number } };

describe.each(engines)("a donor's own gift page on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  const { clock } = site;

  /** A £10 gift on the 15th started now, and the token of the link its welcome carries. */
  async function give(giftAid = false, email = "amina@example.org") {
    const details = giftAid
      ? { giftAid: true, firstName: "Amina", surname: "Mushi", houseNameOrNumber: "4", postcode: "SW1A 1AA" }
      : { giftAid: false };
    const gift = await site.giveByCard({ amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email, ...details });
    await site.services.outbox.deliverDue();
    const welcome = site.smtp.received.at(-1);
    const token = giftLinkToken(welcome!.text ?? "");
    return { giftId: gift.regularGiftId, token };
  }

  const page = (token: string, query = "") =>
    callRoute(pageLoader, new Request(`http://localhost/giving/${token}${query}`), site.services, {
      params: { token },
    }) as unknown as Promise<Awaited<ReturnType<typeof pageLoader>>>;

  const post = (token: string, fields: Record<string, string>) =>
    sendGiftPageForm<Answer>(site.services, token, fields);

  const gift = async (giftId: string) =>
    (await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, giftId)))[0]!;
  const history = async (giftId: string) =>
    site.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`))
      .orderBy(asc(auditLog.at));
  const paidMonths = async (giftId: string) =>
    (
      await site.database.db
        .select({ month: donations.billingMonth, amountPence: donations.amountPence })
        .from(donations)
        .where(and(eq(donations.regularGiftId, giftId), eq(donations.status, "paid")))
        .orderBy(asc(donations.billingMonth))
    ).map((row) => `${row.month} ${row.amountPence}`);
  /** The e-mails about changes, delivered now, by subject. */
  async function changeMails() {
    await site.services.outbox.deliverDue();
    return site.smtp.received.map((mail) => mail.subject ?? "").filter((subject) => subject.includes(": "));
  }
  async function runDay(at: string) {
    clock.set(at);
    return takeDueGiftPayments(site.services);
  }

  it("changes nothing when the link is opened, and says where to get a fresh link when it has expired", async () => {
    const { giftId, token } = await give();
    const before = await site.database.db.$count(outbox);
    const opened = await page(token, "?confirm=cancel");
    expect(opened.gift).toMatchObject({ amountPence: 1000, status: "active", nextPayment: "Tuesday 15 December 2026" });
    expect(opened.confirmCancel).toBe(true);
    expect(await page(token)).toMatchObject({ confirmCancel: false });
    expect((await gift(giftId)).status).toBe("active");
    expect(await site.database.db.$count(outbox)).toBe(before);
    expect(await history(giftId)).toEqual([]);

    clock.set("2027-03-01T12:00:00Z");
    expect((await page(token)).gift).toBeUndefined();
    const refused = await post(token, { intent: "amount", amount: "15" });
    expect(refused.data).toMatchObject({ ok: false, message: expect.stringContaining("/giving") });
    expect((await gift(giftId)).amountPence).toBe(1000);
  });

  it("changes the amount from the next payment, refusing a bad one beside the field", async () => {
    const { giftId, token } = await give();
    for (const [amount, message] of [
      ["abc", "Please enter an amount in pounds and pence, such as 25 or 12.50."],
      ["0.50", "The smallest donation we can take by card is £1.00."],
      ["20000", "The largest donation we can take online is £10,000.00. For a larger gift, please contact us."],
    ] as const) {
      const refused = await post(token, { intent: "amount", amount });
      expect(refused.init.status).toBe(400);
      expect(refused.data.fields).toEqual({ amount: message });
    }
    expect(await history(giftId)).toEqual([]);

    const answer = await post(token, { intent: "amount", amount: "15" });
    expect(answer.data).toMatchObject({
      ok: true,
      message: "Your gift is now £15.00 a month, from your next payment on Tuesday 15 December 2026.",
    });
    expect((await gift(giftId)).amountPence).toBe(1500);
    const [entry] = await history(giftId);
    expect(entry).toMatchObject({
      action: "regular-gift.amount-changed",
      staffEmail: "the donor, by their private link",
      staffUserId: null,
      summary: "Changed the monthly gift from £10.00 to £15.00, from the payment on Tuesday 15 December 2026",
    });
    const mail = site.smtp.received.length;
    expect(await changeMails()).toContain("Your monthly gift to Kilele Village Trust: now £15.00 a month");
    const letter = site.smtp.received.slice(mail).find((m) => m.subject?.includes("now £15.00"))!;
    expect(letter.to).toMatchObject({ text: expect.stringContaining("amina@example.org") });
    expect(letter.text).toContain("from your next payment on Tuesday 15 December 2026");

    await runDay("2026-12-15T12:01:00Z");
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2026-12 1500"]);
  });

  it("changes the day from the next month not paid, never taking two payments in a month, and names a month skipped", async () => {
    const { giftId, token } = await give();
    expect(await post(token, { intent: "day", dayOfMonth: "29" })).toMatchObject({
      data: {
        ok: false,
        fields: { dayOfMonth: "Please choose the day of the month, from 1 to 28, for your monthly gift." },
      },
    });
    // November is paid: the new day starts in December.
    expect((await post(token, { intent: "day", dayOfMonth: "1" })).data.message).toBe(
      "Your gift is now taken on the 1st of each month. Your next payment is on Tuesday 1 December 2026.",
    );
    expect(await runDay("2026-12-01T12:01:00Z")).toHaveLength(1);
    // December is paid on the 1st: a later day in December takes nothing more until January.
    clock.set("2026-12-10T09:00:00Z");
    expect((await post(token, { intent: "day", dayOfMonth: "20" })).data.message).toBe(
      "Your gift is now taken on the 20th of each month. Your next payment is on Wednesday 20 January 2027.",
    );
    await runDay("2026-12-20T12:01:00Z");
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2026-12 1000"]);
    // January not yet paid, and its new day has passed: January is skipped, and the donor is told.
    clock.set("2027-01-10T09:00:00Z");
    const skipped = await post(token, { intent: "day", dayOfMonth: "5" });
    expect(skipped.data.message).toBe(
      "Your gift is now taken on the 5th of each month. Your next payment is on Friday 5 February 2027. No payment is taken in January 2027: its new day has passed.",
    );
    expect((await history(giftId)).at(-1)?.summary).toContain("no payment in January 2027");
    await runDay("2027-01-20T12:01:00Z");
    await runDay("2027-02-05T12:01:00Z");
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2026-12 1000", "2027-02 1000"]);
    expect((await changeMails()).filter((subject) => subject.includes("now taken on"))).toHaveLength(3);
  });

  it("pauses for the months chosen, resumes by itself, and the donor can resume sooner", async () => {
    const { giftId, token } = await give();
    expect((await post(token, { intent: "pause", months: "4" })).data.fields).toEqual({
      months: "Please choose to pause for 1, 2 or 3 months.",
    });
    expect((await post(token, { intent: "pause", months: "2" })).data.message).toBe(
      "Your gift is paused: no payment in December 2026 and January 2027. It resumes on Monday 15 February 2027.",
    );
    expect(await gift(giftId)).toMatchObject({ status: "paused" });
    expect((await page(token)).gift).toMatchObject({ status: "paused", resumes: "Monday 15 February 2027" });
    expect((await post(token, { intent: "pause", months: "1" })).data.message).toBe("Your gift is already paused.");
    await runDay("2026-12-15T12:01:00Z");
    await runDay("2027-01-15T12:01:00Z");
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000"]);
    await runDay("2027-02-15T12:01:00Z");
    expect(await gift(giftId)).toMatchObject({ status: "active", pausedUntil: null });
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2027-02 1000"]);
    expect((await history(giftId)).map((entry) => [entry.action, entry.staffEmail])).toEqual([
      ["regular-gift.paused", "the donor, by their private link"],
      ["regular-gift.resumed", "the site, when the pause ended"],
    ]);

    // Paused again for three months (by the link February's receipt brought: the first has
    // expired), then resumed before March's day: March is taken.
    const before = site.smtp.received.length;
    await site.services.outbox.deliverDue();
    const receipt = site.smtp.received.slice(before).find((mail) => mail.text?.includes("/giving/"));
    const fresh = /\/giving\/([\w-]+)/.exec(receipt!.text ?? "")![1]!;
    clock.set("2027-02-20T10:00:00Z");
    await post(fresh, { intent: "pause", months: "3" });
    clock.set("2027-03-02T10:00:00Z");
    expect((await post(fresh, { intent: "resume" })).data.message).toBe(
      "Your gift has started again: your next payment is on Monday 15 March 2027.",
    );
    await runDay("2027-03-15T12:01:00Z");
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2027-02 1000", "2027-03 1000"]);
    expect((await changeMails()).filter((subject) => /paused|started again/.test(subject))).toEqual([
      "Your monthly gift to Kilele Village Trust: paused",
      "Your monthly gift to Kilele Village Trust: paused",
      "Your monthly gift to Kilele Village Trust: started again",
    ]);
  });

  it("cancels when asked once, at the provider first, and no later month is taken", async () => {
    const { giftId, token } = await give();
    const answer = await post(token, { intent: "cancel" });
    expect(answer.data.message).toBe(
      "Your monthly gift is cancelled. No further payment will be taken. Thank you for all you gave.",
    );
    const [subscription] = await site.database.db
      .select()
      .from(offlineSubscriptions)
      .where(eq(offlineSubscriptions.id, (await gift(giftId)).providerSubscriptionId!));
    expect(subscription?.status).toBe("canceled");
    expect(await gift(giftId)).toMatchObject({ status: "cancelled" });
    expect((await post(token, { intent: "amount", amount: "15" })).data.message).toBe(
      "This monthly gift is cancelled, so it cannot be changed.",
    );
    expect((await page(token, "?confirm=cancel")).confirmCancel).toBe(false);
    expect(await runDay("2026-12-15T12:01:00Z")).toEqual([]);
    expect(await changeMails()).toContain("Your monthly gift to Kilele Village Trust: cancelled");

    // Staff see what the donor did on the gift's page.
    const { cookie } = await signedInStaff(site.database.db, clock.now(), { role: "treasurer" });
    const detail = (await callRoute(
      staffGiftLoader,
      new Request(`http://localhost/admin/regular-giving/${giftId}`, { headers: { cookie } }),
      site.services,
      { params: { giftId } },
    )) as unknown as Awaited<ReturnType<typeof staffGiftLoader>>;
    expect(detail.history).toEqual([
      expect.objectContaining({
        summary: "Cancelled the monthly gift of £10.00",
        by: "the donor, by their private link",
      }),
    ]);
  });

  it("lets staff cancel a paused gift at the donor's request", async () => {
    const { giftId, token } = await give();
    await post(token, { intent: "pause", months: "3" });
    const { staff } = await signedInStaff(site.database.db, clock.now(), { role: "treasurer" });
    expect(await cancelRegularGiftForDonor(site.services, staff, giftId)).toBe("cancelled");
    expect(await gift(giftId)).toMatchObject({ status: "cancelled", pausedUntil: null });
  });

  it("saves a new card only when the provider takes it, and says why beside the field when it does not", async () => {
    const { giftId, token } = await give();
    const subscriptionOf = async () =>
      (
        await site.database.db
          .select()
          .from(offlineSubscriptions)
          .where(eq(offlineSubscriptions.id, (await gift(giftId)).providerSubscriptionId!))
      )[0]!;
    const declined = await post(token, {
      intent: "card",
      cardnumber: "4000 0000 0000 0002",
      "exp-date": "12 / 34",
      cvc: "123",
    });
    expect(declined.data).toMatchObject({ ok: false, fields: { cardnumber: "Your card was declined." } });
    expect(
      (await post(token, { intent: "card", cardnumber: "4242 4242 4242 4242", "exp-date": "01 / 20", cvc: "1" })).data
        .fields,
    ).toEqual({ "exp-date": "Your card's expiration year is in the past." });
    expect(await history(giftId)).toEqual([]);

    await site.database.db
      .update(offlineSubscriptions)
      .set({ cardLast4: "0000" })
      .where(eq(offlineSubscriptions.id, (await subscriptionOf()).id));
    const saved = await post(token, {
      intent: "card",
      cardnumber: "4242 4242 4242 4242",
      "exp-date": "12 / 34",
      cvc: "123",
    });
    expect(saved.data.message).toBe(
      "Your new card is saved: your Visa card ending 4242 pays your gift from Tuesday 15 December 2026.",
    );
    expect(await subscriptionOf()).toMatchObject({ cardBrand: "visa", cardLast4: "4242" });
    expect((await history(giftId)).map((entry) => entry.action)).toEqual(["regular-gift.card-changed"]);
    expect(await changeMails()).toContain("Your monthly gift to Kilele Village Trust: new card saved");
    await runDay("2026-12-15T12:01:00Z");
    const [december] = await site.database.db
      .select()
      .from(donations)
      .where(and(eq(donations.regularGiftId, giftId), eq(donations.billingMonth, "2026-12")));
    expect(december).toMatchObject({ status: "paid", cardLast4: "4242" });
  });

  it("takes a Gift Aid declaration from the next payment on, and a withdrawal stops later payments only", async () => {
    const { giftId, token } = await give();
    const refused = await post(token, {
      intent: "declare",
      firstName: "Amina",
      surname: "Mushi",
      houseNameOrNumber: "4",
      postcode: "nowhere",
    });
    expect(refused.data.fields).toEqual({ postcode: "Please enter a UK postcode, such as SW1A 1AA." });
    expect((await gift(giftId)).declarationWaiting).toBeNull();

    clock.set("2026-12-01T10:00:00Z");
    const declared = await post(token, {
      intent: "declare",
      firstName: "Amina",
      surname: "Mushi",
      houseNameOrNumber: "4",
      postcode: "sw1a1aa",
    });
    expect(declared.data.message).toBe(
      "Thank you: Gift Aid is claimed on your gift from your next payment on Tuesday 15 December 2026.",
    );
    expect((await page(token)).gift).toMatchObject({ giftAid: true, giftAidFromNext: true });
    await runDay("2026-12-15T12:01:00Z");
    const [declaration] = await site.database.db.select().from(giftAidDeclarations);
    expect(declaration).toMatchObject({ scope: "this-and-future", postcode: "SW1A 1AA" });
    expect(declaration!.wording).toBe(
      "I want to Gift Aid my monthly gift of £10.00, and all donations I make in the future until I cancel, to Kilele Village Trust. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.",
    );
    expect((await page(token)).gift).toMatchObject({ giftAid: true, giftAidFromNext: false });

    clock.set("2026-12-20T10:00:00Z");
    expect((await post(token, { intent: "withdraw" })).data.message).toBe(
      "Your Gift Aid declaration is withdrawn: later payments will not be claimed.",
    );
    await runDay("2027-01-15T12:01:00Z");
    const all = await loadDonationsAndDeclarations(site.database.db);
    const covered = all.donations
      .filter((d) => d.regularGiftId === giftId)
      .map((d) => [d.billingMonth, giftAidDeclarationFor(d, all.declarations) !== undefined] as const)
      .sort();
    expect(covered).toEqual([
      ["2026-11", false],
      ["2026-12", true],
      ["2027-01", false],
    ]);
    expect((await history(giftId)).map((entry) => entry.action)).toEqual([
      "regular-gift.gift-aid-declared",
      "regular-gift.gift-aid-withdrawn",
    ]);
    expect(await changeMails()).toEqual(
      expect.arrayContaining([
        "Your monthly gift to Kilele Village Trust: Gift Aid declared",
        "Your monthly gift to Kilele Village Trust: Gift Aid withdrawn",
      ]),
    );
  });

  it("withdraws the declaration made with the monthly form: its receipts then say Gift Aid is not declared", async () => {
    const { giftId, token } = await give(true);
    expect((await page(token)).gift).toMatchObject({ giftAid: true, giftAidFromNext: false });
    expect(
      (
        await post(token, {
          intent: "declare",
          firstName: "A",
          surname: "M",
          houseNameOrNumber: "4",
          postcode: "SW1A 1AA",
        })
      ).data.message,
    ).toBe("Gift Aid is already declared on your gift.");
    await post(token, { intent: "withdraw" });
    const [declaration] = await site.database.db.select().from(giftAidDeclarations);
    expect(declaration).toMatchObject({ cancelledBy: "the donor, by their private link" });
    expect(declaration!.cancelledAt).toEqual(clock.now());
    expect((await page(token)).gift).toMatchObject({ giftAid: false });
    expect((await post(token, { intent: "withdraw" })).data.message).toBe(
      "There is no Gift Aid declaration on your gift to withdraw.",
    );
    const before = site.smtp.received.length;
    await runDay("2026-12-15T12:01:00Z");
    await site.services.outbox.deliverDue();
    const receipt = site.smtp.received
      .slice(before)
      .find((mail) => !mail.subject?.includes("Gift Aid withdrawn") && mail.text?.includes("Gift Aid"));
    expect(receipt?.text).toMatch(/Gift Aid:?\s+Not declared/);
    expect(await paidMonths(giftId)).toEqual(["2026-11 1000", "2026-12 1000"]);
  });

  it("sends fresh links from /giving, the same answer for any address, limited per address", async () => {
    const { giftId } = await give();
    const ask = async (email: string, clientAddress = "203.0.113.9") => {
      const body = new FormData();
      body.append("email", email);
      const request = new Request("http://localhost/giving", { method: "POST", body });
      return (await callRoute(linksAction, request, site.services, { clientAddress })) as unknown as Answer;
    };
    expect((await ask("not an address")).data.fields).toEqual({
      email: "Invalid email: please enter a valid email address.",
    });
    const known = await ask("Amina@Example.org");
    const unknown = await ask("nobody@example.org");
    expect(known.data).toEqual(unknown.data);
    const before = site.smtp.received.length;
    await site.services.outbox.deliverDue();
    const sent = site.smtp.received.slice(before);
    expect(sent.map((mail) => mail.subject)).toEqual(["Your link to your monthly gift to Kilele Village Trust"]);
    const token = /\/giving\/([\w-]+)/.exec(sent[0]!.text ?? "")![1]!;
    expect((await page(token)).gift).toMatchObject({ amountPence: 1000 });

    // Three a hour per e-mail address: the fourth is answered the same, and sends nothing.
    await ask("amina@example.org", "203.0.113.10");
    await ask("amina@example.org", "203.0.113.11");
    const fourth = await ask("amina@example.org", "203.0.113.12");
    expect(fourth.data).toEqual(unknown.data);
    await site.services.outbox.deliverDue();
    expect(site.smtp.received.slice(before)).toHaveLength(3);
    expect(await history(giftId)).toEqual([]);
  });
});
