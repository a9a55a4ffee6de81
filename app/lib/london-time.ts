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
