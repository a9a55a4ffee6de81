import fs from "node:fs/promises";
import { fillCard } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { newSiteDataDir, startSiteProcess, type RunningSite } from "../support/site-process";
import { TestSmtpServer } from "../support/smtp";
import { signIn } from "../support/staff-api";

// A donor gives £10 a month by card with Gift Aid on a phone (the offline provider), then the
// site's clock moves a month: the same data folder's site, started again with its clock 33 days
// ahead (libfaketime, as `npm run test:clock` moves Vitest's), takes the second payment on the
// donor's day, sends its receipt, and staff see both months on /admin/donations on a laptop
// (docs/decisions/089-monthly-gifts.md).

const faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

test.use({ baseURL: undefined, viewport: { width: 390, height: 844 } });

test("a donor gives £10 monthly with Gift Aid; a month on, the second payment is taken, receipted and shown to staff", async ({
  page,
}) => {
  const dataDir = await newSiteDataDir();
  const smtp = await new TestSmtpServer().start();
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: "giving@kilele.example" };
  let site: RunningSite | undefined = await startSiteProcess(env);
  try {
    await page.goto(`${site.url}/payment`);
    const howOften = page.getByRole("navigation", { name: "How often to give" });
    await expect(howOften.getByRole("link", { name: "Give once" })).toHaveAttribute("aria-current", "page");
    await howOften.getByRole("link", { name: "Give monthly" }).click();
    await expect(page).toHaveURL(/\/payment\?give=monthly$/);
    await page.getByRole("link", { name: "Give £10 a month", exact: true }).click();
    await expect(page).toHaveURL(/\/payment\?amount=10\.00&give=monthly$/);
    await expect(howOften.getByRole("link", { name: "Give monthly" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("region", { name: "Your monthly gift" })).toContainText("£10.00");

    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    const day = await page.getByLabel("Day of the month").inputValue();
    await page.getByLabel("Yes, I want to Gift Aid my monthly gift").check();
    await expect(page.locator("#gift-aid-declaration")).toHaveText(
      /^I want to Gift Aid my monthly gift of £10\.00, and all donations I make in the future until I cancel, to Kilele Village Trust\./,
    );
    await expect(page.getByRole("group", { name: "Which donations should Gift Aid cover?" })).toHaveCount(0);
    await page.getByLabel("House name or number").fill("Rose Cottage");
    await page.getByLabel("Postcode").fill("m1 1ae");
    await fillCard(page);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("monthly-form-390.png"), fullPage: true });
    await page.getByRole("button", { name: "Pay now £10.00" }).click();

    const thanks = page.getByRole("region", { name: /thank/i });
    await expect(thanks).toContainText("You gave £10.00 as your first monthly payment");
    await expect(thanks).toContainText(/Your next payment of £10\.00 is taken on \w+ \d+ \w+ \d{4}/);
    await expectNoSeriousA11yViolations(page);

    await expect
      .poll(() => smtp.sentTo("amina@example.org").map((mail) => mail.subject))
      .toEqual(["Welcome, and thank you for your monthly gift of £10.00 to Kilele Village Trust"]);
    const welcome = smtp.sentTo("amina@example.org")[0]!;
    expect(welcome.text).toContain(`on the ${day}`);
    const link = /(https?:\/\/[^\s)]+\/giving\/[A-Za-z0-9_-]+)/.exec(welcome.text ?? "")?.[1];
    expect(link).toBeDefined();

    // A month on.
    await site.stop();
    site = await startSiteProcess({ ...env, LD_PRELOAD: faketime, FAKETIME: "+33d" });
    await expect
      .poll(() => smtp.sentTo("amina@example.org").map((mail) => mail.subject), { timeout: 30_000 })
      .toEqual([
        "Welcome, and thank you for your monthly gift of £10.00 to Kilele Village Trust",
        "Your monthly gift of £10.00 to Kilele Village Trust: receipt",
      ]);

    // The donor's link from the second receipt says which gift it is, and both months.
    const second = smtp.sentTo("amina@example.org")[1]!;
    const secondLink = /https?:\/\/[^\s)]+(\/giving\/[A-Za-z0-9_-]+)/.exec(second.text ?? "")![1]!;
    await page.goto(`${site.url}${secondLink}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your monthly gift");
    await expect(page.locator(".gift-facts")).toContainText("£10.00 a month");
    await expect(page.locator(".gift-facts")).toContainText("Active");
    await expect(page.getByRole("listitem").filter({ hasText: "paid on" })).toHaveCount(2);
    await expectNoSeriousA11yViolations(page);

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/donations`);
    await expect(page.getByRole("heading", { name: "Donations", level: 1 })).toBeVisible();
    const rows = page.getByRole("row", { name: /Amina Mushi/ });
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await expect(row).toContainText("£10.00");
    await expect(rows.filter({ hasText: /Monthly: \w+ \d{4}/ })).toHaveCount(2);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("admin-donations-1280.png"), fullPage: true });
  } finally {
    await site?.stop();
    await smtp.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
