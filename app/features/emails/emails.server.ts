import { and, count, desc, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { isMailKind, mailKinds } from "~/infra/email/mail-kinds";
import { hideSealedWords } from "~/infra/email/sealed-words.server";
import type { DeliveryResult } from "~/infra/email/outbox.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { pageOf, type Paged } from "~/lib/pagination";
import { outbox } from "~db/schema";

// The outbox as staff see it (/admin/emails): what was sent, what waits, what keeps failing and
// why, and Retry now. The mail server's words are for staff only; no visitor ever sees them.

export const emailStatuses = ["sent", "waiting", "failing"] as const;
export type EmailStatus = (typeof emailStatuses)[number];

export function isEmailStatus(value: string | null | undefined): value is EmailStatus {
  return (emailStatuses as readonly string[]).includes(value ?? "");
}

export interface EmailView {
  id: string;
  kind: string;
  kindLabel: string;
  recipient: string;
  subject: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** How it left: a mail server (`smtp`) or the outbox folder (`folder`); null before the site kept it. */
  deliveredBy: "smtp" | "folder" | null;
  nextAttemptAt: string;
}

export interface EmailPreview extends EmailView {
  text: string;
  html: string;
}

function statusOf(row: typeof outbox.$inferSelect): EmailStatus {
  if (row.sentAt) return "sent";
  return row.lastError ? "failing" : "waiting";
}

// A person's data erased (features/people) leaves a sent e-mail's row with only a note in its place.
function erasedNote(row: typeof outbox.$inferSelect): string | undefined {
  return row.payload.erased === true ? String(row.payload.note ?? "Erased.") : undefined;
}

function view(row: typeof outbox.$inferSelect): EmailView {
  const subject = erasedNote(row) ? "(erased)" : row.payload.subject;
  return {
    id: row.id,
    kind: row.kind,
    kindLabel: isMailKind(row.kind) ? mailKinds[row.kind].label : row.kind,
    recipient: row.recipient,
    subject: typeof subject === "string" ? subject : "(no subject)",
    status: statusOf(row),
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    deliveredBy: row.sentAt ? row.deliveredBy : null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  };
}

const statusWhere: Record<EmailStatus, SQL | undefined> = {
  sent: isNotNull(outbox.sentAt),
  waiting: and(isNull(outbox.sentAt), isNull(outbox.lastError)),
  failing: and(isNull(outbox.sentAt), isNotNull(outbox.lastError)),
};

/** One page of the outbox, newest first, of one status or all. */
export async function emailsPage(
  { db }: { db: Queryable },
  { page, status }: { page: number; status?: EmailStatus },
): Promise<Paged<EmailView>> {
  const where = status ? statusWhere[status] : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(outbox).where(where);
  const { offset, limit } = pageOf([], total, page);
  const rows = await db
    .select()
    .from(outbox)
    .where(where)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit)
    .offset(offset);
  return pageOf(rows.map(view), total, page);
}

/** How many e-mails are failing (tried, not sent) and waiting (not tried yet), for the staff home. */
export async function unsentEmails({ db }: { db: Queryable }): Promise<{ failing: number; waiting: number }> {
  const [[failing], [waiting]] = await Promise.all([
    db.select({ n: count() }).from(outbox).where(statusWhere.failing),
    db.select({ n: count() }).from(outbox).where(statusWhere.waiting),
  ]);
  return { failing: failing?.n ?? 0, waiting: waiting?.n ?? 0 };
}

/** One e-mail as it was (or will be) sent: its text and html; "not-found" if there is none. */
export async function emailPreview({ db }: { db: Queryable }, id: string): Promise<EmailPreview> {
  const [row] = isUuid(id) ? await db.select().from(outbox).where(eq(outbox.id, id)) : [];
  if (!row) throw new AppError("not-found", "There is no such e-mail.");
  const { text, html } = row.payload;
  const note = erasedNote(row);
  if (note) return { ...view(row), text: note, html: "" };
  // A staff invitation's token is a sealed word: staff see its mark, never the link that signs in.
  return {
    ...view(row),
    text: typeof text === "string" ? hideSealedWords(text) : "",
    html: typeof html === "string" ? hideSealedWords(html) : "",
  };
}

/**
 * Staff's Retry now: makes an unsent e-mail due at once (audited, in one transaction), then asks
 * the outbox to send it; answers how that went, the mail server's words included (staff only).
 */
export async function retryEmail(
  { db, outbox: outboxWorker }: { db: Database; outbox: { deliverById(id: string): Promise<DeliveryResult> } },
  staff: { id: string; email: string },
  id: string,
  now: Date,
): Promise<{ sent: true } | { sent: false; error: string }> {
  const due = isUuid(id)
    ? await db.transaction(async (tx) => {
        const [row] = await tx
          .update(outbox)
          .set({ nextAttemptAt: now })
          .where(and(eq(outbox.id, id), isNull(outbox.sentAt)))
          .returning({ id: outbox.id, kind: outbox.kind });
        if (!row) return undefined;
        await recordAudit(tx, {
          staff,
          action: "email.retried",
          subject: `email:${row.id}`,
          summary: `Asked for an e-mail (${isMailKind(row.kind) ? mailKinds[row.kind].label : row.kind}) to be sent again now`,
          at: now,
        });
        return row;
      })
    : undefined;
  if (!due) throw new AppError("conflict", "That e-mail has already been sent, or is no longer in the outbox.");
  const result = await outboxWorker.deliverById(due.id);
  if (result.ok === true) return { sent: true };
  if (result.ok === false) return { sent: false, error: result.error };
  return { sent: false, error: "It is being sent at this moment; look again in a minute." };
}
