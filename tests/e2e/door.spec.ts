import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type APIRequestContext, type Page, type Route } from "@playwright/test";
import pg from "pg";
import { buyTickets } from "../support/bookings";
import { chromiumArgs, findTestBrowser } from "../support/chromium";
import { createPostgresDatabase } from "../support/databases";
import { hydrated } from "../support/hydration";
import { expect, expectNoSeriousA11yViolations, test as base } from "../support/fixtures";
import { qrVideo } from "../support/qr";
import { startSiteProcess, staffAccount, type RunningSite } from "../support/site-process";
import { createEvent, signIn, staffApi, openStaffSection } from "../support/staff-api";

// The door: staff check people in on a phone, by reference, short code, name or the receipt's QR
// code, online or not. The site runs on PostgreSQL here so a test can mark a booking refunded the way
// the refunds page will (that page is not built yet).

interface Door {
  site: RunningSite;
  databaseUrl: string;
  api: APIRequestContext;
  eventId: string;
  /** Booking references by buyer. */
  refs: Record<"amina" | "baraka" | "chiku" | "dora", string>;
}

const test = base.extend<{ door: Door }>({
  door: async ({}, use) => {
    const database = await createPostgresDatabase();
    const site = await startSiteProcess({ DATABASE_URL: database.url });
    try {
      const api = await staffApi(site);
      const hour = 3_600_000;
      const event = await createEvent(api, {
        name: "Quiz Night",
        eventDate: new Date(Date.now() + 2 * hour).toISOString(),
        ticketSaleExpiry: new Date(Date.now() + hour).toISOString(),
      });
      const buy = (name: string, quantity: number) =>
        buyTickets(api, event.id, { name, email: "buyer@example.org", quantity });
      const refs = {
        amina: await buy("Amina Mushi", 4),
        baraka: await buy("Baraka Juma", 1),
        chiku: await buy("Chiku Said", 2),
        dora: await buy("Dora Kimaro", 1),
      };
      // Dora's booking is refunded, as a member of staff would from the refunds page.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query("update bookings set status = 'refunded' where booking_ref = $1", [refs.dora]);
      await client.query("update tickets set is_valid = false where booking_ref = $1", [refs.dora]);
      await client.end();
      await use({ site, databaseUrl: database.url, api, eventId: event.id, refs });
    } finally {
      await site.stop();
      await database.drop();
    }
  },
  baseURL: async ({ door }, use) => use(door.site.url),
});

test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: the door tests run on PostgreSQL");
// Each test starts its own server on its own database and sells four bookings first.
test.slow();

const shortCode = (ref: string) =>
  `${ref.replace(/-/g, "").slice(0, 8).toUpperCase().slice(0, 4)}-${ref.slice(4, 8).toUpperCase()}`;

function door(page: Page) {
  return {
    reference: page.getByLabel("Name, booking code or e-mail"),
    answer: page.locator(".door-answer"),
    status: page.locator(".door-connection [role=status]"),
    async check(typed: string) {
      await this.reference.fill(typed);
      await this.reference.press("Enter");
    },
    async next() {
      await page.getByRole("button", { name: "Next" }).click();
      await expect(this.reference).toBeFocused();
    },
  };
}

test("the door answers valid, part-used, used, refunded and unknown bookings, and other phones see check-ins within two seconds", async ({
  page,
  browser,
  door: { site, refs, eventId },
}) => {
  await signIn(page, { url: site.url });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin");
  await openStaffSection(page, "Check-in");
  await expect(page.getByRole("heading", { name: "Check-in", level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("link", { name: /Quiz Night/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/check-in/${eventId}$`));
  const d = door(page);
  await expect(d.status).toHaveText("Online: every check-in is sent.");
  await expect(page.getByText("0 of 7 people checked in")).toBeVisible();
  await expect(d.reference).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  // A second phone at the same door, on the same event.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await signIn(other, { url: site.url });
  const otherPage = await other.newPage();
  await otherPage.goto(`${site.url}/admin/check-in/${eventId}`);
  await expect(otherPage.getByText("0 of 7 people checked in")).toBeVisible();

  // A single ticket, by the short code printed on the receipt, typed in lower case with a space.
  await d.check(shortCode(refs.baraka).toLowerCase().replace("-", " "));
  await expect(d.answer.getByRole("heading")).toHaveText("Valid");
  await expect(d.answer).toContainText("Baraka Juma");
  await expect(d.answer).toContainText("0 of 1 checked in");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(d.answer.getByRole("heading")).toHaveText("Checked in: 1 of 1");
  await expect(d.answer).toContainText(`1 person let in at`);
  await expect(d.answer).toContainText(`by ${staffAccount.email}`);
  await expect(otherPage.getByText("1 of 7 people checked in")).toBeVisible({ timeout: 2_000 });
  await d.next();

  // The group of four: two now, then the other two; then it is used.
  await d.check(refs.amina);
  await expect(d.answer.getByRole("heading")).toHaveText("Valid");
  await expect(d.answer).toContainText("0 of 4 checked in");
  await page.getByLabel("How many are coming in now?").fill("2");
  await page.getByRole("button", { name: "Check in 2" }).click();
  await expect(d.answer.getByRole("heading")).toHaveText("Checked in: 2 of 4");
  await expect(d.answer).toContainText("2 places still to come.");
  await d.next();
  await d.check(refs.amina.toUpperCase());
  await expect(d.answer.getByRole("heading")).toHaveText("Valid");
  await expect(d.answer).toContainText("2 of 4 checked in");
  await page.getByRole("button", { name: "Check in 2" }).click();
  await expect(d.answer.getByRole("heading")).toHaveText("Checked in: 4 of 4");
  await d.next();
  await d.check(shortCode(refs.amina));
  await expect(d.answer.getByRole("heading")).toHaveText("Already checked in");
  await expect(d.answer).toContainText("4 of 4 checked in");
  await expect(d.answer).toContainText(new RegExp(`Checked in at \\d\\d:\\d\\d by ${staffAccount.email}`));
  await expect(page.getByRole("button", { name: /^Check in/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await d.next();

  // The other phone sees it used too, within two seconds of the check-in.
  await door(otherPage).check(refs.amina);
  await expect(door(otherPage).answer.getByRole("heading")).toHaveText("Already checked in", { timeout: 2_000 });

  await d.check(refs.dora);
  await expect(d.answer.getByRole("heading")).toHaveText("Refunded");
  await expect(d.answer).toContainText("Dora Kimaro");
  await expect(page.getByRole("button", { name: /^Check in/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await d.next();

  await d.check("0000-0000");
  await expect(d.answer.getByRole("heading")).toHaveText("Not found");
  await expectNoSeriousA11yViolations(page);
  await d.next();
  await d.check("hello");
  await expect(d.answer.getByRole("heading")).toHaveText("Not found");
  await expect(d.answer).toContainText("No booking for this event matches “hello”. Try the surname alone");

  // The events page counts who came through the door.
  await page.goto("/admin/events");
  await expect(
    page
      .getByRole("row", { name: /Quiz Night/ })
      .getByRole("cell")
      .nth(4),
  ).toHaveText("5");
  await other.close();
});

test("a check-in made while the page is fetching the list is sent as soon as that fetch ends, not a second later", async ({
  page,
  door: { site, refs, eventId },
}) => {
  // The page's own clock: it syncs only when the test moves time on, so "at once" and "a second
  // later" are told apart without waiting on the real clock.
  await signIn(page, { url: site.url });
  await page.clock.install();
  await page.goto(`/admin/check-in/${eventId}`);
  const d = door(page);
  await expect(page.getByText("0 of 7 people checked in")).toBeVisible();
  // The page's clock started at the real time and runs with it: a minute on is ahead of it for sure.
  await page.clock.pauseAt(Date.now() + 60_000);

  // The next fetch of the list is held, as on a slow network.
  const listUrl = `${site.url}/api/admin/events/${eventId}/check-ins`;
  let hold = true;
  let held: Route | undefined;
  await page.route(listUrl, (route) => {
    if (hold && route.request().method() === "GET") held = route;
    else void route.continue();
  });
  await expect
    .poll(async () => {
      if (!held) await page.clock.runFor(1_000);
      return held !== undefined;
    })
    .toBe(true);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url() === listUrl) sent.push(request.url());
  });

  await d.check(shortCode(refs.baraka));
  await expect(d.answer.getByRole("heading")).toHaveText("Valid");
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(d.answer.getByRole("heading")).toHaveText("Checked in: 1 of 1");
  expect(sent).toEqual([]);

  // The fetch ends: the check-in goes in well under the second the page otherwise waits.
  hold = false;
  await held!.continue();
  let waitedMs = 0;
  await expect
    .poll(async () => {
      if (sent.length === 0) {
        await page.clock.runFor(10);
        waitedMs += 10;
      }
      return sent.length;
    })
    .toBe(1);
  expect(waitedMs).toBeLessThan(1_000);
  await expect(page.getByText("1 of 7 people checked in")).toBeVisible();
});

test("the receipt's QR code opens the booking at the door, from a phone's camera app or through the door page's scanner", async ({
  page,
  door: { site, refs, eventId },
}) => {
  const link = `${site.url}/admin/check-in/ticket/${refs.chiku}`;

  // Signed out, the link asks for a sign-in and shows nothing of the booking.
  await page.goto(link);
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=/);
  await expect(page.getByText("Chiku Said")).toHaveCount(0);
  await page.getByLabel("Email").fill(staffAccount.email);
  await page.getByLabel("Password").fill(staffAccount.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/check-in/${eventId}\\?ref=${refs.chiku}$`));
  await expect(door(page).answer.getByRole("heading")).toHaveText("Valid");
  await expect(door(page).answer).toContainText("Chiku Said");
  await expect(door(page).answer).toContainText("0 of 2 checked in");

  // The door page's own scanner, through a camera that sees Amina's receipt.
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-qr-"));
  const video = path.join(folder, "receipt.y4m");
  await qrVideo(`${site.url}/admin/check-in/ticket/${refs.amina}`, video);
  const camera = await chromium.launch({
    executablePath: findTestBrowser(),
    args: [
      ...chromiumArgs,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await camera.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(["camera"], { origin: site.url });
    await signIn(context, { url: site.url });
    const phone = await context.newPage();
    await phone.goto(`${site.url}/admin/check-in/${eventId}`);
    // The scanner is the page's script's: pressed before it runs, the button does nothing.
    const scan = phone.getByRole("button", { name: "Scan QR code" });
    await hydrated(scan);
    await scan.click();
    await expect(door(phone).answer.getByRole("heading")).toHaveText("Valid", { timeout: 15_000 });
    await expect(door(phone).answer).toContainText("Amina Mushi");
    await expect(door(phone).answer).toContainText("0 of 4 checked in");
    await context.close();
  } finally {
    await camera.close();
    await fs.rm(folder, { recursive: true, force: true });
  }
});

test("offline at the door: two phones let in the same booking with no network, and both show the conflict once they are back", async ({
  browser,
  door: { site, refs, eventId },
}) => {
  const phone = async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await signIn(context, { url: site.url });
    const page = await context.newPage();
    await page.goto(`${site.url}/admin/check-in/${eventId}`);
    await expect(door(page).status).toHaveText("Online: every check-in is sent.");
    // The page, its scripts and the decoder are kept on the phone.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const cache = await caches.open("kilele-door-v1");
          return Boolean(await cache.match(location.origin + location.pathname));
        }),
      )
      .toBe(true);
    return { context, page, door: door(page) };
  };
  const a = await phone();
  const b = await phone();

  await a.context.setOffline(true);
  await b.context.setOffline(true);
  await expect(a.door.status).toHaveText(/^Offline: .* every check-in is sent\.$/);

  // With no network the page opens again from the phone.
  const reloaded = await a.page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(a.page.getByRole("heading", { name: /Quiz Night/, level: 1 })).toBeVisible();
  await expect(a.door.status).toHaveText(/^Offline: /);

  for (const { page, door: d } of [a, b]) {
    await d.check(shortCode(refs.chiku));
    await expect(d.answer.getByRole("heading")).toHaveText("Valid");
    await expect(d.answer).toContainText("0 of 2 checked in");
    await page.getByRole("button", { name: "Check in 2" }).click();
    await expect(d.answer.getByRole("heading")).toHaveText("Checked in: 2 of 2");
    await expect(d.status).toHaveText(
      "Offline: check-ins are kept on this phone and sent when the network returns; 1 check-in waiting to be sent.",
    );
    await expectNoSeriousA11yViolations(page);
    await d.next();
  }

  await a.context.setOffline(false);
  await expect(a.door.status).toHaveText("Online: every check-in is sent.");
  await b.context.setOffline(false);
  await expect(b.door.status).toHaveText("Online: every check-in is sent.");
  for (const { page } of [b, a]) {
    const conflicts = page.getByRole("region", { name: "Conflicts (1)" });
    await expect(conflicts).toContainText("Chiku Said", { timeout: 2_000 });
    await expect(conflicts).toContainText(
      /2 places checked in at \d\d:\d\d by staff@example.org on door-\w+, but 2 places had been checked in/,
    );
  }
  await expectNoSeriousA11yViolations(a.page);
  await expect(a.page.getByText("2 of 7 people checked in")).toBeVisible();

  // Signing out leaves no list of names on the phone.
  await a.page.getByRole("button", { name: "Sign out" }).click();
  await expect(a.page).toHaveURL(/\/admin\/sign-in$/);
  expect(
    await a.page.evaluate(async () => ({
      cached: await caches.has("kilele-door-v1"),
      stored: Object.keys(localStorage).filter((key) => key.startsWith("kilele-door:")),
    })),
  ).toEqual({ cached: false, stored: [] });

  await a.context.close();
  await b.context.close();
});
