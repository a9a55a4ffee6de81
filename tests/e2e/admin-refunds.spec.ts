import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { openDatabase } from "~/infra/db/database.server";
import { offlineRefunds } from "~db/schema";
import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { TestSmtpServer } from "../support/smtp";
import { createEvent, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Bookings and refunds, and cancelling an event (docs/decisions/015-bookings-and-refunds.md):
// through the staff pages, with the buyers' e-mail arriving at a real SMTP server on loopback.

test.slow();
// Each test starts its own site (with a mail server); none needs the shared one.
test.use({ baseURL: undefined });

const mailFrom = "Kilele Village Trust <bookings@example.org>";

/** The e-mails received for `to` whose subject matches. */
function mailsTo(smtp: TestSmtpServer, to: string, subject: RegExp) {
  return smtp.received.filter(
    (mail) => mail.to && !Array.isArray(mail.to) && mail.to.text.includes(to) && subject.test(mail.subject ?? ""),
  );
}

test.describe("one booking", () => {
  const running = useSiteWithMailServer(mailFrom);

  test("staff refund one ticket of four, then the rest: the seats go back on sale, the door knows, the buyer is told, and a double submit refunds once", async ({
    page,
  }) => {
    const { site, smtp } = running;
    const api = await staffApi(site);
    const event = await createEvent(api, { name: "Barn Dance", totalAvailableTickets: 10 });
    const ref = await buyTickets(api, event.id, { name: "Neema Mollel", email: "neema@example.org", quantity: 4 });
    await expect.poll(() => mailsTo(smtp, "neema@example.org", /Your booking/).length).toBe(1);

    await page.goto(`${site.url}/fundraising-event/${event.id}`);
    await expect(page.getByText("Only 6 tickets left")).toBeVisible();

    // Find it by the short code on the receipt.
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/bookings`);
    await expect(page.getByRole("heading", { name: "Find a booking", level: 1 })).toBeVisible();
    await page.getByLabel("Name, e-mail or booking code").fill("0000-0000");
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page.getByText(/^No booking matches “0000-0000”\. Try the surname alone/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const code = `${ref.slice(0, 4)}-${ref.slice(4, 8)}`.toUpperCase();
    await page.getByLabel("Name, e-mail or booking code").fill(code);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page).toHaveURL(`${site.url}/admin/bookings/${ref}`);
    await expect(page.getByRole("heading", { name: `Booking ${code}`, level: 1 })).toBeVisible();
    const facts = page.locator(".booking-facts");
    await expect(facts).toContainText("Neema Mollel");
    await expect(facts).toContainText("£50.49");
    await expect(page.getByLabel("Tickets to refund")).toHaveValue("4");
    await expectNoSeriousA11yViolations(page);

    // More than are left: the server says how many can be, beside the field.
    await page.getByLabel("Tickets to refund").fill("5");
    await page.getByLabel("Reason").fill("One of the group cannot come");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(page.locator("#refund-quantity-error")).toHaveText("Only 4 tickets can be refunded.");
    await expectNoSeriousA11yViolations(page);

    // One ticket: a question naming the amount first.
    await page.getByLabel("Tickets to refund").fill("1");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Refund £12.50?" });
    await expect(dialog.getByRole("button", { name: "Keep the tickets" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Refund £12.50" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Refunded:" })).toHaveText(
      "Refunded: 1 ticket, £12.50. The buyer is told by e-mail.",
    );
    await expect(facts).toContainText("Tickets still valid3");
    await expect(page.getByRole("table", { name: "Table of refunds" }).or(page.locator("table"))).toContainText(
      "One of the group cannot come",
    );
    await expectNoSeriousA11yViolations(page);

    await expect.poll(() => mailsTo(smtp, "neema@example.org", /^Refund for Barn Dance/).length).toBe(1);
    const [told] = mailsTo(smtp, "neema@example.org", /^Refund for Barn Dance/);
    expect(told!.text).toContain("We have refunded 1 ticket");
    expect(told!.text).toContain("£12.50");
    expect(told!.text).toContain("still has 3 valid tickets");
    expect(told!.html).toContain("Why: One of the group cannot come");

    // The seat is on sale again at once, and the door lets three in.
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(`${site.url}/fundraising-event/${event.id}`);
    await expect(visitor.getByText("Only 7 tickets left")).toBeVisible();
    await visitor.close();
    await page.goto(`${site.url}/admin/check-in/${event.id}`);
    await page.getByLabel("Name, booking code or e-mail").fill(ref);
    await page.getByLabel("Name, booking code or e-mail").press("Enter");
    const answer = page.locator(".door-answer");
    await expect(answer.getByRole("heading")).toHaveText("Valid");
    await expect(answer).toContainText("0 of 3 checked in");

    // The same form sent twice at once (a double click): one refund.
    await page.goto(`${site.url}/admin/bookings/${ref}`);
    await page.getByLabel("Tickets to refund").fill("1");
    await page.getByLabel("Reason").fill("Sent twice");
    const statuses = await page.evaluate(async () => {
      const form = document.querySelector<HTMLFormElement>("#refund-form")!;
      const send = () => fetch(form.action, { method: "POST", body: new FormData(form) }).then((r) => r.status);
      return Promise.all([send(), send()]);
    });
    expect(statuses).toEqual([200, 200]);
    const booking = async () =>
      (await (await page.request.get(`${site.url}/api/admin/bookings/${ref}`)).json()) as {
        refundedPence: number;
        status: string;
        refunds: { reason: string; status: string; amountPence: number }[];
      };
    expect((await booking()).refunds.filter((r) => r.reason === "Sent twice")).toHaveLength(1);
    expect((await booking()).refundedPence).toBe(2500);
    await page.reload();
    await expect(facts).toContainText("Tickets still valid2");

    // The rest: everything not yet refunded, the booking fee too.
    await expect(page.getByLabel("Tickets to refund")).toHaveValue("2");
    await page.getByLabel("Reason").fill("The whole group cannot come");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page
      .getByRole("alertdialog", { name: "Refund £25.49?" })
      .getByRole("button", { name: "Refund £25.49" })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Refunded:" })).toHaveText(
      "Refunded: 2 tickets, £25.49. The buyer is told by e-mail.",
    );
    await expect(facts).toContainText("StatusRefunded");
    await expect(facts).toContainText("Refunded so far£50.49");
    await expect(page.getByRole("region", { name: "Refund", exact: true })).toContainText(
      "This booking has been refunded in full.",
    );
    await expectNoSeriousA11yViolations(page);
    expect(await booking()).toMatchObject({ status: "refunded", refundedPence: 5049 });
    await expect.poll(() => mailsTo(smtp, "neema@example.org", /^Refund for Barn Dance/).length).toBe(3);

    await page.goto(`${site.url}/admin/check-in/${event.id}`);
    await page.getByLabel("Name, booking code or e-mail").fill(ref);
    await page.getByLabel("Name, booking code or e-mail").press("Enter");
    await expect(answer.getByRole("heading")).toHaveText("Refunded");

    // The event's ticket list links the booking; the audit log names no buyer.
    await page.goto(`${site.url}/admin/events/${event.id}`);
    await page.getByRole("link", { name: new RegExp(`^${code}`) }).click();
    await expect(page).toHaveURL(`${site.url}/admin/bookings/${ref}`);
    await page.goto(`${site.url}/admin/audit`);
    await expect(page.locator("tbody")).toContainText("Refunded a booking");
    await expect(page.locator("tbody")).not.toContainText("Neema");
  });

  test("staff correct the buyer's e-mail address and resend the receipt, which arrives at the corrected address", async ({
    page,
  }) => {
    const { site, smtp } = running;
    const api = await staffApi(site);
    const event = await createEvent(api, { name: "Quiz Night" });
    const ref = await buyTickets(api, event.id, { name: "Juma Said", email: "juma@exmaple.org", quantity: 2 });
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/bookings/${ref}`);

    await page.getByLabel("Email").fill("not an address");
    await page.getByRole("button", { name: "Save the buyer's details" }).click();
    await expect(page.locator("#buyer-email-error")).toHaveText("Invalid email: please enter a valid email address.");
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Email").fill("juma@example.org");
    await page.getByRole("button", { name: "Save the buyer's details" }).click();
    await expect(page.getByRole("status").filter({ hasText: "saved" })).toHaveText("The buyer's details are saved.");
    await expect(page.locator(".booking-facts")).toContainText("juma@example.org");

    await page.getByRole("button", { name: "Resend receipt" }).click();
    await expect(page.getByRole("status").filter({ hasText: "receipt" })).toHaveText(
      "The receipt was sent again to juma@example.org.",
    );
    await expect(page.locator(".booking-history")).toContainText("Receipt sent again by staff@example.org");
    await expectNoSeriousA11yViolations(page);
    await expect.poll(() => mailsTo(smtp, "juma@example.org", /Your booking for Quiz Night/).length).toBe(1);
    const [receipt] = mailsTo(smtp, "juma@example.org", /Your booking for Quiz Night/);
    expect(receipt!.text).toContain(ref);

    // The staff API refunds by the same rules: the same key twice is one refund.
    const key = crypto.randomUUID();
    const bad = await api.post(`/api/admin/bookings/${ref}/refunds`, { data: { quantity: 3, reason: "", key } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).fields).toEqual({ reason: "Say why the tickets are refunded (at most 200 characters)." });
    const tooMany = await api.post(`/api/admin/bookings/${ref}/refunds`, { data: { quantity: 3, reason: "Ill", key } });
    expect(tooMany.status()).toBe(400);
    expect((await tooMany.json()).fields).toEqual({ quantity: "Only 2 tickets can be refunded." });
    const first = await api.post(`/api/admin/bookings/${ref}/refunds`, { data: { quantity: 1, reason: "Ill", key } });
    const again = await api.post(`/api/admin/bookings/${ref}/refunds`, { data: { quantity: 1, reason: "Ill", key } });
    expect([first.status(), again.status()]).toEqual([201, 200]);
    const made = (await first.json()) as { id: string; amountPence: number; status: string };
    expect(made).toMatchObject({ amountPence: 1250, status: "succeeded" });
    expect(((await again.json()) as { id: string }).id).toBe(made.id);
    const booking = (await (await api.get(`/api/admin/bookings/${ref}`)).json()) as { refunds: { id: string }[] };
    expect(booking.refunds.map((r) => r.id)).toEqual([made.id]);

    const noReason = await api.post(`/api/admin/events/${event.id}/cancel`, { data: { reason: " " } });
    expect(noReason.status()).toBe(400);
    expect((await noReason.json()).fields).toEqual({
      reason: "Say why the event is cancelled (at most 200 characters): the buyers are told.",
    });
  });
});

test("an event cancelled with bookings: the server is killed half way and restarted, and each booking is refunded and told exactly once", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const smtp = await new TestSmtpServer().start();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-cancel-"));
  // Slow enough between bookings to be caught half way, without the test sleeping.
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: mailFrom, REFUND_PAUSE_MS: "600" };
  let site: RunningSite = await startSiteProcess(env);
  try {
    const api = await staffApi(site);
    const event = await createEvent(api, { name: "Summer Fete", totalAvailableTickets: 100 });
    const bookingCount = 16;
    const refs: string[] = [];
    for (let i = 0; i < bookingCount; i++) {
      refs.push(
        await buyTickets(api, event.id, { name: "Amani Kweka", email: `buyer${i}@example.org`, quantity: 1 + (i % 3) }),
      );
    }

    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/events/${event.id}`);
    await hydrated(page.getByRole("button", { name: "Cancel event" })); // It asks first, with the scripts.
    await page.getByRole("button", { name: "Cancel event" }).click();
    await expect(page.locator("#cancel-reason-error")).toContainText("Say why the event is cancelled");
    await page.getByLabel("Reason", { exact: true }).fill("The field is flooded");
    await page.getByRole("button", { name: "Cancel event" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Cancel Summer Fete?" });
    await expect(dialog.getByRole("button", { name: "Keep the event" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Cancel the event and refund everyone" }).click();

    // Progress shows, refreshing by itself.
    const progress = page.locator(".cancellation-progress");
    await expect(progress).toContainText(`of ${bookingCount} bookings`);
    await expectNoSeriousA11yViolations(page);
    const refunded = async () => Number(/Refunded (\d+) of/.exec((await progress.textContent()) ?? "")?.[1] ?? 0);
    await expect.poll(refunded, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(await refunded()).toBeLessThan(bookingCount);

    // Killed half way, with no chance to tidy up.
    await page.goto("about:blank");
    site.process.kill("SIGKILL");
    await new Promise((resolve) => site.process.once("exit", resolve));
    site = await startSiteProcess(env);

    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/events/${event.id}`);
    await expect(page.locator(".cancellation-progress")).toHaveText(
      `Refunded ${bookingCount} of ${bookingCount} bookings.`,
      {
        timeout: 60_000,
      },
    );
    await expectNoSeriousA11yViolations(page);

    await page.goto(`${site.url}/admin/events`);
    await expect(page.getByRole("row", { name: /Summer Fete/ })).toContainText("Cancelled");

    // The public pages say Cancelled, with no Book button.
    await page.goto(`${site.url}/fundraising-event/${event.id}`);
    await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);
    await page.goto(`${site.url}/book-event/${event.id}`);
    await expect(page.getByRole("status")).toContainText("Cancelled: this event will not take place");
    await page.goto(`${site.url}/fundraising`);
    await expect(page.locator(`[data-event-id="${event.id}"]`)).toContainText("Cancelled");
    const refused = await page.request.post(`${site.url}/api/bookings`, {
      data: { eventId: event.id, name: "Late Comer", email: "late@example.org", quantity: 1 },
    });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error).toBe("This event has been cancelled.");

    // Each buyer told once. A kill can land after the mail server took an e-mail and before the
    // outbox heard so; the restart then hands it over again, with the same Message-ID, which mail
    // programs show once (decision 028). One e-mail each, then, counted by its Message-ID, and never
    // two different cancellation e-mails for one buyer.
    for (let i = 0; i < bookingCount; i++) {
      const told = () => mailsTo(smtp, `buyer${i}@example.org`, /^Cancelled: Summer Fete/);
      await expect.poll(() => new Set(told().map((mail) => mail.messageId)).size).toBe(1);
      const copies = told();
      expect(copies[0]!.messageId).toMatch(/^<.+@outbox\.kilele-trust>$/);
      expect(new Set(copies.map((mail) => mail.text)).size).toBe(1);
    }

    // Each booking refunded exactly once: one refund each, and one provider refund per payment.
    const staff = await staffApi(site);
    for (const ref of refs) {
      const booking = (await (await staff.get(`/api/admin/bookings/${ref}`)).json()) as {
        status: string;
        refunds: { status: string }[];
      };
      expect(booking.status).toBe("refunded");
      expect(booking.refunds.map((r) => r.status)).toEqual(["succeeded"]);
    }
    await staff.dispose();
    await page.goto("about:blank"); // no live feed left to lose its server
    await site.stop();
    const database = await openDatabase({ dataDir });
    try {
      const perPayment = await database.db
        .select({ paymentId: offlineRefunds.paymentId, n: count() })
        .from(offlineRefunds)
        .groupBy(offlineRefunds.paymentId);
      expect(perPayment).toHaveLength(bookingCount);
      expect(perPayment.every((row) => Number(row.n) === 1)).toBe(true);
    } finally {
      await database.close();
    }
  } finally {
    await site.stop();
    await smtp.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
