import type { Page } from "@playwright/test";
import { bookingForm, fillCard } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Questions (decision 083) as staff and a visitor meet them, on a phone and on a laptop: staff add
// a meal choice and a per-attendee dietary question to an event; a visitor books 2 seats answering
// them (one answer per attendee); staff read the answers on the booking's page and the door list.

const questionBox = (page: Page, legend: string | RegExp) => page.getByRole("group", { name: legend });

for (const width of [390, 1280]) {
  test(`at ${width} px staff ask a meal choice and each attendee's dietary needs, and read a visitor's answers`, async ({
    page,
    ownSite,
  }) => {
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Harvest Supper", ticketCost: 20, totalAvailableTickets: 40 });

    // Staff add the two questions on the event's page.
    await signIn(page);
    await page.goto(`/admin/events/${event.id}`);
    const questions = page.getByRole("group", { name: "Questions", exact: true });
    await hydrated(questions.getByRole("button", { name: "Add a question" })); // Added in place by the scripts.
    await questions.getByRole("button", { name: "Add a question" }).click();
    const meal = questionBox(page, "Question 1 (new)");
    await expect(meal.getByLabel("Question", { exact: true })).toBeFocused();
    await page.keyboard.type("Meal choice");
    await meal.getByLabel("Answer type").selectOption({ label: "One of a list" });
    await meal.getByLabel("Choices").fill("Beef\nFish\nVegetarian");
    await meal.getByLabel("Required").check();
    await questions.getByRole("button", { name: "Add a question" }).click();
    const diet = questionBox(page, "Question 2 (new)");
    await diet.getByLabel("Question", { exact: true }).fill("Dietary needs");
    await diet.getByLabel("Ask each attendee").check();
    await diet.getByLabel("Show at the door").check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expect(questionBox(page, "Question 1: Meal choice")).toContainText("Not answered yet");

    // A visitor books 2 seats: the dietary question is asked of each attendee.
    await page.goto(`/book-event/${event.id}`);
    const f = bookingForm(page);
    await f.name.fill("Amina Mushi");
    await f.email.fill("amina@example.org");
    await f.quantity.fill("2");
    const asked = page.getByRole("region", { name: "Questions" });
    await expect(asked.getByRole("group", { name: /^Attendee \d$/ })).toHaveCount(2);
    await fillCard(page);
    // The required meal left unanswered: said beside it and in a summary, nothing held.
    await f.pay.click();
    const mealField = asked.getByLabel("Meal choice");
    await expect(mealField).toHaveAttribute("aria-invalid", "true");
    // One summary for the whole form, linking to the question (decision 083).
    const summary = page.getByRole("alert");
    await expect(summary).toHaveCount(1);
    await expect(summary).toContainText("Please answer the questions marked below.");
    await expect(summary.getByRole("link", { name: "Meal choice" })).toBeVisible();
    await expect(asked.getByText("Please answer this question.", { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await mealField.selectOption("Fish");
    await asked
      .getByRole("group", { name: "Attendee 1" })
      .getByLabel(/Dietary needs/)
      .fill("Vegan");
    await asked
      .getByRole("group", { name: "Attendee 2" })
      .getByLabel(/Dietary needs/)
      .fill("Nut allergy");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await f.pay.click();
    await expect(page).toHaveURL(/\/confirmation\?/);
    const bookingRef = new URL(page.url()).searchParams.get("bookingRef")!;

    // Staff read the answers on the booking's page and on the door list.
    await page.goto(`/admin/bookings/${bookingRef}`);
    const answers = page.getByRole("region", { name: "Answers" });
    await expect(answers).toContainText("Meal choiceFish");
    await expect(answers).toContainText("Dietary needs (Attendee 1)Vegan");
    await expect(answers).toContainText("Dietary needs (Attendee 2)Nut allergy");
    await expectNoSeriousA11yViolations(page);
    await page.goto(`/admin/events/${event.id}/door-list`);
    const row = page.getByRole("row", { name: /Amina Mushi/ });
    await expect(row).toContainText("Meal choice: Fish");
    await expect(row).toContainText("Dietary needs (Attendee 2): Nut allergy");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
  });
}
