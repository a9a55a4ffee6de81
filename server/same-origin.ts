import type { RequestHandler } from "express";

// Every request that can change something, from a browser, must come from the site's own pages
// (docs/decisions/053-one-origin-rule-for-every-change.md). The staff cookie is SameSite=Strict,
// but "site" is wider than this site: a sibling subdomain, or another port on the same host, is
// the same site to a browser and gets the cookie. And a visitor's form (volunteering) has no
// cookie at all, so a hostile page could make its visitors' browsers send it. So the rule is the
// origin, for every method but the reading ones, cookie or not, on every path.

const readingMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export const crossSiteMessage = "This form can only be sent from this site's own pages.";

/**
 * Why a request must be refused as sent from elsewhere, or undefined if it may go on. A browser
 * says where a request comes from with Sec-Fetch-Site, and with Origin on every POST (Referer when
 * an old one sends no Origin); a request that says neither is no browser's cross-site request (the
 * payment provider's webhook, a script with a staff token) and goes on to the route's own checks.
 */
export function crossSiteReason(
  method: string,
  headers: { origin?: string; referer?: string; secFetchSite?: string },
  /** The origins this site answers as: the request's own (Host and protocol) and PUBLIC_URL's. */
  ownOrigins: string[],
): string | undefined {
  if (readingMethods.has(method.toUpperCase())) return undefined;
  const fetchSite = headers.secFetchSite?.toLowerCase();
  if (fetchSite === "cross-site" || fetchSite === "same-site") return `Sec-Fetch-Site: ${fetchSite}`;
  const source = headers.origin ?? headers.referer;
  if (source === undefined) return undefined;
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    origin = "null";
  }
  return ownOrigins.includes(origin) ? undefined : `from ${origin === "null" ? "an opaque origin" : "another origin"}`;
}

/**
 * Refuses a state-changing request sent from another origin with 403, before any route reads it:
 * JSON under /api/, a short page elsewhere. The request log's line (status 403) is its record.
 */
export function sameOriginOnly(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    const reason = crossSiteReason(
      req.method,
      { origin: req.get("Origin"), referer: req.get("Referer"), secFetchSite: req.get("Sec-Fetch-Site") },
      [`${req.protocol}://${req.get("Host")}`, publicOrigin],
    );
    if (!reason) return next();
    res.locals.refused = `cross-site: ${reason}`;
    res.status(403).set("Cache-Control", "no-store");
    // The rest of the body is not read: the connection closes after the answer.
    res.set("Connection", "close");
    if (req.path.startsWith("/api/")) {
      res.json({ error: crossSiteMessage, code: "forbidden" });
      return;
    }
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Not sent</title></head>` +
          `<body><h1>Not sent</h1><p>${crossSiteMessage}</p><p><a href="/">Go to the home page</a></p></body></html>`,
      );
  };
}
