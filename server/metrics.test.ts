import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { startBooking } from "~/features/booking/checkout.server";
import { testCharity as charity } from "../tests/support/content";
import { testClock, type TestClock } from "../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../tests/support/databases";
import { serverRoutes } from "../tests/support/route-table";
import { backupRuns } from "~db/schema";
import { SiteMetrics } from "./metrics";
import { requestLog } from "./requests";
import { RouteTable } from "./route-table";

// GET /metrics (issue: operations): what a Prometheus scraper holding METRICS_TOKEN reads, through
// the real request log and route table, on both database engines.

const token = "a-scraper-token-of-32-characters";
let routes: RouteTable;
beforeAll(async () => {
  routes = new RouteTable(await serverRoutes());
});

describe("the route a request is counted under", () => {
  it("is its route's pattern, never its own path; a page's data request counts as its page", () => {
    const metrics = new SiteMetrics(routes, { db: undefined!, now: () => new Date(), liveFeedConnections: () => 0 });
    expect(metrics.routeOf("/")).toBe("/");
    expect(metrics.routeOf("/about")).toBe("/about");
    expect(metrics.routeOf("/about.data")).toBe("/about");
    expect(metrics.routeOf("/_root.data")).toBe("/");
    expect(metrics.routeOf("/admin/bookings/0b6f0c8e-1d1e-4a57-9d7e-3f1f7c1d2e3f")).toBe("/admin/bookings/:bookingRef");
    // Static files and addresses no page has share one name, so a stranger cannot make new series.
    expect(metrics.routeOf("/assets/entry-abc123.js")).toBe("other");
    expect(metrics.routeOf("/no-such-page-1")).toBe("other");
  });
});

describe.each(engines)("GET /metrics on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let server: import("node:http").Server;
  let base: string;
  let connections = 0;

  async function serve(metricsToken: string | undefined) {
    const metrics = new SiteMetrics(routes, {
      db: database.db,
      now: () => clock.now(),
      liveFeedConnections: () => connections,
    });
    const app = express();
    app.use(requestLog(metrics.observe.bind(metrics)));
    app.use(metrics.handler(metricsToken));
    app.get("/about", (_req, res) => void res.send("About us"));
    app.use((_req, res) => void res.status(404).send("Not found"));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
  });
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await database.close();
  });

  const scrape = (authorization?: string) =>
    fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

  it("does not exist without METRICS_TOKEN, and refuses a scraper without the token", async () => {
    await serve(undefined);
    expect((await scrape(`Bearer ${token}`)).status).toBe(404);
    await new Promise((resolve) => server.close(resolve));

    await serve(token);
    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${token}`, `Bearer ${token}x`]) {
      const refused = await scrape(authorization);
      expect(refused.status, authorization).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(await refused.text()).not.toContain("kilele_");
    }
  });

  it("counts requests by route and status, and reads the seats held, the e-mails waiting and the live feed", async () => {
    await serve(token);
    const eventId = await insertEvent(database.db, { totalAvailableTickets: 10 }, clock.now());
    const deps = { db: database.db, payments: offlineProvider(database.db, clock), charity, clock };
    await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 3 });
    await startBooking(deps, { eventId, name: "Grace Kimaro", email: "grace@example.org", quantity: 2 });
    const queuedAt = new Date(clock.now().getTime() - 90_000);
    await queueMail(database.db, {
      kind: "booking-receipt",
      about: "one",
      message: { to: { name: "Amina Mushi", address: "amina@example.org" }, subject: "Receipt", text: "-", html: "-" },
      now: queuedAt,
    });
    connections = 4;
    for (const path of ["/about", "/about", "/about?from=home", "/nowhere"]) await fetch(`${base}${path}`);

    const answer = await scrape(`Bearer ${token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const text = await answer.text();
    expect(text).toContain('kilele_http_requests_total{route="/about",method="GET",status="200"} 3');
    expect(text).toContain('kilele_http_requests_total{route="other",method="GET",status="404"} 1');
    expect(text).toMatch(/kilele_http_request_duration_seconds_count\{route="\/about",method="GET"\} 3/);
    expect(text).toContain("kilele_seats_held 5");
    expect(text).toContain("kilele_outbox_unsent 1");
    expect(text).toContain("kilele_outbox_oldest_unsent_seconds 90");
    expect(text).toContain("kilele_live_feed_subscribers 4");
    expect(text).toContain("kilele_backup_last_success_age_seconds -1");
    // The process's own figures: memory and the event loop's delay.
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [\d.e-]+/m);
    // Nothing about a person: no names or addresses, only counts.
    expect(text).not.toMatch(/amina|grace|example\.org/i);
  });

  it("reads how long ago the last good backup was made", async () => {
    await serve(token);
    const finishedAt = new Date(clock.now().getTime() - 3 * 3600_000);
    await database.db.insert(backupRuns).values([
      { kind: "daily", startedAt: finishedAt, finishedAt, ok: true, file: "/backups/kilele-a.backup.gz", bytes: 1000 },
      // A later failure does not change the age of the last good one.
      { kind: "daily", startedAt: clock.now(), finishedAt: clock.now(), ok: false, error: "disk full" },
    ]);
    const text = await (await scrape(`Bearer ${token}`)).text();
    expect(text).toContain("kilele_backup_last_success_age_seconds 10800");
  });
});
