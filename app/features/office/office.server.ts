import { and, asc, eq, gte, isNotNull, isNull, lt, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { saveSiteSetting } from "~/infra/db/site-settings.server";
import { itemsOfBookings } from "~/infra/db/booking-items.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { mailKey } from "~/infra/email/mail-kinds";
import { queueMail } from "~/infra/email/outbox.server";
import { onlyPlainTickets, ticketsInWords } from "~/lib/booking-items";
import { AppError } from "~/lib/errors";
import { fromLondonInput, londonDay, londonInputValue } from "~/lib/london-time";
import { emailPattern } from "~/lib/validation";
import { bookings, donations, events, outbox, siteSettings, volunteers } from "~db/schema";
import {
  officeBookingMail,
  officeDonationMail,
  officeSummaryMail,
  officeVolunteerMail,
  type OfficeBooking,
  type OfficeCharity,
} from "./office-mail.server";
import { officeModeLabels, officeModes, type OfficeMode } from "./schema";

// Telling the charity's office: an e-mail for each booking, donation and volunteer sign-up, or one
// summary a day, to the office address. A sweep finds what came in since the setting took effect
// and queues the e-mails; each has its own outbox key, so sweeping again (or in two processes)
// sends nothing twice, and nothing is lost across a restart. It reads the bookings, donations and
// sign-ups tables and changes none of their code.

export const settingsKey = "office-notifications";

const storedSchema = z.object({
  /** null: the charity's e-mail from the site content, whatever it is at the time. */
  address: z.string().nullable(),
  mode: z.enum(officeModes),
  /** When this mode took effect: nothing that came in before it is sent. */
  since: z.iso.datetime(),
});
export type OfficeSettings = z.infer<typeof storedSchema>;

/**
 * Until staff choose, the charity's own address gets an e-mail for each arrival, from the site's
 * first sweep on (the sweep stores that moment), never for what came before it.
 */
const defaultMode: OfficeMode = "each";

async function storedOfficeSettings(db: Queryable): Promise<OfficeSettings | undefined> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.key, settingsKey));
  const stored = storedSchema.safeParse(row?.value);
  return stored.success ? stored.data : undefined;
}

/** The settings as the page shows them; before the first sweep, the default from now. */
export async function officeSettings({ db }: { db: Queryable }, now: Date): Promise<OfficeSettings> {
  return (await storedOfficeSettings(db)) ?? { address: null, mode: defaultMode, since: now.toISOString() };
}

/**
 * Saves the settings page (audited). The address is checked; a change of mode takes effect now,
 * so the office is not sent what came in before. A blank address means the charity's own.
 */
export async function saveOfficeSettings(
  { db }: { db: Database },
  staff: { id: string; email: string },
  input: { address: string; mode: string },
  { now, charityEmail }: { now: Date; charityEmail: string },
): Promise<OfficeSettings> {
  const typed = input.address.trim();
  if (typed && (typed.length > 200 || !emailPattern.test(typed))) {
    const message = "Enter an e-mail address like office@example.org.";
    throw new AppError("invalid", message, { fields: { address: message } });
  }
  if (!(officeModes as readonly string[]).includes(input.mode)) {
    const message = "Choose which office e-mails to send.";
    throw new AppError("invalid", message, { fields: { mode: message } });
  }
  const mode = input.mode as OfficeMode;
  const address = !typed || typed.toLowerCase() === charityEmail.toLowerCase() ? null : typed;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(siteSettings).where(eq(siteSettings.key, settingsKey)).for("update");
    const before = storedSchema.safeParse(row?.value);
    const since = before.success && before.data.mode === mode ? before.data.since : now.toISOString();
    const value: OfficeSettings = { address, mode, since };
    await saveSiteSetting(tx, {
      key: settingsKey,
      value,
      staff,
      summary: `Office e-mails: ${officeModeLabels[mode]}; to ${address ? "another address" : "the charity's own address"}`,
      now,
    });
    return value;
  });
}

/** At most this many office e-mails are queued by one sweep; the next sweep takes the rest. */
const sweepBatch = 100;

/** The London day after `day` (YYYY-MM-DD). */
function nextDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The moment a London day starts. */
function londonMidnight(day: string): Date {
  return new Date(fromLondonInput(`${day}T00:00`)!);
}

/** The summary for the day before is sent from 07:00 London time. */
const summaryHour = 7;
/** Days back a late summary is still sent (a site stopped over a weekend catches up). */
const summaryCatchUpDays = 7;

interface Window {
  from: Date;
  to?: Date;
  /** Only those whose office e-mail is not yet in the outbox (the "each" mode's sweep), a batch at a time. */
  unqueued?: boolean;
}

/** Whether the office e-mail with this outbox key is missing, for a left join on the outbox. */
function outboxKeyFor(kind: "office-booking" | "office-donation" | "office-volunteer", id: SQLWrapper) {
  return eq(outbox.dedupeKey, sql`${`${kind}:`} || ${id}::text`);
}

function within(column: Parameters<typeof gte>[0], { from, to }: Window) {
  return [gte(column, from), ...(to ? [lt(column, to)] : [])];
}

/** Paid bookings in the window, each with its tickets by type in words where it has more than the plain type. */
export async function paidBookingsIn(db: Queryable, window: Window): Promise<OfficeBooking[]> {
  const rows = await db
    .select({
      ref: bookings.bookingRef,
      eventName: events.name,
      eventDate: events.eventDate,
      buyer: bookings.holderName,
      email: bookings.email,
      quantity: bookings.quantity,
      amountPence: bookings.amountPence,
      paidAt: bookings.paidAt,
    })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .leftJoin(outbox, outboxKeyFor("office-booking", bookings.bookingRef))
    .where(
      and(
        isNotNull(bookings.paidAt),
        ...within(bookings.paidAt, window),
        ...(window.unqueued ? [isNull(outbox.id)] : []),
      ),
    )
    .orderBy(asc(bookings.paidAt))
    .limit(window.unqueued ? sweepBatch : 10_000);
  const items = await itemsOfBookings(
    db,
    rows.map((row) => row.ref),
  );
  return rows.map((row) => {
    const bought = items.get(row.ref) ?? [];
    return { ...row, types: onlyPlainTickets(bought) ? null : ticketsInWords(bought) };
  });
}

export async function paidDonationsIn(db: Queryable, window: Window) {
  return db
    .select({
      id: donations.id,
      donor: donations.donorName,
      email: donations.email,
      amountPence: donations.amountPence,
      paidAt: donations.paidAt,
    })
    .from(donations)
    .leftJoin(outbox, outboxKeyFor("office-donation", donations.id))
    .where(
      and(
        isNotNull(donations.paidAt),
        ...within(donations.paidAt, window),
        ...(window.unqueued ? [isNull(outbox.id)] : []),
      ),
    )
    .orderBy(asc(donations.paidAt))
    .limit(window.unqueued ? sweepBatch : 10_000);
}

export async function signUpsIn(db: Queryable, window: Window) {
  return db
    .select({
      id: volunteers.id,
      name: volunteers.name,
      email: volunteers.email,
      reason: volunteers.reason,
      createdAt: volunteers.createdAt,
    })
    .from(volunteers)
    .leftJoin(outbox, outboxKeyFor("office-volunteer", volunteers.id))
    .where(and(...within(volunteers.createdAt, window), ...(window.unqueued ? [isNull(outbox.id)] : [])))
    .orderBy(asc(volunteers.createdAt))
    .limit(window.unqueued ? sweepBatch : 10_000);
}

/** Queues the office e-mail for each arrival since the setting took effect that has none yet; answers how many. */
async function sweepEach(db: Database, to: string, since: Date, now: Date, charity: OfficeCharity) {
  const window = { from: since, unqueued: true };
  const [booked, donated, signedUp] = await Promise.all([
    paidBookingsIn(db, window),
    paidDonationsIn(db, window),
    signUpsIn(db, window),
  ]);
  for (const booking of booked) {
    await queueMail(db, {
      kind: "office-booking",
      about: booking.ref,
      message: officeBookingMail(to, booking, charity),
      now,
    });
  }
  for (const donation of donated) {
    await queueMail(db, {
      kind: "office-donation",
      about: donation.id,
      message: officeDonationMail(to, donation, charity),
      now,
    });
  }
  for (const volunteer of signedUp) {
    await queueMail(db, {
      kind: "office-volunteer",
      about: volunteer.id,
      message: officeVolunteerMail(to, volunteer, charity),
      now,
    });
  }
  return booked.length + donated.length + signedUp.length;
}

/**
 * Queues the daily summary of each finished London day (from 07:00 the next morning) since the
 * setting took effect, up to a week back; a day when nothing came in gets none. Answers how many.
 */
async function sweepDaily(db: Database, to: string, since: Date, now: Date, charity: OfficeCharity) {
  const local = londonInputValue(now);
  const today = londonDay(now);
  const lastDay = Number(local.slice(11, 13)) >= summaryHour ? today : undefined;
  let queued = 0;
  let day = londonDay(new Date(now.getTime() - summaryCatchUpDays * 86_400_000));
  if (day < londonDay(since)) day = londonDay(since);
  for (; lastDay && day < lastDay; day = nextDay(day)) {
    const [existing] = await db
      .select({ id: outbox.id })
      .from(outbox)
      .where(eq(outbox.dedupeKey, mailKey("office-summary", day)));
    if (existing) continue;
    const start = londonMidnight(day);
    const window = { from: start < since ? since : start, to: londonMidnight(nextDay(day)) };
    const [booked, donated, signedUp] = await Promise.all([
      paidBookingsIn(db, window),
      paidDonationsIn(db, window),
      signUpsIn(db, window),
    ]);
    if (booked.length + donated.length + signedUp.length === 0) continue;
    await queueMail(db, {
      kind: "office-summary",
      about: day,
      message: officeSummaryMail(to, day, { booked, donated, signedUp }, charity),
      now,
    });
    queued += 1;
  }
  return queued;
}

/**
 * One sweep: by the settings, queues the office e-mails not yet queued. Run at start-up and every
 * few seconds next to the outbox worker; answers how many it queued.
 */
export async function sweepOfficeMail(db: Database, { now, charity }: { now: Date; charity: OfficeCharity }) {
  let settings = await storedOfficeSettings(db);
  if (!settings) {
    // The first sweep of a new site: the default takes effect now (a second process's insert loses).
    const value: OfficeSettings = { address: null, mode: defaultMode, since: now.toISOString() };
    await db
      .insert(siteSettings)
      .values({ key: settingsKey, value, updatedAt: now, updatedBy: "the site" })
      .onConflictDoNothing();
    settings = (await storedOfficeSettings(db))!;
  }
  if (settings.mode === "none") return 0;
  const to = settings.address ?? charity.email;
  const since = new Date(settings.since);
  return settings.mode === "each" ? sweepEach(db, to, since, now, charity) : sweepDaily(db, to, since, now, charity);
}
