import pg from "pg";
import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { readContent } from "../support/content";
import { createPostgresDatabase } from "../support/databases";
import { startSiteProcess } from "../support/site-process";
import { createEvent, pastDates, staffApi } from "../support/staff-api";

const site = readContent("site");
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

testWithOwnSite("with no events: the lists say so, and the home page has no event section", async ({ page }) => {
  await page.goto("/fundraising");
  await expect(page).toHaveTitle("Fundraising");
  await expect(page.locator("#latest-events")).toContainText("More events coming soon.");
  await expect(page.locator("#past-events")).toContainText("No past events.");
  // The quiz is booked on this site, so no outside ticketing page is offered for it.
  expect(site.quizTicketingUrl).toBeUndefined();
  await expect(page.getByRole("link", { name: /ticketing page/ })).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Latest fundraising event" })).toHaveCount(0);
});

testWithOwnSite(
  "current, past, sold out and test events each show where and as they should",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    await createEvent(api, {
      name: "Summer Fair",
      eventDate: "2030-07-01T10:00:00Z",
      ticketSaleExpiry: "2030-06-30T12:00:00Z",
    });
    const soon = await createEvent(api, { name: "Quiz Night", location: "", ticketCost: 12.5, eventDate: inDays(9) });
    await createEvent(api, { name: "Ceilidh", totalAvailableTickets: 0, eventDate: inDays(10) });
    const past = await createEvent(api, { name: "Carol Concert", ...pastDates });
    const testEvent = await createEvent(api, { name: "Test Event", isTest: true, eventDate: inDays(11) });
    await createEvent(api, {
      name: "Golf Day",
      ticketCost: null,
      link: "https://tickets.example.org/golf",
      eventDate: inDays(12),
    });

    await page.goto("/fundraising");
    const latest = page.locator("#latest-events");
    // Soonest first (PRODUCT.md, event order); no test event, no past event.
    const names = ["Quiz Night", "Ceilidh", "Golf Day", "Summer Fair"];
    await expect(latest.locator("h3")).toHaveText(names);
    await expect(latest.getByRole("heading", { level: 2 })).toHaveText("Latest fundraising events");

    const quiz = latest.locator("article", { hasText: "Quiz Night" });
    await expect(quiz.getByRole("link", { name: "Book tickets for Quiz Night" })).toHaveAttribute(
      "href",
      `/book-event/${soon.id}`,
    );
    await expect(quiz).toContainText("£12.50");
    await expect(quiz.getByText("Location")).toHaveCount(0); // empty location is left out
    const summer = latest.locator("article", { hasText: "Summer Fair" });
    await expect(summer).toContainText("01/07/2030");

    const ceilidh = latest.locator("article", { hasText: "Ceilidh" });
    await expect(ceilidh.getByText("Sold out")).toBeVisible();
    await expect(ceilidh.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);

    const golf = latest.locator("article", { hasText: "Golf Day" });
    await expect(golf.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);
    await expect(golf.getByRole("link", { name: /Get tickets/ })).toHaveAttribute(
      "href",
      "https://tickets.example.org/golf",
    );

    const pastList = page.locator("#past-events");
    await expect(pastList.locator("h3")).toHaveText(["Carol Concert"]);
    await expect(pastList.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Home: the intended reading, current real events only.
    await page.goto("/");
    const home = page.locator("#latest-event");
    await expect(home.getByRole("heading", { level: 2, name: "Latest fundraising events" })).toBeVisible();
    await expect(home.locator("h3")).toHaveText(names);

    // The test page: everything on sale, test events included, with its warning; not in the navigation.
    await page.goto("/mock-event");
    // This site takes test cards only, so the notice says so, as the card form does (PRODUCT.md).
    await expect(page.locator("main").getByRole("note")).toHaveText(
      "These events are for testing the booking system. The event is not real, and no real money is charged: this site takes only test cards.",
    );
    await expect(page.getByText("real money will be charged")).toHaveCount(0);
    await expect(page.locator("main h3")).toContainText(["Test Event"]);
    await expect(page.locator("main h3", { hasText: "Carol Concert" })).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /test|mock/i })).toHaveCount(
      0,
    );
    await expectNoSeriousA11yViolations(page);
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    expect(sitemap).toContain(`/fundraising-event/${soon.id}`);
    expect(sitemap).toContain(`/fundraising-event/${past.id}`);
    expect(sitemap).not.toContain("mock-event");
    expect(sitemap).not.toContain(testEvent.id);
  },
);

testWithOwnSite(
  "an event's page works from a shared link and a reload; unknown ones are 404s",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, {
      name: "Quiz Night",
      link: "https://example.org/quiz",
      testimonial: {
        name: "Joseph Kimaro",
        job: "Head teacher",
        image: "people/joseph-kimaro",
        testimonial: "Asante sana!",
      },
      galleryImages: [{ image: "gallery/exercise-books", description: "Books bought with the raffle money." }],
    });
    await page.goto(`/fundraising-event/${event.id}`);
    const check = async () => {
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quiz Night");
      await expect(page.getByRole("img", { name: "Poster for Quiz Night" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
      await expect(page.getByText("Asante sana!")).toBeVisible();
      await expect(page.getByText("Books bought with the raffle money.")).toBeVisible();
      await expect(page.getByRole("link", { name: "More about this event" })).toHaveAttribute(
        "href",
        "https://example.org/quiz",
      );
      await expect(page.getByRole("link", { name: "Book tickets for Quiz Night" })).toBeVisible();
    };
    await check();
    await page.reload();
    await check();
    await expectNoSeriousA11yViolations(page);

    // From the list, by a click.
    await page.goto("/fundraising");
    await page.getByRole("link", { name: "Quiz Night", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/fundraising-event/${event.id}$`));
    await check();

    for (const path of [`/fundraising-event/${crypto.randomUUID()}`, "/fundraising-event/not-an-id"]) {
      expect((await page.request.get(path)).status(), path).toBe(404);
    }
    await page.goto("/fundraising-event");
    await expect(page).toHaveURL(/\/fundraising$/);
  },
);

testWithOwnSite("pages follow staff changes and sales live, without a reload", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const event = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 30 });
  const feedOpen = page.waitForResponse((response) => response.url().endsWith("/api/live/availability"));
  await page.goto("/fundraising");
  await feedOpen;
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const card = page.locator("article", { hasText: "Quiz Night" });
  await expect(card.getByRole("link", { name: /Book tickets/ })).toBeVisible();

  expect((await api.patch(`/api/admin/events/${event.id}`, { data: { totalAvailableTickets: 0 } })).status()).toBe(200);
  await expect(card.getByText("Sold out")).toBeVisible();
  await expect(card.getByRole("link", { name: /Book tickets/ })).toHaveCount(0);

  await api.patch(`/api/admin/events/${event.id}`, { data: { totalAvailableTickets: 3, name: "Grand Quiz Night" } });
  const renamed = page.locator("article", { hasText: "Grand Quiz Night" });
  await expect(renamed.getByText("Only 3 tickets left")).toBeVisible();
  await createEvent(api, { name: "Barn Dance" });
  await expect(page.locator("#latest-events h3", { hasText: "Barn Dance" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

testWithOwnSite("the live feed carries counts only, never names or e-mail addresses", async ({ ownSite, request }) => {
  const api = await staffApi(ownSite);
  const event = await createEvent(api);
  // A real sale, with a name and an address the feed must never repeat.
  const started = await request.post("/api/bookings", {
    data: { eventId: event.id, name: "Private Person", email: "private@example.org", quantity: 3 },
  });
  const { clientSecret } = await started.json();
  const paid = await request.post("/api/payments/offline/confirm", {
    data: { clientSecret, card: { number: "4242424242424242", expiry: "12/34", cvc: "123" } },
  });
  expect(paid.status()).toBe(200);

  const controller = new AbortController();
  const response = await fetch(`${ownSite.url}/api/live/availability`, { signal: controller.signal });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body!.getReader();
  let text = "";
  while (!text.includes("event: availability")) text += new TextDecoder().decode((await reader.read()).value);
  while (!text.trimEnd().endsWith("}")) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  const data = JSON.parse(/data: (.*)/.exec(text.slice(text.indexOf("event: availability")))![1]!);
  expect(data).toEqual({ events: { [event.id]: { sold: 3, remaining: 47, soldOut: false } } });
  expect(text).not.toContain("Private Person");
  expect(text).not.toContain("private@example.org");
});

testWithOwnSite.describe("while the server restarts", () => {
  // Two server start-ups in one test, and the page's reconnection backs off while the server is down.
  testWithOwnSite.slow();
  // The browser's retries while the server is down are refused, and Chromium logs each refusal.
  testWithOwnSite.use({ allowedConsoleErrors: [/net::ERR_CONNECTION_REFUSED/] });

  testWithOwnSite(
    "a dropped live connection is picked up again when the server comes back",
    async ({ page, ownSite }) => {
      const api = await staffApi(ownSite);
      const event = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 30 });
      const feedOpen = page.waitForResponse((response) => response.url().endsWith("/api/live/availability"));
      await page.goto("/fundraising");
      await feedOpen;
      const card = page.locator("article", { hasText: "Quiz Night" });
      await expect(card.getByRole("link", { name: /Book tickets/ })).toBeVisible();
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

      // The server restarts on the same address and data.
      const port = new URL(ownSite.url).port;
      await ownSite.stop();
      const again = await startSiteProcess({ DATA_DIR: ownSite.dataDir, PORT: port });
      try {
        const api2 = await staffApi(again);
        await api2.patch(`/api/admin/events/${event.id}`, { data: { totalAvailableTickets: 0 } });
        // The page's next retry may be up to 16 s away (2, 4, 8, 16 s while the server was down).
        await expect(card.getByText("Sold out")).toBeVisible({ timeout: 45_000 });
        expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      } finally {
        await again.stop();
      }
    },
  );
});

test("if the live feed cannot be set up, the visitor is told", async ({ page }) => {
  await page.route("**/api/live/availability", (route) => route.fulfill({ status: 503, body: "down" }));
  await page.goto("/fundraising");
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText("Live ticket availability could not be set up");
  await alert.getByRole("button", { name: "Okay" }).click();
  await expect(alert).toBeHidden();
});

testWithOwnSite(
  "a busy live feed (429): the page shows its own counts, tries again later, and then follows sales",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 30 });
    // EventSource never retries a refusal by itself: the page must.
    let refusals = 0;
    await page.route("**/api/live/availability", (route) =>
      refusals++ < 2
        ? route.fulfill({ status: 429, headers: { "Retry-After": "60" }, body: "busy" })
        : route.continue(),
    );
    const feedOpen = page.waitForResponse(
      (response) => response.url().endsWith("/api/live/availability") && response.status() === 200,
    );
    await page.goto("/fundraising");
    const card = page.locator("article", { hasText: "Quiz Night" });
    await expect(card.getByRole("link", { name: /Book tickets/ })).toBeVisible();
    await feedOpen;
    expect(refusals).toBe(3);
    await api.patch(`/api/admin/events/${event.id}`, { data: { totalAvailableTickets: 0 } });
    await expect(card.getByText("Sold out")).toBeVisible();
  },
);

test("dates and times are London's, whatever the server's time zone", async ({ page }) => {
  test.slow();
  const site = await startSiteProcess({ TZ: "America/Los_Angeles" });
  try {
    const api = await staffApi(site);
    // 23:30 UTC on 1 July is 00:30 on 2 July in London (BST), and still 1 July in Los Angeles.
    const event = await createEvent(api, {
      eventDate: "2030-07-01T23:30:00Z",
      ticketSaleExpiry: "2030-06-30T12:00:00Z",
    });
    await page.goto(`${site.url}/fundraising-event/${event.id}`);
    await expect(page.getByText("02/07/2030 at 00:30")).toBeVisible();
    await page.goto("about:blank");
  } finally {
    await site.stop();
  }
});

test.describe("on a PostgreSQL database shared by two server processes", () => {
  test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: the two-process test needs PostgreSQL");
  // Two server processes start inside the test.
  test.slow();

  test("a sale or a change made through one reaches visitors of the other", async ({ page }) => {
    const database = await createPostgresDatabase();
    const a = await startSiteProcess({ DATABASE_URL: database.url });
    const b = await startSiteProcess({ DATABASE_URL: database.url });
    try {
      const event = await createEvent(await staffApi(b), { name: "Quiz Night", totalAvailableTickets: 10 });
      await page.goto(`${a.url}/fundraising`);
      const card = page.locator("article", { hasText: "Quiz Night" });
      await expect(card.getByRole("link", { name: /Book tickets/ })).toBeVisible();

      // A sale recorded by another process (as the booking flow does: ticket and notice in one transaction).
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query("begin");
      await client.query(
        "insert into tickets (ticket_holder_name, email, event_id, booking_ref, quantity, date_sold) values ($1, $2, $3, $4, $5, $6)",
        ["Amina Mushi", "amina@example.org", event.id, crypto.randomUUID(), 7, new Date()],
      );
      await client.query("select pg_notify('kilele_event_changes', 'availability')");
      await client.query("commit");
      await client.end();
      await expect(card.getByText("Only 3 tickets left")).toBeVisible();

      await (await staffApi(b)).patch(`/api/admin/events/${event.id}`, { data: { totalAvailableTickets: 7 } });
      await expect(card.getByText("Sold out")).toBeVisible();
      await page.goto("about:blank");
    } finally {
      await a.stop();
      await b.stop();
      await database.drop();
    }
  });
});
