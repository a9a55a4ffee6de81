import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, expectNoSeriousA11yViolations, test, testWithOwnSite } from "../support/fixtures";
import { readContent } from "../support/content";
import { startSiteProcess } from "../support/site-process";
import { createEvent, staffApi } from "../support/staff-api";

// What a new visitor met on a walk through the site (issue 12): the event order, texts the charity
// edits, the Donate page's Gift Aid names and thank-you, link previews, Add to calendar, and
// sample events that each show a picture of what they are.

const day = 86_400_000;
const at = (days: number, hourUtc = 19) => {
  const date = new Date(Date.now() + days * day);
  date.setUTCHours(hourUtc, 0, 0, 0);
  return date.toISOString();
};
const onSale = (days: number) => ({ eventDate: at(days), ticketSaleExpiry: at(days - 1, 12) });
const over = (days: number) => ({ eventDate: at(-days), ticketSaleExpiry: at(-days - 1, 12) });

testWithOwnSite(
  "events to come are listed soonest first and past events most recent first, on the home and Fundraising pages",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    // Made in a muddled order, as staff add them over a year.
    await createEvent(api, { name: "Spring Ceilidh", ...onSale(120) });
    await createEvent(api, { name: "Quiz Night", ...onSale(12) });
    await createEvent(api, { name: "Last Summer's Fair", ...over(150) });
    await createEvent(api, { name: "Sponsored Walk", ...onSale(40) });
    await createEvent(api, { name: "Carol Concert", ...over(20) });
    await createEvent(api, { name: "Barn Dance", ...over(60) });
    await createEvent(api, { name: "Test payments", isTest: true, ...onSale(5) });

    const soonestFirst = ["Quiz Night", "Sponsored Walk", "Spring Ceilidh"];
    await page.goto("/");
    await expect(page.locator("#latest-event h3")).toHaveText(soonestFirst);
    await page.goto("/fundraising");
    await expect(page.locator("#latest-events h3")).toHaveText(soonestFirst);
    await expect(page.locator("#past-events h3")).toHaveText(["Carol Concert", "Barn Dance", "Last Summer's Fair"]);
    await page.goto("/mock-event");
    await expect(page.locator("main h3")).toHaveText(["Test payments", ...soonestFirst]);
  },
);

test("the volunteering heading is the page's content, so the charity can change the year", async ({ page }) => {
  const volunteering = readContent("volunteering");
  expect(volunteering.formTitle).toBe("Join us in 2025");
  await page.goto("/volunteering");
  await expect(page.getByRole("heading", { level: 2, name: "Join us in 2025" })).toBeVisible();

  const contentDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-content-"));
  await fs.cp("content", contentDir, { recursive: true });
  await fs.writeFile(
    path.join(contentDir, "volunteering", "content.json"),
    JSON.stringify({ ...volunteering, formTitle: "Join us in 2027" }),
  );
  const site = await startSiteProcess({ CONTENT_DIR: contentDir });
  try {
    await page.goto(`${site.url}/volunteering`);
    await expect(page.getByRole("heading", { level: 2, name: "Join us in 2027" })).toBeVisible();
    await expect(page.getByText("Join us in 2025")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await page.close();
    await site.stop();
    await fs.rm(contentDir, { recursive: true, force: true });
  }
});

test("Gift Aid's first name and surname are filled from Name, and stay as the donor corrects them", async ({
  page,
}) => {
  await page.goto("/payment?amount=10.00");
  const name = page.getByLabel("Name", { exact: true });
  const firstName = page.getByLabel("First name");
  const surname = page.getByLabel("Surname");
  await expect(page.getByRole("button", { name: "Pay now £10.00" })).toBeVisible();
  await name.fill("Mary Ann Smith");
  await page.getByLabel("Yes, I want to Gift Aid my donation").check();
  await expect(firstName).toHaveValue("Mary Ann");
  await expect(surname).toHaveValue("Smith");
  await expectNoSeriousA11yViolations(page);

  // A correction to Name is followed while the donor has not typed in the Gift Aid names.
  await name.fill("Mary Ann Smyth");
  await expect(surname).toHaveValue("Smyth");
  // Once they type their own first name, it is theirs: Name no longer changes it.
  await firstName.fill("Mary-Ann");
  await name.fill("Mary Ann Smythe");
  await expect(firstName).toHaveValue("Mary-Ann");
  await expect(surname).toHaveValue("Smythe");
  await surname.fill("Smith-Jones");
  await name.fill("M. A. Smith");
  await expect(firstName).toHaveValue("Mary-Ann");
  await expect(surname).toHaveValue("Smith-Jones");
});

testWithOwnSite("after giving, the thank-you view offers what to do next", async ({ page, context, ownSite }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ownSite.url });
  await page.goto("/payment?amount=15.00");
  await page.getByLabel("Name", { exact: true }).fill("Amina Mushi");
  await page.getByLabel("Email", { exact: true }).fill("amina@example.org");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration date").fill("12/34");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Pay now £15.00" }).click();

  const thanks = page.getByRole("region", { name: "Thank you for your donation!" });
  await expect(thanks).toContainText("You gave £15.00.");
  // The tick is a round badge: no square of its background shows.
  await expect(thanks.getByRole("img", { name: /tick/ })).toHaveCSS("border-radius", "50%");
  const next = thanks.getByRole("region", { name: "What next?" });
  await expect(next.getByRole("link", { name: "Come to one of our fundraising events" })).toHaveAttribute(
    "href",
    "/fundraising",
  );
  await expect(next.getByRole("link", { name: "Volunteer with us" })).toHaveAttribute("href", "/volunteering");
  const mail = new URL((await next.getByRole("link", { name: "Tell a friend by e-mail" }).getAttribute("href"))!);
  expect(mail.protocol).toBe("mailto:");
  expect(mail.searchParams.get("subject")).toBe("Give to Kilele Village Trust");
  expect(mail.searchParams.get("body")).toContain(`${ownSite.url}/payment`);
  await expectNoSeriousA11yViolations(page);

  await next.getByRole("button", { name: "Share our Donate page" }).click();
  await expect(next.getByRole("status")).toHaveText("The link is copied: paste it into a message to a friend.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${ownSite.url}/payment`);

  await next.getByRole("link", { name: "Volunteer with us" }).click();
  await expect(page).toHaveURL(/\/volunteering$/);
});

/** The page's link-preview tags, by property or name. */
async function previewTags(page: Page) {
  return page.evaluate(() => {
    const tags: Record<string, string> = {};
    for (const meta of document.head.querySelectorAll("meta[property], meta[name]")) {
      tags[meta.getAttribute("property") ?? meta.getAttribute("name")!] = meta.getAttribute("content") ?? "";
    }
    tags.canonical = document.head.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "";
    return tags;
  });
}

/**
 * Fetches a link preview's picture as a social site would: it must be a JPEG of about 1200×630. A
 * content picture's is the build's file (decision 057), kept a day like the other pictures.
 */
async function expectPreviewPicture(request: APIRequestContext, url: string) {
  const response = await request.get(url);
  expect(response.status(), url).toBe(200);
  expect(response.headers()["content-type"], url).toBe("image/jpeg");
  expect(response.headers()["cache-control"], url).toBe("public, max-age=86400");
  const { width, height, format } = await sharp(await response.body()).metadata();
  expect({ width, height, format }, url).toEqual({ width: 1200, height: 630, format: "jpeg" });
}

testWithOwnSite(
  "a shared link shows the page's own picture and summary, at absolute addresses",
  async ({ page, ownSite }) => {
    const api = await staffApi(ownSite);
    const event = await createEvent(api, {
      name: "Kilele Golf Day",
      description: "A Texas scramble with lunch and prizes.",
      posterImage: "pages/golf-day",
      ...onSale(30),
    });
    const home = readContent("home");
    const project = home.activeProjects[0]!;
    const pages = [
      { path: "/", title: "Kilele Trust", image: home.imageWheel.images[0]!.src },
      { path: "/fundraising", title: "Fundraising", image: readContent("fundraising").image.src },
      { path: `/fundraising-event/${event.id}`, title: "Kilele Golf Day", image: "pages/golf-day" },
      { path: `/project/${project.slug}`, title: `Project - ${project.title}`, image: project.imageBanner.src },
      { path: "/volunteering", title: "Volunteering", image: readContent("volunteering").image.src },
      { path: "/contact", title: "Contact Us", image: readContent("contact").image.src },
      { path: "/about", title: "About Us", image: home.imageWheel.images[0]!.src },
      { path: "/payment", title: "Donate", image: home.imageWheel.images[0]!.src },
    ];
    for (const expected of pages) {
      await page.goto(expected.path);
      const tags = await previewTags(page);
      const url = `${ownSite.url}${expected.path}`;
      expect(tags, expected.path).toMatchObject({
        "og:title": expected.title,
        "og:type": "website",
        "og:site_name": "Kilele Village Trust",
        "og:url": url,
        canonical: url,
        "og:image": `${ownSite.url}/images/share/${expected.image}.jpg`,
        "og:image:width": "1200",
        "og:image:height": "630",
        "twitter:card": "summary_large_image",
        "twitter:title": expected.title,
        "twitter:image": `${ownSite.url}/images/share/${expected.image}.jpg`,
      });
      expect(tags["og:description"]?.length, expected.path).toBeGreaterThan(20);
      expect(tags["twitter:description"], expected.path).toBe(tags["og:description"]);
      await expectPreviewPicture(page.request, tags["og:image"]!);
    }
    const eventTags = await (async () => {
      await page.goto(`/fundraising-event/${event.id}`);
      return previewTags(page);
    })();
    expect(eventTags["og:description"]).toBe("A Texas scramble with lunch and prizes.");
    expect(eventTags["og:image:alt"]).toBe("Poster for Kilele Golf Day");
    expect((await page.request.get("/images/share/pages/no-such-picture.jpg")).status()).toBe(404);
  },
);

test("with PUBLIC_URL set, shared links use the site's public address", async ({ page }) => {
  const site = await startSiteProcess({ PUBLIC_URL: "https://www.kilele.example" });
  try {
    await page.goto(`${site.url}/fundraising`);
    const tags = await previewTags(page);
    expect(tags["og:url"]).toBe("https://www.kilele.example/fundraising");
    expect(tags["og:image"]).toMatch(/^https:\/\/www\.kilele\.example\/images\/share\/pages\/quiz-night\.jpg$/);
    // The picture is there, at the same path on this server.
    await expectPreviewPicture(page.request, `${site.url}${new URL(tags["og:image"]!).pathname}`);
  } finally {
    await page.close();
    await site.stop();
  }
});

testWithOwnSite("Add to calendar downloads the event as a calendar file", async ({ page, ownSite }) => {
  const api = await staffApi(ownSite);
  const eventDate = at(25);
  const event = await createEvent(api, {
    name: "Kilele Quiz Night",
    location: "St Mary's Church Hall, Ledbury",
    eventDate,
    ticketSaleExpiry: at(24, 12),
  });
  await page.goto(`/fundraising-event/${event.id}`);
  const link = page.getByRole("link", { name: "Add to calendar" });
  await expect(link).toHaveAttribute("href", `/fundraising-event/${event.id}/calendar.ics`);
  await expectNoSeriousA11yViolations(page);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("kilele-quiz-night.ics");
  const file = (await fs.readFile((await download.path())!, "utf8")).replace(/\r\n[ \t]/g, "");
  const start = eventDate.replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  expect(file).toContain("BEGIN:VCALENDAR");
  expect(file).toContain("SUMMARY:Kilele Quiz Night");
  expect(file).toContain(`DTSTART:${start}`);
  expect(file).toContain("LOCATION:St Mary's Church Hall\\, Ledbury");
  expect(file).toContain(`URL:${ownSite.url}/fundraising-event/${event.id}`);
  expect(file).toContain("STATUS:CONFIRMED");

  const response = await page.request.get(`/fundraising-event/${event.id}/calendar.ics`);
  expect(response.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(response.headers()["content-disposition"]).toBe('attachment; filename="kilele-quiz-night.ics"');

  // Cancelled: the page offers it no more, and the file says so (a calendar that has it updates it).
  const cancelled = await api.post(`/api/admin/events/${event.id}/cancel`, { data: { reason: "The hall flooded." } });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  await page.reload();
  await expect(page.getByText(/^Cancelled: this event will not take place/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Add to calendar" })).toHaveCount(0);
  const after = await (await page.request.get(`/fundraising-event/${event.id}/calendar.ics`)).text();
  expect(after).toContain("STATUS:CANCELLED");
  expect(after).toContain("SUMMARY:Cancelled: Kilele Quiz Night");

  // A test event is not real: no calendar file; an unknown event has none either.
  const testEvent = await createEvent(api, { name: "Card check", isTest: true, ...onSale(10) });
  await page.goto(`/fundraising-event/${testEvent.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Card check");
  await expect(page.getByRole("link", { name: "Add to calendar" })).toHaveCount(0);
  expect((await page.request.get(`/fundraising-event/${testEvent.id}/calendar.ics`)).status()).toBe(404);
  expect((await page.request.get(`/fundraising-event/${crypto.randomUUID()}/calendar.ics`)).status()).toBe(404);
});

test("each sample event shows a poster of its own, of what it is", async ({ page }) => {
  const site = await startSiteProcess({ SAMPLE_EVENTS: "true" });
  const expected: Record<string, string> = {
    "Kilele Quiz Night": "pages/quiz-night",
    "Malvern Hills Sponsored Walk": "pages/sponsored-walk",
    "Summer Ceilidh": "pages/ceilidh",
    "Christmas Carol Concert": "pages/carol-concert",
    "Kilele Golf Day": "pages/golf-day",
    "Test event: card payment check": "pages/donation-success",
  };
  try {
    const shown: Record<string, string> = {};
    for (const path of ["/fundraising", "/mock-event"]) {
      await page.goto(`${site.url}${path}`);
      const cards = page.locator("article.event-card");
      await expect(cards.first()).toBeVisible();
      for (const card of await cards.all()) {
        const name = (await card.locator("h3").textContent())!.trim();
        const poster = card.getByRole("img", { name: `Poster for ${name}` });
        await poster.scrollIntoViewIfNeeded();
        await expect
          .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
        shown[name] = /\/images\/(.+)-\d+\.jpg$/.exec((await poster.getAttribute("src"))!)![1]!;
      }
    }
    expect(shown).toEqual(expected);
    expect(new Set(Object.values(shown)).size).toBe(Object.keys(expected).length);
  } finally {
    await page.close();
    await site.stop();
  }
});
