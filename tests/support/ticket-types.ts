import { eq } from "drizzle-orm";
import { startBooking } from "~/features/booking/checkout.server";
import { settleBooking } from "~/features/booking/settlement.server";
import type { Queryable } from "~/infra/db/database.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { ticketTypes } from "~db/schema";

// Events that sell several types of ticket (decision 078), for the tests of what follows a sale:
// the types are written straight into the table, as staff would set them.

export interface TestType {
  name: string;
  pricePence: number;
  seatsPerTicket?: number;
  cap?: number | null;
}

/**
 * Gives an event (made by insertEvent, with its one type named Ticket and nothing sold) these types
 * instead, in this order; their ids by name.
 */
export async function giveTypes(
  db: Queryable,
  eventId: string,
  types: TestType[],
  now: Date,
): Promise<Record<string, string>> {
  await db.delete(ticketTypes).where(eq(ticketTypes.eventId, eventId));
  const rows = await db
    .insert(ticketTypes)
    .values(
      types.map((type, position) => ({
        eventId,
        name: type.name,
        pricePence: type.pricePence,
        seatsPerTicket: type.seatsPerTicket ?? 1,
        cap: type.cap ?? null,
        position,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: ticketTypes.id, name: ticketTypes.name });
  return Object.fromEntries(rows.map((row) => [row.name, row.id]));
}

/** A booking of these tickets by type, paid with the offline provider's test card and settled; its reference. */
export async function buyTypes(
  deps: PaymentDeps,
  eventId: string,
  tickets: Record<string, number>,
  buyer: { name?: string; email?: string } = {},
): Promise<string> {
  const started = await startBooking(deps, {
    eventId,
    name: buyer.name ?? "Amina Mushi",
    email: buyer.email ?? "amina@example.org",
    tickets,
  });
  const { error } = await (deps.payments as OfflineProvider).confirmCard(started.clientSecret, {
    number: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  if (error) throw new Error(`The test card was refused: ${error}`);
  const settled = await settleBooking(deps, started.bookingRef);
  if (settled.outcome !== "paid") throw new Error(`The booking was not paid: ${settled.outcome}`);
  return started.bookingRef;
}
