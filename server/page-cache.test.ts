import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContentStore } from "~/features/content/store.server";
import { availabilityByEvent, nextTimedChange } from "~/features/events/events.server";
import { startBooking } from "~/features/booking/checkout.server";
import { openDatabase, type DatabaseHandle } from "~/infra/db/database.server";
import { saveSiteSetting } from "~/infra/db/site-settings.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { staffUsers } from "~db/schema";
import { testCharity as charity, contentCopy, readContent } from "../tests/support/content";
import { testClock, type TestClock } from "../tests/support/clock";
import { createPostgresDatabase, engines, freshDatabase, insertEvent } from "../tests/support/databases";
import { serverRoutes } from "../tests/support/route-table";
import { PageCache, type PageRenderer } from "./page-cache";
import { chooseEncoding, inlineScriptSources } from "./page-cache-answers";
import { isCandidate as isCandidateOf, PublicPages } from "./page-cache-paths";
import { pageCacheLimits } from "./page-cache-store";
import { securityHeaders } from "./security-headers";

/** The site's own routes, as the production build hands them to the cache. */
const routes = await serverRoutes();
const publicPages = new PublicPages(routes);
const isCandidate = (method: string, url: string, cookie: string | undefined) =>
  isCandidateOf(method, url, cookie, publicPages);

// The page cache in front of a stand-in for the site's renderer that reads the real database and
// content store: what a page shows comes from the same places the real pages read it from, so a
// publish, a setting or a hold in any process must reach the cache. The real pages, rendered by
// the production build, are tested in tests/e2e/page-cache.spec.ts.

const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

describe("the page cache's parts", () => {
  it("vouches for exactly the page's inline scripts, by the hash the browser computes", () => {
    const html =
      '<html><head><script>document.documentElement.classList.add("js")</script>' +
      '<script type="module" src="/assets/entry.js"></script></head>' +
      '<body><script nonce="">window.__data = {"é": 1};</script><script type="module">import("/a.js");</script></body></html>';
    expect(inlineScriptSources(html)).toEqual([
      sha256('document.documentElement.classList.add("js")'),
      sha256('window.__data = {"é": 1};'),
      sha256('import("/a.js");'),
    ]);
  });

  it("answers brotli when it is accepted, else gzip, else the plain page", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("gzip, br;q=0")).toBe("gzip");
    expect(chooseEncoding("deflate")).toBe("identity");
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("*")).toBe("br");
  });

  it("takes only GET and HEAD of the public pages, never from staff or a preview", () => {
    for (const page of ["/", "/about", "/contact", "/volunteering", "/fundraising", "/fundraising-event/abc"]) {
      expect(isCandidate("GET", page, undefined), page).toBe(true);
    }
    expect(isCandidate("HEAD", "/project/well", undefined)).toBe(true);
    expect(isCandidate("GET", "/about?utm_source=news", undefined)).toBe(true);
    expect(isCandidate("POST", "/volunteering", undefined)).toBe(false);
    expect(isCandidate("GET", "/book-event/abc", undefined)).toBe(false);
    expect(isCandidate("GET", "/payment", undefined)).toBe(false);
    expect(isCandidate("GET", "/admin", undefined)).toBe(false);
    expect(isCandidate("GET", "/about.data", undefined)).toBe(false);
    expect(isCandidate("GET", "/about", "theme=dark; kt_staff=abc")).toBe(false);
    expect(isCandidate("GET", "/about", "kt_staff_other=abc")).toBe(true);
    expect(isCandidate("GET", "/volunteering?preview=volunteering", undefined)).toBe(false);
    expect(isCandidate("GET", "/volunteering?a=1&preview[]=volunteering", undefined)).toBe(false);
  });
});

/** One process of the site, as far as the cache is concerned: its database connection, content store and cache. */
interface Process {
  database: DatabaseHandle;
  store: ContentStore;
  cache: PageCache;
  url: string;
  server: http.Server;
  renders: number;
  /** What the next render sets as a cookie, if anything. */
  setCookie?: string;
  close(): Promise<void>;
}

async function startProcess(
  database: DatabaseHandle,
  clock: TestClock,
  contentDir: string,
  eventId: string,
  options: { timed?: boolean } = {},
) {
  const store = new ContentStore(database, {
    clock,
    contentDir,
    pictures: new PictureLibrary(path.resolve("content/images")),
    watchFiles: false,
  });
  await store.start();
  const cache = new PageCache(
    {
      routes,
      database,
      content: store,
      clock,
      ...(options.timed && { nextTimedChange: (now: Date) => nextTimedChange(database.db, now) }),
    },
    // With the events' times, only they end a page here (not the cap against unforeseen changes).
    options.timed ? { ...pageCacheLimits, liveMaxMs: 30 * 86_400_000 } : pageCacheLimits,
  );
  await cache.start();
  const process = { database, store, cache, renders: 0 } as Process;
  // What the real pages show: published content, a setting, and for live pages the live counts.
  const render: PageRenderer = async (request, _req, _res, mark) => {
    process.renders++;
    const url = new URL(request.url);
    const content = await store.published();
    const counts = (await availabilityByEvent(database, clock.now()))[eventId]!;
    mark.kind = url.pathname === "/about" ? "content" : "live";
    const body =
      `<!DOCTYPE html><html><head><script>document.documentElement.classList.add("js")</script></head><body>` +
      `<h1>${content.about.title}</h1><p>${counts.remaining} left</p>` +
      `<script type="module">window.__page = ${JSON.stringify(url.pathname)};</script>` +
      `<p>${"A page long enough to be worth compressing. ".repeat(50)}</p></body></html>`;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" });
    if (process.setCookie) headers.set("Set-Cookie", process.setCookie);
    return new Response(body, { status: 200, headers });
  };
  const app = express();
  app.use(compression());
  app.use(securityHeaders({ production: false, development: false }));
  app.use(cache.middleware(render));
  // Whatever the cache passes on is rendered as the site would, with this response's nonce.
  app.use((_req, res) => {
    process.renders++;
    res.setHeader("X-Rendered", "uncached");
    res.type("html").send(`<html><body><script nonce="${String(res.locals.cspNonce)}">1</script></body></html>`);
  });
  // As server/http.ts does: a kept page is answered before Express when it can be.
  const server = http.createServer((req, res) => {
    if (!cache.answer(req, res, () => "test")) app(req, res);
  });
  process.server = await new Promise<http.Server>((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
  const address = process.server.address() as { port: number };
  process.url = `http://127.0.0.1:${address.port}`;
  process.close = async () => {
    await new Promise((resolve) => process.server.close(resolve));
    await cache.stop();
    await store.stop();
  };
  return process;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent. */
  raw: Buffer;
  /** The page as the browser reads it, decoded. */
  html: string;
}

function get(process: Process, page: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(process.url + page, { headers: { "accept-encoding": "br", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers["content-encoding"];
        const decoded =
          encoding === "br" ? zlib.brotliDecompressSync(raw) : encoding === "gzip" ? zlib.gunzipSync(raw) : raw;
        resolve({ status: response.statusCode!, headers: response.headers, raw, html: decoded.toString("utf8") });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

async function waitFor(condition: () => Promise<boolean>, what: string) {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 400) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(engines)("the page cache on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let contentDir: string;
  let eventId: string;
  let site: Process;
  let staff: { id: string; email: string };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T09:00:00Z");
    contentDir = await contentCopy();
    eventId = await insertEvent(database.db, { totalAvailableTickets: 1 }, clock.now());
    const [row] = await database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    staff = { id: row!.id, email: row!.email };
    site = await startProcess(database, clock, contentDir, eventId);
  });
  afterEach(async () => {
    await site.close();
    await database.close();
    await fs.rm(contentDir, { recursive: true, force: true });
  });

  it("renders a page once: the second answer is the same bytes, with a policy that vouches for its inline scripts only", async () => {
    const first = await get(site, "/about");
    expect(first.headers["x-page-cache"]).toBe("miss");
    const second = await get(site, "/about");
    expect(second.headers["x-page-cache"]).toBe("hit");
    expect(site.renders).toBe(1);
    expect(second.raw.equals(first.raw)).toBe(true);
    expect(second.headers["content-encoding"]).toBe("br");
    expect(second.headers.vary).toMatch(/accept-encoding/i);
    const html = second.html;
    expect(html).toContain(`<h1>${readContent("about").title}</h1>`);
    // gzip and no encoding at all: the same page.
    const gzipped = await get(site, "/about", { "accept-encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.html).toBe(html);
    expect((await get(site, "/about", { "accept-encoding": "identity" })).html).toBe(html);
    // The policy names the page's two inline scripts and nothing else: no nonce, no 'unsafe-inline'.
    const scriptSrc = /script-src ([^;]*)/.exec(String(second.headers["content-security-policy"]))![1]!;
    expect(scriptSrc.split(" ").sort()).toEqual(
      ["'self'", sha256('document.documentElement.classList.add("js")'), sha256('window.__page = "/about";')].sort(),
    );
    // A browser that has the page is told it is unchanged.
    const again = await get(site, "/about", { "if-none-match": String(second.headers.etag) });
    expect(again.status).toBe(304);
    expect(site.renders).toBe(1);
  });

  it("shows published content at once", async () => {
    await get(site, "/about");
    expect((await get(site, "/about")).headers["x-page-cache"]).toBe("hit");
    const about = readContent("about");
    const published = await site.store.publish("about", { ...about, title: "About the Kilele Trust" }, staff);
    expect(published.ok).toBe(true);
    const after = await get(site, "/about");
    expect(after.html).toContain("<h1>About the Kilele Trust</h1>");
  });

  it("makes every page again when staff save a setting", async () => {
    await get(site, "/about");
    await database.db.transaction((tx) =>
      saveSiteSetting(tx, {
        key: "donate-button",
        value: { externalUrl: null },
        staff,
        summary: "test",
        now: clock.now(),
      }),
    );
    await waitFor(async () => (await get(site, "/about")).headers["x-page-cache"] === "miss", "a new render");
  });

  it("shows a hold of the last seat on the live pages once it is announced, by the announcement alone", async () => {
    for (const page of ["/", "/fundraising", `/fundraising-event/${eventId}`]) {
      // On PostgreSQL the set-up's own announcements may arrive after the first render: wait for a kept page.
      await waitFor(async () => (await get(site, page)).headers["x-page-cache"] === "hit", `${page} to be kept`);
      const kept = await get(site, page);
      expect(kept.headers["x-page-cache"]).toBe("hit");
      expect(kept.html).toContain("<p>1 left</p>");
    }
    // The clock stands still: only the announcement can end the kept pages.
    const deps = { db: database.db, payments: offlineProvider(database.db, clock), charity, clock };
    await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
    for (const page of ["/", "/fundraising", `/fundraising-event/${eventId}`]) {
      await waitFor(async () => (await get(site, page)).html.includes("<p>0 left</p>"), `${page} to show the hold`);
    }
  });

  it("serves a page with live counts at most a second after its render began, by the site's clock", async () => {
    await get(site, "/fundraising");
    clock.advance(499);
    expect((await get(site, "/fundraising")).headers["x-page-cache"]).toBe("hit");
    expect(site.renders).toBe(1);
    // A second after: never served again.
    clock.advance(501);
    expect((await get(site, "/fundraising")).headers["x-page-cache"]).toBe("miss");
    expect(site.renders).toBe(2);
    // Half a second after: still served, while the next one is rendered beside it.
    clock.advance(600);
    expect((await get(site, "/fundraising")).headers["x-page-cache"]).toBe("hit");
    await waitFor(async () => site.renders === 3, "the page rendered again");
    clock.advance(499);
    expect((await get(site, "/fundraising")).headers["x-page-cache"]).toBe("hit");
    expect(site.renders).toBe(3);
    // A content page is kept until its content changes.
    await get(site, "/about");
    clock.advance(86_400_000);
    expect((await get(site, "/about")).headers["x-page-cache"]).toBe("hit");
  });

  it("with the events' times, keeps a live page until its sales close or a hold runs out, not a second", async () => {
    const timed = await startProcess(database, clock, contentDir, eventId, { timed: true });
    try {
      const day = 86_400_000;
      // The event's sales close in nine days, its date in ten (insertEvent).
      expect(await nextTimedChange(database.db, clock.now())).toEqual(new Date(clock.now().getTime() + 9 * day));
      await get(timed, "/fundraising");
      clock.advance(20_000);
      expect((await get(timed, "/fundraising")).headers["x-page-cache"]).toBe("hit");
      expect(timed.renders).toBe(1);
      // A hold (announced) ends the page; the next one is kept until the hold may stop counting.
      const deps = { db: database.db, payments: offlineProvider(database.db, clock), charity, clock };
      await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 1 });
      await waitFor(async () => (await get(timed, "/fundraising")).html.includes("0 left"), "the hold shown");
      const holdEnds = await nextTimedChange(database.db, clock.now());
      expect(holdEnds!.getTime()).toBeLessThan(clock.now().getTime() + day);
      clock.set(new Date(holdEnds!.getTime() - 1));
      expect((await get(timed, "/fundraising")).headers["x-page-cache"]).toBe("hit");
      clock.set(holdEnds!);
      expect((await get(timed, "/fundraising")).headers["x-page-cache"]).toBe("miss");
    } finally {
      await timed.close();
    }
  });

  it("never gives a member of staff a kept page, nor keeps theirs; nor a preview", async () => {
    await get(site, "/about");
    const renders = site.renders;
    const staffAnswer = await get(site, "/about", { cookie: "kt_staff=whatever" });
    expect(staffAnswer.headers["x-page-cache"]).toBeUndefined();
    expect(staffAnswer.headers["x-rendered"]).toBe("uncached");
    expect(staffAnswer.headers["content-security-policy"]).toMatch(/'nonce-/);
    const preview = await get(site, "/about?preview=about");
    expect(preview.headers["x-rendered"]).toBe("uncached");
    expect(site.renders).toBe(renders + 2);
    // A staff request before anyone else's fills nothing either.
    await get(site, "/contact", { cookie: "kt_staff=whatever" });
    expect((await get(site, "/contact")).headers["x-page-cache"]).toBe("miss");
  });

  it("never keeps a response that sets a cookie", async () => {
    site.setCookie = "visitor=1; Path=/";
    const first = await get(site, "/about");
    expect(first.headers["set-cookie"]).toEqual(["visitor=1; Path=/"]);
    expect(first.headers["x-page-cache"]).toBeUndefined();
    await get(site, "/about");
    expect(site.renders).toBe(2);
    expect(site.cache.size()).toEqual({ plain: 0, queried: 0, plainBytes: 0 });
  });

  it("keeps a bounded number of pages for invented query strings, and they never push out the plain pages", async () => {
    await get(site, "/about");
    for (let i = 0; i < site.cache.limits.maxQueried + 20; i++) await get(site, `/about?utm_source=junk${i}`);
    expect(site.cache.size().queried).toBe(site.cache.limits.maxQueried);
    expect((await get(site, "/about")).headers["x-page-cache"]).toBe("hit");
    // The newest ones are kept, the oldest gone.
    const last = site.cache.limits.maxQueried + 19;
    expect((await get(site, `/about?utm_source=junk${last}`)).headers["x-page-cache"]).toBe("hit");
    expect((await get(site, "/about?utm_source=junk0")).headers["x-page-cache"]).toBe("miss");
  });

  it("renders a page once for requests that arrive together", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(site, "/contact")));
    expect(site.renders).toBe(1);
    for (const answer of answers) expect(answer.raw.equals(answers[0]!.raw)).toBe(true);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two processes on one PostgreSQL database", () => {
  let drop: () => Promise<void>;
  let processes: Process[] = [];
  let contentDir: string;
  const clock = testClock("2026-11-22T09:00:00Z");

  beforeEach(async () => {
    const created = await createPostgresDatabase({ migrated: true });
    drop = created.drop;
    contentDir = await contentCopy();
    const first = await openDatabase({ url: created.url });
    const eventId = await insertEvent(first.db, { totalAvailableTickets: 1 }, clock.now());
    const second = await openDatabase({ url: created.url });
    processes = [
      await startProcess(first, clock, contentDir, eventId),
      await startProcess(second, clock, contentDir, eventId),
    ];
    (processes[0] as Process & { eventId: string }).eventId = eventId;
  });
  afterEach(async () => {
    for (const each of processes) {
      await each.close();
      await each.database.close();
    }
    await drop();
    await fs.rm(contentDir, { recursive: true, force: true });
  });

  it("a hold or a publish in one process ends the other's kept pages", async () => {
    const [one, two] = processes as [Process & { eventId: string }, Process];
    await get(two, "/fundraising");
    await get(two, "/about");
    expect((await get(two, "/fundraising")).headers["x-page-cache"]).toBe("hit");
    const deps = { db: one.database.db, payments: offlineProvider(one.database.db, clock), charity, clock };
    await startBooking(deps, { eventId: one.eventId, name: "Grace Kimaro", email: "grace@example.org", quantity: 1 });
    await waitFor(
      async () => (await get(two, "/fundraising")).html.includes("0 left"),
      "the other process's page to show the hold",
    );
    const [row] = await one.database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    await one.store.publish("about", { ...readContent("about"), title: "About us, again" }, row!);
    await waitFor(
      async () => (await get(two, "/about")).html.includes("<h1>About us, again</h1>"),
      "the other process's page to show the publish",
    );
  });
});
