import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type http from "node:http";
import type express from "express";
import { sessionCookieName } from "~/features/staff/staff.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { settingsChannel } from "~/infra/db/site-settings.server";
import { changesChannel } from "~/infra/live/changes.server";
import type { Clock } from "~/lib/clock";
import type { PageCacheMark, PublicCacheKind } from "~/infra/http/public-cache";

// Public pages rendered once per change and kept with their compressed forms, so that a visitor's
// request for `/` is a lookup and a write (docs/decisions/035-public-pages-rendered-once.md).
//
// Only the public pages, for GET and HEAD, for a request without a staff session cookie and not a
// staff preview; only a 200 whose route says `handle = { publicCache: "content" | "live" }`
// (app/entry.server.tsx), with no Set-Cookie. A kept page is valid while nothing it shows has
// changed: the published content (the content store's count of changes), the site's settings
// (announced on `settingsChannel`), and for pages with events and live counts every hold, sale,
// release and event change (announced on `changesChannel`) — each announced through the database,
// so a change in any process reaches every process's cache. A page with live counts is also kept
// at most `liveMs` by the site's clock: holds run out and sales close by time, unannounced.

/** The public pages' addresses, before any route is matched: the routes themselves have the last word. */
const publicPath = /^\/(?:about|contact|volunteering|fundraising|fundraising-event\/[^/]+|project\/[^/]+)?$/;

export const pageCacheLimits = {
  /** Bytes of pages (HTML and both compressed forms) kept for addresses without a query string. */
  maxBytes: 24 * 1024 * 1024,
  /**
   * Pages kept for addresses with a query string (`?utm_source=…`): any visitor can invent
   * endless ones, so they have a small pool of their own and cannot push the plain pages out.
   */
  maxQueried: 32,
  /**
   * How long a page with live counts is served at most, by the site's clock, from the moment its
   * render began: what it shows is never older than this.
   */
  liveMs: 1000,
  /**
   * From this age on, a live page still within `liveMs` is served while a new one is rendered
   * beside it, so visitors do not wait on the render each second.
   */
  liveRefreshMs: 500,
  /**
   * With `nextTimedChange`: the longest a live page is kept all the same, against a change by the
   * clock nobody foresaw; it is rendered again beside the one served from half of it.
   */
  liveMaxMs: 60_000,
};

interface Stamp {
  content: number;
  settings: number;
  live: number;
}

export interface CachedPage {
  kind: PublicCacheKind;
  stamp: Stamp;
  /** The site's clock, in ms, after which the page is no longer served (live pages). */
  expiresAt: number;
  /** The site's clock, in ms, after which a new render is begun while this page is still served. */
  refreshAt: number;
  headers: [string, string][];
  /** The script-src sources that vouch for the page's inline scripts: their SHA-256 hashes. */
  scriptSources: string;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  bytes: number;
  /**
   * Every header of the first answer made from this page, by encoding (the security headers and
   * the policy included, the request id not): what the fast path (`answer`) sends.
   */
  sent?: Record<"br" | "gzip" | "identity", http.OutgoingHttpHeaders>;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The CSP sources for every inline script in `html` (a script without `src`): `'sha256-…'` of its
 * text, as the browser hashes it. React escapes `</script` inside a script, so the first close
 * tag ends it.
 */
export function inlineScriptSources(html: string): string[] {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(` ${match[1]}`)) continue;
    sources.add(`'sha256-${crypto.createHash("sha256").update(match[2]!, "utf8").digest("base64")}'`);
  }
  return [...sources];
}

/** The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (wants("br")) return "br";
  if (wants("gzip")) return "gzip";
  return "identity";
}

/**
 * Whether a request may be answered from, or fill, the cache at all (before any rendering), from
 * its method, its address as sent (path and query) and its Cookie header.
 */
export function isCandidate(method: string | undefined, url: string | undefined, cookie: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  if (!url) return false;
  const queryAt = url.indexOf("?");
  if (!publicPath.test(queryAt === -1 ? url : url.slice(0, queryAt))) return false;
  // A member of staff (signed in or not quite) always gets a page of their own, and a preview of drafts is theirs.
  if (cookie !== undefined && hasCookie(cookie, sessionCookieName)) return false;
  if (queryAt !== -1 && /(?:^|&)preview/i.test(url.slice(queryAt + 1))) return false;
  return true;
}

function hasCookie(header: string, name: string) {
  return header.split(";").some((part) => part.trim().split("=")[0] === name);
}

/**
 * The cache's key for a request: everything the page's address is made from as it arrived (the
 * connection's protocol, the Host and forwarded headers, the path and query), so two requests
 * with one key are the same address to React Router (`requestUrl`) and get the same page, and a
 * hit needs no parsing at all.
 */
export function cacheKey(req: http.IncomingMessage): string {
  const h = req.headers;
  const tls = (req.socket as { encrypted?: boolean }).encrypted ? "s" : "";
  return `${tls}|${h.host ?? ""}|${String(h["x-forwarded-host"] ?? "")}|${String(h["x-forwarded-proto"] ?? "")}|${req.url ?? ""}`;
}

/** The address React Router sees for this request (as @react-router/express makes it). */
export function requestUrl(req: express.Request): URL {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find(Number.isSafeInteger) ?? "";
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/** Response headers a kept page does not keep: they are the cache's to set, or never kept. */
const unkeptHeaders = new Set(["content-length", "content-encoding", "content-security-policy", "set-cookie", "etag"]);

export interface PageCacheSources {
  database: Pick<DatabaseHandle, "listen">;
  /** The content store: its count of changes, and whether it must look for a missed publish first. */
  content: { readonly changes: number; readonly mayBeStale: boolean };
  clock: Clock;
  /**
   * The next moment a live page may change by the clock alone (a sale closing, a hold running
   * out): a live page is kept until then, at most `liveMaxMs`. Without it, at most `liveMs`.
   */
  nextTimedChange?: (now: Date) => Promise<Date | null>;
}

export class PageCache {
  private readonly plain = new Map<string, CachedPage>();
  private readonly queried = new Map<string, CachedPage>();
  private plainBytes = 0;
  private settings = 0;
  private live = 0;
  private readonly stops: (() => Promise<void>)[] = [];
  private readonly rendering = new Map<string, { stamp: Stamp; page: Promise<CachedPage | undefined> }>();
  /** Counters for operators and tests. */
  readonly counts = { hits: 0, misses: 0, stored: 0, evicted: 0 };

  constructor(
    private readonly sources: PageCacheSources,
    readonly limits: typeof pageCacheLimits = pageCacheLimits,
  ) {}

  async start() {
    this.stops.push(await this.sources.database.listen(changesChannel, () => this.live++));
    this.stops.push(await this.sources.database.listen(settingsChannel, () => this.settings++));
  }

  async stop() {
    for (const stop of this.stops.splice(0)) await stop();
  }

  /** What the pages rendered now are made from. */
  stamp(): Stamp {
    return { content: this.sources.content.changes, settings: this.settings, live: this.live };
  }

  private isCurrent(page: Pick<CachedPage, "kind" | "stamp">, now: number, expiresAt = Infinity) {
    const current = this.stamp();
    return (
      !this.sources.content.mayBeStale &&
      page.stamp.content === current.content &&
      page.stamp.settings === current.settings &&
      (page.kind !== "live" || page.stamp.live === current.live) &&
      now < expiresAt
    );
  }

  /** The page kept for `key`, if it is still what a render would give. */
  get(key: string): CachedPage | undefined {
    const pool = hasQuery(key) ? this.queried : this.plain;
    const page = pool.get(key);
    if (!page) return undefined;
    if (!this.isCurrent(page, this.sources.clock.now().getTime(), page.expiresAt)) {
      this.remove(pool, key);
      return undefined;
    }
    // Most recently used last: the first in the map is the first to go.
    pool.delete(key);
    pool.set(key, page);
    return page;
  }

  /** Keeps `page` for `key` unless something it shows changed while it was rendered. */
  put(key: string, page: CachedPage) {
    if (!this.isCurrent(page, this.sources.clock.now().getTime(), page.expiresAt)) return;
    const queried = hasQuery(key);
    const pool = queried ? this.queried : this.plain;
    this.remove(pool, key);
    if (!queried && page.bytes > this.limits.maxBytes) return;
    pool.set(key, page);
    this.counts.stored++;
    if (queried) {
      while (pool.size > this.limits.maxQueried) this.evictOldest(pool);
    } else {
      this.plainBytes += page.bytes;
      while (this.plainBytes > this.limits.maxBytes) this.evictOldest(pool);
    }
  }

  /** How many pages are kept, with and without a query string, and the plain ones' bytes. */
  size() {
    return { plain: this.plain.size, queried: this.queried.size, plainBytes: this.plainBytes };
  }

  private evictOldest(pool: Map<string, CachedPage>) {
    const oldest = pool.keys().next().value;
    if (oldest === undefined) return;
    this.remove(pool, oldest);
    this.counts.evicted++;
  }

  private remove(pool: Map<string, CachedPage>, key: string) {
    const page = pool.get(key);
    if (!page) return;
    pool.delete(key);
    if (pool === this.plain) this.plainBytes -= page.bytes;
  }

  /**
   * The fast path, before Express (server/http.ts): answers a request from a kept page that has
   * been sent once through the site (so all its headers are known), with a single write. False
   * when it did not answer.
   */
  answer(req: http.IncomingMessage, res: http.ServerResponse, requestId: () => string): boolean {
    if (!isCandidate(req.method, req.url, req.headers.cookie) || this.sources.content.mayBeStale) return false;
    const page = this.get(cacheKey(req));
    // A page due for a new render is answered through Express, which begins it.
    if (!page?.sent || this.sources.clock.now().getTime() >= page.refreshAt) return false;
    this.counts.hits++;
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    const headers = page.sent[encoding];
    res.setHeader("X-Request-Id", requestId());
    res.setHeader("X-Page-Cache", "hit");
    if (matchesEtag(req.headers["if-none-match"], String(headers.etag))) {
      const { "content-length": _length, "content-encoding": _encoding, ...rest } = headers;
      res.writeHead(304, rest).end();
      return true;
    }
    res.writeHead(200, headers);
    const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  /**
   * Express middleware in front of the site: answers a public page from the cache, or renders it
   * (without a nonce: see `render`) and keeps it when it may. Any other request goes on to `next`.
   */
  middleware(render: PageRenderer): express.RequestHandler {
    return (req, res, next) => {
      if (!isCandidate(req.method, req.originalUrl, req.headers.cookie) || this.sources.content.mayBeStale) {
        return next();
      }
      const url = requestUrl(req);
      const key = cacheKey(req);
      const kept = this.get(key);
      if (kept) {
        this.counts.hits++;
        sendPage(req, res, kept, "hit");
        if (this.sources.clock.now().getTime() >= kept.refreshAt) this.refresh(key, req, res, url, render);
        return;
      }
      // A HEAD is answered from a kept page only: it has no body to keep.
      if (req.method === "HEAD") return next();
      this.counts.misses++;
      const stamp = this.stamp();
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
            this.put(key, r.page);
            sendPage(req, res, r.page, "miss");
          } else sendResponse(res, r.response, r.body);
        },
        (error: unknown) => next(error),
      );
    };
  }

  /** Renders a live page again beside the one still served (once at a time), and keeps the new one. */
  private refresh(key: string, req: express.Request, res: express.Response, url: URL, render: PageRenderer) {
    const stamp = this.stamp();
    const inFlight = this.rendering.get(key);
    if (inFlight && sameStamp(inFlight.stamp, stamp)) return;
    const page = this.renderPage(req, res, url, stamp, render).then(
      (r) => {
        if (r.page) this.put(key, r.page);
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
    const keepable =
      mark.kind !== undefined &&
      response.status === 200 &&
      /^text\/html\b/i.test(response.headers.get("Content-Type") ?? "") &&
      !response.headers.has("Set-Cookie") &&
      res.getHeader("Set-Cookie") === undefined &&
      !/no-store/i.test(response.headers.get("Cache-Control") ?? "");
    if (!keepable) return { response, body };
    const html = body.toString("utf8");
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          // A content page is made once per publish: the smallest form. A live page is made up to
          // twice a second: quality 6 is within 1% of 9's size, in a fraction of its time.
          [zlib.constants.BROTLI_PARAM_QUALITY]: mark.kind === "live" ? 6 : 11,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: 9 }),
    ]);
    const page: CachedPage = {
      kind: mark.kind!,
      stamp,
      ...(await this.lifetime(mark.kind!, startedAt)),
      headers: [...response.headers.entries()].filter(([name]) => !unkeptHeaders.has(name.toLowerCase())),
      scriptSources: inlineScriptSources(html).join(" "),
      etag: `"p-${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}`,
      identity: body,
      br,
      gzip: gz,
      bytes: body.length + br.length + gz.length,
    };
    return { page, response, body };
  }
}

/** Whether a key's address has a query string (the address is its last part). */
function hasQuery(key: string) {
  return key.indexOf("?", key.lastIndexOf("|")) !== -1;
}

function sameStamp(a: Stamp, b: Stamp) {
  return a.content === b.content && a.settings === b.settings && a.live === b.live;
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

/** The policy for a page rendered without a nonce: the hashes of its own inline scripts. */
function setPolicy(res: express.Response, scriptSources: string) {
  const policy = res.locals.contentSecurityPolicy as ((sources: string) => string) | undefined;
  if (policy) res.setHeader("Content-Security-Policy", policy(scriptSources));
}

function sendPage(req: express.Request, res: express.Response, page: CachedPage, how: "hit" | "miss") {
  if (res.headersSent || res.destroyed) return;
  res.status(200);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  setPolicy(res, page.scriptSources);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("X-Page-Cache", how);
  const encoding = chooseEncoding(req.get("Accept-Encoding"));
  const etag = etagOf(page, encoding);
  res.setHeader("ETag", etag);
  page.sent ??= sentHeaders(res, page);
  if (matchesEtag(req.get("If-None-Match"), etag)) {
    res.status(304).end();
    return;
  }
  const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
  // Set, the compression middleware passes the bytes through as they are.
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

function etagOf(page: CachedPage, encoding: "br" | "gzip" | "identity") {
  return `${page.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
}

/** Headers that differ between answers of one page, or that a kept page must never repeat. */
const perAnswer = new Set([
  "x-request-id",
  "x-page-cache",
  "connection",
  "set-cookie",
  "etag",
  "content-encoding",
  "content-length",
]);

/** The headers this answer carries so far, for the fast path to send with every later one, by encoding. */
function sentHeaders(res: express.Response, page: CachedPage): CachedPage["sent"] {
  const common: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(res.getHeaders())) if (!perAnswer.has(name)) common[name] = value;
  const forEncoding = (encoding: "br" | "gzip" | "identity", body: Buffer) => ({
    ...common,
    etag: etagOf(page, encoding),
    ...(encoding !== "identity" && { "content-encoding": encoding }),
    "content-length": body.length,
  });
  return {
    br: forEncoding("br", page.br),
    gzip: forEncoding("gzip", page.gzip),
    identity: forEncoding("identity", page.identity),
  };
}

/** A response rendered for the cache but not kept (a 404, a redirect): sent as the site would. */
function sendResponse(res: express.Response, response: Response, body: Buffer) {
  if (res.headersSent || res.destroyed) return;
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) if (name !== "set-cookie") res.append(name, value);
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (/^text\/html\b/i.test(response.headers.get("Content-Type") ?? "")) {
    setPolicy(res, inlineScriptSources(body.toString("utf8")).join(" "));
  }
  res.removeHeader("Content-Length");
  res.end(body);
}
