import type { Queryable } from "~/infra/db/database.server";
import { bookingHistory } from "~db/schema";

// A booking's status history, which staff read: every change of status is one line of it.

export async function recordHistory(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  await historyInsert(tx, bookingRef, status, note, at);
}

/** `recordHistory`'s insert, not yet run: for writes sent together (writeTogether). */
export function historyInsert(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  return tx.insert(bookingHistory).values({ bookingRef, status, note, at });
}
