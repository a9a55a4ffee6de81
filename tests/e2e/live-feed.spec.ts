import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { openDatabase } from "../../app/infra/db/database.server";
import { feedLimits } from "../../app/features/events/availability-feed.server";
import { createPostgresDatabase, engines, insertEvent } from "../support/databases";
import { startSiteProcess, type RunningSite } from "../support/site-process";

// The live feed of the production build (`npm run build` first), over real sockets: every address
// on 127.0.0.0/8 is this machine, so a client picks its address with `localAddress`.

interface Feed {
  status: number;
  response: http.IncomingMessage;
  request: http.ClientRequest;
  /** Bytes received so far. */
  received(): number;
  text(): string;
  /** Resolves when the connection ends, for whatever reason. */
  ended: Promise<void>;
}

function openFeed(site: RunningSite, localAddress: string, { read = true } = {}): Promise<Feed> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${site.url}/api/live/availability`, { localAddress, agent: false }, (response) => {
      let received = 0;
      let text = "";
      const ended = new Promise<void>((done) => {
        response.on("end", done);
        response.on("close", done);
        response.on("error", () => done());
      });
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (read) text += chunk.toString();
      });
      // A client that never reads: nothing is taken from the socket, so the server's writes back up.
      if (!read) response.pause();
      resolve({ status: response.statusCode!, response, request, received: () => received, text: () => text, ended });
    });
    request.on("error", reject);
  });
}

/** The server's resident memory, in MB. */
function residentMb(site: RunningSite) {
  const status = fs.readFileSync(`/proc/${site.process.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function waitFor(condition: () => boolean, what: string) {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 600) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.describe("the live feed's limit per address, on the production build", () => {
  let site: RunningSite;
  const feeds: Feed[] = [];
  test.beforeAll(async () => {
    site = await startSiteProcess();
  });
  test.afterAll(async () => {
    for (const feed of feeds) feed.request.destroy();
    await site?.stop();
  });

  test(`one address opens ${feedLimits.perAddress} feeds, the next is refused with 429, while another address still connects`, async () => {
    for (let i = 0; i < feedLimits.perAddress; i++) feeds.push(await openFeed(site, "127.0.0.2"));
    expect(feeds.map((feed) => feed.status)).toEqual(feeds.map(() => 200));
    await waitFor(() => feeds.every((feed) => feed.text().includes("event: availability")), "every snapshot");

    const refused = await openFeed(site, "127.0.0.2");
    expect(refused.status).toBe(429);
    expect(Number(refused.response.headers["retry-after"])).toBeGreaterThan(0);
    await refused.ended;

    const neighbour = await openFeed(site, "127.0.0.3");
    feeds.push(neighbour);
    expect(neighbour.status).toBe(200);

    // One leaves; its place is free again.
    feeds.shift()!.request.destroy();
    let again = await openFeed(site, "127.0.0.2");
    for (let tries = 0; again.status === 429 && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await openFeed(site, "127.0.0.2");
    }
    feeds.push(again);
    expect(again.status).toBe(200);
  });
});

test.describe("a client that never reads, on the production build", () => {
  test.skip(!engines.includes("postgres"), "needs TEST_DATABASE_URL");
  let site: RunningSite;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  test.beforeAll(async () => {
    database = await createPostgresDatabase();
    site = await startSiteProcess({ DATABASE_URL: database.url });
  });
  test.afterAll(async () => {
    await site?.stop();
    await database?.drop();
  });

  // A few hundred updates of 30 KB through a real server and database.
  test("is dropped once updates pile up, and the server's memory stays put", async () => {
    test.setTimeout(180_000);
    // Enough events that one change to all of them is a large update (about 30 KB).
    const handle = await openDatabase({ url: database.url });
    for (let batch = 0; batch < 8; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => insertEvent(handle.db, { name: `Event ${batch}-${i}` })));
    }
    await handle.close();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();

    const reader = await openFeed(site, "127.0.0.2");
    const stalled = await Promise.all(Array.from({ length: 5 }, () => openFeed(site, "127.0.0.4", { read: false })));
    await waitFor(() => reader.text().includes("event: availability\n"), "the reader's snapshot");
    const before = residentMb(site);

    // Change every event's count, one update at a time, until each stalled client has been sent
    // far more than its socket's buffers hold (a few MB on loopback).
    const updates = () => reader.text().split("event: availability-changed").length - 1;
    let sent = 0;
    while (reader.received() < 8 * 1024 * 1024 && sent < 600) {
      sent++;
      await client.query("update events set total_available_tickets = total_available_tickets + 1");
      await client.query("select pg_notify('kilele_event_changes', 'availability')");
      await waitFor(() => updates() >= sent, `update ${sent}`);
    }
    const piledUp = residentMb(site);

    // The stalled clients read at last: each gets what its socket held, then the end (the server
    // closed it), far short of what was sent to the reader.
    for (const feed of stalled) feed.response.resume();
    await Promise.all(stalled.map((feed) => feed.ended));
    for (const feed of stalled) expect(feed.received()).toBeLessThan(reader.received() / 2);
    // The reader is still connected.
    expect(reader.response.complete).toBe(false);
    // Nothing waits for the stalled clients inside the server (before, about 8 MB each would).
    expect(piledUp - before).toBeLessThan(30);
    console.log(
      `${sent} updates, ${(reader.received() / 1024 / 1024).toFixed(1)} MB to the reader; the stalled clients got ` +
        `${stalled.map((feed) => (feed.received() / 1024).toFixed(0)).join(", ")} KB before the drop; ` +
        `server resident memory ${before.toFixed(1)} → ${piledUp.toFixed(1)} MB`,
    );
    reader.request.destroy();
    await client.end();
  });
});

test.describe("at shutdown, on the production build", () => {
  test("every feed ends whole, and the server stops cleanly without waiting for them", async () => {
    const site = await startSiteProcess();
    let stopped = false;
    try {
      const feeds = await Promise.all(
        ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map((address) => openFeed(site, address)),
      );
      await waitFor(() => feeds.every((feed) => feed.text().includes("event: availability")), "every snapshot");

      // The feed, answered in front of the site, carries the site's security headers.
      const page = await fetch(`${site.url}/robots.txt`);
      for (const name of [
        "x-content-type-options",
        "referrer-policy",
        "x-frame-options",
        "cross-origin-opener-policy",
        "permissions-policy",
        "strict-transport-security",
      ]) {
        expect(feeds[0]!.response.headers[name], name).toBe(page.headers.get(name));
      }
      expect(feeds[0]!.response.headers["cache-control"]).toBe("no-cache, no-transform");

      expect(await site.stop()).toBe(0);
      stopped = true;
      await Promise.all(feeds.map((feed) => feed.ended));
      for (const feed of feeds) expect(feed.response.complete).toBe(true);
      expect(site.output()).toContain("Stopped cleanly.");
    } finally {
      if (!stopped) await site.stop();
    }
  });
});
