import type { RequestHandler } from "express";
import { logLine, loggedPath, newRequestId, withRequest } from "../app/infra/log.server";

// What every request goes through before the site (docs/decisions/024-bad-input.md): an id and a
// line in the log, and a ceiling on the size of its body.

/**
 * Gives each request an id (sent back as X-Request-Id), runs it with that id so that any error it
 * logs carries it, and logs one JSON line when it is answered: id, method, path (no query
 * string), status and milliseconds. A request the visitor gave up on is logged with status 499.
 */
export function requestLog(): RequestHandler {
  return (req, res, next) => {
    const id = newRequestId();
    const started = process.hrtime.bigint();
    res.setHeader("X-Request-Id", id);
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      logLine("info", {
        msg: "request",
        id,
        method: req.method,
        path: loggedPath(req.originalUrl),
        status: res.writableFinished ? res.statusCode : 499,
        // Why the site refused it before any route saw it (server/same-origin.ts), when it did.
        ...(typeof res.locals.refused === "string" && { refused: res.locals.refused }),
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      });
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

const megabyte = 1024 * 1024;

/**
 * The most any request's body may declare, by path. Each route reads its body with its own,
 * smaller cap (app/infra/http/api.server.ts); this is the backstop for a route that forgot: the
 * webhook's 1 MB everywhere but the two routes that take pictures.
 */
export function bodyCeiling(path: string) {
  if (/^\/admin\/events\/[^/]+(\.data)?\/?$/.test(path)) return 101 * megabyte; // the event form, with pictures
  // One picture of at most 15 MB: above that the route itself says how large the file was.
  if (/^\/api\/admin\/images\/?$/.test(path)) return 32 * megabyte;
  return megabyte;
}

/**
 * Refuses a body that declares more than its path's ceiling with 413, unread, and closes the
 * connection after every 413 (the site's own too), so the rest of a refused body is not taken in.
 */
export function bodyLimit(): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
      if ((typeof args[0] === "number" ? args[0] : res.statusCode) === 413) res.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    const declared = Number(req.headers["content-length"] ?? NaN);
    const ceiling = bodyCeiling(req.path);
    if (declared > ceiling) {
      res
        .status(413)
        .set("Cache-Control", "no-store")
        .json({ error: `The request is too large (at most ${ceiling / megabyte} MB).`, code: "payload-too-large" });
      return;
    }
    next();
  };
}
