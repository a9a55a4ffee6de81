import type { Page } from "@playwright/test";
import { bookingForm, fillCard } from "../support/bookings";
import {
  confirmationOutcome,
  expect,
  expectNoSeriousA11yViolations,
  testWithOwnSite as test,
} from "../support/fixtures";
import { createEvent, openStaffSection, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Promo codes as staff and visitors meet them (decision 084): staff make a complimentary code and
// a 20% code on /admin/codes/new; a visitor on a phone applies the 20% code and pays by card the
// discounted total; another applies the free code and gets a ticket with no card; staff then see
// each code's uses and the money it gave away. Axe at a phone's and a laptop's width.

test("staff make a free code and a 20% code; visitors book with them; staff see the uses and the money given away", async ({
  page,
  browser,
  ownSite,
}) => {
  test.slow();
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Harvest Supper" });
  await api.dispose();

  // Staff, on a laptop.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await page.goto("/admin");
  await openStaffSection(page, "Promo codes");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Promo codes");
  const makeCode = async (code: string, discount: string, more?: () => Promise<void>) => {
    await page.getByRole("link", { name: "New promo code" }).click();
    await page.getByLabel("Code", { exact: true }).fill(code);
    const events = page.getByLabel("Event", { exact: true });
    await events.selectOption((await events.locator("option", { hasText: "Harvest Supper" }).getAttribute("value"))!);
    await page.getByRole("group", { name: "Discount" }).getByLabel(discount).check();
    await more?.();
    await page.getByLabel("Maximum uses").fill("10");
    await page.getByRole("button", { name: "Make the code" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Promo code ${code}`);
    await expect(page.getByText("The code is made.")).toBeVisible();
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Promo codes" }).click();
  };
  // A form left wrong says what is wrong on its field.
  await page.getByRole("link", { name: "New promo code" }).click();
  await page.getByLabel("Code", { exact: true }).fill("x");
  await page.getByRole("button", { name: "Make the code" }).click();
  await expect(page.getByLabel("Code", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousA11yViolations(page);
  await page.goto("/admin/codes");
  await makeCode("COMP", "Free (complimentary tickets)");
  await makeCode("SAVE20", "A percentage off", () => page.getByLabel("Percentage off (%)").fill("20"));

  // A visitor on a phone applies the 20% code and pays the discounted total by card.
  const visitor = await browser.newPage({ baseURL: ownSite.url, viewport: { width: 390, height: 844 } });
  await visitor.goto(`/book-event/${event.id}`);
  // Applying a code keeps what is typed once the scripts have taken over the page.
  await hydrated(visitor.getByRole("button", { name: "Apply" }));
  const f = bookingForm(visitor);
  await f.name.fill("Amina Mushi");
  await f.email.fill("amina@example.org");
  await f.quantity.fill("2");
  await applyCode(visitor, "nope");
  await expect(visitor.getByText("There is no such promo code.")).toBeVisible();
  await applyCode(visitor, "save20");
  await expect(visitor.getByRole("status").filter({ hasText: "Code SAVE20 applied: 20% off." })).toBeVisible();
  await f.quantity.fill("2");
  const overview = visitor.getByRole("region", { name: "Booking overview" });
  await expect(overview).toContainText("Promo code SAVE20-£5.00");
  await expect(overview).toContainText("Total£20.49");
  await expect(f.pay).toHaveText("Pay now £20.49");
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(visitor);
  await fillCard(visitor);
  await f.pay.click();
  await expect(visitor).toHaveURL(/\/confirmation\?/);
  await expect(confirmationOutcome(visitor).getByText("Payment succeeded!")).toBeVisible();
  await expect(visitor.getByRole("region", { name: "Your booking" })).toContainText("Total£20.49");

  // Another applies the free code, without JavaScript's help needed: the page's address carries it.
  await visitor.goto(`/book-event/${event.id}?code=comp`);
  await expect(visitor.getByRole("status").filter({ hasText: "Code COMP applied" })).toBeVisible();
  await f.name.fill("Neema Mollel");
  await f.email.fill("neema@example.org");
  await expect(overview).toContainText("Total£0.00");
  await expect(visitor.getByRole("heading", { name: "No payment needed" })).toBeVisible();
  await expect(visitor.getByLabel("Card number")).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor);
  await visitor.getByRole("button", { name: "Book free tickets" }).click();
  await expect(visitor).toHaveURL(/\/confirmation\?/);
  await expect(visitor.getByRole("region", { name: "Your booking" })).toContainText("Total£0.00");
  await visitor.close();

  // Staff see each code's uses and the money it gave away, on a laptop and a phone.
  await page.goto("/admin/codes");
  const table = page.getByRole("table");
  await expect(table.getByRole("row", { name: /SAVE20/ })).toContainText("1 of 10");
  await expect(table.getByRole("row", { name: /SAVE20/ })).toContainText("£5.00");
  await expect(table.getByRole("row", { name: /COMP/ })).toContainText("£12.50");
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // And switch a code off.
  await page.getByRole("link", { name: "COMP" }).click();
  await expect(page.getByText("Money given away")).toBeVisible();
  await page.getByRole("button", { name: "Switch the code off" }).click();
  await expect(page.getByText("The code is switched off: no new booking can use it.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // And change its limits: a maximum below its one use is refused at the field, then one is saved.
  const limits = page.getByRole("region", { name: "Change the limits" });
  await expect(limits.getByLabel("Maximum uses")).toHaveValue("10");
  await limits.getByLabel("Maximum uses").fill("0");
  await limits.getByRole("button", { name: "Save the limits" }).click();
  await expect(limits.getByLabel("Maximum uses")).toHaveAttribute("aria-invalid", "true");
  await expect(limits).toContainText("Enter the maximum uses as a whole number from 1");
  await expectNoSeriousA11yViolations(page);
  await limits.getByLabel("Maximum uses").fill("25");
  await limits.getByRole("button", { name: "Save the limits" }).click();
  await expect(page.getByText("The code's limits are changed.")).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^25$/ })).toBeVisible();
  await expect(limits.getByLabel("Maximum uses")).toHaveValue("25");
});

async function applyCode(page: Page, code: string) {
  await page.getByLabel("Promo code").fill(code);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`code=${code}`));
}
