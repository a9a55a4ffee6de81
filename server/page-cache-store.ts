import type http from "node:http";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { settingsChannel } from "~/infra/db/site-settings.server";
import { changesChannel } from "~/infra/live/changes.server";
import type { Clock } from "~/lib/clock";
import type { PublicCacheKind } from "~/infra/http/public-cache";

// Where the page cache (server/page-cache.ts) keeps its pages, and when a kept page is still what
// a render would give. A kept page is valid while nothing it shows has changed: the published
// content (the content store's count of changes), the site's settings (announced on
// `settingsChannel`), and for pages with events and live counts every hold, sale, release and
// event change (announced on `changesChannel`) — each announced through the database, so a change
// in any process reaches every process's cache. A page with live counts is also kept at most
// until its `expiresAt` by the site's clock: holds run out and sales close by time, unannounced.

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

/** What the pages rendered at one moment are made from: a count of the changes to each. */
export interface Stamp {
  content: number;
  settings: number;
  live: number;
}

export function sameStamp(a: Stamp, b: Stamp) {
  return a.content === b.content && a.settings === b.settings && a.live === b.live;
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

/** What tells the store that something a kept page shows has changed. */
export interface PageStoreSources {
  database: Pick<DatabaseHandle, "listen">;
  /** The content store: its count of changes, and whether it must look for a missed publish first. */
  content: { readonly changes: number; readonly mayBeStale: boolean };
  clock: Clock;
}

/** Whether a key's address has a query string (the address is its last part: `cacheKey`). */
function hasQuery(key: string) {
  return key.indexOf("?", key.lastIndexOf("|")) !== -1;
}

/**
 * The kept pages by key, in two pools: addresses without a query string, bounded by bytes, and
 * addresses with one, bounded by count. The least recently used goes first in each.
 */
export class PageStore {
  private readonly plain = new Map<string, CachedPage>();
  private readonly queried = new Map<string, CachedPage>();
  private plainBytes = 0;
  private settings = 0;
  private live = 0;
  private readonly stops: (() => Promise<void>)[] = [];
  /** Counters for operators and tests (hits and misses are the page cache's to count). */
  readonly counts = { hits: 0, misses: 0, stored: 0, evicted: 0 };

  constructor(
    private readonly sources: PageStoreSources,
    readonly limits: typeof pageCacheLimits,
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
}
