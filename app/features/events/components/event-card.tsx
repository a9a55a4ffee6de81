import { Link } from "react-router";
import { Picture } from "~/components/ui/picture";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { typeLabel } from "~/lib/ticket-types";
import type { Availability, EventView, TypeAvailability } from "../schema";
import { onSaleFromMessage, reservedNotice, typeWords } from "../status";

function eventPosterImage(event: Pick<EventView, "posterImage" | "name">) {
  return { src: event.posterImage, alt: `Poster for ${event.name}` };
}

interface EventPosterProps {
  event: Pick<EventView, "posterImage" | "name">;
  sizes: string;
  width: number;
  height: number;
  className: string;
  priority?: boolean;
  /** A poster chosen on the staff form and not yet saved (an object URL), shown in its place. */
  localUrl?: string;
}

/**
 * The event's poster, or for an event without one a plain panel in the site's colours: decoration
 * only (the event's name is right beside it), never an image that could break.
 */
export function EventPoster({ event, className, localUrl, ...picture }: EventPosterProps) {
  if (localUrl) {
    return (
      <picture className={className}>
        <img src={localUrl} alt={`Poster for ${event.name}`} width={picture.width} height={picture.height} />
      </picture>
    );
  }
  if (!event.posterImage) {
    return (
      <div className={`${className} poster-placeholder`} aria-hidden="true" data-testid="poster-placeholder">
        <span className="poster-placeholder-sun" />
        <span className="poster-placeholder-hills" />
      </div>
    );
  }
  return <Picture image={eventPosterImage(event)} className={className} {...picture} />;
}

/** Only a few places left: worth saying on the card. */
const fewLeft = 10;

interface EventCardProps {
  event: EventView;
  availability: Availability | undefined;
  /** Ticket sale still open (decided on the server, at request time). */
  current: boolean;
  headingLevel?: 2 | 3;
  /** The staff form's preview: the name is not a link, and Book cannot be pressed. */
  preview?: boolean;
  /** In the preview, a poster chosen and not yet saved (an object URL). */
  posterUrl?: string;
}

/**
 * An event in a list: poster, name, date, location, cost, and Book, Sold out, the reserved notice
 * or the external ticket link.
 */
export function EventCard({
  event,
  availability,
  current,
  headingLevel = 3,
  preview = false,
  posterUrl,
}: EventCardProps) {
  const Heading = `h${headingLevel}` as const;
  const soldOut = availability?.soldOut ?? false;
  const action = <EventAction event={event} availability={availability} current={current} soldOut={soldOut} />;
  return (
    <article className="event-card" data-event-id={event.id}>
      <EventPoster
        event={event}
        sizes="(min-width: 70rem) 22rem, (min-width: 40rem) 45vw, 100vw"
        width={480}
        height={300}
        className="event-card-image"
        localUrl={posterUrl}
      />
      <div className="event-card-body">
        <Heading>
          {preview ? (
            event.name
          ) : (
            <Link to={`/fundraising-event/${event.id}`} state={{ event }} prefetch="intent">
              {event.name}
            </Link>
          )}
        </Heading>
        <EventFacts event={event} types={availability?.types} />
        <p className="event-description">{event.description}</p>
        {preview ? (
          <div className="event-card-preview-action" inert>
            {action}
          </div>
        ) : (
          action
        )}
      </div>
    </article>
  );
}

/**
 * The event's date, place and price. Of an event sold by type, each type's name and price ("Adult
 * £12.50, Child £5.00"); otherwise the one price.
 */
export function EventFacts({
  event,
  withTime = false,
  types,
}: {
  event: EventView;
  withTime?: boolean;
  /** The event's types, from its availability, when it sells more than one. */
  types?: TypeAvailability[];
}) {
  return (
    <dl className="event-facts">
      <div>
        <dt>Date</dt>
        <dd>
          <time dateTime={event.eventDate}>{londonDate(event.eventDate)}</time>
          {withTime ? <> at {londonTime(event.eventDate)}</> : null}
        </dd>
      </div>
      {event.location ? (
        <div>
          <dt>Location</dt>
          <dd>{event.location}</dd>
        </div>
      ) : null}
      {event.ticketCostPence !== null && types && types.length > 1 ? (
        <div>
          <dt>Tickets</dt>
          <dd>{types.map((type) => typeLabel(type)).join(", ")}</dd>
        </div>
      ) : event.ticketCostPence !== null ? (
        <div>
          <dt>Ticket</dt>
          <dd>{formatPounds(event.ticketCostPence)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

export function EventAction({
  event,
  availability,
  current,
  soldOut,
}: {
  event: EventView;
  availability: Availability | undefined;
  current: boolean;
  soldOut: boolean;
}) {
  if (event.cancelledAt) return <p className="event-cancelled">Cancelled</p>;
  if (soldOut) return <p className="sold-out">Sold out</p>;
  if (!current) return null;
  if (event.ticketCostPence === null) {
    return event.link ? (
      <a className="button button-secondary" href={event.link} rel="noopener noreferrer">
        Get tickets<span className="visually-hidden"> for {event.name}</span> (external site)
      </a>
    ) : null;
  }
  // Every seat left is in someone's unfinished checkout: not sold out, but not bookable until then.
  const reserved = reservedNotice(availability);
  if (reserved) return <p className="reserved">{reserved}</p>;
  // Nothing on sale yet: when it will be.
  if (availability?.onSaleFrom) return <p className="reserved">{onSaleFromMessage(availability.onSaleFrom)}</p>;
  const types = availability?.types;
  return (
    <div className="event-action">
      <Link className="button" to={`/book-event/${event.id}`} state={{ event }}>
        Book tickets<span className="visually-hidden"> for {event.name}</span>
      </Link>
      {types ? (
        <TypeWords types={types} />
      ) : availability && availability.remaining <= fewLeft ? (
        <p className="few-left">
          Only {availability.remaining} {availability.remaining === 1 ? "ticket" : "tickets"} left
        </p>
      ) : null}
    </div>
  );
}

/** What is worth saying of an event's types: "Adult: sold out", "Child: 3 left"; nothing when all is well. */
function TypeWords({ types }: { types: TypeAvailability[] }) {
  const said = types.map((type) => ({ id: type.id, words: typeWords(type) })).filter((type) => type.words);
  if (said.length === 0) return null;
  return (
    <ul className="type-availability" aria-label="Tickets left">
      {said.map((type) => (
        <li key={type.id}>{type.words}</li>
      ))}
    </ul>
  );
}
