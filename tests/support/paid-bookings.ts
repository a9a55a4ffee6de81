import crypto from "node:crypto";
import type { Queryable } from "~/infra/db/database.server";
import { bookings, tickets } from "~db/schema";

export interface PaidBooking {
  bookingRef: string;
  holderName: string;
  email: string;
}

/**
 * `count` paid bookings of an event at £12.50 a ticket, each with its ticket, paid at `paidAt`,
 * written straight to the database in a few statements (a test of what happens to hundreds of
 * bookings does not need hundreds of checkouts). Addresses are `<prefix><n>@example.org`.
 */
export async function insertPaidBookings(
  db: Queryable,
  eventId: string,
  {
    count,
    paidAt,
    quantity = 1,
    prefix = "guest",
  }: { count: number; paidAt: Date; quantity?: number; prefix?: string },
): Promise<PaidBooking[]> {
  const made = Array.from({ length: count }, (_, i) => ({
    bookingRef: crypto.randomUUID(),
    holderName: `Guest ${i + 1}`,
    email: `${prefix}${i + 1}@example.org`,
  }));
  for (let start = 0; start < made.length; start += 500) {
    const part = made.slice(start, start + 500);
    await db.insert(bookings).values(
      part.map((b) => ({
        ...b,
        eventId,
        quantity,
        seats: quantity,
        amountPence: 1250 * quantity + 49,
        status: "paid",
        holdExpiresAt: paidAt,
        provider: "offline",
        createdAt: paidAt,
        paidAt,
        updatedAt: paidAt,
      })),
    );
    await db.insert(tickets).values(
      part.map((b) => ({
        ticketHolderName: b.holderName,
        email: b.email,
        eventId,
        bookingRef: b.bookingRef,
        quantity,
        isValid: true,
        dateSold: paidAt,
      })),
    );
  }
  return made;
}
