import { slugOf } from "./slug";
import { createEvent, type EventAttributes } from "ics";

// Calendar files (.ics): the booking receipt attaches one, an event's page offers one. One way to
// make them, with the `ics` library: times in UTC (calendar apps show them in the reader's zone).

export interface CalendarEntry {
  /** Stays the same for the same thing, so a calendar that imports it again updates its entry. */
  uid: string;
  title: string;
  start: Date;
  /** How long it lasts, in hours (3 unless said). */
  hours?: number;
  location?: string;
  description?: string;
  /** The page about it, as an absolute address. */
  url?: string;
  organizer?: { name: string; email: string };
  /** A cancelled event: the entry says so (and replaces the one imported before). */
  cancelled?: boolean;
  /** When the file was made (its DTSTAMP), from the site's clock; the library's own time without it. */
  madeAt?: Date;
}

/** The calendar file's text, or undefined (with the reason logged) if the entry cannot be written. */
export function calendarFile(entry: CalendarEntry): string | undefined {
  const attributes: EventAttributes & { timestamp?: number } = {
    uid: entry.uid,
    title: entry.cancelled ? `Cancelled: ${entry.title}` : entry.title,
    start: entry.start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { hours: entry.hours ?? 3 },
    location: entry.location || undefined,
    description: entry.description || undefined,
    url: entry.url,
    organizer: entry.organizer,
    productId: "kilele-trust/website",
    status: entry.cancelled ? "CANCELLED" : "CONFIRMED",
    // A later version of the same entry: calendars replace the one they have.
    sequence: entry.cancelled ? 1 : 0,
    ...(entry.madeAt ? { timestamp: entry.madeAt.getTime() } : {}),
  };
  const { error, value } = createEvent(attributes);
  if (error) console.error("Could not make the calendar file:", error.message);
  return value ?? undefined;
}

/** A file name made of a title: "Kilele Quiz Night" → "kilele-quiz-night.ics". */
export function calendarFileName(title: string): string {
  return `${slugOf(title, "event")}.ics`;
}
