import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { newSiteDataDir, startSiteProcess, type RunningSite } from "../support/site-process";
import { TestSmtpServer } from "../support/smtp";
import { signIn } from "../support/staff-api";

// A donor gives £10 a month by Bacs Direct Debit with Gift Aid on a phone (the offline provider,
// Stripe's test sort code and account), in a real browser, with every e-mail through a real SMTP
// server on loopback (docs/decisions/092-direct-debit.md). The mandate's confirmation comes at
// once; the site's clock then moves (the same data folder's site, started again under libfaketime,
// as monthly-gifts.spec.ts does): the first payment settles once the bank has set the mandate up,
// a month on the second is collected and receipted. The donor changes to £15 (an advance notice),
// gives new bank details (a new Instruction), pauses, resumes and cancels by the receipt's link;
// staff see each step, how the gift is paid, and both months on the donations page. Nothing here
// depends on today's date: every date is the site's, moved by whole days.

const faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";
const donor = "amina@example.org";
const charity = "Kilele Village Trust";

test.slow();
test.use({ baseURL: undefined, viewport: { width: 390, height: 844 } });

test("a donor gives £10 monthly by Direct Debit with Gift Aid; collected, receipted, changed, paused, resumed and cancelled, each step e-mailed and shown to staff", async ({
  page,
}) => {
  const dataDir = await newSiteDataDir();
  const smtp = await new TestSmtpServer().start();
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: "giving@kilele.example" };
  const subjects = () => smtp.sentTo(donor).map((mail) => mail.subject ?? "");
  const expectMail = (subject: string, timeout = 20_000) => expect.poll(subjects, { timeout }).toContain(subject);
  const mandateMail = `Confirmation of your Direct Debit Instruction to ${charity}`;
  let site: RunningSite | undefined = await startSiteProcess(env);
  try {
    // The monthly form, paid by Direct Debit: a choice of links, so it needs no JavaScript.
    await page.goto(`${site.url}/payment?amount=10.00&give=monthly`);
    const payBy = page.getByRole("navigation", { name: "Pay by" });
    await expect(payBy.getByRole("link", { name: "Card" })).toHaveAttribute("aria-current", "page");
    await payBy.getByRole("link", { name: "Direct Debit" }).click();
    await expect(page).toHaveURL(/\/payment\?amount=10\.00&give=monthly&pay=direct-debit$/);
    await expect(payBy.getByRole("link", { name: "Direct Debit" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "The Direct Debit Guarantee" })).toBeVisible();
    await expect(page.getByText(`${charity} will notify you 3 working days in advance`)).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill(donor);
    await page.getByLabel("Yes, I want to Gift Aid my monthly gift").check();
    await page.getByLabel("House name or number").fill("Rose Cottage");
    await page.getByLabel("Postcode").fill("m1 1ae");
    await page.getByLabel("Account holder's name").fill("Amina Mushi");
    await page.getByLabel("Sort code").fill("10-88-00");
    await page.getByLabel("Account number").fill("0001234");
    // Each problem beside its field, and nothing started until they are put right.
    const setUp = page.getByRole("button", { name: "Set up my Direct Debit of £10.00 a month" });
    await setUp.click();
    await expect(page.locator("#bank-confirmed-error")).toHaveText(
      "Please confirm that you are the account holder and the only person needed to authorise debits.",
    );
    await expect(page.locator("#bank-account-number-error")).toHaveText(
      "Please enter your account number: eight digits.",
    );
    await expect(page.getByLabel("Account number")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel(/I confirm that I am the account holder/).check();
    await page.getByLabel("Account number").fill("00012345");
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("direct-debit-form-390.png"), fullPage: true });
    await setUp.click();

    const done = page.getByRole("region", { name: "Thank you: your Direct Debit is set up" });
    await expect(done).toContainText(
      /Your first payment of £10\.00 will be collected on or shortly after \w+ \d+ \w+ \d{4}/,
    );
    await expect(done).toContainText(`The confirmation of your Direct Debit Instruction to ${charity}`);
    await expectNoSeriousA11yViolations(page);

    // The mandate's confirmation, with its advance notice and the Guarantee.
    await expectMail(mandateMail);
    const notice = smtp.sentTo(donor).find((mail) => mail.subject === mandateMail)!.text ?? "";
    expect(notice).toContain("Account number: ••••2345");
    expect(notice).toContain("Sort code: 10-88-00");
    expect(notice).toMatch(/Mandate reference: [A-Z0-9]{10,18}/);
    expect(notice).toContain("The Direct Debit Guarantee");
    expect(notice).not.toContain("00012345");

    // A fortnight on, the bank has set the mandate up: the first payment is collected and welcomed.
    // (Six working days are at most thirteen days, from Christmas Eve over the New Year.)
    await site.stop();
    site = await startSiteProcess({ ...env, LD_PRELOAD: faketime, FAKETIME: "+14d" });
    await expectMail(`Welcome, and thank you for your monthly gift of £10.00 to ${charity}`, 40_000);
    const welcome = smtp.sentTo(donor).find((mail) => mail.subject?.startsWith("Welcome"))!;
    expect(welcome.text).toContain("Your first payment by Direct Debit was collected on");
    expect(welcome.text).toContain("Paid by: Direct Debit from account ••••2345, sort code 10-88-00");

    // Forty days on: the second month is collected on the donor's day, settled, and receipted.
    await site.stop();
    site = await startSiteProcess({ ...env, LD_PRELOAD: faketime, FAKETIME: "+40d" });
    await expectMail(`Your monthly gift of £10.00 to ${charity}: receipt`, 40_000);
    const receipt = smtp.sentTo(donor).find((mail) => mail.subject?.endsWith(": receipt"))!;
    expect(receipt.text).toContain("by Direct Debit");
    const link = /https?:\/\/[^\s)]+(\/giving\/[A-Za-z0-9_-]+)/.exec(receipt.text ?? "")![1]!;

    // The donor's own page: £15 from the next payment, with its advance notice.
    await page.goto(`${site.url}${link}`);
    const facts = page.locator(".gift-facts");
    await expect(facts).toContainText("Direct Debit from account ••••2345, sort code 10-88-00");
    await expect(page.getByRole("listitem").filter({ hasText: "paid on" })).toHaveCount(2);
    await expect(page.getByRole("heading", { name: "Change your card" })).toHaveCount(0);
    await checkLayout(page, 390);
    await page.getByLabel("New amount each month (£)").fill("15");
    await page.getByRole("button", { name: "Change the amount" }).click();
    await expect(page.getByRole("status")).toContainText("Your gift is now £15.00 a month, from your");
    await expectMail(`Your Direct Debit to ${charity}: advance notice, now £15.00 a month`);

    // New bank details: a refused account changes nothing; Stripe's other test account is a new Instruction.
    const bank = page.getByRole("region", { name: "Change your bank details" });
    await bank.getByLabel("Account holder's name").fill("Amina Mushi");
    await bank.getByLabel("Sort code").fill("10-88-00");
    await bank.getByLabel("Account number").fill("00044444");
    await bank.getByLabel(/I confirm that I am the account holder/).check();
    await bank.getByRole("button", { name: "Save my new bank details" }).click();
    await expect(page.locator("#bank-account-number-error")).toContainText("Your bank account number is invalid");
    // The page never sends the account number back (what the donor typed stays in their browser only).
    await expect(page.getByLabel("Account number")).toHaveAttribute("value", "");
    await bank.getByLabel("Sort code").fill("10-88-00");
    await bank.getByLabel("Account number").fill("90012345");
    await bank.getByLabel(/I confirm that I am the account holder/).check();
    await bank.getByRole("button", { name: "Save my new bank details" }).click();
    await expect(page.getByRole("status")).toContainText("Your new bank details are saved");
    await expect.poll(() => subjects().filter((subject) => subject === mandateMail).length).toBe(2);
    await checkLayout(page, 390);

    // Paused for a month, then resumed (an advance notice of the collection that starts it again).
    await page.getByLabel("1 month").check();
    await page.getByRole("button", { name: "Pause my gift" }).click();
    await expect(page.getByRole("status")).toContainText("Your gift is paused: no payment in");
    await expectMail(`Your monthly gift to ${charity}: paused`);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByRole("status")).toContainText("Your gift has started again: your next payment is on");
    await expectMail(`Your Direct Debit to ${charity}: advance notice, started again`);

    // Cancelled, asked once.
    await page.getByRole("link", { name: "Cancel my monthly gift" }).click();
    await page.getByRole("button", { name: "Yes, cancel my gift" }).click();
    await expect(page.getByRole("status")).toContainText("Your monthly gift is cancelled.");
    await expectMail(`Your monthly gift to ${charity}: cancelled`);

    // Staff, on a laptop: how it is paid, each step, and both months.
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/regular-giving`);
    const row = page.getByRole("row", { name: /Amina Mushi/ });
    await expect(row).toContainText("Direct Debit from 10-88-00 ••••2345");
    await expect(row).toContainText(/Instruction [A-Z0-9]+/);
    await expectNoSeriousA11yViolations(page);
    await row.getByRole("link", { name: "Amina Mushi" }).click();
    const main = page.getByRole("main");
    await expect(main).toContainText("Direct Debit Instruction");
    for (const step of [
      "Changed the monthly gift from £10.00 to £15.00",
      "Changed the bank details for later payments: Direct Debit from account ••••2345",
      "Paused the monthly gift",
      "Resumed the monthly gift",
      "Cancelled the monthly gift of £15.00",
    ]) {
      await expect(main.getByText(step, { exact: false }).first()).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);
    await page.goto(`${site.url}/admin/donations`);
    const months = page.getByRole("row", { name: /Amina Mushi/ });
    await expect(months).toHaveCount(2);
    await expect(months.filter({ hasText: /Monthly by Direct Debit: \w+ \d{4}/ })).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath("admin-donations-direct-debit-1280.png"), fullPage: true });
  } finally {
    await site?.stop();
    await smtp.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

async function checkLayout(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectNoSeriousA11yViolations(page);
}
