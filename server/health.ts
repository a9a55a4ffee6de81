import type http from "node:http";
import { logLine, loggedPath, newRequestId } from "../app/infra/log.server";
import type { ReadinessReport } from "./readiness.ts";
import { nonDocumentHeaders } from "./security-headers.ts";

// The health checks, answered in front of Express and the page cache (server/http.ts), so that
// no session, rate limit, origin rule, cache or static file layer stands between a load balancer
// and its answer (docs/decisions/065-health-and-safe-migrations.md):
// - `GET /healthz`: the process answers. It touches nothing else, the database least of all, so it
//   says 200 while the database is down: restart the process only when this fails.
// - `GET /readyz`: the process can serve requests now (server/readiness.ts): 200, or 503 with the
//   failing checks. Send visitors to a process only while this says 200.

export const healthPaths = { live: "/healthz", ready: "/readyz" } as const;

export interface HealthOptions {
  /** The readiness report, given whether the process is shutting down. */
  readiness(stopping: boolean): Promise<ReadinessReport>;
  stopping(): boolean;
  production: boolean;
}

/**
 * The health checks' handler: answers `GET` and `HEAD` of their paths (405 for other methods, 413
 * for a body, which is never read) and returns true, or returns false for any other request, which
 * the caller passes on. Every answer is JSON and says `Cache-Control: no-store`.
 */
export function healthHandler(options: HealthOptions) {
  const headers = { ...nonDocumentHeaders(options.production), "Cache-Control": "no-store" };

  return function serveHealth(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (path !== healthPaths.live && path !== healthPaths.ready) return false;
    // The request log's line (server/requests.ts), as every request has.
    const id = newRequestId();
    const started = process.hrtime.bigint();
    res.once("close", () => {
      logLine("info", {
        msg: "request",
        id,
        method: req.method,
        path: loggedPath(url),
        status: res.writableFinished ? res.statusCode : 499,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      });
    });
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      const json = JSON.stringify(body);
      res.writeHead(status, {
        ...headers,
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": String(Buffer.byteLength(json)),
        "X-Request-Id": id,
        ...(options.stopping() && { Connection: "close" }),
        ...extra,
      });
      res.end(req.method === "HEAD" ? undefined : json);
    };

    if (req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0) {
      send(413, { error: "The health checks take no request body.", code: "too-large" }, { Connection: "close" });
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(405, { error: "Only GET and HEAD are allowed here.", code: "method-not-allowed" }, { Allow: "GET, HEAD" });
      return true;
    }
    if (path === healthPaths.live) {
      send(200, { status: "ok" });
      return true;
    }
    void options.readiness(options.stopping()).then(
      (report) =>
        send(report.ready ? 200 : 503, { status: report.ready ? "ready" : "not ready", checks: report.checks }),
      () => send(503, { status: "not ready" }),
    );
    return true;
  };
}
