import { and, eq, sql, sum, type SQL } from "drizzle-orm";
import { z } from "zod";
import { saveSiteSetting } from "~/infra/db/site-settings.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { selectBuiltOnce, slot } from "~/infra/db/built-once.server";
import { countedHolds, holdMayEnd, holdTimeSlots, holdTimeValues } from "~/infra/db/seats.server";
import { AppError } from "~/lib/errors";
import { londonTime } from "~/lib/london-time";
import { bookings, siteSettings } from "~db/schema";

// How many seats one visitor may hold at once in checkouts not yet paid, across all events
// (decision 026): per e-mail address and per network address (its keyed hash). A setting on the
// Settings page, audited; until staff change it, the defaults below.

export const holdLimitsKey = "seat-hold-limits";

/** The most a limit may be set to, and the least. */
export const holdLimitRange = { min: 1, max: 1000 } as const;

const limit = z.coerce
  .number({ error: "Enter a whole number." })
  .int("Enter a whole number.")
  .min(holdLimitRange.min, `Enter a number from ${holdLimitRange.min} to ${holdLimitRange.max}.`)
  .max(holdLimitRange.max, `Enter a number from ${holdLimitRange.min} to ${holdLimitRange.max}.`);

export const holdLimitsSchema = z.object({ perEmail: limit, perAddress: limit });
export type HoldLimits = z.infer<typeof holdLimitsSchema>;

/**
 * One e-mail may hold one booking's worth (29 tickets, the most one booking can have) or 29 seats
 * in several; one address 40 seats, so two large bookings cannot together take a small event, while
 * a family or a class behind a school's or a mobile network's shared address can still be paying
 * for several bookings at once.
 */
export const defaultHoldLimits: HoldLimits = { perEmail: 29, perAddress: 40 };

export async function holdLimits({ db }: { db: Queryable }): Promise<HoldLimits> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.key, holdLimitsKey));
  const stored = holdLimitsSchema.safeParse(row?.value);
  return stored.success ? stored.data : defaultHoldLimits;
}

/** Saves the Settings page's limits, audited; a bad number changes nothing. */
export async function saveHoldLimits(
  { db }: { db: Database },
  staff: { id: string; email: string },
  input: { perEmail: string; perAddress: string },
  { now }: { now: Date },
): Promise<HoldLimits> {
  const parsed = holdLimitsSchema.safeParse({
    perEmail: input.perEmail.trim() || undefined,
    perAddress: input.perAddress.trim() || undefined,
  });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      fields[String(issue.path[0])] ??= issue.code === "invalid_type" ? "Enter a whole number." : issue.message;
    }
    throw new AppError("invalid", "Check the seat limits.", { fields });
  }
  const value = parsed.data;
  return db.transaction(async (tx) => {
    await saveSiteSetting(tx, {
      key: holdLimitsKey,
      value,
      staff,
      summary: `Seats one visitor may hold while paying: ${value.perEmail} per e-mail, ${value.perAddress} per address`,
      now,
    });
    return value;
  });
}

const seatsWord = (n: number) => `${n} ${n === 1 ? "seat" : "seats"}`;
/** "after 14:07": the time rounded up to the minute, so "after" is true. */
const after = (at: Date) => londonTime(new Date(Math.ceil(at.getTime() / 60_000) * 60_000));

/** The seats the event counts as this visitor's (settling holds too, decision 030), and when the first may stop counting. */
function heldBy(who: SQL) {
  const counted = and(who, countedHolds(holdTimeSlots));
  return {
    seats: sql<number>`coalesce((select ${sum(bookings.seats)} from ${bookings} where ${counted}), 0)::int`.mapWith(
      Number,
    ),
    until: sql<Date | null>`(select min(${holdMayEnd(holdTimeSlots)}) from ${bookings} where ${counted})`.mapWith(
      bookings.holdExpiresAt,
    ),
  };
}

/**
 * The limits, and the seats an e-mail address and a network address hold with when the first of
 * their holds may end, in one statement built once (decision 099). A visitor whose address is
 * unknown (a null key) holds nothing by address: `client_key = null` is never true.
 */
const visitorHoldsReading = selectBuiltOnce((db: Queryable) => {
  const byEmail = heldBy(sql`lower(${bookings.email}) = ${slot("email")}`);
  const byAddress = heldBy(eq(bookings.clientKey, slot("clientKey")));
  return db
    .select({
      limits: sql<unknown>`(select ${siteSettings.value} from ${siteSettings} where ${eq(siteSettings.key, holdLimitsKey)})`,
      emailSeats: byEmail.seats,
      emailUntil: byEmail.until,
      addressSeats: byAddress.seats,
      addressUntil: byAddress.until,
    })
    .from(sql`(select 1) as one`);
});

/** What a visitor holds in checkouts not yet paid, read under their locks, and the limits it is held to. */
export interface VisitorHolds {
  /**
   * Refuses a hold of `tickets` taking `seats` when the visitor's e-mail, or their address, would
   * then hold more seats than the limits allow (a 429 with what they hold and when it may end). A
   * visitor who holds nothing may always hold one booking of no more tickets than the limit,
   * whatever seats they take: a host's four tables of eight are one booking of four tickets.
   */
  check(tickets: number, seats: number): void;
}

/**
 * Locks the visitor's holds and reads them, inside the transaction that holds the seats: two
 * checkouts by the same visitor are counted one after the other (a lock per e-mail and per address,
 * kept until the transaction ends), so together they cannot pass the limits. Holds together are
 * counted in seats (decision 098): a table of eight holds eight, as the Settings page says. The
 * returned check is made once the seats asked for are known, under the event's lock.
 */
export async function lockVisitorHolds(
  tx: Queryable,
  visitor: { email: string; clientKey: string | null },
  now: Date,
): Promise<VisitorHolds> {
  const email = visitor.email.toLowerCase();
  // Always in the same order (address, then e-mail), so two checkouts never wait on each other;
  // one statement, whose locks are taken in the order they are written.
  await tx.execute(
    visitor.clientKey
      ? sql`select pg_advisory_xact_lock(hashtext(${`hold:${visitor.clientKey}`})), pg_advisory_xact_lock(hashtext(${`hold:${email}`}))`
      : sql`select pg_advisory_xact_lock(hashtext(${`hold:${email}`}))`,
  );
  // The limits and what the e-mail and the address hold, in one query.
  const [row] = await visitorHoldsReading(tx, { email, clientKey: visitor.clientKey, ...holdTimeValues(now) });
  const stored = holdLimitsSchema.safeParse(row?.limits);
  const limits = stored.success ? stored.data : defaultHoldLimits;

  const tooMany = (held: { seats: number; until: Date | null }, max: number, whose: "email" | "address") => {
    if (held.seats === 0 || !held.until) {
      // Holding nothing, the booking's tickets passed the limit.
      const message = `You can hold at most ${max} ${max === 1 ? "ticket" : "tickets"} at once while paying. Choose fewer.`;
      return new AppError("too-many-requests", message, { fields: { quantity: message } });
    }
    const waiting =
      whose === "email"
        ? `You already have ${seatsWord(held.seats)} waiting for payment.`
        : `${seatsWord(held.seats)} from your internet connection ${held.seats === 1 ? "is" : "are"} already waiting for payment.`;
    return new AppError(
      "too-many-requests",
      `${waiting} Finish or cancel that checkout first, or try again after ${after(held.until)}.`,
    );
  };
  const byEmailNow = { seats: row?.emailSeats ?? 0, until: row?.emailUntil ?? null };
  const address = visitor.clientKey ? { seats: row?.addressSeats ?? 0, until: row?.addressUntil ?? null } : null;
  return {
    check(tickets: number, seats: number) {
      const passes = (held: { seats: number }, max: number) =>
        held.seats === 0 ? tickets > max : held.seats + seats > max;
      if (passes(byEmailNow, limits.perEmail)) throw tooMany(byEmailNow, limits.perEmail, "email");
      if (address && passes(address, limits.perAddress)) throw tooMany(address, limits.perAddress, "address");
    },
  };
}
