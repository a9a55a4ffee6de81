import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { buyTickets } from "../support/bookings";
import { createEvent, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Staff add an event's ticket types on its page (decision 080), on a phone and on a laptop, and
// the page lists them with what each has sold; without JavaScript, Add a ticket type works too.

/** The form's box for one ticket type, by its legend ("Ticket type 2 (new)", "Ticket type 1: Adult"). */
const typeBox = (page: Page, legend: string | RegExp) => page.getByRole("group", { name: legend });

for (const width of [390, 1280]) {
  test(`at ${width} px staff add Adult £12.50 and Child £5.00 to an event, and its page lists them`, async ({
    page,
    ownSite,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const api = await staffApi(ownSite);
    // An event not yet sold on this site: it has no ticket types.
    const event = await createEvent(api, { name: "Summer Ceilidh", ticketCost: null, totalAvailableTickets: 80 });
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    const types = page.getByRole("group", { name: "Ticket types", exact: true });
    await expect(types.getByRole("button", { name: "Add a ticket type" })).toBeVisible();
    await expect(page.getByLabel("Ticket cost (£)")).toBeVisible();

    // Each new type's Name takes the keyboard, ready to type (the scripts add it in place).
    await hydrated(types.getByRole("button", { name: "Add a ticket type" }));
    await types.getByRole("button", { name: "Add a ticket type" }).click();
    const adult = typeBox(page, "Ticket type 1 (new)");
    await expect(adult.getByLabel("Name", { exact: true })).toBeFocused();
    await page.keyboard.type("Adult");
    await adult.getByLabel("Price (£)").fill("12.50");
    await expect(adult.getByLabel("Seats per ticket")).toHaveValue("1");
    // With types, each has its own price: the single ticket cost is gone from the form.
    await expect(page.getByLabel("Ticket cost (£)")).toHaveCount(0);
    await types.getByRole("button", { name: "Add a ticket type" }).click();
    const child = typeBox(page, "Ticket type 2 (new)");
    await expect(child.getByLabel("Name", { exact: true })).toBeFocused();
    await page.keyboard.type("Child");
    await child.getByLabel("Price (£)").fill("5.00");
    await child.getByLabel("Tickets of this type").fill("30");
    for (const label of ["On sale from", "On sale until", "Hidden", "Delete this type"]) {
      await expect(child.getByLabel(label, { exact: true })).toBeVisible();
    }
    const preview = page.getByRole("region", { name: "Preview of the public card" });
    await expect(preview).toContainText("£5.00");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(
      "Saved: the public pages show the change.",
    );
    const table = page.getByRole("region", { name: "Table of ticket types" });
    await expect(table.getByRole("row", { name: /Adult/ }).getByRole("cell")).toHaveText([
      "£12.50",
      "1",
      "0",
      "0",
      "80",
      "On sale",
    ]);
    await expect(table.getByRole("row", { name: /Child/ }).getByRole("cell")).toHaveText([
      "£5.00",
      "1",
      "0",
      "0",
      "30 of 30",
      "On sale",
    ]);
    await expect(typeBox(page, "Ticket type 1: Adult").getByLabel("Price (£)")).toHaveValue("12.50");
    await expect(typeBox(page, "Ticket type 2: Child").getByLabel("Price (£)")).toHaveValue("5.00");

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
  });
}

test("a sold type keeps its tickets' price and is only taken off sale; a mistake is named beside its field; deleting asks first", async ({
  page,
  ownSite,
}) => {
  const api = await staffApi(ownSite);
  // Priced as events always were: one type, named Ticket.
  const event = await createEvent(api, { name: "Harvest Supper", ticketCost: 12.5, totalAvailableTickets: 40 });
  await buyTickets(api, event.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
  await signIn(page);
  await page.goto(`/admin/events/${event.id}`);
  const table = page.getByRole("region", { name: "Table of ticket types" });
  await expect(table.getByRole("row", { name: /Ticket/ }).getByRole("cell")).toHaveText([
    "£12.50",
    "1",
    "2",
    "0",
    "38",
    "On sale",
  ]);
  const sold = typeBox(page, "Ticket type 1: Ticket");
  await expect(sold).toContainText("2 sold");
  await expect(sold.getByText("2 tickets already sold keep the price they were bought at")).toBeVisible();
  await expect(sold.getByLabel("Delete this type")).toHaveCount(0);
  await expect(sold.getByText("It has bookings, so it cannot be deleted")).toBeVisible();

  // A new type with a price that is not one: named beside its field, nothing saved.
  await page.getByRole("button", { name: "Add a ticket type" }).click();
  const child = typeBox(page, "Ticket type 2 (new)");
  await child.getByLabel("Name", { exact: true }).fill("Child");
  await child.getByLabel("Price (£)").fill("five");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("alert")).toHaveText("Nothing was saved: please correct the fields marked below.");
  await expect(
    page.getByText("Price (£) of ticket type 2 must be an amount in pounds, such as 12.50, or 0 for free."),
  ).toBeVisible();
  await expect(typeBox(page, "Ticket type 2 (new)").getByLabel("Price (£)")).toHaveAttribute("aria-invalid", "true");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expectNoSeriousA11yViolations(page);
  await typeBox(page, "Ticket type 2 (new)").getByLabel("Price (£)").fill("5.00");
  // Enter in a field saves, as it always has: it never adds a ticket type.
  await typeBox(page, "Ticket type 2 (new)").getByLabel("Price (£)").press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(table.getByRole("row", { name: /Child/ })).toContainText("£5.00");

  // Child, never booked, can be deleted, after a question; the sold type is taken off sale instead.
  await typeBox(page, "Ticket type 2: Child").getByLabel("Delete this type").check();
  await typeBox(page, "Ticket type 1: Ticket").getByLabel("Off sale").check();
  await hydrated(page.getByRole("button", { name: "Save changes" })); // The question comes from the scripts.
  await page.getByRole("button", { name: "Save changes" }).click();
  const question = page.getByRole("alertdialog", { name: "Delete ticket types?" });
  await expect(question).toContainText("Delete the ticket type “Child” from this event?");
  await question.getByRole("button", { name: "Delete and save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(
    table
      .getByRole("row", { name: /Ticket/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("Off sale");
  await expect(typeBox(page, "Ticket type 1: Ticket")).toContainText("off sale: visitors cannot buy it");
  await expectNoSeriousA11yViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Add a ticket type posts the form and the page draws it again, the ticket cost typed as the first type", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto("/admin/events/new");
    await page.getByLabel("Name", { exact: true }).fill("Barn Dance");
    await page.getByLabel("Description").fill("A caller, a band and a hog roast.");
    await page.getByLabel("Event date").fill("2030-06-20T19:00");
    await page.getByLabel("Ticket sale ends").fill("2030-06-19T12:00");
    await page.getByLabel("Ticket cost (£)").fill("8.50");
    await page.getByLabel("Tickets available").fill("60");
    await page.getByRole("button", { name: "Add a ticket type" }).click();

    await expect(typeBox(page, "Ticket type 1 (new)").getByLabel("Name", { exact: true })).toHaveValue("Ticket");
    await expect(typeBox(page, "Ticket type 1 (new)").getByLabel("Price (£)")).toHaveValue("8.50");
    await expect(page.getByLabel("Name", { exact: true }).first()).toHaveValue("Barn Dance");
    await typeBox(page, "Ticket type 2 (new)").getByLabel("Name", { exact: true }).fill("Family");
    await typeBox(page, "Ticket type 2 (new)").getByLabel("Price (£)").fill("20");
    await typeBox(page, "Ticket type 2 (new)").getByLabel("Seats per ticket").fill("4");
    await page.getByRole("button", { name: "Create event" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Barn Dance" })).toBeVisible();
    const table = page.getByRole("region", { name: "Table of ticket types" });
    await expect(
      table
        .getByRole("row", { name: /Ticket/ })
        .getByRole("cell")
        .first(),
    ).toHaveText("£8.50");
    await expect(table.getByRole("row", { name: /Family/ }).getByRole("cell")).toHaveText([
      "£20.00",
      "4",
      "0",
      "0",
      "15",
      "On sale",
    ]);
    // Cancelling an event asks first, and only the scripts ask: without them it cannot be pressed.
    await expect(page.getByRole("button", { name: "Cancel event" })).toBeDisabled();
  });
});
