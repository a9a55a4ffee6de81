import { and, asc, eq, gt, isNotNull, isNull, lte, notLike, sql } from "drizzle-orm";
import { bookings, events, outbox, tickets } from "~db/schema";
import type { Queryable } from "~/infra/db/database.server";
import { composeLetter, mapLink, paragraphs, type Block, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { queueMails, type QueuedMail } from "~/infra/email/outbox.server";
import { mailKey } from "~/infra/email/mail-kinds";
import { qrPng } from "~/infra/email/qr-png.server";
import type { Charity } from "~/infra/payments/provider.server";
import { checkInPath, shortCode } from "~/lib/booking-code";
import type { Clock } from "~/lib/clock";
import { londonDayWords, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";

// Each event's reminder (docs/decisions/096-event-reminders.md): `reminder_hours` before it starts,
// every booking paid by then is e-mailed the date, the place, the way there, the door code and QR,
// and what to bring. The outbox key, `event-reminder:<booking>@<event date>`, makes it once per
// booking however many processes queue it and however often; a new date is a new reminder.

/** How many reminders are written per transaction: a big event's are queued in a few short ones. */
const batchSize = 50;

/** The moment an event's reminders are due: `reminderHours` before it starts. */
export function reminderTime(event: { eventDate: Date; reminderHours: number }): Date {
  return new Date(event.eventDate.getTime() - event.reminderHours * 3_600_000);
}

/** What a booking's reminder is about, in its outbox key: the booking, and the event's date. */
function reminderAbout(bookingRef: string, eventDate: Date): string {
  return `${bookingRef}@${eventDate.toISOString()}`;
}

/** The outbox key of a booking's reminder for the event on this date. */
export function reminderKey(bookingRef: string, eventDate: Date): string {
  return mailKey("event-reminder", reminderAbout(bookingRef, eventDate));
}

/** `reminderKey` of each booking a query reads, in SQL. */
function reminderKeyOf(eventDate: Date) {
  return sql`${mailKey("event-reminder", "")} || ${bookings.bookingRef}::text || ${reminderAbout("", eventDate)}`;
}

/** Addresses that erasure left behind (app/features/people/people.server.ts): nobody to remind. */
const erasedAddresses = "%@erased.invalid";

/**
 * The bookings that are owed the reminder of an event whose time has come: paid (with a valid
 * ticket) by the reminder time, whose reminder for this date is not in the outbox.
 */
function owedReminders(db: Queryable, event: { id: string; eventDate: Date }, at: Date) {
  const key = reminderKeyOf(event.eventDate);
  return db
    .select({
      bookingRef: bookings.bookingRef,
      holderName: bookings.holderName,
      email: bookings.email,
      quantity: bookings.quantity,
      seats: bookings.seats,
    })
    .from(bookings)
    .innerJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .where(
      and(
        eq(bookings.eventId, event.id),
        eq(bookings.status, "paid"),
        eq(tickets.isValid, true),
        lte(bookings.paidAt, at),
        notLike(bookings.email, erasedAddresses),
        sql`not exists (select 1 from ${outbox} where ${outbox.dedupeKey} = ${key})`,
      ),
    )
    .orderBy(asc(bookings.paidAt), asc(bookings.bookingRef))
    .limit(batchSize);
}

/**
 * Queues the reminders that are due: for each event not cancelled and not yet started whose
 * reminder time has come, one per booking paid by then. Returns how many it queued; a second
 * process doing the same at the same moment queues none of the same twice (the outbox key).
 */
export async function queueDueReminders(
  { db, clock, charity }: { db: Queryable; clock: Clock; charity: Charity },
  shouldStop: () => boolean = () => false,
): Promise<number> {
  const now = clock.now();
  const due = await db
    .select({
      id: events.id,
      name: events.name,
      eventDate: events.eventDate,
      location: events.location,
      reminderHours: events.reminderHours,
      whatToBring: events.whatToBring,
    })
    .from(events)
    .where(
      and(
        isNotNull(events.reminderHours),
        isNull(events.cancelledAt),
        gt(events.eventDate, now),
        sql`${events.eventDate} - make_interval(hours => ${events.reminderHours}) <= ${now.toISOString()}::timestamptz`,
      ),
    );
  let queued = 0;
  for (const event of due) {
    const at = reminderTime({ eventDate: event.eventDate, reminderHours: event.reminderHours! });
    for (;;) {
      if (shouldStop()) return queued;
      const owed = await owedReminders(db, event, at);
      if (owed.length === 0) break;
      const mails = await Promise.all(
        owed.map(async (booking): Promise<QueuedMail> => ({
          kind: "event-reminder",
          about: reminderAbout(booking.bookingRef, event.eventDate),
          message: await eventReminder({ booking, event, charity }),
          now,
        })),
      );
      // One statement for the batch; a key already there (another process's) is left as it is.
      await queueMails(db, mails);
      queued += owed.length;
      if (owed.length < batchSize) break;
    }
  }
  return queued;
}

export interface ReminderDetails {
  booking: { bookingRef: string; holderName: string; email: string; quantity: number; seats: number };
  event: { name: string; eventDate: Date; location: string; whatToBring: string };
  charity: Charity;
}

/**
 * The reminder: the event's day, time and place with a map, the door code and its QR code (as the
 * receipt has them), the places it admits when a ticket admits more than one, and what to bring.
 */
export async function eventReminder({ booking, event, charity }: ReminderDetails): Promise<MailMessage> {
  const day = londonDayWords(event.eventDate);
  const time = londonTime(event.eventDate);
  const code = shortCode(booking.bookingRef);
  const qr = qrPng(new URL(checkInPath(booking.bookingRef), charity.website).toString(), {
    width: 240,
    margin: 1,
    errorCorrectionLevel: "M",
  });
  const bring = event.whatToBring.trim();
  const blocks: Block[] = [
    {
      paragraph: ["This is a reminder of your booking for ", { strong: event.name }, `: ${day} at ${time}.`],
    },
    { heading: "Your booking" },
    {
      rows: [
        ["Booking code for the door", [{ strong: code }]],
        ["Event", event.name],
        ["Date", day],
        ["Time", time],
        ["Location", event.location || "to be confirmed"],
        ...(booking.seats !== booking.quantity
          ? [["Admits", plural(booking.seats, "person", "people")] as [string, Line]]
          : []),
        ...(event.location
          ? [["Directions", [{ link: `Map of ${event.location}`, href: mapLink(event.location) }]] as [string, Line]]
          : []),
      ],
    },
    { picture: { cid: "booking-qr", alt: `QR code for the door: booking ${code}`, width: 160, height: 160 } },
    { paragraph: "Please bring this e-mail, or your booking code, with you: we will scan the QR code at the door." },
    ...(bring ? [{ heading: "What to bring" }, ...paragraphs(bring)] : []),
    { paragraph: "If you can no longer come, please reply to this e-mail and let us know." },
  ];
  return composeLetter({
    to: { name: booking.holderName, address: booking.email },
    subject: `Reminder: ${event.name}, ${day} at ${time}`,
    title: `See you soon: ${event.name}`,
    greeting: `Dear ${booking.holderName},`,
    charity,
    blocks,
    attachments: [
      { filename: "booking-qr.png", contentType: "image/png", content: qr.toString("base64"), cid: "booking-qr" },
    ],
  });
}

/** Where an event's reminders stand, for its staff page. */
export interface ReminderProgress {
  /** Hours before the event; null: the event sends none. */
  hours: number | null;
  /** When they are (or were) due; null without reminders. */
  at: string | null;
  /** Whether the event has begun: a reminder not sent by then never is. */
  started: boolean;
  /** Bookings paid by the reminder time (so far, before it), with a valid ticket. */
  bookings: number;
  sent: number;
  waiting: number;
  failed: number;
}

/** How far an event's reminders for its present date have got. */
export async function reminderProgress(
  db: Queryable,
  event: { id: string; eventDate: Date; reminderHours: number | null },
  now: Date,
): Promise<ReminderProgress> {
  const started = now >= event.eventDate;
  if (event.reminderHours === null) {
    return { hours: null, at: null, started, bookings: 0, sent: 0, waiting: 0, failed: 0 };
  }
  const at = reminderTime({ eventDate: event.eventDate, reminderHours: event.reminderHours });
  const by = at < now ? at : now;
  const key = reminderKeyOf(event.eventDate);
  const [row] = await db
    .select({
      bookings: sql<number>`count(*)::int`.mapWith(Number),
      sent: sql<number>`count(${outbox.sentAt})::int`.mapWith(Number),
      failed:
        sql<number>`count(*) filter (where ${outbox.id} is not null and ${outbox.sentAt} is null and ${outbox.lastError} is not null)::int`.mapWith(
          Number,
        ),
      queued: sql<number>`count(${outbox.id})::int`.mapWith(Number),
    })
    .from(bookings)
    .innerJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .leftJoin(outbox, eq(outbox.dedupeKey, key))
    .where(
      and(
        eq(bookings.eventId, event.id),
        // A booking reminded and then refunded still counts as reminded.
        sql`(${outbox.id} is not null or (${bookings.status} = 'paid' and ${tickets.isValid} and ${bookings.paidAt} <= ${by.toISOString()}::timestamptz))`,
      ),
    );
  const sent = row?.sent ?? 0;
  const failed = row?.failed ?? 0;
  return {
    hours: event.reminderHours,
    at: at.toISOString(),
    started,
    bookings: row?.bookings ?? 0,
    sent,
    failed,
    waiting: (row?.queued ?? 0) - sent - failed,
  };
}
