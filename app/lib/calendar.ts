import { slugOf } from "./slug";

// Calendar files (.ics, RFC 5545): the booking receipt attaches one, an event's page offers one.
// One way to make them: one event, times in UTC (calendar apps show them in the reader's zone).
// Written here rather than with a library: the file is a dozen lines, and the `ics` package's
// checking of its input cost a millisecond of every paid order (decision 088).

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
  /** When the file was made (its DTSTAMP), from the site's clock. */
  madeAt: Date;
}

/** The calendar file's text, or undefined (with the reason logged) if the entry cannot be written. */
export function calendarFile(entry: CalendarEntry): string | undefined {
  if (Number.isNaN(entry.start.getTime()) || Number.isNaN(entry.madeAt.getTime())) {
    console.error(`Could not make the calendar file: ${entry.uid} has no valid time.`);
    return undefined;
  }
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "PRODID:kilele-trust/website",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${text(entry.uid)}`,
    `SUMMARY:${text(entry.cancelled ? `Cancelled: ${entry.title}` : entry.title)}`,
    `DTSTAMP:${utc(entry.madeAt)}`,
    `DTSTART:${utc(entry.start)}`,
    // A later version of the same entry: calendars replace the one they have.
    `SEQUENCE:${entry.cancelled ? 1 : 0}`,
    ...(entry.description ? [`DESCRIPTION:${text(entry.description)}`] : []),
    ...(entry.url ? [`URL:${entry.url}`] : []),
    ...(entry.location ? [`LOCATION:${text(entry.location)}`] : []),
    `STATUS:${entry.cancelled ? "CANCELLED" : "CONFIRMED"}`,
    ...(entry.organizer
      ? [`ORGANIZER;CN="${entry.organizer.name.replace(/["\r\n]/g, "")}":MAILTO:${entry.organizer.email}`]
      : []),
    `DURATION:PT${entry.hours ?? 3}H`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(folded).join("\r\n") + "\r\n";
}

/** A time as the file writes it in UTC: 20261205T190000Z. */
function utc(time: Date): string {
  return time
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** A TEXT value: backslashes, semicolons, commas and line ends escaped. */
function text(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");
}

/** A line of more than 75 bytes folded (a line end and a space), never inside a character. */
function folded(line: string): string {
  if (utf8Length(line) <= 75) return line;
  const parts: string[] = [];
  let part = "";
  let bytes = 0;
  for (const char of line) {
    const size = utf8Length(char);
    // The first line holds 75 bytes; each one after it a space and 74.
    if (bytes + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(part);
      part = "";
      bytes = 0;
    }
    part += char;
    bytes += size;
  }
  parts.push(part);
  return parts.join("\r\n ");
}

/** A file name made of a title: "Kilele Quiz Night" → "kilele-quiz-night.ics". */
export function calendarFileName(title: string): string {
  return `${slugOf(title, "event")}.ics`;
}

/** How many bytes UTF-8 takes for these characters. */
function utf8Length(value: string): number {
  let bytes = 0;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
