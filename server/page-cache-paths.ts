import type http from "node:http";
import type express from "express";
import { sessionCookieName } from "~/features/staff/staff.server";

// Which requests the page cache (server/page-cache.ts) takes, and the key it keeps their page under.

/** The public pages' addresses, before any route is matched: the routes themselves have the last word. */
const publicPath = /^\/(?:about|contact|volunteering|fundraising|fundraising-event\/[^/]+|project\/[^/]+)?$/;

/**
 * Whether a request may be answered from, or fill, the cache at all (before any rendering), from
 * its method, its address as sent (path and query) and its Cookie header: a GET or HEAD of a
 * public page, without the staff session cookie and not a preview.
 */
export function isCandidate(method: string | undefined, url: string | undefined, cookie: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  if (!url) return false;
  const queryAt = url.indexOf("?");
  // A member of staff (signed in or not quite) always gets a page of their own, and a preview of drafts is theirs.
  if (cookie !== undefined && hasCookie(cookie, sessionCookieName)) return false;
  if (queryAt !== -1 && /(?:^|&)preview/i.test(url.slice(queryAt + 1))) return false;
  return publicPath.test(queryAt === -1 ? url : url.slice(0, queryAt));
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
