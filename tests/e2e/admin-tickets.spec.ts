import fs from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// An event's tickets on its staff page: a page of 50 at a time, the search, the CSV and the
// printed door list.

test.slow(); // Fifty-two bookings are paid for first.

const buy = (api: APIRequestContext, eventId: string, name: string, email: string, quantity = 1) =>
  buyTickets(api, eventId, { name, email, quantity });

test("staff page through an event's tickets, search them, download them as CSV and print the door list", async ({
  page,
  ownSite,
}) => {
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 200 });
  // A buyer whose e-mail address a spreadsheet would run as a formula.
  const amina = await buy(api, event.id, "Amina Mushi", "=1+2@example.org", 3);
  const guests = Array.from(
    { length: 51 },
    (_, i) => `Guest ${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
  );
  for (let i = 0; i < guests.length; i += 8) {
    await Promise.all(guests.slice(i, i + 8).map((name, j) => buy(api, event.id, name, `guest${i + j}@example.org`)));
  }
  await signIn(page);

  await page.goto(`/admin/events/${event.id}`);
  const tickets = page.getByRole("region", { name: "Tickets", exact: true });
  await expect(tickets.locator(".event-tickets-count")).toHaveText("52 in all");
  await expect(tickets.locator("tbody tr")).toHaveCount(50);
  const first = tickets.getByRole("row", { name: /Amina Mushi/ });
  const code = `${amina.slice(0, 4)}-${amina.slice(4, 8)}`.toUpperCase();
  await expect(first.getByRole("cell")).toHaveText([
    "=1+2@example.org",
    "3",
    `${code}${amina}`,
    /^\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d$/,
    "0 of 3",
  ]);
  await expect(tickets.getByRole("navigation", { name: "Pages of tickets" })).toContainText("Page 1 of 2 (52 in all)");
  await expectNoSeriousA11yViolations(page);
  await tickets.getByRole("link", { name: "Next" }).click();
  await expect(tickets.getByRole("navigation", { name: "Pages of tickets" })).toContainText("Page 2 of 2");
  await expect(tickets.locator("tbody tr")).toHaveCount(2);

  // Search by name, by e-mail, by the short code; and a search that finds nothing.
  for (const words of ["amina", "=1+2", code.toLowerCase()]) {
    await tickets.getByLabel("Search").fill(words);
    await tickets.getByRole("button", { name: "Search" }).click();
    await expect(tickets.locator(".event-tickets-count")).toHaveText(`1 matching “${words}”`);
    await expect(tickets.locator("tbody tr")).toHaveCount(1);
    await expect(tickets.locator("tbody tr")).toContainText("Amina Mushi");
  }
  await tickets.getByLabel("Search").fill("nobody");
  await tickets.getByRole("button", { name: "Search" }).click();
  await expect(tickets.locator(".event-tickets-count")).toHaveText("No tickets match “nobody”.");
  await expectNoSeriousA11yViolations(page);

  // The CSV: every ticket, with the formula neutralised.
  const downloading = page.waitForEvent("download");
  await tickets.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tickets-quiz-night-\d{4}-\d\d-\d\d\.csv$/);
  const csv = await fs.readFile((await download.path())!, "utf8");
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "Buyer,E-mail,Quantity,Booking reference,Booking code,Date sold,Checked in,Refunded,Ticket types",
  );
  expect(lines).toHaveLength(53);
  expect(lines[1]).toMatch(
    new RegExp(
      `^Amina Mushi,'=1\\+2@example.org,3,${amina},${code},\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d,0,no,3 × Ticket$`,
    ),
  );

  // The door list, by name, with nothing but the list when printed.
  await page.goto(`/admin/events/${event.id}`);
  await page.getByRole("link", { name: "Door list to print" }).click();
  await expect(page.getByRole("heading", { name: /Door list: Quiz Night/ })).toBeVisible();
  await expect(page.getByText("52 bookings, 54 people.")).toBeVisible();
  const rows = page.locator("tbody tr th");
  await expect(rows.first()).toHaveText("Amina Mushi");
  await expect(rows.nth(1)).toHaveText("Guest Aa");
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
  await expect(rows.first()).toBeVisible();
});
