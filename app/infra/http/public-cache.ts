// What a public page says about being kept by the page cache (server/page-cache.ts,
// docs/decisions/035-public-pages-rendered-once.md).

/** What a page shows: only published content and settings, or also events and their live counts. */
export type PublicCacheKind = "content" | "live";

/** What a route module's `handle` says for its page to be kept. */
export interface PublicCacheHandle {
  publicCache?: PublicCacheKind;
}

/** What a route module's `handle` says its page may be kept as, if anything. */
export function publicCacheOf(handle: unknown): PublicCacheKind | undefined {
  return (handle as PublicCacheHandle | undefined)?.publicCache;
}

/** Filled in by the page's render (app/entry.server.tsx): what the matched route says. */
export interface PageCacheMark {
  kind?: PublicCacheKind;
}
