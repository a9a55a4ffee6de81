import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { volunteers } from "~db/schema";
import { createPostgresDatabase, engines, freshDatabase, unmigratedDatabase } from "../../../tests/support/databases";
import { newSiteDataDir } from "../../../tests/support/site-process";
import { TcpProxy } from "../../../tests/support/tcp-proxy";
import { openDatabase, type Database } from "./database.server";
import { committedMigrations } from "./migrations.server";

describe.each(engines)("the database on %s", (engine) => {
  it("comes up with every migration applied", async () => {
    const database = await freshDatabase(engine);
    try {
      await database.db
        .insert(volunteers)
        .values({ name: "A", email: "a@example.org", reason: "r", createdAt: new Date() });
      expect(await database.db.$count(volunteers)).toBe(1);
      expect(database.engine).toBe(engine);
    } finally {
      await database.close();
    }
  });

  // Tests start from a prepared, migrated copy (tests/support/databases.ts): it must be the very
  // database that running every migration on an empty one gives. So must the prepared empty copy
  // (`unmigratedDatabase`, a restore's target) once migrated.
  it("is the same, copied from the prepared one, as migrated from empty", async () => {
    let fromEmpty: { db: Database; close(): Promise<void> };
    if (engine === "pglite") {
      fromEmpty = await openDatabase({ dataDir: "memory" });
    } else {
      const { url, drop } = await createPostgresDatabase();
      const handle = await openDatabase({ url });
      fromEmpty = {
        db: handle.db,
        async close() {
          await handle.close();
          await drop();
        },
      };
    }
    const copied = await freshDatabase(engine);
    const emptyCopy = await unmigratedDatabase(engine, committedMigrations());
    try {
      const expected = await describeDatabase(fromEmpty.db);
      expect(expected.tables.length).toBeGreaterThan(5);
      expect(expected.migrations.length).toBeGreaterThan(5);
      expect(await describeDatabase(copied.db)).toEqual(expected);
      expect(await describeDatabase(emptyCopy.db)).toEqual(expected);
    } finally {
      await emptyCopy.close();
      await copied.close();
      await fromEmpty.close();
    }
  });
});

// Several server processes on one PostgreSQL database may start at the same moment (a deploy, a
// scaled service): each runs the migrations, and they must not trip over each other.
describe.runIf(engines.includes("postgres"))("an empty PostgreSQL database opened by several processes at once", () => {
  it("is migrated once, and every one of them opens it", async () => {
    const { url, drop } = await createPostgresDatabase();
    const handles: { close(): Promise<void> }[] = [];
    try {
      const opened = await Promise.allSettled([1, 2, 3].map(() => openDatabase({ url })));
      for (const result of opened) if (result.status === "fulfilled") handles.push(result.value);
      expect(opened.map((result) => (result.status === "rejected" ? String(result.reason) : "opened"))).toEqual([
        "opened",
        "opened",
        "opened",
      ]);
      const first = opened[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof openDatabase>>>;
      const applied = (await first.value.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { n: number }[] };
      const files = (await fs.readdir(path.resolve("db/migrations"))).filter((file) => file.endsWith(".sql"));
      expect(applied.rows[0]).toEqual({ n: files.length });
    } finally {
      for (const handle of handles) await handle.close();
      await drop();
    }
  });
});

// A connection PostgreSQL drops while the site is using it (a transaction between statements)
// must fail that work only: pg reports it as an "error" event that nobody heard, which ended the process.
describe.runIf(engines.includes("postgres"))("a PostgreSQL connection lost while in use", () => {
  it("fails the work using it, not the process, and the pool carries on once the database is back", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    const { url, drop } = await createPostgresDatabase({ migrated: true });
    const database = await openDatabase({ url: proxy.through(url) });
    try {
      let began: () => void = () => undefined;
      const inTransaction = new Promise<void>((resolve) => (began = resolve));
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        began();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 2`);
      });
      await inTransaction;
      proxy.cut();
      await expect(transaction).rejects.toThrow();
      // Idle connections and the one lent out are gone; once the database is back, new ones serve.
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.restore();
      expect(await database.db.$count(volunteers)).toBe(0);
    } finally {
      await database.close();
      await proxy.close();
      await drop();
      vi.restoreAllMocks();
    }
  });
});

/** Everything the migrations make: tables, columns, constraints, indexes, sequences, rows, and the migrations' own record. */
async function describeDatabase(db: Database) {
  // Both engines' drivers answer with { rows }.
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const tables = await rows(sql`
    SELECT table_schema, table_name FROM information_schema.tables
    WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`);
  const columns = await rows(sql`
    SELECT table_schema, table_name, column_name, data_type, is_nullable, column_default, ordinal_position
    FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`);
  const constraints = await rows(sql`
    SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    ORDER BY 1, 2`);
  const indexes = await rows(sql`
    SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`);
  const sequences = await rows(sql`
    SELECT sequence_schema, sequence_name, start_value FROM information_schema.sequences ORDER BY 1, 2`);
  const types = await rows(sql`
    SELECT t.typname, e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY 1, e.enumsortorder`);
  const counts: Record<string, number> = {};
  for (const { table_schema, table_name } of tables) {
    if (table_schema === "drizzle") continue;
    const [row] = await rows(sql.raw(`SELECT count(*)::int AS n FROM "${table_schema}"."${table_name}"`));
    counts[`${table_schema}.${table_name}`] = Number(row!.n);
  }
  const migrations = await rows(sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id`);
  return { tables, columns, constraints, indexes, sequences, types, counts, migrations };
}

// These open PGlite on a real folder. The first starts on an empty one, as a new site does: initdb
// and every migration, in WebAssembly, written to disk, about 4 s on a quiet machine. The lock's
// tests start on a copy of a folder the site's own openDatabase migrated (newSiteDataDir): what
// they test is the lock, not the first start. Under the clock check, beside the browser tests on
// two cores, one took over 30 s. The limit is a bound on a hang, not a wait, so it is generous.
// They are the embedded engine's, so they run when it is among the engines tested: not in the clock
// check, where faketime moves PGlite's clock with the test's and nothing here reads a time anyway
// (decision 046).
const onDisk = { timeout: 120_000 };

if (engines.includes("pglite")) describeOnDisk();

function describeOnDisk() {
  describe("the embedded database", onDisk, () => {
    const dirs: string[] = [];
    afterAll(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

    it("keeps its data in DATA_DIR across a restart", async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-db-"));
      dirs.push(dataDir);
      const first = await openDatabase({ dataDir });
      await first.db
        .insert(volunteers)
        .values({ name: "B", email: "b@example.org", reason: "r", createdAt: new Date() });
      await first.close();
      const second = await openDatabase({ dataDir });
      expect(await second.db.select({ name: volunteers.name }).from(volunteers)).toEqual([{ name: "B" }]);
      await second.close();
    });
  });

  describe("the embedded database's lock", onDisk, () => {
    it("refuses a second opening of the same data folder while the first is open, and allows it after", async () => {
      const dataDir = await newSiteDataDir();
      try {
        const first = await openDatabase({ dataDir });
        // The same process opening it twice is as dangerous as two processes: use a foreign live pid.
        await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), String(process.ppid));
        await expect(openDatabase({ dataDir })).rejects.toThrow(/is in use by process \d+\. Stop the site first/);
        await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), String(process.pid));
        await first.close();
        const second = await openDatabase({ dataDir });
        await second.close();
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });

    it("takes over a lock left by a process that has died", async () => {
      const dataDir = await newSiteDataDir();
      try {
        await fs.writeFile(path.join(dataDir, "db", "kilele.lock"), "999999");
        const database = await openDatabase({ dataDir });
        await database.close();
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
