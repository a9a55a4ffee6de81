import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tickets } from "~db/schema";
import {
  AvailabilityFeed,
  feedLimits,
  type FeedLimits,
  type FeedMessage,
} from "../app/features/events/availability-feed.server";
import { mergeAvailability } from "../app/features/events/components/use-live-availability";
import { availabilityByEvent, createEvent } from "../app/features/events/events.server";
import { newEventSchema, type Availability } from "../app/features/events/schema";
import type { DatabaseHandle } from "../app/infra/db/database.server";
import { PictureLibrary } from "../app/infra/images/uploads.server";
import { announceChange } from "../app/infra/live/changes.server";
import { engines, freshDatabase, type Engine } from "../tests/support/databases";
import { clientAddressOf, liveFeedHandler, liveFeedPath } from "./live-feed";
import { securityHeaders } from "./security-headers";

// The live feed as a browser meets it: the handler on a real HTTP server, over real sockets, on a
// real database. What a production build adds (the handler in front of the site, shutdown by
// signal) is in tests/e2e/live-feed.spec.ts.

const now = new Date("2026-11-22T10:00:00Z");
const clock = { now: () => now };
const pictures = new PictureLibrary(path.resolve("content/images"));
const quiz = newEventSchema.parse({
  name: "Quiz Night",
  description: "A quiz.",
  eventDate: "2026-12-05T19:00:00Z",
  ticketSaleExpiry: "2026-12-05T12:00:00Z",
  location: "Village hall",
  ticketCost: 10,
  totalAvailableTickets: 1000,
});
const counts = (sold: number, total = 1000): Availability => ({
  sold,
  remaining: total - sold,
  soldOut: sold >= total,
});

interface Feed {
  status: number;
  headers: http.IncomingHttpHeaders;
  response: http.IncomingMessage;
  request: http.ClientRequest;
  text(): string;
  /** The server-sent events received so far, parsed. */
  messages(): FeedMessage[];
  /** Resolves when the response ends or the connection closes; says whether the body was complete. */
  ended: Promise<{ complete: boolean }>;
  /** Resolves when the connection itself is closed. */
  socketClosed: Promise<void>;
}

function parseMessages(text: string): FeedMessage[] {
  return text
    .split("\n\n")
    .map((block) => ({ type: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((m) => m.type && m.data)
    .map((m) => ({ type: m.type, ...JSON.parse(m.data!) }) as FeedMessage);
}

describe.each(engines)("the live feed on %s", (engine: Engine) => {
  let database: DatabaseHandle;
  let feed: AvailabilityFeed;
  let server: http.Server;
  let url: string;
  /** The server's side of each connection, in the order they came. */
  let serverSockets: Socket[];
  const feeds: Feed[] = [];
  /** The request log's lines. */
  let logged: Record<string, unknown>[];

  async function start(limits: Partial<FeedLimits> = {}, { openFiles = Infinity, production = true } = {}) {
    feed = new AvailabilityFeed(database, clock, { ...feedLimits, ...limits }, openFiles);
    await feed.start();
    const serveLiveFeed = liveFeedHandler(feed, { trustProxy: 1, production });
    server = http.createServer((req, res) => {
      if (!serveLiveFeed(req, res)) res.writeHead(404).end();
    });
    serverSockets = [];
    server.on("connection", (socket) => serverSockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function open(
    options: { address?: string; method?: string; headers?: Record<string, string>; path?: string } = {},
  ): Promise<Feed> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${url}${options.path ?? liveFeedPath}`,
        {
          method: options.method ?? "GET",
          agent: false,
          headers: {
            Accept: "text/event-stream",
            "Accept-Encoding": "gzip, br",
            ...(options.address && { "X-Forwarded-For": options.address }),
            ...options.headers,
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          const ended = new Promise<{ complete: boolean }>((done) => {
            response.on("end", () => done({ complete: response.complete }));
            response.on("close", () => done({ complete: response.complete }));
            response.on("error", () => done({ complete: false }));
          });
          const socketClosed = new Promise<void>((done) => response.socket.once("close", () => done()));
          const opened: Feed = {
            status: response.statusCode!,
            headers: response.headers,
            response,
            request,
            text: () => text,
            messages: () => parseMessages(text),
            ended,
            socketClosed,
          };
          feeds.push(opened);
          resolve(opened);
        },
      );
      request.on("error", reject);
      request.end();
    });
  }

  /** Sells tickets for one or more events in one transaction: one change announced. */
  async function sell(eventIds: string | string[], quantity = 1) {
    await database.db.transaction(async (tx) => {
      for (const eventId of [eventIds].flat()) {
        await tx.insert(tickets).values({
          ticketHolderName: "Amina",
          email: "amina@example.org",
          eventId,
          bookingRef: crypto.randomUUID(),
          quantity,
          dateSold: now,
        });
      }
      await announceChange(tx, "availability");
    });
  }

  const until = (condition: () => boolean) => vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000 });

  beforeEach(async () => {
    database = await freshDatabase(engine);
    logged = [];
    vi.spyOn(console, "log").mockImplementation(
      (text) =>
        void logged.push(
          ...String(text)
            .split("\n")
            .map((line) => JSON.parse(line) as Record<string, unknown>),
        ),
    );
  });

  afterEach(async () => {
    for (const opened of feeds.splice(0)) opened.request.destroy();
    await feed?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await database.close();
    vi.restoreAllMocks();
  });

  it("sends retry, the whole picture, then only what changed, uncompressed, with the stream's and the site's security headers", async () => {
    await start();
    const [quizNight, ceilidh] = await Promise.all(
      ["Quiz Night", "Ceilidh"].map((name) => createEvent(database.db, { ...quiz, name }, now, pictures)),
    );
    const subscriber = await open({ address: "203.0.113.7" });
    expect(subscriber.status).toBe(200);
    expect(subscriber.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(subscriber.headers["cache-control"]).toBe("no-cache, no-transform");
    expect(subscriber.headers["content-encoding"]).toBeUndefined();
    expect(subscriber.headers["x-request-id"]).toMatch(/^[0-9A-F]{16}$/);

    // Every security header a page gets, with the same value (but a policy for a stream that is never a document).
    const page = express();
    page.disable("x-powered-by");
    page.use(securityHeaders({ production: true, development: false }));
    page.get("/", (_req, res) => void res.end());
    const pages = page.listen(0, "127.0.0.1");
    await new Promise((resolve) => pages.once("listening", resolve));
    const pageHeaders = (await fetch(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`)).headers;
    pages.close();
    for (const [name, value] of pageHeaders) {
      if (["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)) continue;
      if (name === "content-security-policy") {
        expect(subscriber.headers[name]).toBe("default-src 'none'; frame-ancestors 'none'");
      } else expect(subscriber.headers[name], name).toBe(value);
    }
    expect(subscriber.headers["strict-transport-security"]).toBeTruthy();

    await until(() => subscriber.messages().length === 1);
    expect(subscriber.text().startsWith("retry: 2000\n\n")).toBe(true);
    expect(subscriber.messages()).toEqual([
      { type: "availability", events: { [quizNight!.id]: counts(0), [ceilidh!.id]: counts(0) } },
    ]);

    await sell(quizNight!.id, 3);
    await until(() => subscriber.messages().length === 2);
    expect(subscriber.messages()[1]).toEqual({ type: "availability-changed", events: { [quizNight!.id]: counts(3) } });
    // Nothing personal, ever.
    expect(subscriber.text()).not.toContain("Amina");
    expect(subscriber.text()).not.toContain("amina@example.org");
  });

  it("answers HEAD with the stream's headers and no body, other methods 405, and leaves other paths to the site", async () => {
    await start();
    const head = await open({ method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(await head.ended).toEqual({ complete: true });
    expect(feed.connections).toBe(0);

    const post = await open({ method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    // A body is refused unread, and its connection closed, as the site's body limit does.
    for (const method of ["GET", "POST"]) {
      const withBody = await open({ method, headers: { "Content-Length": String(300 * 1024 * 1024) } });
      expect(withBody.status).toBe(413);
      expect(withBody.headers.connection).toBe("close");
    }
    expect(feed.connections).toBe(0);
    expect((await fetch(`${url}/api/live/availability/other`)).status).toBe(404);
    expect((await fetch(`${url}/api/live`)).status).toBe(404);
    // A query string is the same feed.
    expect((await open({ path: `${liveFeedPath}?from=page` })).status).toBe(200);
  });

  it("an HTTP/1.0 client gets the events unframed, ended by the connection's end", async () => {
    await start();
    const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.write(`GET ${liveFeedPath} HTTP/1.0\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n`);
    await until(() => text.includes("event: availability\n"));
    const [head, body] = text.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
    expect(head).not.toMatch(/Transfer-Encoding/i);
    expect(body!.startsWith("retry: 2000\n\nevent: availability\ndata: {")).toBe(true);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await feed.close();
    await closed;
    socket.destroy();
  });

  it("a visitor who comes back (with or without Last-Event-ID) gets the picture as it is now", async () => {
    await start();
    const event = await createEvent(database.db, quiz, now, pictures);
    const first = await open({ address: "203.0.113.7" });
    await until(() => first.messages().length === 1);
    first.request.destroy();
    await until(() => feed.connections === 0);
    // The request log has its line, as for any request: the visitor left (499). (A line a request
    // of the test before may still write is not this one's.)
    const lineOfFirst = () => logged.filter((line) => line.id === first.headers["x-request-id"]);
    await until(() => lineOfFirst().length === 1);
    expect(lineOfFirst()[0]).toMatchObject({
      msg: "request",
      id: first.headers["x-request-id"],
      method: "GET",
      path: liveFeedPath,
      status: 499,
    });

    // Sold while nobody was listening.
    await sell(event.id, 5);
    for (const headers of [{}, { "Last-Event-ID": "1" }] as Record<string, string>[]) {
      const again = await open({ address: "203.0.113.7", headers });
      // On PostgreSQL the sale's notice may reach the feed just after the visitor connects: then the
      // picture it was given is followed at once by the new one. Either way the latest says 5 sold.
      const latest = () => again.messages().at(-1) as { events?: Record<string, unknown> } | undefined;
      await until(() => JSON.stringify(latest()?.events?.[event.id]) === JSON.stringify(counts(5)));
      expect(again.text().startsWith("retry: 2000\n\n")).toBe(true);
      // The first message is the whole picture; a later one (the notice) only what changed.
      expect(again.messages()[0]).toMatchObject({ type: "availability" });
      expect(latest()?.events).toEqual({ [event.id]: counts(5) });
      again.request.destroy();
    }
  });

  it("past its limit per address a feed is refused with 429 while another address connects; 503 when the process is full", async () => {
    await start({ perAddress: 2, total: 3 });
    const first = await open({ address: "203.0.113.7" });
    const second = await open({ address: "203.0.113.7" });
    expect([first.status, second.status]).toEqual([200, 200]);

    const refused = await open({ address: "203.0.113.7" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    await refused.ended;
    expect(refused.text()).toContain("At most 2 live feeds");

    const other = await open({ address: "198.51.100.9" });
    expect(other.status).toBe(200);
    const full = await open({ address: "192.0.2.1" });
    expect(full.status).toBe(503);
    expect(full.headers["retry-after"]).toBeTruthy();

    // A visitor who leaves gives the place back.
    first.request.destroy();
    await until(() => feed.connections === 2);
    expect((await open({ address: "203.0.113.7" })).status).toBe(200);
  });

  it("holds no more feeds than the process's open files leave room for", async () => {
    await start({ perAddress: 50, total: 10_000, openFilesKept: 512 }, { openFiles: 514 });
    expect(feed.capacity).toBe(2);
    expect((await open({ address: "203.0.113.7" })).status).toBe(200);
    expect((await open({ address: "198.51.100.9" })).status).toBe(200);
    expect((await open({ address: "192.0.2.1" })).status).toBe(503);
  });

  it("a subscriber whose socket stops taking what is sent is dropped past the bound, and comes back to a picture", async () => {
    await start({ maxQueuedBytes: 2048 });
    const events = await Promise.all(
      ["Quiz Night", "Ceilidh", "Barn Dance"].map((name) => createEvent(database.db, { ...quiz, name }, now, pictures)),
    );
    const reading = await open({ address: "203.0.113.7" });
    const stalled = await open({ address: "198.51.100.9" });
    await until(() => reading.messages().length === 1 && stalled.messages().length === 1);
    // The stalled visitor's socket takes nothing more: what is sent to it waits in the server.
    serverSockets.at(-1)!.cork();

    let sales = 0;
    while (feed.dropped === 0 && sales < 200) {
      sales++;
      await sell(events.map((event) => event.id));
      await until(() => reading.messages().length === sales + 1 || feed.dropped > 0);
    }
    expect(feed.dropped).toBe(1);
    expect(feed.connections).toBe(1);
    // What waited is let go with the connection, not delivered later.
    expect(await stalled.ended).toEqual({ complete: false });

    // The subscriber that kept reading has every change; merged, they are the true counts.
    await until(() => reading.messages().length === sales + 1);
    const truth = await availabilityByEvent(database, now);
    let picture: Record<string, Availability> = {};
    for (const message of reading.messages()) {
      if (message.type === "availability") picture = message.events;
      if (message.type === "availability-changed") picture = mergeAvailability(picture, message.events);
    }
    expect(picture).toEqual(truth);
    expect(
      reading
        .messages()
        .slice(1)
        .every((m) => m.type === "availability-changed"),
    ).toBe(true);

    const back = await open({ address: "198.51.100.9" });
    await until(() => back.messages().length === 1);
    expect(back.messages()).toEqual([{ type: "availability", events: truth }]);
  });

  it("at shutdown every stream ends whole and its connection closes; a newcomer is asked to come back", async () => {
    await start();
    // Idle connections would otherwise be kept a minute: only the feed's own ending closes them here.
    server.keepAliveTimeout = 60_000;
    const open3 = await Promise.all(["203.0.113.7", "198.51.100.9", "192.0.2.1"].map((address) => open({ address })));
    await until(() => open3.every((subscriber) => subscriber.messages().length === 1));

    await feed.close();
    for (const subscriber of open3) {
      expect(await subscriber.ended).toEqual({ complete: true });
      await subscriber.socketClosed;
    }
    expect(feed.connections).toBe(0);

    const late = await open({ address: "203.0.113.7" });
    expect(late.status).toBe(200);
    expect(late.headers.connection).toBe("close");
    await late.ended;
    expect(late.text()).toBe("retry: 2000\n\n");
  });
});

describe("the visitor's address", () => {
  it("is the one Express's req.ip gives, for any X-Forwarded-For and number of proxies", async () => {
    const headers = [
      undefined,
      "",
      "198.51.100.9",
      "203.0.113.7, 198.51.100.9",
      "192.0.2.1,203.0.113.7 ,  198.51.100.9",
      " , 198.51.100.9,, ",
      "2001:db8::1, 198.51.100.9",
      "not an address, 203.0.113.7",
    ];
    for (const hops of [0, 1, 2, 3]) {
      const app = express();
      app.set("trust proxy", hops);
      const server = http.createServer((req, res) => {
        const ours = clientAddressOf(req, hops);
        app(req as express.Request, res as express.Response, () => {});
        res.end(JSON.stringify({ ours, express: (req as express.Request).ip }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        for (const header of headers) {
          const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
            headers: header === undefined ? {} : { "X-Forwarded-For": header },
          });
          const { ours, express: theirs } = (await response.json()) as { ours: string; express: string };
          expect(ours, `${hops} hops, X-Forwarded-For: ${header}`).toBe(theirs);
        }
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
