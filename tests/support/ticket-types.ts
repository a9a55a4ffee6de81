import { eq } from "drizzle-orm";
import { startBooking } from "~/features/booking/checkout.server";
import { settleBooking } from "~/features/booking/settlement.server";
import type { DatabaseHandle, Queryable } from "~/infra/db/database.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { ticketTypes } from "~db/schema";
import { testClock, type TestClock } from "./clock";
import { testCharity } from "./content";
import { freshDatabase, insertEvent, type Engine } from "./databases";

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

/** What `adultTicketEvent` sets up for a test of selling by type. */
export interface AdultTicketEvent {
  database: DatabaseHandle;
  clock: TestClock;
  payments: OfflineProvider;
  deps: PaymentDeps;
  eventId: string;
  /** The event's one type, named Adult (£12.50, insertEvent's price). */
  adult: string;
  /** Adds a type to the event (£5.00 and second in order unless `values` say otherwise); its id. */
  addType(values: Partial<typeof ticketTypes.$inferInsert> & { name: string }): Promise<string>;
}

/**
 * A fresh database on `engine` with the offline provider, at 2026-07-01 10:00 by the test's clock,
 * and an event on sale with `seats` seats whose one type is named Adult.
 */
export async function adultTicketEvent(engine: Engine, seats: number): Promise<AdultTicketEvent> {
  const database = await freshDatabase(engine);
  const clock = testClock("2026-07-01T10:00:00Z");
  const payments = offlineProvider(database.db, clock);
  const deps: PaymentDeps = { db: database.db, payments, charity: testCharity, clock };
  const eventId = await insertEvent(database.db, { totalAvailableTickets: seats }, clock.now());
  const [type] = await database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
  const adult = type!.id;
  await database.db.update(ticketTypes).set({ name: "Adult" }).where(eq(ticketTypes.id, adult));
  const addType = async (values: Partial<typeof ticketTypes.$inferInsert> & { name: string }) => {
    const [row] = await database.db
      .insert(ticketTypes)
      .values({ eventId, pricePence: 500, position: 1, createdAt: clock.now(), updatedAt: clock.now(), ...values })
      .returning();
    return row!.id;
  };
  return { database, clock, payments, deps, eventId, adult, addType };
}
