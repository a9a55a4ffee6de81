import type { Request, RequestHandler, Response } from "express";
import { bodyLimitFor, bodyLimits, bodyTooLarge } from "../app/infra/http/body-limits.server";
import { logLine, loggedPath, newRequestId, withRequest } from "../app/infra/log.server";
import type { AppError, ApiError } from "../app/lib/errors";

// What every request goes through before the site (docs/decisions/024-bad-input.md): an id and a
// line in the log, and a ceiling on the size of its body.

/** Told of each request once it is answered (the metrics): its path has no query string. */
export type AnsweredRequest = (method: string, path: string, status: number, seconds: number) => void;

/** A request's path as it arrived, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Gives each request an id (sent back as X-Request-Id), runs it with that id so that any error it
 * logs carries it, and logs one JSON line when it is answered: id, method, path (no query
 * string), status and milliseconds. A request the visitor gave up on is logged with status 499.
 */
export function requestLog(observe?: AnsweredRequest): RequestHandler {
  return (req, res, next) => {
    const id = newRequestId();
    const started = process.hrtime.bigint();
    res.setHeader("X-Request-Id", id);
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const status = res.writableFinished ? res.statusCode : 499;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      logLine("info", {
        msg: "request",
        id,
        method: req.method,
        path: loggedPath(req.originalUrl),
        status,
        // Why the site refused it before any route saw it (server/same-origin.ts), when it did.
        ...(typeof res.locals.refused === "string" && { refused: res.locals.refused }),
        ms: Math.round(seconds * 1e5) / 100,
      });
      observe?.(req.method, pathOf(req.originalUrl), status, seconds);
    };
    res.once("finish", log);
    res.once("close", log);
    withRequest({ id }, next);
  };
}

/**
 * Answers 400 to a path that is not valid percent-encoding (`/admin/bookings/%E0%A4%A`): no route
 * could read its parameters, and React Router would write a warning quoting the whole path to
 * standard error for each one, which any stranger could fill (decision 059).
 */
export function malformedPaths(): RequestHandler {
  return (req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      res.locals.refused = "a path that is not valid percent-encoding";
      res.status(400).set("Cache-Control", "no-store");
      const message = "This address cannot be read: a % in it is not followed by a valid character code.";
      if (req.path.startsWith("/api/")) res.json({ error: message, code: "invalid" });
      else res.type("text/plain").send(message);
      return;
    }
    next();
  };
}

/**
 * The most a request's body may declare, by path: the limit its route reads its body with
 * (app/infra/http/body-limits.server.ts), `bodyLimits.form` for a path whose route reads none. Each
 * route's own reader refuses past the same limit; this backstop refuses before the site sees the
 * request, so a route that forgets its reader still cannot be sent a large declared body.
 */
export function bodyCeiling(path: string) {
  return bodyLimits[bodyLimitFor(path)];
}

/**
 * Refuses a body that declares more than its path's ceiling with 413, unread, in the words of the
 * route it was sent to: JSON on /api, the message alone for a page's `.data` request (its error
 * page shows it), a page of its own for a form posted without JavaScript. Closes the connection
 * after every 413 (the site's own too), so the rest of a refused body is not taken in.
 */
export function bodyLimit(): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
      if ((typeof args[0] === "number" ? args[0] : res.statusCode) === 413) res.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    const declared = Number(req.headers["content-length"] ?? NaN);
    // Within the smallest limit, no route's needs to be looked up.
    if (declared > bodyLimits.form) {
      const limit = bodyLimitFor(req.path);
      if (declared > bodyLimits[limit]) return refuse(req, res, bodyTooLarge(limit, declared));
    }
    next();
  };
}

function refuse(req: Request, res: Response, error: AppError) {
  res.status(413).set("Cache-Control", "no-store");
  if (/^\/api(\/|$)/i.test(req.path)) {
    const body: ApiError = { error: error.message, code: error.code, ...(error.fields && { fields: error.fields }) };
    res.json(body);
  } else if (req.path.endsWith(".data")) {
    res.type("text/plain").send(error.message);
  } else {
    res
      .type("html")
      .set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
      .set("X-Content-Type-Options", "nosniff")
      .send(tooLargePage(error.message));
  }
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The page a form posted without JavaScript gets when it is too large: the route's message, and the way back. */
function tooLargePage(message: string) {
  const text = message.replace(/[&<>"']/g, (character) => escapes[character]!);
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too large to send</title>
</head>
<body>
<main>
<h1>Too large to send</h1>
<p>${text}</p>
<p>Nothing was saved. Use your browser's Back button to return to the form.</p>
</main>
</body>
</html>
`;
}
