import type http from "node:http";
import type express from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { sessionCookieName } from "~/features/staff/staff.server";
import { publicCacheOf, type PublicCacheKind } from "~/infra/http/public-cache";

// Which requests the page cache (server/page-cache.ts) takes, and the key it keeps their page
// under. The public pages are the routes whose module says `handle = { publicCache }`, read from
// the server build's routes (docs/decisions/064-cached-pages-named-by-their-routes.md).

/** A route as the page cache matches it: React Router's path and nesting, and what its handle says. */
type CacheRoute = RouteObject & { kind?: PublicCacheKind };

/** Characters of paths `PublicPages` remembers, at most, before it forgets them all. */
const rememberedChars = 256 * 1024;

/**
 * The public pages, named by their routes: what a request's path may be kept as, if anything. The
 * route is matched as React Router matches it (`matchRoutes`), over the routes the server renders
 * with; the page's render then has the last word (app/entry.server.tsx reads the same handle).
 */
export class PublicPages {
  private readonly routes: CacheRoute[];
  /** Paths already matched: React Router flattens and ranks every route on each match (about 1 ms). */
  private readonly known = new Map<string, PublicCacheKind | null>();
  private knownChars = 0;

  constructor(routes: ServerBuild["routes"]) {
    const childrenOf = (parentId: string | undefined): CacheRoute[] =>
      Object.values(routes).flatMap((route): CacheRoute[] => {
        if (!route || route.parentId !== parentId) return [];
        const kind = publicCacheOf(route.module.handle);
        if (route.index) return [{ index: true, caseSensitive: true, kind }];
        const children = childrenOf(route.id);
        return [{ path: route.path, caseSensitive: true, kind, ...(children.length > 0 && { children }) }];
      });
    this.routes = childrenOf(undefined);
  }

  /**
   * What the page at `path` (no query string) may be kept as. Only an address written as its
   * route writes it: React Router also answers `/About`, `/about/` and `/%61bout` with the about
   * page, but each would be a key of its own in the plain pool, so anyone could push the kept
   * pages out by inventing spellings. So the path is matched letter for letter (its `%` escaped,
   * so that nothing is decoded; the routes case-sensitive) and must be all of what matched.
   */
  kindOf(path: string): PublicCacheKind | undefined {
    const known = this.known.get(path);
    if (known !== undefined) return known ?? undefined;
    const leaf = matchRoutes(this.routes, { pathname: path.replaceAll("%", "%25") })?.at(-1);
    const kind = leaf && leaf.pathnameBase === path ? leaf.route.kind : undefined;
    if (this.knownChars + path.length > rememberedChars) {
      this.known.clear();
      this.knownChars = 0;
    }
    this.known.set(path, kind ?? null);
    this.knownChars += path.length;
    return kind;
  }
}

/**
 * Whether a request may be answered from, or fill, the cache at all (before any rendering), from
 * its method, its address as sent (path and query) and its Cookie header: a GET or HEAD of a
 * public page, without the staff session cookie and not a preview.
 */
export function isCandidate(
  method: string | undefined,
  url: string | undefined,
  cookie: string | undefined,
  pages: PublicPages,
): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  if (!url) return false;
  const queryAt = url.indexOf("?");
  // A member of staff (signed in or not quite) always gets a page of their own, and a preview of drafts is theirs.
  if (cookie !== undefined && hasCookie(cookie, sessionCookieName)) return false;
  if (queryAt !== -1 && /(?:^|&)preview/i.test(url.slice(queryAt + 1))) return false;
  return pages.kindOf(queryAt === -1 ? url : url.slice(0, queryAt)) !== undefined;
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
