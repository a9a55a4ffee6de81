import { openDatabase } from "~/infra/db/database.server";
import { listVolunteers } from "~/features/volunteers/volunteers.server";
import {
  expect,
  expectNoSeriousA11yViolations,
  test as testOnWorkerSite,
  testWithOwnSite as test,
  useSiteWithMailServer,
} from "../support/fixtures";
import type { RunningSite } from "../support/site-process";
import type { Page } from "@playwright/test";
import { hydrated } from "../support/hydration";

const amina = {
  name: "Amina Mushi",
  email: "amina@example.org",
  reason: "I am a retired teacher and would love to help.",
};

/** Stops the site and reads the volunteers table it left behind. */
async function storedVolunteers(site: RunningSite) {
  expect(await site.stop()).toBe(0);
  const database = await openDatabase({ dataDir: site.dataDir });
  try {
    return await listVolunteers(database);
  } finally {
    await database.close();
  }
}

/** Types a whole sign-up into the form. */
async function fillIn(f: ReturnType<typeof form>, values: { name: string; email: string; reason: string }) {
  await f.name.fill(values.name);
  await f.email.fill(values.email);
  await f.reason.fill(values.reason);
}

function form(page: Page) {
  return {
    name: page.getByLabel("Name"),
    email: page.getByLabel("Email"),
    reason: page.getByLabel(/^REASON/),
    send: page.getByRole("button", { name: "Send" }),
  };
}

// These two only look at the form and type into it, storing nothing: the worker's site will do.
testOnWorkerSite("shows the Join us heading, the fields and the live counter", async ({ page }) => {
  await page.goto("/volunteering");
  await expect(page.getByRole("heading", { name: "Join us in 2025" })).toBeVisible();
  const f = form(page);
  await expect(page.getByText("REASON (0/200)")).toBeVisible();
  await f.reason.fill("Hello");
  await expect(page.getByText("REASON (5/200)")).toBeVisible();
  await expect(f.reason).toHaveAccessibleName("REASON (5/200)");
  await expectNoSeriousA11yViolations(page);
});

testOnWorkerSite("extra typing beyond the caps is ignored (80, 100, 200)", async ({ page }) => {
  await page.goto("/volunteering");
  const f = form(page);
  await hydrated(f.send);
  await f.name.fill("n".repeat(79));
  await f.name.pressSequentially("xyz");
  await expect(f.name).toHaveValue(`${"n".repeat(79)}x`);
  await f.email.fill(`${"e".repeat(100)}@example.org`);
  await expect(f.email).toHaveValue("e".repeat(100));
  await f.reason.fill("r".repeat(199));
  await f.reason.pressSequentially("st");
  await expect(f.reason).toHaveValue(`${"r".repeat(199)}s`);
  await expect(page.getByText("REASON (200/200)")).toBeVisible();
});

test("each rule has its message, and a field's message clears when it is edited", async ({ page, ownSite }) => {
  await page.goto("/volunteering");
  const f = form(page);
  await hydrated(f.send);
  await f.send.click();
  await expect(page.getByText("Name must not be left blank.")).toBeVisible();
  await expect(page.getByText("Invalid email.")).toBeVisible();
  await expect(page.getByText("Reason for signing up must not be left blank.")).toBeVisible();
  await expect(f.name).toBeFocused();
  await expect(f.name).toHaveAttribute("aria-invalid", "true");
  await expect(f.name).toHaveAccessibleDescription("Name must not be left blank.");
  await expectNoSeriousA11yViolations(page);

  await f.name.fill(amina.name);
  await expect(page.getByText("Name must not be left blank.")).toHaveCount(0);
  await expect(page.getByText("Invalid email.")).toBeVisible();
  await f.email.fill("amina@example");
  await f.reason.fill("   ");
  await f.send.click();
  await expect(page.getByText("Invalid email.")).toBeVisible();
  await expect(page.getByText("Reason for signing up must not be left blank.")).toBeVisible();
  expect(await storedVolunteers(ownSite)).toEqual([]);
});

test("a valid sign-up is stored, the fields clear and the thank-you alert shows", async ({ page, ownSite }) => {
  await page.goto("/volunteering");
  const f = form(page);
  await hydrated(f.send);
  await fillIn(f, amina);
  await f.send.click();
  const alert = page.getByRole("alertdialog");
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("Thank you for registering your interest");
  await expect(alert).toContainText("We will be in touch soon");
  await expect(alert.getByRole("button", { name: "Okay" })).toBeFocused();
  await expect(f.name).toHaveValue("");
  await expect(f.email).toHaveValue("");
  await expect(f.reason).toHaveValue("");
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(alert).toBeHidden();
  await expect(f.send).toBeFocused();

  const stored = await storedVolunteers(ownSite);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject(amina);
});

test("a failed submission shows an error alert and keeps what was typed", async ({ page, ownSite }) => {
  // The form posts to the page's action (React Router's data request for /volunteering).
  await page.route("**/volunteering.data**", (route) => route.abort("failed"));
  await page.goto("/volunteering");
  const f = form(page);
  await hydrated(f.send);
  await fillIn(f, amina);
  await f.send.click();
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText("we could not send your sign-up");
  await alert.getByRole("button", { name: "Okay" }).click();
  await expect(alert).toBeHidden();
  await expect(f.name).toHaveValue(amina.name);
  await expect(f.email).toHaveValue(amina.email);
  await expect(f.reason).toHaveValue(amina.reason);
  expect(await storedVolunteers(ownSite)).toEqual([]);
});

test("a flood of sign-ups from one address is turned away with an alert, keeping the form", async ({
  page,
  ownSite,
}) => {
  await page.goto("/volunteering");
  const f = form(page);
  await hydrated(f.send);
  const alert = page.getByRole("alertdialog");
  for (let i = 1; i <= 6; i++) {
    await f.name.fill(amina.name);
    await f.email.fill(`amina${i}@example.org`);
    await f.reason.fill(amina.reason);
    await f.send.click();
    await expect(alert).toBeVisible();
    if (i <= 5) await expect(alert).toContainText("Thank you");
    else await expect(alert).toContainText("Please wait a few minutes and try again");
    await alert.getByRole("button", { name: "Okay" }).click();
  }
  await expect(f.email).toHaveValue("amina6@example.org");
  expect(await storedVolunteers(ownSite)).toHaveLength(5);
});

test("the server checks again: a script posting bad data gets the field messages and stores nothing", async ({
  request,
  ownSite,
}) => {
  const bad = await request.post("/api/volunteers", { data: { name: " ", email: "x", reason: "r".repeat(201) } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({
    error: "Please correct the fields marked.",
    code: "invalid",
    fields: {
      name: "Name must not be left blank.",
      email: "Invalid email.",
      reason: "Reason must be at most 200 characters.",
    },
  });
  const garbage = await request.post("/api/volunteers", {
    headers: { "Content-Type": "application/json" },
    data: "not json",
  });
  expect(garbage.status()).toBe(400);
  expect(await storedVolunteers(ownSite)).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form still validates, keeps what was typed, and signs up", async ({ page, ownSite }) => {
    await page.goto("/volunteering");
    const f = form(page);
    await f.name.fill(amina.name);
    await f.email.fill("not-an-email");
    await f.send.click();
    await expect(page.getByText("Invalid email.")).toBeVisible();
    await expect(page.getByText("Reason for signing up must not be left blank.")).toBeVisible();
    await expect(f.name).toHaveValue(amina.name);

    await f.email.fill(amina.email);
    await f.reason.fill(amina.reason);
    await f.send.click();
    const alert = page.getByRole("alertdialog");
    await expect(alert).toContainText("Thank you for registering your interest");
    await alert.getByRole("button", { name: "Okay" }).click();
    await expect(alert).toBeHidden();
    await expect(f.name).toHaveValue("");

    const stored = await storedVolunteers(ownSite);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject(amina);
  });
});

test.describe("with a mail server", () => {
  const running = useSiteWithMailServer("Kilele Village Trust <hello@example.org>");

  test("a sign-up gets a confirmation e-mail with what the volunteer wrote", async ({ page }) => {
    await page.goto(`${running.site.url}/volunteering`);
    await fillIn(form(page), amina);
    await form(page).send.click();
    await expect(page.getByRole("alertdialog")).toContainText("Thank you for registering your interest");
    await expect.poll(() => running.smtp.sentTo("amina@example.org").length).toBe(1);
    const mail = running.smtp.sentTo("amina@example.org")[0]!;
    expect(mail.subject).toBe("Thank you for offering to volunteer with Kilele Village Trust");
    expect(mail.text).toContain("Dear Amina Mushi,");
    expect(mail.text).toContain(`“${amina.reason}”`);
  });
});
