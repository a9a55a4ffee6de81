import crypto from "node:crypto";
import fs from "node:fs/promises";
import { request as apiRequest, type Page } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, test, useSiteWithMailServer } from "../support/fixtures";
import { staffAccount } from "../support/site-process";
import { createEvent, signIn, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// A person's data: staff find everything held for an address, download it for them, and erase it
// on request (asked about first); afterwards nothing is found, and the event's seats are as they were.

test.describe("a person's data, with a mail server on loopback", () => {
  test.slow();
  const running = useSiteWithMailServer("Kilele Village Trust <office@example.org>");

  async function expectPhoneFriendly(page: Page) {
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  test("staff see each kind of record, download it, erase it (confirmed), and then find nothing", async ({ page }) => {
    const { site, smtp } = running;
    const staff = await staffApi(site);
    const event = await createEvent(staff, { name: "Harvest Supper" });

    // Amina books, gives with Gift Aid and signs up to volunteer; Juma books too.
    const visitor = await apiRequest.newContext({ baseURL: site.url });
    const bookingRef = await buyTickets(visitor, event.id, {
      name: "Amina Mushi",
      email: "Amina.Mushi@example.org",
      quantity: 2,
    });
    await buyTickets(visitor, event.id, { name: "Juma Said", email: "juma@example.org", quantity: 1 });
    const started = await visitor.post("/api/donations", {
      data: {
        amount: "10.00",
        name: "Amina Mushi",
        email: "amina.mushi@example.org",
        giftAid: true,
        firstName: "Amina",
        surname: "Mushi",
        houseNameOrNumber: "Rose Cottage",
        postcode: "sw1a 1aa",
        scope: "this-and-past-four-years",
      },
    });
    expect(started.status(), await started.text()).toBe(201);
    const { donationId, clientSecret } = (await started.json()) as { donationId: string; clientSecret: string };
    const paid = await visitor.post("/api/payments/offline/confirm", {
      data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
    });
    expect(await paid.json()).toEqual({ status: "succeeded" });
    const signedUp = await visitor.post("/api/volunteers", {
      data: { name: "Amina Mushi", email: "amina.mushi@example.org", reason: "I can bake for the harvest supper." },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(201);
    // Her two receipts and the volunteer confirmation, and Juma's receipt, really went out.
    await expect.poll(() => smtp.sentTo("amina.mushi@example.org").length, { timeout: 20_000 }).toBe(3);
    await expect.poll(() => smtp.sentTo("juma@example.org").length, { timeout: 20_000 }).toBe(1);
    // And the charity's office was told of each (her booking, gift and sign-up, and Juma's booking).
    await expect.poll(() => smtp.sentTo("kilele@example.org").length, { timeout: 20_000 }).toBe(4);
    const soldBefore = await soldOf(staff, event.id);
    expect(soldBefore).toBe(3);
    // She came to the door with her guest.
    const door = await staff.post(`/api/admin/events/${event.id}/check-ins`, {
      data: {
        checkIns: [
          { id: crypto.randomUUID(), bookingRef, count: 2, scannedAt: new Date().toISOString(), device: "door-1" },
        ],
      },
    });
    expect(((await door.json()) as { results: { outcome: string }[] }).results).toEqual([
      expect.objectContaining({ outcome: "checked-in" }),
    ]);

    await signIn(page, { url: site.url });
    await page.goto(`${site.url}/admin`);
    await page
      .getByRole("navigation", { name: "Staff pages" })
      .getByRole("link", { name: "People", exact: true })
      .click();
    await expect(page.getByRole("heading", { name: "A person's data", level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectPhoneFriendly(page);

    // A bad address is answered beside the field.
    const field = page.getByLabel("Email address");
    await field.fill("amina at example");
    await page.getByRole("button", { name: "Find their data" }).click();
    await expect(field).toHaveAccessibleDescription(/Enter an e-mail address, such as name@example\.org\./);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousA11yViolations(page);

    // Any case, spaces around: everything held for her, and nothing of Juma's.
    await field.fill("  AMINA.mushi@Example.ORG ");
    await page.getByRole("button", { name: "Find their data" }).click();
    const held = page.getByRole("region", { name: "Held for amina.mushi@example.org" });
    await expect(held).toBeVisible();
    const section = (name: RegExp) => held.getByRole("region", { name });
    await expect(section(/^Bookings \(1\)/)).toContainText("Harvest Supper");
    await expect(section(/^Bookings \(1\)/)).toContainText(bookingRef);
    await expect(section(/^Bookings \(1\)/)).toContainText("£25.49");
    await expect(section(/^Tickets \(1\)/).getByRole("listitem")).toHaveText(
      /^\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d: 2 places$/,
    );
    await expect(section(/^Donations \(1\)/)).toContainText("£10.00");
    await expect(section(/^Gift Aid declarations \(1\)/)).toContainText("Rose Cottage");
    await expect(section(/^Gift Aid declarations \(1\)/)).toContainText("SW1A 1AA");
    await expect(section(/^Volunteer sign-ups \(1\)/)).toContainText("I can bake for the harvest supper.");
    const mails = section(/^E-mails sent \(3\)/);
    await expect(mails).toContainText("Booking receipt");
    await expect(mails).toContainText("Donation receipt");
    await expect(mails).toContainText("Volunteer confirmation");
    await expect(mails.getByText(/^Sent \w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d$/)).toHaveCount(3);
    await expect(held).not.toContainText("Juma");
    await expectNoSeriousA11yViolations(page);
    await expectPhoneFriendly(page);

    // The subject access export: every record, readable, with the date it was made.
    const downloading = page.waitForEvent("download");
    await held.getByRole("link", { name: "Download their data" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d\d-\d\d\.json$/);
    const exported = JSON.parse(await fs.readFile((await download.path())!, "utf8")) as Record<string, unknown> & {
      exportedAt: string;
      bookings: { bookingReference: string; event: string; name: string; quantity: number; amount: string }[];
      tickets: { bookingReference: string; places: number }[];
      donations: { donationReference: string; amount: string; status: string }[];
      giftAidDeclarations: { firstName: string; surname: string; houseNameOrNumber: string; postcode: string }[];
      volunteerSignUps: { whyTheyWantToHelp: string }[];
      emailsSent: { kind: string; subject: string; status: string }[];
    };
    expect(Math.abs(Date.parse(exported.exportedAt) - Date.now())).toBeLessThan(5 * 60_000);
    expect(exported.emailAddress).toBe("amina.mushi@example.org");
    expect(exported.bookings).toEqual([
      expect.objectContaining({
        bookingReference: bookingRef,
        event: "Harvest Supper",
        name: "Amina Mushi",
        quantity: 2,
        amount: "£25.49",
      }),
    ]);
    expect(exported.tickets).toEqual([
      expect.objectContaining({
        bookingReference: bookingRef,
        places: 2,
        placesCheckedIn: 2,
        checkIns: [expect.objectContaining({ places: 2, outcome: "checked-in" })],
      }),
    ]);
    expect(exported.donations).toEqual([
      expect.objectContaining({ donationReference: donationId, amount: "£10.00", status: "paid" }),
    ]);
    expect(exported.giftAidDeclarations).toEqual([
      expect.objectContaining({
        firstName: "Amina",
        surname: "Mushi",
        houseNameOrNumber: "Rose Cottage",
        postcode: "SW1A 1AA",
      }),
    ]);
    expect(exported.volunteerSignUps).toEqual([
      expect.objectContaining({ whyTheyWantToHelp: "I can bake for the harvest supper." }),
    ]);
    expect(exported.emailsSent.map((m) => m.status)).toEqual(["sent", "sent", "sent"]);
    expect(exported.emailsSent.map((m) => m.subject)).toContain(
      "Thank you for your donation of £10.00 to Kilele Village Trust",
    );
    expect(JSON.stringify(exported)).not.toContain("Juma");
    // The file is never cached, and the JSON API gives the same export.
    const file = await page.request.get(`${site.url}/admin/people/export?email=amina.mushi%40example.org`);
    expect(file.headers()["cache-control"]).toContain("no-store");
    expect(file.headers()["content-disposition"]).toMatch(/^attachment; filename="personal-data-/);
    const viaApi = (await (await staff.get("/api/admin/people?email=Amina.Mushi@example.org")).json()) as Record<
      string,
      unknown
    >;
    expect({ ...viaApi, exportedAt: undefined }).toEqual({ ...exported, exportedAt: undefined });

    // Asked first (by the scripts), saying what is kept; keeping it changes nothing.
    await hydrated(held.getByRole("button", { name: "Erase their data" }));
    await held.getByRole("button", { name: "Erase their data" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Erase this person's data?" });
    await expect(dialog).toContainText("volunteer sign-ups and unsent e-mails will be deleted");
    await expect(dialog).toContainText("Gift Aid declaration HMRC may still ask for keeps the name and home address");
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await expectPhoneFriendly(page);
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(section(/^Bookings \(1\)/)).toBeVisible();

    await held.getByRole("button", { name: "Erase their data" }).click();
    await dialog.getByRole("button", { name: "Erase their data" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Their data is erased/ })).toHaveText(
      "Their data is erased: 1 booking, 1 ticket, 1 donation anonymised; 1 Gift Aid declaration kept for HMRC; 1 volunteer sign-up deleted; 6 sent e-mails reduced to a note that they were sent.",
    );
    await expect(page.getByText("Nothing is held for amina.mushi@example.org.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Erase their data" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await expectPhoneFriendly(page);

    // A new search finds nothing; the event's seats sold are unchanged; Juma's data is still his.
    await field.fill("amina.mushi@example.org");
    await page.getByRole("button", { name: "Find their data" }).click();
    await expect(page.getByText("Nothing is held for amina.mushi@example.org.")).toBeVisible();
    expect(await soldOf(staff, event.id)).toBe(soldBefore);
    const doorList = (await (await staff.get(`/api/admin/events/${event.id}/check-ins`)).json()) as {
      tickets: { bookingRef: string; name: string; quantity: number; checkedIn: number }[];
    };
    expect(doorList.tickets.find((t) => t.bookingRef === bookingRef)).toMatchObject({
      name: "Erased",
      quantity: 2,
      checkedIn: 2,
    });
    const juma = await staff.get("/api/admin/people?email=juma@example.org");
    expect(((await juma.json()) as { bookings: { name: string }[] }).bookings).toEqual([
      expect.objectContaining({ name: "Juma Said" }),
    ]);

    // The API erases too: there is nothing left for her, and a bad address is refused beside its field.
    const again = await staff.post("/api/admin/people/erase", { data: { email: "Amina.Mushi@example.org" } });
    expect(again.status()).toBe(404);
    expect(await again.json()).toMatchObject({ error: "Nothing is held for amina.mushi@example.org." });
    const bad = await staff.post("/api/admin/people/erase", { data: { email: "nobody" } });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { email: "Enter an e-mail address, such as name@example.org." } });

    // The audit log says who did what, names no one, and is kept.
    await page.goto(`${site.url}/admin/audit`);
    const log = page.locator("tbody");
    await expect(log.getByRole("row").first()).toContainText("Downloaded a person's data"); // the API export of Juma's
    await expect(log.getByRole("row", { name: /Erased a person's data/ })).toContainText(
      "Erased the data held for one person",
    );
    await expect(log.getByRole("row", { name: /Erased a person's data/ })).toContainText(staffAccount.email);
    await expect(log.getByRole("row", { name: /Let people in at the door/ })).toContainText(
      "2 places let in for Harvest Supper on door-1",
    );
    await expect(log).not.toContainText(/amina|mushi|juma/i);
    await expectNoSeriousA11yViolations(page);

    // A busy door fills the log: staff can show one kind of entry alone.
    await page.getByLabel("What to show").selectOption("Erased a person's data");
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(/\?action=person\.erased$/);
    await expect(log.getByRole("row")).toHaveCount(1);
    await expect(log.getByRole("row")).toContainText("Erased the data held for one person");
    await expectNoSeriousA11yViolations(page);
    await expectPhoneFriendly(page);
  });
});

async function soldOf(staff: Awaited<ReturnType<typeof staffApi>>, eventId: string): Promise<number> {
  const response = await staff.get(`/api/admin/events/${eventId}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { availability: { sold: number } }).availability.sold;
}
