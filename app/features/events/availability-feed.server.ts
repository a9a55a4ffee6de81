import fs from "node:fs";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { Clock } from "~/lib/clock";
import { changesChannel } from "~/infra/live/changes.server";
import { availabilityByEvent, nextAvailabilityChange } from "./events.server";
import type { Availability, TypeAvailability } from "./schema";

/**
 * What the feed says, as server-sent events: first the whole picture (`availability`), then only
 * the events whose counts changed (`availability-changed`; null for an event that no longer
 * exists), and `events-changed` when the events themselves changed, so pages load them again.
 */
export type FeedMessage =
  | { type: "availability"; events: Record<string, Availability> }
  | { type: "availability-changed"; events: Record<string, Availability | null> }
  | { type: "events-changed" };

/** A message and its server-sent-event bytes, encoded once for every subscriber. */
export interface FeedFrame {
  message: FeedMessage | null;
  bytes: Uint8Array;
}

type Listener = (frame: FeedFrame) => void;

/**
 * How many live connections one process keeps open (decisions 027 and 038). Per address: one
 * browser holds at most 6 connections to a site over HTTP/1.1, and a household, an office, a school
 * hall or a mobile network can put many browsers behind one address; 50 lets about ten of them
 * follow the counts with every tab open. In total: far more than the charity's busiest sale, and
 * never so many that the process runs out of open files (`AvailabilityFeed.capacity`).
 */
export const feedLimits = {
  perAddress: 50,
  total: 10_000,
  /**
   * Open files kept for everything else (page requests, the database, files) below the process's
   * limit: a process out of files stops accepting any connection, pages included.
   */
  openFilesKept: 512,
  /** Bytes waiting for one subscriber (sent but not yet taken by its socket) before it is dropped. */
  maxQueuedBytes: 64 * 1024,
  /** A comment this often keeps proxies from closing a quiet connection. */
  heartbeatMs: 25_000,
};

export type FeedLimits = typeof feedLimits;

/** Whether a new connection may open, and how to give its place back when it ends. */
export type Admission =
  | { admitted: true; release(): void }
  | { admitted: false; status: 429 | 503; retryAfterSeconds: number; message: string };

const encoder = new TextEncoder();

/** The soft limit on open files of this process (Linux), or undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = fs
      .readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft === "unlimited") return Infinity;
    return soft ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeFrame(message: FeedMessage): FeedFrame {
  const data = message.type === "events-changed" ? "{}" : JSON.stringify({ events: message.events });
  return { message, bytes: encoder.encode(`event: ${message.type}\ndata: ${data}\n\n`) };
}

/** Reconnect after 2 s if the connection drops. */
export const retryFrame: FeedFrame = { message: null, bytes: encoder.encode("retry: 2000\n\n") };
const heartbeatFrame: FeedFrame = { message: null, bytes: encoder.encode(": keep-alive\n\n") };

function sameAvailability(a: Availability | undefined, b: Availability) {
  return (
    a !== undefined &&
    a.sold === b.sold &&
    a.remaining === b.remaining &&
    a.soldOut === b.soldOut &&
    a.reservedUntil === b.reservedUntil &&
    a.onSaleFrom === b.onSaleFrom &&
    sameTypes(a.types, b.types)
  );
}

function sameTypes(a: TypeAvailability[] | undefined, b: TypeAvailability[] | undefined) {
  if (!a || !b) return a === b;
  return (
    a.length === b.length &&
    a.every(
      (type, i) =>
        type.id === b[i]!.id &&
        type.name === b[i]!.name &&
        type.pricePence === b[i]!.pricePence &&
        type.status === b[i]!.status &&
        type.left === b[i]!.left,
    )
  );
}

/** The events whose counts differ between two pictures; null for an event that is gone. */
export function availabilityChanges(
  before: Record<string, Availability>,
  after: Record<string, Availability>,
): Record<string, Availability | null> {
  const changes: Record<string, Availability | null> = {};
  for (const [id, counts] of Object.entries(after)) if (!sameAvailability(before[id], counts)) changes[id] = counts;
  for (const id of Object.keys(before)) if (!(id in after)) changes[id] = null;
  return changes;
}

/**
 * One per process: listens for changes, recounts availability once per burst of changes, and
 * passes what changed to every visitor connected to the live feed. The counts carry no names or
 * e-mail addresses. A hold that runs out, or a ticket type's sale that opens or ends, changes
 * nothing in the database, so the feed also recounts at the next such moment: the seats show as
 * free again, the early-bird price as over, without anyone's reload.
 *
 * Every subscriber has seen the same picture (`current`): it got it whole when it joined and every
 * change since, so a change is worked out and encoded once for all of them.
 */
export class AvailabilityFeed {
  private readonly listeners = new Set<Listener>();
  private stopListening: (() => Promise<void>) | undefined;
  /** Set at shutdown: new connections are told to come back later. */
  closed = false;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private eventsChanged = false;
  private timedChange: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Counts one change announced (or one hold run out), so a picture taken before it is known to be old. */
  private version = 0;
  private current: { counts: Record<string, Availability>; frame: FeedFrame; version: number } | undefined;
  /** Recounts run one after another, so pictures follow each other in order. */
  private recounting: Promise<void> = Promise.resolve();
  private readonly openByAddress = new Map<string, number>();
  private open = 0;
  /** Subscribers dropped because they did not take what was sent to them. */
  dropped = 0;
  /** How many connections the process holds at most: `limits.total`, or fewer if it may not open as many files. */
  readonly capacity: number;

  constructor(
    private readonly database: Pick<DatabaseHandle, "db" | "listen">,
    private readonly clock: Clock,
    readonly limits: FeedLimits = feedLimits,
    openFiles = openFileLimit() ?? Infinity,
  ) {
    this.capacity = Math.max(0, Math.min(limits.total, openFiles - limits.openFilesKept));
  }

  async start() {
    this.stopListening = await this.database.listen(changesChannel, (payload) => {
      if (payload === "events") this.eventsChanged = true;
      this.changed();
    });
  }

  private changed() {
    this.version++;
    // A burst of changes (a busy sale, a batch edit) is recounted once.
    this.pending ??= setTimeout(() => void this.publish(), 25);
  }

  async snapshot(): Promise<Record<string, Availability>> {
    const counts = await availabilityByEvent(this.database, this.clock.now());
    await this.watchNextTimedChange();
    return counts;
  }

  /**
   * Arms one timer for the next moment the counts change by the clock alone (when there is one and
   * anyone is listening): a hold running out, a ticket type's sale opening or ending.
   */
  private async watchNextTimedChange() {
    if (this.closed) return;
    const now = this.clock.now();
    const next = await nextAvailabilityChange(this.database.db, now);
    if (!next || this.closed) return;
    if (this.timedChange?.at === next.getTime()) return;
    clearTimeout(this.timedChange?.timer);
    // A little after the moment, so the recount finds the hold expired.
    const timer = setTimeout(
      () => {
        this.timedChange = undefined;
        this.changed();
      },
      Math.min(next.getTime() - now.getTime() + 250, 2 ** 31 - 1),
    );
    timer.unref?.();
    this.timedChange = { at: next.getTime(), timer };
  }

  /**
   * Takes a place for a new connection from `address`, or says why not: 429 past the limit per
   * address, 503 when the process holds its limit in total (or is shutting down).
   */
  admit(address: string): Admission {
    if (this.closed)
      return { admitted: false, status: 503, retryAfterSeconds: 2, message: "The server is restarting." };
    if (this.open >= this.capacity) {
      return {
        admitted: false,
        status: 503,
        retryAfterSeconds: 30,
        message: "The live feed is full just now; the page's counts are as it loaded.",
      };
    }
    const fromAddress = this.openByAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.perAddress) {
      return {
        admitted: false,
        status: 429,
        retryAfterSeconds: 60,
        message: `At most ${this.limits.perAddress} live feeds are open from one address; close some tabs.`,
      };
    }
    this.openByAddress.set(address, fromAddress + 1);
    this.open++;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        const left = (this.openByAddress.get(address) ?? 1) - 1;
        if (left > 0) this.openByAddress.set(address, left);
        else this.openByAddress.delete(address);
      },
    };
  }

  /**
   * Adds a listener: it gets the whole picture at once, then every change. Resolves with the way
   * to unsubscribe.
   */
  async subscribe(listener: Listener): Promise<() => void> {
    // Nobody was listening to keep the picture up to date: take a new one.
    if (!this.current || (this.listeners.size === 0 && this.current.version !== this.version)) await this.recount();
    const current = this.current!;
    // In the same turn as the picture is handed over, so the next change is measured from it.
    this.listeners.add(listener);
    listener(current.frame);
    // A change came in while the picture was taken: it follows as a change.
    if (current.version !== this.version) this.pending ??= setTimeout(() => void this.publish(), 25);
    this.startHeartbeat();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopHeartbeat();
    };
  }

  get connections() {
    return this.listeners.size;
  }

  /**
   * How many changes to seats or events have been announced (by any process on the database) or
   * holds run out since the feed started: a reading taken at one count is known to be old at another.
   */
  get changes() {
    return this.version;
  }

  private recount(): Promise<void> {
    const run = this.recounting.then(async () => {
      const version = this.version;
      const counts = await this.snapshot();
      const previous = this.current?.counts;
      this.current = { counts, frame: encodeFrame({ type: "availability", events: counts }), version };
      const eventsChanged = this.eventsChanged;
      this.eventsChanged = false;
      if (!previous || this.listeners.size === 0) return;
      if (eventsChanged) this.broadcast(encodeFrame({ type: "events-changed" }));
      const changes = availabilityChanges(previous, counts);
      if (Object.keys(changes).length > 0)
        this.broadcast(encodeFrame({ type: "availability-changed", events: changes }));
    });
    this.recounting = run.catch(() => {});
    return run;
  }

  private broadcast(frame: FeedFrame) {
    for (const listener of this.listeners) listener(frame);
  }

  private async publish() {
    this.pending = undefined;
    // With nobody listening, the next subscriber takes a new picture (its version is behind).
    if (this.listeners.size === 0) return;
    try {
      await this.recount();
    } catch (error) {
      console.error("Could not recount ticket availability:", (error as Error).message);
    }
  }

  private startHeartbeat() {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => this.broadcast(heartbeatFrame), this.limits.heartbeatMs);
    this.heartbeat.unref?.();
  }

  private stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Ends every live connection (at shutdown) and stops listening. */
  async close() {
    this.closed = true;
    clearTimeout(this.pending);
    clearTimeout(this.timedChange?.timer);
    this.stopHeartbeat();
    this.closeHandlers.forEach((close) => close());
    this.listeners.clear();
    await this.stopListening?.();
  }

  private readonly closeHandlers = new Set<() => void>();

  /** Registers how to end one connection when the feed closes. */
  onClose(close: () => void): () => void {
    this.closeHandlers.add(close);
    return () => this.closeHandlers.delete(close);
  }
}
