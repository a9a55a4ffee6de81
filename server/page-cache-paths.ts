import type http from "node:http";
import type express from "express";
import type { ServerBuild } from "react-router";
import { sessionCookieName } from "~/features/staff/staff.server";
import { publicCacheOf, type PublicCacheKind } from "~/infra/http/public-cache";
import { RouteTable } from "./route-table";

// Which requests the page cache (server/page-cache.ts) takes, and the key it keeps their page
// under. The public pages are the routes whose module says `handle = { publicCache }`, read from
// the server build's routes (docs/decisions/064-cached-pages-named-by-their-routes.md).

/**
 * The public pages, named by their routes: what a request's path may be kept as, if anything. The
 * route is matched as React Router matches it, over the routes the server renders with
 * (server/route-table.ts); the page's render then has the last word (app/entry.server.tsx reads
 * the same handle).
 */
export class PublicPages {
  private readonly kinds = new Map<string, PublicCacheKind>();

  constructor(
    routes: ServerBuild["routes"],
    private readonly table = new RouteTable(routes),
  ) {
    for (const route of Object.values(routes)) {
      const kind = route && publicCacheOf(route.module.handle);
      if (route && kind) this.kinds.set(route.id, kind);
    }
  }

  /**
   * What the page at `path` (no query string) may be kept as. Only an address written as its
   * route writes it: React Router also answers `/About`, `/about/` and `/%61bout` with the about
   * page, but each would be a key of its own in the plain pool, so anyone could push the kept
   * pages out by inventing spellings. So the path must be all of what matched, letter for letter.
   */
  kindOf(path: string): PublicCacheKind | undefined {
    const match = this.table.match(path);
    return match?.whole ? this.kinds.get(match.id) : undefined;
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
