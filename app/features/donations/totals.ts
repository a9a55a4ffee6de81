import { londonDay } from "~/lib/london-time";
import { giftAidPence } from "./amount";

// Totals per London calendar month, for the donations page.

export interface MonthTotal {
  /** YYYY-MM, the London month. */
  month: string;
  /** "November 2026". */
  label: string;
  count: number;
  totalPence: number;
  /** What Gift Aid can add to the donations covered by a declaration (25p in the pound). */
  giftAidPence: number;
}

const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * The donations given per London month, newest month first: only what was paid and not given back
 * counts, and Gift Aid only where a declaration covers the donation.
 */
export function monthlyTotals(
  rows: readonly { status: string; paidAt: string | null; amountPence: number; giftAid: boolean }[],
): MonthTotal[] {
  const months = new Map<string, MonthTotal>();
  for (const row of rows) {
    if (row.status !== "paid" || !row.paidAt) continue;
    const month = londonDay(row.paidAt).slice(0, 7);
    const [year, number] = month.split("-");
    const total = months.get(month) ?? {
      month,
      label: `${monthNames[Number(number) - 1]} ${year}`,
      count: 0,
      totalPence: 0,
      giftAidPence: 0,
    };
    total.count += 1;
    total.totalPence += row.amountPence;
    if (row.giftAid) total.giftAidPence += giftAidPence(row.amountPence);
    months.set(month, total);
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}
