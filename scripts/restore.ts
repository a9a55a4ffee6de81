// `npm run restore -- FILE [--replace]`: restores a backup made by `npm run backup` into the
// database the configuration names (DATABASE_URL, else the embedded one in DATA_DIR), checking
// the file first and every table after (docs/operations.md, "Backups"). Either engine's backup
// restores onto either. With the embedded database, stop the site first.
import { getConfig } from "../app/infra/config.server";
import { DatabaseInUseError, openDatabase } from "../app/infra/db/database.server";
import { BackupFileError } from "../app/infra/db/backup-file.server";
import { RestoreRefusedError, restoreBackup } from "../app/infra/db/restore.server";

const usage = "Usage:\n  npm run restore -- FILE\n  npm run restore -- FILE --replace";

async function main() {
  const started = performance.now();
  const args = process.argv.slice(2);
  const replace = args.includes("--replace");
  const files = args.filter((arg) => arg !== "--replace");
  if (files.length !== 1 || files[0]!.startsWith("--")) {
    console.error(usage);
    return 2;
  }
  const file = files[0]!;
  const config = getConfig();
  const where = config.databaseUrl
    ? "the PostgreSQL database (DATABASE_URL)"
    : `the embedded database in ${config.dataDir}`;
  let database;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrations: false });
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    console.error(
      `The site is running on the embedded database in ${config.dataDir}${error.owner ? ` (process ${error.owner})` : ""}: stop it before restoring into it.`,
    );
    return 1;
  }
  try {
    const report = await restoreBackup(database, file, { replace });
    const { manifest } = report;
    console.log(
      `Restored ${file} into ${where}: made ${manifest.createdAt} by ${manifest.site.name} ${manifest.site.version} ` +
        `on ${manifest.engine === "postgres" ? "PostgreSQL" : "the embedded database"}, at migration ${report.migratedFrom}.`,
    );
    const width = Math.max(...report.tables.map((table) => table.name.length));
    console.log(`  ${"table".padEnd(width)}  ${"rows".padStart(8)}  checksum`);
    for (const table of report.tables) {
      console.log(
        `  ${table.name.padEnd(width)}  ${String(table.rows).padStart(8)}  ${table.checksumMatches ? "matches the manifest" : "DIFFERS"}`,
      );
    }
    const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(`Every table's rows and checksum match the manifest: ${report.tables.length} tables, ${rows} rows.`);
    if (report.migratedFrom !== report.migratedTo) {
      console.log(`Migrated forward from ${report.migratedFrom} to ${report.migratedTo}.`);
    }
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  } catch (error) {
    if (error instanceof BackupFileError || error instanceof RestoreRefusedError) {
      console.error(`Not restored: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
