import type { DatabaseHandle } from "~/infra/db/database.server";
import { nextHoldExpiry } from "~/infra/db/seats.server";
import type { Clock } from "~/lib/clock";
import { changesChannel } from "~/infra/live/changes.server";
import { availabilityByEvent } from "./events.server";
import type { Availability } from "./schema";

type Listener = (message: FeedMessage) => void;

export type FeedMessage = { type: "availability"; events: Record<string, Availability> } | { type: "events-changed" };

/**
 * One per process: listens for changes, recounts availability once per burst of changes, and
 * passes the counts to every visitor connected to the live feed. The counts carry no names or
 * e-mail addresses. A hold that runs out changes nothing in the database, so the feed also
 * recounts when the next hold runs out: its seats show as free again without anyone's reload.
 */
export class AvailabilityFeed {
  private readonly listeners = new Set<Listener>();
  private stopListening: (() => Promise<void>) | undefined;
  /** Set at shutdown: new connections are told to come back later. */
  closed = false;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private eventsChanged = false;
  private holdExpiry: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly database: Pick<DatabaseHandle, "db" | "listen">,
    private readonly clock: Clock,
  ) {}

  async start() {
    this.stopListening = await this.database.listen(changesChannel, (payload) => {
      if (payload === "events") this.eventsChanged = true;
      this.recountSoon();
    });
  }

  /** A burst of changes (a busy sale, a batch edit) is recounted once. */
  private recountSoon() {
    this.pending ??= setTimeout(() => void this.publish(), 25);
  }

  async snapshot(): Promise<Record<string, Availability>> {
    const counts = await availabilityByEvent(this.database.db, this.clock.now());
    await this.watchNextHoldExpiry();
    return counts;
  }

  /** Arms one timer for the moment the next hold runs out (when there is one and anyone is listening). */
  private async watchNextHoldExpiry() {
    if (this.closed) return;
    const now = this.clock.now();
    const next = await nextHoldExpiry(this.database.db, now);
    if (!next || this.closed) return;
    if (this.holdExpiry?.at === next.getTime()) return;
    clearTimeout(this.holdExpiry?.timer);
    // A little after the moment, so the recount finds the hold expired.
    const timer = setTimeout(
      () => {
        this.holdExpiry = undefined;
        this.recountSoon();
      },
      Math.min(next.getTime() - now.getTime() + 250, 2 ** 31 - 1),
    );
    timer.unref?.();
    this.holdExpiry = { at: next.getTime(), timer };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get connections() {
    return this.listeners.size;
  }

  private async publish() {
    this.pending = undefined;
    const eventsChanged = this.eventsChanged;
    this.eventsChanged = false;
    if (this.listeners.size === 0) return;
    try {
      const events = await this.snapshot();
      for (const listener of this.listeners) {
        if (eventsChanged) listener({ type: "events-changed" });
        listener({ type: "availability", events });
      }
    } catch (error) {
      console.error("Could not recount ticket availability:", (error as Error).message);
    }
  }

  /** Ends every live connection (at shutdown) and stops listening. */
  async close() {
    this.closed = true;
    clearTimeout(this.pending);
    clearTimeout(this.holdExpiry?.timer);
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
