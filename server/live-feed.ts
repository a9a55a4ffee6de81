import type http from "node:http";
import {
  openFileLimit,
  retryFrame,
  type AvailabilityFeed,
  type FeedFrame,
} from "../app/features/events/availability-feed.server";
import { logLine, loggedPath, newRequestId } from "../app/infra/log.server";
import { nonDocumentHeaders } from "./security-headers.ts";

// The live availability feed (`GET /api/live/availability`, server-sent events) answered in front
// of Express and React Router (docs/decisions/038-a-lean-live-feed.md). Each subscriber holds its
// connection for as long as the page is open, so what a subscriber keeps alive is what the process
// pays ten thousand times: here that is Node's own request, response and socket, a place in the
// feed and a few small closures, and nothing per update but a write of bytes encoded once for all.
// Through Express and React Router each one also kept a Fetch request and its abort signal, a
// ReadableStream and the adapter's loop reading it, the request log's async context and the
// loader's context, about 40 KB more (issue 15).

export const liveFeedPath = "/api/live/availability";

/**
 * The headers every answer from the feed carries: what a stream needs (no caching, no
 * compression, no buffering by a proxy), and the site's security headers (server/security-headers.ts).
 * The stream is never a document, so its Content-Security-Policy allows nothing at all.
 */
export function liveFeedHeaders(production: boolean): Record<string, string> {
  return {
    "Content-Type": "text/event-stream; charset=utf-8",
    // no-transform: no compression, so each update leaves at once and is encoded once for everyone.
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
    ...nonDocumentHeaders(production),
  };
}

/**
 * The visitor's address as Express's `req.ip` has it with `trust proxy` set to `hops`
 * (TRUST_PROXY): the X-Forwarded-For entry the outermost trusted proxy added, or the connection's
 * own address when no proxy is trusted or none forwarded. X-Forwarded-For is read as the
 * `forwarded` package reads it (Express's), from the right, split at commas.
 */
export function clientAddressOf(req: http.IncomingMessage, hops: number): string {
  const socketAddress = req.socket.remoteAddress ?? "unknown";
  if (hops <= 0) return socketAddress;
  // Node joins repeated X-Forwarded-For headers into one, with commas.
  const header = String(req.headers["x-forwarded-for"] ?? "");
  const forwarded: string[] = [];
  let end = header.length;
  let start = header.length;
  for (let i = header.length - 1; i >= 0 && forwarded.length < hops; i--) {
    const code = header.charCodeAt(i);
    if (code === 0x20) {
      if (start === end) start = end = i;
    } else if (code === 0x2c) {
      if (start !== end) forwarded.push(header.substring(start, end));
      start = end = i;
    } else start = i;
  }
  if (start !== end && forwarded.length < hops) forwarded.push(header.substring(start, end));
  return forwarded.length === 0 ? socketAddress : forwarded[Math.min(hops, forwarded.length) - 1]!;
}

export interface LiveFeedOptions {
  /** How many proxies stand in front of the site (TRUST_PROXY). */
  trustProxy: number;
  production: boolean;
}

/**
 * The feed's handler: answers `GET` and `HEAD` of the feed's path (`405` for other methods) and
 * returns true, or returns false for any other request, which the caller passes on.
 *
 * A subscriber gets `retry: 2000`, the whole picture (`event: availability`), then every change
 * (see AvailabilityFeed); reconnecting starts again from a picture. Each address may hold
 * `feed.limits.perAddress` feeds (429 past it), the process `feed.capacity` (503). A subscriber
 * whose socket has more than `feed.limits.maxQueuedBytes` waiting is dropped (its browser comes
 * back to a new picture). At shutdown (`feed.close()`, the site's `drain`) every stream ends
 * cleanly with its connection, and a new one is asked to come back in two seconds.
 */
export function liveFeedHandler(feed: AvailabilityFeed, options: LiveFeedOptions) {
  const headers = liveFeedHeaders(options.production);
  const refusalHeaders = { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  // A stream's head is written as bytes: all of it but the date and the request id is the same for
  // everyone. (Node's own head, built header by header, would stay in memory as a string of some
  // fifty pieces, with the headers' names and values, for as long as the subscriber stays.)
  const headLines = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const streamHead = (id: string, chunked: boolean) =>
    Buffer.from(
      `HTTP/1.1 200 OK\r\n${headLines}Date: ${httpDate()}\r\nX-Request-Id: ${id}\r\n` +
        (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"),
      "latin1",
    );

  return function serveLiveFeed(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const url = req.url ?? "";
    if (url !== liveFeedPath && !url.startsWith(liveFeedPath + "?")) return false;
    // The request log's line (server/requests.ts), when the answer ends or the visitor leaves.
    const id = newRequestId();
    const started = process.hrtime.bigint();
    let status = 0;
    let cleanup = () => {};
    res.once("close", () => {
      cleanup();
      logLine("info", {
        msg: "request",
        id,
        method: req.method,
        path: loggedPath(url),
        status: status || (res.writableFinished ? res.statusCode : 499),
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      });
    });

    // A body is never read here: the connection is closed after the answer rather than read to its end.
    if (req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0) {
      res
        .writeHead(413, { ...refusalHeaders, "X-Request-Id": id, Connection: "close" })
        .end("The live feed takes no request body.");
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res
        .writeHead(405, { ...refusalHeaders, "X-Request-Id": id, Allow: "GET, HEAD" })
        .end("Only GET and HEAD are allowed here.");
      return true;
    }
    // Shutting down (or a request waiting behind another on its connection, which browsers never
    // send): the browser is asked to come back in two seconds.
    const socket = res.socket;
    if (feed.closed || !socket) {
      res.writeHead(200, { ...headers, "X-Request-Id": id, Connection: "close" }).end(retryFrame.bytes);
      return true;
    }
    if (req.method === "HEAD") {
      res.writeHead(200, { ...headers, "X-Request-Id": id }).end();
      return true;
    }
    const admission = feed.admit(clientAddressOf(req, options.trustProxy));
    if (!admission.admitted) {
      const retryAfter = String(admission.retryAfterSeconds);
      res
        .writeHead(admission.status, { ...refusalHeaders, "X-Request-Id": id, "Retry-After": retryAfter })
        .end(admission.message);
      return true;
    }

    // From here the stream is written straight to the socket, in HTTP/1.1's chunks (an HTTP/1.0
    // client gets the bytes as they are, and the end of the connection ends them).
    const chunked = req.httpVersion !== "1.0";
    let ended = false;
    let unsubscribe = () => {};
    cleanup = () => {
      if (ended) return;
      ended = true;
      admission.release();
      unsubscribe();
      unregister();
    };
    // At shutdown: the stream's last chunk, then the connection's end, so the server can close at once.
    const unregister = feed.onClose(() => {
      if (ended) return;
      cleanup();
      status = 200;
      if (chunked) socket.end(lastChunk);
      else socket.end();
    });
    const send = (frame: FeedFrame) => {
      if (ended) return;
      const bytes = chunked ? chunkOf(frame) : frame.bytes;
      // The first picture always goes, however large; after it, a visitor who does not take what
      // is sent is dropped rather than kept waiting in memory.
      if (
        frame.message?.type !== "availability" &&
        socket.writableLength + bytes.byteLength > feed.limits.maxQueuedBytes
      ) {
        feed.dropped++;
        cleanup();
        socket.destroy();
        return;
      }
      socket.write(bytes);
    };

    socket.write(streamHead(id, chunked));
    send(retryFrame);
    feed.subscribe(send).then(
      (stop) => {
        if (ended) stop();
        else unsubscribe = stop;
      },
      (error: Error) => {
        console.error("The live feed could not take its picture:", error.message);
        cleanup();
        socket.destroy();
      },
    );
    return true;
  };
}

const lastChunk = Buffer.from("0\r\n\r\n", "latin1");
const chunks = new WeakMap<FeedFrame, Buffer>();

/** A frame as one HTTP/1.1 chunk, made once per frame for every subscriber. */
function chunkOf(frame: FeedFrame): Buffer {
  let chunk = chunks.get(frame);
  if (!chunk) {
    const size = Buffer.from(`${frame.bytes.byteLength.toString(16)}\r\n`, "latin1");
    chunk = Buffer.concat([size, frame.bytes, Buffer.from("\r\n", "latin1")]);
    chunks.set(frame, chunk);
  }
  return chunk;
}

/** The Date header's value: the machine's time, as Node's own responses carry it (cached for a second). */
let dateCache = { at: 0, value: "" };
function httpDate(): string {
  const now = Date.now();
  if (now - dateCache.at >= 1000) dateCache = { at: now - (now % 1000), value: new Date(now).toUTCString() };
  return dateCache.value;
}

/** Puts the feed's handler in front of the site's on an HTTP server (server/http.ts). */
export function serveLiveFeedFirst(
  server: http.Server,
  site: { config: { trustProxy: number; production: boolean }; liveFeed: AvailabilityFeed },
) {
  const serveLiveFeed = liveFeedHandler(site.liveFeed, site.config);
  const others = server.listeners("request") as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!serveLiveFeed(req, res)) for (const listener of others) listener(req, res);
  });
  if (site.liveFeed.capacity < site.liveFeed.limits.total) {
    console.log(
      `The live feed will hold at most ${site.liveFeed.capacity} connections: the process may open ${openFileLimit()} files. ` +
        `Raise the open-file limit (README, "Open files") for ${site.liveFeed.limits.total}.`,
    );
  }
}
