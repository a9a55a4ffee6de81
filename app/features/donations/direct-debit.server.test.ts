import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { action as giftsRoute } from "~/routes/api.regular-gifts";
import { loader as paymentPage } from "~/routes/payment";
import { loader as givingLoader } from "~/routes/giving.token";
import { action as eraseRoute } from "~/routes/api.admin.people.erase";
import { loader as exportRoute } from "~/routes/api.admin.people";
import { testBankMessages, bankMessages } from "~/lib/bacs";
import {
  auditLog,
  donations,
  offlineMandates,
  offlinePayments,
  offlineSubscriptions,
  outbox,
  regularGifts,
} from "~db/schema";
import { engines } from "../../../tests/support/databases";
import {
  giftLinkToken,
  jsonPost,
  monthlyDonor,
  monthlyGiftSite,
  sendGiftPageForm,
} from "../../../tests/support/monthly-gifts";
import { callRoute, signedInStaff } from "../../../tests/support/services";
import { donationsReadyToClaim } from "./gift-aid-claims.server";
import { takeDueGiftPayments } from "./regular-gifts.server";
import { staffDonationViews } from "./staff-donations.server";
import { allRegularGifts, regularGiftDetail } from "./staff-regular-gifts.server";
import { regularGiftMessages } from "./schema";

// A monthly gift by Bacs Direct Debit on the offline provider (docs/decisions/092-direct-debit.md),
// through the site's own routes: Stripe's test sort code and accounts, the mandate's confirmation
// with its advance notice, a first payment processing for a new mandate's six working days, later
// months collected on the donor's day and settled three working days on, each month one donation
// row, receipted as Direct Debit and in the Gift Aid claim; a failed payment and a refused mandate
// told once. The account number is never kept.

const donor = { ...monthlyDonor, payBy: "direct-debit" };
const bank = { accountName: "Amina Mushi", sortCode: "10-88-00", accountNumber: "00012345", confirmed: "yes" };

describe.each(engines)("monthly gifts by Direct Debit on the offline provider, on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  /** The minute's payment job run at each moment in turn, as the site's clock reaches it. */
  async function runJobAt(...moments: string[]) {
    for (const moment of moments) {
      site.clock.set(moment);
      await takeDueGiftPayments(site.services);
    }
  }
  const { clock } = site;

  const start = () => site.start(donor);
  const confirm = (gift: { clientSecret: string }, details: Record<string, string>) =>
    site.confirm(gift, { bank: details });
  async function give(details = bank) {
    const gift = await start();
    const answer = await confirm(gift, details);
    expect(await answer.json()).toEqual({ status: "processing" });
    return gift;
  }
  const giftRow = async (id: string) =>
    (await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, id)))[0]!;
  const paidMonths = async (id: string) =>
    (await site.database.db.select().from(donations).where(eq(donations.regularGiftId, id)))
      .filter((row) => row.status === "paid")
      .map((row) => row.billingMonth)
      .sort();
  const subjects = () => site.smtp.sentTo("amina@example.org").map((mail) => mail.subject);

  it("sets up the mandate, confirms it with its advance notice, and collects each month once, settled days later", async () => {
    const gift = await give();
    const stored = await giftRow(gift.regularGiftId);
    expect(stored).toMatchObject({
      status: "incomplete",
      paymentMethod: "bacs_debit",
      bankAccountName: "Amina Mushi",
      bankSortCode: "108800",
      bankLast4: "2345",
      mandateStatus: "pending",
    });
    expect(stored.mandateReference).toMatch(/^[A-Z0-9]{10,18}$/);

    // The page the donor returns to says it is set up, when the first payment comes, and the e-mail.
    const page = await callRoute(
      paymentPage,
      new Request(`http://localhost/payment?amount=10.00&give=monthly&gift=${gift.regularGiftId}`),
      site.services,
    );
    expect(page.view).toMatchObject({
      kind: "direct-debit",
      amountPence: 1000,
      first: "Monday 7 December 2026",
      then: "Tuesday 15 December 2026",
      noticeBySite: true,
    });

    await site.services.outbox.deliverDue();
    expect(subjects()).toEqual(["Confirmation of your Direct Debit Instruction to Kilele Village Trust"]);
    const notice = site.smtp.sentTo("amina@example.org")[0]!.text ?? "";
    for (const words of [
      "This confirms the set-up of your Direct Debit Instruction to Kilele Village Trust",
      "Please check the details below",
      "Account holder: Amina Mushi",
      "Account number: ••••2345",
      "Sort code: 10-88-00",
      `Mandate reference: ${stored.mandateReference}`,
      "01632 960 123",
      "kilele@example.org",
      "Your first payment of £10.00 will be collected on or shortly after Monday 7 December 2026",
      "£10.00 will be collected on the 15th of each month (or the next working day), starting on Tuesday 15 December 2026",
      "You can cancel your Direct Debit at any time by contacting your bank or building society",
      "If there are any changes to the amount, date or frequency of your Direct Debit Kilele Village Trust will notify you 3 working days in advance of your account being debited or as otherwise agreed.",
      "If you receive a refund you are not entitled to, you must pay it back when Kilele Village Trust asks you to",
    ])
      expect(notice).toContain(words);

    // Nothing is recorded while the bank sets the mandate up: six working days, weekends skipped.
    clock.set("2026-12-07T19:59:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    clock.set("2026-12-07T20:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toHaveLength(1);
    expect(await paidMonths(gift.regularGiftId)).toEqual(["2026-11"]);
    expect(await giftRow(gift.regularGiftId)).toMatchObject({ status: "active", mandateStatus: "active" });

    // December's collection on the 15th, settled three working days on (Friday the 18th).
    clock.set("2026-12-15T12:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    const [processing] = await site.database.db
      .select()
      .from(offlinePayments)
      .where(eq(offlinePayments.status, "processing"));
    expect(processing).toMatchObject({ amountPence: 1000, paymentMethod: "bacs_debit" });
    clock.set("2026-12-18T12:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toHaveLength(1);
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect(await paidMonths(gift.regularGiftId)).toEqual(["2026-11", "2026-12"]);

    await site.services.outbox.deliverDue();
    expect(subjects()).toEqual([
      "Confirmation of your Direct Debit Instruction to Kilele Village Trust",
      "Welcome, and thank you for your monthly gift of £10.00 to Kilele Village Trust",
      "Your monthly gift of £10.00 to Kilele Village Trust: receipt",
    ]);
    const [, welcome, receipt] = site.smtp.sentTo("amina@example.org");
    expect(welcome!.text).toContain("Your first payment by Direct Debit was collected on 07/12/2026");
    expect(welcome!.text).toContain("starting on Tuesday 15 December 2026");
    expect(welcome!.text).toContain("Paid by: Direct Debit from account ••••2345, sort code 10-88-00");
    expect(welcome!.text).not.toContain("Card:");
    expect(receipt!.text).toContain("by Direct Debit");
    expect(receipt!.text).toContain("Next payment: £10.00 on Friday 15 January 2027");

    // Both months are claimable under the enduring declaration.
    const claim = await donationsReadyToClaim(site.services);
    expect(claim.map((row) => [row.row[7], row.row[8]])).toEqual([
      ["07/12/26", "10.00"],
      ["18/12/26", "10.00"],
    ]);

    // The account number is kept nowhere: not on the gift, the provider's tables or the outbox.
    const everything = JSON.stringify([
      await site.database.db.select().from(regularGifts),
      await site.database.db.select().from(offlineMandates),
      await site.database.db.select().from(offlinePayments),
      await site.database.db.select().from(offlineSubscriptions),
      await site.database.db.select().from(outbox),
      await site.database.db.select().from(donations),
    ]);
    expect(everything).not.toContain("00012345");
  });

  it("refuses bank details that are wrong or not Stripe's test ones beside their field, and changes nothing", async () => {
    const gift = await start();
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { accountName: "", sortCode: "10-88", accountNumber: "123", confirmed: "" },
        {
          accountName: bankMessages.accountName,
          sortCode: bankMessages.sortCode,
          accountNumber: bankMessages.accountNumber,
          confirmed: bankMessages.confirmed,
        },
      ],
      [{ ...bank, sortCode: "20-00-00" }, { accountNumber: testBankMessages.unknown }],
      [{ ...bank, accountNumber: "12345678" }, { accountNumber: testBankMessages.unknown }],
      [{ ...bank, accountNumber: "00044444" }, { accountNumber: testBankMessages.invalid }],
    ];
    for (const [details, fields] of cases) {
      const answer = await confirm(gift, details);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { fields: unknown }).fields).toEqual(fields);
    }
    expect(testBankMessages.unknown).toContain("10-88-00");
    expect(await site.database.db.select().from(offlineMandates)).toEqual([]);
    expect((await site.database.db.select().from(offlinePayments))[0]!.status).toBe("requires_payment_method");
    expect(await giftRow(gift.regularGiftId)).toMatchObject({ status: "incomplete", providerMandateId: null });
    expect(await site.database.db.select().from(outbox)).toEqual([]);

    // A way of paying that is not offered is refused, and nothing is recorded.
    const refused = await callRoute(
      giftsRoute,
      jsonPost("/api/regular-gifts", { ...donor, payBy: "cheque" }),
      site.services,
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: Record<string, string> }).fields.payBy).toBe(regularGiftMessages.payBy);
  });

  it("a Direct Debit the bank does not pay fails the gift and tells the donor once, in words about bank details", async () => {
    const gift = await give({ ...bank, accountNumber: "33333335" });
    clock.set("2026-12-07T20:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect(await paidMonths(gift.regularGiftId)).toEqual([]);
    expect(await giftRow(gift.regularGiftId)).toMatchObject({ status: "failing" });
    await site.services.outbox.deliverDue();
    expect(subjects()).toEqual([
      "Confirmation of your Direct Debit Instruction to Kilele Village Trust",
      "Your monthly gift of £10.00 to Kilele Village Trust: this month's payment did not go through",
    ]);
    const failed = site.smtp.sentTo("amina@example.org")[1]!.text ?? "";
    expect(failed).toContain("Your bank did not pay this month's Direct Debit of £10.00");
    expect(failed).toContain("new bank details through your private link");
    expect(failed).not.toContain("card");
  });

  it("a mandate the bank refuses stops the gift: staff see it, and the donor is told once with a fresh link", async () => {
    const gift = await give({ ...bank, accountNumber: "00033333" });
    clock.set("2026-12-07T20:01:00Z");
    await takeDueGiftPayments(site.services);
    await takeDueGiftPayments(site.services);
    expect(await giftRow(gift.regularGiftId)).toMatchObject({ status: "failing", mandateStatus: "inactive" });
    const entries = await site.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${gift.regularGiftId}`));
    expect(entries.map((entry) => entry.action)).toEqual(["regular-gift.mandate-inactive"]);
    await site.services.outbox.deliverDue();
    const stopped = site.smtp.sentTo("amina@example.org").filter((mail) => mail.subject?.includes("has stopped"));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.text).toMatch(/https:\/\/kilele\.example\/giving\/[A-Za-z0-9_-]{20,}/);
    // No later month is collected from an inactive mandate.
    clock.set("2027-01-20T12:00:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    expect(await paidMonths(gift.regularGiftId)).toEqual([]);
  });

  /** A Direct Debit gift whose first payment has settled, and the token of its welcome's link. */
  async function running() {
    const gift = await give();
    clock.set("2026-12-07T20:01:00Z");
    await takeDueGiftPayments(site.services);
    await site.services.outbox.deliverDue();
    const welcome = site.smtp.sentTo("amina@example.org").find((mail) => mail.subject?.startsWith("Welcome"));
    const token = giftLinkToken(welcome!.text ?? "");
    return { giftId: gift.regularGiftId, token };
  }
  type Answer = {
    data: { ok: boolean; message: string; fields?: Record<string, string>; values?: Record<string, string> };
  };
  const change = (token: string, fields: Record<string, string>) =>
    sendGiftPageForm<Answer>(site.services, token, fields);
  const collected = async (id: string) =>
    (await site.database.db.select().from(donations).where(eq(donations.regularGiftId, id)))
      .filter((row) => row.status === "paid")
      .map((row) => `${row.billingMonth} ${row.amountPence}`)
      .sort();

  it("gives an advance notice of a new amount, and a change inside the notice period waits for the collection after", async () => {
    const { giftId, token } = await running();
    // Tuesday 8 December: the 15th is more than three working days ahead, so it takes the new amount.
    clock.set("2026-12-08T10:00:00Z");
    const first = await change(token, { intent: "amount", amount: "15" });
    expect(first.data.message).toBe(
      "Your gift is now £15.00 a month, from your next payment on Tuesday 15 December 2026.",
    );
    await site.services.outbox.deliverDue();
    const notice = site.smtp.sentTo("amina@example.org").at(-1)!;
    expect(notice.subject).toBe("Your Direct Debit to Kilele Village Trust: advance notice, now £15.00 a month");
    expect(notice.text).toContain("First collection: On or shortly after Tuesday 15 December 2026");
    expect(notice.text).toContain("Then: £15.00 on the 15th of each month");
    expect(notice.text).toContain("Account number: ••••2345");
    expect(notice.text).toContain("The Direct Debit Guarantee");

    // Monday 14 December: the 15th is inside the notice period. It is collected at £15.00 as told;
    // £20.00 from January's.
    clock.set("2026-12-14T10:00:00Z");
    const second = await change(token, { intent: "amount", amount: "20" });
    expect(second.data.message).toBe(
      "Your gift is now £20.00 a month, from your payment on Friday 15 January 2027. Your payment on Tuesday 15 December 2026 stays £15.00, as we told you.",
    );
    await runJobAt("2026-12-15T12:01:00Z", "2026-12-18T12:01:00Z", "2027-01-15T12:01:00Z", "2027-01-20T12:01:00Z");
    expect(await collected(giftId)).toEqual(["2026-11 1000", "2026-12 1500", "2027-01 2000"]);
    expect(await giftRow(giftId)).toMatchObject({ amountPence: 2000, status: "active" });

    // A new day inside the notice period: the notified collection stands, the new day follows it.
    clock.set("2027-02-11T10:00:00Z");
    const day = await change(token, { intent: "day", dayOfMonth: "20" });
    expect(day.data.message).toBe(
      "Your gift is now taken on the 20th of each month. Your next payment is on Saturday 20 March 2027. Your payment on Monday 15 February 2027 is collected as we told you.",
    );
    await site.services.outbox.deliverDue();
    expect(site.smtp.sentTo("amina@example.org").at(-1)!.subject).toBe(
      "Your Direct Debit to Kilele Village Trust: advance notice, now taken on the 20th of the month",
    );
    await runJobAt("2027-02-15T12:01:00Z", "2027-03-20T12:01:00Z", "2027-03-26T12:01:00Z");
    expect(await collected(giftId)).toEqual([
      "2026-11 1000",
      "2026-12 1500",
      "2027-01 2000",
      "2027-02 2000",
      "2027-03 2000",
    ]);
  });

  it("takes new bank details as a new mandate: refused beside its field, confirmed by e-mail, and collected from", async () => {
    const { giftId, token } = await running();
    clock.set("2026-12-08T10:00:00Z");
    // A card cannot be given to a Direct Debit gift.
    const card = await change(token, {
      intent: "card",
      cardnumber: "4242 4242 4242 4242",
      "exp-date": "12/34",
      cvc: "1",
    });
    expect(card.data.ok).toBe(false);
    const refused = await change(token, {
      intent: "bank",
      accountName: "Amina Mushi",
      sortCode: "10-88-00",
      accountNumber: "00044444",
      confirmed: "yes",
    });
    expect(refused.data.fields).toEqual({ accountNumber: testBankMessages.invalid });
    // What was typed comes back, never the account number.
    expect(JSON.stringify(refused)).not.toContain("00044444");
    const before = await giftRow(giftId);
    const saved = await change(token, {
      intent: "bank",
      accountName: "Amina Mushi",
      sortCode: "108800",
      accountNumber: "90012345",
      confirmed: "yes",
    });
    expect(saved.data.message).toBe(
      "Your new bank details are saved: your gift is collected from account ••••2345, sort code 10-88-00 from Tuesday 15 December 2026. We have e-mailed you the confirmation of your new Direct Debit Instruction.",
    );
    const after = await giftRow(giftId);
    expect(after.providerMandateId).not.toBe(before.providerMandateId);
    expect(after.mandateReference).not.toBe(before.mandateReference);
    const entries = await site.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`));
    expect(entries.map((entry) => entry.action)).toContain("regular-gift.bank-changed");
    await site.services.outbox.deliverDue();
    const confirmations = site.smtp
      .sentTo("amina@example.org")
      .filter((mail) => mail.subject === "Confirmation of your Direct Debit Instruction to Kilele Village Trust");
    expect(confirmations).toHaveLength(2);
    expect(confirmations[1]!.text).toContain(`Mandate reference: ${after.mandateReference}`);
    expect(confirmations[1]!.text).toContain("starting on Tuesday 15 December 2026");
    const page = (await callRoute(givingLoader, new Request(`http://localhost/giving/${token}`), site.services, {
      params: { token },
    })) as unknown as { gift: { bank: { reference: string } } };
    expect(page.gift.bank.reference).toBe(after.mandateReference);
    await runJobAt("2026-12-15T12:01:00Z", "2026-12-18T12:01:00Z");
    expect(await collected(giftId)).toEqual(["2026-11 1000", "2026-12 1000"]);
    const [december] = await site.database.db
      .select()
      .from(offlinePayments)
      .where(eq(offlinePayments.createdAt, new Date("2026-12-15T12:00:00Z")));
    expect(december!.mandateId).toBe(after.providerMandateId);
  });

  it("shows staff how each gift is paid, its Instruction and its state, and Direct Debit months as such", async () => {
    const gift = await give();
    let [listed] = await allRegularGifts(site.database.db);
    expect(listed).toMatchObject({
      paidBy: "Direct Debit from 10-88-00 ••••2345",
      statusLabel: "Direct Debit set up: the first payment is on its way",
      mandate: { status: "pending", statusLabel: "Being set up by the bank" },
    });
    clock.set("2026-12-07T20:01:00Z");
    await takeDueGiftPayments(site.services);
    const detail = await regularGiftDetail(site.database.db, gift.regularGiftId);
    expect(detail!.gift).toMatchObject({ statusLabel: "Active", mandate: { statusLabel: "Active" } });
    expect(detail!.gift.mandate!.reference).toBe((await giftRow(gift.regularGiftId)).mandateReference);
    const [month] = await staffDonationViews(site.database.db);
    expect(month!.monthly).toMatchObject({ month: "November 2026", directDebit: true });
    [listed] = await allRegularGifts(site.database.db);
    expect(listed!.paymentMethod).toBe("bacs_debit");
  });

  it("a person's export shows the bank details held (never the number), and erasure removes them", async () => {
    const gift = await give();
    const { cookie } = await signedInStaff(site.database.db, clock.now());
    const exported = await callRoute(
      exportRoute,
      new Request("http://localhost/api/admin/people?email=amina@example.org", { headers: { Cookie: cookie } }),
      site.services,
    );
    const data = (await exported.json()) as { regularGifts: Record<string, unknown>[] };
    expect(data.regularGifts[0]).toMatchObject({
      paidBy: "bacs_debit",
      directDebit: { accountHolder: "Amina Mushi", sortCode: "108800", accountNumberEndsWith: "2345" },
    });
    expect(JSON.stringify(data)).not.toContain("00012345");
    const erased = await callRoute(
      eraseRoute,
      new Request("http://localhost/api/admin/people/erase", {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie, Origin: "http://localhost" },
        body: JSON.stringify({ email: "amina@example.org" }),
      }),
      site.services,
    );
    expect(erased.status, await erased.clone().text()).toBe(200);
    expect(await giftRow(gift.regularGiftId)).toMatchObject({
      status: "cancelled",
      bankAccountName: null,
      bankSortCode: null,
      bankLast4: null,
    });
    const mandates = await site.database.db.select().from(offlineMandates);
    expect(mandates.map((mandate) => mandate.accountName)).toEqual(["Erased"]);
    // Its first payment was already with the bank (a Bacs collection cannot be called back): the
    // money that arrives is recorded, under the erased name, and nothing more is collected.
    await runJobAt("2026-12-08T12:00:00Z", "2027-01-20T12:00:00Z");
    const months = await site.database.db
      .select()
      .from(donations)
      .where(eq(donations.regularGiftId, gift.regularGiftId));
    expect(months.filter((row) => row.status === "paid").map((row) => [row.billingMonth, row.donorName])).toEqual([
      ["2026-11", "Erased"],
    ]);
  });
});
