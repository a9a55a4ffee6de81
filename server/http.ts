import cluster from "node:cluster";
import http from "node:http";
import compression from "compression";
import express from "express";
import { logLine, loggedPath, newRequestId } from "../app/infra/log.server";
import type { Config } from "../app/infra/config.server";
import type { Site } from "./app.ts";
import { healthHandler } from "./health.ts";
import { serveLiveFeedFirst } from "./live-feed.ts";
import { bodyLimit, malformedPaths, pathOf, requestLog } from "./requests.ts";
import { sameOriginOnly } from "./same-origin.ts";

// The HTTP server around the site, the same in production and development: the health checks in
// front of everything, then the request log and body ceiling, compression, what the caller adds
// (security headers and static files, or Vite's development server), the same-origin rule for
// changes, the site, and a clean shutdown.

/** Start-up problems (a bad variable, a broken content file, no database) stop the process with their message. */
export function stopOnStartupError(error: Error): never {
  console.error(`The site could not start.\n${error.message}`);
  process.exit(1);
}

/** The line that says the site is up, and at what address (the tests and the benchmark wait for it). */
export function listeningLine(config: Config, port: number, how: string) {
  const demo =
    config.production && config.demoPayments
      ? "\nDemonstration payments: test cards only, no real money is charged (decision 028)."
      : "";
  return `Kilele Trust site listening at http://localhost:${port} (${how})${demo}`;
}

export function serveSite(
  site: Site,
  mode: "production" | "development",
  /** Middleware that runs before the site: security headers, then static files or Vite's. */
  before: express.RequestHandler[],
) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", site.config.trustProxy);
  const observe = site.metrics.observe.bind(site.metrics);
  app.use(requestLog(observe));
  app.use(malformedPaths());
  app.use(bodyLimit());
  app.use(compression());
  // For a scraper with METRICS_TOKEN: before the site, so never rate limited or cached.
  app.use(site.metrics.handler(site.config.metricsToken));
  for (const handler of before) app.use(handler);
  app.use(sameOriginOnly(site.config.publicUrl));
  let stopping = false;
  // While shutting down, no connection is kept alive for another request.
  app.use((_req, res, next) => {
    if (stopping) res.setHeader("Connection", "close");
    next();
  });
  app.use(site.handler);

  // A public page the site has rendered and kept (server/page-cache.ts) is answered before Express:
  // one lookup and one write, with the headers its first answer had and a line in the request log.
  function fromCache(req: http.IncomingMessage, res: http.ServerResponse) {
    const started = process.hrtime.bigint();
    let id = "";
    if (!site.pageCache.answer(req, res, () => (id = newRequestId()))) return false;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    logLine("info", {
      msg: "request",
      id,
      method: req.method,
      path: loggedPath(req.url ?? "/"),
      status: res.statusCode,
      ms: Math.round(seconds * 1e5) / 100,
    });
    observe(req.method ?? "GET", pathOf(req.url ?? "/"), res.statusCode, seconds);
    return true;
  }
  // The health checks come first: no cache, static file, session, limit or origin rule applies to them.
  const serveHealth = healthHandler({
    readiness: (shuttingDown) => site.readiness(shuttingDown),
    stopping: () => stopping,
    production: site.config.production,
  });
  const server = http.createServer((req, res) => {
    if (serveHealth(req, res)) return;
    if (!stopping && fromCache(req, res)) return;
    app(req, res);
  });
  // Behind a proxy (TRUST_PROXY), the proxy keeps its connections to the site open between requests
  // and sends the next request on one it believes open. If the site closes an idle connection at the
  // moment the proxy sends on it, the request is lost: a 502 for the visitor, not retried when it
  // is a POST such as a payment. The site therefore waits longer than proxies do: nginx and the
  // usual cloud load balancers close idle connections after 60 s, so the site waits 65 s. Browsers
  // talking to the site directly resend such a request themselves, and keep Node's 5 s.
  if (site.config.trustProxy > 0) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  server.listen(site.config.port, site.config.host ?? "0.0.0.0", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : site.config.port;
    // One of several processes (decision 047) says so; the first process says when all answer.
    const oneOf = process.env.SITE_PROCESS;
    if (cluster.isWorker && oneOf) console.log(`Process ${oneOf} (pid ${process.pid}) is answering on port ${port}.`);
    else console.log(listeningLine(site.config, port, mode));
  });
  serveLiveFeedFirst(server, site);

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then closing the database.`);
    // Requests in flight finish; idle keep-alive connections are closed now, stragglers after 10 s.
    const forceClose = setTimeout(() => server.closeAllConnections(), 10_000).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await site.drain();
    await closed;
    clearTimeout(forceClose);
    await site.close();
    console.log("Stopped cleanly.");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return server;
}
