import fs from "node:fs/promises";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import { signIn } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// The volunteers page: the sign-ups newest first, the CSV, and deleting one on request, asked
// about first and written in the audit log without the volunteer's name.

test("staff see the sign-ups, download them, and delete one on request, confirmed and logged", async ({ page }) => {
  for (const volunteer of [
    { name: "Grace Kimaro", email: "grace@example.org", reason: "I can help at the quiz night." },
    { name: "Juma Said", email: "=juma@example.org", reason: "I drive, and can fetch supplies." },
  ]) {
    const response = await page.request.post("/api/volunteers", { data: volunteer });
    expect(response.status(), await response.text()).toBe(201);
  }
  await signIn(page);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "Volunteers" }).click();
  await expect(page.getByRole("heading", { name: "Volunteers", level: 1 })).toBeVisible();
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Juma Said"); // newest first
  await expect(rows.nth(1)).toContainText("Grace Kimaro");
  await expectNoSeriousA11yViolations(page);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = await fs.readFile((await (await downloading).path())!, "utf8");
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe("Name,E-mail,Why they want to help,Signed up");
  expect(lines[1]).toMatch(
    /^Juma Said,'=juma@example.org,"I drive, and can fetch supplies\.",\d{4}-\d\d-\d\d \d\d:\d\d$/,
  );
  expect(lines).toHaveLength(3);

  // Asked first (by the scripts): keeping it changes nothing.
  await hydrated(page.getByRole("button", { name: "Delete the sign-up of Grace Kimaro" }));
  await page.getByRole("button", { name: "Delete the sign-up of Grace Kimaro" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete this sign-up?" });
  await expect(dialog).toContainText("Grace Kimaro's sign-up will be deleted for good.");
  await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  await page.getByRole("button", { name: "Delete the sign-up of Grace Kimaro" }).click();
  await dialog.getByRole("button", { name: "Delete the sign-up" }).click();
  await expect(page.getByRole("status")).toHaveText("The sign-up is deleted.");
  await expect(rows).toHaveCount(1);
  await expect(page.getByText("Grace Kimaro")).toHaveCount(0);

  // The audit log says who did what, and names no volunteer.
  await page.goto("/admin/audit");
  const log = page.locator("tbody");
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log.getByRole("row").first()).toContainText("Deleted a volunteer sign-up");
  await expect(log.getByRole("row").first()).toContainText(staffAccount.email);
  await expect(log.getByRole("row").nth(1)).toContainText("Downloaded the volunteer sign-ups");
  await expect(log).not.toContainText("Grace");
  await expectNoSeriousA11yViolations(page);

  // The API deletes too (the integration surface), and says when there is nothing to delete.
  const remaining = (await (await page.request.get("/api/admin/volunteers")).json()) as {
    volunteers: { id: string }[];
  };
  expect((await page.request.delete(`/api/admin/volunteers/${remaining.volunteers[0]!.id}`)).status()).toBe(204);
  expect((await page.request.delete(`/api/admin/volunteers/${remaining.volunteers[0]!.id}`)).status()).toBe(404);
});
