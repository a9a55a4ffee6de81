import { createRequestHandler as createPageHandler } from "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { getConfig, type Config } from "../app/infra/config.server";
import type { AvailabilityFeed } from "../app/features/events/availability-feed.server";
import { nextTimedChange } from "../app/features/events/events.server";
import { servicesFor, type ContentPreview } from "./content-preview";
import type { PageCacheMark } from "~/infra/http/public-cache";
import { SiteMetrics } from "./metrics";
import { PageCache } from "./page-cache";
import { RouteTable } from "./route-table";
import type { ReadinessReport } from "./readiness";
import { createServices, type Services } from "./services";

declare module "react-router" {
  interface AppLoadContext {
    /** This response's Content-Security-Policy nonce, for React Router's inline scripts. */
    nonce: string;
    services: Services;
    /**
     * The visitor's address, for rate limits: the X-Forwarded-For entry the outermost of the
     * TRUST_PROXY proxies added, or the connection's own address when there are none.
     */
    clientAddress: string;
    /**
     * Puts why React Router refused the request (a POST to a page without an action) in its log
     * line (app/entry.server.tsx, handleError).
     */
    noteRefusal?: (reason: string) => void;
    /** Set when a member of staff previews drafts on a public page (server/content-preview.ts). */
    contentPreview?: ContentPreview;
    /**
     * Set when the page cache renders a public page it may keep (server/page-cache.ts): the render
     * says here whether the route allows it, and the page carries no nonce.
     */
    pageCache?: PageCacheMark;
  }
}

export interface Site {
  config: Config;
  handler: express.Express;
  /** The live availability feed, which server/live-feed.ts answers in front of `handler`. */
  liveFeed: AvailabilityFeed;
  /** Public pages kept once rendered, which server/http.ts answers in front of `handler`. */
  pageCache: PageCache;
  /** The figures GET /metrics shows, which server/http.ts counts every answered request into. */
  metrics: SiteMetrics;
  /** What `GET /readyz` reports (server/health.ts, answered in front of everything else). */
  readiness(stopping: boolean): Promise<ReadinessReport>;
  /** Ends long-lived responses (the live feed), so that the HTTP server can close. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The site as one Express handler. The production build bundles this file together with the
 * React Router app (server/production.ts), so both share one copy of the configuration and one
 * database connection.
 */
export async function startSite(): Promise<Site> {
  const config = getConfig();
  const services = await createServices(config);
  await services.start().catch(async (error: unknown) => {
    await services.close();
    throw error;
  });
  const handler = express();
  handler.disable("x-powered-by");
  handler.set("trust proxy", config.trustProxy);
  const mode = config.production ? "production" : "development";
  // In production the build is loaded once and its route table derived once; in development
  // it is asked for on every request, so that Vite's latest modules answer.
  const serverBuild = await import("virtual:react-router/server-build");
  const build = config.production ? serverBuild : () => import("virtual:react-router/server-build");
  const loadContext = async (req: express.Request, res: express.Response) => ({
    nonce: String(res.locals.cspNonce ?? ""),
    ...(await servicesFor(await services.forRequest(), req)),
    clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
    noteRefusal: (reason: string) => void (res.locals.refused = reason),
  });
  // The routes as the server matches them, read once: in development the cache keeps nothing (the
  // content files are watched, decision 035), so a route changed later cannot matter to it, and
  // the metrics name a new route only after a restart.
  const routeTable = new RouteTable(serverBuild.routes);
  const metrics = new SiteMetrics(routeTable, {
    db: services.db,
    now: () => services.clock.now(),
    liveFeedConnections: () => services.availability.connections,
  });
  // Public pages rendered once per change (docs/decisions/035-public-pages-rendered-once.md).
  const pageCache = new PageCache({
    routes: serverBuild.routes,
    routeTable,
    database: services,
    content: services.contentStore,
    clock: services.clock,
    nextTimedChange: (now) => nextTimedChange(services.db, now),
  });
  await pageCache.start();
  const renderPage = createPageHandler(build, mode);
  handler.use(
    pageCache.middleware(async (request, req, res, mark) =>
      renderPage(request, { ...(await loadContext(req, res)), nonce: "", pageCache: mark }),
    ),
  );
  handler.use(createRequestHandler({ mode, build, getLoadContext: loadContext }));
  return {
    config,
    handler,
    liveFeed: services.availability,
    pageCache,
    metrics,
    readiness: (stopping) => services.readiness.report(stopping),
    drain: () => services.drain(),
    async close() {
      await pageCache.stop();
      await services.close();
    },
  };
}
