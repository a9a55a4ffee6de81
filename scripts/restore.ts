// `npm run restore -- FILE [--replace]`: restores a backup made by `npm run backup` into the
// database the configuration names (DATABASE_URL, else the embedded one in DATA_DIR), checking
// the file first and every table after (docs/operations.md, "Backups"). Either engine's backup
// restores onto either. With the embedded database, stop the site first. A backup encrypted with
// BACKUP_PASSPHRASE (the site's own backups, decision 070) is opened with BACKUP_PASSPHRASE from
// the environment, else with a passphrase typed at the terminal.
import fs from "node:fs";
import { getConfig } from "../app/infra/config.server";
import { DatabaseInUseError, openDatabase } from "../app/infra/db/database.server";
import { BackupFileError } from "../app/infra/db/backup-file.server";
import { RestoreRefusedError, restoreBackup } from "../app/infra/db/restore.server";
import { WrongPassphraseError, decryptToTemporaryFile, isEncrypted } from "../app/infra/db/backup-encryption.server";

/** Reads a line from the terminal without showing what is typed. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    // Echo off before the question shows, so nothing typed after it is ever shown.
    input.setRawMode(true);
    process.stderr.write(question);
    input.resume();
    input.setEncoding("utf8");
    let typed = "";
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new Error("Not restored: stopped at the passphrase."));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on("data", onData);
  });
}

/**
 * The backup to read: `file` itself, or, when it is encrypted, a decrypted copy in a temporary
 * folder (removed by `remove`). Undefined, having said why, when it cannot be opened.
 */
async function openedBackup(file: string): Promise<{ file: string; remove: () => Promise<void> } | undefined> {
  if (!fs.existsSync(file) || !(await isEncrypted(file))) return { file, remove: async () => {} };
  let passphrase = process.env.BACKUP_PASSPHRASE?.trim();
  if (!passphrase) {
    if (!process.stdin.isTTY) {
      console.error(
        `Not restored: ${file} is encrypted. Set BACKUP_PASSPHRASE to the passphrase it was made with, or run this at a terminal to be asked for it.`,
      );
      return undefined;
    }
    passphrase = await askHidden(`${file} is encrypted. Its passphrase (BACKUP_PASSPHRASE when it was made): `);
  }
  try {
    return await decryptToTemporaryFile(file, passphrase);
  } catch (error) {
    if (!(error instanceof WrongPassphraseError)) throw error;
    console.error(`Not restored, nothing changed: ${error.message}`);
    return undefined;
  }
}

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
  const opened = await openedBackup(file);
  if (!opened) return 1;
  try {
    return await restoreFrom(file, opened.file, replace, started);
  } finally {
    await opened.remove();
  }
}

/** Restores the backup `named` (read from `readable`: itself, or its decrypted copy). */
async function restoreFrom(named: string, readable: string, replace: boolean, started: number) {
  const file = named;
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
    const report = await restoreBackup(database, readable, { replace });
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
