import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tickets } from "../../../db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { announceChange } from "~/infra/live/changes.server";
import { freshDatabase } from "../../../tests/support/databases";
import { AvailabilityFeed, availabilityChanges, feedLimits, type FeedMessage } from "./availability-feed.server";
import { availabilityStream } from "./availability-stream.server";
import { mergeAvailability } from "./components/use-live-availability";
import { availabilityByEvent, createEvent } from "./events.server";
import { newEventSchema, type Availability } from "./schema";

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
const counts = (sold: number, total = 100): Availability => ({ sold, remaining: total - sold, soldOut: sold >= total });

describe("what changed between two pictures", () => {
  it("lists only the events whose counts differ, new events, and null for an event that is gone", () => {
    const before = { a: counts(1), b: counts(2), gone: counts(3) };
    const after = { a: counts(1), b: counts(5), added: counts(0) };
    expect(availabilityChanges(before, after)).toEqual({ b: counts(5), added: counts(0), gone: null });
    expect(availabilityChanges(after, after)).toEqual({});
    // A seat held in a checkout changes only `reservedUntil` of a full event: that is a change too.
    const reserved = { a: { sold: 1, remaining: 0, soldOut: false, reservedUntil: "2026-11-22T10:15:00.000Z" } };
    expect(availabilityChanges({ a: { sold: 1, remaining: 0, soldOut: false } }, reserved)).toEqual(reserved);
  });

  it("the browser's merge of the changes gives the new picture", () => {
    const before = { a: counts(1), b: counts(2), gone: counts(3) };
    const after = { a: counts(1), b: counts(5), added: counts(0) };
    expect(mergeAvailability(before, availabilityChanges(before, after))).toEqual(after);
  });
});

describe("the live feed's limits", () => {
  let database: DatabaseHandle;
  let feed: AvailabilityFeed;
  const open: Response[] = [];
  const request = () => {
    const controller = new AbortController();
    return { request: new Request("http://site/api/live/availability", { signal: controller.signal }), controller };
  };
  /** Reads server-sent events from a response until `until` says stop. */
  async function readMessages(response: Response, until: (messages: FeedMessage[]) => boolean) {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const messages: FeedMessage[] = [];
    let text = "";
    while (!until(messages)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let end;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (type && data) messages.push({ type, ...JSON.parse(data) } as FeedMessage);
      }
    }
    reader.releaseLock();
    return messages;
  }

  beforeEach(async () => {
    database = await freshDatabase("pglite");
  });

  afterEach(async () => {
    await feed.close();
    await Promise.all(open.splice(0).map((response) => response.body?.cancel().catch(() => {})));
    await database.close();
  });

  it("past its limit per address a feed is refused with 429 while another address connects; 503 when the process is full", async () => {
    feed = new AvailabilityFeed(database, clock, { ...feedLimits, perAddress: 2, total: 3 });
    await feed.start();
    const first = request();
    for (const r of [first, request()]) {
      const response = availabilityStream(feed, r.request, "203.0.113.7");
      expect(response.status).toBe(200);
      open.push(response);
    }
    const refused = availabilityStream(feed, request().request, "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("At most 2 live feeds");

    const other = availabilityStream(feed, request().request, "198.51.100.9");
    expect(other.status).toBe(200);
    open.push(other);
    const full = availabilityStream(feed, request().request, "192.0.2.1");
    expect(full.status).toBe(503);
    expect(full.headers.get("Retry-After")).toBeTruthy();

    // A visitor who leaves gives the place back.
    await readMessages(open[0]!, (messages) => messages.length > 0);
    first.controller.abort();
    const again = availabilityStream(feed, request().request, "203.0.113.7");
    expect(again.status).toBe(200);
    open.push(again);
  });

  it("a snapshot larger than the bound still reaches a new subscriber", async () => {
    feed = new AvailabilityFeed(database, clock, { ...feedLimits, maxQueuedBytes: 16 });
    await feed.start();
    const event = await createEvent(database.db, quiz, now, pictures);
    const response = availabilityStream(feed, request().request, "203.0.113.7");
    open.push(response);
    const [snapshot] = await readMessages(response, (messages) => messages.length === 1);
    expect(snapshot).toEqual({ type: "availability", events: { [event.id]: counts(0, 1000) } });
    expect(feed.dropped).toBe(0);
  });

  it("a subscriber that stops reading is dropped once its queue passes the bound, and comes back to a snapshot", async () => {
    feed = new AvailabilityFeed(database, clock, { ...feedLimits, maxQueuedBytes: 2048 });
    await feed.start();
    const events = await Promise.all(
      ["Quiz Night", "Ceilidh", "Barn Dance"].map((name) => createEvent(database.db, { ...quiz, name }, now, pictures)),
    );
    const reading = availabilityStream(feed, request().request, "203.0.113.7");
    const stalled = availabilityStream(feed, request().request, "198.51.100.9");
    open.push(reading, stalled);
    const seen = await readMessages(reading, (messages) => messages.length === 1);
    expect(seen[0]?.type).toBe("availability");

    // Sales, one recount each, until the stalled subscriber is too far behind (a few dozen at most).
    let sales = 0;
    while (feed.dropped === 0 && sales < 200) {
      sales++;
      await database.db.transaction(async (tx) => {
        for (const event of events) {
          await tx.insert(tickets).values({
            ticketHolderName: "Amina",
            email: "amina@example.org",
            eventId: event.id,
            bookingRef: crypto.randomUUID(),
            quantity: 1,
            dateSold: now,
          });
        }
        await announceChange(tx, "availability");
      });
      seen.push(...(await readMessages(reading, (messages) => messages.length === 1)));
    }
    expect(feed.dropped).toBe(1);
    expect(feed.connections).toBe(1);
    // What was waiting is let go: the stalled response ends in an error, not after its backlog.
    await expect(stalled.body!.getReader().read()).rejects.toThrow("did not keep up");

    // The subscriber that kept reading has every change; merged, they are the true counts.
    const truth = await availabilityByEvent(database.db, now);
    let picture: Record<string, Availability> = {};
    for (const message of seen) {
      if (message.type === "availability") picture = message.events;
      if (message.type === "availability-changed") picture = mergeAvailability(picture, message.events);
    }
    expect(picture).toEqual(truth);
    // Each change carried only the events that changed, never the whole list again.
    expect(seen.slice(1).every((m) => m.type === "availability-changed")).toBe(true);

    // Back again, from the same address: a snapshot of the counts as they are now.
    const back = availabilityStream(feed, request().request, "198.51.100.9");
    open.push(back);
    expect(back.status).toBe(200);
    const [snapshot] = await readMessages(back, (messages) => messages.length === 1);
    expect(snapshot).toEqual({ type: "availability", events: truth });
  });
});
