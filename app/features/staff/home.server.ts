import { and, asc, count, eq, gt, gte, isNotNull, isNull, lt, min, sql, sum } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { londonDay } from "~/lib/london-time";
import { londonMidnight, londonMonday, londonWeekdayDate, londonWeekdayDateTime, shiftDay } from "~/lib/london-week";
import { bookings, donations, events, staffInvitations, staffUsers, volunteers } from "~db/schema";
import { can, type StaffRole } from "./roles";

// The staff home's figures (/admin, decision 073): what came in today, this week and the same week
// last year; what is new since this member last signed in; invitations waiting; and the events to
// watch. Each member gets only what their role may open: a Treasurer money, not events; an Events
// member events and tickets, not money. Test events are left out of every count.

const dayMs = 24 * 60 * 60_000;

/** Tickets sold and gifts given in a stretch of time, as paid (refunds made later are not taken off). */
export interface Takings {
  /** Paid bookings, and the tickets in them. */
  bookings: number;
  tickets: number;
  /** What the bookings paid, booking fees included; null for a member who may not see money. */
  ticketPence: number | null;
  /** Paid donations and their sum; null for a member who may not see money. */
  gifts: number | null;
  giftPence: number | null;
}

export interface TakingsPeriod {
  /** "Today", "This week", "The same week last year". */
  label: string;
  /** What it covers, in words: "Monday 23 November to now". */
  span: string;
  takings: Takings;
}

export interface SinceLastVisit {
  /** False on a member's first sign-in: the figures are then for the last 7 days. */
  returning: boolean;
  /** "Tuesday 24 November at 18:02", or when the last 7 days began. */
  since: string;
  /** New paid bookings and their tickets (who may see bookings). */
  bookings: { count: number; tickets: number } | null;
  /** Volunteer sign-ups (who may see people's data). */
  signUps: number | null;
  /** Gifts and their sum (who may see money). */
  gifts: { count: number; pence: number } | null;
}

/** An event from today on, with its seats and how its sale is going. */
export interface HomeEvent {
  id: string;
  name: string;
  eventDate: string;
  onlineSales: boolean;
  total: number;
  sold: number;
  held: number;
  left: number;
  /** Tickets in bookings paid in the last 7 days. */
  soldLastWeek: number;
  today: boolean;
  isTest: boolean;
  cancelled: boolean;
  /**
   * How its sale is going, for an event on sale online (not cancelled, not a test, sale not over):
   * `sold-out`; `fast`, more than half its tickets sold; `stalled`, no ticket sold in the last 7 days.
   */
  sale: "sold-out" | "fast" | "stalled" | null;
}

export interface StaffHome {
  periods: TakingsPeriod[] | null;
  sinceLastVisit: SinceLastVisit | null;
  /** Invitations to join the staff not yet used nor expired (who may manage staff). */
  invitationsWaiting: number | null;
  /** Events from today on, soonest first (who may see events). */
  events: HomeEvent[] | null;
}

/** Today, this week (from Monday, London time) and the same stretch of the same week a year before. */
export function homePeriods(now: Date) {
  const today = londonDay(now);
  const monday = londonMonday(now);
  const weekStart = londonMidnight(monday);
  // The Monday 52 weeks before: the same week of last year, on the same days of the week.
  const lastYearMonday = shiftDay(monday, -364);
  const lastYearStart = londonMidnight(lastYearMonday);
  // As far into that week as this one has gone, so the two compare like with like.
  const lastYearTo = new Date(lastYearStart.getTime() + (now.getTime() - weekStart.getTime()));
  return {
    today: { from: londonMidnight(today), to: now },
    week: { from: weekStart, to: now, monday },
    lastYear: { from: lastYearStart, to: lastYearTo, monday: lastYearMonday },
  };
}

/** Bookings paid in [from, to), for events that are not tests. */
function paidBookingsWithin(from: Date, to: Date) {
  return and(isNotNull(bookings.paidAt), gte(bookings.paidAt, from), lt(bookings.paidAt, to), eq(events.isTest, false));
}

async function takingsBetween(db: Queryable, from: Date, to: Date): Promise<Takings> {
  const [[booked], [given]] = await Promise.all([
    db
      .select({
        bookings: count(),
        tickets: sql<number>`coalesce(${sum(bookings.quantity)}, 0)`.mapWith(Number),
        pence: sql<number>`coalesce(${sum(bookings.amountPence)}, 0)`.mapWith(Number),
      })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(paidBookingsWithin(from, to)),
    db
      .select({ gifts: count(), pence: sql<number>`coalesce(${sum(donations.amountPence)}, 0)`.mapWith(Number) })
      .from(donations)
      .where(and(isNotNull(donations.paidAt), gte(donations.paidAt, from), lt(donations.paidAt, to))),
  ]);
  return {
    bookings: booked?.bookings ?? 0,
    tickets: booked?.tickets ?? 0,
    ticketPence: booked?.pence ?? 0,
    gifts: given?.gifts ?? 0,
    giftPence: given?.pence ?? 0,
  };
}

/** When the first booking or gift was paid: a year ago is worth comparing only if the site took money then. */
async function firstPaidAt(db: Queryable): Promise<Date | null> {
  const [[booked], [given]] = await Promise.all([
    db
      .select({ at: min(bookings.paidAt) })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(eq(events.isTest, false)),
    db.select({ at: min(donations.paidAt) }).from(donations),
  ]);
  const times = [booked?.at, given?.at].filter((at): at is Date => at instanceof Date);
  return times.length ? new Date(Math.min(...times.map((at) => at.getTime()))) : null;
}

/**
 * Today's, this week's and (where the site took money by then) the same week last year's tickets
 * and gifts.
 */
export async function takingsPeriods({ db }: { db: Queryable }, now: Date): Promise<TakingsPeriod[]> {
  const { today, week, lastYear } = homePeriods(now);
  const [todays, weeks, first] = await Promise.all([
    takingsBetween(db, today.from, today.to),
    takingsBetween(db, week.from, week.to),
    firstPaidAt(db),
  ]);
  const periods: TakingsPeriod[] = [
    { label: "Today", span: `${londonWeekdayDate(now, now)}, to now`, takings: todays },
    { label: "This week", span: `${londonWeekdayDate(week.from, now)} to now`, takings: weeks },
  ];
  if (first && first < lastYear.to) {
    periods.push({
      label: "The same week last year",
      span: `${londonWeekdayDate(lastYear.from, now)} to ${londonWeekdayDateTime(lastYear.to, now)}`,
      takings: await takingsBetween(db, lastYear.from, lastYear.to),
    });
  }
  return periods;
}

/** What came in since the member's sign-in before this one; on a first sign-in, in the last 7 days. */
export async function sinceLastVisit(
  { db }: { db: Queryable },
  staff: { id: string },
  now: Date,
): Promise<{
  returning: boolean;
  since: Date;
  bookings: number;
  tickets: number;
  signUps: number;
  gifts: number;
  giftPence: number;
}> {
  const [member] = await db
    .select({ previous: staffUsers.previousSignInAt })
    .from(staffUsers)
    .where(eq(staffUsers.id, staff.id));
  const previous = member?.previous ?? null;
  const since = previous ?? new Date(now.getTime() - 7 * dayMs);
  const [[booked], [signedUp], [given]] = await Promise.all([
    db
      .select({ bookings: count(), tickets: sql<number>`coalesce(${sum(bookings.quantity)}, 0)`.mapWith(Number) })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(paidBookingsWithin(since, now)),
    db
      .select({ n: count() })
      .from(volunteers)
      .where(and(gte(volunteers.createdAt, since), lt(volunteers.createdAt, now))),
    db
      .select({ gifts: count(), pence: sql<number>`coalesce(${sum(donations.amountPence)}, 0)`.mapWith(Number) })
      .from(donations)
      .where(and(isNotNull(donations.paidAt), gte(donations.paidAt, since), lt(donations.paidAt, now))),
  ]);
  return {
    returning: previous !== null,
    since,
    bookings: booked?.bookings ?? 0,
    tickets: booked?.tickets ?? 0,
    signUps: signedUp?.n ?? 0,
    gifts: given?.gifts ?? 0,
    giftPence: given?.pence ?? 0,
  };
}

/** Invitations to join the staff that can still be used (password resets are not counted). */
export async function invitationsWaiting({ db }: { db: Queryable }, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staffInvitations)
    .where(
      and(
        eq(staffInvitations.purpose, "invitation"),
        isNull(staffInvitations.usedAt),
        gt(staffInvitations.expiresAt, now),
      ),
    );
  return row?.n ?? 0;
}

/** Events from the start of today (London) on, soonest first, with their seats and how their sale goes. */
export async function homeEvents({ db }: { db: Queryable }, now: Date): Promise<HomeEvent[]> {
  const today = londonDay(now);
  const weekAgo = new Date(now.getTime() - 7 * dayMs);
  const [rows, seats, recent] = await Promise.all([
    db
      .select()
      .from(events)
      .where(gte(events.eventDate, londonMidnight(today)))
      .orderBy(asc(events.eventDate), asc(events.name)),
    seatsByEvent(db, now),
    db
      .select({
        eventId: bookings.eventId,
        tickets: sql<number>`coalesce(${sum(bookings.quantity)}, 0)`.mapWith(Number),
      })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(paidBookingsWithin(weekAgo, now))
      .groupBy(bookings.eventId),
  ]);
  const soldLastWeek = new Map(recent.map((row) => [row.eventId, row.tickets]));
  return rows.map((event) => {
    const { total, sold, held } = seats[event.id] ?? { total: event.totalAvailableTickets, sold: 0, held: 0 };
    const onlineSales = event.ticketCostPence !== null;
    const onSale = onlineSales && !event.cancelledAt && !event.isTest && event.ticketSaleExpiry > now && total > 0;
    const lastWeek = soldLastWeek.get(event.id) ?? 0;
    const sale = !onSale
      ? null
      : sold >= total
        ? "sold-out"
        : sold * 2 > total
          ? "fast"
          : lastWeek === 0
            ? "stalled"
            : null;
    return {
      id: event.id,
      name: event.name,
      eventDate: event.eventDate.toISOString(),
      onlineSales,
      total,
      sold,
      held,
      left: Math.max(0, total - sold - held),
      soldLastWeek: lastWeek,
      today: londonDay(event.eventDate) === today,
      isTest: event.isTest,
      cancelled: event.cancelledAt !== null,
      sale,
    };
  });
}

/** The staff home's figures this member may see (nothing is read that they may not). */
export async function staffHome(
  services: { db: Queryable },
  staff: { id: string; role: StaffRole },
  now: Date,
): Promise<StaffHome> {
  const money = can(staff.role, "money");
  const tickets = can(staff.role, "bookings") || can(staff.role, "events");
  const [periods, since, invitations, upcoming] = await Promise.all([
    tickets || money ? takingsPeriods(services, now) : null,
    can(staff.role, "bookings") || can(staff.role, "people") || money ? sinceLastVisit(services, staff, now) : null,
    can(staff.role, "site") ? invitationsWaiting(services, now) : null,
    can(staff.role, "events") ? homeEvents(services, now) : null,
  ]);
  return {
    periods:
      periods?.map((period) => ({
        ...period,
        takings: {
          ...period.takings,
          ...(money ? {} : { ticketPence: null, gifts: null, giftPence: null }),
        },
      })) ?? null,
    sinceLastVisit: since && {
      returning: since.returning,
      since: londonWeekdayDateTime(since.since, now),
      bookings: can(staff.role, "bookings") ? { count: since.bookings, tickets: since.tickets } : null,
      signUps: can(staff.role, "people") ? since.signUps : null,
      gifts: money ? { count: since.gifts, pence: since.giftPence } : null,
    },
    invitationsWaiting: invitations,
    events: upcoming,
  };
}
