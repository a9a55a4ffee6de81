import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fillCard } from "../support/bookings";
import { expect, test } from "../support/fixtures";
import { startSiteProcess, type RunningSite } from "../support/site-process";

// The proof-of-work check (decision 026) in a real browser, under the site's own
// Content-Security-Policy: the donation form is told a check is needed, shows it, lets the browser
// solve it from this site's own files alone, and the donation goes through. PAYMENT_CHALLENGE=always
// stands in for a spike, which the route tests make from the database.
const challengedSite = test.extend<{ challengedSite: RunningSite }>({
  challengedSite: async ({}, use) => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-challenge-"));
    const site = await startSiteProcess({ DATA_DIR: dataDir, PAYMENT_CHALLENGE: "always" });
    await use(site);
    await site.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ challengedSite }, use) => use(challengedSite.url),
  // The first start is answered 403 challenge-required, on purpose.
  allowedConsoleErrors: [/status of 403/],
});

challengedSite(
  "during a spike the donation form solves the check in the browser, from this site alone, then pays",
  async ({ page, challengedSite: site }) => {
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(site.url) && !request.url().startsWith("data:")) elsewhere.push(request.url());
    });
    await page.goto("/payment?amount=10.00");
    await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
    await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
    await fillCard(page);
    await page.getByRole("button", { name: /^Pay now/ }).click();
    await expect(page.getByText("your browser is doing a moment's check first")).toBeVisible();
    await expect(page.getByRole("region", { name: "Thank you for your donation!" })).toContainText("You gave £10.00.");
    expect(elsewhere).toEqual([]);
  },
);
