import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { readContent } from "../support/content";

const home = readContent("home");
const about = readContent("about");
const contact = readContent("contact");
const volunteering = readContent("volunteering");
const site = readContent("site");
const withGallery = [...home.activeProjects, ...home.previousProjects].find(
  (p) => p.testimonial && p.galleryImages.length > 0,
)!;

const pages = [
  { path: "/", title: site.shortName, heading: home.title },
  { path: "/about", title: "About Us", heading: about.title },
  { path: "/contact", title: "Contact Us", heading: contact.title },
  { path: "/volunteering", title: "Volunteering", heading: volunteering.title },
  { path: `/project/${withGallery.slug}`, title: `Project - ${withGallery.title}`, heading: withGallery.title },
];

for (const { path, title, heading } of pages) {
  test(`${path} has its title, its text in the server's HTML, and no serious accessibility violation`, async ({
    page,
    request,
  }) => {
    // The HTML as sent, before any script runs.
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<title>${escapeHtml(title)}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(html).toContain(escapeHtml(heading));
    // Of the site's settings, a page carries what its header and footer show, not the receipts'
    // texts, which only e-mails print (app/lib/site.ts, siteFrame).
    expect(html).toContain(site.registrationNumber);
    expect(html).not.toContain("we refund every ticket and the booking fee in full");
    expect(html).not.toContain(site.receipts.whatYourGiftDoes.slice(0, 40));

    await page.goto(path);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expectNoSeriousA11yViolations(page);
  });
}

// A site of its own: other tests on a worker's shared site add events, and this one needs none.
testWithOwnSite("the home page shows its sections in order", async ({ page }) => {
  await page.goto("/");
  const headings = await page.locator("main h1:visible, main h2:visible").allTextContents();
  expect(headings).toEqual([
    home.title,
    home.activeProjectsTitle,
    home.previousProjectsTitle,
    "Our Mission",
    home.video.title,
  ]);
  await expect(page.getByText(home.subtitle)).toBeVisible();
  await expect(page.getByText(home.quote)).toBeVisible();
  await expect(page.getByRole("region", { name: "Life in Kilele" })).toBeVisible();
  await expect(page.getByText(home.mission.missionStatement)).toBeVisible();
  await expect(page.getByText(home.mission.author)).toBeVisible();
  // No events exist on this site, so there is no Latest fundraising event section.
  await expect(page.getByRole("heading", { name: /Latest fundraising event/i })).toHaveCount(0);
});

test("About Us shows the mission, the team cards and the trustees", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByText(about.col1Text)).toBeVisible();
  await expect(page.getByText(about.col2Text)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Our Mission" })).toBeVisible();
  await expect(page.getByText(about.mission.missionStatement)).toBeVisible();
  const team = page.getByRole("region", { name: "Meet The Team" });
  for (const member of about.team) {
    await expect(team.getByRole("heading", { name: member.name })).toBeVisible();
    await expect(team.getByText(member.position, { exact: true })).toBeVisible();
    await expect(team.getByText(member.quote)).toBeVisible();
  }
  const trustees = page.getByRole("region", { name: "Meet the trustees" });
  for (const trustee of about.trustees) {
    await expect(trustees.getByRole("heading", { name: trustee.name })).toBeVisible();
    await expect(trustees.getByText(trustee.job, { exact: false })).toBeVisible();
  }
});

test("Contact Us shows its picture, both columns and the e-mail address", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("img", { name: contact.image.alt })).toBeVisible();
  await expect(page.getByText(contact.col1Text)).toBeVisible();
  await expect(page.getByText(contact.col2Text)).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: site.email })).toHaveAttribute(
    "href",
    `mailto:${site.email}`,
  );
});

test("an unknown address gets the 404 page", async ({ page, request }) => {
  expect((await request.get("/no-such-page")).status()).toBe(404);
  await page.goto("/no-such-page");
  await expect(page).toHaveTitle("Page not found");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveTitle(site.shortName);
});

test("page texts are served as JSON by folder name and by page key", async ({ request }) => {
  const byName = await request.get("/content/about/content.json");
  expect(byName.status()).toBe(200);
  expect(byName.headers()["content-type"]).toContain("application/json");
  expect((await byName.json()).title).toBe(about.title);
  for (const [key, name] of [
    ["AboutPage", "about"],
    ["VolunteeringPage", "volunteering"],
    ["ContactPage", "contact"],
    ["PaymentPage", "payment"],
    ["FundraisingPage", "fundraising"],
    ["HomePage", "home"],
  ] as const) {
    const response = await request.get(`/api/content/${key}`);
    expect(response.status(), key).toBe(200);
    expect((await response.json()).title).toBe(readContent(name).title);
  }
  expect((await request.get("/content/secrets/content.json")).status()).toBe(404);
  expect((await request.get("/api/content/AdminPage")).status()).toBe(404);
});

function escapeHtml(text: string) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}
