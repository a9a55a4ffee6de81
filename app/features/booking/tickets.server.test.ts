import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tickets } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { allTickets, ticketsPage } from "./tickets.server";

const now = new Date("2026-11-22T10:00:00Z");

describe.each(engines)("an event's tickets for staff on %s", (engine) => {
  let database: DatabaseHandle;
  let eventId: string;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    eventId = await insertEvent(database.db, {}, now);
  });
  afterEach(() => database.close());

  async function sell(name: string, email: string, minutes: number, bookingRef: string = crypto.randomUUID()) {
    await database.db.insert(tickets).values({
      ticketHolderName: name,
      email,
      eventId,
      bookingRef,
      quantity: 1,
      dateSold: new Date(now.getTime() + minutes * 60_000),
    });
    return bookingRef;
  }

  it("gives 50 a page, oldest sale first, and clamps a page past the end", async () => {
    for (let i = 0; i < 53; i++) await sell(`Guest ${i}`, `guest${i}@example.org`, i);
    const first = await ticketsPage(database, eventId, {});
    expect(first).toMatchObject({ total: 53, page: 1, pages: 2 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.name).toBe("Guest 0");
    const last = await ticketsPage(database, eventId, { page: 9 });
    expect(last).toMatchObject({ page: 2, pages: 2 });
    expect(last.rows.map((r) => r.name)).toEqual(["Guest 50", "Guest 51", "Guest 52"]);
  });

  it("finds tickets by part of a name or e-mail address, or the start of a reference or code", async () => {
    const amina = await sell("Amina Mushi", "amina@example.org", 1, "3f9a1c2b-7d4e-4a1b-9c3d-5e6f7a8b9c0d");
    await sell("Baraka Juma", "baraka_100%@example.org", 2);
    const names = async (search: string) => (await ticketsPage(database, eventId, { search })).rows.map((r) => r.name);
    expect(await names("MUSHI")).toEqual(["Amina Mushi"]);
    expect(await names("amina@")).toEqual(["Amina Mushi"]);
    expect(await names("3F9A-1C2B")).toEqual(["Amina Mushi"]);
    expect(await names(amina)).toEqual(["Amina Mushi"]);
    // LIKE's wildcards are taken literally.
    expect(await names("100%")).toEqual(["Baraka Juma"]);
    expect(await names("%")).toEqual(["Baraka Juma"]);
    expect(await names("_")).toEqual(["Baraka Juma"]);
    expect(await names("nobody")).toEqual([]);
    // A control character (a NUL, which the database's text cannot hold) is a space, not an error.
    expect(await names("\u0000")).toEqual(["Amina Mushi", "Baraka Juma"]);
    expect(await names("\u0000Mushi\n")).toEqual(["Amina Mushi"]);
  });

  it("lists every ticket by name for the door list, whatever the case", async () => {
    await sell("baraka Juma", "b@example.org", 1);
    await sell("Amina Mushi", "a@example.org", 2);
    expect((await allTickets(database, eventId, "name")).map((t) => t.name)).toEqual(["Amina Mushi", "baraka Juma"]);
    expect((await allTickets(database, eventId, "sold")).map((t) => t.name)).toEqual(["baraka Juma", "Amina Mushi"]);
  });
});
