import { and, count, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import { version as siteVersion } from "../../package.json";
import { alertsSent, siteErrors } from "~db/schema";
import { escapeHtml } from "~/lib/html";
import { londonDate, londonTime } from "~/lib/london-time";
import type { Queryable } from "./db/database.server";
import type { MailMessage } from "./email/mailer.server";
import { outboxBacklog, queueMail } from "./email/outbox.server";
import type { NotedError } from "./log.server";
import { backupStatus, type BackupStatus } from "./db/automatic-backups.server";

// What tells the person who looks after the site that something is wrong, before a visitor does:
// unexpected errors kept for /admin/system, and alerts by e-mail when e-mails stop going out or
// errors pile up (docs/operations.md, "What to watch"). The same figures feed /metrics.

/** How long unexpected errors are kept. */
export const errorsKeptMs = 30 * 24 * 60 * 60_000;

/** When each alert is raised, and how often it may be e-mailed. */
export const alertRules = {
  /** An e-mail waiting longer than this. */
  unsentMs: 30 * 60_000,
  /** More than `errors` unexpected errors within `errorWindowMs`. */
  errors: 5,
  errorWindowMs: 10 * 60_000,
  /** At most one alert of a kind in this time; the next says how many were held back. */
  quietMs: 60 * 60_000,
  /** The last good backup older than this, when the site makes them (BACKUP_DIR). */
  backupAgeMs: 36 * 60 * 60_000,
} as const;

/** Keeps an unexpected error; clears those older than the time they are kept. */
export async function recordError(db: Queryable, error: NotedError, now: Date): Promise<void> {
  await db.insert(siteErrors).values({
    at: now,
    ref: error.ref,
    requestId: error.requestId ?? null,
    where: error.where,
    message: error.message,
  });
  await db.delete(siteErrors).where(lt(siteErrors.at, new Date(now.getTime() - errorsKeptMs)));
}

/** The unexpected errors since `since`, newest first. */
export async function errorsSince(db: Queryable, since: Date, limit = 50) {
  return db
    .select({
      at: siteErrors.at,
      ref: siteErrors.ref,
      requestId: siteErrors.requestId,
      where: siteErrors.where,
      message: siteErrors.message,
    })
    .from(siteErrors)
    .where(gte(siteErrors.at, since))
    .orderBy(desc(siteErrors.at))
    .limit(limit);
}

export async function countErrorsSince(db: Queryable, since: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(siteErrors).where(gte(siteErrors.at, since));
  return row?.n ?? 0;
}

export type AlertKind = "e-mails-unsent" | "errors" | "backup-failed" | "backup-late";

/** What the problems are checked against besides the database: whether the site makes backups (BACKUP_DIR is set). */
export interface ProblemSettings {
  backupsSetUp?: boolean;
}

/** The backup problems: the newest attempt failed, or the last good backup is older than 36 hours. */
function backupProblems(status: BackupStatus, now: Date): { kind: AlertKind; problem: string }[] {
  const problems: { kind: AlertKind; problem: string }[] = [];
  if (status.lastFailure) {
    problems.push({
      kind: "backup-failed",
      problem: `The backup of ${londonDate(status.lastFailure.at)} at ${londonTime(status.lastFailure.at)} failed: ${status.lastFailure.error}`,
    });
  }
  if (status.lastGood && now.getTime() - status.lastGood.at.getTime() > alertRules.backupAgeMs) {
    const hours = Math.floor((now.getTime() - status.lastGood.at.getTime()) / 3_600_000);
    problems.push({
      kind: "backup-late",
      problem: `The last good backup is ${hours} hours old (${londonDate(status.lastGood.at)} at ${londonTime(status.lastGood.at)}).`,
    });
  }
  return problems;
}

/** What is wrong now, by the alert rules: each a kind and a sentence. */
export async function currentProblems(
  db: Queryable,
  now: Date,
  settings: ProblemSettings = {},
): Promise<{ kind: AlertKind; problem: string }[]> {
  const problems: { kind: AlertKind; problem: string }[] = [];
  const backlog = await outboxBacklog(db);
  if (backlog.oldestQueuedAt && now.getTime() - backlog.oldestQueuedAt.getTime() > alertRules.unsentMs) {
    const minutes = Math.floor((now.getTime() - backlog.oldestQueuedAt.getTime()) / 60_000);
    problems.push({
      kind: "e-mails-unsent",
      problem: `${backlog.unsent} ${backlog.unsent === 1 ? "e-mail has" : "e-mails have"} not gone out; the oldest has waited ${minutes} minutes.`,
    });
  }
  const errors = await countErrorsSince(db, new Date(now.getTime() - alertRules.errorWindowMs));
  if (errors > alertRules.errors) {
    problems.push({
      kind: "errors",
      problem: `${errors} unexpected errors in the last ${alertRules.errorWindowMs / 60_000} minutes.`,
    });
  }
  if (settings.backupsSetUp) problems.push(...backupProblems(await backupStatus(db), now));
  return problems;
}

/**
 * Claims the right to e-mail an alert of this kind now: yes when none was sent in the quiet time
 * (the row is stamped, and says how many were held back since the last), else the row counts one
 * more held back. One statement each, so several processes raising at once send one e-mail.
 */
async function claimAlert(db: Queryable, kind: AlertKind, now: Date): Promise<{ send: boolean; heldBack: number }> {
  const quietSince = new Date(now.getTime() - alertRules.quietMs);
  await db
    .insert(alertsSent)
    .values({ kind, lastSentAt: new Date(0), heldBack: 0 })
    .onConflictDoNothing();
  const previous = db.select({ heldBack: alertsSent.heldBack }).from(alertsSent).where(eq(alertsSent.kind, kind));
  const [claimed] = await db
    .update(alertsSent)
    .set({ lastSentAt: now, heldBack: 0 })
    .where(and(eq(alertsSent.kind, kind), lte(alertsSent.lastSentAt, quietSince)))
    .returning({ heldBack: sql<number>`(${previous})`.mapWith(Number) });
  if (claimed) return { send: true, heldBack: claimed.heldBack };
  await db
    .update(alertsSent)
    .set({ heldBack: sql`${alertsSent.heldBack} + 1` })
    .where(eq(alertsSent.kind, kind));
  return { send: false, heldBack: 0 };
}

export interface AlertDeps {
  db: Queryable;
  now: Date;
  /** Who is told: ALERT_EMAIL, else the charity's own address. */
  to: { name?: string; address: string };
  siteName: string;
  /** The site's public address, for the link to /admin/system. */
  website: string;
  /** Whether the site makes backups (BACKUP_DIR): only then is a failed or late one a problem. */
  backupsSetUp?: boolean;
}

/** Checks the alert rules and e-mails each problem found, at most one of a kind an hour; returns the kinds e-mailed. */
export async function raiseAlerts(deps: AlertDeps): Promise<AlertKind[]> {
  const sent: AlertKind[] = [];
  for (const { kind, problem } of await currentProblems(deps.db, deps.now, { backupsSetUp: deps.backupsSetUp })) {
    const { send, heldBack } = await claimAlert(deps.db, kind, deps.now);
    if (!send) continue;
    await queueMail(deps.db, {
      kind: "site-alert",
      about: `${kind}@${deps.now.toISOString()}`,
      message: alertMail(deps, problem, heldBack),
      now: deps.now,
    });
    sent.push(kind);
  }
  return sent;
}

function alertMail({ to, siteName, website, now }: AlertDeps, problem: string, heldBack: number): MailMessage {
  const system = new URL("/admin/system", website).href;
  const when = `${londonDate(now)} at ${londonTime(now)}`;
  const more =
    heldBack > 0
      ? `This alert was raised ${heldBack} more ${heldBack === 1 ? "time" : "times"} since the last e-mail about it; at most one is sent an hour.`
      : "";
  const lines = [`${problem}`, `Seen ${when}.`, more, `What the site knows: ${system}`].filter(Boolean);
  return {
    to,
    subject: `${siteName} website: ${problem}`,
    text: `${lines.join("\n\n")}\n`,
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n"),
  };
}

/** What /admin/system shows of the site and its database, now. */
export async function systemReport(db: Queryable, now: Date, settings: ProblemSettings = {}) {
  const since = new Date(now.getTime() - 24 * 60 * 60_000);
  const [database] = await db
    .select({
      version: sql<string>`version()`,
      sizeBytes: sql<number>`pg_database_size(current_database())`.mapWith(Number),
    })
    .from(sql`(select 1) as one`);
  const [backlog, errors, problems, backups] = await Promise.all([
    outboxBacklog(db),
    errorsSince(db, since, 100),
    currentProblems(db, now, settings),
    backupStatus(db),
  ]);
  return {
    version: siteVersion,
    node: process.version,
    startedAt: new Date(now.getTime() - process.uptime() * 1000),
    database: { version: database?.version.split(",")[0] ?? "", sizeBytes: database?.sizeBytes ?? 0 },
    outbox: backlog,
    errors,
    problems,
    backups,
  };
}
