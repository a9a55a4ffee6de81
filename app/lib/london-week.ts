import { fromLondonInput, londonDay, londonTime } from "./london-time";

// Days and weeks as the charity counts them: London calendar days, weeks starting on Monday, whatever
// the server's time zone, across the clocks going forward and back.

/** The London day `days` after `day` (YYYY-MM-DD); negative goes back. */
export function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The moment a London day (YYYY-MM-DD) begins: midnight in London, GMT or BST. */
export function londonMidnight(day: string): Date {
  return new Date(fromLondonInput(`${day}T00:00`)!);
}

/** The Monday (YYYY-MM-DD) of the London week that holds `value`. */
export function londonMonday(value: Date | string): string {
  const day = londonDay(value);
  const sinceMonday = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
  return shiftDay(day, -sinceMonday);
}

const weekdayDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  weekday: "long",
  day: "numeric",
  month: "long",
});
const year = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric" });

/** "Tuesday 24 November", with the year when it is not `now`'s ("Tuesday 25 November 2025"). */
export function londonWeekdayDate(value: Date | string, now: Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const words = weekdayDate.format(date).replace(",", "");
  return year.format(date) === year.format(now) ? words : `${words} ${year.format(date)}`;
}

/** "Tuesday 24 November at 18:02" (the year added when it is not `now`'s). */
export function londonWeekdayDateTime(value: Date | string, now: Date): string {
  return `${londonWeekdayDate(value, now)} at ${londonTime(value)}`;
}
