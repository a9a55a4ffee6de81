import type http from "node:http";
import type express from "express";
import type { ServerBuild } from "react-router";
import type { PageCacheMark, PublicCacheKind } from "~/infra/http/public-cache";
import { makePage, sendPage, sendResponse, writeKeptPage } from "./page-cache-answers";
import { cacheKey, isCandidate, PublicPages, requestUrl } from "./page-cache-paths";
import type { RouteTable } from "./route-table";
import {
  PageStore,
  pageCacheLimits,
  sameStamp,
  type CachedPage,
  type PageStoreSources,
  type Stamp,
} from "./page-cache-store";

// Public pages rendered once per change and kept with their compressed forms, so that a visitor's
// request for `/` is a lookup and a write (docs/decisions/035-public-pages-rendered-once.md).
//
// Only the public pages, for GET and HEAD, for a request without a staff session cookie and not a
// staff preview (page-cache-paths.ts); only a 200 whose route says `handle = { publicCache:
// "content" | "live" }` (app/entry.server.tsx), with no Set-Cookie. Kept while nothing it shows has
// changed (page-cache-store.ts); sent with its compressed forms and hashed policy (page-cache-answers.ts).

export interface PageCacheSources extends PageStoreSources {
  /**
   * The server build's routes: a path is a public page's when the route React Router matches for
   * it says `handle = { publicCache }` (docs/decisions/064-cached-pages-named-by-their-routes.md).
   */
  routes: ServerBuild["routes"];
  /** The same routes as the server matches them, when another part of it (the metrics) shares the table. */
  routeTable?: RouteTable;
  /**
   * The next moment a live page may change by the clock alone (a sale closing, a hold running
   * out): a live page is kept until then, at most `liveMaxMs`. Without it, at most `liveMs`.
   */
  nextTimedChange?: (now: Date) => Promise<Date | null>;
}

/**
 * Renders a page for the cache: `request` is a GET without a body, and the load context must say
 * `nonce: ""` (a kept page serves many responses, so it cannot carry one) and carry `mark`.
 */
export type PageRenderer = (
  request: Request,
  req: express.Request,
  res: express.Response,
  mark: PageCacheMark,
) => Promise<Response>;

export class PageCache {
  private readonly store: PageStore;
  private readonly pages: PublicPages;
  private readonly rendering = new Map<string, { stamp: Stamp; page: Promise<CachedPage | undefined> }>();
  /** Counters for operators and tests. */
  readonly counts: PageStore["counts"];

  constructor(
    private readonly sources: PageCacheSources,
    readonly limits: typeof pageCacheLimits = pageCacheLimits,
  ) {
    this.store = new PageStore(sources, limits);
    this.pages = new PublicPages(sources.routes, sources.routeTable);
    this.counts = this.store.counts;
  }

  start() {
    return this.store.start();
  }

  stop() {
    return this.store.stop();
  }

  /** How many pages are kept, with and without a query string, and the plain ones' bytes. */
  size() {
    return this.store.size();
  }

  /** Whether this request may be answered from, or fill, the cache now. */
  private takes(method: string | undefined, url: string | undefined, cookie: string | undefined) {
    return isCandidate(method, url, cookie, this.pages) && !this.sources.content.mayBeStale;
  }

  /**
   * The fast path, before Express (server/http.ts): answers a request from a kept page that has
   * been sent once through the site (so all its headers are known), with a single write. False
   * when it did not answer.
   */
  answer(req: http.IncomingMessage, res: http.ServerResponse, requestId: () => string): boolean {
    if (!this.takes(req.method, req.url, req.headers.cookie)) return false;
    const page = this.store.get(cacheKey(req));
    // A page due for a new render is answered through Express, which begins it.
    if (!page?.sent || this.sources.clock.now().getTime() >= page.refreshAt) return false;
    this.counts.hits++;
    writeKeptPage(req, res, page, page.sent, requestId());
    return true;
  }

  /**
   * Express middleware in front of the site: answers a public page from the cache, or renders it
   * (without a nonce: see `render`) and keeps it when it may. Any other request goes on to `next`.
   */
  middleware(render: PageRenderer): express.RequestHandler {
    return (req, res, next) => {
      if (!this.takes(req.method, req.originalUrl, req.headers.cookie)) return next();
      const url = requestUrl(req);
      const key = cacheKey(req);
      const kept = this.store.get(key);
      if (kept) {
        this.counts.hits++;
        sendPage(req, res, kept, "hit");
        if (this.sources.clock.now().getTime() >= kept.refreshAt) this.refresh(key, req, res, url, render);
        return;
      }
      // A HEAD is answered from a kept page only: it has no body to keep.
      if (req.method === "HEAD") return next();
      this.counts.misses++;
      const stamp = this.store.stamp();
      const inFlight = this.rendering.get(key);
      // Another request is rendering this page since the last change: its page will do for this one too.
      if (inFlight && sameStamp(inFlight.stamp, stamp)) {
        inFlight.page.then(
          (page) => (page ? sendPage(req, res, page, "hit") : next()),
          (error: unknown) => next(error),
        );
        return;
      }
      const rendered = this.renderPage(req, res, url, stamp, render);
      const page = rendered.then((r) => r.page);
      this.rendering.set(key, { stamp, page });
      void page.finally(() => {
        if (this.rendering.get(key)?.page === page) this.rendering.delete(key);
      });
      rendered.then(
        (r) => {
          if (r.page) {
            this.store.put(key, r.page);
            sendPage(req, res, r.page, "miss");
          } else sendResponse(res, r.response, r.body);
        },
        (error: unknown) => next(error),
      );
    };
  }

  /** Renders a live page again beside the one still served (once at a time), and keeps the new one. */
  private refresh(key: string, req: express.Request, res: express.Response, url: URL, render: PageRenderer) {
    const stamp = this.store.stamp();
    const inFlight = this.rendering.get(key);
    if (inFlight && sameStamp(inFlight.stamp, stamp)) return;
    const page = this.renderPage(req, res, url, stamp, render).then(
      (r) => {
        if (r.page) this.store.put(key, r.page);
        return r.page;
      },
      () => undefined,
    );
    this.rendering.set(key, { stamp, page });
    void page.finally(() => {
      if (this.rendering.get(key)?.page === page) this.rendering.delete(key);
    });
  }

  /** Until when a page rendered from `startedAt` is served, and from when a new one is rendered beside it. */
  private async lifetime(kind: PublicCacheKind, startedAt: number): Promise<{ expiresAt: number; refreshAt: number }> {
    if (kind === "content") return { expiresAt: Infinity, refreshAt: Infinity };
    if (!this.sources.nextTimedChange) {
      return { expiresAt: startedAt + this.limits.liveMs, refreshAt: startedAt + this.limits.liveRefreshMs };
    }
    const next = await this.sources.nextTimedChange(new Date(startedAt));
    const cap = startedAt + this.limits.liveMaxMs;
    return {
      expiresAt: Math.min(next?.getTime() ?? Infinity, cap),
      refreshAt: startedAt + this.limits.liveMaxMs / 2,
    };
  }

  private async renderPage(
    req: express.Request,
    res: express.Response,
    url: URL,
    stamp: Stamp,
    render: PageRenderer,
  ): Promise<{ page?: CachedPage; response: Response; body: Buffer }> {
    const startedAt = this.sources.clock.now().getTime();
    const mark: PageCacheMark = {};
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      else if (value !== undefined) headers.set(name, value);
    }
    const response = await render(new Request(url.href, { method: "GET", headers }), req, res, mark);
    const body = Buffer.from(await response.arrayBuffer());
    const kind = mark.kind;
    const keepable =
      kind !== undefined &&
      response.status === 200 &&
      /^text\/html\b/i.test(response.headers.get("Content-Type") ?? "") &&
      !response.headers.has("Set-Cookie") &&
      res.getHeader("Set-Cookie") === undefined &&
      !/no-store/i.test(response.headers.get("Cache-Control") ?? "");
    if (!keepable) return { response, body };
    const page = await makePage(response, body, kind, stamp, () => this.lifetime(kind, startedAt));
    return { page, response, body };
  }
}
