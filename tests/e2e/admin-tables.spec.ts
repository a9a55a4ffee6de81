import type { Locator, Page } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// Staff tables fit the screen (decision 076): on a phone each row is a card whose cells are shown
// under their column's name, so nothing is cut off; an event's staff page puts its numbers and its
// tickets before its edit form, and on a laptop the tickets use the page's whole width.

/** Whether an element is drawn inside the screen's width (not cut off, not scrolled out of sight). */
async function withinScreen(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width;
}

/** What a cell's label shows on a phone (its ::before), or "" where none is drawn. */
const drawnLabel = (cell: Locator) =>
  cell.evaluate((el) =>
    getComputedStyle(el, "::before")
      .content.replace(/^"|"$/g, "")
      .replace(/^none$/, ""),
  );

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the event's tickets show Checked in, the events list shows Left, and the numbers come before the form", async ({
    page,
    ownSite,
  }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Harvest Supper" });
    await buyTickets(api, event.id, { name: "Neema Mollel", email: "neema@example.org", quantity: 2 });
    await signIn(page);

    await page.goto(`/admin/events/${event.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Harvest Supper");
    const numbers = page.locator(".figures");
    await expect(numbers).toContainText("Sold2");
    await expect(numbers).toContainText("Left48 of 50");
    await expect(numbers).toContainText("Checked in0");
    await expect(numbers).toContainText("Taken£25.49");
    const tickets = page.getByRole("heading", { name: "Tickets", exact: true });
    const edit = page.getByRole("heading", { name: "Edit event" });
    expect((await numbers.boundingBox())!.y).toBeLessThan((await tickets.boundingBox())!.y);
    expect((await tickets.boundingBox())!.y).toBeLessThan((await edit.boundingBox())!.y);

    const row = page.getByRole("region", { name: "Table of tickets" }).getByRole("row", { name: /Neema Mollel/ });
    const checkedIn = row.getByRole("cell", { name: "0 of 2" });
    await expect(checkedIn).toBeVisible();
    expect(await withinScreen(page, checkedIn)).toBe(true);
    expect(await drawnLabel(checkedIn)).toBe("Checked in");
    expect(await withinScreen(page, row.getByRole("cell", { name: "neema@example.org" }))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);

    await page.goto("/admin/events");
    const listed = page
      .getByRole("region", { name: "Table of events" })
      .first()
      .getByRole("row", { name: /Harvest Supper/ });
    const left = listed.getByRole("cell", { name: "48 of 50" });
    await expect(left).toBeVisible();
    expect(await withinScreen(page, left)).toBe(true);
    expect(await drawnLabel(left)).toBe("Left");
    const taken = listed.getByRole("cell", { name: "£25.49" });
    expect(await withinScreen(page, taken)).toBe(true);
    expect(await drawnLabel(taken)).toBe("Taken");
    await expectNoSeriousA11yViolations(page);
  });
});

test("on a laptop the tickets table uses the page's width, with its Checked in column in sight", async ({
  page,
  ownSite,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Barn Dance" });
  await buyTickets(api, event.id, { name: "Joseph Kimaro", email: "joseph@example.org", quantity: 1 });
  await signIn(page);
  await page.goto(`/admin/events/${event.id}`);
  const table = page.getByRole("region", { name: "Table of tickets" });
  expect((await table.boundingBox())!.width).toBeGreaterThan(900);
  const header = table.getByRole("columnheader", { name: "Checked in" });
  await expect(header).toBeVisible();
  expect(await withinScreen(page, header)).toBe(true);
  expect(await drawnLabel(table.getByRole("cell", { name: "0 of 1" }))).toBe("");
});
