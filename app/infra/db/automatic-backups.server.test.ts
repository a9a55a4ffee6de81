import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupRuns, outbox } from "~db/schema";
import { openDatabase, type DatabaseHandle } from "./database.server";
import { readBackup } from "./backup-file.server";
import { restoreBackup } from "./restore.server";
import { migrationsUpTo } from "./migrations.server";
import {
  backupBeforeMigrating,
  backupStatus,
  backupsToDelete,
  dailyBackupName,
  pruneBackups,
  runDailyBackup,
  type BackupSettings,
} from "./automatic-backups.server";
import { decryptToTemporaryFile, isEncrypted } from "./backup-encryption.server";
import { currentProblems, raiseAlerts } from "../signals.server";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { emptyPgliteDump, engines, freshDatabase, unmigratedDatabase } from "../../../tests/support/databases";

// The backups the running site makes by itself (decision 070): one a day at the hour, by one
// process of several, kept by the retention rule, recorded, warned about and alerted on when they
// fail, encrypted with a passphrase when one is set; and a copy before the embedded database migrates.

const hours = (n: number) => n * 3_600_000;

let folder: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-auto-backups-"));
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe("which backups are kept", () => {
  it("keeps the newest 14 and the first of each month for a year, and leaves other files alone", async () => {
    const now = new Date("2026-11-27T02:00:00Z");
    const names: string[] = [];
    // A daily backup every day from 2025-09-01 to today.
    for (let day = new Date("2025-09-01T02:00:00Z"); day <= now; day = new Date(day.getTime() + hours(24))) {
      names.push(dailyBackupName(day, day.getUTCDate() % 2 === 0));
    }
    const others = ["notes.txt", "kilele-before-0016_backup_runs-2026-11-01T0900Z.backup.gz", "site.backup.gz"];
    for (const name of [...names, ...others]) await fs.writeFile(path.join(folder, name), "x");

    const deleted = await pruneBackups(folder, 14, now);
    const left = (await fs.readdir(folder)).sort();
    const kept = left.filter((name) => !others.includes(name));
    // The newest 14 days, and the 1st of each of the last 12 months, 2025-12 to 2026-11.
    const firsts = [
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
      "2026-06-01",
      "2026-07-01",
      "2026-08-01",
      "2026-09-01",
      "2026-10-01",
      "2026-11-01",
    ];
    const newest = names.slice(-14).map((name) => name.slice(7, 17));
    expect(kept.map((name) => name.slice(7, 17))).toEqual([...firsts, ...newest]);
    expect(kept.length + deleted.length).toBe(names.length);
    for (const name of others) expect(left).toContain(name);
    // Run again: nothing more goes.
    expect(backupsToDelete(left, 14, now)).toEqual([]);
  });
});

describe.each(engines)("the daily backup on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let settings: BackupSettings;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    // 01:30 in London (GMT in November).
    clock = testClock("2026-11-27T01:30:00Z");
    settings = { dir: path.join(folder, "backups"), hour: 2, keep: 14, passphrase: undefined };
  });
  afterEach(() => database.close());

  const files = async () => (await fs.readdir(settings.dir!).catch(() => [])).filter((name) => !name.startsWith("."));
  const run = () => runDailyBackup(database, settings, () => clock.now());

  it("is made once a day at or after the hour, not before, and is whole", async () => {
    expect(await run()).toBe("not now");
    expect(await files()).toEqual([]);

    clock.set("2026-11-27T02:03:00Z");
    expect(await run()).toBe("made");
    expect(await files()).toEqual(["kilele-2026-11-27T0203Z.backup.gz"]);
    clock.advance(hours(3));
    expect(await run()).toBe("not now");
    clock.set("2026-11-28T01:59:00Z");
    expect(await run()).toBe("not now");
    clock.set("2026-11-28T02:00:00Z");
    expect(await run()).toBe("made");
    expect(await files()).toEqual(["kilele-2026-11-27T0203Z.backup.gz", "kilele-2026-11-28T0200Z.backup.gz"]);

    const status = await backupStatus(database.db);
    expect(status.lastFailure).toBeUndefined();
    expect(status.lastGood).toMatchObject({ file: path.join(settings.dir!, "kilele-2026-11-28T0200Z.backup.gz") });
    expect(status.lastGood!.bytes).toBe((await fs.stat(status.lastGood!.file)).size);
    // Read through, every table's rows against its checksum, as a restore checks it first; the
    // restore itself is makeBackup's (backup.server.test.ts), and the encrypted one below restores.
    const manifest = await readBackup(status.lastGood!.file);
    expect(manifest).toMatchObject({ engine, createdAt: "2026-11-28T02:00:00.000Z" });
  });

  it("is made by one of two processes asking at once", async () => {
    clock.set("2026-11-27T03:00:00Z");
    const results = await Promise.all([run(), run(), run()]);
    expect(results.filter((result) => result === "made")).toHaveLength(1);
    expect(await files()).toHaveLength(1);
    expect(await database.db.$count(backupRuns)).toBe(1);
  });

  it("records a failure, warns on the staff home, alerts once an hour, and tries again an hour later", async () => {
    // A folder that cannot be made: its parent is a file.
    await fs.writeFile(path.join(folder, "a-file"), "x");
    settings.dir = path.join(folder, "a-file", "backups");
    clock.set("2026-11-27T02:00:00Z");
    expect(await run()).toBe("failed");
    const status = await backupStatus(database.db);
    expect(status.lastFailure?.error).toMatch(/ENOTDIR|not a directory/);

    const problems = await currentProblems(database.db, clock.now(), { backupsSetUp: true });
    expect(problems).toEqual([
      { kind: "backup-failed", problem: expect.stringMatching(/^The backup of 27\/11\/2026 at 02:00 failed: /) },
    ]);
    // Without BACKUP_DIR the site makes no backups, and none is a problem.
    expect(await currentProblems(database.db, clock.now())).toEqual([]);

    const deps = () => ({
      db: database.db,
      now: clock.now(),
      to: { address: "it@example.org" },
      siteName: "Kilele Village Trust",
      website: "https://tickets.example.org",
      backupsSetUp: true,
    });
    expect(await raiseAlerts(deps())).toEqual(["backup-failed"]);
    clock.advance(10 * 60_000);
    expect(await raiseAlerts(deps())).toEqual([]);
    expect(await run()).toBe("not now");
    const mails = (await database.db.select().from(outbox)).filter((row) => row.kind === "site-alert");
    expect(mails).toHaveLength(1);

    // An hour on, with the folder fixed, it is tried again and the warning goes.
    settings.dir = path.join(folder, "backups");
    clock.advance(hours(1));
    expect(await run()).toBe("made");
    const backupProblems = async () =>
      (await currentProblems(database.db, clock.now(), { backupsSetUp: true })).filter((problem) =>
        problem.kind.startsWith("backup-"),
      );
    expect(await backupProblems()).toEqual([]);

    // Two days without a good one: late.
    clock.advance(hours(37));
    expect(await backupProblems()).toEqual([
      { kind: "backup-late", problem: "The last good backup is 37 hours old (27/11/2026 at 03:10)." },
    ]);
  });
});

// The file's encryption is the same whatever the engine: once, on the first engine this run tests.
describe("the daily backup, encrypted", () => {
  const engine = engines[0]!;
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  it("is encrypted with the passphrase, opens only with it, and restores", async () => {
    const clock = testClock("2026-11-27T02:00:00Z");
    const settings = { dir: path.join(folder, "backups"), hour: 2, keep: 14, passphrase: "a long shared passphrase" };
    expect(await runDailyBackup(database, settings, () => clock.now())).toBe("made");
    expect(await fs.readdir(settings.dir)).toEqual(["kilele-2026-11-27T0200Z.backup.gz.age"]);
    const file = path.join(settings.dir, "kilele-2026-11-27T0200Z.backup.gz.age");
    expect(await isEncrypted(file)).toBe(true);
    await expect(readBackup(file)).rejects.toThrow();

    // A wrong passphrase opens nothing: npm run restore's drill (scripts/backup.test.ts) asserts it,
    // each try costing a second or two of scrypt.
    const opened = await decryptToTemporaryFile(file, "a long shared passphrase");
    const target = await unmigratedDatabase(engine);
    try {
      expect(await isEncrypted(opened.file)).toBe(false);
      const report = await restoreBackup(target, opened.file);
      expect(report.tables.every((table) => table.checksumMatches)).toBe(true);
    } finally {
      await target.close();
      await opened.remove();
    }
    await expect(fs.access(opened.file)).rejects.toThrow();
  });
});

describe("the embedded database before it is migrated", () => {
  it("is backed up first, and the backup restores to its earlier migration", { timeout: 60_000 }, async () => {
    const dataDir = path.join(folder, "data");
    const old = await openDatabase({ dataDir, migrations: migrationsUpTo("0008_cards_on_receipts") });
    await old.close();

    const clock = testClock("2026-11-27T09:00:00Z");
    const backups = path.join(folder, "backups");
    const before = backupBeforeMigrating({ dir: backups, passphrase: undefined }, () => clock.now());
    const database = await openDatabase({ dataDir, beforeMigrating: before.beforeMigrating });
    try {
      expect(database.migrationsApplied[0]).toBe("0009_" + database.migrationsApplied[0]!.slice(5));
      const [name] = await fs.readdir(backups);
      expect(name).toMatch(/^kilele-before-0009_\w+-2026-11-27T0900Z\.backup\.gz$/);
      const manifest = await readBackup(path.join(backups, name!));
      expect(manifest.migration.tag).toBe("0008_cards_on_receipts");
      await before.record(database.db);
      expect((await backupStatus(database.db)).lastGood?.file).toBe(path.join(backups, name!));

      // Opened again, current: no second backup.
      await database.close();
      const again = await openDatabase({ dataDir, beforeMigrating: before.beforeMigrating });
      await again.close();
      expect(await fs.readdir(backups)).toEqual([name]);

      const target = await unmigratedDatabase("pglite");
      try {
        const report = await restoreBackup(target, path.join(backups, name!));
        expect(report.migratedFrom).toBe("0008_cards_on_receipts");
      } finally {
        await target.close();
      }
    } finally {
      await database.close().catch(() => undefined);
    }
  });

  it("is not backed up when empty (a new site)", async () => {
    const clock = testClock("2026-11-27T09:00:00Z");
    const backups = path.join(folder, "backups");
    const before = backupBeforeMigrating({ dir: backups, passphrase: undefined }, () => clock.now());
    const database = await openDatabase({
      dataDir: "memory",
      startFrom: await emptyPgliteDump(),
      beforeMigrating: before.beforeMigrating,
    });
    await database.close();
    await expect(fs.readdir(backups)).rejects.toThrow();
  });
});
