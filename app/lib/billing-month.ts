import { fromLondonInput, londonDay } from "./london-time";

// A regular gift's months (decision 089): each payment belongs to one London calendar month, and a
// month is paid once. The first payment is taken the day the donor gives, for that month; the later
// ones at noon, London time, on the donor's day of each following month.

/** The London calendar month of a moment, as YYYY-MM. */
export function billingMonthOf(moment: Date): string {
  return londonDay(moment).slice(0, 7);
}

/** The month after a YYYY-MM month. */
export function monthAfter(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, "0")}`;
}

/** Noon in London on `day` (1 to 28) of a YYYY-MM month: when that month's payment is taken. */
export function monthlyPaymentDate(month: string, day: number): Date {
  const moment = fromLondonInput(`${month}-${String(day).padStart(2, "0")}T12:00`);
  if (!moment) throw new Error(`No such day: ${month}-${day}.`);
  return new Date(moment);
}

/** When the second payment of a gift started at `start` is taken: the donor's day of the next month. */
export function firstMonthlyPaymentAfter(start: Date, day: number): Date {
  return monthlyPaymentDate(monthAfter(billingMonthOf(start)), day);
}

const monthNames = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** "December 2026" for "2026-12": a month as donors and staff read it. */
export function monthInWords(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return monthNames.format(new Date(Date.UTC(year, number - 1, 1)));
}

/** Midnight in London at the start of `day` of a YYYY-MM month: where a pause before that day's payment ends. */
export function startOfPaymentDay(month: string, day: number): Date {
  const moment = fromLondonInput(`${month}-${String(day).padStart(2, "0")}T00:00`);
  if (!moment) throw new Error(`No such day: ${month}-${day}.`);
  return new Date(moment);
}

/**
 * When a gift's next payment is taken (decision 090): on the donor's day of the first month not
 * yet paid whose payment is still ahead, and not before a pause ends. So no month is paid twice,
 * and a month is skipped only when its day has passed unpaid (the donor is told).
 */
export function nextPaymentDate(gift: {
  dayOfMonth: number;
  /** The latest month paid (YYYY-MM), if any. */
  lastPaidMonth: string | null;
  pausedUntil: Date | null;
  now: Date;
}): Date {
  let month = billingMonthOf(gift.now);
  if (gift.lastPaidMonth && gift.lastPaidMonth >= month) month = monthAfter(gift.lastPaidMonth);
  for (;;) {
    const date = monthlyPaymentDate(month, gift.dayOfMonth);
    if (date > gift.now && (!gift.pausedUntil || date >= gift.pausedUntil)) return date;
    month = monthAfter(month);
  }
}

/** The months from `first` to `last` (YYYY-MM), both included. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = monthAfter(month)) months.push(month);
  return months;
}
