import { count, desc, eq } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import { queueMail } from "~/infra/email/outbox.server";
import type { Charity } from "~/infra/payments/provider.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { AppError } from "~/lib/errors";
import type { Clock } from "~/lib/clock";
import { isUuid } from "~/lib/ids";
import { pageOf, type Paged } from "~/lib/pagination";
import type { RateLimiter } from "~/infra/rate-limit.server";
import { volunteers } from "~db/schema";
import { volunteerConfirmation } from "./confirmation.server";
import { validateVolunteer, volunteerReplies, type VolunteerSubmissionResult } from "./schema";

/** What a sign-up needs of the site. */
interface SignUpServices {
  db: Database;
  clock: Clock;
  /** Who the confirmation e-mail comes from. */
  charity: Charity;
  limits: { volunteerSignUps: RateLimiter };
}

/**
 * A sign-up from the volunteering form (posted by the page without JavaScript, or by the browser
 * to /api/volunteers): rate limited per address, checked with the form's own schema, then stored.
 * A filled-in honeypot field marks a robot: it is thanked like anyone else and nothing is stored.
 */
export async function submitVolunteer(
  { db, clock, charity, limits }: SignUpServices,
  input: Record<string, unknown>,
  /** The visitor's address (`context.clientAddress`), for the limit per address. */
  clientAddress: string,
): Promise<VolunteerSubmissionResult> {
  const now = clock.now();
  if (!(await limits.volunteerSignUps.attempt(clientAddress, now))) {
    return { status: "limited", message: volunteerReplies.limited };
  }
  const validation = validateVolunteer(input);
  if (!validation.ok) return { status: "invalid", errors: validation.errors };
  if (typeof input.website === "string" && input.website.trim() !== "") return { status: "ok" };
  // The sign-up and its confirmation e-mail are stored together; the outbox worker sends it within
  // seconds, and retries while the mail server is away.
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(volunteers)
      .values({ ...validation.data, createdAt: now })
      .returning({ id: volunteers.id });
    await queueMail(tx, {
      kind: "volunteer-confirmation",
      about: row!.id,
      message: await volunteerConfirmation(validation.data, charity),
      now,
    });
  });
  return { status: "ok" };
}

/** A sign-up as the form and the API take it: done, or refused with an AppError (the fields to correct, or too many tries). */
export async function signUpVolunteer(
  services: SignUpServices,
  input: Record<string, unknown>,
  clientAddress: string,
): Promise<void> {
  const result = await submitVolunteer(services, input, clientAddress);
  if (result.status === "invalid") throw new AppError("invalid", volunteerReplies.invalid, { fields: result.errors });
  if (result.status === "limited") throw new AppError("too-many-requests", result.message);
}

export interface VolunteerView {
  id: string;
  name: string;
  email: string;
  reason: string;
  createdAt: string;
}

function view(row: typeof volunteers.$inferSelect): VolunteerView {
  return { id: row.id, name: row.name, email: row.email, reason: row.reason, createdAt: row.createdAt.toISOString() };
}

/** Volunteer sign-ups, newest first, with the specification's field names. */
export async function listVolunteers({ db }: { db: Queryable }): Promise<VolunteerView[]> {
  const rows = await db.select().from(volunteers).orderBy(desc(volunteers.createdAt), desc(volunteers.id));
  return rows.map(view);
}

/** One page of sign-ups for the staff page, newest first. */
export async function volunteersPage({ db }: { db: Queryable }, page: number): Promise<Paged<VolunteerView>> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(volunteers);
  const { offset, limit } = pageOf([], total, page);
  const rows = await db
    .select()
    .from(volunteers)
    .orderBy(desc(volunteers.createdAt), desc(volunteers.id))
    .limit(limit)
    .offset(offset);
  return pageOf(rows.map(view), total, page);
}

/**
 * Deletes a sign-up on the volunteer's request, and records who did it (without the name) in the
 * audit log, in one transaction. False when there is no such sign-up (already deleted).
 */
export async function deleteVolunteer(
  { db }: { db: Database },
  staff: { id: string; email: string },
  id: string,
  now: Date,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [deleted] = await tx.delete(volunteers).where(eq(volunteers.id, id)).returning({ id: volunteers.id });
    if (!deleted) return false;
    await recordAudit(tx, {
      staff,
      action: "volunteer.deleted",
      subject: `volunteer:${id}`,
      summary: "Deleted a volunteer sign-up at the volunteer's request",
      at: now,
    });
    return true;
  });
}

/** The form fields of a posted sign-up as plain strings. */
export function volunteerInputFromForm(form: FormData): Record<string, unknown> {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return { name: field("name"), email: field("email"), reason: field("reason"), website: field("website") };
}
