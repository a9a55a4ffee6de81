import { and, asc, eq, gt, isNull, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { outbox } from "~db/schema";
import type { Clock } from "~/lib/clock";
import type { Database, Queryable } from "../db/database.server";
import { mailKey, type MailKind } from "./mail-kinds";
import { mailMessageSchema, recipientText, type DeliveredBy, type MailMessage, type Mailer } from "./mailer.server";
import { fillSealedWords, type MailSeal } from "./sealed-words.server";

/**
 * Puts an e-mail in the outbox, in the caller's transaction: it exists exactly when what it reports
 * does. Its key (the kind and what it is about) makes a second call for the same thing (a retried
 * webhook) a no-op.
 */
export async function queueMail(db: Queryable, mail: QueuedMail) {
  await mailInsert(db, mail);
}

export interface QueuedMail {
  kind: MailKind;
  about: string;
  message: MailMessage;
  now: Date;
  /** The words `message` marks `{{name}}`, sealed by `OutboxWorker.seal`: filled in only as it is sent. */
  sealed?: string;
}

/** `queueMail`'s insert, not yet run: for a caller that sends it with other writes as one statement. */
export function mailInsert(db: Queryable, mail: QueuedMail) {
  return db.insert(outbox).values(outboxRow(mail)).onConflictDoNothing({ target: outbox.dedupeKey });
}

/**
 * Many e-mails at once (a message to an event's bookings, decision 095), in the caller's
 * transaction: a few statements of a hundred rows each, not one per e-mail.
 */
export async function queueMails(db: Queryable, mails: QueuedMail[]) {
  for (let start = 0; start < mails.length; start += 100) {
    await db
      .insert(outbox)
      .values(mails.slice(start, start + 100).map(outboxRow))
      .onConflictDoNothing({ target: outbox.dedupeKey });
  }
}

function outboxRow({ kind, about, message, now, sealed }: QueuedMail): typeof outbox.$inferInsert {
  return {
    kind,
    dedupeKey: mailKey(kind, about),
    recipient: recipientText(message.to),
    payload: message,
    sealed: sealed ?? null,
    // Due at once by the site's clock, the same clock the worker reads.
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** Seconds to wait before the next attempt after `attempts` failures: 30 s, 1, 2, 4 ... up to 60 minutes. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);
}

/** How long a claimed e-mail is left to its sender before another may try it (a crash mid-send). */
const leaseMs = 2 * 60 * 1000;

export type DeliveryResult = { ok: true } | { ok: false; error: string } | { ok: "not-due" };

/** E-mails not yet sent, and when the oldest of them was queued (the operator's view, /metrics). */
export async function outboxBacklog(db: Queryable): Promise<{ unsent: number; oldestQueuedAt: Date | null }> {
  const [row] = await db
    .select({
      unsent: sql<number>`count(*)::int`.mapWith(Number),
      oldestQueuedAt: sql<Date | null>`min(${outbox.createdAt})`.mapWith(outbox.createdAt),
    })
    .from(outbox)
    .where(isNull(outbox.sentAt));
  return { unsent: row?.unsent ?? 0, oldestQueuedAt: row?.oldestQueuedAt ?? null };
}

/**
 * Delivers the outbox: every few seconds, and at once when asked (`deliver(key)`). Each e-mail is
 * claimed with a row lock so that two processes never send the same one, and a failure is retried
 * with backoff until it goes; nothing is lost across a restart, because the outbox is the database.
 */
export class OutboxWorker {
  /**
   * When a round of deliveries last began, sent an e-mail or ended, in the process's monotonic
   * milliseconds (`performance.now()`): the readiness check asks that it is recent (server/readiness.ts).
   */
  lastActive: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly options: { intervalMs?: number; seal?: MailSeal } = {},
  ) {}

  /** How this outbox delivers: to a mail server (`smtp`) or only to the outbox folder (`folder`). */
  get deliveredBy(): DeliveredBy | undefined {
    return this.mailer.deliveredBy;
  }

  /** Seals words an e-mail must carry but the outbox must not show (a staff invitation's token), for `QueuedMail.sealed`. */
  seal(words: Record<string, string>): string {
    if (!this.options.seal) throw new Error("This outbox has no key to seal words with.");
    return this.options.seal.seal(words);
  }

  start() {
    this.timer ??= setInterval(() => void this.deliverDue(), this.options.intervalMs ?? 5_000);
    this.timer.unref();
    void this.deliverDue();
  }

  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * After a crash on the embedded database, whose data folder one process alone may open, no other
   * sender can hold a lease: every unsent e-mail is made due now, so a restart sends at once what
   * the killed process had claimed, instead of two minutes later (decision 028). Not for a shared
   * PostgreSQL, where another process's lease is real.
   */
  async resumeAlone() {
    const now = this.now();
    await this.db
      .update(outbox)
      .set({ nextAttemptAt: now })
      .where(and(isNull(outbox.sentAt), gt(outbox.nextAttemptAt, now)));
  }

  private now() {
    return this.clock.now();
  }

  /** Tries every e-mail that is due, one at a time. */
  deliverDue(): Promise<void> {
    this.running ??= (async () => {
      try {
        for (;;) {
          this.lastActive = performance.now();
          const result = await this.deliverOne();
          if (!result) break;
        }
      } catch (error) {
        console.error("Outbox delivery stopped for now:", (error as Error).message);
      } finally {
        this.lastActive = performance.now();
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /**
   * Tries the e-mail of this kind about this booking or donation now, if it is waiting; says how the
   * attempt went. If the worker's own round has just taken it, waits for that round and reports what it found.
   */
  async deliver(kind: MailKind, about: string): Promise<DeliveryResult> {
    const key = mailKey(kind, about);
    return (await this.deliverOne(key)) ?? (await this.outcome(eq(outbox.dedupeKey, key)));
  }

  /**
   * Tries the outbox row with this id now (staff's Retry now, once it is due); says how it went.
   * If the worker's own round has just taken it, waits for that round and reports what it found.
   */
  async deliverById(id: string): Promise<DeliveryResult> {
    return (await this.deliverOne({ id })) ?? (await this.outcome(eq(outbox.id, id)));
  }

  /** What became of an e-mail another round claimed: waits for that round, then reads the row. */
  private async outcome(which: SQL): Promise<DeliveryResult> {
    await this.running;
    const [row] = await this.db
      .select({ sentAt: outbox.sentAt, lastError: outbox.lastError })
      .from(outbox)
      .where(which);
    if (row?.sentAt) return { ok: true };
    return row?.lastError ? { ok: false, error: row.lastError } : { ok: "not-due" };
  }

  private async deliverOne(which?: string | { id: string }): Promise<DeliveryResult | undefined> {
    const only =
      which === undefined ? [] : typeof which === "string" ? [eq(outbox.dedupeKey, which)] : [eq(outbox.id, which.id)];
    // Claim one e-mail with a lease of two minutes, in one statement (the oldest due one, skipping
    // any another worker is claiming), then send outside any transaction: a slow mail server must
    // not hold a lock, and on the embedded database it would stall every query.
    const now = this.now();
    const due = this.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lte(outbox.nextAttemptAt, now), ...only))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(1)
      .for("update", { skipLocked: true });
    const [row] = await this.db
      .update(outbox)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(eq(outbox.id, sql`(${due})`))
      .returning();
    if (!row) return undefined;
    try {
      const stored = mailMessageSchema.safeParse(row.payload);
      if (!stored.success) {
        throw new Error(`The stored e-mail is not valid: ${z.prettifyError(stored.error).replace(/\n/g, "; ")}`);
      }
      let message = stored.data;
      if (row.sealed) {
        if (!this.options.seal) throw new Error("Its sealed words cannot be opened: this outbox has no key.");
        message = fillSealedWords(message, this.options.seal.open(row.sealed));
      }
      await this.mailer.send(message, { messageId: `<${row.id}@outbox.kilele-trust>` });
      // Sent: the sealed words are forgotten, so nothing stored can make the link again; how it left
      // is kept, so staff are told "written to the outbox folder" rather than "sent" when it was a file.
      await this.db
        .update(outbox)
        .set({
          sentAt: this.now(),
          deliveredBy: this.mailer.deliveredBy ?? null,
          attempts: sql`${outbox.attempts} + 1`,
          lastError: null,
          sealed: null,
        })
        .where(eq(outbox.id, row.id));
      return { ok: true };
    } catch (error) {
      const message = (error as Error).message || String(error);
      const attempts = row.attempts + 1;
      await this.db
        .update(outbox)
        .set({
          attempts,
          lastError: message,
          nextAttemptAt: new Date(this.now().getTime() + retryDelaySeconds(attempts) * 1000),
        })
        .where(eq(outbox.id, row.id));
      return { ok: false, error: message };
    }
  }
}
