import { and, eq, isNotNull, sum } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { giftByLink, takeDueGiftPayments } from "~/features/donations/regular-gifts.server";
import { auditLog, donations, outbox, regularGiftLinks, regularGifts } from "~db/schema";
import { engines } from "../../tests/support/databases";
import { monthlyGiftSite } from "../../tests/support/monthly-gifts";
import { callRoute, signedInStaff } from "../../tests/support/services";
import { loader as homeLoader } from "./admin._index";
import { loader as csvLoader } from "./admin.regular-giving-csv";
import { action as listAction, loader as listLoader } from "./admin.regular-giving._index";
import { lastTaxYear } from "~/features/donations/annual-statements.server";
import { action as giftAction, loader as giftLoader } from "./admin.regular-giving.id";

// Monthly giving as staff run it (issue 34): the page's figures are the database's own sums, a gift
// is cancelled at the provider before it is recorded (and no later month is taken), a fresh private
// link reaches the donor and opens their gift, and the CSV lists every gift.

describe.each(engines)("the monthly giving pages on %s", (engine) => {
  const site = monthlyGiftSite(engine);
  const { clock } = site;
  let cookie: string;

  beforeEach(async () => {
    ({ cookie } = await signedInStaff(site.database.db, clock.now(), { role: "treasurer" }));
  });

  async function give(name: string, email: string, amount: string, dayOfMonth = "15", giftAid = false) {
    const declaration = { giftAid, firstName: "Amina", surname: "Mushi", houseNameOrNumber: "1", postcode: "M1 1AE" };
    const gift = await site.giveByCard({ amount, dayOfMonth, name, email, ...(giftAid ? declaration : { giftAid }) });
    return gift.regularGiftId;
  }

  /** A session as the clock now stands: the one made at the start has run out a month later. */
  async function signInAgain() {
    ({ cookie } = await signedInStaff(site.database.db, clock.now(), {
      email: "later@example.org",
      role: "treasurer",
    }));
  }

  const staffGet = (url: string) => new Request(`http://localhost${url}`, { headers: { cookie } });
  async function staffPost(giftId: string, intent: string) {
    const body = new FormData();
    body.append("intent", intent);
    const request = new Request(`http://localhost/admin/regular-giving/${giftId}`, {
      method: "POST",
      body,
      headers: { cookie },
    });
    return (await callRoute(giftAction, request, site.services, { params: { giftId } })) as unknown as {
      data: { ok: boolean; message: string };
    };
  }
  const listPage = async (query = "") =>
    (await callRoute(listLoader, staffGet(`/admin/regular-giving${query}`), site.services)) as unknown as Awaited<
      ReturnType<typeof listLoader>
    >;

  it("shows what the running gifts give each month and what came in, as the database sums them", async () => {
    const amina = await give("Amina Mushi", "amina@example.org", "10.00");
    await give("Joseph Kimaro", "joseph@example.org", "25.00", "1");
    clock.set("2026-12-15T12:01:00Z");
    await takeDueGiftPayments(site.services);
    clock.set("2026-12-20T09:00:00Z");
    await signInAgain();

    const page = await listPage();
    const [running] = await site.database.db
      .select({ pence: sum(regularGifts.amountPence).mapWith(Number) })
      .from(regularGifts)
      .where(eq(regularGifts.status, "active"));
    expect(page.summary.monthlyPence).toBe(running!.pence);
    expect(page.summary.monthlyPence).toBe(3500);
    const paid = await site.database.db
      .select()
      .from(donations)
      .where(and(isNotNull(donations.regularGiftId), eq(donations.status, "paid")));
    const inMonth = (month: string) =>
      paid.filter((d) => d.billingMonth === month).reduce((total, d) => total + d.amountPence, 0);
    expect(page.summary.months[0]).toMatchObject({ month: "2026-12", label: "December 2026" });
    expect(page.summary.months[0]!.receivedPence).toBe(inMonth("2026-12"));
    expect(page.summary.months[1]!.receivedPence).toBe(inMonth("2026-11"));
    expect(page.summary.months[1]).toMatchObject({ receivedPence: 3500, payments: 2, running: 2 });
    expect(page.summary.months).toHaveLength(12);
    expect(page.gifts.total).toBe(2);
    const row = page.gifts.rows.find((gift) => gift.id === amina)!;
    expect(row).toMatchObject({ donorName: "Amina Mushi", amountPence: 1000, payments: 2, paidPence: 2000 });

    expect((await listPage("?q=joseph")).gifts.rows.map((gift) => gift.donorName)).toEqual(["Joseph Kimaro"]);
    // A control character (a NUL, which the database's text cannot hold) is a space, not an error.
    expect((await listPage("?page=-1&q=%00")).gifts.total).toBe(2);
    expect((await listPage("?q=%00joseph%0A")).gifts.rows.map((gift) => gift.donorName)).toEqual(["Joseph Kimaro"]);
    expect((await listPage("?status=cancelled")).gifts.total).toBe(0);
  });

  it("cancels a gift at the provider first, tells the donor, and takes no later month", async () => {
    const giftId = await give("Amina Mushi", "amina@example.org", "10.00");
    const answer = await staffPost(giftId, "cancel");
    expect(answer.data).toMatchObject({ ok: true, message: expect.stringContaining("is cancelled") });
    const [gift] = await site.database.db.select().from(regularGifts).where(eq(regularGifts.id, giftId));
    expect(gift).toMatchObject({ status: "cancelled" });
    const [mail] = await site.database.db.select().from(outbox).where(eq(outbox.kind, "regular-gift-cancelled"));
    expect(mail?.recipient).toContain("amina@example.org");
    const audit = await site.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `regular-gift:${giftId}`));
    expect(audit.map((entry) => entry.action)).toEqual(["regular-gift.cancelled"]);
    // Asked again (a second click): nothing more happens.
    expect((await staffPost(giftId, "cancel")).data.message).toBe("That monthly gift was already cancelled.");
    expect(await site.database.db.$count(outbox, eq(outbox.kind, "regular-gift-cancelled"))).toBe(1);

    clock.set("2026-12-15T12:01:00Z");
    expect(await takeDueGiftPayments(site.services)).toEqual([]);
    await signInAgain();
    const detail = (await callRoute(giftLoader, staffGet(`/admin/regular-giving/${giftId}`), site.services, {
      params: { giftId },
    })) as unknown as Awaited<ReturnType<typeof giftLoader>>;
    expect(detail.payments).toHaveLength(1);
    expect(detail.history.map((entry) => entry.summary)).toEqual([
      "Cancelled the monthly gift of £10.00 at the donor's request",
    ]);
    expect((await listPage("?status=cancelled")).gifts.total).toBe(1);
    expect((await listPage()).summary.monthlyPence).toBe(0);
  });

  it("sends the donor a fresh private link that opens their gift", async () => {
    const giftId = await give("Amina Mushi", "amina@example.org", "10.00");
    await site.services.outbox.deliverDue();
    const before = await site.database.db.$count(regularGiftLinks, eq(regularGiftLinks.regularGiftId, giftId));
    expect((await staffPost(giftId, "send-link")).data).toMatchObject({ ok: true });
    expect(await site.database.db.$count(regularGiftLinks, eq(regularGiftLinks.regularGiftId, giftId))).toBe(
      before + 1,
    );
    await site.services.outbox.deliverDue();
    const mail = site.smtp.received.find((message) => message.subject?.startsWith("Your link to your monthly gift"));
    expect(mail?.to).toMatchObject({ text: expect.stringContaining("amina@example.org") });
    const token = /\/giving\/([\w-]+)/.exec(mail!.text ?? "")![1]!;
    expect(await giftByLink(site.database.db, token, clock.now())).toMatchObject({
      amountPence: 1000,
      status: "active",
    });
  });

  it("downloads every gift as CSV, and the download is in the audit log", async () => {
    await give("Amina Mushi", "amina@example.org", "10.00");
    const response = (await callRoute(csvLoader, staffGet("/admin/regular-giving.csv"), site.services)) as Response;
    const text = await response.text();
    expect(text.split("\r\n")[0]).toBe(
      "Donor,E-mail,Each month,Day,State,Started,Cancelled,Payments,Paid so far,Last paid,Gift Aid,Paid by,Direct Debit reference,Direct Debit state",
    );
    expect(text).toContain(
      "Amina Mushi,amina@example.org,£10.00,the 15th,Active,2026-11-27,,1,£10.00,2026-11-27,No,Card,,",
    );
    expect(await site.database.db.$count(auditLog, eq(auditLog.action, "regular-gifts.exported"))).toBe(1);
  });

  it("lists a gift whose payment failed, there and on the staff home's to-do list", async () => {
    const giftId = await give("Amina Mushi", "amina@example.org", "10.00");
    await give("Joseph Kimaro", "joseph@example.org", "25.00");
    // As the provider reports a refused card (the webhook's work, tested with the gifts themselves).
    await site.database.db.update(regularGifts).set({ status: "failing" }).where(eq(regularGifts.id, giftId));
    const page = await listPage();
    expect(page.summary.failingNow.map((gift) => gift.donorName)).toEqual(["Amina Mushi"]);
    expect(page.summary).toMatchObject({ active: 1, failing: 1, monthlyPence: 3500 });
    const home = await callRoute(homeLoader, staffGet("/admin"), site.services);
    expect(home.failingGifts).toBe(1);
  });

  it("knows the last tax year: 6 April to 5 April, London time", () => {
    expect(lastTaxYear(new Date("2026-04-05T22:59:00Z"))).toMatchObject({ key: "2024-25", label: "2024–25" });
    expect(lastTaxYear(new Date("2026-04-05T23:00:00Z"))).toMatchObject({ key: "2025-26" });
    expect(lastTaxYear(new Date("2026-11-27T12:00:00Z")).start.toISOString()).toBe("2025-04-05T23:00:00.000Z");
    expect(lastTaxYear(new Date("2027-01-10T12:00:00Z")).end.toISOString()).toBe("2026-04-05T23:00:00.000Z");
  });

  it("sends each monthly donor one statement of the last tax year, with its Gift Aid, however often it is pressed", async () => {
    clock.set("2026-01-20T10:00:00Z");
    await give("Amina Mushi", "amina@example.org", "10.00", "15", true);
    clock.set("2026-02-15T12:01:00Z");
    await takeDueGiftPayments(site.services);
    clock.set("2026-03-15T12:01:00Z");
    await takeDueGiftPayments(site.services);
    clock.set("2026-04-15T12:01:00Z"); // The next tax year's first month: not on the statement.
    await takeDueGiftPayments(site.services);
    clock.set("2026-05-02T09:00:00Z");
    await signInAgain();
    await site.services.outbox.deliverDue();

    expect((await listPage()).statements).toMatchObject({ year: { label: "2025–26" }, donors: 1, lastSent: null });
    const press = async () => {
      const body = new FormData();
      body.append("intent", "statements");
      const request = new Request("http://localhost/admin/regular-giving", {
        method: "POST",
        body,
        headers: { cookie },
      });
      return ((await callRoute(listAction, request, site.services)) as unknown as { data: { message: string } }).data;
    };
    expect((await press()).message).toBe("1 statement on its way.");
    expect((await press()).message).toBe(
      "0 statements on their way; 1 donor had theirs already, and is not sent it twice.",
    );
    await site.services.outbox.deliverDue();
    const statements = site.smtp.received.filter((mail) => mail.subject?.includes("in the tax year 2025–26"));
    expect(statements).toHaveLength(1);
    const text = statements[0]!.text!.replace(/\s+/g, " ");
    expect(text).toContain("Your gifts: £30.00");
    expect(text).toContain("Gift Aid we claimed or will claim on them: £7.50");
    expect(text).not.toContain("15 April 2026");
    expect((await listPage()).statements.lastSent).not.toBeNull();
  });
});
