import cluster from "node:cluster";
import crypto from "node:crypto";
import type express from "express";
import client from "prom-client";
import { backupStatus } from "~/infra/db/automatic-backups.server";
import { seatsHeldNow } from "~/infra/db/seats.server";
import type { Queryable } from "~/infra/db/database.server";
import { outboxBacklog } from "~/infra/email/outbox.server";
import { askFirstProcess } from "./metrics-processes";
import type { RouteTable } from "./route-table";

// GET /metrics: the site's figures in Prometheus' text format, for a scraper that sends
// METRICS_TOKEN (docs/operations.md, "What to watch"). Requests by route and status with their
// durations, the process (memory, event-loop delay, from prom-client's defaults), the live feed's
// subscribers, the seats held, the e-mails waiting. With several processes (SITE_PROCESSES) the
// process that is asked gathers every process's figures through the first one (prom-client's
// AggregatorRegistry), so one scrape sees the whole site.

/** Where the figures that live in the database come from, read at each scrape. */
export interface MetricsSources {
  db: Queryable;
  now(): Date;
  liveFeedConnections(): number;
}

/** The label of a request no route answered: a static file, or a page that does not exist. */
const noRoute = "other";

export class SiteMetrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<"route" | "method" | "status">;
  private readonly durations: client.Histogram<"route" | "method">;

  constructor(
    private readonly routes: RouteTable,
    sources: MetricsSources,
  ) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.requests = new client.Counter({
      name: "kilele_http_requests_total",
      help: "Requests answered, by route pattern, method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    });
    this.durations = new client.Histogram({
      name: "kilele_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route pattern and method.",
      labelNames: ["route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new client.Gauge({
      name: "kilele_live_feed_subscribers",
      help: "Visitors' pages following seat availability live.",
      registers,
      collect() {
        this.set(sources.liveFeedConnections());
      },
    });
    // The database's figures are the same whichever process reads them: with several processes,
    // the largest of their readings, not their sum.
    new client.Gauge({
      name: "kilele_seats_held",
      help: "Seats held in checkouts not yet paid, across every event.",
      aggregator: "max",
      registers,
      async collect() {
        this.set(await seatsHeldNow(sources.db, sources.now()));
      },
    });
    new client.Gauge({
      name: "kilele_outbox_unsent",
      help: "E-mails queued and not yet sent (receipts, refunds, invitations).",
      aggregator: "max",
      registers,
      async collect() {
        this.set((await outboxBacklog(sources.db)).unsent);
      },
    });
    new client.Gauge({
      name: "kilele_outbox_oldest_unsent_seconds",
      help: "How long the oldest unsent e-mail has waited; 0 when none waits.",
      aggregator: "max",
      registers,
      async collect() {
        const { oldestQueuedAt } = await outboxBacklog(sources.db);
        const waited = oldestQueuedAt ? (sources.now().getTime() - oldestQueuedAt.getTime()) / 1000 : 0;
        this.set(Math.max(0, waited));
      },
    });
    new client.Gauge({
      name: "kilele_backup_last_success_age_seconds",
      help: "How long ago the last good backup (made by the site, BACKUP_DIR) finished; -1 when there is none.",
      aggregator: "max",
      registers,
      async collect() {
        const { lastGood } = await backupStatus(sources.db);
        this.set(lastGood ? Math.max(0, (sources.now().getTime() - lastGood.at.getTime()) / 1000) : -1);
      },
    });
    if (cluster.isWorker) {
      // The first process asks each process for its figures (prom-client's own messages).
      client.AggregatorRegistry.setRegistries([this.registry]);
      new client.AggregatorRegistry();
    }
  }

  /** Counts a request once it is answered: `path` without its query string. */
  observe(method: string, path: string, status: number, seconds: number) {
    const route = this.routeOf(path);
    this.requests.inc({ route, method, status: String(status) });
    this.durations.observe({ route, method }, seconds);
  }

  /**
   * The route pattern a path is counted under: a bounded set of names, never the path itself
   * (every booking's address would be a series of its own). A page's data request (`.data`)
   * counts as its page.
   */
  routeOf(path: string): string {
    const page = path === "/_root.data" ? "/" : path.endsWith(".data") ? path.slice(0, -".data".length) : path;
    const match = this.routes.match(page);
    return match && match.pattern !== "/*" ? match.pattern : noRoute;
  }

  /** This process's figures, or, one of several, every process's together. */
  async text(): Promise<string> {
    if (!cluster.isWorker || !process.send) return this.registry.metrics();
    return askFirstProcess();
  }

  /**
   * GET /metrics for a scraper holding the token: 404 when no token is configured (the address
   * does not exist), 401 without the right one. Never cached, never rate limited.
   */
  handler(token: string | undefined): express.RequestHandler {
    const expected = token ? digest(token) : undefined;
    return (req, res, next) => {
      if (req.path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) return next();
      if (!expected) return next();
      res.setHeader("Cache-Control", "no-store");
      const given = /^Bearer (\S+)$/.exec(req.get("authorization") ?? "")?.[1];
      if (!given || !crypto.timingSafeEqual(digest(given), expected)) {
        res.locals.refused = "a request for /metrics without its token";
        res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
        res
          .status(401)
          .type("text/plain")
          .send("The metrics need the token the site was started with (METRICS_TOKEN).");
        return;
      }
      this.text().then(
        (text) => res.type(this.registry.contentType).send(text),
        (error: Error) => {
          res.status(503).type("text/plain").send(`The metrics could not be gathered: ${error.message}`);
        },
      );
    };
  }
}

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
