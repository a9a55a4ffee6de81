import crypto from "node:crypto";
import { request, type APIRequestContext } from "@playwright/test";
import { buyTickets } from "../support/bookings";
import { createPostgresDatabase, engines } from "../support/databases";
import { expect, test } from "../support/fixtures";
import { startSiteProcess, type RunningSite } from "../support/site-process";
import { createEvent, staffApi } from "../support/staff-api";
import { hydrated } from "../support/hydration";

// Public pages rendered once per change and kept (server/page-cache.ts, decision 035), on the
// production build (`npm run build` first): the same bytes again, a policy that vouches for the
// page's own inline scripts, a page that hydrates under it, and a sale that ends what was kept.

/** The hashes a browser computes for the page's inline scripts. */
function inlineScriptHashes(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((match) => !/\ssrc=/.test(` ${match[1]}`))
    .map((match) => `'sha256-${crypto.createHash("sha256").update(match[2]!).digest("base64")}'`);
}

test.describe("a kept public page", () => {
  test("is the same page again, with a policy naming exactly its inline scripts' hashes, and hydrates under it", async ({
    page,
    site,
  }) => {
    const first = await fetch(`${site.url}/about`);
    const firstHtml = await first.text();
    const second = await fetch(`${site.url}/about`);
    expect(second.headers.get("x-page-cache")).toBe("hit");
    const html = await second.text();
    expect(html).toBe(firstHtml);
    const policy = second.headers.get("content-security-policy")!;
    const scriptSrc = /script-src ([^;]*)/.exec(policy)![1]!.split(" ");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc.filter((source) => source.startsWith("'nonce-"))).toEqual([]);
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(1);
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-")).sort()).toEqual([...new Set(hashes)].sort());

    // The browser gets the kept page, runs its inline scripts and hydrates: a link then loads the
    // next page's data, as only the hydrated page does. A violation would be a console error (fixtures).
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto("/about");
    expect(response!.headers()["x-page-cache"]).toBe("hit");
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);
    const data = page.waitForRequest((asked) => new URL(asked.url()).pathname === "/contact.data");
    const contact = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" });
    await hydrated(contact);
    await contact.click();
    await data;
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("is never given to, nor made from, a member of staff's request", async ({ site }) => {
    const staff = await staffApi(site);
    try {
      const answer = await staff.get("/about");
      expect(answer.headers()["x-page-cache"]).toBeUndefined();
      expect(answer.headers()["content-security-policy"]).toMatch(/'nonce-/);
      const preview = await staff.get("/about?preview=about");
      expect(preview.headers()["x-page-cache"]).toBeUndefined();
      expect(preview.headers()["cache-control"]).toBe("no-store");
    } finally {
      await staff.dispose();
    }
  });
});

/** What a visitor's browser gets for `page` now. */
async function pageText(site: RunningSite, page: string) {
  return (await fetch(site.url + page)).text();
}

async function sellOutShows(seller: RunningSite, watched: RunningSite) {
  const staff = await staffApi(seller);
  const buyer: APIRequestContext = await request.newContext({ baseURL: seller.url });
  try {
    const event = await createEvent(staff, { name: "The Last Seat Supper", totalAvailableTickets: 1 });
    const pages = ["/", "/fundraising", `/fundraising-event/${event.id}`];
    for (const page of pages) {
      await expect.poll(() => pageText(watched, page)).toContain("The Last Seat Supper");
      // Kept now: an answer comes from the cache (a page with live counts is kept a second at most).
      await expect.poll(async () => (await fetch(watched.url + page)).headers.get("x-page-cache")).toBe("hit");
      expect(await pageText(watched, page)).not.toContain("Sold out");
    }
    await buyTickets(buyer, event.id, { name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
    for (const page of pages) await expect.poll(() => pageText(watched, page)).toContain("Sold out");
  } finally {
    await staff.dispose();
    await buyer.dispose();
  }
}

test.describe("a sale that sells out an event", () => {
  for (const engine of engines) {
    test(`ends the kept home, fundraising and event pages (${engine})`, async () => {
      const database = engine === "postgres" ? await createPostgresDatabase({ migrated: true }) : undefined;
      const site = await startSiteProcess(database ? { DATABASE_URL: database.url } : {});
      try {
        await sellOutShows(site, site);
      } finally {
        await site.stop();
        await database?.drop();
      }
    });
  }

  test("in one process ends the pages another process kept, on one PostgreSQL database", async () => {
    test.skip(!engines.includes("postgres"), "needs TEST_DATABASE_URL");
    const database = await createPostgresDatabase({ migrated: true });
    const one = await startSiteProcess({ DATABASE_URL: database.url });
    const two = await startSiteProcess({ DATABASE_URL: database.url });
    try {
      await sellOutShows(one, two);
    } finally {
      await one.stop();
      await two.stop();
      await database.drop();
    }
  });
});
