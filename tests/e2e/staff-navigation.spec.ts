import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";

// Way-finding in the staff area (decision 073) and honest status (decision 074): a member moves
// between sections only by the staff navigation, on a phone (its "Staff menu") and on a laptop; the
// current section is marked, deep pages have breadcrumbs, and in the default mode (no mail server,
// demo payments) every page says so and an e-mail reads "Written to the outbox folder", never "Sent".

/** Below this width the staff navigation folds into its "Staff menu" (the stylesheet's 60rem). */
const foldsBelow = 960;

for (const width of [390, 1280]) {
  test(`a member finds their way by the staff navigation at ${width} px, and is told e-mail and payments are not real`, async ({
    page,
    site,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const api = await staffApi(site);
    const supper = `Harvest Supper ${width}`;
    await createEvent(api, { name: supper });
    // An e-mail to look at: a volunteer's welcome, written to the outbox folder (no mail server is set).
    const volunteer = { name: "Grace Kimaro", email: `grace.${width}@example.org`, reason: "I can cook." };
    const signUp = await page.request.post("/api/volunteers", { data: volunteer });
    expect(signUp.status(), await signUp.text()).toBe(201);
    await signIn(page);

    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Staff home", level: 1 })).toBeVisible();
    const banner = page.getByRole("complementary", { name: "What is not real on this site" });
    await expect(banner).toContainText(
      "E-mail is not set up: messages are written to the outbox folder, nobody receives them.",
    );
    await expect(banner).toContainText("Payments are in demo mode: only test cards are taken, no money moves.");
    await expect(banner.getByRole("link", { name: "How to set them up" })).toHaveAttribute(
      "href",
      "/admin/system#setup",
    );

    const nav = page.getByRole("navigation", { name: "Staff pages" });
    const menu = nav.locator("summary");
    const link = (name: string) => nav.getByRole("link", { name, exact: true });
    if (width < foldsBelow) {
      // Folded: the menu button names the current section; it opens and closes by keyboard.
      await expect(menu).toHaveText("Staff menu: Home");
      await expect(link("Events")).toBeHidden();
      await menu.focus();
      await page.keyboard.press("Enter");
      await expect(link("Events")).toBeVisible();
      await expect(link("Home")).toHaveAttribute("aria-current", "page");
      await page.keyboard.press("Enter");
      await expect(link("Events")).toBeHidden();
    } else {
      await expect(menu).toBeHidden();
      await expect(link("Events")).toBeVisible();
      await expect(link("Home")).toHaveAttribute("aria-current", "page");
    }

    /** Opens a section by the staff navigation alone, and checks it is marked as the current one. */
    async function go(name: string, heading: string) {
      if (width < foldsBelow) await menu.click();
      await link(name).click();
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      // One link marked (folded again on a phone, whose menu button names the section).
      await expect(nav.locator("[aria-current]")).toHaveCount(1);
      await expect(nav.locator('a[aria-current="page"]')).toHaveText(name);
      if (width < foldsBelow) await expect(menu).toHaveText(`Staff menu: ${name}`);
      await noSidewaysScroll(page, width);
    }

    await go("Events", "Events");
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: supper, exact: true }).first().click();
    await expect(page.getByRole("heading", { name: supper, level: 1 })).toBeVisible();
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs.getByRole("listitem")).toHaveText(["Staff home", "Events", supper]);
    await expect(crumbs.getByText(supper)).toHaveAttribute("aria-current", "page");
    // Still in Events, by the staff navigation too.
    await expect(nav.locator('a[aria-current="page"]')).toHaveText("Events");
    await noSidewaysScroll(page, width);

    await go("E-mails", "E-mails");
    const row = page.getByRole("row").filter({ hasText: volunteer.email });
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText("Written to the outbox folder (no mail server is set)", { timeout: 1000 });
    }).toPass();
    await expect(page.getByRole("main")).not.toContainText("Sent at");
    await expect(
      page
        .getByRole("navigation", { name: "Show e-mails by status" })
        .getByRole("link", { name: "Written to the folder" }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await row.getByRole("link", { name: /^Preview/ }).click();
    await expect(page.getByRole("heading", { name: "E-mail preview", level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Written to the outbox folder (no mail server is set) at");
    await expect(crumbs.getByRole("listitem").nth(1)).toHaveText("E-mails");
    await crumbs.getByRole("link", { name: "E-mails" }).click();
    await expect(page.getByRole("heading", { name: "E-mails", level: 1 })).toBeVisible();

    await go("Gift Aid", "Gift Aid claims");
    await go("System", "System");
    await expect(page.locator("#setup")).toContainText("Demo mode: only the test cards are taken");
    await go("Home", "Staff home");
    await expect(page.getByRole("heading", { name: /Since you last signed in|In the last 7 days/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
}

async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}
