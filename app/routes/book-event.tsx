import { Link, data } from "react-router";
import type { Route } from "./+types/book-event";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { BookingForm } from "~/features/booking/components/booking-form";
import { EventFacts } from "~/features/events/components/event-card";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { availabilityByEvent, findEvent } from "~/features/events/events.server";
import { bookingClosedReason } from "~/features/events/status";

export const loader = pageWork("The booking page", async ({ context, params }: Route.LoaderArgs) => {
  const { db, payments, clock } = context.services;
  const now = clock.now();
  const event = await findEvent(db, params.id);
  if (!event) throw data(null, { status: 404 });
  const availability = (await availabilityByEvent(db, now))[event.id]!;
  const closed = bookingClosedReason(event, availability, now);
  // Only the publishable key reaches the browser; the secret key never leaves the server.
  return {
    event,
    closed,
    /** The server's time when the page was made: the page judges the sale by the site's clock, not the phone's. */
    now: now.toISOString(),
    availability: { [event.id]: availability },
    provider: payments.name,
    publishableKey: payments.publishableKey,
  };
});

export const meta: Route.MetaFunction = ({ data }) =>
  data ? [{ title: `Book ${data.event.name}` }, { name: "robots", content: "noindex" }] : [];

export default function BookEvent({ loaderData }: Route.ComponentProps) {
  const { event, closed, provider, publishableKey, now } = loaderData;
  const live = useLiveAvailability(loaderData.availability);
  const availability = live.availability[event.id];
  const soldOutNow = availability?.soldOut ?? false;
  // The live counts can close the sale while the page is open.
  const reason = closed ?? (soldOutNow ? bookingClosedReason(event, availability, new Date(now)) : null);
  return (
    <main id="main" className="page">
      <h1>Book {event.name}</h1>
      <EventFacts event={event} withTime />
      {reason || event.ticketCostPence === null ? (
        <section className="section">
          <p className="notice" role="status">
            {reason}
          </p>
          <p>
            <Link to={`/fundraising-event/${event.id}`}>About this event</Link> ·{" "}
            <Link to="/fundraising">All fundraising events</Link>
          </p>
        </section>
      ) : (
        <BookingForm
          event={{
            id: event.id,
            name: event.name,
            eventDate: event.eventDate,
            location: event.location,
            ticketCostPence: event.ticketCostPence,
          }}
          remaining={availability?.remaining ?? 0}
          provider={provider}
          publishableKey={publishableKey}
        />
      )}
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
