import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bookings, checkIns, tickets } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { createStaffUser } from "~/features/staff/staff.server";
import { auditPage } from "~/infra/audit/audit.server";
import { doorList, eventOfBooking, findGuests, recordCheckIns } from "./door.server";
import type { CheckInRequest } from "./schema";

// One fixed time for everything these tests touch.
const now = new Date("2026-12-05T19:00:00Z");

describe.each(engines)("the door on %s", (engine) => {
  let database: DatabaseHandle;
  let eventId: string;
  let sam: { id: string; email: string };
  let jo: { id: string; email: string };
  beforeEach(async () => {
    database = await freshDatabase(engine);
    eventId = await insertEvent(database.db, {}, now);
    sam = await createStaffUser(database.db, "sam@example.org", "a long staff password", now);
    jo = await createStaffUser(database.db, "jo@example.org", "another long password", now);
  });
  afterEach(() => database.close());

  async function sell(name: string, quantity: number, status = "paid") {
    const bookingRef = crypto.randomUUID();
    await database.db.insert(bookings).values({
      bookingRef,
      eventId,
      holderName: name,
      email: `${name.split(" ")[0]!.toLowerCase()}@example.org`,
      quantity,
      seats: quantity,
      amountPence: 1250 * quantity + 49,
      status,
      holdExpiresAt: now,
      provider: "offline",
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(tickets).values({
      ticketHolderName: name,
      email: `${name.split(" ")[0]!.toLowerCase()}@example.org`,
      eventId,
      bookingRef,
      quantity,
      isValid: status === "paid",
      dateSold: now,
    });
    return bookingRef;
  }

  const checkIn = (bookingRef: string, count: number, device = "door-1", minutes = 0): CheckInRequest => ({
    id: crypto.randomUUID(),
    bookingRef,
    count,
    scannedAt: new Date(now.getTime() + minutes * 60_000).toISOString(),
    device,
  });

  it("lets a group in part at a time, then says it is used, with when and by whom", async () => {
    const ref = await sell("Amina Mushi", 4);
    const [first] = await recordCheckIns(database, sam, eventId, [checkIn(ref, 2)], now);
    expect(first).toMatchObject({ outcome: "checked-in", ticket: { checkedIn: 2, quantity: 4, name: "Amina Mushi" } });
    const [second] = await recordCheckIns(database, jo, eventId, [checkIn(ref, 2, "door-2", 5)], now);
    expect(second).toMatchObject({
      outcome: "checked-in",
      ticket: { checkedIn: 4, last: { at: "2026-12-05T19:05:00.000Z", by: "jo@example.org" } },
    });
    const [third] = await recordCheckIns(database, sam, eventId, [checkIn(ref, 1)], now);
    expect(third!.outcome).toBe("conflict");
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({ checkedInCount: 4, checkedInAt: new Date("2026-12-05T19:00:00Z") });
  });

  it("answers a check-in sent twice as it did the first time, and counts it once", async () => {
    const ref = await sell("Amina Mushi", 2);
    const request = checkIn(ref, 1);
    const [once] = await recordCheckIns(database, sam, eventId, [request], now);
    const [again] = await recordCheckIns(database, sam, eventId, [request], now);
    expect(once!.outcome).toBe("checked-in");
    expect(again).toEqual(once);
    expect((await database.db.select().from(checkIns)).length).toBe(1);
    expect((await database.db.select().from(tickets))[0]!.checkedInCount).toBe(1);
  });

  it("keeps the second of two offline check-ins of one ticket as a conflict, for both devices to see", async () => {
    const ref = await sell("Baraka Juma", 1);
    const results = await recordCheckIns(
      database,
      sam,
      eventId,
      [checkIn(ref, 1, "door-1", 1), checkIn(ref, 1, "door-2", 2)],
      now,
    );
    expect(results.map((r) => r.outcome)).toEqual(["checked-in", "conflict"]);
    const list = await doorList(database, eventId, now);
    expect(list!.conflicts).toEqual([
      expect.objectContaining({
        bookingRef: ref,
        outcome: "conflict",
        name: "Baraka Juma",
        device: "door-2",
        earlier: [{ at: "2026-12-05T19:01:00.000Z", by: "sam@example.org", device: "door-1", count: 1 }],
      }),
    ]);
    expect(list!.tickets[0]).toMatchObject({ checkedIn: 1, quantity: 1 });
  });

  it("refuses a refunded booking and a reference from another event, changing nothing", async () => {
    const refunded = await sell("Chiku Said", 2, "refunded");
    const otherEvent = await insertEvent(database.db, { name: "Ceilidh" }, now);
    const [result] = await recordCheckIns(database, sam, eventId, [checkIn(refunded, 1)], now);
    expect(result).toMatchObject({ outcome: "refunded", ticket: { refunded: true, checkedIn: 0 } });
    const [elsewhere] = await recordCheckIns(database, sam, otherEvent, [checkIn(refunded, 1)], now);
    expect(elsewhere).toMatchObject({ outcome: "not-found", ticket: null });
    const [unknown] = await recordCheckIns(database, sam, eventId, [checkIn(crypto.randomUUID(), 1)], now);
    expect(unknown!.outcome).toBe("not-found");
    expect((await database.db.select().from(tickets))[0]!.checkedInCount).toBe(0);
  });

  it("gives the door list names, codes and counts but no e-mail addresses", async () => {
    const ref = await sell("Amina Mushi", 3);
    const list = await doorList(database, eventId, now);
    expect(list!.event.id).toBe(eventId);
    expect(list!.tickets).toEqual([
      {
        bookingRef: ref,
        code: ref
          .replace(/-/g, "")
          .slice(0, 8)
          .toUpperCase()
          .replace(/^(.{4})/, "$1-"),
        name: "Amina Mushi",
        quantity: 3,
        checkedIn: 0,
        refunded: false,
        // Sold here without tickets by type (as before types): nothing to say by type.
        types: [],
        last: null,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain("@example.org");
    expect(await doorList(database, crypto.randomUUID(), now)).toBeUndefined();
    expect(await eventOfBooking(database, ref)).toBe(eventId);
    expect(await eventOfBooking(database, "nonsense")).toBeUndefined();
  });
  it("writes each check-in it accepts in the audit log, by reference and count, never by name", async () => {
    const ref = await sell("Amina Mushi", 3);
    const request = checkIn(ref, 2);
    await recordCheckIns(database, sam, eventId, [request], now);
    await recordCheckIns(database, sam, eventId, [request], now); // sent again: not logged twice
    await recordCheckIns(database, jo, eventId, [checkIn(ref, 1, "door-2", 5)], now);
    await recordCheckIns(database, jo, eventId, [checkIn(ref, 1, "door-2", 6)], now); // a conflict: not let in
    const log = await auditPage(database.db, 1);
    // Both were recorded at the same moment, so the log's order between them is not fixed.
    expect(log.rows.map((e) => [e.by, e.action, e.label, e.subject, e.summary]).sort()).toEqual([
      [
        "jo@example.org",
        "ticket.checked-in",
        "Let people in at the door",
        `booking:${ref}`,
        "1 place let in for Quiz Night on door-2",
      ],
      [
        "sam@example.org",
        "ticket.checked-in",
        "Let people in at the door",
        `booking:${ref}`,
        "2 places let in for Quiz Night on door-1",
      ],
    ]);
    expect(JSON.stringify(log.rows)).not.toContain("Amina");
    // The audit page can show the door's entries alone, or any other kind alone.
    expect((await auditPage(database.db, 1, "ticket.checked-in")).total).toBe(2);
    expect((await auditPage(database.db, 1, "volunteer.deleted")).total).toBe(0);
  });
  it("finds this event's guests by name without accents, by surname, by the start of an e-mail and by code, best first", async () => {
    const siobhan = await sell("Siobhán Okafor", 2);
    const chidi = await sell("Chidi Okafor", 1);
    const okaforFirst = await sell("Okafor Emeka", 1);
    await sell("Amina Mushi", 1);
    // Another event's Okafor is not at this door.
    const other = await insertEvent(database.db, { name: "Carol Concert" }, now);
    const elsewhere = crypto.randomUUID();
    await database.db.insert(bookings).values({
      bookingRef: elsewhere,
      eventId: other,
      holderName: "Ngozi Okafor",
      email: "ngozi@example.org",
      quantity: 1,
      seats: 1,
      amountPence: 1299,
      status: "paid",
      holdExpiresAt: now,
      provider: "offline",
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(tickets).values({
      ticketHolderName: "Ngozi Okafor",
      email: "ngozi@example.org",
      eventId: other,
      bookingRef: elsewhere,
      quantity: 1,
      isValid: true,
      dateSold: now,
    });
    expect(await findGuests(database, eventId, "Siobhan")).toEqual([siobhan]);
    expect(await findGuests(database, eventId, "okafor")).toEqual([okaforFirst, chidi, siobhan]);
    // sell() gives each buyer an address of their first name.
    expect(await findGuests(database, eventId, "Siobhán@EX")).toEqual([siobhan]);
    expect(await findGuests(database, eventId, siobhan.slice(0, 8).toUpperCase())).toEqual([siobhan]);
    expect(await findGuests(database, eventId, "Okafr")).toEqual([]);
    expect(await findGuests(database, eventId, "")).toEqual([]);
    expect(await findGuests(database, "not-an-event", "okafor")).toEqual([]);
  });
});
