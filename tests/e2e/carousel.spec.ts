import { expect, test } from "../support/fixtures";
import { readContent } from "../support/content";
import { hydrated } from "../support/hydration";

const wheel = readContent("home").imageWheel;
const count = wheel.images.length;

/**
 * Opens the home page with the page's clock stopped, so time moves only when the test says
 * (`runFor`): a clock left running would add however long a busy machine takes to hydrate.
 * Waits until React has hydrated the wheel, which is when its timer starts.
 */
async function openWithStoppedClock(page: import("@playwright/test").Page) {
  const start = new Date("2030-01-01T09:00:00Z").getTime();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
  await page.goto("/");
  await hydrated(page.locator(".carousel"));
}

function slideShown(page: import("@playwright/test").Page) {
  return page.locator(".carousel-slide:not([hidden])");
}

test.describe("the image wheel", () => {
  test.use({ reducedMotion: "no-preference" });

  test("turns by itself every delay seconds and wraps from the last slide to the first", async ({ page }) => {
    await openWithStoppedClock(page);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    await page.clock.runFor(wheel.delay * 1000 - 500);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    await page.clock.runFor(500);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
    await page.clock.runFor(wheel.delay * 1000 * (count - 1));
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
  });

  test("moves by arrows and indicators, by keyboard, wrapping both ways, and holds still while focused", async ({
    page,
  }) => {
    await openWithStoppedClock(page);
    const carousel = page.getByRole("region", { name: "Life in Kilele" });
    await carousel.getByRole("button", { name: "Previous slide" }).focus();
    await page.keyboard.press("Enter");
    await expect(slideShown(page)).toHaveAttribute("aria-label", `${count} of ${count}`);
    await page.keyboard.press("Tab"); // into the indicators
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // Show slide 2
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
    await expect(carousel.getByRole("button", { name: "Show slide 2" })).toHaveAttribute("aria-current", "true");
    // Focus is inside, so time passing changes nothing.
    await page.clock.runFor(wheel.delay * 1000 * 3);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
    await carousel.getByRole("button", { name: "Next slide" }).focus();
    for (let i = 0; i < count - 1; i++) await page.keyboard.press("Enter");
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    // The change the visitor made is announced politely.
    await expect(carousel.locator(".carousel-slides")).toHaveAttribute("aria-live", "polite");
  });

  test("holds still while the pointer is over it, and when paused", async ({ page }) => {
    await openWithStoppedClock(page);
    const carousel = page.getByRole("region", { name: "Life in Kilele" });
    await carousel.hover();
    await page.clock.runFor(wheel.delay * 1000 * 2);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    await page.mouse.move(0, 0);
    await page.clock.runFor(wheel.delay * 1000);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);

    await carousel.getByRole("button", { name: "Pause the slideshow" }).click();
    await page.mouse.move(0, 0);
    await page.locator("body").focus();
    await page.clock.runFor(wheel.delay * 1000 * 2);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
  });
});

test.describe("with reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("the wheel never turns by itself but still moves when asked", async ({ page }) => {
    await openWithStoppedClock(page);
    await page.clock.runFor(wheel.delay * 1000 * 3);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    await page.getByRole("button", { name: "Next slide" }).click();
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
  });
});
