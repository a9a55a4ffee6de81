import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { createEvent, signIn, staffApi } from "../support/staff-api";
import { newVisitorAddress } from "../support/visitors";

// /admin/settings, "Seats held while paying" (decision 026): staff set how many seats one visitor
// may hold at once, a bad number is refused beside its field, and buyers meet the new limit.

test("staff lower the seats one e-mail address may hold, and a buyer asking for more is told the limit", async ({
  page,
  ownSite,
}) => {
  await signIn(page);
  await page.goto("/admin/settings");
  const perEmail = page.getByLabel("Seats one e-mail address may hold at once");
  const save = page.getByRole("button", { name: "Save the seat limits" });
  await expect(perEmail).toHaveValue("29");
  await expect(page.getByLabel("Seats one internet connection may hold at once")).toHaveValue("40");

  await perEmail.fill("0");
  await save.click();
  await expect(perEmail).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a number from 1 to 1000.").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.reload();
  await expect(perEmail).toHaveValue("29");

  await perEmail.fill("2");
  await save.click();
  await expect(page.getByRole("status")).toHaveText("The seat limits are saved.");
  await page.reload();
  await expect(perEmail).toHaveValue("2");

  const event = await createEvent(await staffApi(ownSite), { name: "Harvest Supper" });
  const headers = { "X-Forwarded-For": newVisitorAddress() };
  const buyer = { eventId: event.id, name: "Neema Joseph", email: "neema@example.org" };
  const tooMany = await page.request.post("/api/bookings", { data: { ...buyer, quantity: 3 }, headers });
  expect(tooMany.status()).toBe(429);
  expect(((await tooMany.json()) as { error: string }).error).toBe(
    "You can hold at most 2 tickets at once while paying. Choose fewer.",
  );
  const allowed = await page.request.post("/api/bookings", { data: { ...buyer, quantity: 2 }, headers });
  expect(allowed.status(), await allowed.text()).toBe(201);
});
