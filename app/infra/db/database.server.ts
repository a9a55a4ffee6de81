import fs from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type pg from "pg";
import { sql } from "drizzle-orm";
import * as schema from "~db/schema";
import {
  appliedMigration,
  appliedMigrationsQuery,
  applyMigrations,
  committedMigrations,
  rowsOf,
  type Migration,
} from "./migrations.server";

/** One drizzle database, whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A database or a transaction on it: what a query function needs to run inside either. */
export type Queryable = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Several readings, one after another, their results in order. A transaction has one connection,
 * which runs one statement at a time whatever is asked: `Promise.all` over it only queues them in
 * the driver, which `pg` warns is deprecated and its next major version refuses. Each reading is
 * given as a function, so none starts before the one before it has ended.
 */
export async function inTurn<const T extends readonly (() => unknown)[]>(
  readings: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const results: unknown[] = [];
  for (const reading of readings) results.push(await reading());
  return results as { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
}

export interface DatabaseHandle {
  db: Database;
  /** "pglite" for the embedded default, "postgres" for a server given by DATABASE_URL. */
  engine: "pglite" | "postgres";
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, from this process or (on PostgreSQL) any other
   * process sharing the database; resolves with a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Applies the migrations it lacks of `migrations` (the committed ones unless given): a restore
   * brings a database to its backup's migration, then forward.
   */
  migrate(migrations?: Migration[]): Promise<void>;
  /** The migrations this opening applied (their tags), in order: none when the database was current. */
  migrationsApplied: string[];
  /**
   * For the readiness check: the `when` of every migration the database has applied, read on a
   * connection of its own (PostgreSQL) so that a busy pool does not delay it; rejects when the
   * database has not answered within `timeoutMs`.
   */
  appliedMigrations(timeoutMs: number): Promise<number[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; when absent the embedded database is used. */
  url?: string;
  /** Folder for the embedded database's files; "memory" keeps it in memory (tests). */
  dataDir?: string;
  /**
   * For an in-memory embedded database: a dump of one (PGlite's `dumpDataDir`) to start from instead
   * of an empty one. Tests start from a migrated copy; the migrations still run (a no-op when current).
   */
  startFrom?: Blob;
  /**
   * The migrations it is brought to when opened: the committed ones (db/migrations) unless given
   * (tests give fewer, or one that fails; `migrationsUpTo` the first few), or none (`false`: a
   * backup, which must not change the database, and a restore, which migrates it itself).
   */
  migrations?: Migration[] | false;
  /**
   * On the embedded database, called before migrations are applied to a database that has some
   * already (not an empty one) and lacks some of `migrations`: the site takes a backup here
   * (automatic-backups.server.ts). If it throws, nothing is migrated and the opening fails.
   */
  beforeMigrating?: (database: Pick<DatabaseHandle, "db" | "engine">, pending: Migration[]) => Promise<void>;
}

/** Any fixed number names the migrations' lock: every process of the site asks for the same one. */
const migrationsLockKey = 5_347_001;

/**
 * Runs the migrations holding a PostgreSQL advisory lock, so processes starting together on one
 * database migrate one at a time: the first applies them, the others find them applied.
 */
async function migrateUnderLock(pool: pg.Pool, migrations: Migration[]): Promise<string[]> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [migrationsLockKey]);
    try {
      return await applyMigrations(drizzle(client, { schema }) as unknown as Database, migrations);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [migrationsLockKey]);
    }
  } finally {
    client.release();
  }
}

/**
 * The embedded database's settings. PostgreSQL's default 128 MB of shared buffers, which PGlite
 * keeps inside its WebAssembly memory, held a third of the process's memory; the site's database
 * is tens of megabytes, and what the buffers miss is read through the operating system's file
 * cache. 16 MB takes the process's resident memory down by about 50 MB (docs/performance.md).
 */
const pgliteSettings = ["shared_buffers=16MB"];

/** Opens the database and brings its tables up to date with the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const migrations = options.migrations ?? committedMigrations();
  // Each engine's driver is loaded only when it is the one used: the other's would cost every start
  // some 70 ms (docs/performance.md, "Start").
  if (options.url) {
    const { default: pg } = await import("pg");
    const { drizzle: drizzlePg } = await import("drizzle-orm/node-postgres");
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // A dropped idle connection must not take the process down; the pool replaces it.
    pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
    survivesLostConnections(pool);
    const db = drizzlePg(pool, { schema });
    let migrationsApplied: string[];
    try {
      migrationsApplied = migrations ? await migrateUnderLock(pool, migrations) : [];
    } catch (error) {
      await pool.end();
      throw error;
    }
    const listener = new PostgresListener(pg, options.url);
    const checks = new ReadinessConnection(pg, options.url);
    return {
      db: db as unknown as Database,
      engine: "postgres",
      listen: (channel, onNotify) => listener.listen(channel, onNotify),
      migrate: async (list = committedMigrations()) => {
        await migrateUnderLock(pool, list);
      },
      migrationsApplied,
      appliedMigrations: (timeoutMs) => checks.appliedMigrations(timeoutMs),
      async close() {
        await listener.close();
        await checks.close();
        await pool.end();
      },
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  let client: PGlite;
  let releaseLock = async () => {};
  if (!options.dataDir || options.dataDir === "memory") {
    client = new PGlite({
      postgresqlconf: pgliteSettings,
      ...(options.startFrom && { loadDataDir: options.startFrom }),
    });
  } else {
    const dir = path.join(options.dataDir, "db");
    await fs.mkdir(dir, { recursive: true });
    releaseLock = await lockDataDir(dir);
    try {
      client = new PGlite(dir, { postgresqlconf: pgliteSettings });
      await client.waitReady;
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }
  const db = drizzlePglite(client, { schema });
  let migrationsApplied: string[];
  try {
    if (migrations && options.beforeMigrating) {
      const pending = await pendingMigrations(db as unknown as Database, migrations);
      if (pending.length > 0)
        await options.beforeMigrating({ db: db as unknown as Database, engine: "pglite" }, pending);
    }
    migrationsApplied = migrations ? await applyMigrations(db as unknown as Database, migrations) : [];
  } catch (error) {
    await client.close();
    await releaseLock();
    throw error;
  }
  return {
    db: db as unknown as Database,
    engine: "pglite",
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    migrate: async (list = committedMigrations()) => {
      await applyMigrations(db as unknown as Database, list);
    },
    migrationsApplied,
    appliedMigrations: (timeoutMs) =>
      withinTime(
        client.query<{ created_at: string | number }>(appliedMigrationsQuery).then(({ rows }) => whensOf(rows)),
        timeoutMs,
      ),
    async close() {
      await client.close();
      await releaseLock();
    },
  };
}

/**
 * A connection lost while it is lent out (a transaction between two statements, a query under way)
 * makes pg emit "error" on it, where the pool listens only while it is idle: unheard, that event
 * ended the process. The work using the connection is told by its own query failing, and the pool
 * drops the connection when it comes back; this only keeps the event from being unheard.
 */
function survivesLostConnections(pool: pg.Pool) {
  pool.on("connect", (client) => client.on("error", () => undefined));
}

/** The record's `created_at`s (bigint: a string from pg, a number from PGlite) as numbers. */
/** Of `migrations`, those a database that has some applied lacks; none for an empty database (nothing to lose). */
async function pendingMigrations(db: Database, migrations: Migration[]): Promise<Migration[]> {
  if (!(await appliedMigration(db))) return [];
  const applied = new Set(whensOf(await rowsOf<{ created_at: string | number }>(db, sql.raw(appliedMigrationsQuery))));
  return migrations.filter((migration) => !applied.has(migration.when));
}

function whensOf(rows: { created_at: string | number }[]): number[] {
  return rows.map((row) => Number(row.created_at));
}

/** `work`, or a rejection once `timeoutMs` has passed without it. */
function withinTime<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })),
      timeoutMs,
    );
  });
  // The work that lost the race may still fail later: nobody is waiting for it then.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The readiness check's own connection to PostgreSQL, apart from the site's pool: a pool full of
 * slow requests must not make the check wait, and a check must not take a request's connection.
 * Connecting and each query are bounded (a second, or the check's own limit if shorter), and a
 * connection that failed is thrown away, so the next check after an outage connects afresh.
 */
class ReadinessConnection {
  private readonly pool: pg.Pool;

  constructor(driver: typeof pg, url: string) {
    this.pool = new driver.Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: 1_000,
      query_timeout: 1_000,
      statement_timeout: 1_000,
      idleTimeoutMillis: 30_000,
    });
    // The site's pool reports an outage; this one's idle connection dropping is replaced at the next check.
    this.pool.on("error", () => undefined);
    survivesLostConnections(this.pool);
  }

  appliedMigrations(timeoutMs: number): Promise<number[]> {
    return withinTime(
      (async () => {
        const client = await this.pool.connect();
        try {
          const { rows } = await client.query<{ created_at: string }>(appliedMigrationsQuery);
          client.release();
          return whensOf(rows);
        } catch (error) {
          client.release(error as Error);
          throw error;
        }
      })(),
      timeoutMs,
    );
  }

  close() {
    return this.pool.end();
  }
}

export class DatabaseInUseError extends Error {
  override name = "DatabaseInUseError";
  constructor(
    message: string,
    /** The process holding the embedded database open, when known. */
    readonly owner?: number,
  ) {
    super(message);
  }
}

/**
 * The embedded database must be opened by one process at a time, or its files are corrupted. A
 * lock file holds the owner's process id; one left by a process that has died is taken over.
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(dir, "kilele.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lockFile, String(process.pid), { flag: "wx" });
      return () => fs.rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(await fs.readFile(lockFile, "utf8").catch(() => ""));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dir} is in use by process ${owner}. Stop the site first, or set DATABASE_URL to share a PostgreSQL database.`,
          owner,
        );
      }
      await fs.rm(lockFile, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock the embedded database in ${dir}.`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One dedicated connection for LISTEN (a pooled one would lose its subscriptions when returned).
 * If it drops, it reconnects with backoff and listens again.
 */
class PostgresListener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private retryDelay = 250;

  constructor(
    private readonly driver: typeof pg,
    private readonly url: string,
  ) {}

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    const client = await this.connection();
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN "${channel.replace(/"/g, "")}"`);
    }
    set.add(onNotify);
    return async () => {
      set.delete(onNotify);
    };
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new this.driver.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? "");
    });
    client.on("error", (error) => {
      console.error("PostgreSQL listener connection lost:", error.message);
      this.reconnect(client);
    });
    client.on("end", () => this.reconnect(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel.replace(/"/g, "")}"`);
    this.client = client;
    this.retryDelay = 250;
    return client;
  }

  private reconnect(dead: pg.Client) {
    if (this.closed || this.client !== dead) return;
    this.client = undefined;
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, 10_000);
    setTimeout(() => {
      if (!this.closed) this.connection().catch(() => this.scheduleReconnect());
    }, delay).unref();
  }

  async close() {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
