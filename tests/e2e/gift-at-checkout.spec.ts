import { bookingForm, fillCard } from "../support/bookings";
import {
  confirmationOutcome,
  expect,
  expectNoSeriousA11yViolations,
  test,
  useSiteWithMailServer,
} from "../support/fixtures";
import { createEvent, openStaffSection, signIn, staffApi } from "../support/staff-api";

// A gift at checkout (decision 085) as a visitor and staff meet it: 2 tickets and a £10 donation
// with Gift Aid, paid by card once; one receipt listing the donation apart; the donation among the
// others on /admin/donations. On a phone, with the pages checked at a laptop's width too.

test.describe("a gift at checkout", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <tickets@example.org>");
  test.use({ viewport: { width: 390, height: 844 } });
  test.slow();

  test("a visitor books 2 tickets, adds a £10 donation with Gift Aid, pays once; staff see the donation", async ({
    page,
  }) => {
    const site = running.site.url;
    const api = await staffApi(running.site);
    const event = await createEvent(api, { name: "Harvest Supper", ticketCost: 12.5, totalAvailableTickets: 40 });

    await page.goto(`${site}/book-event/${event.id}`);
    const f = bookingForm(page);
    await f.name.fill("Amina Mushi");
    await f.email.fill("amina@example.org");
    await f.quantity.fill("2");
    const donation = page.getByLabel("Add a donation");
    await expect(donation).toHaveValue("");
    // No amount, no Gift Aid to ask about.
    await expect(page.getByLabel("Yes, I want to Gift Aid my donation")).toHaveCount(0);
    await expect(f.pay).toHaveText("Pay now £25.49");

    // An amount below the donation page's smallest is refused beside the field, before anything is held.
    await donation.fill("0.50");
    await fillCard(page);
    await f.pay.click();
    await expect(donation).toHaveAttribute("aria-invalid", "true");
    await expect(donation).toHaveAccessibleDescription(/The smallest donation we can take by card is £1\.00\./);

    await donation.fill("10");
    const overview = page.getByRole("region", { name: "Booking overview" });
    await expect(overview).toContainText("Donation£10.00");
    await expect(overview).toContainText("Booking fee£0.49");
    await expect(overview).toContainText("Total£35.49");
    await expect(f.pay).toHaveText("Pay now £35.49");
    await page.getByLabel("Yes, I want to Gift Aid my donation").check();
    // The names follow the buyer's Name, as on the donation page.
    await expect(page.getByLabel("First name")).toHaveValue("Amina");
    await expect(page.getByLabel("Surname")).toHaveValue("Mushi");
    await page.getByLabel("House name or number").fill("12");
    await page.getByLabel("Postcode").fill("hr8 1aa");
    await expect(page.getByText(/I want to Gift Aid my donation of £10\.00 to Kilele Village Trust\./)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });

    await f.pay.click();
    await expect(page).toHaveURL(/\/confirmation\?/);
    const bookingRef = new URL(page.url()).searchParams.get("bookingRef")!;
    await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
    const details = page.getByRole("region", { name: "Your booking" });
    await expect(details).toContainText("Donation£10.00");
    await expect(details).toContainText("Total£35.49");

    // One receipt: the tickets, then the donation apart, with the Gift Aid words.
    await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
    const mail = running.smtp.sentTo("amina@example.org")[0]!;
    expect(mail.text).toContain(`Your booking reference is ${bookingRef}`);
    expect(mail.text).toContain("Tickets: 2 × £12.50 = £25.00");
    expect(mail.text).toContain("Tickets total: £25.49\nYour donation: £10.00\nTotal paid: £35.49");
    expect(mail.text).toContain("Thank you for your donation of £10.00 to Kilele Village Trust");
    expect(mail.text).toContain(
      'Gift Aid: you declared, "I want to Gift Aid my donation of £10.00 to Kilele Village Trust.',
    );

    // Staff see it among the donations, with its Gift Aid, and on the booking's page.
    await signIn(page, { url: site });
    await page.goto(`${site}/admin`);
    await openStaffSection(page, "Donations");
    const row = page.getByRole("row", { name: /Amina Mushi/ });
    await expect(row).toContainText("£10.00");
    await expect(row).toContainText("Paid");
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: "Amina Mushi" }).click();
    await expect(page.getByRole("heading", { name: "Donation of £10.00", level: 1 })).toBeVisible();
    await expect(page.getByText("I want to Gift Aid my donation of £10.00 to Kilele Village Trust.")).toBeVisible();

    await page.goto(`${site}/admin/bookings/${bookingRef}`);
    await expect(page.getByRole("link", { name: "£10.00 with Gift Aid" })).toBeVisible();
    await expect(page.getByLabel("Also refund the donation of £10.00")).not.toBeChecked();
    await expectNoSeriousA11yViolations(page);
  });
});
