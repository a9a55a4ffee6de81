import fs from "node:fs/promises";
import { openDatabase } from "~/infra/db/database.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { testClock } from "../support/clock";
import { testCharity } from "../support/content";
import { insertEvent } from "../support/databases";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { newSiteDataDir, startSiteProcess } from "../support/site-process";
import { signIn } from "../support/staff-api";
import { buyTypes, giveTypes } from "../support/ticket-types";
import { hydrated } from "../support/hydration";

// A booking of several ticket types on its staff page (decision 082): its tickets by type, and a
// refund of one type's tickets at that type's price, on a laptop.

test.use({ baseURL: undefined, viewport: { width: 1280, height: 900 } });

test("staff refund one Child ticket of a booking of Adults and Children, at the Child's price", async ({ page }) => {
  // The event, its types and the paid booking are written before the site starts (staff cannot
  // yet edit types through the site here).
  const dataDir = await newSiteDataDir();
  const clock = testClock();
  const database = await openDatabase({ dataDir });
  let ref: string;
  try {
    const eventId = await insertEvent(database.db, { name: "Ceilidh", totalAvailableTickets: 40 }, clock.now());
    const types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
      ],
      clock.now(),
    );
    const deps = { db: database.db, payments: offlineProvider(database.db, clock), charity: testCharity, clock };
    ref = await buyTypes(deps, eventId, { [types.Adult!]: 2, [types.Child!]: 2 }, { name: "Neema Mollel" });
  } finally {
    await database.close();
  }
  const site = await startSiteProcess({ DATA_DIR: dataDir });
  try {
    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin/bookings/${ref}`);
    const byType = page.getByRole("region", { name: "Table of tickets by type" });
    await expect(byType.getByRole("row", { name: /^Adult/ })).toContainText("£12.50");
    await expect(byType.getByRole("row", { name: /^Child/ })).toContainText("£5.00");

    await hydrated(page.getByLabel("Type of ticket")); // The hint and the question follow the choice with the scripts.
    await page.getByLabel("Type of ticket").selectOption({ label: "Child (£5.00 each, up to 2)" });
    await expect(page.getByLabel("Tickets to refund")).toHaveValue("2");
    await expect(page.locator("#refund-quantity-hint")).toContainText("Up to 2 Child tickets can be refunded");
    await page.getByLabel("Tickets to refund").fill("1");
    await page.getByLabel("Reason").fill("One child is ill");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Refund £5.00?" });
    await expect(dialog).toContainText("1 Child ticket of this booking will stop being valid");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Refund £5.00" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Refunded:" })).toHaveText(
      "Refunded: 1 Child ticket, £5.00. The buyer is told by e-mail.",
    );
    await expect(byType.getByRole("row", { name: /^Child/ }).getByRole("cell")).toHaveText(["£5.00", "2", "1", "1"]);
    await expect(page.locator(".booking-facts")).toContainText("Tickets still valid3");
    await expect(page.getByRole("region", { name: "Table of refunds" })).toContainText("1 × Child");
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("refund-by-type-1280.png"), fullPage: true });
    await page
      .getByRole("region", { name: "Refund", exact: true })
      .screenshot({ path: test.info().outputPath("refund-form-1280.png") });
  } finally {
    await site.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
