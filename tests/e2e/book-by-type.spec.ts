import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { openDatabase } from "~/infra/db/database.server";
import { ticketTypes } from "~db/schema";
import { bookingForm, buyTickets, fillCard } from "../support/bookings";
import { insertEvent } from "../support/databases";
import { confirmationOutcome, expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { newSiteDataDir, startSiteProcess } from "../support/site-process";

// Ticket types as a visitor meets them (decisions 078 and 081), on a phone: a quantity of each type
// on the booking page, the overview by type, the confirmation, and what is left of each type on the
// event's page after other people's sales.

// The test starts a site of its own, on a data folder holding the event: none needs the shared one.
test.use({ baseURL: undefined, viewport: { width: 390, height: 844 } });

test("a visitor on a phone books 2 Adult and 1 Child, and the event page then says what is left of each", async ({
  page,
  playwright,
}) => {
  test.slow();
  // A ceilidh of 30 seats sold as Adult £12.50 (at most 4) and Child £5.00 (at most 6), made in the
  // site's database before it starts, as staff would make it (the Ticket it was first given is
  // taken off sale).
  const dataDir = await newSiteDataDir();
  const database = await openDatabase({ dataDir });
  const now = new Date();
  const eventId = await insertEvent(
    database.db,
    { name: "Family Ceilidh", totalAvailableTickets: 30, location: "Kilele Hall" },
    now,
  );
  await database.db.update(ticketTypes).set({ offSaleAt: now }).where(eq(ticketTypes.eventId, eventId));
  const [adult, child] = await database.db
    .insert(ticketTypes)
    .values([
      { eventId, name: "Adult", pricePence: 1250, cap: 4, position: 1, createdAt: now, updatedAt: now },
      { eventId, name: "Child", pricePence: 500, cap: 6, position: 2, createdAt: now, updatedAt: now },
      { eventId, name: "Helper", pricePence: 0, position: 3, createdAt: now, updatedAt: now },
    ])
    .returning({ id: ticketTypes.id });
  await database.close();
  const site = await startSiteProcess({ DATA_DIR: dataDir });
  try {
    await page.goto(`${site.url}/book-event/${eventId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Book Family Ceilidh");
    const tickets = page.getByRole("group", { name: "Number of tickets (1 to 29 in all)" });
    const adults = tickets.getByLabel("Adult £12.50");
    const children = tickets.getByLabel("Child £5.00");
    await expect(adults).toHaveValue("1");
    await expect(children).toHaveValue("0");
    const f = bookingForm(page);
    await f.name.fill("Amina Mushi");
    await f.email.fill("amina@example.org");
    await adults.fill("2");
    await children.fill("1");
    const overview = page.getByRole("region", { name: "Booking overview" });
    await expect(overview).toContainText("2 × Adult £12.50");
    await expect(overview).toContainText("1 × Child £5.00");
    await expect(overview).toContainText("Booking fee£0.49");
    await expect(overview).toContainText("Total£30.49");
    await expect(f.pay).toHaveText("Pay now £30.49");
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);

    // Too many of a type is said on that type's field, before anything is held.
    await adults.fill("5");
    await f.pay.click();
    await expect(tickets.getByText("Only 4 Adult tickets left.")).toBeVisible();
    await expect(adults).toHaveAttribute("aria-invalid", "true");
    await adults.fill("2");

    await fillCard(page);
    await f.pay.click();
    await expect(page).toHaveURL(/\/confirmation\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("ticketQuantity")).toBe("3");
    // Three tickets for £30.00: £10.00 each on average.
    expect(url.searchParams.get("ticketCost")).toBe("10.00");
    await expect(confirmationOutcome(page).getByText("Payment succeeded!")).toBeVisible();
    const details = page.getByRole("region", { name: "Your booking" });
    await expect(details).toContainText("2 × Adult £12.50");
    await expect(details).toContainText("1 × Child £5.00");
    await expect(details).toContainText("Total£30.49");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);

    // Someone else buys the last Adult tickets and two Child.
    const other = await playwright.request.newContext({ baseURL: site.url });
    await buyTickets(other, eventId, {
      name: "Grace Kimaro",
      email: "grace@example.org",
      tickets: { [adult!.id]: 2, [child!.id]: 2 },
    });
    await other.dispose();

    await page.goto(`${site.url}/fundraising-event/${eventId}`);
    await expect(
      page.getByRole("definition").filter({ hasText: "Adult £12.50, Child £5.00, Helper £0.00" }),
    ).toBeVisible();
    const left = page.getByRole("list", { name: "Tickets left" });
    await expect(left.getByRole("listitem")).toHaveText(["Adult: sold out", "Child: 3 left"]);
    // Child can still be bought: the event is not sold out.
    await expect(page.getByRole("link", { name: "Book tickets for Family Ceilidh" })).toBeVisible();
    await expect(page.getByText("Sold out", { exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);

    // The booking page offers Child alone, and says why not Adult.
    await page.getByRole("link", { name: "Book tickets for Family Ceilidh" }).click();
    await expect(page.getByText("Adult: sold out")).toBeVisible();
    await expect(page.getByLabel("Adult £12.50")).toHaveCount(0);
    await expect(page.getByLabel("Child £5.00")).toHaveValue("1");
    await expect(page.getByText("Child: 3 left")).toBeVisible();

    // Free tickets alone: no fee, no card, and the booking is confirmed at once (decision 078).
    await f.name.fill("Neema Mushi");
    await f.email.fill("neema@example.org");
    await page.getByLabel("Child £5.00").fill("0");
    await page.getByLabel("Helper £0.00").fill("2");
    await expect(page.getByRole("region", { name: "Booking overview" })).toContainText("Total£0.00");
    await expect(page.getByRole("heading", { name: "No payment needed" })).toBeVisible();
    await page.getByRole("button", { name: "Book free tickets" }).click();
    await expect(page).toHaveURL(/\/confirmation\?/);
    await expect(page.getByRole("region", { name: "Your booking" })).toContainText("2 × Helper £0.00");
    await expectNoSeriousA11yViolations(page);
  } finally {
    await page.goto("about:blank"); // no live feed left to lose its server
    await site.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
