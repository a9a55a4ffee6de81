import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type http from "node:http";
import type express from "express";
import type { PublicCacheKind } from "~/infra/http/public-cache";
import type { CachedPage, Stamp } from "./page-cache-store";

// A kept page of the page cache (server/page-cache.ts): made once from a rendered response, with
// its compressed forms, its ETag and the hashes of its inline scripts, then sent as often as asked.

type Encoding = "br" | "gzip" | "identity";

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
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
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

function matchesEtag(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/** Response headers a kept page does not keep: they are the cache's to set, or never kept. */
const unkeptHeaders = new Set(["content-length", "content-encoding", "content-security-policy", "set-cookie", "etag"]);

/**
 * The page to keep from a rendered 200 HTML response: `body` with its compressed forms, served
 * for the `lifetime` asked once they are made.
 */
export async function makePage(
  response: Response,
  body: Buffer,
  kind: PublicCacheKind,
  stamp: Stamp,
  lifetime: () => Promise<Pick<CachedPage, "expiresAt" | "refreshAt">>,
): Promise<CachedPage> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        // A content page is made once per publish: the smallest form. A live page is made up to
        // twice a second: quality 6 is within 1% of 9's size, in a fraction of its time.
        [zlib.constants.BROTLI_PARAM_QUALITY]: kind === "live" ? 6 : 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  return {
    kind,
    stamp,
    ...(await lifetime()),
    headers: [...response.headers.entries()].filter(([name]) => !unkeptHeaders.has(name.toLowerCase())),
    scriptSources: inlineScriptSources(body.toString("utf8")).join(" "),
    etag: `"p-${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}`,
    identity: body,
    br,
    gzip: gz,
    bytes: body.length + br.length + gz.length,
  };
}

/**
 * Answers from a page sent once through the site, before Express (server/http.ts): its first
 * answer's headers for the encoding chosen, and a single write.
 */
export function writeKeptPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  page: CachedPage,
  sent: NonNullable<CachedPage["sent"]>,
  requestId: string,
) {
  const encoding = chooseEncoding(req.headers["accept-encoding"]);
  const headers = sent[encoding];
  res.setHeader("X-Request-Id", requestId);
  res.setHeader("X-Page-Cache", "hit");
  if (matchesEtag(req.headers["if-none-match"], String(headers.etag))) {
    const { "content-length": _length, "content-encoding": _encoding, ...rest } = headers;
    res.writeHead(304, rest).end();
    return;
  }
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : bodyOf(page, encoding));
}

function bodyOf(page: CachedPage, encoding: Encoding) {
  return encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
}

/** The policy for a page rendered without a nonce: the hashes of its own inline scripts. */
function setPolicy(res: express.Response, scriptSources: string) {
  const policy = res.locals.contentSecurityPolicy as ((sources: string) => string) | undefined;
  if (policy) res.setHeader("Content-Security-Policy", policy(scriptSources));
}

/** Sends a kept page through Express, and keeps the headers of its first answer for the fast path. */
export function sendPage(req: express.Request, res: express.Response, page: CachedPage, how: "hit" | "miss") {
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
  const body = bodyOf(page, encoding);
  // Set, the compression middleware passes the bytes through as they are.
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

function etagOf(page: CachedPage, encoding: Encoding) {
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
  const forEncoding = (encoding: Encoding) => ({
    ...common,
    etag: etagOf(page, encoding),
    ...(encoding !== "identity" && { "content-encoding": encoding }),
    "content-length": bodyOf(page, encoding).length,
  });
  return { br: forEncoding("br"), gzip: forEncoding("gzip"), identity: forEncoding("identity") };
}

/** A response rendered for the cache but not kept (a 404, a redirect): sent as the site would. */
export function sendResponse(res: express.Response, response: Response, body: Buffer) {
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
