import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { rateLimits } from "~db/schema";

export interface RateLimitOptions {
  /** Names the limit in the table; two limiters with one name share their counts (as processes do). */
  name: string;
  /** Attempts allowed per key in one window. */
  limit: number;
  windowMs: number;
}

/** What counting one attempt found: whether it is within the limit, and when the key's window starts again. */
export interface RateLimitResult {
  allowed: boolean;
  /** Attempts counted in this window, this one included. */
  count: number;
  /** Whole seconds until the window starts again (for Retry-After); at least 1. */
  retryAfterSeconds: number;
}

/** How often, at most, a limiter deletes windows that have passed (by its own hits' clock). */
const sweepEveryMs = 60_000;

/**
 * A fixed-window counter per key (a visitor's address, an address and an account), kept in the
 * database so that every server process on it counts together (decision 025). Each attempt is one
 * atomic upsert: a key's row starts again once its window has passed, so a busy key never grows;
 * rows of keys that went quiet are deleted by an indexed delete at most once a minute.
 * Times are the site's clock (`now` passed in), never the database's.
 */
export class RateLimiter {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Queryable,
    readonly options: RateLimitOptions,
  ) {}

  get name() {
    return this.options.name;
  }

  /** Counts one attempt for the key at `now`; false when the key is over its limit for this window. */
  async attempt(key: string, now: Date): Promise<boolean> {
    return (await this.count(key, now)).allowed;
  }

  /** Counts one attempt for the key at `now`, and says whether it is within the limit and for how long not. */
  async count(key: string, now: Date): Promise<RateLimitResult> {
    const resetsAt = new Date(now.getTime() + this.options.windowMs);
    const passed = sql`${rateLimits.resetsAt} <= ${now}`;
    const [row] = await this.db
      .insert(rateLimits)
      .values({ name: this.options.name, key, count: 1, resetsAt })
      .onConflictDoUpdate({
        target: [rateLimits.name, rateLimits.key],
        set: {
          count: sql`case when ${passed} then 1 else ${rateLimits.count} + 1 end`,
          resetsAt: sql`case when ${passed} then excluded.resets_at else ${rateLimits.resetsAt} end`,
        },
      })
      .returning({ count: rateLimits.count, resetsAt: rateLimits.resetsAt });
    await this.sweep(now);
    return {
      allowed: row!.count <= this.options.limit,
      count: row!.count,
      retryAfterSeconds: Math.max(1, Math.ceil((row!.resetsAt.getTime() - now.getTime()) / 1000)),
    };
  }

  /** Whether the key may make another attempt at `now`, without counting one. */
  async peek(key: string, now: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.name, this.options.name), eq(rateLimits.key, key), gt(rateLimits.resetsAt, now)));
    return !row || row.count < this.options.limit;
  }

  /**
   * Takes back one attempt counted in the current window (an attempt that turned out well, such as a
   * right password, when only failures should count). Nothing happens when the window has passed.
   */
  async giveBack(key: string, now: Date): Promise<void> {
    await this.db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(and(eq(rateLimits.name, this.options.name), eq(rateLimits.key, key), gt(rateLimits.resetsAt, now)));
  }

  /** Deletes every limit's windows that passed before `now` (through the resets_at index), at most once a minute. */
  private async sweep(now: Date) {
    if (now.getTime() - this.lastSweep < sweepEveryMs && now.getTime() >= this.lastSweep) return;
    this.lastSweep = now.getTime();
    await this.db.delete(rateLimits).where(lte(rateLimits.resetsAt, now));
  }
}
