import type { Queryable } from "~/infra/db/database.server";
import { londonWhen } from "~/lib/london-time";
import { providerReference, type ProviderReference } from "~/lib/provider-reference";
import { bookingHistory } from "~db/schema";

// A booking's status history, which staff read: every change of status is one line of it. The
// lines are stored as they were written (a moment as ISO 8601, a provider's reference in
// brackets) and worded for people when they are read (`historyLine`), old lines included.

export async function recordHistory(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  await historyInsert(tx, bookingRef, status, note, at);
}

/** `recordHistory`'s insert, not yet run: for writes sent together (writeTogether). */
export function historyInsert(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  return tx.insert(bookingHistory).values({ bookingRef, status, note, at });
}

/** One line of a booking's history as staff read it. */
export interface HistoryLine {
  /** The moment, ISO 8601 (for `<time>`). */
  at: string;
  /** "Thursday 26 November 2026 at 17:37", London time. */
  when: string;
  /** What happened, in a word or two: "Seats held", "Paid", "Refund made". */
  what: string;
  note: string;
  /** The provider's reference the line carries, shown only on request. */
  reference: ProviderReference | null;
}

const statusWords: Record<string, string> = {
  held: "Seats held",
  paid: "Paid",
  cancelled: "Released, not paid",
  failed: "Payment failed",
  refund_pending: "Refund due",
  refunded: "Refunded",
  "partly refunded": "Partly refunded",
  "refund made": "Refund made",
};

// "2 × Adult, 1 × Child (3 seats) held until <ISO time>"; before ticket types, "3 seat(s) held until …".
const heldUntil = /^(.+) held until (\d{4}-\d{2}-\d{2}T[\d:.]+Z)$/;
const oldSeats = /^(\d+) seat\(s\)$/;
const withReference = /^(.*) \(((?:re|pi|ch|py)_[A-Za-z0-9_]+)\)$/;

/** A stored history line, worded for people; `provider` names the booking's payment provider. */
export function historyLine(entry: { status: string; note: string; at: Date | string }, provider: string): HistoryLine {
  const at = typeof entry.at === "string" ? entry.at : entry.at.toISOString();
  let note = entry.note;
  let reference: ProviderReference | null = null;
  const held = heldUntil.exec(note);
  if (held) {
    const old = oldSeats.exec(held[1]!);
    const seats = old ? Number(old[1]) : 0;
    const what = old ? `${seats} ${seats === 1 ? "seat" : "seats"}` : held[1]!;
    note = `${what} held until ${londonWhen(held[2]!)}`;
  }
  const referenced = withReference.exec(note);
  if (referenced) {
    note = referenced[1]!;
    reference = providerReference(provider, referenced[2]!);
  }
  const what = statusWords[entry.status] ?? entry.status.charAt(0).toUpperCase() + entry.status.slice(1);
  return { at, when: londonWhen(at), what, note, reference };
}
