import { expect, test } from "../support/fixtures";
import { readContent } from "../support/content";

const wheel = readContent("home").imageWheel;
const count = wheel.images.length;

function slideShown(page: import("@playwright/test").Page) {
  return page.locator(".carousel-slide:not([hidden])");
}

test.describe("the image wheel", () => {
  test.use({ reducedMotion: "no-preference" });

  test("turns by itself every delay seconds and wraps from the last slide to the first", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
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
    await page.clock.install();
    await page.goto("/");
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
    await page.clock.install();
    await page.goto("/");
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
    await page.clock.install();
    await page.goto("/");
    await page.clock.runFor(wheel.delay * 1000 * 3);
    await expect(slideShown(page)).toHaveAttribute("aria-label", `1 of ${count}`);
    await page.getByRole("button", { name: "Next slide" }).click();
    await expect(slideShown(page)).toHaveAttribute("aria-label", `2 of ${count}`);
  });
});
