import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { ticketTypes } from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { startBooking } from "./checkout.server";
import { bookingReturn } from "./confirmation.server";

// What the confirmation page shows of a booking (decision 081): an event of one price as the
// specification has it; tickets of several types each at the price they were sold at.

const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

describe.each(engines)("the confirmation of a booking on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps & { outbox: { deliver: () => Promise<{ ok: true }> } };
  let eventId: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    const clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity, clock, outbox: { deliver: async () => ({ ok: true }) } };
    eventId = await insertEvent(database.db, { totalAvailableTickets: 20 }, clock.now());
  });
  afterEach(() => database.close());

  async function paid(input: { quantity?: number; tickets?: Record<string, number> }, email: string) {
    const attempt = await startBooking(deps, { eventId, name: "Amina Mushi", email, ...input });
    await payments.confirmCard(attempt.clientSecret, good);
    const answer = await bookingReturn(deps, attempt.bookingRef);
    if (answer.kind !== "paid") throw new Error(`not paid: ${answer.kind}`);
    return answer.details;
  }

  it("an event of one price: the price, the quantity and the total, with no lines", async () => {
    const details = await paid({ quantity: 3 }, "one@example.org");
    expect(details).toMatchObject({ quantity: 3, ticketCostPence: 1250, totalPence: 3 * 1250 + 49 });
    expect(details.lines).toBeUndefined();
  });

  it("tickets of several types: each type's line at the price it was sold at, and one type of several named", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const [child] = await database.db
      .insert(ticketTypes)
      .values([{ eventId, name: "Child", pricePence: 500, position: 1, createdAt: now, updatedAt: now }])
      .returning({ id: ticketTypes.id });
    const [ticket] = await database.db
      .select({ id: ticketTypes.id })
      .from(ticketTypes)
      .where(eq(ticketTypes.name, "Ticket"));
    const mixed = await paid({ tickets: { [ticket!.id]: 2, [child!.id]: 1 } }, "mixed@example.org");
    expect(mixed).toMatchObject({ quantity: 3, totalPence: 2 * 1250 + 500 + 49 });
    expect(mixed.lines).toEqual([
      { name: "Ticket", pricePence: 1250, quantity: 2 },
      { name: "Child", pricePence: 500, quantity: 1 },
    ]);
    // One type of an event that sells several: still named.
    const children = await paid({ tickets: { [child!.id]: 2 } }, "children@example.org");
    expect(children).toMatchObject({ quantity: 2, ticketCostPence: 500, totalPence: 2 * 500 + 49 });
    expect(children.lines).toEqual([{ name: "Child", pricePence: 500, quantity: 2 }]);
  });
});
