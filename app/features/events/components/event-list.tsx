import { useId } from "react";
import type { Availability, EventView } from "../schema";
import { EventCard } from "./event-card";

interface EventListProps {
  title: string;
  events: EventView[];
  availability: Record<string, Availability>;
  current: boolean;
  /** What to say when there are none; without it an empty list is not shown at all. */
  emptyText?: string;
  id?: string;
}

export function EventList({ title, events, availability, current, emptyText, id }: EventListProps) {
  const headingId = useId();
  if (events.length === 0 && !emptyText) return null;
  return (
    <section id={id} className="section events" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {events.length === 0 ? (
        <p className="events-empty">{emptyText}</p>
      ) : (
        <ul className="event-grid">
          {events.map((event) => (
            <li key={event.id}>
              <EventCard event={event} availability={availability[event.id]} current={current} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
