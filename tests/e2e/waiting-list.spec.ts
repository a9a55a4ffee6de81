import { buyTickets, fillCard } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import type { TestSmtpServer } from "../support/smtp";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// The waiting list as people meet it (docs/decisions/086-a-waiting-list.md): a sold-out event, a
// visitor on a phone joins its list; staff refund a booking; the visitor's offer e-mail (from a real
// SMTP server on loopback) leads to the booking page, where they pay for exactly the tickets held;
// staff see the list and its states, on a phone and a laptop.

test.slow();
test.use({ baseURL: undefined });

const offerMail = (smtp: TestSmtpServer, to: string) =>
  smtp.sentTo(to).find((mail) => /are yours to book/.test(mail.subject ?? ""));

test.describe("a waiting list", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <bookings@example.org>");

  test("a visitor joins a sold-out event's list, is offered the seats a refund frees, and pays for them", async ({
    page,
    browser,
  }) => {
    const { site, smtp } = running;
    const api = await staffApi(site);
    const event = await createEvent(api, { name: "Barn Dance", totalAvailableTickets: 2 });
    const ref = await buyTickets(api, event.id, { name: "Neema Mollel", email: "neema@example.org", quantity: 2 });
    // Then staff ask a question every booking must answer, offers included.
    const asked = await api.patch(`/api/admin/events/${event.id}`, {
      data: {
        questions: [{ question: "Meal choice", answerType: "choice", choices: ["Beef", "Fish"], required: true }],
      },
    });
    expect(asked.status(), await asked.text()).toBe(200);

    // The visitor, on a phone, finds the event sold out and joins its waiting list.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const visitor = await phone.newPage();
    await visitor.goto(`${site.url}/fundraising-event/${event.id}`);
    const join = visitor.getByRole("region", { name: "Join the waiting list" });
    await expect(join).toBeVisible();
    await expectNoSeriousA11yViolations(visitor);
    await join.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await join.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await join.getByLabel("Number of tickets").fill("2");
    await join.getByRole("button", { name: "Join the waiting list" }).click();
    await expect(visitor).toHaveURL(`${site.url}/fundraising-event/${event.id}/waiting-list`);
    await expect(visitor.getByRole("status")).toContainText("You are on the waiting list for Barn Dance (2 tickets)");
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(visitor);

    // Staff refund the booking: the seats are offered to the visitor at once.
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/bookings/${ref}`);
    await page.getByLabel("Tickets to refund").fill("2");
    await page.getByLabel("Reason").fill("They cannot come");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /^Refund £/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Refunded:" })).toBeVisible();

    await expect.poll(() => offerMail(smtp, "amina@example.org")).toBeDefined();
    const mail = offerMail(smtp, "amina@example.org")!;
    expect(mail.text).toContain("We are holding 2 Ticket tickets for you until");
    const link = /https?:\/\/\S+\/book-event\/\S+\?offer=[A-Za-z0-9_-]+/.exec(mail.text ?? "")?.[0];
    expect(link).toBeTruthy();
    const offered = new URL(link!);

    // Nobody else can take the seats meanwhile.
    await visitor.goto(`${site.url}/fundraising-event/${event.id}`);
    await expect(visitor.getByText(/All remaining tickets are reserved/).first()).toBeVisible();

    // The link opens the booking page for exactly the seats held; the visitor pays.
    await visitor.goto(`${site.url}${offered.pathname}${offered.search}`);
    const overview = visitor.getByRole("region", { name: "Booking overview" });
    await expect(overview).toContainText("2 × Ticket £12.50");
    await expect(overview).toContainText("Total£25.49");
    await expectNoSeriousA11yViolations(visitor);
    await fillCard(visitor);
    // The event's question is asked here too: unanswered, refused beside it, with one summary.
    await visitor.getByRole("button", { name: /^Pay now/ }).click();
    const meal = visitor.getByRole("region", { name: "Questions" }).getByLabel("Meal choice");
    await expect(meal).toHaveAttribute("aria-invalid", "true");
    await expect(visitor.getByRole("alert")).toHaveCount(1);
    await expect(visitor.getByRole("alert")).toContainText("Please answer the questions marked below.");
    await expectNoSeriousA11yViolations(visitor);
    await meal.selectOption("Fish");
    await visitor.getByRole("button", { name: /^Pay now/ }).click();
    await expect(visitor).toHaveURL(/\/confirmation\?/);
    const offerRef = new URL(visitor.url()).searchParams.get("bookingRef")!;
    await expect(visitor.getByRole("heading", { level: 1 })).toContainText(/thank you|confirmed|booking/i);
    await phone.close();

    // Staff see the list, its order and the offer's state, on a phone and a laptop.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.url}/admin/events/${event.id}`);
      await page.getByRole("link", { name: "Waiting list" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Waiting list: Barn Dance");
      const row = page.getByRole("row").filter({ hasText: "Amina Mushi" });
      await expect(row).toContainText("amina@example.org");
      await expect(row).toContainText("Paid: 2 × Ticket");
      await expectNoSeriousA11yViolations(page);
    }
    // The answer is kept with the booking paid through the offer.
    await page.goto(`${site.url}/admin/bookings/${offerRef}`);
    await expect(page.getByRole("region", { name: "Answers" })).toContainText("Meal choiceFish");
  });
});
