import fs from "node:fs/promises";
import { join as joinPath } from "node:path";
import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { buyTickets } from "../support/bookings";
import { giveDonation } from "../support/donations";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { createEvent, openStaffSection, signIn, staffApi } from "../support/staff-api";

// The walk through the staff area that a charity volunteer would take, on a 390 px phone and a
// 1280 px laptop, with a screenshot of each step in reports/staff-walk/<width>/ (`npm run walk`).
// Each step asserts that one of the eleven things such a walk once found is gone: no way around,
// "Sent" when nothing was sent, an editor sixty screens tall, posters cropped, a home that does not
// say what to do, tables cut off, a door that cannot find a name, everyone able to do everything,
// bookings found only by reference, feedback off-screen and history like a log, and public words
// that alarm. The rules behind each are tested one by one in Vitest and tests/e2e; this is the walk.

const hour = 3_600_000;

// The Door member's refused page answers 403, which the browser reports in its console.
test.use({ allowedConsoleErrors: [/status of 403/] });
const isoDateTime = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

for (const width of [390, 1280]) {
  test(`the staff walk at ${width} px finds none of the eleven faults`, async ({ page, ownSite }) => {
    test.setTimeout(300_000);
    const shots = joinPath("reports", "staff-walk", String(width));
    await fs.mkdir(shots, { recursive: true });
    let step = 0;
    const shot = async (name: string) => {
      step += 1;
      await page.screenshot({ path: joinPath(shots, `${String(step).padStart(2, "0")}-${name}.png`), fullPage: false });
    };
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });

    // What a week of the charity leaves behind: an event tonight with bookings, a gift with Gift Aid.
    const api = await staffApi(ownSite);
    const tonight = await createEvent(api, {
      name: "Harvest Supper",
      eventDate: new Date(Date.now() + 2 * hour).toISOString(),
      ticketSaleExpiry: new Date(Date.now() + hour).toISOString(),
    });
    const okafor = await buyTickets(api, tonight.id, { name: "Chidi Okafor", email: "chidi@example.org", quantity: 2 });
    await buyTickets(api, tonight.id, { name: "Siobhán Byrne", email: "siobhan@example.org", quantity: 1 });
    await giveDonation(api, {
      amount: "25",
      name: "Amina Mushi",
      email: "amina@example.org",
      declaration: { firstName: "Amina", surname: "Mushi", house: "1", postcode: "M1 1AE", scope: "this-donation" },
    });
    await signIn(page);

    // 5. The home says what needs doing: Gift Aid waiting (25 % of £25), this week's tickets.
    await page.goto("/admin");
    await expect(page.getByRole("link", { name: "£6.25 of Gift Aid is ready to claim" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Tickets and gifts" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Waiting for you" })).toBeVisible();
    // 2. Staff are told what is not real.
    await expect(
      page.getByText("E-mail is not set up: messages are written to the outbox folder, nobody receives them."),
    ).toBeVisible();
    await expect(page.getByText("Payments are in demo mode: only test cards are taken, no money moves.")).toBeVisible();
    await shot("home");

    // 1. A way around: every move below is made by the staff menu, never by typing an address.
    await openStaffSection(page, "E-mails");
    await expect(page.locator("main h1")).toHaveText("E-mails");
    // The receipts leave on the outbox's next round: the page, looked at again, says how they left.
    await expect(async () => {
      await page.reload();
      await expect(page.getByText(/Written to the outbox folder \(no mail server is set\)/).first()).toBeVisible({
        timeout: 1_000,
      });
    }).toPass();
    await expect(page.getByText(/^Sent at /)).toHaveCount(0);
    await shot("emails");

    // 9. A booking found by the buyer's name, accents and capitals aside.
    await openStaffSection(page, "Bookings");
    await page.getByLabel("Name, e-mail or booking code").fill("siobhan byrne");
    await page.getByRole("button", { name: "Find" }).click();
    await shot("bookings-found-by-name");
    await page.getByRole("link", { name: "Siobhán Byrne" }).click();
    await expect(page).toHaveURL(/\/admin\/bookings\/[\w-]+$/);

    // 10. A refund's answer is where the eye is, and the history is written for people.
    await page.goto(`/admin/bookings/${okafor}`);
    await page.getByLabel("Tickets to refund").fill("1");
    await page.getByLabel("Reason").fill("One guest is unwell");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /^Refund £/ })
      .click();
    const refunded = page.getByRole("status").filter({ hasText: "Refunded:" });
    await expect(refunded).toBeInViewport();
    await expect(page.locator("main")).not.toContainText(isoDateTime);
    await shot("refunded");

    // 6. An event's staff page: its numbers and tickets first, every column's information on screen.
    await openStaffSection(page, "Events");
    const left = page.locator('td[data-label="Left"]').first();
    await left.scrollIntoViewIfNeeded();
    await expect(left).toBeInViewport();
    await shot("events");
    await page.getByRole("link", { name: "Harvest Supper" }).first().click();
    const tickets = page.getByRole("table").filter({ hasText: "Chidi Okafor" });
    await expect(tickets).toBeVisible();
    const editForm = page.getByRole("heading", { name: "Edit event" });
    expect((await tickets.boundingBox())!.y).toBeLessThan((await editForm.boundingBox())!.y);
    const checkedIn = tickets.locator('[data-label="Checked in"]').first();
    await checkedIn.scrollIntoViewIfNeeded();
    await expect(checkedIn).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot("event-tickets");

    // 4. The poster shown whole on the public event page (letterboxed, never cropped).
    await page.goto(`/fundraising-event/${tonight.id}`);
    const poster = page.locator("main img").first();
    await expect(poster).toBeVisible();
    expect(await poster.evaluate((img) => getComputedStyle(img).objectFit)).toBe("contain");
    await shot("event-poster");

    // 7. The door finds a guest by surname, and the card changes when they are let in.
    await page.goto("/admin");
    await openStaffSection(page, "Check-in");
    await page
      .getByRole("link", { name: /Harvest Supper/ })
      .first()
      .click();
    const lookUp = page.getByLabel("Name, booking code or e-mail");
    await lookUp.fill("okafor");
    await lookUp.press("Enter");
    const card = page.locator(".door-answer");
    await expect(card.getByRole("heading")).toHaveText("Valid");
    await page.getByRole("button", { name: /^Check in/ }).click();
    await expect(card.getByRole("heading")).toHaveText(/^Checked in: 1 of 1$/);
    expect((await page.getByRole("button", { name: "Next" }).boundingBox())!.height).toBeLessThan(64);
    await shot("door-checked-in");

    // 3. The page editor: the subtitle and Save draft on the first screen, not sixty screens down.
    await page.goto("/admin");
    await openStaffSection(page, "Pages");
    await page.getByRole("region", { name: "The pages" }).getByRole("link", { name: "Home", exact: true }).click();
    await expect(page.getByRole("button", { name: "Save draft" })).toBeInViewport();
    // The subtitle within the first two screens (the staff menu and notices come first), no longer sixty down.
    expect((await page.getByLabel("Subtitle").boundingBox())!.y).toBeLessThan(2 * page.viewportSize()!.height);
    await shot("page-editor");

    // 8. Roles: a Door member invited by the Owner can check guests in and nothing else.
    await openStaffSection(page, "Staff");
    await page.getByLabel("Email", { exact: true }).fill("door@example.org");
    await page.getByLabel("Role", { exact: true }).selectOption("door");
    await page.getByRole("button", { name: "Add a member" }).click();
    await expect(page.getByRole("status").filter({ hasText: "door@example.org" })).toContainText(
      "written to the outbox folder",
    );
    const outbox = joinPath(ownSite.dataDir, "outbox");
    const file = async () => (await fs.readdir(outbox)).find((name) => name.endsWith("-door@example.org.eml"));
    await expect.poll(file).toBeDefined();
    const mail = await simpleParser(await fs.readFile(joinPath(outbox, (await file())!)));
    const join = /\/admin\/join\/[\w-]+/.exec(mail.text ?? "")![0];
    await signOut(page);
    await page.goto(join);
    await page.getByLabel("New password").fill("a long door password");
    await page.getByLabel("Repeat the password").fill("a long door password");
    await page.getByRole("button", { name: "Choose this password and sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/check-in/);
    const menu = page.getByRole("navigation", { name: "Staff pages" });
    if (await menu.locator("summary").isVisible()) await menu.locator("summary").click();
    await expect(menu.getByRole("link")).toHaveText(["Check-in"]);
    const refused = await page.goto("/admin/donations");
    expect(refused?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You can't open this page");
    expect((await page.request.get("/api/admin/donations")).status()).toBe(403);
    await shot("door-refused");
    await signOut(page);
    await page.goto("/admin/sign-in");
    await expect(page.getByRole("link", { name: /Forgot your password/ })).toBeVisible();

    // 11. Public words that neither alarm nor confuse in demo mode.
    await page.goto("/mock-event");
    await expect(page.locator("main")).not.toContainText("real money will be charged");
    await expect(page.locator("main")).toContainText("only test cards");
    await shot("mock-event");
    await page.goto("/fundraising");
    await expect(page.getByRole("link", { name: /ticketing page/i })).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(/\b1 donations\b|\b1 tickets\b|\b1 events\b/);
    await expectNoSeriousA11yViolations(page);
  });
}

async function signOut(page: Page) {
  await page.context().clearCookies();
}
