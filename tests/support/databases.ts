import { addDefaultTypes } from "~/infra/db/ticket-types.server";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type Queryable } from "~/infra/db/database.server";
import { committedMigrations, type Migration } from "~/infra/db/migrations.server";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "~db/schema";
import { events } from "~db/schema";

export type Engine = "pglite" | "postgres";

/**
 * The engines this run tests the data layer on: PGlite always, PostgreSQL when TEST_DATABASE_URL is
 * set; TEST_ENGINES (a comma-separated list) keeps only those it names. The clock check runs the data
 * layer on PostgreSQL alone, the one whose clock faketime does not move
 * (docs/decisions/046-the-clock-check-on-postgresql.md).
 */
export const engines: Engine[] = ((): Engine[] => {
  const available: Engine[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  const asked = process.env.TEST_ENGINES?.split(",").map((name) => name.trim());
  return asked ? available.filter((engine) => asked.includes(engine)) : available;
})();

/**
 * A new, empty, migrated database for one test: an in-memory PGlite, or a new database on the
 * PostgreSQL server (dropped again by close()).
 *
 * Running every migration for every test was most of the unit suite's time, so each engine is
 * migrated once per set of migrations and each test starts from a copy: PGlite loads a dump of a
 * migrated database (`migratedPgliteDump`), PostgreSQL copies a migrated template database
 * (`CREATE DATABASE … TEMPLATE`). Both are named by a hash of db/migrations, so a changed migration
 * makes a new one. openDatabase still runs the migrations on the copy: a no-op when it is current.
 * docs/decisions/029-a-fast-test-suite.md.
 */
export async function freshDatabase(engine: Engine): Promise<DatabaseHandle> {
  if (engine === "pglite") return lentPglite();
  const { url, drop } = await createPostgresDatabase({ migrated: true });
  const handle = await openDatabase({ url });
  return {
    ...handle,
    async close() {
      await handle.close();
      await drop();
    },
  };
}

/** A migrated in-memory PGlite kept for the next test once a test is done with it. */
interface KeptPglite {
  handle: DatabaseHandle;
  client: PGlite;
  /** Every table of the site's schema, for emptying it. */
  tables: string;
  /** The schema and the migrations applied, as first opened: a test that changed them spoils it. */
  shape: string;
}

const keptPglites: KeptPglite[] = [];

const shapeQuery = `SELECT md5(coalesce((SELECT string_agg(table_schema || '.' || table_name || '.' || column_name || ':' || data_type, ',' ORDER BY table_schema, table_name, ordinal_position) FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')), '') || coalesce((SELECT string_agg(created_at::text, ',' ORDER BY created_at) FROM drizzle.__drizzle_migrations), '')) AS shape`;

async function shapeOf(client: PGlite): Promise<string> {
  return (await client.query<{ shape: string }>(shapeQuery)).rows[0]!.shape;
}

/**
 * A migrated, empty in-memory PGlite for one test. Opening one from the migrated dump costs about
 * 0.35 s of a core, emptying one a test is done with about 0.03 s, so a test process keeps the
 * databases its tests closed and lends them again, emptied: every table truncated, sequences
 * restarted, the session's settings, listeners, locks and prepared statements discarded
 * (DISCARD ALL). One whose tables or migrations a test changed is closed instead. The test gets
 * its own query client over the database, which refuses every query once the test has closed it,
 * so work a test left running cannot write into the next test's data.
 */
async function lentPglite(): Promise<DatabaseHandle> {
  let kept: KeptPglite | undefined;
  while ((kept = keptPglites.pop())) {
    if (!kept.client.closed && (await emptied(kept))) break;
    await kept.handle.close().catch(() => undefined);
  }
  if (!kept) {
    const handle = await openDatabase({ dataDir: "memory", startFrom: await migratedPgliteDump() });
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const { rows } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    kept = { handle, client, tables: rows.map((row) => row.name).join(", "), shape: await shapeOf(client) };
  }
  const { handle, client } = kept;
  let lent = true;
  const stopListening = new Set<() => Promise<void>>();
  const guarded = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (!lent) throw new Error("This test's database is closed.");
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const lease = kept;
  return {
    ...handle,
    db: drizzlePglite(guarded, { schema }) as unknown as DatabaseHandle["db"],
    async listen(channel, onNotify) {
      const stop = await handle.listen(channel, (payload) => {
        if (lent) onNotify(payload);
      });
      stopListening.add(stop);
      return async () => {
        stopListening.delete(stop);
        await stop();
      };
    },
    async close() {
      if (!lent) return;
      lent = false;
      for (const stop of stopListening) await stop().catch(() => undefined);
      keptPglites.push(lease);
    },
  };
}

/** Empties a kept database for the next test; false when it cannot be lent again. */
async function emptied(kept: KeptPglite): Promise<boolean> {
  try {
    if (kept.client.isInTransaction()) return false;
    await kept.client.exec("DISCARD ALL");
    await kept.client.exec(`TRUNCATE ${kept.tables} RESTART IDENTITY CASCADE`);
    return (await shapeOf(kept.client)) === kept.shape;
  } catch {
    return false;
  }
}

/**
 * A new database for one test that is not migrated when opened: empty (what a restore starts from),
 * or with `migrations` the first few (`migrationsUpTo`), a database as an earlier
 * version of the site left it. An in-memory PGlite, or a new database on the PostgreSQL server
 * (dropped again by close()).
 */
export async function unmigratedDatabase(
  engine: Engine,
  migrations: Migration[] | false = false,
): Promise<DatabaseHandle> {
  if (engine === "pglite") return openDatabase({ dataDir: "memory", migrations, startFrom: await emptyPgliteDump() });
  const { url, drop } = await createPostgresDatabase();
  const handle = await openDatabase({ url, migrations });
  return {
    ...handle,
    async close() {
      await handle.close();
      await drop();
    },
  };
}

/**
 * Creates a database on the TEST_DATABASE_URL server: empty, or with `migrated: true` a copy of
 * one with every migration applied; returns its URL and how to drop it.
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const template = options.migrated ? await postgresTemplate(base) : undefined;
  const name = `kilele_test_${crypto.randomBytes(6).toString("hex")}`;
  await withAdmin(base, (admin) => admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`));
  return {
    url: databaseUrl(base, name),
    async drop() {
      await withAdmin(base, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A hash of every file in db/migrations: names the prepared copies, so a stale one is never used. */
export function migrationsHash(): string {
  const folder = path.resolve("db/migrations");
  const hash = crypto.createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(path.relative(folder, file)).update("\0").update(fs.readFileSync(file)).update("\0");
    }
  };
  walk(folder);
  return hash.digest("hex").slice(0, 16);
}

let pgliteDump: Promise<Blob> | undefined;
let emptyDump: Promise<Blob> | undefined;

/**
 * A dump of an in-memory PGlite with every migration applied, made once per set of migrations and
 * kept in the temporary folder; each process reads it once.
 */
export function migratedPgliteDump(): Promise<Blob> {
  pgliteDump ??= keptPgliteDump(`pglite-${pgliteVersion()}-${migrationsHash()}.tar`, committedMigrations());
  return pgliteDump;
}

/**
 * A dump of an in-memory PGlite as PGlite makes it, before any migration (what `unmigratedDatabase`
 * opens: a restore's target, an earlier version's database). Making one (PGlite's initdb) takes
 * about 2 s of a core against 0.5 s to open the dump, so it is made once per PGlite version, kept
 * like the migrated one.
 */
export function emptyPgliteDump(): Promise<Blob> {
  emptyDump ??= keptPgliteDump(`pglite-${pgliteVersion()}-empty.tar`, false);
  return emptyDump;
}

/**
 * A dump of a new in-memory PGlite brought to `migrations`, kept in the temporary folder under
 * `name` (written under another name, then renamed, so a reader never sees half a file). PGlite's
 * version is in every name: its files are its own format.
 */
async function keptPgliteDump(name: string, migrations: Migration[] | false): Promise<Blob> {
  const file = path.join(os.tmpdir(), "kilele-test-databases", name);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ dataDir: "memory", migrations });
    const client = (handle.db as unknown as { $client: import("@electric-sql/pglite").PGlite }).$client;
    // Opened without migrations, it has not been asked anything yet.
    await client.waitReady;
    const dump = await client.dumpDataDir("none");
    await handle.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

let siteDataDir: Promise<string> | undefined;

/**
 * A site's data folder whose embedded database has every migration applied, made once per set of
 * migrations by the site's own code (openDatabase on an empty folder), as its first start would
 * leave it; copy it, never use it. Returns the folder.
 */
export function preparedSiteDataDir(): Promise<string> {
  siteDataDir ??= (async () => {
    const folder = path.join(os.tmpdir(), "kilele-test-databases", `site-${pgliteVersion()}-${migrationsHash()}`);
    if (!fs.existsSync(folder)) {
      const partial = `${folder}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
      const handle = await openDatabase({ dataDir: partial });
      await handle.close();
      try {
        fs.renameSync(partial, folder);
      } catch (error) {
        // Another process made it first.
        if (!fs.existsSync(folder)) throw error;
        fs.rmSync(partial, { recursive: true, force: true });
      }
    }
    return folder;
  })();
  return siteDataDir;
}

function pgliteVersion(): string {
  const manifest = path.resolve("node_modules/@electric-sql/pglite/package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/**
 * The name of a database on the server with every migration applied, to copy with `CREATE DATABASE
 * … TEMPLATE`. Made once per set of migrations under a lock, built under another name and renamed
 * when complete; nothing stays connected to it (a template with a connection cannot be copied).
 */
export async function postgresTemplate(base: string): Promise<string> {
  const name = `kilele_template_${migrationsHash()}`;
  return withAdmin(base, async (admin) => {
    const exists = async () =>
      (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query("SELECT pg_advisory_lock(hashtext('kilele_test_template'))");
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const handle = await openDatabase({ url: databaseUrl(base, building) });
      await handle.close();
      // A closed connection's server process may linger a moment, and a database in use cannot be renamed.
      for (let i = 0; i < 200; i++) {
        const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [
          building,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await admin.query("SELECT pg_advisory_unlock(hashtext('kilele_test_template'))");
    }
  });
}

async function withAdmin<T>(base: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(base: string, name: string) {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * An event on sale for nine more days from `now` (the test's clock, else the real time) at £12.50
 * a ticket, with whatever a test changes; its id.
 */
export async function insertEvent(
  db: Queryable,
  overrides: Partial<typeof events.$inferInsert> = {},
  now: Date = new Date(),
): Promise<string> {
  const day = 86_400_000;
  const [event] = await db
    .insert(events)
    .values({
      name: "Quiz Night",
      description: "Eight rounds and a supper.",
      posterImage: "pages/quiz-night",
      eventDate: new Date(now.getTime() + 10 * day),
      location: "Village hall",
      ticketCostPence: 1250,
      totalAvailableTickets: 50,
      ticketSaleExpiry: new Date(now.getTime() + 9 * day),
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returning({ id: events.id, ticketCostPence: events.ticketCostPence });
  await addDefaultTypes(db, [event!], now);
  return event!.id;
}
