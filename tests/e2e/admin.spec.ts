import crypto from "node:crypto";
import { buyTickets } from "../support/bookings";
import { expect, expectNoSeriousA11yViolations, testWithOwnSite as test } from "../support/fixtures";
import { routeTable } from "../support/route-table";
import { staffAccount } from "../support/site-process";
import { createEvent, pastDates, signIn, staffApi } from "../support/staff-api";

// A wrong password is answered 401, and a form sent from another site 403, which the browser
// reports in its console.
test.use({ allowedConsoleErrors: [/the server responded with a status of (401|403)/] });

/** Every staff path in the route table, with its parameters filled in. */
const staffPaths = [...new Set(routeTable.map((route) => route.pattern.replace(/:\w+/g, crypto.randomUUID())))].filter(
  (path) => /^(admin|api\/admin)(\/|$)/.test(path),
);

test("a visitor without a session is sent to sign in from every staff page, and refused by every staff API route", async ({
  request,
}) => {
  expect(staffPaths).toContain("admin");
  expect(staffPaths).toContain("api/admin/events");
  for (const path of staffPaths) {
    const response = await request.get(`/${path}`, { maxRedirects: 0 });
    if (path.startsWith("api/")) {
      if (path === "api/admin/session") continue; // signing in is its own door (POST only)
      expect(response.status(), path).toBe(401);
    } else if (path === "admin/sign-in") {
      expect(response.status(), path).toBe(200);
    } else if (path.startsWith("admin/join/") || path.startsWith("admin/reset-password/")) {
      // An invitation's or a reset's link is opened by someone signed out; an unknown one is gone (410).
      expect(response.status(), path).toBe(410);
    } else if (path === "admin/forgot-password") {
      expect(response.status(), path).toBe(200);
    } else {
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toMatch(/^\/admin(\/sign-in\?next=|$)/);
    }
  }
});

test("staff sign in, are brought back to the page they asked for, see today's and upcoming events, and sign out", async ({
  page,
  ownSite,
}) => {
  const api = await staffApi(ownSite);
  await createEvent(api, { name: "Barn Dance", totalAvailableTickets: 40 });
  await createEvent(api, {
    name: "Carol Concert",
    eventDate: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    ticketSaleExpiry: new Date(Date.now() - 3 * 86_400_000).toISOString(),
  });

  await page.goto("/admin?from=guide");
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin%3Ffrom%3Dguide$/);
  await expect(page.getByRole("heading", { name: "Staff sign in" })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel("Email").fill(staffAccount.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The email or password is not right.");
  await expect(page.getByLabel("Email")).toHaveValue(staffAccount.email);
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel("Password").fill(staffAccount.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\?from=guide$/);
  await expect(page.getByRole("heading", { name: "Staff home" })).toBeVisible();
  await expect(page.getByText(`signed in as ${staffAccount.email}`)).toBeVisible();
  const upcoming = page.getByRole("list", { name: "Events from today on, soonest first" });
  const card = upcoming.getByRole("listitem").filter({ hasText: "Barn Dance" });
  await expect(card).toContainText(/\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/);
  await expect(card.locator("dd")).toHaveText(["0", "0", "40 of 40"]);
  await expect(upcoming.getByRole("listitem").filter({ hasText: "Carol Concert" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/);
});

test("the sign-in page keeps the API's limit on failed attempts", async ({ page }) => {
  await page.goto("/admin/sign-in");
  for (let i = 0; i < 10; i++) {
    const answer = await page.request.post("/admin/sign-in", {
      form: { email: staffAccount.email, password: `wrong ${i}` },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(answer.status()).toBe(401);
  }
  await page.getByLabel("Email").fill(staffAccount.email);
  await page.getByLabel("Password").fill(staffAccount.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
  );
  await expect(page.getByRole("heading", { name: "Staff sign in" })).toBeVisible();
});

test("a sign-in or sign-out posted from another site is refused, and the staff area stays out of search engines", async ({
  request,
}) => {
  const forged = await request.post("/admin/sign-in", {
    form: { email: staffAccount.email, password: staffAccount.password },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(forged.headers()["set-cookie"]).toBeUndefined();
  const signOut = await request.post("/admin/sign-out", {
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(signOut.status()).toBe(403);

  expect((await request.get("/admin/sign-in")).headers()["x-robots-tag"]).toBe("noindex, nofollow");
  expect(await (await request.get("/robots.txt")).text()).toContain("Disallow: /admin");
  expect(await (await request.get("/sitemap.xml")).text()).not.toContain("/admin");
});

test("a page on another port of the same host cannot restore a page's old version or sign up a volunteer through a browser", async ({
  page,
  ownSite,
}) => {
  // The staff cookie is SameSite=Strict, but another port of the same host is the same site to a
  // browser, which sends the cookie with its forms: only the origin tells them apart (decision 053).
  await signIn(page);
  const api = await staffApi(ownSite);
  const content = await (await api.get("/api/content/VolunteeringPage")).json();
  const published = await api.post("/api/admin/content/volunteering/versions", {
    data: { content: { ...content, title: "Give an afternoon to Kilele" } },
  });
  expect(published.status()).toBe(201);
  const history = async () =>
    ((await (await api.get("/api/admin/content/volunteering")).json()) as { history: { id: number; number: number }[] })
      .history;
  const [newest, ...older] = await history();
  expect(newest!.number).toBe(((await published.json()) as { number: number }).number);

  const elsewhere = `http://127.0.0.1:${Number(new URL(ownSite.url).port) === 9 ? 10 : 9}`;
  const forms = {
    restore: `<form method="post" action="${ownSite.url}/api/admin/content/volunteering/versions/${older.at(-1)!.id}"></form>`,
    volunteer: `<form method="post" action="${ownSite.url}/api/volunteers" enctype="text/plain">
      <input name='{"name":"Bob","email":"bob@example.org","reason":"x","a":"' value='"}'></form>`,
  };
  for (const [name, form] of Object.entries(forms)) {
    await page.route(`${elsewhere}/${name}`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>A page elsewhere</title>${form}<script>document.forms[0].submit()</script>`,
      }),
    );
    const answered = page.waitForResponse((response) => response.url().startsWith(ownSite.url));
    await page.goto(`${elsewhere}/${name}`);
    const answer = await answered;
    expect(answer.status(), name).toBe(403);
    expect(await answer.json()).toEqual({
      error: "This form can only be sent from this site's own pages.",
      code: "forbidden",
    });
  }
  expect((await history())[0]).toEqual(newest);
  expect((await (await api.get("/api/admin/volunteers")).json()).volunteers ?? []).toEqual([]);
  expect(ownSite.output()).toMatch(
    /"status":403,"refused":"cross-site: (Sec-Fetch-Site: same-site|from another origin)"/,
  );
});

test("the events page lists current, past and test events with seats, the door and the money, following sales live", async ({
  page,
  ownSite,
}) => {
  const api = await staffApi(ownSite);
  const quiz = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 30 });
  await createEvent(api, { name: "Carol Concert", ...pastDates });
  await createEvent(api, { name: "Card check", isTest: true });
  await signIn(page);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  const section = (name: string) => page.getByRole("region", { name });
  await expect(section("Current events").getByRole("row", { name: /Quiz Night/ })).toBeVisible();
  await expect(section("Past events").getByRole("row", { name: /Carol Concert/ })).toBeVisible();
  await expect(section("Test events").getByRole("row", { name: /Card check/ })).toBeVisible();
  const quizRow = section("Current events").getByRole("row", { name: /Quiz Night/ });
  await expect(quizRow.getByRole("cell")).toHaveText([
    /\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/,
    "0",
    "0",
    "30 of 30",
    "0",
    "£0.00",
  ]);
  await expectNoSeriousA11yViolations(page);

  // A visitor starts a checkout for two seats, then pays: the page follows without a reload.
  const started = await page.request.post("/api/bookings", {
    data: { eventId: quiz.id, name: "Amina Mushi", email: "amina@example.org", quantity: 2 },
  });
  expect(started.status()).toBe(201);
  await expect(quizRow.getByRole("cell")).toHaveText([
    /\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/,
    "0",
    "2",
    "28 of 30",
    "0",
    "£0.00",
  ]);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  const paid = await page.request.post("/api/payments/offline/confirm", {
    data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
  });
  expect(await paid.json()).toEqual({ status: "succeeded" });
  await expect(quizRow.getByRole("cell")).toHaveText([
    /\w{3} \d{1,2} \w{3,4} \d{4}, \d\d:\d\d/,
    "2",
    "0",
    "28 of 30",
    "0",
    "£25.49",
  ]);
});

/** A London date-time input's value `days` from now at 19:00. */
function londonEvening(days: number) {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)}T19:00`;
}

test("staff create an event through the form, with each mistake named beside its field, and visitors see it at once", async ({
  page,
  browser,
  ownSite,
}) => {
  await signIn(page);
  const visitor = await browser.newPage();
  await visitor.goto(`${ownSite.url}/fundraising`);
  await expect(visitor.getByText("More events coming soon.")).toBeVisible();

  await page.goto("/admin/events");
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page.getByRole("heading", { name: "New event" })).toBeVisible();
  await page.getByLabel("Name").fill("Barn Dance");
  await page.getByLabel("Description").fill("A caller, a band and a hog roast.");
  await page.getByLabel("Event date").fill(londonEvening(20));
  await page.getByLabel("Ticket sale ends").fill(londonEvening(21));
  await page.getByLabel("Ticket cost (£)").fill("twelve");
  await page.getByLabel("Tickets available").fill("60");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("alert")).toHaveText("Nothing was saved: please correct the fields marked below.");
  await expect(page.getByText("Ticket cost (£) must be an amount in pounds")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Barn Dance");
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel("Ticket cost (£)").fill("8.50");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText("Ticket sale ends must not be after the event date.")).toBeVisible();
  await expect(page.getByText("Ticket cost (£) must be")).toHaveCount(0);

  await page.getByLabel("Ticket sale ends").fill(londonEvening(19));
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Barn Dance" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("The event is created and on the public pages.");
  // Saved, the price is its one ticket type's (decision 080): Ticket, at the cost typed.
  await expect(page.getByRole("group", { name: "Ticket type 1: Ticket" }).getByLabel("Price (£)")).toHaveValue("8.50");
  await expect(page.getByLabel("Ticket cost (£)")).toHaveCount(0);
  await expect(page.getByLabel("Event date")).toHaveValue(londonEvening(20));
  // The visitor's open page follows without a reload.
  await expect(visitor.getByRole("heading", { name: "Barn Dance" })).toBeVisible({ timeout: 2_000 });
  await expectNoSeriousA11yViolations(page);
  await visitor.close();
});

test("tickets available cannot go below the seats sold, and an event can be duplicated", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const quiz = await createEvent(api, { name: "Quiz Night", totalAvailableTickets: 30 });
  await signIn(page);
  await buyTickets(page.request, quiz.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 3 });

  await page.goto(`/admin/events/${quiz.id}`);
  await page.getByLabel("Tickets available").fill("2");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Tickets available must be at least 3: 3 tickets are already sold.")).toBeVisible();
  await page.getByLabel("Tickets available").fill("3");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved: the public pages show the change.");
  await expect(page.getByLabel("Tickets available")).toHaveValue("3");

  await page.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Copy of Quiz Night" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("This is a copy: change its dates and save it.");
  await page.goto("/admin/events");
  await expect(page.getByRole("link", { name: "Copy of Quiz Night" })).toBeVisible();
});
