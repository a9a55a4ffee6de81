import { expect, type Locator } from "@playwright/test";

/**
 * Waits until React has taken over the element (hydration gives it React's own properties). Before
 * that a button is in the page but does nothing when pressed, and since the scripts come after the
 * content (decision 045) that moment lasts longer on a busy machine: a test that presses a control
 * the scripts make work waits for this first.
 */
export async function hydrated(element: Locator) {
  // A condition, not a time: as long as a loaded machine needs, within the test's own budget.
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__react"))), {
      timeout: 30_000,
    })
    .toBe(true);
}
