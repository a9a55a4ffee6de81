// Dates and times as the charity's visitors read them: always UK time (GMT or BST), whatever the
// time zone of the server or the browser.
const zone = "Europe/London";

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}

/** DD/MM/YYYY in London. */
export function londonDate(value: Date | string): string {
  return dateFormat.format(toDate(value));
}

/** HH:MM (24-hour) in London. */
export function londonTime(value: Date | string): string {
  return timeFormat.format(toDate(value));
}

const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: zone,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The London calendar day, as YYYY-MM-DD, for comparing days ("today's events"). */
export function londonDay(value: Date | string): string {
  return dayFormat.format(toDate(value));
}

const partsFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** A moment as a date-time input's value in London ("2026-12-05T19:00"). */
export function londonInputValue(value: Date | string): string {
  const parts = Object.fromEntries(partsFormat.formatToParts(toDate(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * A date-time input's value, read as London time, as the moment it means (ISO 8601, UTC); undefined
 * when it is not a date-time. In the hour the clocks go back, the first of the two is taken.
 */
export function fromLondonInput(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  // London is UTC or UTC+1: try the earlier reading first, keep the one that reads back the same.
  for (const offsetHours of [1, 0]) {
    const moment = new Date(asUtc - offsetHours * 3_600_000);
    if (londonInputValue(moment) === value.trim()) return moment.toISOString();
  }
  return undefined;
}

const dayWordsFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "Thursday 26 November 2026" in London: a day as staff read it. */
export function londonDayWords(value: Date | string): string {
  // en-GB writes "Thursday, 26 November 2026" in some versions of ICU and "Thursday 26 November 2026" in others.
  return dayWordsFormat.format(toDate(value)).replace(",", "");
}

/** "Thursday 26 November 2026 at 17:37" in London: a moment as staff read it. */
export function londonWhen(value: Date | string): string {
  return `${londonDayWords(value)} at ${londonTime(value)}`;
}

const shortDayFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
});

/** "Fri 27 Nov 2026, 12:12" in London: a moment in a staff table or list, short, with its weekday. */
export function londonStamp(value: Date | string): string {
  return `${shortDayFormat.format(toDate(value)).replace(/,/g, "")}, ${londonTime(value)}`;
}
