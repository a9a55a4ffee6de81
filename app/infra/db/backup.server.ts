import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { DatabaseHandle, Queryable } from "./database.server";
import {
  BackupWriter,
  backupFormat,
  backupFormatVersion,
  type BackupManifest,
  type TableManifest,
} from "./backup-file.server";
import { appliedMigration, committedMigrations, rowsOf } from "./migrations.server";

// A backup of the whole database, the same on either engine (docs/decisions/066-backups-one-file-either-engine.md):
// every table of the `public` schema, read in one snapshot, each row as a line of JSON.

/** A table as the database describes it: its columns in order, its primary key, the tables it refers to. */
export interface CatalogTable {
  name: string;
  columns: { name: string; type: string; identity: "always" | "by default" | null }[];
  primaryKey: string[];
  references: string[];
}

/**
 * The tables of the `public` schema (generated columns left out: the database makes them), in an
 * order where each comes after the tables its foreign keys refer to, so rows load in that order.
 */
export async function readCatalog(db: Queryable): Promise<CatalogTable[]> {
  const columns = await rowsOf<{ table: string; column: string; type: string; identity: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
               a.attidentity::text as "identity"
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' and c.relkind = 'r' and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; column: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column"
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
        join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
        where i.indisprimary and n.nspname = 'public'
        order by c.relname, k.position`,
  );
  const references = await rowsOf<{ table: string; refers: string }>(
    db,
    sql`select distinct c.relname as "table", r.relname as "refers"
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class r on r.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const tables = new Map<string, CatalogTable>();
  for (const row of columns) {
    let table = tables.get(row.table);
    if (!table) tables.set(row.table, (table = { name: row.table, columns: [], primaryKey: [], references: [] }));
    table.columns.push({
      name: row.column,
      type: row.type,
      identity: row.identity === "a" ? "always" : row.identity === "d" ? "by default" : null,
    });
  }
  for (const row of keys) tables.get(row.table)?.primaryKey.push(row.column);
  for (const row of references) {
    if (row.refers !== row.table) tables.get(row.table)?.references.push(row.refers);
  }
  return dependencyOrder([...tables.values()]);
}

/** Each table after the ones it refers to; among those free to go next, by name, so the order is always the same. */
function dependencyOrder(tables: CatalogTable[]): CatalogTable[] {
  const ordered: CatalogTable[] = [];
  const placed = new Set<string>();
  const waiting = [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  while (waiting.length > 0) {
    const next = waiting.findIndex((table) => table.references.every((name) => placed.has(name)));
    if (next < 0) {
      throw new Error(`The tables ${waiting.map((t) => t.name).join(", ")} refer to each other in a circle.`);
    }
    const [table] = waiting.splice(next, 1);
    ordered.push(table!);
    placed.add(table!.name);
  }
  return ordered;
}

export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Types written as JSON strings as they are (and ordered byte by byte when they are a key). */
const textTypes = /^(text|character varying(\(\d+\))?|character(\(\d+\))?)$/;
const timeTypes = /^(timestamp(\(\d\))? with(out)? time zone|date)$/;

/**
 * A column's value as the backup writes it, the same text on either engine: numbers, booleans and
 * text as JSON; times as ISO 8601 in UTC; bytea as base64; anything else (uuid, jsonb, bigint,
 * numeric) as a string of PostgreSQL's own text for it, which its type reads back exactly.
 */
function encoded(column: { name: string; type: string }): string {
  const name = quoted(column.name);
  // replace(), not translate(): five times faster on a picture in PGlite.
  if (column.type === "bytea") return `replace(encode(${name}, 'base64'), E'\\n', '')`;
  if (/^(boolean|smallint|integer)$/.test(column.type) || textTypes.test(column.type)) return name;
  if (timeTypes.test(column.type)) return `to_json(${name})`;
  return `${name}::text`;
}

/** The SQL that answers a table's rows as backup lines, in their canonical order. */
function rowsQuery(table: { name: string; columns: { name: string; type: string }[]; primaryKey: string[] }) {
  if (table.columns.length > 100) throw new Error(`Table ${table.name} has more than 100 columns.`);
  const line = `json_build_array(${table.columns.map(encoded).join(", ")})::text`;
  // Byte order for text keys, so both engines (whatever their collation) give the rows in one order.
  const order =
    table.primaryKey.length > 0
      ? table.primaryKey
          .map((key) => {
            const type = table.columns.find((column) => column.name === key)?.type ?? "";
            return textTypes.test(type) ? `${quoted(key)} collate "C"` : quoted(key);
          })
          .join(", ")
      : `1 collate "C"`;
  return `select ${line} as line from ${quoted(table.name)} order by ${order}`;
}

/** How many rows are fetched at once: fewer where a row may hold a picture. */
function fetchSize(table: { columns: { type: string }[] }) {
  return table.columns.some((column) => column.type === "bytea") ? 8 : 500;
}

/**
 * Reads every row of `table` inside the current transaction, handing them on in batches of lines;
 * answers how many there were and the SHA-256 of the lines, each with its newline.
 */
async function readTable(
  tx: Queryable,
  table: { name: string; columns: { name: string; type: string }[]; primaryKey: string[] },
  each?: (lines: string[]) => Promise<void>,
): Promise<{ rows: number; sha256: string }> {
  const hash = crypto.createHash("sha256");
  let rows = 0;
  const size = fetchSize(table);
  await tx.execute(sql.raw(`declare backup_rows no scroll cursor for ${rowsQuery(table)}`));
  for (;;) {
    const batch = await rowsOf<{ line: string }>(tx, sql.raw(`fetch forward ${size} from backup_rows`));
    const lines = batch.map((row) => row.line);
    for (const line of lines) hash.update(`${line}\n`);
    rows += lines.length;
    if (each && lines.length > 0) await each(lines);
    if (lines.length < size) break;
  }
  await tx.execute(sql.raw("close backup_rows"));
  return { rows, sha256: hash.digest("hex") };
}

/**
 * Runs `work` in one read-only transaction that sees a single snapshot of the whole database:
 * REPEATABLE READ on PostgreSQL (other connections go on writing; none of it is seen), and on the
 * embedded database PGlite's one connection, which other queries wait for. Times are written in UTC.
 */
async function inSnapshot<T>(db: Queryable, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local time zone 'UTC'`);
      await tx.execute(sql`set local datestyle = 'ISO, YMD'`);
      await tx.execute(sql`set local intervalstyle = 'postgres'`);
      await tx.execute(sql`set local extra_float_digits = 1`);
      return work(tx);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Each table's row count and checksum, read in one snapshot as a backup would write them. */
export async function tableChecksums(
  db: Queryable,
  tables: readonly { name: string; columns: { name: string; type: string }[] }[],
): Promise<{ name: string; rows: number; sha256: string }[]> {
  return inSnapshot(db, async (tx) => {
    const catalog = new Map((await readCatalog(tx)).map((table) => [table.name, table]));
    const sums = [];
    for (const table of tables) {
      const primaryKey = catalog.get(table.name)?.primaryKey ?? [];
      sums.push({ name: table.name, ...(await readTable(tx, { ...table, primaryKey })) });
    }
    return sums;
  });
}

/** The site's name and version, from its package.json. */
export function siteVersion(): { name: string; version: string } {
  const manifest = JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as {
    name?: string;
    version?: string;
  };
  return { name: manifest.name ?? "unknown", version: manifest.version ?? "unknown" };
}

export class NothingToBackUpError extends Error {
  override name = "NothingToBackUpError";
}

export interface BackupResult {
  file: string;
  /** The file's size. */
  bytes: number;
  manifest: BackupManifest;
}

/**
 * Writes a backup of the whole database to `file`: every table in one snapshot, with its manifest
 * and checksums (backup-file.server.ts). The file appears under its name only when complete. The
 * running site and `npm run backup` both make backups with this.
 */
export async function makeBackup(
  database: Pick<DatabaseHandle, "db" | "engine">,
  options: { file: string; now: Date },
): Promise<BackupResult> {
  const writer = await BackupWriter.create(options.file);
  try {
    const manifest = await inSnapshot(database.db, async (tx) => {
      const migration = await appliedMigration(tx);
      if (!migration) {
        throw new NothingToBackUpError(
          "The database has no tables: the site has never started on it, so there is nothing to back up.",
        );
      }
      const [server] = await rowsOf<{ version: string }>(tx, sql`select current_setting('server_version') as version`);
      const tables: TableManifest[] = [];
      for (const table of await readCatalog(tx)) {
        await writer.table(table.name);
        const sums = await readTable(tx, table, (lines) => writer.rows(lines));
        tables.push({
          name: table.name,
          columns: table.columns.map(({ name, type }) => ({ name, type })),
          ...sums,
        });
      }
      const known = committedMigrations().find((entry) => entry.when === migration.when);
      return {
        format: backupFormat,
        formatVersion: backupFormatVersion,
        site: siteVersion(),
        engine: database.engine,
        server: server?.version ?? "",
        migration: { tag: known?.tag ?? null, when: migration.when, hash: migration.hash, count: migration.count },
        createdAt: options.now.toISOString(),
        tables,
      } satisfies BackupManifest;
    });
    const bytes = await writer.finish(manifest);
    return { file: writer.file, bytes, manifest };
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}
