import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { openDatabase } from "~/infra/db/database.server";
import { generateBookings } from "../../scripts/generate-bookings";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base } from "../support/fixtures";
import { newSiteDataDir, startSiteProcess, type RunningSite } from "../support/site-process";
import { signIn } from "../support/staff-api";

// The charts drawn on the server (decision 094), on a site filled by npm run generate:bookings:
// the staff home's income and an event's sales and check-ins, on a 390 px phone and a 1280 px
// laptop, each an image with a name and a description, its table under it, no serious
// accessibility fault; and the same pages without JavaScript, comparing with a past event by the
// plain form.

const test = base.extend<object, { chartSite: RunningSite & { eventIds: string[] } }>({
  chartSite: [
    async ({}, use) => {
      const dataDir = await newSiteDataDir();
      const database = await openDatabase({ dataDir });
      // The site's clock is the machine's (a run under faketime moves both).
      const made = await generateBookings(database.db, new Date(), { events: 3, bookings: 150, seed: 11 });
      await database.close();
      const site = await startSiteProcess({ DATA_DIR: dataDir });
      await use({ ...site, eventIds: made.eventIds });
      await site.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  baseURL: async ({ chartSite }, use) => use(chartSite.url),
});

/**
 * No serious or critical accessibility fault in the charts' sections (the whole of each page is
 * walked by admin-pages.spec.ts; axe on an event page with these tables takes 10 s, on them alone 1 s).
 */
async function expectChartsAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).include(".chart-section").setLegacyMode(true).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** The chart named `name`: an image whose description is a sentence with its figures. */
async function expectChart(page: Page, name: string | RegExp) {
  const chart = page.getByRole("img", { name });
  await expect(chart).toBeVisible();
  const described = await chart.getAttribute("aria-describedby");
  await expect(page.locator(`[id="${described}"]`)).toHaveText(/\d/);
}

test("the income and an event's sales and check-ins are charts with their tables, on a phone and a laptop", async ({
  page,
  chartSite,
}) => {
  const [coming, past, older] = chartSite.eventIds as [string, string, string];
  await signIn(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/admin");
    await expectChart(page, "Income by month, last 12 months");
    await expect(page.getByRole("table", { name: "Income by month" })).toBeVisible();
    await expectChartsAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.goto(`/admin/events/${past}?compare=${older}`);
    await expectChart(page, /^Seats sold so far for /);
    await expectChart(page, /^Seats sold each day for /);
    await expectChart(page, /^Check-ins on the night for /);
    await expect(page.getByRole("table", { name: /^Seats sold by day, beside / })).toBeVisible();
    await expect(page.getByRole("table", { name: "Check-ins by quarter hour" })).toBeVisible();
    await expectChartsAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  // The coming event has no night yet.
  await page.goto(`/admin/events/${coming}`);
  await expectChart(page, /^Seats sold so far for /);
  await expect(page.getByRole("heading", { name: "On the night" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the charts are there, and Compare with is a plain form", async ({ page, chartSite }) => {
    const [coming, past] = chartSite.eventIds as [string, string];
    await signIn(page);
    await page.goto("/admin");
    await expectChart(page, "Income by month, last 12 months");
    await page.goto(`/admin/events/${coming}`);
    await expectChart(page, /^Seats sold so far for /);
    await page.getByLabel("Compare with").selectOption(past);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(new RegExp(`compare=${past}`));
    await expect(page.getByRole("table", { name: /^Seats sold by day, beside / })).toBeVisible();
    const csv = await page.request.get(
      (await page.getByRole("link", { name: "Download these figures (CSV)" }).first().getAttribute("href"))!,
    );
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain("Seats so far");
  });
});
