import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { startSiteProcess } from "../support/site-process";
import { TestSmtpServer } from "../support/smtp";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// The e-mails page: an e-mail that could not go (the mail server was down) is listed as failing
// with the mail server's answer, retried from the page once the server is back, and arrives; its
// preview shows it. And the charity's office is sent an e-mail for each booking, donation and
// volunteer sign-up once Settings say so.

// Each password is hashed with scrypt at full cost, and each test starts its own site: slow on a shared machine.
test.slow();
// Retry now while the mail server is down is answered 502, as the API answers a provider that failed.
test.use({ allowedConsoleErrors: [/the server responded with a status of 502/] });

const volunteer = { name: "Grace Kimaro", email: "grace@example.org", reason: "I can help at the quiz night." };

test("an e-mail that failed is retried from /admin/emails and arrives; its preview shows it", async ({ page }) => {
  const smtp = await new TestSmtpServer().start();
  const port = smtp.port;
  await smtp.stop(); // the mail server is down when the site sends
  const site = await startSiteProcess({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Kilele <hello@example.org>",
  });
  try {
    const signUp = await page.request.post(`${site.url}/api/volunteers`, { data: volunteer });
    expect(signUp.status(), await signUp.text()).toBe(201);
    await signIn(page, { url: site.url });

    await page.goto(`${site.url}/admin`);
    await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "E-mails" }).click();
    await expect(page.getByRole("heading", { name: "E-mails", level: 1 })).toBeVisible();
    const row = page.getByRole("row", { name: /Thank you for offering to volunteer/ });
    // The outbox tries at once; the page shows the failure when it has happened.
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText(
        /Failing \(1 attempt; next try at \w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d\): .*ECONNREFUSED/,
        {
          timeout: 1000,
        },
      );
    }).toPass();
    await expect(row).toContainText("Volunteer confirmation");
    await expect(row).toContainText(volunteer.email);
    await expectNoSeriousA11yViolations(page);

    // Only the failing ones, by the filter.
    await page.getByRole("navigation", { name: "Show e-mails by status" }).getByRole("link", { name: "Sent" }).click();
    await expect(page.getByText("No e-mail has this status.")).toBeVisible();
    await page
      .getByRole("navigation", { name: "Show e-mails by status" })
      .getByRole("link", { name: "Failing" })
      .click();
    await expect(row).toBeVisible();

    // Still down: Retry now says so, with the mail server's answer.
    await row.getByRole("button", { name: /^Retry now/ }).click();
    await expect(page.getByRole("alert")).toContainText("The e-mail could not be sent. The mail server said:");
    await expect(page.getByRole("alert")).toContainText("ECONNREFUSED");
    await expectNoSeriousA11yViolations(page);

    // Back up: Retry now sends it at once (its own retry would wait a minute or more).
    await smtp.start(port);
    await row.getByRole("button", { name: /^Retry now/ }).click();
    await expect(page.getByRole("status")).toHaveText("The e-mail is sent.");
    expect(smtp.sentTo(volunteer.email).map((m) => m.subject)).toEqual([
      "Thank you for offering to volunteer with Kilele Village Trust",
    ]);
    await page.getByRole("navigation", { name: "Show e-mails by status" }).getByRole("link", { name: "All" }).click();
    await expect(row).toContainText(/Sent at \w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/);
    await expect(row.getByRole("button", { name: /^Retry now/ })).toHaveCount(0);

    // The preview: to, subject and the text; the html as a document of its own, sandboxed.
    await row.getByRole("link", { name: /^Preview/ }).click();
    await expect(page.getByRole("heading", { name: "E-mail preview", level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(`${volunteer.name} <${volunteer.email}>`);
    await expect(page.getByRole("region", { name: "The e-mail's text" })).toContainText(`“${volunteer.reason}”`);
    const htmlLink = page.getByRole("link", { name: "Open its html version (in a new tab)" });
    const html = await page.request.get(`${site.url}${await htmlLink.getAttribute("href")}`);
    expect(html.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.headers()["content-security-policy"]).toContain("sandbox; default-src 'none'");
    expect(await html.text()).toMatch(/<h1 [^>]*>Thank you for offering to help<\/h1>/);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto(`${site.url}/admin/audit`);
    await expect(page.locator("tbody").getByRole("row").first()).toContainText("Retried an e-mail");
    await expect(page.locator("tbody")).not.toContainText("Grace");
    await page.goto("about:blank"); // nothing left on the page to ask the stopped server for
  } finally {
    await site.stop();
    await smtp.stop();
  }
});

test.describe("the office", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <hello@example.org>");

  test("the office gets an e-mail for each booking, donation and volunteer sign-up, at the address Settings give", async ({
    page,
  }) => {
    const { site, smtp } = running;
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/settings`);
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    // The charity's own address by default, told of each arrival.
    await expect(page.getByLabel("Office e-mail address")).toHaveValue("kilele@example.org");
    await expect(page.getByLabel("One for each booking, donation and sign-up")).toBeChecked();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Office e-mail address").fill("not an address");
    await page.getByLabel("One for each booking, donation and sign-up").check();
    await page.getByRole("button", { name: "Save the settings" }).click();
    await expect(page.getByText("Enter an e-mail address like office@example.org.").first()).toBeVisible();
    await expect(page.getByLabel("Office e-mail address")).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel("Office e-mail address").fill("office@example.org");
    await page.getByRole("button", { name: "Save the settings" }).click();
    await expect(page.getByRole("status")).toHaveText("The settings are saved.");
    await page.reload();
    await expect(page.getByLabel("Office e-mail address")).toHaveValue("office@example.org");
    await expect(page.getByLabel("One for each booking, donation and sign-up")).toBeChecked();

    const api = await staffApi(site);
    const event = await createEvent(api, { name: "Barn Dance" });
    await buyTickets(api, event.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    const donation = await page.request.post(`${site.url}/api/donations`, {
      data: { amount: "20.00", name: "Juma Said", email: "juma@example.org", giftAid: false },
    });
    expect(donation.status(), await donation.text()).toBe(201);
    const { clientSecret } = (await donation.json()) as { clientSecret: string };
    const paid = await page.request.post(`${site.url}/api/payments/offline/confirm`, {
      data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
    });
    expect(await paid.json()).toEqual({ status: "succeeded" });
    expect((await page.request.post(`${site.url}/api/volunteers`, { data: volunteer })).status()).toBe(201);

    const office = () =>
      smtp.received
        .filter((m) => (m.to && "text" in m.to ? m.to.text : "") === "office@example.org")
        .map((m) => m.subject)
        .sort();
    await expect
      .poll(office, { timeout: 20_000 })
      .toEqual([
        "New booking: 2 tickets for Barn Dance",
        "New donation: £20.00 from Juma Said",
        "New volunteer: Grace Kimaro",
      ]);
    const booking = smtp.received.find((m) => m.subject === "New booking: 2 tickets for Barn Dance")!;
    expect(booking.text).toContain("Amina Mushi <amina@example.org> booked 2 tickets for Barn Dance");
    expect(booking.text).toContain(": £25.49, paid"); // two £12.50 tickets and the 49p booking fee

    await page.goto(`${site.url}/admin/audit`);
    await expect(page.locator("tbody").getByRole("row").nth(1)).toContainText("Changed the settings");
  });
});
