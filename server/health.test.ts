import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { events } from "~db/schema";
import { parseConfig } from "../app/infra/config.server";
import { openDatabase, type DatabaseHandle } from "../app/infra/db/database.server";
import { committedMigrations } from "../app/infra/db/migrations.server";
import { systemClock } from "../app/lib/clock";
import { createPostgresDatabase, engines, freshDatabase } from "../tests/support/databases";
import { TcpProxy } from "../tests/support/tcp-proxy";
import { healthHandler, type HealthOptions } from "./health";
import { Readiness, type ReadinessReport } from "./readiness";
import { createServices, type SiteServices } from "./services";

// The health checks (docs/decisions/065-health-and-safe-migrations.md): /healthz says the process
// answers, /readyz whether it can serve requests now; both in front of everything else.

/** An HTTP server as server/http.ts builds it: the health checks first, then "the site" (which says 404 here, or what `site` answers). */
async function serve(options: HealthOptions, site?: http.RequestListener) {
  const serveHealth = healthHandler(options);
  const server = http.createServer((req, res) => {
    if (serveHealth(req, res)) return;
    if (site) return site(req, res);
    res.writeHead(404, { "X-Site": "yes" }).end("the site");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const readyReport: ReadinessReport = {
  ready: true,
  checks: {
    database: { ok: true, reason: "answered in 1 ms" },
    migrations: { ok: true, reason: `all ${committedMigrations().length} applied` },
    outbox: { ok: true, reason: "ran 2 s ago" },
    holdSweeper: { ok: true, reason: "ran 1 s ago" },
    shutdown: { ok: true, reason: "running" },
  },
};

describe("the health checks' answers", () => {
  const servers: { close(): Promise<void> }[] = [];
  let lines: string[];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const server of servers.splice(0)) await server.close();
  });
  async function site(readiness: HealthOptions["readiness"], stopping = false) {
    lines = [];
    vi.spyOn(console, "log").mockImplementation((text) => void lines.push(String(text)));
    const server = await serve({ readiness, stopping: () => stopping, production: true });
    servers.push(server);
    return server.url;
  }

  it("/healthz says the process answers, without asking anything else, never to be kept", async () => {
    const readiness = vi.fn(() => new Promise<ReadinessReport>(() => {}));
    const url = await site(readiness);
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get("strict-transport-security")).toContain("max-age=31536000");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9A-F]{16}$/);
    // With a query string (some monitors add one), and as HEAD.
    expect((await fetch(`${url}/healthz?from=monitor`)).status).toBe(200);
    const head = await fetch(`${url}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(readiness).not.toHaveBeenCalled();
    // One line in the request log each, as every request has.
    await vi.waitFor(() => expect(lines.length).toBe(3));
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "request", method: "GET", path: "/healthz", status: 200 });
  });

  it("/readyz says 200 with each check when ready, 503 when not, and 503 if the report itself fails", async () => {
    let report = () => Promise.resolve(readyReport);
    const url = await site(() => report());
    let response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ready", checks: readyReport.checks });

    const notReady = {
      ready: false,
      checks: { ...readyReport.checks, database: { ok: false, reason: "did not answer within 1 s" } },
    };
    report = () => Promise.resolve(notReady);
    response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "not ready", checks: notReady.checks });

    report = () => Promise.reject(new Error("boom"));
    response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "not ready" });
  });

  it("take GET and HEAD only, never a body, and leave every other address to the site", async () => {
    const url = await site(() => Promise.resolve(readyReport));
    const post = await fetch(`${url}/readyz`, { method: "POST", headers: { Origin: "https://elsewhere.example" } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const withBody = await fetch(`${url}/healthz`, { method: "POST", body: "x".repeat(100) });
    expect(withBody.status).toBe(413);
    for (const other of ["/healthz/", "/readyz/x", "/healthzz", "/Healthz", "/api/healthz"]) {
      const response = await fetch(`${url}${other}`);
      expect(response.headers.get("x-site"), other).toBe("yes");
    }
  });

  it("while shutting down, /readyz is asked as such and the connection is not kept", async () => {
    const readiness = vi.fn((stopping: boolean) =>
      Promise.resolve({
        ready: !stopping,
        checks: { ...readyReport.checks, shutdown: { ok: !stopping, reason: stopping ? "shutting down" : "running" } },
      }),
    );
    const url = await site(readiness, true);
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get("connection")).toBe("close");
    expect(readiness).toHaveBeenCalledWith(true);
    expect(((await response.json()) as ReadinessReport).checks.shutdown).toEqual({
      ok: false,
      reason: "shutting down",
    });
  });
});

describe.each(engines)("readiness on %s", (engine) => {
  let opened: DatabaseHandle | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  const open = async () => (opened = await freshDatabase(engine));

  it("is ready when the database answers, its migrations are this version's, the work has run and the process is not stopping", async () => {
    const database = await open();
    let now = 1_000_000;
    const outbox = { lastActive: now - 5_000 };
    const holdSweeper = { lastActive: now - 1_000 };
    const readiness = new Readiness({ database, outbox, holdSweeper, now: () => now });
    const report = await readiness.report(false);
    expect(report.ready).toBe(true);
    expect(report.checks).toEqual({
      database: { ok: true, reason: expect.stringMatching(/^answered in \d+ ms$/) },
      migrations: { ok: true, reason: `all ${committedMigrations().length} applied` },
      outbox: { ok: true, reason: "ran 5 s ago" },
      holdSweeper: { ok: true, reason: "ran 1 s ago" },
      shutdown: { ok: true, reason: "running" },
    });

    // A minute and a bit later, with the outbox stuck and the sweeper still going.
    now += 61_000;
    holdSweeper.lastActive = now - 2_000;
    const stale = await readiness.report(false);
    expect(stale.ready).toBe(false);
    expect(stale.checks.outbox).toEqual({ ok: false, reason: "last ran 66 s ago" });
    expect(stale.checks.holdSweeper.ok).toBe(true);

    const stopping = await new Readiness({ database, outbox: holdSweeper, holdSweeper, now: () => now }).report(true);
    expect(stopping.ready).toBe(false);
    expect(stopping.checks.shutdown).toEqual({ ok: false, reason: "shutting down" });
    expect(stopping.checks.outbox.ok).toBe(true);
  });

  it("is not ready before the background work first runs", async () => {
    const database = await open();
    const report = await new Readiness({
      database,
      outbox: { lastActive: undefined },
      holdSweeper: { lastActive: performance.now() },
    }).report(false);
    expect(report.ready).toBe(false);
    expect(report.checks.outbox).toEqual({ ok: false, reason: "has not run" });
  });

  it("is not ready when the database's migrations are not exactly this version's", async () => {
    const database = await open();
    const heartbeat = { lastActive: performance.now() };
    const committed = committedMigrations();
    const newer = [...committed, { ...committed.at(-1)!, tag: "0099_next", when: committed.at(-1)!.when + 1 }];
    const behind = await new Readiness({
      database,
      outbox: heartbeat,
      holdSweeper: heartbeat,
      migrations: newer,
    }).report(false);
    expect(behind.ready).toBe(false);
    expect(behind.checks.migrations).toEqual({ ok: false, reason: "1 not applied (0099_next)" });
    // An older version's process on a database a newer one has migrated.
    const older = await new Readiness({
      database,
      outbox: heartbeat,
      holdSweeper: heartbeat,
      migrations: committed.slice(0, -2),
    }).report(false);
    expect(older.checks.migrations).toEqual({ ok: false, reason: "2 applied that this version does not have" });
    expect(older.checks.database.ok).toBe(true);
  });

  it("is not ready, saying only that, when the database does not answer; checks arriving together share one question", async () => {
    const heartbeat = { lastActive: performance.now() };
    let questions = 0;
    const silent = {
      appliedMigrations: (timeoutMs: number) => {
        questions++;
        return new Promise<number[]>((_resolve, reject) =>
          setTimeout(
            () => reject(Object.assign(new Error("no answer from db.internal:5432"), { code: "ETIMEDOUT" })),
            Math.min(timeoutMs, 50),
          ),
        );
      },
    };
    const readiness = new Readiness({ database: silent, outbox: heartbeat, holdSweeper: heartbeat });
    const reports = await Promise.all([readiness.report(false), readiness.report(false), readiness.report(false)]);
    expect(questions).toBe(1);
    expect(reports[0]!.checks.database).toEqual({ ok: false, reason: "did not answer within 1 s" });
    expect(reports[0]!.checks.migrations).toEqual({ ok: false, reason: "not checked: the database did not answer" });
    expect(JSON.stringify(reports)).not.toContain("db.internal");
  });
});

// The behaviour the issue asks for: "/readyz answers 503 within 2 s when PostgreSQL is stopped, and
// 200 again within 5 s after it returns, without restarting the site". The site's services reach
// the shared PostgreSQL server through a TCP proxy this test cuts and restores.
describe.runIf(engines.includes("postgres"))("readiness when PostgreSQL goes away and comes back", () => {
  it("answers 503 within 2 s of losing it and 200 within 5 s of its return, and the site's own queries work again", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    const { url, drop } = await createPostgresDatabase({ migrated: true });
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-readyz-"));
    let services: SiteServices | undefined;
    let server: { url: string; close(): Promise<void> } | undefined;
    try {
      const proxied = proxy.through(url);
      const config = parseConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        SAMPLE_EVENTS: "false",
        DATABASE_URL: proxied,
      });
      services = await createServices(config, systemClock, await openDatabase({ url: proxied }));
      await services.start();
      const site = services;
      server = await serve(
        { readiness: (stopping) => site.readiness.report(stopping), stopping: () => false, production: false },
        // A request that needs the site's own pool of connections.
        (_req, res) => {
          site.db.$count(events).then(
            (count) => res.writeHead(200).end(String(count)),
            () => res.writeHead(500).end(),
          );
        },
      );
      const get = async (address: string) => {
        const started = performance.now();
        const response = await fetch(`${server!.url}${address}`);
        const body = await response.text();
        return { status: response.status, body, ms: Math.round(performance.now() - started) };
      };
      /** Asks `address` every 100 ms until it answers `status`; how long that took from `since`. */
      const until = async (address: string, status: number, since: number) => {
        for (;;) {
          const answer = await get(address);
          if (answer.status === status) return Math.round(performance.now() - since);
          if (performance.now() - since > 10_000) throw new Error(`${address} still ${answer.status}: ${answer.body}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };

      expect(await get("/readyz")).toMatchObject({ status: 200 });
      expect(await get("/count")).toMatchObject({ status: 200, body: "0" });

      for (const outage of ["cut", "stall"] as const) {
        // PostgreSQL goes away: its connections die and new ones are refused, or (stall) nothing
        // passes at all and only the checks' own time limit ends the wait.
        if (outage === "cut") proxy.cut();
        else proxy.stall();
        const lost = await get("/readyz");
        expect(lost.status, outage).toBe(503);
        expect(lost.ms, outage).toBeLessThan(2_000);
        const checks = (JSON.parse(lost.body) as { checks: ReadinessReport["checks"] }).checks;
        expect(checks.database.ok, outage).toBe(false);
        expect(checks.outbox.ok, outage).toBe(true);
        // /healthz needs no database.
        expect(await get("/healthz"), outage).toMatchObject({ status: 200 });

        const returned = performance.now();
        proxy.restore();
        const readyAfter = await until("/readyz", 200, returned);
        expect(readyAfter, outage).toBeLessThan(5_000);
        // The site's pool of connections recovered by itself: no restart.
        const countAfter = await until("/count", 200, returned);
        expect(countAfter, outage).toBeLessThan(5_000);
        console.info(
          `PostgreSQL ${outage}: /readyz said 503 in ${lost.ms} ms; after it returned, 200 in ${readyAfter} ms, the site's queries in ${countAfter} ms`,
        );
      }
    } finally {
      await server?.close();
      await services?.drain();
      await services?.close();
      await proxy.close();
      await drop();
      await fs.rm(dataDir, { recursive: true, force: true });
      vi.restoreAllMocks();
    }
  });
});
