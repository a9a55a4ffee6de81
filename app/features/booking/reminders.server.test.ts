import { eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { bookings, events, outbox } from "~db/schema";
import { erasePersonData } from "~/features/people/people.server";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { testCharity as charity } from "../../../tests/support/content";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { insertPaidBookings } from "../../../tests/support/paid-bookings";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../../tests/support/services";
import { TestSmtpServer } from "../../../tests/support/smtp";
import { action as eventApi } from "~/routes/api.admin.events.id";
import { action as createEventApi } from "~/routes/api.admin.events";
import { loader as eventPage } from "~/routes/admin.events.id";
import { queueDueReminders, reminderKey } from "./reminders.server";

// Each event's reminder (docs/decisions/096-event-reminders.md), on the real database and a real
// SMTP server on loopback: when it is queued, to whom, once, and what it says.

const hour = 3_600_000;
const day = 24 * hour;

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
});
afterAll(() => smtp.stop());

describe.each(engines)("event reminders on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let site: TestServices;
  let eventId: string;
  let eventDate: Date;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    site = await testServices(database, clock, { SMTP_URL: smtp.url });
    eventDate = new Date(clock.now().getTime() + 10 * day);
    eventId = await insertEvent(
      database.db,
      {
        eventDate,
        location: "Village hall, Kilele Lane",
        whatToBring: "A torch for the walk home.\n\nCash for the raffle.",
      },
      clock.now(),
    );
    smtp.received.length = 0;
  });
  afterEach(() => site.close());

  const queue = async () => queueDueReminders({ db: database.db, clock, charity });
  const reminderRows = () => database.db.select().from(outbox).where(like(outbox.dedupeKey, "event-reminder:%"));

  it("two days before, queues one reminder per booking paid by then; none before, none twice", async () => {
    const early = await insertPaidBookings(database.db, eventId, { count: 3, paidAt: clock.now(), quantity: 4 });
    // A day before the reminder time: nothing yet.
    clock.set(new Date(eventDate.getTime() - 3 * day));
    expect(await queue()).toBe(0);
    // A booking paid a minute after the reminder time gets none: its receipt has just told it all.
    await insertPaidBookings(database.db, eventId, {
      count: 1,
      paidAt: new Date(eventDate.getTime() - 2 * day + 60_000),
      prefix: "late",
    });
    clock.set(new Date(eventDate.getTime() - 2 * day + 5 * 60_000));
    expect(await queue()).toBe(3);
    expect(await queue()).toBe(0);
    const rows = await reminderRows();
    // One per booking (four tickets each), not per ticket.
    expect(rows.map((row) => row.dedupeKey).sort()).toEqual(
      early.map((booking) => reminderKey(booking.bookingRef, eventDate)).sort(),
    );
    expect(rows.some((row) => row.recipient.includes("late1@"))).toBe(false);
  });

  it("says the date, the place, the way there, the door code, the QR code and what to bring; Reply-To is the charity", async () => {
    const [booking] = await insertPaidBookings(database.db, eventId, { count: 1, paidAt: clock.now() });
    clock.set(new Date(eventDate.getTime() - 47 * hour));
    await queue();
    const services = await site.request();
    await services.outbox.deliverDue();
    const [mail] = smtp.sentTo(booking!.email);
    expect(smtp.sentTo(booking!.email)).toHaveLength(1);
    expect(mail!.subject).toBe("Reminder: Quiz Night, Saturday 11 July 2026 at 11:00");
    expect(mail!.replyTo?.text).toContain(charity.email);
    const text = mail!.text ?? "";
    expect(text).toContain("Dear Guest 1,");
    expect(text).toContain("Booking code for the door:");
    expect(text).toContain("Date: Saturday 11 July 2026");
    expect(text).toContain("Time: 11:00");
    expect(text).toContain("Location: Village hall, Kilele Lane");
    expect(text).toContain("https://www.openstreetmap.org/search?query=Village+hall%2C+Kilele+Lane");
    expect(text).toContain("What to bring");
    expect(text).toContain("A torch for the walk home.");
    expect(text).toContain("Cash for the raffle.");
    expect(mail!.attachments.map((a) => a.filename)).toContain("booking-qr.png");
  });

  it("two processes queueing at the same moment queue each booking's reminder once", async () => {
    await insertPaidBookings(database.db, eventId, { count: 120, paidAt: clock.now() });
    clock.set(new Date(eventDate.getTime() - 2 * day));
    // Three at once, as the minute's job in three processes sharing the database.
    const counts = await Promise.all([queue(), queue(), queue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(120);
    const rows = await reminderRows();
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((row) => row.recipient)).size).toBe(120);
  });

  it("sends none for an event with reminders off, cancelled, or started; nor to a refunded or erased booking", async () => {
    const [kept, refunded, erased] = await insertPaidBookings(database.db, eventId, { count: 3, paidAt: clock.now() });
    await database.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.bookingRef, refunded!.bookingRef));
    const services = await site.request();
    const { staff } = await signedInStaff(database.db, clock.now());
    await erasePersonData(services, staff, erased!.email, clock.now());
    const off = await insertEvent(database.db, { eventDate, reminderHours: null }, clock.now());
    const cancelled = await insertEvent(database.db, { eventDate, cancelledAt: clock.now() }, clock.now());
    await insertPaidBookings(database.db, off, { count: 2, paidAt: clock.now(), prefix: "off" });
    await insertPaidBookings(database.db, cancelled, { count: 2, paidAt: clock.now(), prefix: "cancelled" });
    clock.set(new Date(eventDate.getTime() - day));
    expect(await queue()).toBe(1);
    expect((await reminderRows()).map((row) => row.recipient)).toEqual([`Guest 1 <${kept!.email}>`]);
    // Once the event has begun, a reminder not yet queued is never sent.
    const started = await insertEvent(
      database.db,
      {
        eventDate: new Date(clock.now().getTime() - hour),
        ticketSaleExpiry: new Date(clock.now().getTime() - 2 * hour),
      },
      clock.now(),
    );
    await insertPaidBookings(database.db, started, { count: 1, paidAt: new Date(clock.now().getTime() - day) });
    expect(await queue()).toBe(0);
  });

  it("a new date is a new reminder, when its own time comes", async () => {
    await insertPaidBookings(database.db, eventId, { count: 2, paidAt: clock.now() });
    clock.set(new Date(eventDate.getTime() - 2 * day));
    expect(await queue()).toBe(2);
    const later = new Date(eventDate.getTime() + 7 * day);
    await database.db.update(events).set({ eventDate: later }).where(eq(events.id, eventId));
    expect(await queue()).toBe(0);
    clock.set(new Date(later.getTime() - 2 * day));
    expect(await queue()).toBe(2);
    expect(await reminderRows()).toHaveLength(4);
  });

  it("staff set the time or turn it off, through the API; the event's page says where reminders stand", async () => {
    let { cookie } = await signedInStaff(database.db, clock.now());
    const services = await site.request();
    const patch = (body: unknown) =>
      callRoute(
        eventApi,
        new Request(`http://localhost/api/admin/events/${eventId}`, {
          method: "PATCH",
          headers: { cookie, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        services,
        { params: { id: eventId } },
      ).catch((error: unknown) => error) as Promise<Response>;
    const refused = await patch({ reminderHours: 0, whatToBring: "x".repeat(501) });
    expect(refused.status).toBe(400);
    const problems = ((await refused.json()) as { fields: Record<string, string> }).fields;
    expect(problems.reminderHours).toBe("must be at least 1 hour");
    expect(problems.whatToBring).toBe("must be at most 500 characters");
    expect((await database.db.select().from(events).where(eq(events.id, eventId)))[0]!.reminderHours).toBe(48);

    // A new event through the API reminds two days before unless told otherwise.
    const created = (await callRoute(
      createEventApi,
      new Request("http://localhost/api/admin/events", {
        method: "POST",
        headers: { cookie, "Content-Type": "application/json" },
        body: JSON.stringify({
          name: "Ceilidh",
          description: "Dancing.",
          eventDate: eventDate.toISOString(),
          ticketSaleExpiry: eventDate.toISOString(),
          ticketCost: 10,
          totalAvailableTickets: 80,
        }),
      }),
      services,
    )) as Response;
    expect(((await created.json()) as { reminderHours: number }).reminderHours).toBe(48);

    await insertPaidBookings(database.db, eventId, { count: 5, paidAt: clock.now() });
    expect((await patch({ reminderHours: 24 })).status).toBe(200);
    const page = async () =>
      (
        await callRoute(
          eventPage,
          new Request(`http://localhost/admin/events/${eventId}`, { headers: { cookie } }),
          services,
          {
            params: { id: eventId },
          },
        )
      ).reminders;
    expect(await page()).toMatchObject({
      hours: 24,
      at: new Date(eventDate.getTime() - day).toISOString(),
      bookings: 5,
      sent: 0,
    });
    clock.set(new Date(eventDate.getTime() - day + hour));
    await queue();
    await services.outbox.deliverDue();
    // Nine days on, a new session.
    ({ cookie } = await signedInStaff(database.db, clock.now(), { email: "events@example.org" }));
    expect(await page()).toMatchObject({ hours: 24, bookings: 5, sent: 5, waiting: 0, failed: 0 });

    // Once the event has begun, nothing is waiting: what did not go will not.
    await insertPaidBookings(database.db, eventId, { count: 1, paidAt: clock.now(), prefix: "after" });
    clock.set(new Date(eventDate.getTime() + hour));
    ({ cookie } = await signedInStaff(database.db, clock.now(), { email: "door@example.org" }));
    expect(await page()).toMatchObject({ started: true, bookings: 5, sent: 5 });

    expect((await patch({ reminderHours: null })).status).toBe(200);
    expect((await page()).hours).toBeNull();
  });
});
