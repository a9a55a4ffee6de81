import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import type { TestSmtpServer } from "../support/smtp";
import { signIn } from "../support/staff-api";
import { newVisitorAddress } from "../support/visitors";

// A donor manages their monthly gift by its private link (docs/decisions/090-donors-manage-their-
// gift.md), in a real browser on a phone and a laptop: from the welcome e-mail's link they change
// £10 to £15, change the card, pause, resume and cancel; each step's e-mail reaches a real SMTP
// server on loopback, and staff read every step on the gift's page. /giving answers an unknown
// address as it would a known one.

test.slow();
test.use({ baseURL: undefined });

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

/** The subjects of the e-mails the donor has received so far. */
const subjects = (smtp: TestSmtpServer) => smtp.sentTo("amina@example.org").map((mail) => mail.subject ?? "");

async function expectMail(smtp: TestSmtpServer, subject: string) {
  await expect.poll(() => subjects(smtp), { timeout: 15_000 }).toContain(subject);
}

async function checkLayout(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectNoSeriousA11yViolations(page);
}

test.describe("a donor's own monthly gift", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <giving@example.org>");

  test("a £10 gift becomes £15, gets a new card, is paused, resumed and cancelled, each step e-mailed", async ({
    browser,
    page: staffPage,
  }) => {
    const { site, smtp } = running;
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();

    // A £10 monthly gift, started and paid by the test card.
    const visitor = { "X-Forwarded-For": newVisitorAddress() };
    const started = await page.request.post(`${site.url}/api/regular-gifts`, {
      data: { amount: "10.00", dayOfMonth: "15", name: "Amina Mushi", email: "amina@example.org", giftAid: false },
      headers: visitor,
    });
    expect(started.status(), await started.text()).toBe(201);
    const gift = (await started.json()) as { regularGiftId: string; clientSecret: string };
    const paid = await page.request.post(`${site.url}/api/payments/offline/confirm`, {
      data: { clientSecret: gift.clientSecret, card },
      headers: visitor,
    });
    expect(await paid.json()).toEqual({ status: "succeeded" });

    // The welcome carries the private link.
    await expect.poll(() => smtp.sentTo("amina@example.org").length, { timeout: 15_000 }).toBeGreaterThan(0);
    const welcome = smtp.sentTo("amina@example.org")[0]!;
    const link = /https?:\/\/\S+\/giving\/[A-Za-z0-9_-]+/.exec(welcome.text ?? "")?.[0];
    expect(link).toBeTruthy();
    const path = new URL(link!).pathname;

    await page.goto(`${site.url}${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your monthly gift");
    await expect(page.getByText("£10.00 a month")).toBeVisible();
    await checkLayout(page, 390);

    // £15 from the next payment.
    const amount = page.getByLabel("New amount each month (£)");
    await amount.fill("0.50");
    await page.getByRole("button", { name: "Change the amount" }).click();
    await expect(page.locator("#gift-amount-error")).toHaveText("The smallest donation we can take by card is £1.00.");
    await expect(page.getByLabel("New amount each month (£)")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("New amount each month (£)").fill("15");
    await page.getByRole("button", { name: "Change the amount" }).click();
    await expect(page.getByRole("status")).toContainText("Your gift is now £15.00 a month, from your next payment on");
    await expect(page.getByText("£15.00 a month", { exact: true })).toBeVisible();
    await expectMail(smtp, "Your monthly gift to Kilele Village Trust: now £15.00 a month");

    // A new card: a declined one is refused beside its field, then the good one is saved.
    const cardForm = page.getByRole("region", { name: "Change your card" });
    await cardForm.getByLabel("Card number").fill("4000 0000 0000 0002");
    await cardForm.getByLabel("Expiration date").fill("12 / 34");
    await cardForm.getByLabel("Security code").fill("123");
    await cardForm.getByRole("button", { name: "Save my new card" }).click();
    await expect(page.locator("#card-cardnumber-error")).toHaveText("Your card was declined.");
    await cardForm.getByLabel("Card number").fill("4242 4242 4242 4242");
    await cardForm.getByLabel("Expiration date").fill("12 / 34");
    await cardForm.getByLabel("Security code").fill("123");
    await cardForm.getByRole("button", { name: "Save my new card" }).click();
    await expect(page.getByRole("status")).toContainText("Your new card is saved: your Visa card ending 4242");
    await expectMail(smtp, "Your monthly gift to Kilele Village Trust: new card saved");

    // Paused for two months, from the keyboard.
    await page.getByLabel("2 months").check();
    await page.getByRole("button", { name: "Pause my gift" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText("Your gift is paused: no payment in");
    await expect(page.getByRole("heading", { name: "Your gift is paused" })).toBeVisible();
    await checkLayout(page, 390);
    await expectMail(smtp, "Your monthly gift to Kilele Village Trust: paused");

    // Resumed sooner.
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByRole("status")).toContainText("Your gift has started again: your next payment is on");
    await expectMail(smtp, "Your monthly gift to Kilele Village Trust: started again");

    // Cancelled, asked once; on a laptop this time.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("link", { name: "Cancel my monthly gift" }).click();
    await expect(page.getByRole("heading", { name: "Cancel your monthly gift?" })).toBeVisible();
    await checkLayout(page, 1280);
    await page.getByRole("button", { name: "Yes, cancel my gift" }).click();
    await expect(page.getByRole("status")).toContainText("Your monthly gift is cancelled.");
    await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Change the amount" })).toHaveCount(0);
    await expectMail(smtp, "Your monthly gift to Kilele Village Trust: cancelled");
    await checkLayout(page, 1280);

    // Staff read each step, by the donor, on the gift's page.
    await signIn(staffPage, { url: site.url });
    await staffPage.goto(`${site.url}/admin/regular-giving/${gift.regularGiftId}`);
    const main = staffPage.getByRole("main");
    for (const step of [
      "Changed the monthly gift from £10.00 to £15.00",
      "Changed the card for later payments",
      "Paused the monthly gift",
      "Resumed the monthly gift",
      "Cancelled the monthly gift of £15.00",
    ]) {
      await expect(main.getByText(step, { exact: false }).first()).toBeVisible();
    }
    await expect(main.getByText("the donor, by their private link").first()).toBeVisible();

    // A donor who has lost their link asks /giving; an unknown address gets the same answer.
    await page.goto(`${site.url}/giving`);
    await page.getByLabel("Your e-mail address").fill("nobody@example.org");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("status")).toContainText("If that address has a monthly gift with us");
    await checkLayout(page, 1280);
    expect(smtp.sentTo("nobody@example.org")).toHaveLength(0);
    await phone.close();
  });
});
