// `npm run migrate`: brings the configured database (DATABASE_URL, or the embedded one in DATA_DIR)
// up to this version's migrations once, says what it applied, and exits: for a deployment that
// migrates before it starts its processes. The site migrates at start-up too, so running this
// first is optional; each migration runs in its own transaction, and a failed one is undone and
// named (exit code 1). With the embedded database, stop the site first: it is backed up into
// BACKUP_DIR (else DATA_DIR/backups) before any migration is applied, as the site does at start-up.
import { getConfig } from "../app/infra/config.server";
import { openDatabase } from "../app/infra/db/database.server";
import { committedMigrations } from "../app/infra/db/migrations.server";
import { backupBeforeMigrating } from "../app/infra/db/automatic-backups.server";
import { systemClock } from "../app/lib/clock";
import path from "node:path";

async function main() {
  const config = getConfig();
  const where = config.databaseUrl
    ? "the PostgreSQL database (DATABASE_URL)"
    : `the embedded database in ${config.dataDir}`;
  const before = backupBeforeMigrating(
    { dir: config.backups.dir ?? path.join(config.dataDir, "backups"), passphrase: config.backups.passphrase },
    () => systemClock.now(),
  );
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    beforeMigrating: before.beforeMigrating,
  });
  try {
    await before.record(database.db);
  } finally {
    await database.close();
  }
  const total = committedMigrations().length;
  if (database.migrationsApplied.length === 0) {
    console.log(`Up to date: all ${total} migrations were already applied to ${where}.`);
  } else {
    console.log(`Applied ${database.migrationsApplied.length} of ${total} migrations to ${where}:`);
    for (const tag of database.migrationsApplied) console.log(`  ${tag}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`Nothing more was migrated.\n${error.message}`);
    process.exit(1);
  },
);
