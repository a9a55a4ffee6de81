import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "~db/schema";

// The committed migrations (db/migrations, written by drizzle-kit) and how they are applied: each
// in a transaction of its own, so a failure undoes that migration alone and names its file
// (docs/decisions/065-health-and-safe-migrations.md). drizzle's own migrator applies every pending
// migration in one transaction and names none; the record it keeps is kept the same way here
// (`drizzle.__drizzle_migrations`: the file's SHA-256 and the journal's `when`), so databases
// migrated by either are read by both.

/** One migration file, as the journal (db/migrations/meta/_journal.json) lists it. */
export interface Migration {
  /** Its place in the journal, from 0. */
  index: number;
  /** The file's name without `.sql`: `0008_cards_on_receipts`. */
  tag: string;
  /** Where the file is, relative to the working folder: what a failure names. */
  file: string;
  /** The journal's `when`: the migration's place in the order, and its key in the record. */
  when: number;
  /** SHA-256 of the file, as drizzle records it. */
  hash: string;
  statements: string[];
}

export const migrationsFolder = path.resolve("db/migrations");

/** The migrations in `folder` (db/migrations unless given), in the journal's order. */
export function committedMigrations(folder: string = migrationsFolder): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }, index) => {
    const file = path.join(folder, `${tag}.sql`);
    const text = fs.readFileSync(file, "utf8");
    return {
      index,
      tag,
      file: path.relative(process.cwd(), file) || file,
      when,
      hash: crypto.createHash("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint").filter((statement) => statement.trim() !== ""),
    };
  });
}

/** A migration that failed: undone, with its file named. */
export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    /** The failing migration's file. */
    readonly file: string,
    cause: unknown,
  ) {
    super(`The migration ${file} failed and was undone, so the database is as it was before it: ${reasonOf(cause)}`, {
      cause,
    });
  }
}

/** The database's own words (drizzle wraps them with the whole statement). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const own = cause instanceof Error ? cause : error instanceof Error ? error : new Error(String(error));
  return own.message;
}

type MigratingDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What a raw statement runs on: a database or a transaction on it (database.server's Queryable, which imports this file). */
type Queryable = Pick<MigratingDatabase, "execute">;

const record = sql`drizzle.__drizzle_migrations`;

/**
 * Applies the migrations the database lacks, in order, each in its own transaction with its line
 * in the record; returns the tags applied. As drizzle does, a migration is pending when its `when`
 * is later than the last one recorded. On PostgreSQL `db` must be one connection (a transaction
 * per migration, under the caller's advisory lock).
 */
export async function applyMigrations(db: MigratingDatabase, migrations: Migration[]): Promise<string[]> {
  await db.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS ${record} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
  const [last] = resultRows<{ created_at: string | number }>(
    await db.execute(sql`SELECT created_at FROM ${record} ORDER BY created_at DESC LIMIT 1`),
  );
  const lastWhen = last ? Number(last.created_at) : -Infinity;
  const applied: string[] = [];
  for (const migration of migrations) {
    if (migration.when <= lastWhen) continue;
    try {
      await db.transaction(async (tx) => {
        for (const statement of migration.statements) await tx.execute(sql.raw(statement));
        await tx.execute(sql`INSERT INTO ${record} (hash, created_at) VALUES (${migration.hash}, ${migration.when})`);
      });
    } catch (error) {
      throw new MigrationError(migration.file, error);
    }
    applied.push(migration.tag);
  }
  return applied;
}

/** The query that reads which migrations a database has applied (their `when`s), for the readiness check. */
export const appliedMigrationsQuery = "SELECT created_at FROM drizzle.__drizzle_migrations";

/** What a database's record of applied migrations (`when`s) says against the committed ones. */
export function migrationsState(
  applied: number[],
  committed: Migration[],
): { current: boolean; pending: string[]; unknown: number } {
  const appliedSet = new Set(applied);
  const committedSet = new Set(committed.map((migration) => migration.when));
  const pending = committed.filter((migration) => !appliedSet.has(migration.when)).map((migration) => migration.tag);
  const unknown = applied.filter((when) => !committedSet.has(when)).length;
  return { current: pending.length === 0 && unknown === 0, pending, unknown };
}

function resultRows<T>(result: unknown): T[] {
  // Both engines' drivers answer with { rows }.
  return (result as { rows: T[] }).rows;
}

/** The rows a raw statement answers, on either engine. */
export async function rowsOf<T>(db: Queryable, statement: Parameters<Queryable["execute"]>[0]): Promise<T[]> {
  return resultRows<T>(await db.execute(statement));
}

/** The newest migration applied to a database, as recorded; undefined when none has been. */
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
 * This code's migrations up to and including `last` and none after it: what
 * `DatabaseHandle.migrate` takes to bring a database to that migration and no further (a restore
 * of an older backup; tests of a database made at an earlier migration).
 */
export function migrationsUpTo(last: string): Migration[] {
  const migrations = committedMigrations();
  const end = migrations.findIndex((migration) => migration.tag === last);
  if (end < 0) throw new Error(`There is no migration ${last} in ${migrationsFolder}.`);
  return migrations.slice(0, end + 1);
}
