import { count, desc, eq } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { pageOf, type Paged } from "~/lib/pagination";
import { auditLog } from "~db/schema";

// The audit log: who did what and when. Each feature records its own actions, inside the
// transaction that does them, so an action and its record exist together or not at all.

/** Every kind of entry, with how the audit page names it. */
export const auditActions = {
  "event.created": "Created an event",
  "event.changed": "Changed an event",
  "event.duplicated": "Duplicated an event",
  "tickets.exported": "Downloaded an event's tickets",
  "volunteers.exported": "Downloaded the volunteer sign-ups",
  "volunteer.deleted": "Deleted a volunteer sign-up",
  "person.exported": "Downloaded a person's data",
  "person.erased": "Erased a person's data",
  "ticket.checked-in": "Let people in at the door",
  "donation.refunded": "Refunded a donation",
  // Monthly giving as staff run it (app/features/donations/staff-regular-gifts.server.ts).
  "regular-gift.cancelled": "Cancelled a monthly gift at the donor's request",
  "regular-gift.link-sent": "Sent a donor a fresh link to their monthly gift",
  "regular-gifts.exported": "Downloaded the monthly gifts",
  "regular-gifts.statements-sent": "Sent the monthly donors' statements of a tax year",
  // The daily check of monthly gifts with the card payment service (decision 091).
  "regular-gift.corrected": "A monthly gift corrected from the card payment service",
  // What the donor changes on their gift's own page (docs/decisions/090-donors-manage-their-gift.md).
  "regular-gift.amount-changed": "Changed a monthly gift's amount",
  "regular-gift.day-changed": "Changed a monthly gift's day",
  "regular-gift.card-changed": "Changed a monthly gift's card",
  "regular-gift.paused": "Paused a monthly gift",
  "regular-gift.resumed": "Resumed a monthly gift",
  "regular-gift.cancelled-by-donor": "Cancelled a monthly gift",
  "regular-gift.gift-aid-declared": "Declared Gift Aid on a monthly gift",
  "regular-gift.gift-aid-withdrawn": "Withdrew Gift Aid on a monthly gift",
  // docs/decisions/092-direct-debit.md
  "regular-gift.bank-changed": "Changed a monthly gift's bank details",
  "regular-gift.mandate-inactive": "A monthly gift's Direct Debit stopped at the bank",
  "gift-aid.declaration-cancelled": "Recorded a cancelled Gift Aid declaration",
  "gift-aid.claim-exported": "Downloaded a Gift Aid claim",
  "gift-aid.claim-marked": "Marked a Gift Aid claim as made",
  "booking.refunded": "Refunded a booking",
  "booking.buyer-corrected": "Corrected a booking's buyer",
  "booking.receipt-resent": "Sent a receipt again",
  "event.cancelled": "Cancelled an event",
  "promo-code.created": "Made a promo code",
  "promo-code.switched-off": "Switched off a promo code",
  "promo-code.switched-on": "Switched a promo code back on",
  "promo-code.changed": "Changed a promo code's limits",
  // Staff accounts, e-mails and settings (docs/decisions/017-staff-emails-and-the-office.md).
  "staff.invited": "Invited a member of staff",
  "staff.invitation-cancelled": "Cancelled a staff invitation",
  "staff.joined": "Joined the staff",
  "staff.removed": "Removed a member of staff",
  "staff.password-changed": "Changed their password",
  "staff.signed-out-everywhere": "Signed out of every device",
  // Roles and password resets (docs/decisions/071-staff-roles.md, 072-password-reset.md).
  "staff.role-changed": "Changed a member's role",
  "staff.password-reset-sent": "Sent a password reset link",
  "staff.password-reset": "Chose a new password through a reset link",
  "email.retried": "Retried an e-mail",
  "settings.changed": "Changed the settings",
  // The pages' content (docs/decisions/031-content-in-the-database.md).
  "content.published": "Published a page's content",
  "content.restored": "Restored an earlier version of a page's content",
  "content.draft-discarded": "Discarded a page's draft",
  // docs/decisions/086-a-waiting-list.md
  "waiting-list.removed": "Removed a person from a waiting list",
  // docs/decisions/095-messages-to-attendees.md
  "event.message-sent": "Wrote to an event's people",
  "event.thank-you-sent": "Thanked those who came to an event",
} as const;

export type AuditAction = keyof typeof auditActions;

export interface AuditEntry {
  id: string;
  at: string;
  by: string;
  action: AuditAction;
  label: string;
  subject: string;
  summary: string;
}

/**
 * Records one action. `summary` must name no member of the public (no names, no e-mail addresses):
 * the entry outlives the erasure of the person it concerns. Staff are named already (`by`); a role
 * change names the member whose role it was, so the log says who was given what.
 */
export async function recordAudit(
  db: Queryable,
  entry: {
    /** Who did it; a donor acting through their private link has no account (`id` null). */
    staff: { id: string | null; email: string };
    action: AuditAction;
    subject: string;
    summary: string;
    at: Date;
  },
) {
  await db.insert(auditLog).values({
    at: entry.at,
    staffUserId: entry.staff.id,
    staffEmail: entry.staff.email,
    action: entry.action,
    subject: entry.subject,
    summary: entry.summary,
  });
}

export function isAuditAction(value: string | null | undefined): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(auditActions, value);
}

/** One page of the log, newest first: every kind of entry, or only `action` (a busy door fills it). */
export async function auditPage(db: Queryable, page: number, action?: AuditAction): Promise<Paged<AuditEntry>> {
  const only = action ? eq(auditLog.action, action) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auditLog).where(only);
  const { offset, limit } = pageOf([], total, page);
  const rows = await db
    .select()
    .from(auditLog)
    .where(only)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit)
    .offset(offset);
  return pageOf(
    rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      by: row.staffEmail,
      action: row.action as AuditAction,
      label: auditActions[row.action as AuditAction] ?? row.action,
      subject: row.subject,
      summary: row.summary,
    })),
    total,
    page,
  );
}
