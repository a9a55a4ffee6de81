import { calendarFile, calendarFileName } from "~/lib/calendar";
import type { EventView } from "./schema";

// An event's "Add to calendar" file (/fundraising-event/<id>/calendar.ics). The same entry each
// time for the same event, so importing it again updates it, and says when the event is cancelled.
// A test event is not real, so it has none.

export interface EventCalendar {
  fileName: string;
  text: string;
}

export function eventCalendar(
  event: EventView,
  { origin, charity, now }: { origin: string; charity: { name: string; email: string }; now: Date },
): EventCalendar | undefined {
  if (event.isTest) return undefined;
  const url = `${origin}/fundraising-event/${event.id}`;
  const text = calendarFile({
    uid: `event-${event.id}@kilele-trust`,
    title: event.name,
    start: new Date(event.eventDate),
    location: event.location,
    description: `${event.description}\n\n${event.cancelledAt ? "This event is cancelled." : `Details and tickets: ${url}`}`,
    url,
    organizer: charity,
    cancelled: Boolean(event.cancelledAt),
    madeAt: now,
  });
  return text ? { fileName: calendarFileName(event.name), text } : undefined;
}
