import crypto from "node:crypto";
import fs from "node:fs/promises";
import fsSync from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder, type Queryable } from "./database.server";

/** One of the site's migrations, as drizzle-kit's journal lists it and drizzle records it once applied. */
export interface Migration {
  /** Its place in the journal, from 0. */
  index: number;
  /** Its file's name without `.sql`: "0014_outbox_sealed_words". */
  tag: string;
  /** The journal's time for it, which drizzle records as `created_at` when it is applied. */
  when: number;
  /** SHA-256 of its SQL file, as drizzle records it. */
  hash: string;
}

interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}

/** The migrations this code has, oldest first. */
export function knownMigrations(folder: string = migrationsFolder): Migration[] {
  const journal = JSON.parse(fsSync.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as Journal;
  return journal.entries.map((entry, index) => ({
    index,
    tag: entry.tag,
    when: entry.when,
    hash: crypto
      .createHash("sha256")
      .update(fsSync.readFileSync(path.join(folder, `${entry.tag}.sql`)))
      .digest("hex"),
  }));
}

/** The newest migration applied to a database, as drizzle recorded it; undefined when none has been. */
export async function appliedMigration(
  db: Queryable,
): Promise<{ when: number; hash: string; count: number } | undefined> {
  const [table] = await rowsOf<{ found: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`,
  );
  if (!table?.found) return undefined;
  const [last] = await rowsOf<{ when: string; hash: string; count: number }>(
    db,
    sql`select created_at::text as "when", hash, (select count(*)::int from drizzle.__drizzle_migrations) as count
        from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  );
  return last ? { when: Number(last.when), hash: last.hash, count: last.count } : undefined;
}

/**
 * A folder holding this code's migrations up to and including `last` and none after it: what
 * `DatabaseHandle.migrate` takes to bring a database to that migration and no further (a restore
 * of an older backup; tests of a database made at an earlier migration). Removed by `remove()`.
 */
export async function migrationsUpTo(last: string): Promise<{ folder: string; remove(): Promise<void> }> {
  const journal = JSON.parse(
    await fs.readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  const end = journal.entries.findIndex((entry) => entry.tag === last);
  if (end < 0) throw new Error(`There is no migration ${last} in ${migrationsFolder}.`);
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-migrations-"));
  await fs.mkdir(path.join(folder, "meta"));
  const entries = journal.entries.slice(0, end + 1);
  await fs.writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }, null, 2));
  for (const entry of entries) {
    await fs.copyFile(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  return { folder, remove: () => fs.rm(folder, { recursive: true, force: true }) };
}

/** The rows a raw statement answers, on either engine (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: Queryable, statement: Parameters<Queryable["execute"]>[0]): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}
