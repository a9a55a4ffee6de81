import { sql } from "drizzle-orm";
import type { DatabaseHandle, Queryable } from "./database.server";
import { readBackup, type BackupManifest } from "./backup-file.server";
import { quoted, readCatalog, tableChecksums, type CatalogTable } from "./backup.server";
import { committedMigrations, migrationsUpTo, rowsOf, type Migration } from "./migrations.server";
import { plural } from "~/lib/plural";

/** A restore that was not started, or stopped before it changed anything that matters; the message says why. */
export class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** Each table as restored, against the manifest, read back before any later migration ran. */
  tables: { name: string; expectedRows: number; rows: number; checksumMatches: boolean }[];
  /** The migration the backup was made at, and the one the database is at now. */
  migratedFrom: string;
  migratedTo: string;
}

/**
 * Restores a backup into `target`, opened without migrating (`migrations: false`):
 * 1. checks the whole file (every table's checksum and the file's) before touching anything;
 * 2. refuses a backup made at a migration this code does not have (a newer version of the site's);
 * 3. refuses a target holding any rows unless `replace`, and otherwise clears it;
 * 4. migrates it to the backup's migration, loads every row in one transaction, in dependency
 *    order, and sets identity sequences past the highest id;
 * 5. reads every table back and compares its count and checksum with the manifest;
 * 6. migrates it forward to this code's newest migration.
 */
export async function restoreBackup(
  target: DatabaseHandle,
  file: string,
  options: { replace?: boolean } = {},
): Promise<RestoreReport> {
  const manifest = await readBackup(file);
  const migrations = committedMigrations();
  const newest = migrations.at(-1)!;
  const made = migrations.find((migration) => migration.when === manifest.migration.when);
  if (!made) {
    const at = manifest.migration.tag ?? `one dated ${new Date(manifest.migration.when).toISOString()}`;
    throw new RestoreRefusedError(
      manifest.migration.when > newest.when
        ? `This backup was made by a newer version of the site (${manifest.site.name} ${manifest.site.version}): ` +
            `its database is at migration ${at}, which this version does not have (its newest is ${newest.tag}). ` +
            "Restore it with that version of the site or a later one."
        : `This backup's database is at migration ${at}, which is not one of this site's migrations (the newest is ${newest.tag}): ` +
            "it was made by another application, or by a changed copy of this one.",
    );
  }

  await clearTarget(target.db, options.replace ?? false);
  await target.migrate(migrationsUpTo(made.tag));
  const catalog = await readCatalog(target.db);
  checkSameTables(manifest, catalog, made);

  const byName = new Map(catalog.map((table) => [table.name, table]));
  await target.db.transaction(async (tx) => {
    await readBackup(file, { rows: (table, lines) => insertRows(tx, byName.get(table.name)!, lines) });
    await resetSequences(tx);
  });

  const sums = await tableChecksums(target.db, manifest.tables);
  const tables = manifest.tables.map((table, i) => ({
    name: table.name,
    expectedRows: table.rows,
    rows: sums[i]!.rows,
    checksumMatches: sums[i]!.sha256 === table.sha256,
  }));
  const wrong = tables.filter((table) => table.rows !== table.expectedRows || !table.checksumMatches);
  if (wrong.length > 0) {
    throw new Error(
      `The restored tables do not match the backup's manifest: ${wrong.map((table) => `${table.name} (${table.rows} rows, ${table.expectedRows} expected${table.checksumMatches ? "" : ", checksum differs"})`).join(", ")}.`,
    );
  }
  if (made.index < newest.index) await target.migrate();
  return { manifest, tables, migratedFrom: made.tag, migratedTo: newest.tag };
}

/**
 * A target may hold tables but no rows (a database the site migrated and never used); with rows it
 * is refused unless `replace`. Either way its tables and drizzle's record of migrations are dropped,
 * so it can be migrated to the backup's migration from nothing.
 */
async function clearTarget(db: Queryable, replace: boolean) {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  const counts: { name: string; rows: number }[] = [];
  for (const { name } of tables) {
    const [row] = await rowsOf<{ rows: number }>(db, sql.raw(`select count(*)::int as rows from ${quoted(name)}`));
    if (row && row.rows > 0) counts.push({ name, rows: row.rows });
  }
  if (counts.length > 0 && !replace) {
    const total = counts.reduce((sum, table) => sum + table.rows, 0);
    const some = counts
      .sort((a, b) => b.rows - a.rows)
      .slice(0, 5)
      .map((table) => `${table.name}: ${table.rows}`)
      .join(", ");
    throw new RestoreRefusedError(
      `The target database is not empty: it holds ${plural(total, "row")} in ${plural(counts.length, "table")} (${some}${counts.length > 5 ? ", …" : ""}). ` +
        "Restore into an empty DATA_DIR or an empty PostgreSQL database, or add --replace to delete everything in this one first.",
    );
  }
  await db.transaction(async (tx) => {
    if (tables.length > 0) {
      await tx.execute(sql.raw(`drop table if exists ${tables.map(({ name }) => quoted(name)).join(", ")} cascade`));
    }
    await tx.execute(sql`drop schema if exists drizzle cascade`);
  });
}

/** The target, migrated to the backup's migration, must have exactly the backup's tables and columns. */
function checkSameTables(manifest: BackupManifest, catalog: CatalogTable[], made: Migration) {
  const describe = (table: { name: string; columns: { name: string; type: string }[] }) =>
    `${table.name}(${table.columns.map((column) => `${column.name} ${column.type}`).join(", ")})`;
  const expected = [...manifest.tables].sort(byName).map(describe);
  const actual = [...catalog].sort(byName).map(describe);
  const differs = expected.find((table, i) => table !== actual[i]) ?? actual.find((table, i) => table !== expected[i]);
  if (differs) {
    throw new RestoreRefusedError(
      `The backup's tables are not the ones migration ${made.tag} makes (first difference: ${differs}): ` +
        "it was not made from this site's database, or its migrations were changed. Nothing was restored.",
    );
  }
}

function byName(a: { name: string }, b: { name: string }) {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Inserts a batch of row lines. PostgreSQL parses the batch as one JSON array and each value with
 * its column's own type (bytea from base64), so both engines read what either wrote.
 */
async function insertRows(tx: Queryable, table: CatalogTable, lines: string[]) {
  const columns = table.columns.map((column) => quoted(column.name)).join(", ");
  const values = table.columns
    .map((column, i) =>
      column.type === "bytea" ? `decode(r.value->>${i}, 'base64')` : `(r.value->>${i})::${column.type}`,
    )
    .join(", ");
  const overriding = table.columns.some((column) => column.identity === "always") ? "overriding system value " : "";
  await tx.execute(
    sql`${sql.raw(`insert into ${quoted(table.name)} (${columns}) ${overriding}select ${values} from json_array_elements(`)}${`[${lines.join(",")}]`}${sql.raw("::json) as r(value)")}`,
  );
}

/** Identity and serial columns' sequences set past the highest value restored, so new rows get new ids. */
async function resetSequences(tx: Queryable) {
  const owned = await rowsOf<{ table: string; column: string; sequence: string }>(
    tx,
    sql`select * from (
          select c.relname as "table", a.attname as "column",
                 pg_get_serial_sequence(format('public.%I', c.relname), a.attname) as "sequence"
          from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where n.nspname = 'public' and c.relkind = 'r'
        ) as columns where "sequence" is not null`,
  );
  for (const { table, column, sequence } of owned) {
    await tx.execute(
      sql`select setval(${sequence}::regclass, coalesce((select max(${sql.raw(quoted(column))}) from ${sql.raw(quoted(table))}), 0) + 1, false)`,
    );
  }
}
