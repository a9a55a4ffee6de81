import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { newSiteDataDir, type RunningSite } from "../support/site-process";
import { dayOf, startSiteAt } from "../support/site-clock";
import { TestSmtpServer } from "../support/smtp";
import { newVisitorAddress } from "../support/visitors";

// A donor's month fails on the offline provider (decision 093), in a real browser on a phone: their
// card is Stripe's 4000 0000 0000 0341, which is saved but never paid by. On the next month's day
// (the same data folder's site started again with its clock there) the charge is declined; the
// donor gets the e-mail, opens its link, changes to a good card, and the month is paid at once and
// receipted, once.

test.use({ baseURL: undefined, viewport: { width: 390, height: 844 } });

const donor = "amina@example.org";
const failedSubject = "Your monthly gift of £10.00 to Kilele Village Trust: this month's payment did not go through";
const receiptSubject = "Your monthly gift of £10.00 to Kilele Village Trust: receipt";

const subjects = (smtp: TestSmtpServer) => smtp.sentTo(donor).map((mail) => mail.subject ?? "");
const linkIn = (smtp: TestSmtpServer, subject: string) =>
  new URL(
    /https?:\/\/\S+\/giving\/[A-Za-z0-9_-]+/.exec(smtp.sentTo(donor).find((m) => m.subject === subject)!.text!)![0],
  ).pathname;

async function changeCard(page: Page, number: string) {
  const form = page.getByRole("region", { name: "Change your card" });
  await form.getByLabel("Card number").fill(number);
  await form.getByLabel("Expiration date").fill("12 / 34");
  await form.getByLabel("Security code").fill("123");
  await form.getByRole("button", { name: "Save my new card" }).click();
}

test("a donor whose month fails is e-mailed, changes the card by the link, and the month is paid", async ({ page }) => {
  const dataDir = await newSiteDataDir();
  const smtp = await new TestSmtpServer().start();
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: "giving@kilele.example" };
  let site: RunningSite | undefined = await startSiteAt(dayOf(2, 10, 10), env);
  try {
    // A £10 gift on the 15th, its first month paid by the good card.
    const visitor = { "X-Forwarded-For": newVisitorAddress() };
    const started = await page.request.post(`${site.url}/api/regular-gifts`, {
      data: { amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email: donor, giftAid: false },
      headers: visitor,
    });
    expect(started.status(), await started.text()).toBe(201);
    const gift = (await started.json()) as { clientSecret: string };
    const paid = await page.request.post(`${site.url}/api/payments/offline/confirm`, {
      data: { clientSecret: gift.clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
      headers: visitor,
    });
    expect(await paid.json()).toEqual({ status: "succeeded" });
    await expect.poll(() => subjects(smtp), { timeout: 15_000 }).toHaveLength(1);

    // The donor saves the card that is never paid by: it attaches, as Stripe's would.
    await page.goto(`${site.url}${linkIn(smtp, subjects(smtp)[0]!)}`);
    await changeCard(page, "4000 0000 0000 0341");
    await expect(page.getByRole("status")).toContainText("Your new card is saved: your Visa card ending 0341");

    // The 15th of next month: the charge is declined, and the donor is told.
    await site.stop();
    site = await startSiteAt(dayOf(3, 15, 13), env);
    await expect.poll(() => subjects(smtp), { timeout: 30_000 }).toContain(failedSubject);
    const notice = smtp.sentTo(donor).find((m) => m.subject === failedSubject)!;
    expect(notice.text).toContain("Nothing has been taken.");

    await page.goto(`${site.url}${linkIn(smtp, failedSubject)}`);
    await expect(page.locator(".gift-facts")).toContainText("A payment failed: the card is being tried again");
    await expect(page.getByRole("listitem").filter({ hasText: "paid on" })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("failing-gift-390.png"), fullPage: true });

    // A good card pays the month now.
    await changeCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("status")).toContainText("Your new card is saved: your Visa card ending 4242");
    await expect(page.locator(".gift-facts")).toContainText("Active");
    await expect(page.getByRole("listitem").filter({ hasText: "paid on" })).toHaveCount(2);
    await expect.poll(() => subjects(smtp), { timeout: 15_000 }).toContain(receiptSubject);
    expect(subjects(smtp).filter((s) => s === receiptSubject)).toHaveLength(1);
    expect(subjects(smtp).filter((s) => s === failedSubject)).toHaveLength(1);
  } finally {
    await site?.stop();
    await smtp.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
