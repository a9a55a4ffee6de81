import { request as apiRequest, type APIRequestContext } from "@playwright/test";
import { createPostgresDatabase, engines } from "../support/databases";
import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { signIn, staffApi } from "../support/staff-api";
import { newVisitorAddress } from "../support/visitors";

// The pages' content kept in the database (docs/decisions/031-content-in-the-database.md), on the
// production build (`npm run build` first): publishing through the staff API, staff previews of
// drafts, and a publish on one server process served at once by another.

async function publishedVolunteering(api: APIRequestContext) {
  const response = await api.get("/api/content/VolunteeringPage");
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown> & { title: string; formTitle: string };
}

async function publish(api: APIRequestContext, name: string, content: unknown) {
  const response = await api.post(`/api/admin/content/${name}/versions`, { data: { content } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { number: number; content: Record<string, unknown> };
}

testWithOwnSite(
  "staff preview a draft on the page before publishing it; visitors see it only once published",
  async ({ page, browser, ownSite }) => {
    // Signed in in this browser: the API and the pages share its cookies.
    await signIn(page);
    const published = await publishedVolunteering(page.request);
    const draft = { ...published, title: "Give an afternoon to Kilele" };
    const saved = await page.request.put("/api/admin/content/volunteering", { data: { content: draft } });
    expect(saved.status()).toBe(200);
    expect((await saved.json()).issues).toEqual([]);

    const preview = await page.goto("/volunteering?preview=volunteering");
    expect(preview?.headers()["cache-control"]).toBe("no-store");
    await expect(page.getByRole("region", { name: "Preview" })).toContainText("Preview: not yet published");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Give an afternoon to Kilele");
    await expectNoSeriousA11yViolations(page);
    // The page's data for a navigation in the browser is a preview too, and never stored either.
    const data = await page.request.get("/volunteering.data?preview=volunteering");
    expect(data.headers()["cache-control"]).toBe("no-store");
    expect(await data.text()).toContain("Give an afternoon to Kilele");

    // A visitor asking for the same preview gets the published page; so does the JSON contract.
    const visitor = await browser.newContext({
      baseURL: ownSite.url,
      extraHTTPHeaders: { "X-Forwarded-For": newVisitorAddress() },
    });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto("/volunteering?preview=volunteering");
    await expect(visitorPage.getByRole("heading", { level: 1 })).toHaveText(published.title);
    await expect(visitorPage.getByText("Preview: not yet published")).toHaveCount(0);
    expect((await publishedVolunteering(visitorPage.request)).title).toBe(published.title);

    await publish(page.request, "volunteering", draft);
    await visitorPage.goto("/volunteering");
    await expect(visitorPage.getByRole("heading", { level: 1 })).toHaveText("Give an afternoon to Kilele");
    expect((await publishedVolunteering(visitorPage.request)).title).toBe("Give an afternoon to Kilele");
    await visitor.close();
  },
);

testWithOwnSite(
  "a new project gets an address from its title, its page and a place in the sitemap",
  async ({ page }) => {
    const api = page.request;
    await signIn(page);
    const home = (await (await api.get("/api/content/HomePage")).json()) as {
      activeProjects: Record<string, unknown>[];
    };
    const { slug: _slug, ...template } = home.activeProjects[0]!;
    const project = { ...template, title: "Solar Lamps for the Night School" };

    // A mistake is refused beside its field, and nothing is published.
    const refused = await api.post("/api/admin/content/home/versions", {
      data: { content: { ...home, activeProjects: [...home.activeProjects, { ...project, title: "" }] } },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).fields).toEqual({
      [`activeProjects.${home.activeProjects.length}.title`]: expect.any(String),
    });

    const version = await publish(api, "home", { ...home, activeProjects: [...home.activeProjects, project] });
    const added = (version.content.activeProjects as { slug: string }[]).at(-1)!;
    expect(added.slug).toBe("solar-lamps-for-the-night-school");
    await page.goto("/project/solar-lamps-for-the-night-school");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Solar Lamps for the Night School");
    const sitemap = await (await api.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/project/solar-lamps-for-the-night-school</loc>");
  },
);

test("without a staff session, a preview is the published page", async ({ page }) => {
  const response = await page.goto("/volunteering?preview=volunteering");
  expect(response?.headers()["cache-control"]).not.toBe("no-store");
  await expect(page.getByText("Preview: not yet published")).toHaveCount(0);
});

test.describe("two server processes on one PostgreSQL database", () => {
  test.skip(!engines.includes("postgres"), "needs TEST_DATABASE_URL");
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let first: RunningSite;
  let second: RunningSite;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    database = await createPostgresDatabase();
    first = await startSiteProcess({ DATABASE_URL: database.url });
    second = await startSiteProcess({ DATABASE_URL: database.url });
  });
  test.afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await database?.drop();
  });

  test("a publish on one is served by the other at once, as JSON and as the page", async ({ page }) => {
    const staff = await staffApi(first);
    const visitor = await apiRequest.newContext({ baseURL: second.url });
    const before = await publishedVolunteering(visitor);
    expect(before.formTitle).toBe("Join us in 2025");
    // A client holding the published content is told it is current, until the publish.
    const etag = (await visitor.get("/api/content/VolunteeringPage")).headers()["etag"]!;
    const current = await visitor.get("/api/content/VolunteeringPage", { headers: { "If-None-Match": etag } });
    expect(current.status()).toBe(304);
    const history = await (await staff.get("/api/admin/content/volunteering")).json();
    expect(history.history).toHaveLength(1);

    const version = await publish(staff, "volunteering", { ...before, formTitle: "Join us in 2027" });
    expect(version.number).toBe(2);

    await expect.poll(async () => (await publishedVolunteering(visitor)).formTitle).toBe("Join us in 2027");
    const stale = await visitor.get("/api/content/VolunteeringPage", { headers: { "If-None-Match": etag } });
    expect(stale.status()).toBe(200);
    expect((await stale.json()).formTitle).toBe("Join us in 2027");
    const byFolder = await visitor.get("/content/volunteering/content.json");
    expect((await byFolder.json()).formTitle).toBe("Join us in 2027");
    await page.goto(`${second.url}/volunteering`);
    await expect(page.getByRole("heading", { name: "Join us in 2027" })).toBeVisible();
    await staff.dispose();
    await visitor.dispose();
  });
});
