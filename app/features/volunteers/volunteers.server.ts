import { desc } from "drizzle-orm";
import type { Database } from "~/infra/db/database.server";
import type { RateLimiter } from "~/infra/rate-limit.server";
import { volunteers } from "../../../db/schema";
import { validateVolunteer, volunteerReplies, type VolunteerSubmissionResult } from "./schema";

interface SubmissionContext {
  db: Database;
  limiter: RateLimiter;
  clientAddress: string;
  now: Date;
}

/**
 * A sign-up from the volunteering form (posted by the page without JavaScript, or by the browser
 * to /api/volunteers): rate limited per address, checked with the form's own schema, then stored.
 * A filled-in honeypot field marks a robot: it is thanked like anyone else and nothing is stored.
 */
export async function submitVolunteer(
  input: Record<string, unknown>,
  { db, limiter, clientAddress, now }: SubmissionContext,
): Promise<VolunteerSubmissionResult> {
  if (!limiter.attempt(clientAddress, now)) return { status: "limited", message: volunteerReplies.limited };
  const validation = validateVolunteer(input);
  if (!validation.ok) return { status: "invalid", errors: validation.errors };
  if (typeof input.website === "string" && input.website.trim() !== "") return { status: "ok" };
  await db.insert(volunteers).values({ ...validation.data, createdAt: now });
  return { status: "ok" };
}

/** Volunteer sign-ups, newest first, with the specification's field names. */
export async function listVolunteers(db: Database) {
  const rows = await db.select().from(volunteers).orderBy(desc(volunteers.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The form fields of a posted sign-up as plain strings. */
export function volunteerInputFromForm(form: FormData): Record<string, unknown> {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return { name: field("name"), email: field("email"), reason: field("reason"), website: field("website") };
}
