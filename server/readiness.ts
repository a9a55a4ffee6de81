import type { DatabaseHandle } from "../app/infra/db/database.server";
import { committedMigrations, migrationsState, type Migration } from "../app/infra/db/migrations.server";

// Whether this process is ready for requests, as `GET /readyz` says (server/health.ts,
// docs/decisions/065-health-and-safe-migrations.md): its database answers within a second, has
// exactly the migrations this version was built with, the outbox and the expired holds' sweep
// have run in the last minute, and the process is not shutting down.

/** One check: whether it passed, and why, in a few words with no personal data and no secrets. */
export interface ReadinessCheck {
  ok: boolean;
  reason: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: {
    database: ReadinessCheck;
    migrations: ReadinessCheck;
    outbox: ReadinessCheck;
    holdSweeper: ReadinessCheck;
    shutdown: ReadinessCheck;
  };
}

/** Background work that says when it was last active (`BackgroundJob`, `OutboxWorker`). */
export interface Heartbeat {
  /** `performance.now()` when it last began or ended a run; undefined before its first. */
  lastActive: number | undefined;
}

export const readinessLimits = {
  /** The database must answer within this. */
  databaseMs: 1_000,
  /** Background work must have been active within this. */
  heartbeatMs: 60_000,
};

export interface ReadinessParts {
  database: Pick<DatabaseHandle, "appliedMigrations">;
  outbox: Heartbeat;
  holdSweeper: Heartbeat;
  /** The migrations this version carries: db/migrations unless given. */
  migrations?: Migration[];
  /** The monotonic clock the heartbeats are read against: `performance.now` unless given. */
  now?: () => number;
}

export class Readiness {
  private readonly migrations: Migration[];
  private readonly now: () => number;
  /** The database part of a check under way, which checks arriving meanwhile share. */
  private asking: Promise<Pick<ReadinessReport["checks"], "database" | "migrations">> | undefined;

  constructor(private readonly parts: ReadinessParts) {
    this.migrations = parts.migrations ?? committedMigrations();
    this.now = parts.now ?? (() => performance.now());
  }

  /** Every check, now; `stopping` when the process has begun to shut down. Never rejects. */
  async report(stopping: boolean): Promise<ReadinessReport> {
    this.asking ??= this.askDatabase().finally(() => (this.asking = undefined));
    const checks = {
      ...(await this.asking),
      outbox: this.heartbeat(this.parts.outbox),
      holdSweeper: this.heartbeat(this.parts.holdSweeper),
      shutdown: stopping ? { ok: false, reason: "shutting down" } : { ok: true, reason: "running" },
    };
    return { ready: Object.values(checks).every((check) => check.ok), checks };
  }

  private async askDatabase(): Promise<Pick<ReadinessReport["checks"], "database" | "migrations">> {
    const started = this.now();
    let applied: number[];
    try {
      applied = await this.parts.database.appliedMigrations(readinessLimits.databaseMs);
    } catch (error) {
      return {
        database: { ok: false, reason: `did not answer${codeOf(error)}` },
        migrations: { ok: false, reason: "not checked: the database did not answer" },
      };
    }
    const database = { ok: true, reason: `answered in ${Math.round(this.now() - started)} ms` };
    const state = migrationsState(applied, this.migrations);
    if (state.current) return { database, migrations: { ok: true, reason: `all ${this.migrations.length} applied` } };
    const reasons = [
      ...(state.pending.length > 0 ? [`${state.pending.length} not applied (${state.pending.join(", ")})`] : []),
      ...(state.unknown > 0 ? [`${state.unknown} applied that this version does not have`] : []),
    ];
    return { database, migrations: { ok: false, reason: reasons.join("; ") } };
  }

  private heartbeat({ lastActive }: Heartbeat): ReadinessCheck {
    if (lastActive === undefined) return { ok: false, reason: "has not run" };
    const seconds = Math.round((this.now() - lastActive) / 1000);
    return this.now() - lastActive <= readinessLimits.heartbeatMs
      ? { ok: true, reason: `ran ${seconds} s ago` }
      : { ok: false, reason: `last ran ${seconds} s ago` };
  }
}

/** Why, in the words of a network error's code (ECONNREFUSED), never its message, which may name hosts. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ETIMEDOUT") return ` within ${readinessLimits.databaseMs / 1000} s`;
  return typeof code === "string" && /^[A-Z0-9_]{2,32}$/.test(code) ? ` (${code})` : "";
}
