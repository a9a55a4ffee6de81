import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { billingMonthOf, monthInWords, monthsBetween } from "~/lib/billing-month";
import { fromLondonInput } from "~/lib/london-time";
import { bookings, donations, events } from "~db/schema";
import { giftAidPence } from "./amount";
import type { Income, IncomeFigures, IncomeMonth } from "./income";
import { donationsReadyToClaim, type ClaimDonation } from "./gift-aid-claims.server";

// The income chart of the staff home (decision 094): what came in over the last 12 London months,
// the current one to date, by the month it was paid. The same sums as the site's other staff
// figures, net of refunds:
// - tickets: paid bookings' money less what was given back (the events list's "Taken", salesByEvent),
//   booking fees included, test events left out;
// - one-off gifts: paid donations never refunded that are not a monthly gift's payment (a gift added
//   at checkout is one), as /admin/donations totals them;
// - monthly gifts: the same, for the months' payments of a monthly gift;
// - Gift Aid claimed: 25p in the pound on the donations in a claim already made, as the claims page
//   totals it; waiting: on the donations the Gift Aid page lists as ready to claim (its one rule,
//   donationsReadyToClaim).

/** The 12 London months that end with the one `now` is in, oldest first (YYYY-MM). */
export function lastTwelveMonths(now: Date): string[] {
  const current = billingMonthOf(now);
  const [year, month] = current.split("-").map(Number) as [number, number];
  const first = month === 12 ? `${year}-01` : `${year - 1}-${String(month + 1).padStart(2, "0")}`;
  return monthsBetween(first, current);
}

/** The moment a London month (YYYY-MM) begins. */
function monthStart(month: string): Date {
  return new Date(fromLondonInput(`${month}-01T00:00`)!);
}

const shortMonth = (month: string) => monthInWords(month).slice(0, 3);

/**
 * The income per month of the last 12 London months, up to `now`. `readyToClaim`: the donations
 * ready to claim, when the caller has read them already (the staff home shows them too).
 */
export async function incomeByMonth(
  { db }: { db: Queryable },
  now: Date,
  readyToClaim?: Promise<ClaimDonation[]>,
): Promise<Income> {
  const months = lastTwelveMonths(now);
  const from = monthStart(months[0]!);
  const within = (column: typeof bookings.paidAt | typeof donations.paidAt) =>
    and(isNotNull(column), gte(column, from), lt(column, now));
  const [ticketRows, giftRows, ready] = await Promise.all([
    db
      .select({ paidAt: bookings.paidAt, pence: sql<number>`${bookings.amountPence} - ${bookings.refundedPence}` })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(and(eq(bookings.status, "paid"), eq(events.isTest, false), within(bookings.paidAt))),
    db
      .select({
        paidAt: donations.paidAt,
        amountPence: donations.amountPence,
        status: donations.status,
        refundedAt: donations.refundedAt,
        monthly: sql<boolean>`${donations.regularGiftId} is not null`,
        claimed: sql<boolean>`${donations.giftAidClaimId} is not null`,
      })
      .from(donations)
      .where(within(donations.paidAt)),
    readyToClaim ?? donationsReadyToClaim({ db }),
  ]);
  const rows = new Map<string, IncomeMonth>(
    months.map((month) => [
      month,
      {
        month,
        label: monthInWords(month),
        short: shortMonth(month),
        ticketPence: 0,
        oneOffPence: 0,
        monthlyPence: 0,
        giftAidClaimedPence: 0,
        giftAidWaitingPence: 0,
      },
    ]),
  );
  const monthOf = (at: Date | string | null) => (at ? rows.get(billingMonthOf(new Date(at))) : undefined);
  for (const row of ticketRows) {
    const month = monthOf(row.paidAt);
    if (month) month.ticketPence += Number(row.pence);
  }
  for (const row of giftRows) {
    const month = monthOf(row.paidAt);
    if (!month) continue;
    // Claimed Gift Aid is what was claimed, as the claims page counts it, even if the gift was given back since.
    if (row.claimed) month.giftAidClaimedPence += giftAidPence(row.amountPence);
    if (row.status !== "paid" || row.refundedAt) continue;
    if (row.monthly) month.monthlyPence += row.amountPence;
    else month.oneOffPence += row.amountPence;
  }
  for (const row of ready) {
    const month = new Date(row.paidAt) < now ? monthOf(row.paidAt) : undefined;
    if (month) month.giftAidWaitingPence += row.giftAidPence;
  }
  const list = [...rows.values()];
  const total = (key: keyof IncomeFigures) => list.reduce((sum, month) => sum + month[key], 0);
  const totals = {
    ticketPence: total("ticketPence"),
    oneOffPence: total("oneOffPence"),
    monthlyPence: total("monthlyPence"),
    giftAidClaimedPence: total("giftAidClaimedPence"),
    giftAidWaitingPence: total("giftAidWaitingPence"),
  };
  return {
    months: list,
    has: {
      tickets: totals.ticketPence > 0,
      oneOff: totals.oneOffPence > 0,
      monthly: totals.monthlyPence > 0,
      giftAid: totals.giftAidClaimedPence + totals.giftAidWaitingPence > 0,
    },
    totals,
  };
}
