import { sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";

/** The PostgreSQL channel every process announces sales and event changes on. */
export const changesChannel = "kilele_event_changes";

export type Change = "availability" | "events";

/**
 * Announces that availability (a sale, a hold) or the events themselves changed. Sent through the
 * database, inside the caller's transaction if there is one, so every server process sharing the
 * database hears it once the change is committed, and not before.
 */
export async function announceChange(db: Queryable, change: Change) {
  await db.execute(changeNotice(change));
}

/** `announceChange`'s statement, not yet run: for a caller that sends it with its writes as one statement. */
export function changeNotice(change: Change) {
  return sql`select pg_notify(${changesChannel}, ${change})`;
}
