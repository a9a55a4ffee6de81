import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { bookings, events } from "~db/schema";
import { testCharity as charity } from "../../../tests/support/content";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { checkoutRefusal, EarlyRefusals, startBooking } from "./checkout.server";

const buyer = { name: "Amina Mushi", email: "amina@example.org" };

describe.each(engines)("a checkout start's early answer from the last reading, on %s", (engine) => {
  let database: DatabaseHandle;
  let deps: PaymentDeps;
  let clock: TestClock;
  // The live feed's count of announced changes, moved by hand here.
  let changes: number;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T10:00:00Z");
    deps = { db: database.db, payments: offlineProvider(database.db, clock), charity, clock };
    changes = 0;
  });
  afterEach(() => database.close());

  /** An event with all its seats in one visitor's checkout, held for 15 minutes. */
  async function allSeatsHeld(seats: number) {
    const eventId = await insertEvent(database.db, { totalAvailableTickets: seats }, clock.now());
    const held = await startBooking(deps, { eventId, ...buyer, quantity: String(seats) });
    return { eventId, bookingRef: held.bookingRef };
  }
  /** Seats added behind the site's back: no change announced. */
  const silentlyAddSeats = (eventId: string, total: number) =>
    database.db.update(events).set({ totalAvailableTickets: total }).where(eq(events.id, eventId));

  it("refuses again from the reading until a change is announced, then reads again", async () => {
    const refusals = new EarlyRefusals(() => changes, { maxAgeMs: Infinity, maxEvents: 10 });
    const { eventId } = await allSeatsHeld(2);
    const asked = { eventId, quantity: 1 };
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/reserved/i),
    });
    await silentlyAddSeats(eventId, 4);
    // The database now has two seats left, but nothing said so: the reading still answers.
    expect(await checkoutRefusal(database.db, asked, clock.now())).toBeUndefined();
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({ code: "conflict" });
    changes += 1;
    expect(await refusals.refusal(database.db, asked, clock.now())).toBeUndefined();
  });

  it("reads again once the first hold it counted may have run out", async () => {
    const refusals = new EarlyRefusals(() => changes, { maxAgeMs: Infinity, maxEvents: 10 });
    const { eventId, bookingRef } = await allSeatsHeld(1);
    const asked = { eventId, quantity: 1 };
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({ code: "conflict" });
    await database.db.update(bookings).set({ status: "cancelled" }).where(eq(bookings.bookingRef, bookingRef));
    clock.advance(14 * 60_000);
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({ code: "conflict" });
    clock.advance(60_000);
    expect(await refusals.refusal(database.db, asked, clock.now())).toBeUndefined();
  });

  it("keeps a reading for a second at most, announced or not", async () => {
    const refusals = new EarlyRefusals(() => changes);
    const { eventId } = await allSeatsHeld(1);
    const asked = { eventId, quantity: 1 };
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({ code: "conflict" });
    await silentlyAddSeats(eventId, 2);
    clock.advance(999);
    expect(await refusals.refusal(database.db, asked, clock.now())).toMatchObject({ code: "conflict" });
    clock.advance(1);
    expect(await refusals.refusal(database.db, asked, clock.now())).toBeUndefined();
  });

  it("answers an event that is not there, or not an event address, as the database would", async () => {
    const refusals = new EarlyRefusals(() => changes);
    for (const eventId of ["not-an-id", "5f0c6a52-9d0e-4a1e-8f5b-2a7c1b3d4e5f"]) {
      expect(await refusals.refusal(database.db, { eventId, quantity: 1 }, clock.now())).toMatchObject({
        code: "not-found",
        message: "There is no such event.",
      });
    }
  });
});
