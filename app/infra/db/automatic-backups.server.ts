import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, lt, ne, or, sql } from "drizzle-orm";
import { backupRuns, backupSchedule } from "~db/schema";
import { londonDay } from "~/lib/london-time";
import type { DatabaseHandle, Queryable } from "./database.server";
import { makeBackup } from "./backup.server";
import { encryptFile, encryptedSuffix } from "./backup-encryption.server";

// The backups the running site makes by itself (docs/decisions/070-backups-made-by-the-site.md):
// one a day into BACKUP_DIR at or after BACKUP_HOUR (London), made by one process of several,
// each attempt recorded in the database, old files removed by the retention rule.

export interface BackupSettings {
  /** The folder; undefined: the site makes no backups by itself. */
  dir: string | undefined;
  /** The London hour (0–23) a day's backup is made at or after. */
  hour: number;
  /** How many of the newest backups are kept, besides the first of each month for a year. */
  keep: number;
  /** Encrypts the files with age when set. */
  passphrase: string | undefined;
}

/** How the site names its own backups: sortable by time (UTC). */
export const backupPrefix = "kilele-";
const daily = /^kilele-(\d{4})-(\d{2})-(\d{2})T(\d{4})Z\.backup\.gz(\.age)?$/;

/** 2026-11-27T02:00:31Z → "2026-11-27T0200Z". */
function stamp(now: Date): string {
  return now.toISOString().slice(0, 16).replace(":", "") + "Z";
}

/** The name of a daily backup made at `now`. */
export function dailyBackupName(now: Date, encrypted: boolean): string {
  return `${backupPrefix}${stamp(now)}.backup.gz${encrypted ? encryptedSuffix : ""}`;
}

/** The name of the copy taken before `migration` is applied. */
export function beforeMigrationName(migration: string, now: Date, encrypted: boolean): string {
  return `${backupPrefix}before-${migration}-${stamp(now)}.backup.gz${encrypted ? encryptedSuffix : ""}`;
}

const hourFormat = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", hourCycle: "h23" });

/** The hour of the day in London, 0–23. */
export function londonHour(now: Date): number {
  return Number(hourFormat.format(now));
}

/** A failed or abandoned attempt is tried again after this long (and its alert is e-mailed at most this often). */
export const retryAfterMs = 60 * 60_000;

/**
 * Claims today's daily backup for this process: true when it is at or after the hour, and no
 * process claimed today yet, or the last claim today is over an hour old and made no good backup.
 * One conditional UPDATE, so of several processes asking at once one is answered true.
 */
export async function claimDailyBackup(db: Queryable, settings: BackupSettings, now: Date): Promise<boolean> {
  if (londonHour(now) < settings.hour) return false;
  const today = londonDay(now);
  await db
    .insert(backupSchedule)
    .values({ name: "daily", day: "", claimedAt: new Date(0) })
    .onConflictDoNothing();
  const goodToday = sql`exists (select 1 from ${backupRuns} where ${backupRuns.kind} = 'daily' and ${backupRuns.ok}
    and ${backupRuns.startedAt} >= ${backupSchedule.claimedAt})`;
  const claimed = await db
    .update(backupSchedule)
    .set({ day: today, claimedAt: now })
    .where(
      and(
        eq(backupSchedule.name, "daily"),
        or(
          ne(backupSchedule.day, today),
          and(lt(backupSchedule.claimedAt, new Date(now.getTime() - retryAfterMs)), sql`not ${goodToday}`),
        ),
      ),
    )
    .returning({ day: backupSchedule.day });
  return claimed.length > 0;
}

/**
 * Makes a backup into `settings.dir` named `name`, encrypted when a passphrase is set, and records
 * the attempt (its file and size, or its error). Never throws for a failed backup: the record says.
 */
export async function recordedBackup(
  database: Pick<DatabaseHandle, "db" | "engine">,
  settings: BackupSettings & { dir: string },
  options: { kind: "daily" | "before-migration"; name: string; now: () => Date },
): Promise<{ ok: true; file: string; bytes: number } | { ok: false; error: string }> {
  const startedAt = options.now();
  const [run] = await database.db
    .insert(backupRuns)
    .values({ kind: options.kind, startedAt })
    .returning({ id: backupRuns.id });
  const result = await backUpInto(database, settings, options.name, startedAt).then(
    (made) => ({ ok: true as const, ...made }),
    (error: Error) => ({ ok: false as const, error: error.message }),
  );
  await database.db
    .update(backupRuns)
    .set(
      result.ok
        ? { finishedAt: options.now(), ok: true, file: result.file, bytes: result.bytes }
        : { finishedAt: options.now(), ok: false, error: result.error },
    )
    .where(eq(backupRuns.id, run!.id));
  if (!result.ok) {
    console.error(JSON.stringify({ level: "error", msg: "a backup failed", kind: options.kind, error: result.error }));
  }
  return result;
}

/** Writes the backup file, encrypting it when a passphrase is set; answers its path and size. */
export async function backUpInto(
  database: Pick<DatabaseHandle, "db" | "engine">,
  settings: { dir: string; passphrase: string | undefined },
  name: string,
  now: Date,
): Promise<{ file: string; bytes: number }> {
  await fs.mkdir(settings.dir, { recursive: true });
  const file = path.join(settings.dir, name);
  if (!settings.passphrase) {
    const made = await makeBackup(database, { file, now });
    return { file, bytes: made.bytes };
  }
  // The plain file, hidden, lives only until it is encrypted.
  const plain = path.join(settings.dir, `.${name.replace(/\.age$/, "")}.${process.pid}.kilele-plain`);
  try {
    await makeBackup(database, { file: plain, now });
    return { file, bytes: await encryptFile(plain, file, settings.passphrase) };
  } finally {
    await fs.rm(plain, { force: true });
  }
}

/**
 * Which of the site's daily backups in a folder to delete: all but the newest `keep`, and the first
 * of each of the last 12 calendar months (UTC, by its name, this month included). Other files
 * (copies before migrations, `npm run backup`'s, anything else) are not looked at.
 */
export function backupsToDelete(names: string[], keep: number, now: Date): string[] {
  const ours = names.filter((name) => daily.test(name)).sort();
  const kept = new Set(ours.slice(-keep));
  const oldestMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 7);
  const firstOfMonth = new Map<string, string>();
  for (const name of ours) {
    const [, year, month] = daily.exec(name)!;
    const key = `${year}-${month}`;
    if (key >= oldestMonth && !firstOfMonth.has(key)) firstOfMonth.set(key, name);
  }
  for (const name of firstOfMonth.values()) kept.add(name);
  return ours.filter((name) => !kept.has(name));
}

/** Deletes the daily backups the retention rule no longer keeps, and plain files left by a stopped encryption; answers the names deleted. */
export async function pruneBackups(dir: string, keep: number, now: Date): Promise<string[]> {
  const names = await fs.readdir(dir);
  const gone = backupsToDelete(names, keep, now);
  for (const name of gone) await fs.rm(path.join(dir, name), { force: true });
  for (const name of names) {
    const left = /^\.kilele-.*\.(\d+)\.kilele-plain$/.exec(name);
    if (left && Number(left[1]) !== process.pid) await fs.rm(path.join(dir, name), { force: true });
  }
  return gone;
}

/**
 * One run of the daily backup job: when it is time and this process wins the claim, makes the day's
 * backup and then applies the retention rule. Answers what it did.
 */
export async function runDailyBackup(
  database: Pick<DatabaseHandle, "db" | "engine">,
  settings: BackupSettings,
  now: () => Date,
): Promise<"not set up" | "not now" | "made" | "failed"> {
  if (!settings.dir) return "not set up";
  if (!(await claimDailyBackup(database.db, settings, now()))) return "not now";
  const made = now();
  const result = await recordedBackup(
    database,
    { ...settings, dir: settings.dir },
    { kind: "daily", name: dailyBackupName(made, Boolean(settings.passphrase)), now },
  );
  if (!result.ok) return "failed";
  try {
    await pruneBackups(settings.dir, settings.keep, now());
  } catch (error) {
    console.error(
      JSON.stringify({ level: "error", msg: "old backups could not be removed", error: (error as Error).message }),
    );
  }
  return "made";
}

export interface BackupStatus {
  lastGood: { at: Date; file: string; bytes: number } | undefined;
  /** The newest attempt, when it failed. */
  lastFailure: { at: Date; error: string } | undefined;
}

/** The newest good backup and, if the newest attempt failed, that failure. */
export async function backupStatus(db: Queryable): Promise<BackupStatus> {
  const [good] = await db
    .select({ at: backupRuns.finishedAt, file: backupRuns.file, bytes: backupRuns.bytes })
    .from(backupRuns)
    .where(eq(backupRuns.ok, true))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  const [latest] = await db
    .select({ at: backupRuns.startedAt, ok: backupRuns.ok, error: backupRuns.error })
    .from(backupRuns)
    .where(sql`${backupRuns.ok} is not null`)
    .orderBy(desc(backupRuns.startedAt))
    .limit(1);
  return {
    lastGood: good?.at && good.file ? { at: good.at, file: good.file, bytes: good.bytes ?? 0 } : undefined,
    lastFailure: latest && latest.ok === false ? { at: latest.at, error: latest.error ?? "" } : undefined,
  };
}

/**
 * What openDatabase calls before it upgrades an embedded database (`beforeMigrating`): a backup
 * named after the first pending migration into `dir` (BACKUP_DIR, else DATA_DIR/backups). A failed
 * backup stops the upgrade. `made` holds the file once written, for the site to record once the
 * backup_runs table exists.
 */
export function backupBeforeMigrating(settings: { dir: string; passphrase: string | undefined }, now: () => Date) {
  const made: { file: string; bytes: number; startedAt: Date; finishedAt: Date }[] = [];
  return {
    made,
    async beforeMigrating(database: Pick<DatabaseHandle, "db" | "engine">, pending: { tag: string }[]) {
      const startedAt = now();
      const name = beforeMigrationName(pending[0]!.tag, startedAt, Boolean(settings.passphrase));
      try {
        const result = await backUpInto(database, settings, name, startedAt);
        made.push({ ...result, startedAt, finishedAt: now() });
        console.log(
          `Backed up the database to ${result.file} before applying the migrations ${pending.map((m) => m.tag).join(", ")}.`,
        );
      } catch (error) {
        throw new Error(
          `The database was not upgraded: the backup taken before its migrations could not be made in ${settings.dir} (${(error as Error).message}). ` +
            "Make room or fix the folder's permissions (BACKUP_DIR), then start the site again.",
          { cause: error },
        );
      }
    },
    /** Records the backups made before migrating, once the database has the table for it. */
    async record(db: Queryable) {
      for (const backup of made.splice(0)) {
        await db.insert(backupRuns).values({
          kind: "before-migration",
          startedAt: backup.startedAt,
          finishedAt: backup.finishedAt,
          ok: true,
          file: backup.file,
          bytes: backup.bytes,
        });
      }
    },
  };
}
