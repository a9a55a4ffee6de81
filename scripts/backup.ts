// `npm run backup [-- --to FILE]`: writes one file holding the whole database (every table, the
// uploaded pictures with them) read in one snapshot, with a manifest and checksums
// (docs/operations.md, "Backups"). Uses the same configuration as the site (DATABASE_URL or
// DATA_DIR). On PostgreSQL it runs while the site serves; the embedded database can be opened by
// one process only, so stop the site first. With BACKUP_PASSPHRASE set, as the site's own backups
// are, the file is encrypted with it (age; FILE gains `.age`).
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../app/infra/config.server";
import { DatabaseInUseError, openDatabase } from "../app/infra/db/database.server";
import { NothingToBackUpError, makeBackup, siteVersion } from "../app/infra/db/backup.server";
import { encryptFile } from "../app/infra/db/backup-encryption.server";
import { systemClock } from "../app/lib/clock";

const usage = "Usage:\n  npm run backup\n  npm run backup -- --to FILE";

/** The file named by `--to FILE` (or `--to=FILE`); by default one named after the site and the time, in this folder. */
function target(args: string[], now: Date): string | undefined {
  if (args.length === 0) {
    const stamp = now
      .toISOString()
      .replace(/\.\d+Z$/, "Z")
      .replace(/:/g, "");
    return path.resolve(`${siteVersion().name}-${stamp}.backup.gz`);
  }
  if (args.length === 2 && args[0] === "--to" && args[1]) return path.resolve(args[1]);
  if (args.length === 1 && args[0]!.startsWith("--to=") && args[0]!.length > 5) return path.resolve(args[0]!.slice(5));
  return undefined;
}

function megabytes(bytes: number) {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

async function main() {
  const started = performance.now();
  const now = systemClock.now();
  const file = target(process.argv.slice(2), now);
  if (!file) {
    console.error(usage);
    return 2;
  }
  const config = getConfig();
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, "db"))) {
    console.error(
      `There is no embedded database in ${config.dataDir}: nothing to back up. Set DATA_DIR (or DATABASE_URL) as the site has it.`,
    );
    return 1;
  }
  let database;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrations: false });
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    console.error(
      `The site is running on the embedded database in ${config.dataDir}${error.owner ? ` (process ${error.owner})` : ""}, ` +
        "and only one process can open it at a time. Stop the site, run npm run backup again, then start the site: " +
        "it takes a few seconds. A site on PostgreSQL (DATABASE_URL) is backed up while it runs.",
    );
    return 1;
  }
  const passphrase = config.backups.passphrase;
  const written = passphrase && !file.endsWith(".age") ? `${file}.age` : file;
  // Encrypted, the plain file lives only until it is sealed, hidden beside the backup.
  const plain = passphrase
    ? path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.kilele-plain`)
    : file;
  try {
    const made = await makeBackup(database, { file: plain, now });
    const { manifest } = made;
    const bytes = passphrase ? await encryptFile(plain, written, passphrase) : made.bytes;
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backed up ${manifest.tables.length} tables, ${rows} rows, from the ${database.engine === "postgres" ? "PostgreSQL" : "embedded"} database ` +
        `(migration ${manifest.migration.tag ?? manifest.migration.when}, site ${manifest.site.version}) ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
    console.log(`${written} (${megabytes(bytes)}${passphrase ? ", encrypted with BACKUP_PASSPHRASE" : ""})`);
    console.log(
      passphrase
        ? "It holds personal data: keep it off this server, and the passphrase apart from it (docs/operations.md, Backups)."
        : "It holds personal data: keep it off this server, encrypted (docs/operations.md, Backups).",
    );
    return 0;
  } catch (error) {
    if (error instanceof NothingToBackUpError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    if (passphrase) await fs.promises.rm(plain, { force: true });
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
