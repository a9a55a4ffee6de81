/**
 * A fixed-window counter per key (a visitor's address), kept in memory: enough for one server
 * process to turn away floods of form posts. Old windows are swept as new hits arrive.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly options: { limit: number; windowMs: number }) {}

  /** Counts one attempt for the key at `at` (the site's clock); false when the key is over its limit for this window. */
  attempt(key: string, at: Date): boolean {
    const now = at.getTime();
    if (this.hits.size > 10_000) this.sweep(now);
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.options.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.options.limit;
  }

  /** Whether the key is still within its limit, without counting an attempt. */
  peek(key: string, at: Date): boolean {
    const now = at.getTime();
    const entry = this.hits.get(key);
    return !entry || entry.resetAt <= now || entry.count < this.options.limit;
  }

  private sweep(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
